// curandSetStream takes a cudaStream_t; both become their HIP twins (hiprandSetStream,
// hipStream_t), along with the runtime stream calls around them.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <curand.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hiprand/hiprand.h>

void async_fill(curandGenerator_t gen, float* dev, size_t n) {
  cudaStream_t s;
  // CHECK: hipStream_t s;
  cudaStreamCreate(&s);
  // CHECK-NEXT: hipStreamCreate(&s);
  curandSetStream(gen, s);
  // CHECK-NEXT: hiprandSetStream(gen, s);
  curandGenerateUniform(gen, dev, n);
  // CHECK-NEXT: hiprandGenerateUniform(gen, dev, n);
  cudaStreamSynchronize(s);
  // CHECK-NEXT: hipStreamSynchronize(s);
}
// REPORT: 0 errors, 0 warnings
