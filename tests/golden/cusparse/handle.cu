// cuSPARSE handles -> hipSPARSE: cusparse.h becomes hipsparse/hipsparse.h; cusparseHandle_t,
// cusparseCreate, cusparseSetStream, cusparseDestroy, cusparseStatus_t and the status
// enumerators get their hipsparse names.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>
#include <cusparse.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hipsparse/hipsparse.h>

int open_handle(cudaStream_t stream) {
  cusparseHandle_t handle;
  // CHECK: hipsparseHandle_t handle;
  cusparseStatus_t st = cusparseCreate(&handle);
  // CHECK-NEXT: hipsparseStatus_t st = hipsparseCreate(&handle);
  if (st != CUSPARSE_STATUS_SUCCESS) return 1;
  // CHECK-NEXT: if (st != HIPSPARSE_STATUS_SUCCESS) return 1;
  cusparseSetStream(handle, stream);
  // CHECK-NEXT: hipsparseSetStream(handle, stream);
  cusparseDestroy(handle);
  // CHECK-NEXT: hipsparseDestroy(handle);
  return 0;
}
// CHECK-NOT: cusparse
// REPORT: 0 errors, 0 warnings
