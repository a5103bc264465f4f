// bilinear_resize: downscale a batch of 8 interleaved RGB 8-bit frames from 1920x1080 to
// 1280x720 with bilinear interpolation on half-pixel centres (OpenCV INTER_LINEAR convention),
// in 11-bit fixed point like production resizers, so the result is bit-exact. One thread per
// output pixel (3 channels); blockIdx.z selects the frame.
#include "../include/corpus.cuh"

#include <algorithm>
#include <cmath>

constexpr int IN_W = 1920, IN_H = 1080;
constexpr int OUT_W = 1280, OUT_H = 720;
constexpr int FRAMES = 8;
constexpr int CH = 3;
constexpr int FRAC_BITS = 11;            // weights in 1/2048 units
constexpr int ONE = 1 << FRAC_BITS;
constexpr int REPS = 50;

// Source coordinate of output index o, in 1/2048 pixel units: floor(((o + 0.5) * in / out - 0.5) * 2048),
// clamped at 0, computed in integers.
__device__ __forceinline__ int src_fixed(int o, int in, int out) {
  const int s = static_cast<int>((static_cast<long long>(2 * o + 1) * in * (ONE / 2)) / out) - ONE / 2;
  return max(s, 0);
}

__global__ void resize_bilinear(const unsigned char* __restrict__ src, unsigned char* __restrict__ dst,
                                int in_w, int in_h, int out_w, int out_h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int f = blockIdx.z;
  if (x >= out_w || y >= out_h) return;

  const int sx = src_fixed(x, in_w, out_w), sy = src_fixed(y, in_h, out_h);
  const int x0 = min(sx >> FRAC_BITS, in_w - 1), y0 = min(sy >> FRAC_BITS, in_h - 1);
  const int x1 = min(x0 + 1, in_w - 1), y1 = min(y0 + 1, in_h - 1);
  const int fx = sx & (ONE - 1), fy = sy & (ONE - 1);

  const unsigned char* frame = src + static_cast<size_t>(f) * in_w * in_h * CH;
  const unsigned char* r0 = frame + static_cast<size_t>(y0) * in_w * CH;
  const unsigned char* r1 = frame + static_cast<size_t>(y1) * in_w * CH;
  unsigned char* out = dst + (static_cast<size_t>(f) * out_w * out_h + static_cast<size_t>(y) * out_w + x) * CH;
#pragma unroll
  for (int c = 0; c < CH; ++c) {
    const int top = r0[x0 * CH + c] * (ONE - fx) + r0[x1 * CH + c] * fx;  // <= 255 * 2048
    const int bot = r1[x0 * CH + c] * (ONE - fx) + r1[x1 * CH + c] * fx;
    const int v = (top * (ONE - fy) + bot * fy + (1 << (2 * FRAC_BITS - 1))) >> (2 * FRAC_BITS);
    out[c] = static_cast<unsigned char>(v);
  }
}

int main() {
  // Emulated: 384x216 -> 256x144 (same 1.5 ratio), 4 frames, 288 blocks.
  const int in_w = corpus::sized(IN_W, 384), in_h = corpus::sized(IN_H, 216);
  const int out_w = corpus::sized(OUT_W, 256), out_h = corpus::sized(OUT_H, 144);
  const int frames = corpus::sized(FRAMES, 4);
  const int reps = corpus::reps(REPS);
  const size_t in_bytes = static_cast<size_t>(frames) * in_w * in_h * CH;
  const size_t out_bytes = static_cast<size_t>(frames) * out_w * out_h * CH;

  // Per-frame colour gradients with noise.
  std::vector<unsigned char> h_in(in_bytes);
  corpus::Rng rng(0xB111EA5Eull);
  size_t k = 0;
  for (int f = 0; f < frames; ++f)
    for (int y = 0; y < in_h; ++y)
      for (int x = 0; x < in_w; ++x)
        for (int c = 0; c < CH; ++c) {
          const int base = (c == 0 ? x * 200 / in_w : c == 1 ? y * 200 / in_h : (x + y + 40 * f) % 200);
          h_in[k++] = static_cast<unsigned char>(base + rng.below(56));
        }

  unsigned char *d_in = nullptr, *d_out = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, in_bytes));
  CORPUS_CHECK(cudaMalloc(&d_out, out_bytes));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), in_bytes, cudaMemcpyHostToDevice));

  const dim3 block(32, 8);
  const dim3 grid((out_w + block.x - 1) / block.x, (out_h + block.y - 1) / block.y, frames);
  resize_bilinear<<<grid, block>>>(d_in, d_out, in_w, in_h, out_w, out_h);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    resize_bilinear<<<grid, block>>>(d_in, d_out, in_w, in_h, out_w, out_h);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<unsigned char> h_out(out_bytes);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, out_bytes, cudaMemcpyDeviceToHost));

  // CPU reference: source coordinates from the half-pixel formula in double, then the same
  // 11-bit weights and round-half-up (the integer sum is exact in double).
  std::vector<unsigned char> want(out_bytes);
  auto map = [](int o, int in, int out, int& i0, int& i1, int& frac) {
    const double s = (o + 0.5) * in / out - 0.5;
    const long fixed = std::max(0L, static_cast<long>(std::floor(s * ONE)));
    i0 = std::min(static_cast<int>(fixed / ONE), in - 1);
    i1 = std::min(i0 + 1, in - 1);
    frac = static_cast<int>(fixed % ONE);
  };
  for (int f = 0; f < frames; ++f)
    for (int y = 0; y < out_h; ++y) {
      int y0, y1, fy;
      map(y, in_h, out_h, y0, y1, fy);
      for (int x = 0; x < out_w; ++x) {
        int x0, x1, fx;
        map(x, in_w, out_w, x0, x1, fx);
        for (int c = 0; c < CH; ++c) {
          auto p = [&](int yy, int xx) {
            return double(h_in[((static_cast<size_t>(f) * in_h + yy) * in_w + xx) * CH + c]);
          };
          const double sum = (p(y0, x0) * (ONE - fx) + p(y0, x1) * fx) * (ONE - fy) +
                             (p(y1, x0) * (ONE - fx) + p(y1, x1) * fx) * fy;
          want[((static_cast<size_t>(f) * out_h + y) * out_w + x) * CH + c] =
              static_cast<unsigned char>(std::floor(sum / double(ONE * ONE) + 0.5));
        }
      }
    }

  // Integer arithmetic on both sides: the result must match exactly.
  size_t mismatches = 0;
  for (size_t i = 0; i < out_bytes; ++i) mismatches += (h_out[i] != want[i]);
  const double err = corpus::max_rel_err(h_out, want, 1.0);
  const bool pass = mismatches == 0;

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_out));
  return corpus::report("bilinear_resize", pass, err, gpu_ms);
}
