// Driver-style modules of the emulator's HIP runtime: code objects loaded at run time from a
// file or from memory (an AMDGPU code object, a clang offload bundle, or a HIP executable),
// their kernels and globals, launches through function handles (kernelParams or the `extra`
// argument buffer), and the attributes and occupancy of a function handle.
#include "emu/runtime/core/queues.h"

#include <elf.h>
#include <hip/hip_ext.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace gpuport::emu::hip {
namespace {

// How many bytes an image in memory spans: hipModuleLoadData is given no size. An ELF file ends
// with its last section, segment or section-header table; a bundle with its last entry.
size_t image_size(const void* image) {
  const char* b = static_cast<const char*>(image);
  if (const std::size_t bundle = offload_bundle_size(b)) return bundle;
  if (std::memcmp(b, "\x7f" "ELF", 4) != 0 || b[EI_CLASS] != ELFCLASS64) return 4;
  Elf64_Ehdr h;
  std::memcpy(&h, b, sizeof(h));
  std::uint64_t end = std::max<std::uint64_t>(sizeof(h), h.e_shoff + std::uint64_t(h.e_shnum) * h.e_shentsize);
  end = std::max<std::uint64_t>(end, h.e_phoff + std::uint64_t(h.e_phnum) * h.e_phentsize);
  for (unsigned i = 0; i < h.e_phnum; ++i) {
    Elf64_Phdr p;
    std::memcpy(&p, b + h.e_phoff + i * std::uint64_t(h.e_phentsize), sizeof(p));
    end = std::max<std::uint64_t>(end, p.p_offset + p.p_filesz);
  }
  for (unsigned i = 0; i < h.e_shnum; ++i) {
    Elf64_Shdr s;
    std::memcpy(&s, b + h.e_shoff + i * std::uint64_t(h.e_shentsize), sizeof(s));
    if (s.sh_type != SHT_NOBITS) end = std::max<std::uint64_t>(end, s.sh_offset + s.sh_size);
  }
  return end;
}

hipError_t finish_load(hipModule_t* out, Module* m) {
  if (!m->code_object) {
    const hipError_t e = m->load_status;
    std::fprintf(stderr, "gpuport run: cannot load the module: %s\n", m->load_error.c_str());
    unload_module(m);
    return ret(e);
  }
  *out = reinterpret_cast<hipModule_t>(m);
  return hipSuccess;
}

Module* find_module(hipModule_t handle) {
  for (const auto& m : runtime().modules)
    if (reinterpret_cast<hipModule_t>(m.get()) == handle && m->code_object) return m.get();
  return nullptr;
}

// The kernel of a function handle, or null (not a handle of a loaded module). Lock held.
const amdgpu::Kernel* kernel_of_handle(hipFunction_t f) {
  if (!runtime().function_handles.count(f)) return nullptr;
  return kernel_of(f);
}


// hipExtModuleLaunchKernel counts work-items, not workgroups.
hipError_t ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz, size_t shared,
                             hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop) {
  if (!lx || !ly || !lz || !gx || !gy || !gz) return ret(hipErrorInvalidConfiguration);
  if (gx % lx || gy % ly || gz % lz) {
    // The emulator dispatches whole workgroups only; a partial last workgroup is not modelled.
    runtime().say_unsupported("hipExtModuleLaunchKernel with a global size that is not a multiple of the local size");
    return ret(hipErrorNotSupported);
  }
  return launch_handle(f, dim3(gx / lx, gy / ly, gz / lz), dim3(lx, ly, lz), shared, stream, params, extra, start, stop);
}

}  // namespace
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

hipError_t hipModuleLoad(hipModule_t* module, const char* path) {
  if (!module || !path) return ret(hipErrorInvalidValue);
  std::ifstream in(path, std::ios::binary);
  if (!in) return ret(hipErrorFileNotFound);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return finish_load(module, load_module(bytes.str(), path));
}
hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  if (!module || !image) return ret(hipErrorInvalidValue);
  return finish_load(module, load_module(std::string_view(static_cast<const char*>(image), image_size(image)), "the image given to hipModuleLoadData"));
}
hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int count, hipJitOption* options, void** values) {
  // JIT options have nothing to act on: the image is already machine code.
  if (count && (!options || !values)) return ret(hipErrorInvalidValue);
  return hipModuleLoadData(module, image);
}
hipError_t hipModuleUnload(hipModule_t module) {
  Module* m;
  {
    std::lock_guard lock(runtime().mutex);
    m = find_module(module);
    if (!m) return ret(hipErrorInvalidHandle);
  }
  unload_module(m);
  return hipSuccess;
}
hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* name) {
  if (!function || !name) return ret(hipErrorInvalidValue);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  Module* m = find_module(module);
  if (!m) return ret(hipErrorInvalidHandle);
  if (!m->code_object->find_kernel(name)) return ret(hipErrorNotFound);
  auto& f = m->functions[name];
  if (!f) f = std::make_unique<Function>(Function{m, name});
  rt.function_handles.insert(f.get());
  *function = reinterpret_cast<hipFunction_t>(f.get());
  return hipSuccess;
}
hipError_t hipModuleGetGlobal(hipDeviceptr_t* address, size_t* bytes, hipModule_t module, const char* name) {
  if (!name) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  Module* m = find_module(module);
  if (!m) return ret(hipErrorInvalidHandle);
  const auto* g = find_global(*m, name);
  if (!g) return ret(hipErrorNotFound);
  if (address) *address = m->code_object->memory.data() + g->address;
  if (bytes) *bytes = g->size;
  return hipSuccess;
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
                                 unsigned int bz, unsigned int shared, hipStream_t stream, void** params, void** extra) {
  return launch_handle(f, dim3(gx, gy, gz), dim3(bx, by, bz), shared, stream, params, extra, nullptr, nullptr);
}
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
                                    size_t shared, hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop,
                                    uint32_t) {
  return ext_module_launch(f, gx, gy, gz, lx, ly, lz, shared, stream, params, extra, start, stop);
}
hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz,
                                    size_t shared, hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop) {
  return ext_module_launch(f, gx, gy, gz, lx, ly, lz, shared, stream, params, extra, start, stop);
}

hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attribute, hipFunction_t f) {
  if (!value) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  const auto* k = kernel_of_handle(f);
  if (!k) return ret(hipErrorInvalidHandle);
  const hipFuncAttributes a = attributes_of(*k);
  switch (attribute) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = a.maxThreadsPerBlock; break;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = static_cast<int>(a.sharedSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *value = static_cast<int>(a.constSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = static_cast<int>(a.localSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = a.numRegs; break;
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION: *value = a.ptxVersion; break;
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: *value = a.binaryVersion; break;
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: *value = a.cacheModeCA; break;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = a.maxDynamicSharedSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = a.preferredShmemCarveout; break;
    default: return ret(hipErrorInvalidValue);
  }
  return hipSuccess;
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, hipFunction_t f, int block_size, size_t dynamic,
                                                                       unsigned int flags) {
  if (!blocks || flags > 1) return ret(hipErrorInvalidValue);  // hipOccupancyDefault, or disable caching override
  std::lock_guard lock(runtime().mutex);
  const auto* k = kernel_of_handle(f);
  if (!k) return ret(hipErrorInvalidHandle);
  *blocks = blocks_per_cu(*k, block_size, dynamic);
  return hipSuccess;
}
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, hipFunction_t f, int block_size, size_t dynamic) {
  return hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, f, block_size, dynamic, 0);
}
hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int* grid_size, int* block_size, hipFunction_t f, size_t dynamic, int limit,
                                                            unsigned int flags) {
  if (!grid_size || !block_size || flags > 1) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  const auto* k = kernel_of_handle(f);
  if (!k) return ret(hipErrorInvalidHandle);
  max_potential_block_size(*k, dynamic, limit, grid_size, block_size);
  return hipSuccess;
}
hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, hipFunction_t f, size_t dynamic, int limit) {
  return hipModuleOccupancyMaxPotentialBlockSizeWithFlags(grid_size, block_size, f, dynamic, limit, 0);
}

const char* hipKernelNameRef(const hipFunction_t f) {
  std::lock_guard lock(runtime().mutex);
  return runtime().function_handles.count(f) ? reinterpret_cast<const Function*>(f)->name.c_str() : nullptr;
}
const char* hipKernelNameRefByPtr(const void* host_function, hipStream_t) {
  std::lock_guard lock(runtime().mutex);
  const Function* f = find_function(host_function, false);
  return f ? f->name.c_str() : nullptr;
}
