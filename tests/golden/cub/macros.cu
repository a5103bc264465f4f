// CUB macros with hipCUB twins are renamed (CubDebug -> HipcubDebug, CUB_RUNTIME_FUNCTION ->
// HIPCUB_RUNTIME_FUNCTION); CubDebugExit has none and is an unsupported-api error.
// (The code contains CUB_RUNTIME_FUNCTION, so the grep below drops only the lit run lines.)
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN: -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cub/cub.cuh>

CUB_RUNTIME_FUNCTION cudaError_t run(void* temp, size_t& bytes, int* in, int* out, int n) {
  // CHECK: HIPCUB_RUNTIME_FUNCTION hipError_t run(void* temp, size_t& bytes, int* in, int* out, int n) {
  CubDebug(cub::DeviceReduce::Max(temp, bytes, in, out, n));
  // CHECK-NEXT: HipcubDebug(hipcub::DeviceReduce::Max(temp, bytes, in, out, n));
  CubDebugExit(cudaDeviceSynchronize());
  // CHECK-NEXT: CubDebugExit(hipDeviceSynchronize());
  return cudaSuccess;
}
// REPORT: macros.cu:12:3: error: 'CubDebugExit' (cub) has no HIP equivalent [unsupported-api]
// REPORT: 1 errors, 0 warnings
