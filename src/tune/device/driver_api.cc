#include "tune/device/driver_api.h"

#include <dlfcn.h>

#include <cstdlib>

namespace gpuport::tune::driver {

std::string Api::describe(CUresult result) const {
  const char* text = nullptr;
  if (cuGetErrorString == nullptr || cuGetErrorString(result, &text) != kSuccess || text == nullptr)
    text = "unknown error";
  return "error " + std::to_string(result) + ": " + text;
}

namespace {

template <class Function>
bool bind(void* library, const char* name, Function& slot, std::string& missing) {
  slot = reinterpret_cast<Function>(dlsym(library, name));
  if (slot == nullptr && missing.empty()) missing = name;
  return slot != nullptr;
}

}  // namespace

std::string load_api(Api& api) {
  // GPUPORT_TUNE_LIBCUDA names another file (tests use a missing one on machines that have the
  // driver's library but no GPU).
  const char* override_name = std::getenv("GPUPORT_TUNE_LIBCUDA");
  const std::string name = override_name && *override_name ? override_name : "libcuda.so.1";
  void* library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return "no CUDA driver: " + name + " not found (" + (why ? why : "dlopen failed") + ")";
  }
  std::string missing;
  bind(library, "cuInit", api.cuInit, missing);
  bind(library, "cuDeviceGet", api.cuDeviceGet, missing);
  bind(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute, missing);
  bind(library, "cuDeviceGetName", api.cuDeviceGetName, missing);
  bind(library, "cuCtxCreate_v2", api.cuCtxCreate, missing);
  bind(library, "cuCtxDestroy_v2", api.cuCtxDestroy, missing);
  bind(library, "cuCtxSynchronize", api.cuCtxSynchronize, missing);
  bind(library, "cuModuleLoadData", api.cuModuleLoadData, missing);
  bind(library, "cuModuleUnload", api.cuModuleUnload, missing);
  bind(library, "cuModuleGetFunction", api.cuModuleGetFunction, missing);
  bind(library, "cuModuleGetGlobal_v2", api.cuModuleGetGlobal, missing);
  bind(library, "cuMemAlloc_v2", api.cuMemAlloc, missing);
  bind(library, "cuMemFree_v2", api.cuMemFree, missing);
  bind(library, "cuMemcpyHtoD_v2", api.cuMemcpyHtoD, missing);
  bind(library, "cuMemcpyDtoH_v2", api.cuMemcpyDtoH, missing);
  bind(library, "cuMemcpyDtoD_v2", api.cuMemcpyDtoD, missing);
  bind(library, "cuMemsetD8_v2", api.cuMemsetD8, missing);
  bind(library, "cuLaunchKernel", api.cuLaunchKernel, missing);
  bind(library, "cuFuncSetAttribute", api.cuFuncSetAttribute, missing);
  bind(library, "cuEventCreate", api.cuEventCreate, missing);
  bind(library, "cuEventRecord", api.cuEventRecord, missing);
  bind(library, "cuEventSynchronize", api.cuEventSynchronize, missing);
  bind(library, "cuEventElapsedTime", api.cuEventElapsedTime, missing);
  // cuda.h maps cuEventDestroy to cuEventDestroy_v2 (the driver exports both).
  bind(library, "cuEventDestroy_v2", api.cuEventDestroy, missing);
  bind(library, "cuGetErrorString", api.cuGetErrorString, missing);
  if (!missing.empty()) return "the CUDA driver " + name + " lacks " + missing + " (too old a driver?)";
  return "";
}

}  // namespace gpuport::tune::driver
