// cudaPointerAttributes::type is hipPointerAttribute_t::memoryType in HIP 5.2 (on objects
// declared as cudaPointerAttributes only); cudaMemoryTypeManaged has no enumerator there:
// managed memory shows as isManaged, which a comparison with it tests instead
// (runtime/managed-memory-type.cu).
// RUN: %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
struct mine { int type; };
bool on_device(const void* p, mine m) {
  cudaPointerAttributes attr;
  cudaPointerGetAttributes(&attr, p);
  // CHECK: hipPointerGetAttributes(&attr, p);
  return attr.type == cudaMemoryTypeDevice && m.type == 0 && attr.type != cudaMemoryTypeManaged;
  // CHECK: return attr.memoryType == hipMemoryTypeDevice && m.type == 0 && attr.isManaged == 0;
}
// REPORT: 0 errors
