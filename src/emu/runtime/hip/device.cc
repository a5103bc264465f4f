// The one emulated device as HIP describes it: its count and selection, its properties and
// attributes (core/device.h describes it once), limits, caches, peers and versions.
#include "emu/runtime/core/device.h"

#include <cstring>

using namespace gpuport::emu::hip;

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
  if (!value) return ret(hipErrorInvalidValue);
  return device_attribute(attribute, value);
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
  *version = kHipRuntimeVersion;
  return hipSuccess;
}
hipError_t hipDriverGetVersion(int* version) {
  *version = kHipRuntimeVersion;
  return hipSuccess;
}
hipError_t hipInit(unsigned int) { return hipSuccess; }
