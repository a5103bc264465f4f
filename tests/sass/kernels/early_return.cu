// Early return from divergent code, then a block barrier among the survivors' block.
extern "C" __global__ void early_return(const float* in, float* out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (tile[threadIdx.x] == 0.0f) return;
  float v = tile[threadIdx.x] + tile[(threadIdx.x + 1) & 255];
  if (v > 100.0f) return;
  out[i] = v;
}
