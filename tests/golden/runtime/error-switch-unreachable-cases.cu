// helper_cuda.h (CUDA samples before 11) names every cudaError in a switch; 24 of them have no
// HIP error code (textures not bound, duplicate variable names, the stub library, ...). HIP never
// returns them, so their `case` labels can never match: they are dropped, with a note, and the
// statements after them stay (reached, as before, only by the labels above). The translation
// compiles for gfx1100. (Such a code outside a case label is still an error: error-enumerators.cu.)
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/error-switch-unreachable-cases.cu | FileCheck %s
#include <cuda_runtime.h>
static const char* error_enum(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "cudaSuccess";
    // CHECK: case hipSuccess:
    case cudaErrorTextureNotBound:
      return "cudaErrorTextureNotBound";
    // CHECK-NOT: TextureNotBound:
    // CHECK: return "cudaErrorTextureNotBound";
    // REPORT-DAG: error-switch-unreachable-cases.cu:[[@LINE-4]]:10: note: case cudaErrorTextureNotBound: HIP has no such error code and never returns it, so the label is dropped [case-dropped]
    case cudaErrorInvalidHostPointer: case cudaErrorNoDevice: return "one of two";
    // CHECK: {{^}}    case hipErrorNoDevice: return "one of two";
    default:
      return "other";
  }
}
// REPORT: check gfx1100: compiles
int main() { return error_enum(cudaSuccess)[0] == 'c' ? 0 : 1; }
