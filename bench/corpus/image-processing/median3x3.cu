// median3x3: exact 3x3 median filter (salt-and-pepper denoising) of a 2048x2048 8-bit image,
// replicate borders. Each 32x8 block stages its pixels plus a one-pixel apron in shared memory;
// each thread selects the median of its 9 neighbours with a 19-exchange min/max network.
#include "../include/corpus.cuh"

#include <algorithm>

constexpr int W = 2048, H = 2048;
constexpr int BX = 32, BY = 8;
constexpr int REPS = 300;

__device__ __forceinline__ void sort2(int& a, int& b) {
  const int lo = min(a, b), hi = max(a, b);
  a = lo;
  b = hi;
}

// Median of 9 (Paeth / Devillard network): after these exchanges p[4] is the median.
__device__ __forceinline__ int median9(int p[9]) {
  sort2(p[1], p[2]); sort2(p[4], p[5]); sort2(p[7], p[8]);
  sort2(p[0], p[1]); sort2(p[3], p[4]); sort2(p[6], p[7]);
  sort2(p[1], p[2]); sort2(p[4], p[5]); sort2(p[7], p[8]);
  sort2(p[0], p[3]); sort2(p[5], p[8]); sort2(p[4], p[7]);
  sort2(p[3], p[6]); sort2(p[1], p[4]); sort2(p[2], p[5]);
  sort2(p[4], p[7]); sort2(p[4], p[2]); sort2(p[6], p[4]);
  sort2(p[4], p[2]);
  return p[4];
}

__global__ void median3x3(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int w, int h) {
  __shared__ unsigned char tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int bx0 = blockIdx.x * BX, by0 = blockIdx.y * BY;
  for (int t = ty * BX + tx; t < (BY + 2) * (BX + 2); t += BX * BY) {
    const int ly = t / (BX + 2), lx = t % (BX + 2);
    const int gx = min(max(bx0 + lx - 1, 0), w - 1);
    const int gy = min(max(by0 + ly - 1, 0), h - 1);
    tile[ly][lx] = in[static_cast<size_t>(gy) * w + gx];
  }
  __syncthreads();

  const int x = bx0 + tx, y = by0 + ty;
  if (x >= w || y >= h) return;
  int p[9];
#pragma unroll
  for (int dy = 0; dy < 3; ++dy)
#pragma unroll
    for (int dx = 0; dx < 3; ++dx) p[dy * 3 + dx] = tile[ty + dy][tx + dx];
  out[static_cast<size_t>(y) * w + x] = static_cast<unsigned char>(median9(p));
}

int main() {
  const int width = corpus::sized(W, 256), height = corpus::sized(H, 256);  // emulated: 256x256
  const int reps = corpus::reps(REPS);
  const size_t pixels = static_cast<size_t>(width) * height;

  // Smooth pattern corrupted by 10% salt-and-pepper noise.
  std::vector<unsigned char> h_in(pixels);
  corpus::Rng rng(0x3ED1A9ull);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int v = 64 + ((x * 3 + y * 5) >> 4) % 128 + static_cast<int>(rng.below(8));
      const std::uint32_t r = rng.below(100);
      if (r < 5) v = 0;
      else if (r < 10) v = 255;
      h_in[static_cast<size_t>(y) * width + x] = static_cast<unsigned char>(v);
    }

  unsigned char *d_in = nullptr, *d_out = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, pixels));
  CORPUS_CHECK(cudaMalloc(&d_out, pixels));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), pixels, cudaMemcpyHostToDevice));

  const dim3 block(BX, BY), grid((width + BX - 1) / BX, (height + BY - 1) / BY);
  median3x3<<<grid, block>>>(d_in, d_out, width, height);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    median3x3<<<grid, block>>>(d_in, d_out, width, height);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<unsigned char> h_out(pixels);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, pixels, cudaMemcpyDeviceToHost));

  // CPU reference: nth_element on the 9 replicate-clamped neighbours.
  std::vector<unsigned char> want(pixels);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      unsigned char v[9];
      int n = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int yy = std::min(std::max(y + dy, 0), height - 1);
          const int xx = std::min(std::max(x + dx, 0), width - 1);
          v[n++] = h_in[static_cast<size_t>(yy) * width + xx];
        }
      std::nth_element(v, v + 4, v + 9);
      want[static_cast<size_t>(y) * width + x] = v[4];
    }

  // A median is a selection, not arithmetic: the result must match exactly.
  size_t mismatches = 0;
  for (size_t i = 0; i < pixels; ++i) mismatches += (h_out[i] != want[i]);
  const double err = corpus::max_rel_err(h_out, want, 1.0);
  const bool pass = mismatches == 0;

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_out));
  return corpus::report("median3x3", pass, err, gpu_ms);
}
