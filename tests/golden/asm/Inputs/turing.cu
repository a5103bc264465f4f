// Turing (sm_75) forms that CUDA 11.8 stopped emitting from sm_80 on: shared loads printed as
// LDS.U, and global accesses that add a 64-bit uniform register pair to a 64-bit base
// (`LDG.E.U8.CONSTANT.SYS R0, [R2.64+UR4]` after `ULDC.64 UR4, c[0x0][0x168]`).
#include <cstdio>

__global__ void gather(const unsigned char* __restrict__ bytes, const int* __restrict__ words, int* out, int n) {
  __shared__ int tile[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? words[i] * 3 + bytes[i] : 0;
  __syncthreads();
  if (i < n) out[i] = tile[(threadIdx.x + 1) % blockDim.x] - tile[threadIdx.x] + bytes[n - 1 - i];
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  unsigned char hb[n];
  int hw[n], ho[n];
  for (int i = 0; i < n; ++i) hb[i] = static_cast<unsigned char>(i * 37 + 11), hw[i] = i * i - 500 * i;
  unsigned char* db;
  int *dw, *dout;
  cudaMalloc(&db, n);
  cudaMalloc(&dw, sizeof hw);
  cudaMalloc(&dout, sizeof ho);
  cudaMemcpy(db, hb, n, cudaMemcpyHostToDevice);
  cudaMemcpy(dw, hw, sizeof hw, cudaMemcpyHostToDevice);
  gather<<<blocks, threads>>>(db, dw, dout, n);
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const int block = i / threads, t = i % threads, next = block * threads + (t + 1) % threads;
    const int here = hw[i] * 3 + hb[i], there = next < n ? hw[next] * 3 + hb[next] : 0;
    const int expected = there - here + hb[n - 1 - i];
    if (ho[i] != expected && bad++ < 4) std::printf("out[%d] = %d, expected %d\n", i, ho[i], expected);
  }
  std::printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
