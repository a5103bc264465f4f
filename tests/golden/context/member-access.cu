// A name after . or -> is a member of a user type, not the API: obj.cudaMalloc and
// p->cudaFree are kept, as are pointer-to-member uses.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

template <typename Alloc> void use(Alloc obj, Alloc* p, void* d) {
  obj.cudaMalloc(&d, 16);
  // CHECK: {{^}}  obj.cudaMalloc(&d, 16);
  p->cudaFree(d);
  // CHECK-NEXT: {{^}}  p->cudaFree(d);
  obj . cudaMemcpy(d, d, 4);
  // CHECK-NEXT: {{^}}  obj . cudaMemcpy(d, d, 4);
  auto s = p->cudaStream_t;
  // CHECK-NEXT: {{^}}  auto s = p->cudaStream_t;
}
// REPORT: 0 errors, 0 warnings
