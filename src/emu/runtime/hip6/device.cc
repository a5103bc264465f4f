// The 5.x layout of hipDeviceProp_t, which HIP 6 keeps under R0000 names (hip/hip_deprecated.h)
// and under the old symbols, and the error, device and pointer calls HIP 6 adds. Compiled into
// libamdhip64.so.6 only; calls the core and, for the per-thread forms, the entry points of
// emu/runtime/hip/ they stand for.
#include "emu/runtime/core/device.h"

#include <cstring>
#include <dlfcn.h>

using namespace gpuport::emu::hip;

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

// ---- errors and devices: what HIP 6 adds ------------------------------------------------------
hipError_t hipDrvGetErrorName(hipError_t e, const char** name) {
  if (!name) return ret(hipErrorInvalidValue);
  *name = error_name(e);
  return hipSuccess;
}
hipError_t hipDrvGetErrorString(hipError_t e, const char** text) {
  if (!text) return ret(hipErrorInvalidValue);
  *text = error_string(e);
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
