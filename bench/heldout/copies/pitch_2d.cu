// Pitched 2D images: cudaMallocPitch, cudaMemcpy2D between tight host rows and
// padded device rows, a Sobel magnitude kernel that walks rows by pitch,
// cudaMemset2D for the output, and a device-to-device copy of a sub-window.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__device__ __forceinline__ const float* row_ptr(const float* base, size_t pitch, int y) {
  return reinterpret_cast<const float*>(reinterpret_cast<const char*>(base) + y * pitch);
}

__global__ void sobel(const float* __restrict__ src, size_t src_pitch, float* __restrict__ dst,
                      size_t dst_pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  const float* up = row_ptr(src, src_pitch, y - 1);
  const float* mid = row_ptr(src, src_pitch, y);
  const float* dn = row_ptr(src, src_pitch, y + 1);
  float gx = (up[x + 1] + 2.0f * mid[x + 1] + dn[x + 1]) - (up[x - 1] + 2.0f * mid[x - 1] + dn[x - 1]);
  float gy = (dn[x - 1] + 2.0f * dn[x] + dn[x + 1]) - (up[x - 1] + 2.0f * up[x] + up[x + 1]);
  float* out = reinterpret_cast<float*>(reinterpret_cast<char*>(dst) + y * dst_pitch);
  out[x] = sqrtf(gx * gx + gy * gy);
}

int main() {
  const int w = 1000, h = 600;  // width not a multiple of the pitch alignment
  std::vector<float> img(size_t(w) * h), out(size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      img[size_t(y) * w + x] = std::sin(0.05f * x) * std::cos(0.03f * y) + 0.001f * ((x * 7 + y * 13) % 17);

  float *d_src, *d_dst, *d_win;
  size_t src_pitch = 0, dst_pitch = 0, win_pitch = 0;
  CUDA_CHECK(cudaMallocPitch(&d_src, &src_pitch, w * sizeof(float), h));
  CUDA_CHECK(cudaMallocPitch(&d_dst, &dst_pitch, w * sizeof(float), h));
  const int ww = 128, wh = 64, wx = 300, wy = 200;  // sub-window of the result
  CUDA_CHECK(cudaMallocPitch(&d_win, &win_pitch, ww * sizeof(float), wh));
  const bool pitch_ok = src_pitch >= w * sizeof(float) && dst_pitch >= w * sizeof(float);

  heldout::GpuTimer timer;
  timer.start();
  CUDA_CHECK(cudaMemcpy2D(d_src, src_pitch, img.data(), w * sizeof(float), w * sizeof(float), h,
                          cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset2D(d_dst, dst_pitch, 0, w * sizeof(float), h));
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  sobel<<<grid, block>>>(d_src, src_pitch, d_dst, dst_pitch, w, h);
  CUDA_CHECK_LAUNCH();
  const char* win_src = reinterpret_cast<const char*>(d_dst) + wy * dst_pitch + wx * sizeof(float);
  CUDA_CHECK(cudaMemcpy2D(d_win, win_pitch, win_src, dst_pitch, ww * sizeof(float), wh,
                          cudaMemcpyDeviceToDevice));
  timer.stop();
  CUDA_CHECK(cudaMemcpy2D(out.data(), w * sizeof(float), d_dst, dst_pitch, w * sizeof(float), h,
                          cudaMemcpyDeviceToHost));
  std::vector<float> win(size_t(ww) * wh);
  CUDA_CHECK(cudaMemcpy2D(win.data(), ww * sizeof(float), d_win, win_pitch, ww * sizeof(float), wh,
                          cudaMemcpyDeviceToHost));

  auto at = [&](int x, int y) { return double(img[size_t(y) * w + x]); };
  std::vector<double> ref(size_t(w) * h, 0.0);
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x) {
      double gx = (at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1)) -
                  (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
      double gy = (at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1)) -
                  (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
      ref[size_t(y) * w + x] = std::sqrt(gx * gx + gy * gy);
    }
  heldout::ErrTracker err;
  // Values are differences of O(1) numbers: compare with an absolute floor.
  for (size_t i = 0; i < ref.size(); ++i) err.add(out[i], ref[i], 1e-4, 0.1);
  for (int y = 0; y < wh; ++y)
    for (int x = 0; x < ww; ++x)
      err.add(win[size_t(y) * ww + x], out[size_t(y + wy) * w + x + wx], 0.0, 1.0);

  CUDA_CHECK(cudaFree(d_src));
  CUDA_CHECK(cudaFree(d_dst));
  CUDA_CHECK(cudaFree(d_win));
  return heldout::report("pitch_2d", err.ok() && pitch_ok, err.max_rel, timer.ms());
}
