// nvcc accepts a launch spelled with spaces inside its brackets (`k << <g, b >> > (a)`, as code
// formatters leave it); clang reads `<< <` as two operators and refuses it. gpuport joins the
// brackets, with a note; `>> >` elsewhere (nested template arguments) is left alone.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <vector>

template <typename T> __global__ void fill(T* p, T v) { p[threadIdx.x] = v; }
__global__ void k(int* p) { p[0] = 1; }

void run(int* p, float* q) {
  k << <1, 1 >> > (p);
  // CHECK: {{^}}  k <<<1, 1 >>> (p);
  // REPORT: {{.*}}spaced-launch.cu:[[@LINE-2]]:5: note: a launch spelled with spaces inside <<< or >>> {{.*}}[launch-spaced]
  fill<float> << <dim3(2, 1), 32, 0, 0 >> > (q, 1.0f);
  // CHECK: {{^}}  fill<float> <<<dim3(2, 1), 32, 0, 0 >>> (q, 1.0f);
  k<<<1, 1>>>(p);
  // CHECK: {{^}}  k<<<1, 1>>>(p);
  std::vector<std::vector<int> > nested;
  // CHECK: {{^}}  std::vector<std::vector<int> > nested;
}
// REPORT: 0 errors, 0 warnings, 2 notes
