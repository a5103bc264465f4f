// The struct and union tags behind driver-API typedefs, and versioned entry points that older
// CUDA headers #define the plain names to: CUtexref_st (CUtexref is CUtexref_st*) becomes
// textureReference (hipTexRef is textureReference*), CUkernelNodeAttrValue_union becomes
// hipKernelNodeAttrValue, cuTexRefSetAddress2D_v2 becomes hipTexRefSetAddress2D (deprecated in
// HIP, so a warning), and the legacy cublas.h typedef cublasStatus becomes hipblasStatus_t.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
#include <cublas.h>
CUtexref_st* texref;
// CHECK: {{^}}textureReference* texref;
CUkernelNodeAttrValue_union value;
// CHECK: {{^}}hipKernelNodeAttrValue value;
cublasStatus status;
// CHECK: {{^}}hipblasStatus_t status;
CUresult set(const CUDA_ARRAY_DESCRIPTOR* d, CUdeviceptr p, size_t pitch) {
  return cuTexRefSetAddress2D_v2(texref, d, p, pitch);
  // CHECK: return hipTexRefSetAddress2D(texref, d, p, pitch);
}
// REPORT-NOT: unsupported
// REPORT: deprecated
// REPORT-NOT: unsupported
