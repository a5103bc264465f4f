// The HIP runtime of `gpuport run`: a shared library with the SONAME and exported ABI of
// Debian's libamdhip64.so.5 (HIP 5.2), so that an unmodified HIP executable built by clang for
// gfx1100 runs its kernels on gpuport's emulator. Types and prototypes come from the installed
// HIP 5.2 headers, so every structure (hipDeviceProp_t, ...) has the layout the program expects.
//
// Model: one device ("gfx1100, emulated"); device memory is host memory, every block registered
// with the emulator's address space so that each kernel access is checked; every operation runs
// to completion when it is issued, in issue order, which keeps the ordering CUDA/HIP streams
// promise (events record host time, so elapsed times are emulated times). Functions of the
// HIP 5.2 ABI that are not implemented here return hipErrorNotSupported and say so once on
// stderr (exports_stubs.cc, generated from data/emu/hip-5.2-exports.tsv). The API families beyond
// launch, registration, device, memory and errors live beside this file, one each (streams.cc:
// streams, events and capture; graphs.cc; modules.cc; copies.cc; memory_pools.cc; ...).
#include "emu/runtime/runtime.h"
#include "emu/runtime/streams.h"

#include <atomic>
#include <cstring>
#include <dlfcn.h>

namespace gpuport::emu::hip {

Runtime& runtime() {
  static Runtime* r = new Runtime();  // never destroyed before the program's own static destructors
  return *r;
}

// --memcheck's leak check: blocks the program allocated and never freed, at exit (the runtime's
// own blocks, for hostcalls and the device heap, are not the program's).
void report_leaks() {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  std::size_t blocks = 0, bytes = 0;
  std::string first;
  for (const auto& [p, what] : rt.origin) {
    const std::string_view w = what;
    if (w == "hostcall buffer" || w == "hostcall doorbell" || w == "device heap") continue;
    const std::size_t size = rt.allocations.count(p) ? rt.allocations.at(p) : 0;
    if (blocks++ == 0) first = fmt::format("{} bytes at {:#x} ({})", size, p, what);
    bytes += size;
  }
  if (blocks)
    rt.report_finding(fmt::format("memcheck: {} bytes in {} block{} never freed (leaked); the first: {}", bytes, blocks,
                                  blocks == 1 ? "" : "s", first));
}

struct Stats {
  ~Stats() {
    if (runtime().check_leaks) report_leaks();
    runtime().write_stats();
  }
} stats_at_exit;

thread_local hipError_t last_error = hipSuccess;

hipError_t ret(hipError_t e) {
  if (e != hipSuccess) last_error = e;
  return e;
}

void say_refused(const std::string& call, const std::string& reason, const std::string& outcome) {
  auto& rt = runtime();
  const std::string message = fmt::format("{}: {} ({})", call, reason, outcome);
  std::lock_guard lock(rt.mutex);
  if (rt.unsupported_said.insert(message).second) std::fprintf(stderr, "gpuport run: %s\n", message.c_str());
}

hipError_t refuse(const std::string& call, const std::string& reason, hipError_t e) {
  say_refused(call, reason, fmt::format("returns {}", hipGetErrorName(e)));
  return ret(e);
}

struct CallConfiguration {
  dim3 grid, block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
};
thread_local std::vector<CallConfiguration> call_stack;

void* allocate(size_t size, AddressSpace::Kind kind, const char* what) {
  // Whole pages, as a GPU driver hands out device memory: code relies on it (the device
  // library's free() tells a large block from a slab's by 4 KiB alignment).
  constexpr size_t kPage = 4096;
  // Beyond the device's memory (hipMalloc(SIZE_MAX) among them, whose rounding would wrap): out
  // of memory, as on the GPU.
  if (size > kDeviceMemoryBytes) return nullptr;
  const size_t rounded = std::max<size_t>(kPage, (size + kPage - 1) / kPage * kPage);
  void* p = std::aligned_alloc(kPage, rounded);
  if (!p) return nullptr;
  std::memset(p, 0, rounded);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.allocations[reinterpret_cast<std::uintptr_t>(p)] = size;
  rt.origin[reinterpret_cast<std::uintptr_t>(p)] = what;
  rt.memory.add(reinterpret_cast<std::uint64_t>(p), size, kind, what);
  return p;
}

bool host_memory_accessible(std::uintptr_t address, size_t bytes, bool write) {
  struct Mapping {
    std::uintptr_t start, end;
    bool read, write;
  };
  static std::mutex mutex;
  static std::vector<Mapping> mappings;  // sorted by start, as the kernel lists them
  if (bytes == 0) return true;
  if (address + bytes < address) return false;
  auto covered = [&] {
    std::uintptr_t at = address;
    auto it = std::upper_bound(mappings.begin(), mappings.end(), at, [](std::uintptr_t a, const Mapping& m) { return a < m.start; });
    if (it == mappings.begin()) return false;
    for (--it; it != mappings.end() && it->start <= at; ++it) {
      if (at >= it->end) continue;
      if (!it->read || (write && !it->write)) return false;
      at = it->end;
      if (at >= address + bytes) return true;
    }
    return false;
  };
  std::lock_guard lock(mutex);
  if (covered()) return true;
  mappings.clear();
  if (FILE* f = std::fopen("/proc/self/maps", "re")) {
    unsigned long start = 0, end = 0;
    char perms[8] = {};
    char line[4096];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "%lx-%lx %7s", &start, &end, perms) == 3) mappings.push_back({start, end, perms[0] == 'r', perms[1] == 'w'});
    std::fclose(f);
  }
  return covered();
}

hipError_t release(void* p) {
  if (!p) return hipSuccess;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.allocations.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == rt.allocations.end()) return ret(hipErrorInvalidValue);
  rt.allocations.erase(it);
  rt.origin.erase(reinterpret_cast<std::uintptr_t>(p));
  rt.memory.release(reinterpret_cast<std::uint64_t>(p));
  std::free(p);
  return hipSuccess;
}

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

// The code object of a registered fat binary (the clang offload bundle clang embeds): the
// wrapper gives no size, so the bundle's size is where its last entry ends.
Module* load_module(const void* bundle) {
  const char* b = static_cast<const char*>(bundle);
  constexpr std::string_view magic = "__CLANG_OFFLOAD_BUNDLE__";
  std::uint64_t end = magic.size();
  if (std::memcmp(b, magic.data(), magic.size()) == 0) {
    std::uint64_t count = 0;
    std::memcpy(&count, b + magic.size(), 8);
    std::size_t at = magic.size() + 8;
    end = at;
    for (std::uint64_t i = 0; i < count && i < 64; ++i) {
      std::uint64_t offset, size, triple;
      std::memcpy(&offset, b + at, 8);
      std::memcpy(&size, b + at + 8, 8);
      std::memcpy(&triple, b + at + 16, 8);
      at += 24 + triple;
      end = std::max<std::uint64_t>({end, offset + size, at});
    }
  }
  // Named by the file it lies in: the program's own, or a library's (rocRAND's, hipCUB users'...).
  Dl_info where{};
  const bool named = dladdr(b, &where) && where.dli_fname && *where.dli_fname;
  Module* m = load_module(std::string_view(b, end), named ? fmt::format("the offload bundle of {}", where.dli_fname)
                                                          : std::string("the program's offload bundle"));
  if (!m->code_object && std::memcmp(b, magic.data(), magic.size()) != 0)
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

hipError_t make_launch(KernelLaunch& launch, void** kernel_params, void** extra) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const Function* f = find_function(launch.function);
  if (!f) return ret(hipErrorInvalidDeviceFunction);
  if (!f->module->code_object) rt.fail(f->module->load_error);
  const auto* kernel = f->module->code_object->find_kernel(f->name);
  if (!kernel) rt.fail("kernel " + f->name + " is registered by the program but not in its gfx1100 code object");
  const dim3 g = launch.grid, b = launch.block;
  const std::uint64_t threads = std::uint64_t(b.x) * b.y * b.z;
  const std::uint32_t max_threads = kernel->max_flat_workgroup_size ? kernel->max_flat_workgroup_size : 1024;
  if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z || threads > max_threads || b.x > 1024 || b.y > 1024 || b.z > 1024)
    return ret(hipErrorInvalidConfiguration);
  // The dispatch packet counts work-items per dimension in 32 bits: HIP refuses a launch whose
  // grid (blocks times block size) does not fit, with this error.
  constexpr std::uint64_t kMaxWorkItems = 0xffffffffull;
  if (std::uint64_t(g.x) * b.x > kMaxWorkItems || std::uint64_t(g.y) * b.y > kMaxWorkItems || std::uint64_t(g.z) * b.z > kMaxWorkItems)
    return ret(hipErrorInvalidConfiguration);
  if (std::uint64_t(kernel->group_segment_fixed_size) + launch.shared > 65536) return ret(hipErrorInvalidValue);
  if (kernel_params && extra) return ret(hipErrorInvalidValue);
  launch.arguments.assign(std::max<std::size_t>(kernel->kernarg_segment_size, 16), 0);
  launch.offsets.clear();
  for (const auto& a : kernel->arguments)
    if (!a.value_kind.starts_with("hidden_")) launch.offsets.push_back(a.offset);
  if (extra) {
    // { HIP_LAUNCH_PARAM_BUFFER_POINTER, buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END }
    const void* buffer = nullptr;
    const size_t* size = nullptr;
    for (void** e = extra; *e != HIP_LAUNCH_PARAM_END; e += 2) {
      if (e[0] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buffer = e[1];
      else if (e[0] == HIP_LAUNCH_PARAM_BUFFER_SIZE) size = static_cast<const size_t*>(e[1]);
      else return ret(hipErrorInvalidValue);
    }
    if (!buffer || !size) return ret(hipErrorInvalidValue);
    // A buffer may run past the kernel's kernarg segment (rocBLAS's Tensile launches pad theirs:
    // 116 bytes for a 112-byte segment); the kernel reads only its segment.
    std::memcpy(launch.arguments.data(), buffer, std::min(*size, launch.arguments.size()));
    return hipSuccess;
  }
  std::size_t index = 0;
  for (const auto& a : kernel->arguments) {
    if (a.value_kind.starts_with("hidden_")) continue;
    if (!kernel_params || !kernel_params[index]) return ret(hipErrorInvalidValue);
    if (a.offset + a.size <= launch.arguments.size()) std::memcpy(launch.arguments.data() + a.offset, kernel_params[index], a.size);
    ++index;
  }
  return hipSuccess;
}

hipError_t run_launch(const KernelLaunch& launch) {
  auto& rt = runtime();
  std::shared_ptr<gpuport::emu::PreparedKernel> prepared;
  Module* module = nullptr;
  std::string name;
  {
    std::lock_guard lock(rt.mutex);
    const Function* f = find_function(launch.function);
    if (!f) return ret(hipErrorInvalidDeviceFunction);  // its module was unloaded since
    module = f->module;
    name = f->name;
    if (!module->code_object) rt.fail(module->load_error);
    auto p = module->prepared.find(name);
    if (p != module->prepared.end()) {
      prepared = p->second;
    } else {
      const auto* kernel = module->code_object->find_kernel(name);
      if (!kernel) rt.fail("kernel " + name + " is registered by the program but not in its gfx1100 code object");
      auto r = gpuport::emu::prepare_kernel(*module->code_object, *kernel, rt.disassembler(!kernel->descriptor.wave32));
      if (!r) {
        std::string message;
        for (const auto& d : r.diagnostics()) message += (message.empty() ? "" : "\ngpuport run: ") + d.message;
        rt.fail(message);
      }
      prepared = *r;
      module->prepared[name] = prepared;
    }
  }
  gpuport::emu::Launch L;
  L.grid = {launch.grid.x, launch.grid.y, launch.grid.z};
  L.block = {launch.block.x, launch.block.y, launch.block.z};
  L.dynamic_lds = launch.shared;
  L.jobs = rt.jobs;
  L.timeout_seconds = rt.timeout;
  L.kernarg = launch.arguments;
  L.memcheck = rt.check_lds_init;
  attach_services(*prepared->kernel, L);
  auto r = gpuport::emu::run_kernel(*prepared, std::move(L), rt.memory,
                                    reinterpret_cast<std::uint64_t>(module->code_object->memory.data()));
  if (!r) rt.fail(r.diagnostics()[0].message);
  for (const auto& m : r->memcheck) rt.report_finding("initcheck: " + m);
  std::lock_guard lock(rt.mutex);
  auto& s = rt.stats[name];
  ++s.launches;
  s.instructions += r->instructions;
  s.lane_instructions += r->lane_instructions;
  s.seconds += r->seconds;
  return hipSuccess;
}

hipError_t launch(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream) {
  Operation op;
  auto& k = op.emplace<KernelLaunch>();
  k.function = function;
  k.grid = grid;
  k.block = block;
  k.shared = static_cast<unsigned>(shared);
  {
    std::lock_guard lock(runtime().mutex);
    if (!find_function(function, false)) return ret(hipErrorInvalidDeviceFunction);
  }
  if (hipError_t e = make_launch(k, args, nullptr)) return e;
  return submit(stream, std::move(op));
}

hipFuncAttributes attributes_of(const gpuport::amdgpu::Kernel& k) {
  hipFuncAttributes attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.sharedSizeBytes = k.group_segment_fixed_size;
  attr.localSizeBytes = k.private_segment_fixed_size;
  attr.maxThreadsPerBlock = k.max_flat_workgroup_size ? static_cast<int>(k.max_flat_workgroup_size) : 1024;
  attr.numRegs = static_cast<int>(k.vgpr_count);
  attr.maxDynamicSharedSizeBytes = 65536 - static_cast<int>(k.group_segment_fixed_size);
  attr.binaryVersion = 110;
  attr.ptxVersion = 110;
  return attr;
}

// Occupancy from the kernel's registers and LDS against one gfx1100 WGP-mode CU: 64 KiB of LDS,
// 1536 VGPRs per SIMD lane slot budget (16 waves of up to 96 VGPRs), 2048 threads.
int blocks_per_cu(const gpuport::amdgpu::Kernel& k, int block_size, size_t dynamic) {
  // One "multiprocessor" of the 48 the device reports is a gfx1100 WGP (HIP counts WGPs on RDNA):
  // 4 SIMD32s of 16 wave slots and 1536 VGPRs each (768 in wave64), allocated in granules of 24
  // (12 in wave64), 2048 threads, 128 KiB of LDS (at most 64 KiB for one workgroup).
  if (block_size <= 0) return 0;
  const int wave = k.descriptor.wave32 ? 32 : 64;
  const int waves = (block_size + wave - 1) / wave;
  const int by_threads = 2048 / (waves * wave);
  const size_t lds = k.group_segment_fixed_size + dynamic;
  if (lds > 65536) return 0;
  const int by_lds = lds ? static_cast<int>(131072 / lds) : by_threads;
  const int granule = wave == 32 ? 24 : 12;
  const int vgprs = std::max<int>(1, static_cast<int>(k.vgpr_count));
  const int allocated = (vgprs + granule - 1) / granule * granule;
  const int waves_per_simd = std::min(16, (wave == 32 ? 1536 : 768) / allocated);
  const int by_vgprs = waves_per_simd * 4 / waves;
  return std::max(0, std::min({by_threads, by_lds, by_vgprs}));
}

void max_potential_block_size(const gpuport::amdgpu::Kernel& k, size_t dynamic, int limit, int* grid_size, int* block_size) {
  int best = 0, best_threads = 0;
  const int max_block = std::min<int>(limit > 0 ? limit : 1024, k.max_flat_workgroup_size ? static_cast<int>(k.max_flat_workgroup_size) : 1024);
  for (int b = 32; b <= max_block; b += 32) {
    const int t = blocks_per_cu(k, b, dynamic) * b;
    if (t >= best_threads) best_threads = t, best = b;
  }
  *block_size = best ? best : 32;
  *grid_size = 48 * std::max(1, blocks_per_cu(k, *block_size, dynamic));
}
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;
using gpuport::emu::AddressSpace;

// ---- registration (what clang's host code calls at start-up and for <<<>>>) -------------------
extern "C" {

struct FatBinaryWrapper {
  unsigned int magic, version;
  const void* binary;
  const void* unused;
};

void** __hipRegisterFatBinary(const void* data) {
  const auto* wrapper = static_cast<const FatBinaryWrapper*>(data);
  return reinterpret_cast<void**>(load_module(wrapper->binary));
}

void __hipUnregisterFatBinary(void** /*modules*/) {}

void __hipRegisterFunction(void** modules, const void* host_function, char* /*device_function*/, const char* device_name,
                           unsigned int, void*, void*, void*, void*, int*) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.functions[host_function] = {reinterpret_cast<Module*>(modules), device_name};
}

void __hipRegisterVar(void** modules, void* var, char* /*host_var*/, char* device_var, int, size_t size, int, int) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  Module* m = reinterpret_cast<Module*>(modules);
  rt.variables[var] = {m, device_var, size};
}

void __hipRegisterManagedVar(void* hip_module, void** pointer, void* init_value, const char* name, size_t size, unsigned) {
  // A __managed__ variable: the device symbol holds a pointer to memory both sides use.
  void* storage = allocate(size, AddressSpace::Kind::device, name);
  if (init_value) std::memcpy(storage, init_value, size);
  *pointer = storage;
  Module* m = static_cast<Module*>(hip_module);
  if (const auto* g = find_global(*m, name); g && g->size >= sizeof(void*))
    std::memcpy(m->code_object->memory.data() + g->address, &storage, sizeof(void*));
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared, hipStream_t stream) {
  call_stack.push_back({grid, block, shared, stream});
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, hipStream_t* stream) {
  if (call_stack.empty()) return ret(hipErrorInvalidConfiguration);
  const auto c = call_stack.back();
  call_stack.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *stream = c.stream;
  return hipSuccess;
}

}  // extern "C"

// ---- kernels --------------------------------------------------------------------------------
hipError_t hipLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream) {
  return launch(function, grid, block, args, shared, stream);
}

hipError_t hipLaunchCooperativeKernel(const void* f, dim3 grid, dim3 block, void** args, unsigned int shared, hipStream_t s) {
  return hipLaunchKernel(f, grid, block, args, shared, s);
}


hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* function) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* k = kernel_of(function);
  if (!k) return ret(hipErrorInvalidDeviceFunction);
  if (!attr) return ret(hipErrorInvalidValue);
  *attr = attributes_of(*k);
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void*, hipFuncAttribute, int) { return hipSuccess; }
hipError_t hipFuncSetCacheConfig(const void*, hipFuncCache_t) { return hipSuccess; }
hipError_t hipFuncSetSharedMemConfig(const void*, hipSharedMemConfig) { return hipSuccess; }


hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* f, int block_size, size_t dynamic) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* k = kernel_of(f);
  if (!k) return ret(hipErrorInvalidDeviceFunction);
  *blocks = blocks_per_cu(*k, block_size, dynamic);
  return hipSuccess;
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* f, int block_size, size_t dynamic, unsigned int) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block_size, dynamic);
}

hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, const void* f, size_t dynamic, int limit) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* k = kernel_of(f);
  if (!k) return ret(hipErrorInvalidDeviceFunction);
  max_potential_block_size(*k, dynamic, limit, grid_size, block_size);
  return hipSuccess;
}

// ---- memory ---------------------------------------------------------------------------------
// Allocation and release may synchronize the device: refused while the thread may not make
// potentially unsafe calls during a stream capture (check_unsafe_call).
static hipError_t device_malloc(void** p, size_t size, const char* what) {
  if (!p) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_unsafe_call()) return e;
  if (size == 0) {
    *p = nullptr;
    return hipSuccess;
  }
  *p = allocate(size, AddressSpace::Kind::device, what);
  return *p ? hipSuccess : ret(hipErrorOutOfMemory);
}
hipError_t hipMalloc(void** p, size_t size) { return device_malloc(p, size, "hipMalloc"); }
hipError_t hipMallocManaged(void** p, size_t size, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return ret(hipErrorInvalidValue);
  return device_malloc(p, size, kManagedAllocation);
}
hipError_t hipExtMallocWithFlags(void** p, size_t size, unsigned int) { return hipMalloc(p, size); }
// The flags pinned host memory was allocated or registered with (hipHostGetFlags), by its start.
static std::map<const void*, unsigned> host_flags;

hipError_t hipHostMalloc(void** p, size_t size, unsigned int flags) {
  if (!p) return ret(hipErrorInvalidValue);
  *p = size ? allocate(size, AddressSpace::Kind::host, "hipHostMalloc") : nullptr;
  if (size && !*p) return ret(hipErrorOutOfMemory);
  std::lock_guard lock(runtime().mutex);
  if (*p) host_flags[*p] = flags;
  return hipSuccess;
}
hipError_t hipMallocHost(void** p, size_t size) { return hipHostMalloc(p, size, 0); }
hipError_t hipHostAlloc(void** p, size_t size, unsigned int flags) { return hipHostMalloc(p, size, flags); }
hipError_t hipFree(void* p) {
  if (hipError_t e = check_unsafe_call()) return e;
  return release(p);
}
hipError_t hipHostFree(void* p) {
  {
    std::lock_guard lock(runtime().mutex);
    host_flags.erase(p);
  }
  return release(p);
}
hipError_t hipFreeHost(void* p) { return hipHostFree(p); }
hipError_t hipMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  if (!p || !pitch) return ret(hipErrorInvalidValue);
  if (width > kDeviceMemoryBytes) return ret(hipErrorOutOfMemory);
  *pitch = (width + 255) / 256 * 256;
  size_t bytes = 0;
  if (__builtin_mul_overflow(*pitch, height, &bytes)) return ret(hipErrorOutOfMemory);
  return hipMalloc(p, bytes);
}
hipError_t hipHostRegister(void* p, size_t size, unsigned int flags) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.add(reinterpret_cast<std::uint64_t>(p), size, AddressSpace::Kind::host, "hipHostRegister");
  host_flags[p] = flags;
  return hipSuccess;
}
hipError_t hipHostUnregister(void* p) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.forget(reinterpret_cast<std::uint64_t>(p));
  host_flags.erase(p);
  return hipSuccess;
}
hipError_t hipHostGetDevicePointer(void** device, void* host, unsigned int) {
  *device = host;
  return hipSuccess;
}
hipError_t hipHostGetFlags(unsigned int* flags, void* p) {
  if (!flags) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  // The block p lies in: the last one starting at or before it, if p is inside it.
  auto it = host_flags.upper_bound(p);
  if (it == host_flags.begin()) return ret(hipErrorInvalidValue);
  --it;
  const auto* r = runtime().memory.find(reinterpret_cast<std::uint64_t>(it->first), 1);
  if (!r || reinterpret_cast<std::uint64_t>(p) >= r->base + std::max<std::uint64_t>(r->size, 1)) return ret(hipErrorInvalidValue);
  *flags = it->second;
  return hipSuccess;
}
hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
  *total = kDeviceMemoryBytes;
  size_t used = 0;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  for (const auto& [p, size] : rt.allocations) used += size;
  *free_bytes = used < *total ? *total - used : 0;
  return hipSuccess;
}
hipError_t hipGetSymbolAddress(void** device, const void* symbol) {
  void* p = device_address_of(symbol, nullptr);
  if (!p) return ret(hipErrorInvalidSymbol);
  *device = p;
  return hipSuccess;
}
hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  if (!device_address_of(symbol, size)) return ret(hipErrorInvalidSymbol);
  return hipSuccess;
}
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  std::memset(attributes, 0, sizeof(*attributes));
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* r = rt.memory.find(reinterpret_cast<std::uint64_t>(ptr), 1);
  if (!r) {
    pointer_memory_type(*attributes) = hipMemoryTypeHost;
    return ret(hipErrorInvalidValue);
  }
  attributes->isManaged = r->name == kManagedAllocation;
  pointer_memory_type(*attributes) = attributes->isManaged               ? kManagedMemoryType
                                     : r->kind == AddressSpace::Kind::host ? hipMemoryTypeHost
                                                                           : hipMemoryTypeDevice;
  attributes->devicePointer = const_cast<void*>(ptr);
  attributes->hostPointer = r->kind == AddressSpace::Kind::host || attributes->isManaged ? const_cast<void*>(ptr) : nullptr;
  attributes->device = 0;
  return hipSuccess;
}

// ---- device ---------------------------------------------------------------------------------
// One description of the emulated device, for each layout of hipDeviceProp_t this build's HIP
// declares (HIP 6: hipDeviceProp_tR0600, and the 5.x layout as hipDeviceProp_tR0000); members
// only one layout has are filled where it has them.
template <class Properties>
static Properties device_properties_as() {
  Properties p;
  std::memset(&p, 0, sizeof(p));
  std::snprintf(p.name, sizeof(p.name), "AMD Radeon RX 7900 XTX (gfx1100, emulated by gpuport)");
  std::snprintf(p.gcnArchName, sizeof(p.gcnArchName), "gfx1100");
  p.totalGlobalMem = kDeviceMemoryBytes;
  p.sharedMemPerBlock = 65536;
  p.regsPerBlock = 65536;
  p.warpSize = std::getenv("GPUPORT_RUN_WAVE64") ? 64 : 32;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = p.maxThreadsDim[1] = p.maxThreadsDim[2] = 1024;
  p.maxGridSize[0] = 2147483647;
  p.maxGridSize[1] = p.maxGridSize[2] = 65536;
  p.clockRate = 2500000;
  p.memoryClockRate = 1250000;
  p.memoryBusWidth = 384;
  p.totalConstMem = 2147483647;
  p.major = 11;
  p.minor = 0;
  p.multiProcessorCount = 48;
  p.l2CacheSize = 6 << 20;
  p.maxThreadsPerMultiProcessor = 2048;
  p.computeMode = 0;
  p.clockInstructionRate = 1000000;
  p.concurrentKernels = 1;
  p.pciBusID = 3;
  p.maxSharedMemoryPerMultiProcessor = 65536;
  p.canMapHostMemory = 1;
  if constexpr (requires { p.gcnArch; }) p.gcnArch = 1100;
  if constexpr (requires { p.unifiedAddressing; }) {
    p.unifiedAddressing = 1;
    p.asyncEngineCount = 1;
    p.sharedMemPerMultiprocessor = 65536;
    p.regsPerMultiprocessor = 65536;
    p.maxBlocksPerMultiProcessor = 32;
    p.sharedMemPerBlockOptin = 65536;
    p.hostNativeAtomicSupported = 1;
    p.memoryPoolsSupported = 1;
    p.canUseHostPointerForRegisteredMem = 1;
    p.hostRegisterSupported = 1;
    std::snprintf(p.uuid.bytes, sizeof(p.uuid.bytes), "gpuport-gfx1100");
  }
  p.cooperativeLaunch = 1;
  p.cooperativeMultiDeviceLaunch = 0;
  p.maxTexture1DLinear = 1 << 27;
  p.maxTexture1D = 16384;
  p.maxTexture2D[0] = p.maxTexture2D[1] = 16384;
  p.maxTexture3D[0] = p.maxTexture3D[1] = p.maxTexture3D[2] = 2048;
  p.memPitch = 2147483647;
  p.textureAlignment = 256;
  p.texturePitchAlignment = 256;
  p.managedMemory = 1;
  p.concurrentManagedAccess = 1;
  p.directManagedMemAccessFromHost = 1;
  p.pageableMemoryAccess = 0;
  p.arch.hasGlobalInt32Atomics = p.arch.hasGlobalFloatAtomicExch = p.arch.hasSharedInt32Atomics = 1;
  p.arch.hasSharedFloatAtomicExch = p.arch.hasFloatAtomicAdd = p.arch.hasGlobalInt64Atomics = 1;
  p.arch.hasSharedInt64Atomics = p.arch.hasDoubles = p.arch.hasWarpVote = p.arch.hasWarpBallot = 1;
  p.arch.hasWarpShuffle = p.arch.hasFunnelShift = p.arch.hasThreadFenceSystem = p.arch.hasSyncThreadsExt = 1;
  p.arch.hasDynamicParallelism = 0;
  p.arch.has3dGrid = 1;
  return p;
}
static hipDeviceProp_t device_properties() { return device_properties_as<hipDeviceProp_t>(); }

hipError_t hipGetDeviceCount(int* count) {
  *count = 1;
  return hipSuccess;
}
hipError_t hipGetDevice(int* device) {
  *device = runtime().current_device;
  return hipSuccess;
}
hipError_t hipSetDevice(int device) { return device == 0 ? hipSuccess : ret(hipErrorInvalidDevice); }
hipError_t hipSetDeviceFlags(unsigned flags) {
  runtime().device_flags = flags;
  return hipSuccess;
}
hipError_t hipGetDeviceFlags(unsigned int* flags) {
  *flags = runtime().device_flags;
  return hipSuccess;
}
hipError_t hipChooseDevice(int* device, const hipDeviceProp_t*) {
  *device = 0;
  return hipSuccess;
}
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  *prop = device_properties();
  return hipSuccess;
}
#if HIP_VERSION_MAJOR >= 6
// HIP 6 keeps the 5.x layout under these names (hip/hip_deprecated.h).
hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_tR0000* prop, int device) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  *prop = device_properties_as<hipDeviceProp_tR0000>();
  return hipSuccess;
}
hipError_t hipChooseDeviceR0000(int* device, const hipDeviceProp_tR0000*) {
  *device = 0;
  return hipSuccess;
}
#endif
hipError_t hipDeviceGetName(char* name, int len, int device) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  std::snprintf(name, static_cast<size_t>(len), "%s", device_properties().name);
  return hipSuccess;
}
hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t) {
  *bytes = device_properties().totalGlobalMem;
  return hipSuccess;
}
hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t) {
  *major = 11;
  *minor = 0;
  return hipSuccess;
}
hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  if (ordinal != 0) return ret(hipErrorInvalidDevice);
  *device = 0;
  return hipSuccess;
}
hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attribute, int device) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  const hipDeviceProp_t p = device_properties();
  switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case hipDeviceAttributeSharedMemPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: *value = p.regsPerBlock; break;
    case hipDeviceAttributeClockRate: *value = p.clockRate; break;
    case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeComputeMode: *value = p.computeMode; break;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
    case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; break;
    case hipDeviceAttributePciBusId: *value = p.pciBusID; break;
    case hipDeviceAttributePciDeviceId: *value = p.pciDeviceID; break;
    case hipDeviceAttributePciDomainID: *value = p.pciDomainID; break;
    case hipDeviceAttributeIsMultiGpuBoard: *value = 0; break;
    case hipDeviceAttributeIntegrated: *value = 0; break;
    case hipDeviceAttributeCooperativeLaunch: *value = p.cooperativeLaunch; break;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: *value = p.cooperativeMultiDeviceLaunch; break;
    case hipDeviceAttributeCanMapHostMemory: *value = 1; break;
    case hipDeviceAttributeManagedMemory: *value = 1; break;
    case hipDeviceAttributeConcurrentManagedAccess: *value = 1; break;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: *value = 1; break;
    case hipDeviceAttributePageableMemoryAccess: *value = 0; break;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables: *value = 0; break;
    case hipDeviceAttributeUnifiedAddressing: *value = 1; break;
    case hipDeviceAttributeEccEnabled: *value = 0; break;
    case hipDeviceAttributeKernelExecTimeout: *value = 0; break;
    case hipDeviceAttributeTextureAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case hipDeviceAttributeTexturePitchAlignment: *value = static_cast<int>(p.texturePitchAlignment); break;
    case hipDeviceAttributeMaxPitch: *value = static_cast<int>(p.memPitch); break;
    case hipDeviceAttributeMaxTexture1DWidth: *value = p.maxTexture1D; break;
    case hipDeviceAttributeMaxTexture1DLinear: *value = p.maxTexture1DLinear; break;
    case hipDeviceAttributeMaxTexture2DWidth: *value = p.maxTexture2D[0]; break;
    case hipDeviceAttributeMaxTexture2DHeight: *value = p.maxTexture2D[1]; break;
    case hipDeviceAttributeMaxTexture3DWidth: *value = p.maxTexture3D[0]; break;
    case hipDeviceAttributeMaxTexture3DHeight: *value = p.maxTexture3D[1]; break;
    case hipDeviceAttributeMaxTexture3DDepth: *value = p.maxTexture3D[2]; break;
    case hipDeviceAttributeAsyncEngineCount: *value = 1; break;
    case hipDeviceAttributeGlobalL1CacheSupported: *value = 1; break;
    case hipDeviceAttributeLocalL1CacheSupported: *value = 1; break;
    case hipDeviceAttributeStreamPrioritiesSupported: *value = 1; break;
    case hipDeviceAttributeHostNativeAtomicSupported: *value = 1; break;
    case hipDeviceAttributeClockInstructionRate: *value = p.clockInstructionRate; break;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: *value = 32; break;
    case hipDeviceAttributeIsLargeBar: *value = 0; break;
    case hipDeviceAttributeAsicRevision: *value = 0; break;
    case hipDeviceAttributePhysicalMultiProcessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeFineGrainSupport: *value = 1; break;
    case hipDeviceAttributeMemoryPoolsSupported: *value = 1; break;
    case hipDeviceAttributeCanUseStreamWaitValue: *value = 1; break;
    case hipDeviceAttributeImageSupport: *value = 1; break;
    case hipDeviceAttributeDeviceOverlap: *value = 1; break;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem: *value = 1; break;
    case hipDeviceAttributeComputePreemptionSupported: *value = 0; break;
    // Cooperative launches over several devices are not made (one device).
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem: *value = 0; break;
    case hipDeviceAttributeMaxSurface1D: *value = p.maxTexture1D; break;
    case hipDeviceAttributeMaxTexture1DMipmap: *value = p.maxTexture1D; break;
    case hipDeviceAttributeSurfaceAlignment: *value = static_cast<int>(p.textureAlignment); break;
    case hipDeviceAttributeSharedMemPerMultiprocessor: *value = static_cast<int>(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeReservedSharedMemPerBlock: *value = 0; break;
    case hipDeviceAttributePersistingL2CacheMaxSize: *value = 0; break;
    case hipDeviceAttributeAccessPolicyMaxWindowSize: *value = 0; break;
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio: *value = 32; break;  // RDNA3: FP64 at 1/32 of FP32
    case hipDeviceAttributeTccDriver: *value = 0; break;
    case hipDeviceAttributeMultiGpuBoardGroupID: *value = 0; break;
#if HIP_VERSION_MAJOR >= 6
    case hipDeviceAttributeHostRegisterSupported: *value = 1; break;
    case hipDeviceAttributeVirtualMemoryManagementSupported: *value = 1; break;
    case hipDeviceAttributeWallClockRate: *value = 100000; break;  // kHz: s_memrealtime's 100 MHz
    case hipDeviceAttributeMemoryPoolSupportedHandleTypes: *value = 0; break;  // no export to other processes
#endif
    default: return ret(hipErrorInvalidValue);
  }
  return hipSuccess;
}
hipError_t hipDeviceReset() { return hipSuccess; }
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t) { return hipSuccess; }
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* c) {
  *c = hipFuncCachePreferNone;
  return hipSuccess;
}
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig) { return hipSuccess; }
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* c) {
  *c = hipSharedMemBankSizeFourByte;
  return hipSuccess;
}
hipError_t hipDeviceGetLimit(size_t* value, enum hipLimit_t limit) {
  switch (limit) {
    case hipLimitMallocHeapSize: *value = 8u << 20; return hipSuccess;
    case hipLimitPrintfFifoSize: *value = 1u << 20; return hipSuccess;
    default: return ret(hipErrorUnsupportedLimit);
  }
}
hipError_t hipDeviceSetLimit(enum hipLimit_t, size_t) { return hipSuccess; }
hipError_t hipDeviceCanAccessPeer(int* can, int, int) {
  *can = 0;
  return hipSuccess;
}
hipError_t hipDeviceEnablePeerAccess(int, unsigned int) { return ret(hipErrorInvalidDevice); }
hipError_t hipDeviceDisablePeerAccess(int) { return ret(hipErrorInvalidDevice); }
hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
  *least = 0;
  *greatest = -1;
  return hipSuccess;
}
hipError_t hipDeviceGetPCIBusId(char* id, int len, int) {
  std::snprintf(id, static_cast<size_t>(len), "0000:03:00.0");
  return hipSuccess;
}
hipError_t hipRuntimeGetVersion(int* version) {
  *version = 50200000;
  return hipSuccess;
}
hipError_t hipDriverGetVersion(int* version) {
  *version = 50200000;
  return hipSuccess;
}
hipError_t hipInit(unsigned int) { return hipSuccess; }

// ---- errors ---------------------------------------------------------------------------------
hipError_t hipGetLastError() {
  const hipError_t e = last_error;
  last_error = hipSuccess;
  return e;
}
hipError_t hipPeekAtLastError() { return last_error; }

const char* hipGetErrorName(hipError_t e) {
  switch (e) {
#define NAME(x) \
  case x: return #x;
    NAME(hipSuccess) NAME(hipErrorInvalidValue) NAME(hipErrorOutOfMemory) NAME(hipErrorNotInitialized)
    NAME(hipErrorDeinitialized) NAME(hipErrorInvalidConfiguration) NAME(hipErrorInvalidPitchValue)
    NAME(hipErrorInvalidSymbol) NAME(hipErrorInvalidDevicePointer) NAME(hipErrorInvalidMemcpyDirection)
    NAME(hipErrorInsufficientDriver) NAME(hipErrorMissingConfiguration) NAME(hipErrorPriorLaunchFailure)
    NAME(hipErrorInvalidDeviceFunction) NAME(hipErrorNoDevice) NAME(hipErrorInvalidDevice) NAME(hipErrorInvalidImage)
    NAME(hipErrorInvalidContext) NAME(hipErrorInvalidHandle) NAME(hipErrorNotFound) NAME(hipErrorNotReady)
    NAME(hipErrorIllegalAddress) NAME(hipErrorLaunchOutOfResources) NAME(hipErrorLaunchTimeOut)
    NAME(hipErrorPeerAccessAlreadyEnabled) NAME(hipErrorPeerAccessNotEnabled) NAME(hipErrorLaunchFailure)
    NAME(hipErrorNotSupported) NAME(hipErrorUnsupportedLimit) NAME(hipErrorUnknown)
    NAME(hipErrorIllegalState) NAME(hipErrorNoBinaryForGpu) NAME(hipErrorFileNotFound) NAME(hipErrorMapFailed)
    NAME(hipErrorStreamCaptureUnsupported) NAME(hipErrorStreamCaptureInvalidated) NAME(hipErrorStreamCaptureMerge)
    NAME(hipErrorStreamCaptureUnmatched) NAME(hipErrorStreamCaptureUnjoined) NAME(hipErrorStreamCaptureIsolation)
    NAME(hipErrorStreamCaptureImplicit) NAME(hipErrorCapturedEvent) NAME(hipErrorStreamCaptureWrongThread)
    NAME(hipErrorGraphExecUpdateFailure)
    NAME(hipErrorProfilerDisabled) NAME(hipErrorProfilerNotInitialized) NAME(hipErrorProfilerAlreadyStarted)
    NAME(hipErrorProfilerAlreadyStopped) NAME(hipErrorContextAlreadyCurrent) NAME(hipErrorUnmapFailed)
    NAME(hipErrorArrayIsMapped) NAME(hipErrorAlreadyMapped) NAME(hipErrorAlreadyAcquired) NAME(hipErrorNotMapped)
    NAME(hipErrorNotMappedAsArray) NAME(hipErrorNotMappedAsPointer) NAME(hipErrorECCNotCorrectable)
    NAME(hipErrorContextAlreadyInUse) NAME(hipErrorPeerAccessUnsupported) NAME(hipErrorInvalidKernelFile)
    NAME(hipErrorInvalidGraphicsContext) NAME(hipErrorInvalidSource) NAME(hipErrorSharedObjectSymbolNotFound)
    NAME(hipErrorSharedObjectInitFailed) NAME(hipErrorOperatingSystem) NAME(hipErrorSetOnActiveProcess)
    NAME(hipErrorContextIsDestroyed) NAME(hipErrorAssert) NAME(hipErrorRuntimeMemory) NAME(hipErrorRuntimeOther)
#if HIP_VERSION_MAJOR >= 6
    NAME(hipErrorInvalidChannelDescriptor) NAME(hipErrorInvalidTexture)
#endif
#undef NAME
    default: return "hipErrorUnknown";
  }
}
const char* hipGetErrorString(hipError_t e) {
  switch (e) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidDeviceFunction: return "invalid device function";
    case hipErrorInvalidSymbol: return "invalid device symbol";
    case hipErrorInvalidConfiguration: return "invalid configuration argument";
    case hipErrorNotSupported: return "operation not supported (gpuport's emulated runtime)";
    case hipErrorNotReady: return "device not ready";
    case hipErrorInvalidHandle: return "invalid resource handle";
    default: return hipGetErrorName(e);
  }
}

#if HIP_VERSION_MAJOR >= 6
// ---- errors and devices: what HIP 6 adds ------------------------------------------------------
hipError_t hipDrvGetErrorName(hipError_t e, const char** name) {
  if (!name) return ret(hipErrorInvalidValue);
  *name = hipGetErrorName(e);
  return hipSuccess;
}
hipError_t hipDrvGetErrorString(hipError_t e, const char** text) {
  if (!text) return ret(hipErrorInvalidValue);
  *text = hipGetErrorString(e);
  return hipSuccess;
}
// HIP 6 documents it as hipGetLastError: the thread's last error, which it resets.
hipError_t hipExtGetLastError() { return hipGetLastError(); }
// The one emulated device is the only valid list.
hipError_t hipSetValidDevices(int* devices, int count) {
  if (count < 0 || (count > 0 && !devices)) return ret(hipErrorInvalidValue);
  for (int i = 0; i < count; ++i)
    if (devices[i] != 0) return ret(hipErrorInvalidDevice);
  return hipSuccess;
}
// Synchronous memory operations are always synchronous here: HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS
// holds for every allocation, and it is the only attribute a program may set.
hipError_t hipPointerSetAttribute(const void* value, hipPointer_attribute attribute, hipDeviceptr_t ptr) {
  if (!value || attribute != HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  if (!runtime().memory.find(reinterpret_cast<std::uint64_t>(ptr), 1)) return ret(hipErrorInvalidValue);
  return hipSuccess;
}
// Any HIP function this library exports, by name (the default version of the symbol).
hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hip_version, uint64_t flags, hipDriverProcAddressQueryResult* status) {
  if (!symbol || !pfn || hip_version <= 0) return ret(hipErrorInvalidValue);
  static void* const self = [] {
    Dl_info info{};
    return dladdr(reinterpret_cast<void*>(&hipGetProcAddress), &info) && info.dli_fname ? dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD)
                                                                                          : nullptr;
  }();
  (void)flags;  // per-thread default stream or not: the same entry points serve both
  *pfn = self ? dlsym(self, symbol) : nullptr;
  if (status) *status = *pfn ? HIP_GET_PROC_ADDRESS_SUCCESS : HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn ? hipSuccess : ret(hipErrorNotFound);
}
// The 5.x-layout entry points under their old names.
hipError_t hipGetDeviceProperties(hipDeviceProp_tR0000* prop, int device) __asm__("hipGetDeviceProperties");
hipError_t hipGetDeviceProperties(hipDeviceProp_tR0000* prop, int device) { return hipGetDevicePropertiesR0000(prop, device); }
hipError_t hipChooseDevice(int* device, const hipDeviceProp_tR0000* prop) __asm__("hipChooseDevice");
hipError_t hipChooseDevice(int* device, const hipDeviceProp_tR0000* prop) { return hipChooseDeviceR0000(device, prop); }
#endif

// ---- what the generated stubs call ------------------------------------------------------------
extern "C" int gpuport_hip_not_implemented(const char* name) {
  runtime().say_unsupported(name);
  last_error = hipErrorNotSupported;
  return hipErrorNotSupported;
}
