// The one emulated device, described once: the properties every layout of hipDeviceProp_t the
// build's HIP declares is filled from, and the value of each device attribute.
#pragma once

#include "emu/runtime/core/runtime.h"

#include <cstring>

namespace gpuport::emu::hip {

// One description of the emulated device, for each layout of hipDeviceProp_t this build's HIP
// declares (HIP 6: hipDeviceProp_tR0600, and the 5.x layout as hipDeviceProp_tR0000); members
// only one layout has are filled where it has them.
template <class Properties>
Properties device_properties_as() {
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
inline hipDeviceProp_t device_properties() { return device_properties_as<hipDeviceProp_t>(); }

// hipDeviceGetAttribute's value of `attribute` for the device; hipErrorInvalidValue for one it
// does not know.
hipError_t device_attribute(hipDeviceAttribute_t attribute, int* value);

}  // namespace gpuport::emu::hip
