// A kernel with an arrive/wait barrier in shared memory: its cubin carries
// EIATTR_MBARRIER_INSTR_OFFSETS (16-byte records), which the tune rewriter maps and checks.
#include <new>
#include <cuda/barrier>
__global__ void staged(const float* in, float* out, int n) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[256];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] * 2.0f + 1.0f : 0.0f;
  bar.arrive_and_wait();
  float s = tile[threadIdx.x] + tile[(threadIdx.x + 1) % blockDim.x];
  if (i < n) out[i] = s * 0.5f + in[i];
}
