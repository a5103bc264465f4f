// The rest of HIP 5.2's ABI in the emulator's HIP runtime: the device's UUID and PCI bus id,
// peer-to-peer queries on a one-device system, profiler control, API and command names, the
// debugger's build queries, hipRTC's precompiled header; and what cannot exist here, refused
// with HIP's errors: API and activity callbacks, OpenGL interop, sparse array mapping.
// Prints the UUID, which must be the same in every run (checked by the test across two runs).
#include <hip/hip_runtime.h>
#include <hip/amd_detail/hip_prof_str.h>  // HIP_API_ID_*

#include <cctype>
#include <cstring>
#include <string>

#include "hip_check.h"

// The operation and command kinds; the header declares the functions with C++ linkage, while
// HIP 5.2 exports them with C linkage (declared below).
namespace prof {  // calls below name the global, C-linkage functions (::), which argument lookup would not
#include <hip/amd_detail/hip_runtime_prof.h>
}
using prof::kHipVdiCommandKernel, prof::kHipVdiFillMemory, prof::kHipVdiOpIdDispatch, prof::kHipVdiOpIdNumber;
extern "C" {
void hipInitActivityCallback(void* id_callback, void* op_callback, void* arg);
bool hipEnableActivityCallback(uint32_t op, bool enable);
const char* hipGetCmdName(uint32_t id);
}

__global__ void noop() {}

[[maybe_unused]] static void callback(uint32_t, uint32_t, const void*, void*) {}

int main() {
  noop<<<1, 1>>>();
  EXPECT_OK(hipDeviceSynchronize());

  // ---- versions: the runtime reports the HIP whose ABI the program was built against ----
  int runtime_version = 0, driver_version = 0;
  EXPECT_OK(hipRuntimeGetVersion(&runtime_version));
  EXPECT_OK(hipDriverGetVersion(&driver_version));
  EXPECT(runtime_version / 10000000 == HIP_VERSION_MAJOR && runtime_version / 100000 % 100 == HIP_VERSION_MINOR);
  EXPECT(driver_version == runtime_version);

  // ---- UUID: "GPU-" and hex digits, as ROCm reports agents, the same in every call ----
  hipUUID uuid, again;
  EXPECT_OK(hipDeviceGetUuid(&uuid, 0));
  EXPECT_OK(hipDeviceGetUuid(&again, 0));
  EXPECT(std::memcmp(uuid.bytes, again.bytes, sizeof uuid.bytes) == 0);
  const std::string text(uuid.bytes, sizeof uuid.bytes);
  bool hex = text.compare(0, 4, "GPU-") == 0;
  for (size_t i = 4; i < text.size(); ++i) hex = hex && std::isxdigit(static_cast<unsigned char>(text[i]));
  EXPECT(hex);
  std::printf("uuid %s\n", text.c_str());
  EXPECT_ERROR(hipDeviceGetUuid(&uuid, 1), hipErrorInvalidDevice);
  EXPECT_ERROR(hipDeviceGetUuid(nullptr, 0), hipErrorInvalidValue);

  // ---- the device hipDeviceGetPCIBusId names ----
  char bus_id[32] = {};
  EXPECT_OK(hipDeviceGetPCIBusId(bus_id, sizeof bus_id, 0));
  int device = -1;
  EXPECT_OK(hipDeviceGetByPCIBusId(&device, bus_id));
  EXPECT(device == 0);
  int bus = -1, domain = -1, slot = -1;
  EXPECT_OK(hipDeviceGetAttribute(&bus, hipDeviceAttributePciBusId, 0));
  EXPECT_OK(hipDeviceGetAttribute(&domain, hipDeviceAttributePciDomainID, 0));
  EXPECT_OK(hipDeviceGetAttribute(&slot, hipDeviceAttributePciDeviceId, 0));
  char built[32];
  std::snprintf(built, sizeof built, "%04x:%02x:%02x.0", domain, bus, slot);
  EXPECT(std::strcmp(built, bus_id) == 0);
  EXPECT_ERROR(hipDeviceGetByPCIBusId(&device, "0000:7f:00.0"), hipErrorInvalidValue);
  EXPECT_ERROR(hipDeviceGetByPCIBusId(&device, "not a bus id"), hipErrorInvalidValue);
  EXPECT_ERROR(hipDeviceGetByPCIBusId(nullptr, bus_id), hipErrorInvalidValue);

  // ---- peer-to-peer on one device: HIP 5.2's answers for a device and itself ----
  int value = -1;
  uint32_t link = 0, hops = 0;
  EXPECT_ERROR(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, 0, 0), hipErrorInvalidDevice);
  EXPECT_ERROR(hipDeviceGetP2PAttribute(&value, hipDevP2PAttrPerformanceRank, 0, 1), hipErrorInvalidDevice);
  EXPECT_ERROR(hipDeviceGetP2PAttribute(nullptr, hipDevP2PAttrAccessSupported, 0, 0), hipErrorInvalidValue);
  EXPECT_ERROR(hipExtGetLinkTypeAndHopCount(0, 0, &link, &hops), hipErrorInvalidValue);
  EXPECT_ERROR(hipExtGetLinkTypeAndHopCount(0, 1, &link, &hops), hipErrorInvalidDevice);
  EXPECT_ERROR(hipExtGetLinkTypeAndHopCount(0, 1, nullptr, &hops), hipErrorInvalidValue);

  // ---- profiler, names, build queries, precompiled header ----
  EXPECT_ERROR(hipProfilerStart(), hipErrorNotSupported);  // as Debian's HIP 5.2 runtime answers
  EXPECT_ERROR(hipProfilerStop(), hipErrorNotSupported);
  EXPECT(std::strcmp(hipApiName(HIP_API_ID_hipMalloc), "hipMalloc") == 0);
  EXPECT(std::strcmp(hipApiName(HIP_API_ID_hipCtxCreate), "hipCtxCreate") == 0);
  EXPECT(std::strcmp(hipApiName(100000), "unknown") == 0);
  EXPECT(std::strcmp(::hipGetCmdName(kHipVdiCommandKernel), "KernelExecution") == 0);
  EXPECT(std::strcmp(::hipGetCmdName(kHipVdiFillMemory), "FillBuffer") == 0);
  EXPECT(std::strcmp(::hipGetCmdName(7), "Unknown command type") == 0);
  EXPECT(std::strstr(amd_dbgapi_get_build_name(), "gpuport") != nullptr);
  EXPECT(std::strstr(amd_dbgapi_get_git_hash(), "gpuport") != nullptr);
  EXPECT(amd_dbgapi_get_build_id() == 0);
  const char* pch = "unset";
  unsigned int pch_size = 1;
  __hipGetPCH(&pch, &pch_size);
  EXPECT(pch == nullptr && pch_size == 0);

#if HIP_VERSION_MAJOR < 6  // HIP 6 removed these entry points
  // ---- API and activity callbacks: nothing is traced ----
  void* fn = reinterpret_cast<void*>(callback);
  EXPECT_ERROR(hipRegisterApiCallback(HIP_API_ID_hipMalloc, fn, nullptr), hipErrorNotSupported);
  EXPECT_ERROR(hipRegisterApiCallback(0, fn, nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipRegisterApiCallback(HIP_API_ID_LAST + 1, fn, nullptr), hipErrorInvalidValue);
  EXPECT_OK(hipRemoveApiCallback(HIP_API_ID_hipMalloc));
  EXPECT_ERROR(hipRemoveApiCallback(0), hipErrorInvalidValue);
  EXPECT_ERROR(hipRegisterActivityCallback(HIP_API_ID_hipMemcpy, fn, nullptr), hipErrorNotSupported);
  EXPECT_OK(hipRemoveActivityCallback(HIP_API_ID_hipMemcpy));
  hipInitActivityCallback(fn, fn, nullptr);
  EXPECT(!::hipEnableActivityCallback(kHipVdiOpIdDispatch, true));
  EXPECT(!::hipEnableActivityCallback(kHipVdiOpIdNumber, true));

#endif

  // ---- OpenGL interop: no GL context uses the device ----
  unsigned int count = 7;
  int devices[2] = {-1, -1};
  EXPECT_ERROR(hipGLGetDevices(&count, devices, 2, hipGLDeviceListAll), hipErrorNoDevice);
  EXPECT(count == 0);
  EXPECT_ERROR(hipGLGetDevices(&count, devices, 2, hipGLDeviceListNextFrame), hipErrorNotSupported);
  EXPECT_ERROR(hipGLGetDevices(&count, devices, 0, hipGLDeviceListAll), hipErrorInvalidValue);
  hipGraphicsResource* resource = nullptr;
  EXPECT_ERROR(hipGraphicsGLRegisterBuffer(&resource, 1, hipGraphicsRegisterFlagsNone), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphicsGLRegisterImage(&resource, 1, 0x0DE1, hipGraphicsRegisterFlagsReadOnly), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphicsGLRegisterBuffer(&resource, 1, 3), hipErrorInvalidValue);
  hipGraphicsResource_t bogus = reinterpret_cast<hipGraphicsResource_t>(&value);
  void* mapped = nullptr;
  size_t mapped_size = 0;
  hipArray_t array = nullptr;
  EXPECT_ERROR(hipGraphicsMapResources(1, &bogus, nullptr), hipErrorUnknown);
  EXPECT_ERROR(hipGraphicsResourceGetMappedPointer(&mapped, &mapped_size, bogus), hipErrorUnknown);
  EXPECT_ERROR(hipGraphicsSubResourceGetMappedArray(&array, bogus, 0, 0), hipErrorInvalidValue);
  EXPECT_ERROR(hipGraphicsUnmapResources(1, &bogus, nullptr), hipErrorInvalidResourceHandle);
  EXPECT_OK(hipGraphicsUnmapResources(0, nullptr, nullptr));
  EXPECT_ERROR(hipGraphicsUnmapResources(1, nullptr, nullptr), hipErrorUnknown);
  EXPECT_ERROR(hipGraphicsUnregisterResource(bogus), hipErrorInvalidResourceHandle);

  // ---- sparse arrays: refused as HIP 5.2 refuses them ----
  hipArrayMapInfo info;
  std::memset(&info, 0, sizeof info);
  EXPECT_ERROR(hipMemMapArrayAsync(&info, 1, nullptr), hipErrorNotSupported);
  EXPECT_ERROR(hipMemMapArrayAsync(nullptr, 1, nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemMapArrayAsync(&info, 0, nullptr), hipErrorInvalidValue);
  return finish("queries");
}
