// The value of each device attribute (hipDeviceGetAttribute), from the device's properties.
#include "emu/runtime/core/device.h"

namespace gpuport::emu::hip {

hipError_t device_attribute(hipDeviceAttribute_t attribute, int* value) {
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

}  // namespace gpuport::emu::hip
