// HIP 5.2 has no hipMemoryTypeManaged: it reports managed memory by
// hipPointerAttribute_t::isManaged (memoryType then says device or host). A comparison of a
// cudaPointerAttributes' type with cudaMemoryTypeManaged becomes a test of isManaged, either
// way round and negated; any other use stays an unsupported-api error. With --hip-version 6.2
// the constant is HIP's own.
// RUN: not %gpuport translate --hip-version 5.2 %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %gpuport translate --hip-version 6.2 %s 2>/dev/null | grep -v -e CHECK -e RUN -e REPORT | FileCheck --check-prefix=V62 %s
#include <cuda_runtime.h>
bool managed(const void* p) {
  cudaPointerAttributes attr;
  cudaPointerGetAttributes(&attr, p);
  const bool a = attr.type == cudaMemoryTypeManaged;
  // CHECK: const bool a = attr.isManaged != 0;
  // V62: const bool a = attr.type == hipMemoryTypeManaged;
  const bool b = cudaMemoryTypeManaged != attr.type;
  // CHECK: const bool b = 0 == attr.isManaged;
  cudaPointerAttributes all[2];
  const bool c = all[1].type != cudaMemoryTypeManaged && attr.type == cudaMemoryTypeDevice;
  // CHECK: const bool c = all[1].isManaged == 0 && attr.memoryType == hipMemoryTypeDevice;
  int kind = cudaMemoryTypeManaged;
  // CHECK: int kind = cudaMemoryTypeManaged;
  return a && b && c && kind;
}
// REPORT: managed-memory-type.cu:21:14: error: 'cudaMemoryTypeManaged' (runtime) has no HIP equivalent [unsupported-api]
// REPORT: 1 errors
