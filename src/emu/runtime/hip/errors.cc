// Errors of the HIP runtime API: the thread's last error, the names and descriptions of error
// codes, and what every function the emulator does not implement returns (the generated stubs of
// cmake/HipRuntimeExports.cmake call gpuport_hip_not_implemented).
#include "emu/runtime/core/runtime.h"


using namespace gpuport::emu::hip;

hipError_t hipGetLastError() {
  const hipError_t e = last_error;
  last_error = hipSuccess;
  return e;
}
hipError_t hipPeekAtLastError() { return last_error; }

const char* hipGetErrorName(hipError_t e) { return error_name(e); }
const char* hipGetErrorString(hipError_t e) { return error_string(e); }

// ---- what the generated stubs call ------------------------------------------------------------
extern "C" int gpuport_hip_not_implemented(const char* name) {
  runtime().say_unsupported(name);
  last_error = hipErrorNotSupported;
  return hipErrorNotSupported;
}
