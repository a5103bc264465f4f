// The texture reference queries HIP 6 adds. Compiled into libamdhip64.so.6 only; calls the core
// and, for the per-thread forms, the entry points of emu/runtime/hip/ they stand for.
#include <cstring>
#include "emu/runtime/core/images.h"

using namespace gpuport::emu::hip;

// ---- texture reference queries HIP 6 adds -------------------------------------------------------
hipError_t hipTexRefGetArray(hipArray_t* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  const ObjectRecord* r = record_of(ref->textureObject);
  if (!r || r->resource.resType != hipResourceTypeArray) return ret(hipErrorInvalidValue);
  *out = r->resource.res.array.array;
  return hipSuccess;
}
// textureReference has no border colour (hipTexRefSetBorderColor is refused): none to read.
hipError_t hipTexRefGetBorderColor(float* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  runtime().say_unsupported("hipTexRefGetBorderColor (textureReference has no border colour)");
  return ret(hipErrorNotSupported);
}
// No texture is ever bound to a whole mipmapped array here (hipBindTextureToMipmappedArray is
// refused, as HIP 5.2 refuses it).
hipError_t hipTexRefGetMipMappedArray(hipMipmappedArray_t* out, const textureReference* ref) {
  if (!out || !ref) return ret(hipErrorInvalidValue);
  return ret(hipErrorInvalidValue);
}
