#include <hip/hip_runtime.h>
// Two kernels: one with static LDS and a barrier, one with a by-value struct argument.
struct Params {
  float scale;
  int n;
};
__global__ void block_sum(const float* in, float* out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}
__global__ void scale2d(Params p, float* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < p.n && j < p.n) data[j * p.n + i] *= p.scale;
}
int main() {
  float *in, *out;
  hipMalloc(&in, 1024 * 4);
  hipMalloc(&out, 64 * 64 * 4);  // block_sum writes 4 floats, scale2d 64 x 64
  hipLaunchKernelGGL(block_sum, dim3(4), dim3(256), 0, 0, in, out);
  hipLaunchKernelGGL(scale2d, dim3(4, 4), dim3(16, 16), 0, 0, Params{2.0f, 64}, out);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
