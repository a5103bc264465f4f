// __ldg is declared by HIP 5.2 for every type; the cache-hinted __ldcg, __ldca and __ldcs only
// for __half and __half2, so they become __ldg.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void gather(float* out, const float* __restrict__ in, const int* idx) {
  int i = __ldg(&idx[threadIdx.x]);
  // CHECK: int i = __ldg(&idx[threadIdx.x]);
  float a = __ldcg(&in[i]);
  // CHECK-NEXT: float a = __ldg(&in[i]);
  float b = __ldca(&in[i + 1]);
  // CHECK-NEXT: float b = __ldg(&in[i + 1]);
  float c = __ldcs(&in[i + 2]);
  // CHECK-NEXT: float c = __ldg(&in[i + 2]);
  out[threadIdx.x] = a + b + c;
}
// REPORT: 0 errors, 0 warnings
