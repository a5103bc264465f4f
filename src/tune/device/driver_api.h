// The few CUDA driver API entry points the tune harness calls, loaded at run time with
// dlopen("libcuda.so.1") + dlsym of their exported (versioned) names, with minimal types of our
// own: the harness builds without any CUDA header (CUDA 13's in /usr/local/include would shadow
// 11.8's) and starts, and says why it cannot measure, on machines without a driver.
#pragma once

#include <cstddef>
#include <string>

namespace gpuport::tune::driver {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_opaque*;
using CUmodule = struct CUmod_opaque*;
using CUfunction = struct CUfunc_opaque*;
using CUevent = struct CUevent_opaque*;
using CUstream = struct CUstream_opaque*;

// Values from CUDA 11.8's cuda.h (stable across driver versions).
inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorNoDevice = 100;
inline constexpr int kAttributeL2CacheSize = 38;              // CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
inline constexpr int kAttributeComputeCapabilityMajor = 75;   // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
inline constexpr int kAttributeComputeCapabilityMinor = 76;   // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
inline constexpr int kFunctionAttributeMaxDynamicShared = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
inline constexpr unsigned kEventDefault = 0;                  // CU_EVENT_DEFAULT
inline constexpr unsigned kContextSchedAuto = 0;              // CU_CTX_SCHED_AUTO

struct Api {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
  CUresult (*cuCtxCreate)(CUcontext* context, unsigned flags, CUdevice device) = nullptr;  // _v2
  CUresult (*cuCtxDestroy)(CUcontext context) = nullptr;                                   // _v2
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name) = nullptr;
  CUresult (*cuModuleGetGlobal)(CUdeviceptr* address, std::size_t* bytes, CUmodule module,
                                const char* name) = nullptr;                                 // _v2
  CUresult (*cuMemAlloc)(CUdeviceptr* address, std::size_t bytes) = nullptr;                 // _v2
  CUresult (*cuMemFree)(CUdeviceptr address) = nullptr;                                      // _v2
  CUresult (*cuMemcpyHtoD)(CUdeviceptr to, const void* from, std::size_t bytes) = nullptr;   // _v2
  CUresult (*cuMemcpyDtoH)(void* to, CUdeviceptr from, std::size_t bytes) = nullptr;         // _v2
  CUresult (*cuMemcpyDtoD)(CUdeviceptr to, CUdeviceptr from, std::size_t bytes) = nullptr;   // _v2
  CUresult (*cuMemsetD8)(CUdeviceptr to, unsigned char value, std::size_t bytes) = nullptr;  // _v2
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                             unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream, void** params,
                             void** extra) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end) = nullptr;
  CUresult (*cuEventDestroy)(CUevent event) = nullptr;  // _v2
  CUresult (*cuGetErrorString)(CUresult error, const char** text) = nullptr;

  // "error 700: an illegal memory access was encountered".
  std::string describe(CUresult result) const;
};

// Loads libcuda.so.1 (or the file $GPUPORT_TUNE_LIBCUDA names) and every entry point above.
// Returns an empty string on success, else why not ("no CUDA driver: libcuda.so.1 not found
// (...)" or the missing symbol).
std::string load_api(Api& api);

}  // namespace gpuport::tune::driver
