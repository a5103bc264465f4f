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
// stderr (exports_stubs.cc, generated from data/emu/hip-5.2-exports.tsv).
#include "emu/runtime/runtime.h"

#include <atomic>
#include <cstring>

namespace gpuport::emu::hip {

Runtime& runtime() {
  static Runtime* r = new Runtime();  // never destroyed before the program's own static destructors
  return *r;
}

struct Stats {
  ~Stats() { runtime().write_stats(); }
} stats_at_exit;

thread_local hipError_t last_error = hipSuccess;

hipError_t ret(hipError_t e) {
  if (e != hipSuccess) last_error = e;
  return e;
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
  const size_t rounded = std::max<size_t>(kPage, (size + kPage - 1) / kPage * kPage);
  void* p = std::aligned_alloc(kPage, rounded);
  if (!p) return nullptr;
  std::memset(p, 0, rounded);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.allocations[reinterpret_cast<std::uintptr_t>(p)] = size;
  rt.memory.add(reinterpret_cast<std::uint64_t>(p), size, kind, what);
  return p;
}

hipError_t release(void* p) {
  if (!p) return hipSuccess;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = rt.allocations.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == rt.allocations.end()) return ret(hipErrorInvalidValue);
  rt.allocations.erase(it);
  rt.memory.release(reinterpret_cast<std::uint64_t>(p));
  std::free(p);
  return hipSuccess;
}

// The code object of a registered fat binary (the clang offload bundle clang embeds).
Module* load_module(const void* bundle) {
  auto module = std::make_unique<Module>();
  const char* b = static_cast<const char*>(bundle);
  constexpr std::string_view magic = "__CLANG_OFFLOAD_BUNDLE__";
  if (std::memcmp(b, magic.data(), magic.size()) != 0) {
    module->load_error = "the registered fat binary is not a clang offload bundle";
  } else {
    // The bundle's size is where its last entry ends.
    std::uint64_t count = 0, end = magic.size() + 8;
    std::memcpy(&count, b + magic.size(), 8);
    std::size_t at = magic.size() + 8;
    for (std::uint64_t i = 0; i < count && i < 64; ++i) {
      std::uint64_t offset, size, triple;
      std::memcpy(&offset, b + at, 8);
      std::memcpy(&size, b + at + 8, 8);
      std::memcpy(&triple, b + at + 16, 8);
      at += 24 + triple;
      end = std::max<std::uint64_t>({end, offset + size, at});
    }
    const std::string_view bytes(b, end);
    auto entries = gpuport::amdgpu::read_offload_bundle(bytes, "the program's offload bundle");
    if (!entries) {
      module->load_error = entries.diagnostics()[0].message;
    } else {
      const gpuport::amdgpu::BundleEntry* pick = nullptr;
      std::string triples;
      for (const auto& e : *entries) {
        triples += (triples.empty() ? "" : ", ") + e.triple;
        std::string_view t = e.triple;
        const auto dashes = t.rfind("--");
        if (dashes == std::string_view::npos) continue;
        auto processor = t.substr(dashes + 2);
        processor = processor.substr(0, processor.find(':'));
        if (processor == "gfx1100") pick = &e;
      }
      if (!pick) {
        module->load_error = "the program has no gfx1100 code object (bundle entries: " + triples + "); build it with --offload-arch=gfx1100";
      } else {
        auto co = gpuport::amdgpu::read_code_object(bytes.substr(pick->offset, pick->size), "the program's gfx1100 code object");
        if (!co) module->load_error = co.diagnostics()[0].message;
        else module->code_object = std::make_unique<gpuport::amdgpu::CodeObject>(std::move(*co));
      }
    }
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

// The kernel a host stub stands for, or null (not registered, or no gfx1100 code object).
// Called with the runtime's lock held.
const gpuport::amdgpu::Kernel* kernel_of(const void* function) {
  auto& rt = runtime();
  auto it = rt.functions.find(function);
  if (it == rt.functions.end() || !it->second.module->code_object) return nullptr;
  return it->second.module->code_object->find_kernel(it->second.name);
}

hipError_t launch(const void* function, dim3 grid, dim3 block, void** args, size_t shared) {
  auto& rt = runtime();
  std::shared_ptr<gpuport::emu::PreparedKernel> prepared;
  Module* module = nullptr;
  std::string name;
  {
    std::lock_guard lock(rt.mutex);
    auto it = rt.functions.find(function);
    if (it == rt.functions.end()) return ret(hipErrorInvalidDeviceFunction);
    module = it->second.module;
    name = it->second.name;
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
  const auto& kernel = *prepared->kernel;
  gpuport::emu::Launch L;
  L.grid = {grid.x, grid.y, grid.z};
  L.block = {block.x, block.y, block.z};
  L.dynamic_lds = static_cast<std::uint32_t>(shared);
  L.jobs = rt.jobs;
  L.timeout_seconds = rt.timeout;
  L.kernarg.assign(std::max<std::size_t>(kernel.kernarg_segment_size, 16), 0);
  attach_services(kernel, L);
  std::size_t index = 0;
  for (const auto& a : kernel.arguments) {
    if (a.value_kind.starts_with("hidden_")) continue;
    if (!args || !args[index]) return ret(hipErrorInvalidValue);
    if (a.offset + a.size <= L.kernarg.size()) std::memcpy(L.kernarg.data() + a.offset, args[index], a.size);
    ++index;
  }
  auto r = gpuport::emu::run_kernel(*prepared, std::move(L), rt.memory,
                                    reinterpret_cast<std::uint64_t>(module->code_object->memory.data()));
  if (!r) rt.fail(r.diagnostics()[0].message);
  std::lock_guard lock(rt.mutex);
  auto& s = rt.stats[name];
  ++s.launches;
  s.instructions += r->instructions;
  s.lane_instructions += r->lane_instructions;
  s.seconds += r->seconds;
  return hipSuccess;
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
hipError_t hipLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t) {
  return launch(function, grid, block, args, shared);
}

hipError_t hipLaunchCooperativeKernel(const void* f, dim3 grid, dim3 block, void** args, unsigned int shared, hipStream_t s) {
  return hipLaunchKernel(f, grid, block, args, shared, s);
}

hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* function) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* k = kernel_of(function);
  if (!k) return ret(hipErrorInvalidDeviceFunction);
  std::memset(attr, 0, sizeof(*attr));
  attr->sharedSizeBytes = k->group_segment_fixed_size;
  attr->localSizeBytes = k->private_segment_fixed_size;
  attr->maxThreadsPerBlock = k->max_flat_workgroup_size ? static_cast<int>(k->max_flat_workgroup_size) : 1024;
  attr->numRegs = static_cast<int>(k->vgpr_count);
  attr->maxDynamicSharedSizeBytes = 65536 - static_cast<int>(k->group_segment_fixed_size);
  attr->binaryVersion = 110;
  attr->ptxVersion = 110;
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void*, hipFuncAttribute, int) { return hipSuccess; }
hipError_t hipFuncSetCacheConfig(const void*, hipFuncCache_t) { return hipSuccess; }
hipError_t hipFuncSetSharedMemConfig(const void*, hipSharedMemConfig) { return hipSuccess; }

// Occupancy from the kernel's registers and LDS against one gfx1100 WGP-mode CU: 64 KiB of LDS,
// 1536 VGPRs per SIMD lane slot budget (16 waves of up to 96 VGPRs), 2048 threads.
static int blocks_per_cu(const gpuport::amdgpu::Kernel& k, int block_size, size_t dynamic) {
  if (block_size <= 0) return 0;
  const int wave = k.descriptor.wave32 ? 32 : 64;
  const int waves = (block_size + wave - 1) / wave;
  int by_threads = 2048 / (waves * wave);
  const size_t lds = k.group_segment_fixed_size + dynamic;
  int by_lds = lds ? static_cast<int>(65536 / lds) : by_threads;
  const int vgprs = std::max<int>(1, static_cast<int>(k.vgpr_count));
  const int waves_per_simd = std::min(16, (wave == 32 ? 1536 : 768) / ((vgprs + 7) / 8 * 8));
  int by_vgprs = waves_per_simd * 2 / waves;  // two SIMDs per CU
  return std::max(0, std::min({by_threads, by_lds, by_vgprs}));
}

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
  int best = 0, best_threads = 0;
  const int max_block = std::min<int>(limit > 0 ? limit : 1024, k->max_flat_workgroup_size ? static_cast<int>(k->max_flat_workgroup_size) : 1024);
  for (int b = 32; b <= max_block; b += 32) {
    const int t = blocks_per_cu(*k, b, dynamic) * b;
    if (t >= best_threads) best_threads = t, best = b;
  }
  *block_size = best ? best : 32;
  *grid_size = 48 * std::max(1, blocks_per_cu(*k, *block_size, dynamic));
  return hipSuccess;
}

// ---- memory ---------------------------------------------------------------------------------
hipError_t hipMalloc(void** p, size_t size) {
  if (!p) return ret(hipErrorInvalidValue);
  if (size == 0) {
    *p = nullptr;
    return hipSuccess;
  }
  *p = allocate(size, AddressSpace::Kind::device, "hipMalloc");
  return *p ? hipSuccess : ret(hipErrorOutOfMemory);
}
hipError_t hipMallocManaged(void** p, size_t size, unsigned int) { return hipMalloc(p, size); }
hipError_t hipExtMallocWithFlags(void** p, size_t size, unsigned int) { return hipMalloc(p, size); }
hipError_t hipHostMalloc(void** p, size_t size, unsigned int) {
  if (!p) return ret(hipErrorInvalidValue);
  *p = size ? allocate(size, AddressSpace::Kind::host, "hipHostMalloc") : nullptr;
  return (*p || !size) ? hipSuccess : ret(hipErrorOutOfMemory);
}
hipError_t hipMallocHost(void** p, size_t size) { return hipHostMalloc(p, size, 0); }
hipError_t hipHostAlloc(void** p, size_t size, unsigned int flags) { return hipHostMalloc(p, size, flags); }
hipError_t hipFree(void* p) { return release(p); }
hipError_t hipHostFree(void* p) { return release(p); }
hipError_t hipFreeHost(void* p) { return release(p); }
hipError_t hipMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  if (!p || !pitch) return ret(hipErrorInvalidValue);
  *pitch = (width + 255) / 256 * 256;
  return hipMalloc(p, *pitch * height);
}
hipError_t hipHostRegister(void* p, size_t size, unsigned int) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.add(reinterpret_cast<std::uint64_t>(p), size, AddressSpace::Kind::host, "hipHostRegister");
  return hipSuccess;
}
hipError_t hipHostUnregister(void* p) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.forget(reinterpret_cast<std::uint64_t>(p));
  return hipSuccess;
}
hipError_t hipHostGetDevicePointer(void** device, void* host, unsigned int) {
  *device = host;
  return hipSuccess;
}
hipError_t hipHostGetFlags(unsigned int* flags, void*) {
  *flags = 0;
  return hipSuccess;
}
hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
  *total = 24ull << 30;
  size_t used = 0;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  for (const auto& [p, size] : rt.allocations) used += size;
  *free_bytes = used < *total ? *total - used : 0;
  return hipSuccess;
}
hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind) {
  if (bytes && (!dst || !src)) return ret(hipErrorInvalidValue);
  if (bytes) std::memmove(dst, src, bytes);
  return hipSuccess;
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t) { return hipMemcpy(dst, src, bytes, kind); }
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice); }
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost); }
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice); }
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t) { return hipMemcpyHtoD(dst, src, bytes); }
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t) { return hipMemcpyDtoH(dst, src, bytes); }
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes, hipStream_t) { return hipMemcpyDtoD(dst, src, bytes); }
hipError_t hipMemcpyPeer(void* dst, int, const void* src, int, size_t bytes) { return hipMemcpy(dst, src, bytes, hipMemcpyDefault); }
hipError_t hipMemcpyPeerAsync(void* dst, int, const void* src, int, size_t bytes, hipStream_t) { return hipMemcpy(dst, src, bytes, hipMemcpyDefault); }
hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t) { return hipMemcpy(dst, src, bytes, kind); }
hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, hipMemcpyKind) {
  if (width > dpitch || width > spitch) return ret(hipErrorInvalidPitchValue);
  for (size_t row = 0; row < height; ++row)
    std::memmove(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width);
  return hipSuccess;
}
hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
hipError_t hipMemset(void* dst, int value, size_t bytes) {
  if (bytes && !dst) return ret(hipErrorInvalidValue);
  std::memset(dst, value, bytes);
  return hipSuccess;
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t) { return hipMemset(dst, value, bytes); }
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) { return hipMemset(dst, value, count); }
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t) { return hipMemset(dst, value, count); }
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  auto* p = static_cast<unsigned short*>(dst);
  std::fill(p, p + count, value);
  return hipSuccess;
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t) { return hipMemsetD16(dst, value, count); }
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  auto* p = static_cast<int*>(dst);
  std::fill(p, p + count, value);
  return hipSuccess;
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t) { return hipMemsetD32(dst, value, count); }
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  for (size_t row = 0; row < height; ++row) std::memset(static_cast<char*>(dst) + row * pitch, value, width);
  return hipSuccess;
}
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, hipStream_t) {
  return hipMemset2D(dst, pitch, value, width, height);
}
hipError_t hipMemPrefetchAsync(const void*, size_t, int, hipStream_t) { return hipSuccess; }
hipError_t hipMemAdvise(const void*, size_t, hipMemoryAdvise, int) { return hipSuccess; }

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
hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind) {
  size_t size = 0;
  char* p = static_cast<char*>(device_address_of(symbol, &size));
  if (!p) return ret(hipErrorInvalidSymbol);
  if (offset + bytes > size) return ret(hipErrorInvalidValue);
  std::memmove(p + offset, src, bytes);
  return hipSuccess;
}
hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset, hipMemcpyKind) {
  size_t size = 0;
  const char* p = static_cast<const char*>(device_address_of(symbol, &size));
  if (!p) return ret(hipErrorInvalidSymbol);
  if (offset + bytes > size) return ret(hipErrorInvalidValue);
  std::memmove(dst, p + offset, bytes);
  return hipSuccess;
}
hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind, hipStream_t) {
  return hipMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  std::memset(attributes, 0, sizeof(*attributes));
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* r = rt.memory.find(reinterpret_cast<std::uint64_t>(ptr), 1);
  if (!r) {
    attributes->memoryType = hipMemoryTypeHost;
    return ret(hipErrorInvalidValue);
  }
  attributes->memoryType = r->kind == AddressSpace::Kind::host ? hipMemoryTypeHost : hipMemoryTypeDevice;
  attributes->devicePointer = const_cast<void*>(ptr);
  attributes->hostPointer = r->kind == AddressSpace::Kind::host ? const_cast<void*>(ptr) : nullptr;
  attributes->device = 0;
  return hipSuccess;
}

// ---- device ---------------------------------------------------------------------------------
static hipDeviceProp_t device_properties() {
  hipDeviceProp_t p;
  std::memset(&p, 0, sizeof(p));
  std::snprintf(p.name, sizeof(p.name), "AMD Radeon RX 7900 XTX (gfx1100, emulated by gpuport)");
  std::snprintf(p.gcnArchName, sizeof(p.gcnArchName), "gfx1100");
  p.totalGlobalMem = 24ull << 30;
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
  p.gcnArch = 1100;
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
    default: return ret(hipErrorInvalidValue);
  }
  return hipSuccess;
}
hipError_t hipDeviceSynchronize() { return hipSuccess; }
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

// ---- streams and events ---------------------------------------------------------------------
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority) {
  auto* s = new ihipStream_t{flags, priority};
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.streams.insert(s);
  *stream = s;
  return hipSuccess;
}
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) { return hipStreamCreateWithPriority(stream, flags, 0); }
hipError_t hipStreamCreate(hipStream_t* stream) { return hipStreamCreateWithPriority(stream, 0, 0); }
hipError_t hipStreamDestroy(hipStream_t stream) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (!rt.streams.erase(stream)) return ret(hipErrorInvalidHandle);
  delete stream;
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int) { return hipSuccess; }
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
  *flags = stream ? stream->flags : 0;
  return hipSuccess;
}
hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  *priority = stream ? stream->priority : 0;
  return hipSuccess;
}
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* data, unsigned int) {
  callback(stream, hipSuccess, data);  // everything before it in the stream has completed
  return hipSuccess;
}
hipError_t hipLaunchHostFunc(hipStream_t, hipHostFn_t fn, void* data) {
  fn(data);
  return hipSuccess;
}
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  auto* e = new ihipEvent_t{flags, false, {}};
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.events.insert(e);
  *event = e;
  return hipSuccess;
}
hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, 0); }
hipError_t hipEventRecord(hipEvent_t event, hipStream_t) {
  if (!event) return ret(hipErrorInvalidHandle);
  event->recorded = true;
  event->when = std::chrono::steady_clock::now();
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t event) { return event ? hipSuccess : ret(hipErrorInvalidHandle); }
hipError_t hipEventQuery(hipEvent_t event) { return event ? hipSuccess : ret(hipErrorInvalidHandle); }
hipError_t hipEventDestroy(hipEvent_t event) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (!rt.events.erase(event)) return ret(hipErrorInvalidHandle);
  delete event;
  return hipSuccess;
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (!start || !stop) return ret(hipErrorInvalidHandle);
  if (!start->recorded || !stop->recorded) return ret(hipErrorNotReady);
  *ms = std::chrono::duration<float, std::milli>(stop->when - start->when).count();
  return hipSuccess;
}

// ---- what the generated stubs call ------------------------------------------------------------
extern "C" int gpuport_hip_not_implemented(const char* name) {
  runtime().say_unsupported(name);
  last_error = hipErrorNotSupported;
  return hipErrorNotSupported;
}
