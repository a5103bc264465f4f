// Self-checking CUDA program with 32-lane idioms: the lane as threadIdx.x % 32, and a ballot kept
// in 32 bits. Right on NVIDIA (32 lanes) and on AMD wave32; on wave64 the lane numbers repeat
// and the ballot loses its upper half, unless the translation fixes both (--fix-warp-size).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void lanes(const int* in, int* lane_out, unsigned long long* votes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  unsigned b = __ballot_sync(0xffffffff, in[i] > 0);
  lane_out[i] = lane;
  if (lane == 0) votes[i / 32] = b;  // one vote word per 32 threads
}

int main() {
  const int n = 256;
  int h_in[n], h_lane[n];
  unsigned long long h_votes[n / 32];
  for (int i = 0; i < n; ++i) h_in[i] = (i * 7) % 5 - 2;
  int *in, *lane;
  unsigned long long* votes;
  cudaMalloc(&in, sizeof h_in);
  cudaMalloc(&lane, sizeof h_lane);
  cudaMalloc(&votes, sizeof h_votes);
  cudaMemset(votes, 0, sizeof h_votes);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  lanes<<<2, 128>>>(in, lane, votes);
  cudaMemcpy(h_lane, lane, sizeof h_lane, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_votes, votes, sizeof h_votes, cudaMemcpyDeviceToHost);
  int warp = 0;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    bad += h_lane[i] != (i % 128) % warp;  // the lane within the hardware's warp
  }
  for (int w = 0; w < n / warp; ++w) {
    unsigned long long expect = 0;
    for (int l = 0; l < warp; ++l) expect |= static_cast<unsigned long long>(h_in[w * warp + l] > 0) << l;
    bad += h_votes[w] != expect;
  }
  printf("warp size %d: %s (%d mismatches)\n", warp, bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
