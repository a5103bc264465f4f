// Block barriers and memory fences exist in HIP under the same names: __syncthreads and its
// _and/_or/_count forms and the three __threadfence scopes are left unchanged, with no finding.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void barriers(int* out, const int* in) {
  __shared__ int tile[256];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  // CHECK: __syncthreads();
  int all = __syncthreads_and(tile[threadIdx.x] > 0);
  // CHECK: int all = __syncthreads_and(tile[threadIdx.x] > 0);
  int any = __syncthreads_or(tile[threadIdx.x] < 0);
  // CHECK: int any = __syncthreads_or(tile[threadIdx.x] < 0);
  int n = __syncthreads_count(tile[threadIdx.x] == 0);
  // CHECK: int n = __syncthreads_count(tile[threadIdx.x] == 0);
  out[0] = all + any + n;
  __threadfence_block();
  // CHECK: __threadfence_block();
  __threadfence();
  // CHECK: __threadfence();
  __threadfence_system();
  // CHECK: __threadfence_system();
}
// REPORT: 0 errors, 0 warnings
