// Kernel launches of the HIP runtime API: hipLaunchKernel (what <<<>>> expands to) and its
// cooperative form, a kernel's attributes and occupancy, and the other ways HIP 5.2 programs launch
// kernels of their own fat binary: with start and stop events (hipExtLaunchKernel), the
// configure/setup/launch-by-pointer sequence, the argument buffer of hipLaunchKernelGGL's older
// expansion (hip_impl::hipLaunchKernelGGLImpl), the per-thread default stream forms, and the multi-
// device forms (one device here). Launches themselves are the core's (core/launch.cc).
#include "emu/runtime/core/queues.h"

#include <hip/hip_ext.h>

#include <cstring>

using namespace gpuport::emu::hip;

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

namespace {

struct Configuration {
  dim3 grid, block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
  std::vector<std::uint8_t> arguments;  // filled by hipSetupArgument at the offsets it is given
};
thread_local std::vector<Configuration> configurations;

}  // namespace

hipError_t hipExtLaunchKernel(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream,
                              hipEvent_t start, hipEvent_t stop, int) {
  {
    std::lock_guard lock(runtime().mutex);
    if ((start && !is_live_event(start)) || (stop && !is_live_event(stop))) return ret(hipErrorInvalidHandle);
  }
  if (start)
    if (hipError_t e = submit(stream, EventRecord{start})) return e;
  if (hipError_t e = launch(function, grid, block, args, shared, stream)) return e;
  return stop ? submit(stream, EventRecord{stop}) : hipSuccess;
}

hipError_t hipConfigureCall(dim3 grid, dim3 block, size_t shared, hipStream_t stream) {
  configurations.push_back({grid, block, shared, stream, {}});
  return hipSuccess;
}
hipError_t hipSetupArgument(const void* arg, size_t size, size_t offset) {
  if (configurations.empty()) return ret(hipErrorInvalidConfiguration);
  if (!arg && size) return ret(hipErrorInvalidValue);
  auto& bytes = configurations.back().arguments;
  if (bytes.size() < offset + size) bytes.resize(offset + size, 0);
  if (size) std::memcpy(bytes.data() + offset, arg, size);
  return hipSuccess;
}
hipError_t hipLaunchByPtr(const void* function) {
  if (configurations.empty()) return ret(hipErrorInvalidConfiguration);
  Configuration c = std::move(configurations.back());
  configurations.pop_back();
  size_t size = c.arguments.size();
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, c.arguments.data(), HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  return launch(function, c.grid, c.block, nullptr, c.shared, c.stream, extra);
}

namespace hip_impl {
void hipLaunchKernelGGLImpl(std::uintptr_t function, const dim3& grid, const dim3& block, std::uint32_t shared, hipStream_t stream,
                            void** kernarg) {
  (void)launch(reinterpret_cast<const void*>(function), grid, block, nullptr, shared, stream, kernarg);  // its error stays the last error
}
}  // namespace hip_impl

hipError_t hipLaunchKernel_spt(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream) {
  return launch(function, grid, block, args, shared, stream ? stream : hipStreamPerThread);
}
hipError_t hipLaunchCooperativeKernel_spt(const void* function, dim3 grid, dim3 block, void** args, uint32_t shared, hipStream_t stream) {
  return launch(function, grid, block, args, shared, stream ? stream : hipStreamPerThread);
}

// One device: a list for more than one names devices that do not exist.
static hipError_t launch_list(hipLaunchParams* list, int count) {
  if (!list || count <= 0) return ret(hipErrorInvalidValue);
  if (count > 1) return ret(hipErrorInvalidDevice);
  return launch(list[0].func, list[0].gridDim, list[0].blockDim, list[0].args, list[0].sharedMem, list[0].stream);
}
hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* list, int count, unsigned int flags) {
  if (flags & ~unsigned(hipCooperativeLaunchMultiDeviceNoPreSync | hipCooperativeLaunchMultiDeviceNoPostSync)) return ret(hipErrorInvalidValue);
  return launch_list(list, count);
}
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams* list, int count, unsigned int flags) {
  if (flags & ~unsigned(hipCooperativeLaunchMultiDeviceNoPreSync | hipCooperativeLaunchMultiDeviceNoPostSync)) return ret(hipErrorInvalidValue);
  return launch_list(list, count);
}
