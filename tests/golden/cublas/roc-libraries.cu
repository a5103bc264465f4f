// --roc (hipify-clang's option, also spelt -roc) translates cuBLAS, cuSOLVER, cuRAND and
// cuSPARSE to rocBLAS, rocSOLVER, rocRAND and rocSPARSE themselves instead of the hip* wrappers.
// The tables come from the Debian 13 roc* headers (gpuport-rocgen); a function whose roc* twin
// takes other arguments is reported with both counts instead of being renamed into a call that
// cannot compile. With --hipify-style rocBLAS and rocSPARSE headers are spelt flat.
// RUN: not %gpuport translate --roc %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: not %gpuport translate -roc --hipify-style %s 2>/dev/null | FileCheck --check-prefix=FLAT %s
// RUN: %gpuport translate %s 2>/dev/null | FileCheck --check-prefix=HIP %s
#include <cuda_runtime.h>
#include <cublas_v2.h>
// CHECK: #include <rocblas/rocblas.h>
// FLAT: #include <rocblas.h>
// HIP: #include <hipblas/hipblas.h>
#include <cusolverDn.h>
// CHECK: #include <rocsolver/rocsolver.h>
// FLAT: #include <rocsolver/rocsolver.h>
#include <curand.h>
// CHECK: #include <rocrand/rocrand.h>
#include <cusparse.h>
// CHECK: #include <rocsparse/rocsparse.h>
// FLAT: #include <rocsparse.h>
int main() {
  cublasHandle_t h;
  // CHECK: rocblas_handle h;
  // HIP: hipblasHandle_t h;
  cublasStatus_t s = cublasCreate(&h);
  // CHECK: rocblas_status s = rocblas_create_handle(&h);
  if (s != CUBLAS_STATUS_SUCCESS || s == CUBLAS_STATUS_NOT_INITIALIZED) return 1;
  // CHECK: if (s != rocblas_status_success || s == rocblas_status_invalid_handle) return 1;
  float *a, *b, *c, al = 1, be = 0;
  s = cublasSetMatrix(4, 4, sizeof(float), a, 4, b, 4);
  // CHECK: s = rocblas_set_matrix(4, 4, sizeof(float), a, 4, b, 4);
  s = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &al, a, 4, b, 4, &be, c, 4);
  // CHECK: s = rocblas_sgemm(h, rocblas_operation_none, rocblas_operation_transpose, 4, 4, 4, &al, a, 4, b, 4, &be, c, 4);
  s = cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &al, a, 4, 16, b, 4, 16, &be, c, 4, 16, 2);
  // CHECK: s = rocblas_sgemm_strided_batched(h, rocblas_operation_none, rocblas_operation_none,
  s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &al, a, CUDA_R_32F, 4, b, CUDA_R_32F, 4, &be, c, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // CHECK: s = cublasGemmEx(h,
  cublasDestroy(h);
  // CHECK: rocblas_destroy_handle(h);
  cusolverDnHandle_t sh;
  // CHECK: rocblas_handle sh;
  cusolverDnCreate(&sh);
  // CHECK: rocblas_create_handle(&sh);
  int info;
  cusolverDnSpotrf(sh, CUBLAS_FILL_MODE_LOWER, 4, a, 4, b, 16, &info);
  // CHECK: cusolverDnSpotrf(sh, rocblas_fill_lower, 4, a, 4, b, 16, &info);
  curandGenerator_t g;
  // CHECK: rocrand_generator g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  // CHECK: rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(g, 1234ULL);
  // CHECK: rocrand_set_seed(g, 1234ULL);
  cusparseHandle_t sp;
  // CHECK: rocsparse_handle sp;
  cusparseMatDescr_t d;
  cusparseCreateMatDescr(&d);
  // CHECK: rocsparse_create_mat_descr(&d);
  cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ZERO);
  // CHECK: rocsparse_set_mat_index_base(d, rocsparse_index_base_zero);
  return 0;
}
// REPORT: 38:7: error: 'cublasGemmEx' (cublas) has no rocBLAS equivalent [unsupported-api]
// REPORT-NEXT: fix: rocblas_gemm_ex takes 24 arguments, cublasGemmEx 19: port by hand
// REPORT: error: 'CUBLAS_COMPUTE_32F' (cublas) has no rocBLAS equivalent [unsupported-api]
// REPORT: 47:3: error: 'cusolverDnSpotrf' (cusolver) has no rocSOLVER equivalent [unsupported-api]
// REPORT-NEXT: fix: rocsolver_spotrf takes 6 arguments, cusolverDnSpotrf 8: port by hand
// REPORT: 3 errors
