// Warp shuffles checked against a CPU model of PTX shfl.sync: a __shfl_down_sync tree reduction
// per warp, a __shfl_xor_sync butterfly, __shfl_up_sync with a 16-lane segment (an inclusive scan),
// __shfl_sync broadcast within 8-lane segments and with an out-of-range lane. Blocks of 48 threads:
// the second warp of each block is a partial warp of 16 lanes.
#include <cstdio>
#include <cstdlib>

constexpr int kBlock = 48, kBlocks = 3, kN = kBlock * kBlocks;

__global__ void shuffles(const int* in, int* sum_down, int* sum_xor, int* scan16, int* bcast8, int* oob) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  const unsigned mask = __activemask();
  const int v = in[i];
  int s = v;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(mask, s, o);
  if (lane == 0) sum_down[i / 1] = s;
  int x = v;
  for (int o = 1; o < 32; o *= 2) x += __shfl_xor_sync(mask, x, o);
  sum_xor[i] = x;
  int c = v;
  for (int o = 1; o < 16; o *= 2) {
    const int t = __shfl_up_sync(mask, c, o, 16);
    if (lane % 16 >= o) c += t;
  }
  scan16[i] = c;
  bcast8[i] = __shfl_sync(mask, v, 3, 8);
  oob[i] = __shfl_down_sync(mask, v, 5, 8);
}

int main() {
  int h_in[kN], h_down[kN], h_xor[kN], h_scan[kN], h_b8[kN], h_oob[kN];
  for (int i = 0; i < kN; ++i) h_in[i] = (i * 37 + 11) % 101 - 50;
  int *in, *down, *xr, *scan, *b8, *oob;
  cudaMalloc(&in, sizeof h_in);
  cudaMalloc(&down, sizeof h_in);
  cudaMalloc(&xr, sizeof h_in);
  cudaMalloc(&scan, sizeof h_in);
  cudaMalloc(&b8, sizeof h_in);
  cudaMalloc(&oob, sizeof h_in);
  cudaMemset(down, 0, sizeof h_in);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  shuffles<<<kBlocks, kBlock>>>(in, down, xr, scan, b8, oob);
  cudaMemcpy(h_down, down, sizeof h_in, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_xor, xr, sizeof h_in, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_scan, scan, sizeof h_in, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_b8, b8, sizeof h_in, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_oob, oob, sizeof h_in, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int w = 0; w < 2; ++w) {
      const int first = b * kBlock + w * 32, lanes = w == 0 ? 32 : kBlock - 32;
      // CPU model of the tree reduction: lane j reads lane j+o when j+o < 32 (a lane of the
      // partial warp past its end holds nothing defined, so only lane 0's full-warp value and the
      // xor sum over the active lanes of a full warp are compared).
      int total = 0;
      for (int l = 0; l < lanes; ++l) total += h_in[first + l];
      if (lanes == 32) {
        if (h_down[first] != total) ++bad, printf("down block %d warp %d: %d != %d\n", b, w, h_down[first], total);
        for (int l = 0; l < 32; ++l)
          if (h_xor[first + l] != total) ++bad, printf("xor %d: %d != %d\n", first + l, h_xor[first + l], total);
      }
      for (int l = 0; l < lanes; ++l) {
        const int i = first + l;
        int scan = 0;
        for (int k = l - l % 16; k <= l; ++k) scan += h_in[first + k];
        if ((l - l % 16) + 16 <= lanes && h_scan[i] != scan) ++bad, printf("scan16 %d: %d != %d\n", i, h_scan[i], scan);
        const int src = l - l % 8 + 3;
        if (src < lanes && h_b8[i] != h_in[first + src]) ++bad, printf("bcast8 %d: %d != %d\n", i, h_b8[i], h_in[first + src]);
        // shfl.down by 5 within 8-lane segments: a source past the segment's end gives the own value.
        const int down = l % 8 + 5 < 8 ? h_in[i + 5] : h_in[i];
        if ((l % 8 + 5 >= 8 || l + 5 < lanes) && h_oob[i] != down) ++bad, printf("oob %d: %d != %d\n", i, h_oob[i], down);
      }
    }
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
