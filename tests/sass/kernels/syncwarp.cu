// __syncwarp inside divergent code, with full and partial masks.
extern "C" __global__ void syncwarp_divergent(int* data) {
  __shared__ int s[32];
  unsigned lane = threadIdx.x & 31;
  s[lane] = data[threadIdx.x];
  if (lane < 16) {
    s[lane] += s[lane + 16];
    __syncwarp(0x0000ffffu);
    data[threadIdx.x] = s[(lane + 1) & 15];
  } else {
    s[lane] *= 2;
    __syncwarp(0xffff0000u);
  }
  __syncwarp();
  data[threadIdx.x] += s[31 - lane];
}
