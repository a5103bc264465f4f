// __syncthreads_count / _and / _or beside static and dynamic shared memory: the barrier's
// reduction scratch must not overlap either. Each block stages its values through a static
// shared array and a dynamic one, votes, and writes the block's results; the CPU checks them.
#include <cstdio>

constexpr int kBlock = 80, kBlocks = 3;

__global__ void votes(const int* in, int* out) {
  __shared__ int staged[kBlock];
  extern __shared__ int dynamic[];
  const int t = threadIdx.x, i = blockIdx.x * kBlock + t;
  staged[t] = in[i];
  dynamic[t] = in[i] * 2;
  const int count = __syncthreads_count(staged[t] > 0);
  const int all = __syncthreads_and(dynamic[kBlock - 1 - t] != 0);
  const int any = __syncthreads_or(staged[(t + 1) % kBlock] == 1000 + blockIdx.x);
  // The shared data must have survived the three barriers' reductions untouched.
  out[i] = staged[t] + dynamic[t] == 3 * in[i] ? count * 4 + (all != 0) * 2 + (any != 0) : -1;
}

int main() {
  int h_in[kBlock * kBlocks], h_out[kBlock * kBlocks];
  for (int i = 0; i < kBlock * kBlocks; ++i) h_in[i] = (i * 13) % 7 - 2;
  h_in[kBlock + 5] = 1001;  // block 1 has its marker
  int *in, *out;
  cudaMalloc(&in, sizeof h_in);
  cudaMalloc(&out, sizeof h_out);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  votes<<<kBlocks, kBlock, kBlock * sizeof(int)>>>(in, out);
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < kBlocks; ++b) {
    int count = 0, all = 1, any = 0;
    for (int t = 0; t < kBlock; ++t) {
      const int v = h_in[b * kBlock + t];
      count += v > 0;
      all = all && v != 0;
      any = any || v == 1000 + b;
    }
    for (int t = 0; t < kBlock; ++t)
      if (h_out[b * kBlock + t] != count * 4 + all * 2 + any)
        ++bad, printf("block %d thread %d: %d, want %d\n", b, t, h_out[b * kBlock + t], count * 4 + all * 2 + any);
  }
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
