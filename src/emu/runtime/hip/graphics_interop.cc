// OpenGL interop of the emulator's HIP runtime: the emulated device renders nothing, so no GL
// context uses it and no GL object can be registered. Each function answers what HIP 5.2 answers
// when it has no GL interop context: hipGLGetDevices finds no device (hipErrorNoDevice),
// registration fails with hipErrorInvalidValue ("gl interop not initialized"), mapping and
// mapped pointers with hipErrorUnknown, and a resource handle can only be an invalid one.
#include "emu/runtime/core/runtime.h"

namespace gpuport::emu::hip {
namespace {

constexpr const char* kNoGL = "no OpenGL context uses the emulated device";

bool valid_register_flags(unsigned int flags) {
  return flags == hipGraphicsRegisterFlagsNone || flags == hipGraphicsRegisterFlagsReadOnly ||
         flags == hipGraphicsRegisterFlagsWriteDiscard || flags == hipGraphicsRegisterFlagsSurfaceLoadStore ||
         flags == hipGraphicsRegisterFlagsTextureGather;
}

// HIP 5.2's check of a resource list: a count without resources or resources without a count.
bool inconsistent(int count, const hipGraphicsResource_t* resources) {
  return (count == 0 && resources) || (count != 0 && !resources);
}

}  // namespace
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

hipError_t hipGLGetDevices(unsigned int* count, int* devices, unsigned int capacity, hipGLDeviceList list) {
  if (list == hipGLDeviceListNextFrame) return ret(hipErrorNotSupported);  // as in HIP 5.2
  if (!count || !devices || capacity == 0) return ret(hipErrorInvalidValue);
  if (list != hipGLDeviceListAll && list != hipGLDeviceListCurrentFrame) return ret(hipErrorInvalidValue);
  *count = 0;
  return refuse("hipGLGetDevices", kNoGL, hipErrorNoDevice);
}

hipError_t hipGraphicsGLRegisterBuffer(hipGraphicsResource** resource, GLuint, unsigned int flags) {
  if (!valid_register_flags(flags) || !resource) return ret(hipErrorInvalidValue);
  return refuse("hipGraphicsGLRegisterBuffer", kNoGL, hipErrorInvalidValue);
}
hipError_t hipGraphicsGLRegisterImage(hipGraphicsResource** resource, GLuint, GLenum, unsigned int flags) {
  if (!valid_register_flags(flags) || !resource) return ret(hipErrorInvalidValue);
  return refuse("hipGraphicsGLRegisterImage", kNoGL, hipErrorInvalidValue);
}

hipError_t hipGraphicsMapResources(int, hipGraphicsResource_t*, hipStream_t) {
  return refuse("hipGraphicsMapResources", kNoGL, hipErrorUnknown);
}
hipError_t hipGraphicsResourceGetMappedPointer(void**, size_t*, hipGraphicsResource_t) {
  return refuse("hipGraphicsResourceGetMappedPointer", kNoGL, hipErrorUnknown);
}
hipError_t hipGraphicsSubResourceGetMappedArray(hipArray_t* array, hipGraphicsResource_t resource, unsigned int, unsigned int) {
  if (!array || !resource) return ret(hipErrorInvalidValue);
  return refuse("hipGraphicsSubResourceGetMappedArray", kNoGL, hipErrorInvalidValue);  // no resource was ever registered
}
hipError_t hipGraphicsUnmapResources(int count, hipGraphicsResource_t* resources, hipStream_t) {
  if (inconsistent(count, resources)) return ret(hipErrorUnknown);
  if (count == 0) return hipSuccess;
  return refuse("hipGraphicsUnmapResources", kNoGL, hipErrorInvalidResourceHandle);
}
hipError_t hipGraphicsUnregisterResource(hipGraphicsResource_t) {
  return refuse("hipGraphicsUnregisterResource", kNoGL, hipErrorInvalidResourceHandle);
}
