// The API called through the global namespace (::cudaMalloc) is the API and is renamed,
// keeping the :: qualifier.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void f(void** d) {
  ::cudaMalloc(d, 4);
  // CHECK: {{^}}  ::hipMalloc(d, 4);
  ::cudaStream_t s;
  // CHECK-NEXT: {{^}}  ::hipStream_t s;
}
// REPORT: 0 errors, 0 warnings
