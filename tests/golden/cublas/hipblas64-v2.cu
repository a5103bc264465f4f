// cuBLAS for hipBLAS 2.4 (ROCm 6.4, the default target): complex routines and the Ex routines map
// to their _v2 forms, which take hipComplex and hipDataType (what cuComplex and cudaDataType
// become); the plain forms take hipBLAS's own hipblasComplex and hipblasDatatype_t, and do not
// compile with the translated arguments. The ILP64 (_64) API maps to hipBLAS's _64 forms, and
// math modes to hipBLAS's. All of it compiles against HIP 6.4 for gfx1100.
// RUN: rm -rf %t && %gpuport translate --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/hipblas64-v2.cu | FileCheck %s
#include <cublas_v2.h>
#include <cuComplex.h>
void f(cublasHandle_t h, int n, cuComplex* x, cuComplex* y, float* a, float* b, float* c, int64_t n64) {
  cuComplex alpha = make_cuComplex(1.0f, 0.0f);
  cublasCaxpy(h, n, &alpha, x, 1, y, 1);
  // CHECK: hipblasCaxpy_v2(h, n, &alpha, x, 1, y, 1);
  float nrm = 0;
  cublasScnrm2(h, n, x, 1, &nrm);
  // CHECK: hipblasScnrm2_v2(h, n, x, 1, &nrm);
  const float one = 1.0f, zero = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_32F, n, b, CUDA_R_32F, n, &zero, c, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // CHECK: hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, a, HIP_R_32F, n, b, HIP_R_32F, n, &zero, c, HIP_R_32F, n,
  // CHECK-NEXT: HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
  cublasSaxpy_64(h, n64, &one, a, 1, b, 1);
  // CHECK: hipblasSaxpy_64(h, n64, &one, a, 1, b, 1);
  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  // CHECK: hipblasSetMathMode(h, HIPBLAS_DEFAULT_MATH);
}
// REPORT: check gfx1100: compiles
// REPORT: 0 errors
