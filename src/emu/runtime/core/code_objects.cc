// Code objects and what the program registers from them: fat binaries (at start-up) and modules
// (hipModuleLoad*) become Modules; host stubs, device variables and managed variables are looked up
// here when a launch, a copy to a symbol or a query names them.
#include "emu/runtime/core/runtime.h"

#include <cstring>
#include <dlfcn.h>

namespace gpuport::emu::hip {

Module* load_module(std::string_view image, const std::string& origin) {
  auto module = std::make_unique<Module>();
  auto co = gpuport::amdgpu::load_code_object_from_bytes(image, origin);
  if (!co) {
    module->load_error = fmt::format("{}: {}", origin, co.diagnostics()[0].message);
    module->load_status = co.diagnostics()[0].code == "no-gfx1100-code-object" ? hipErrorNoBinaryForGpu : hipErrorInvalidImage;
  } else {
    module->code_object = std::make_unique<gpuport::amdgpu::CodeObject>(std::move(*co));
  }
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (module->code_object) {
    auto& mem = module->code_object->memory;
    rt.memory.add(reinterpret_cast<std::uint64_t>(mem.data()), mem.size(), AddressSpace::Kind::code_object, "code object image");
  }
  rt.modules.push_back(std::move(module));
  return rt.modules.back().get();
}

void unload_module(Module* module) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  for (const auto& [name, f] : module->functions) rt.function_handles.erase(f.get());
  if (module->code_object) rt.memory.release(reinterpret_cast<std::uint64_t>(module->code_object->memory.data()));
  std::erase_if(rt.modules, [&](const auto& m) { return m.get() == module; });
}

std::size_t offload_bundle_size(const void* image) {
  const char* b = static_cast<const char*>(image);
  constexpr std::string_view magic = "__CLANG_OFFLOAD_BUNDLE__";
  if (std::memcmp(b, magic.data(), magic.size()) != 0) return 0;
  std::uint64_t count = 0, end = magic.size() + 8;
  std::memcpy(&count, b + magic.size(), 8);
  std::size_t at = end;
  for (std::uint64_t i = 0; i < count && i < 1024; ++i) {
    std::uint64_t offset, size, triple;
    std::memcpy(&offset, b + at, 8);
    std::memcpy(&size, b + at + 8, 8);
    std::memcpy(&triple, b + at + 16, 8);
    at += 24 + triple;
    end = std::max<std::uint64_t>({end, offset + size, at});
  }
  return end;
}

// The code object of a registered fat binary (the clang offload bundle clang embeds): the
// wrapper gives no size, so the bundle's size is where its last entry ends.
Module* load_module(const void* bundle) {
  const char* b = static_cast<const char*>(bundle);
  const std::size_t size = offload_bundle_size(b);
  // Named by the file it lies in: the program's own, or a library's (rocRAND's, hipCUB users'...).
  Dl_info where{};
  const bool named = dladdr(b, &where) && where.dli_fname && *where.dli_fname;
  Module* m = load_module(std::string_view(b, size ? size : 24), named ? fmt::format("the offload bundle of {}", where.dli_fname)
                                                          : std::string("the program's offload bundle"));
  if (!m->code_object && size == 0)
    m->load_error = "the registered fat binary is not a clang offload bundle";
  return m;
}

const gpuport::amdgpu::CodeObject::Symbol* find_global(const Module& m, const std::string& name) {
  if (!m.code_object) return nullptr;
  for (const auto& g : m.code_object->globals)
    if (g.name == name) return &g;
  return nullptr;
}

void* device_address_of(const void* symbol, size_t* size) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.variables.find(symbol);
  if (it == rt.variables.end()) return nullptr;
  const auto* g = find_global(*it->second.module, it->second.name);
  if (!g) return nullptr;
  if (size) *size = g->size;
  return it->second.module->code_object->memory.data() + g->address;
}

const Function* find_function(const void* function, bool handles) {
  auto& rt = runtime();
  if (auto it = rt.functions.find(function); it != rt.functions.end()) return &it->second;
  if (handles && rt.function_handles.count(function)) return static_cast<const Function*>(function);
  return nullptr;
}

const gpuport::amdgpu::Kernel* kernel_of(const void* function) {
  const Function* f = find_function(function);
  if (!f || !f->module->code_object) return nullptr;
  return f->module->code_object->find_kernel(f->name);
}

void register_function(Module* module, const void* host_function, const char* device_name) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.functions[host_function] = {module, device_name};
}

void register_variable(Module* module, const void* host_variable, const char* device_name, size_t size) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.variables[host_variable] = {module, device_name, size};
}

void* register_managed_variable(Module* module, const char* name, const void* initial, size_t size) {
  // The device symbol holds a pointer to memory both sides use.
  void* storage = allocate(size, AddressSpace::Kind::device, name);
  if (initial) std::memcpy(storage, initial, size);
  if (const auto* g = find_global(*module, name); g && g->size >= sizeof(void*))
    std::memcpy(module->code_object->memory.data() + g->address, &storage, sizeof(void*));
  return storage;
}

}  // namespace gpuport::emu::hip
