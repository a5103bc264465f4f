// Image resampling through a texture object over a cudaArray: normalized
// coordinates, clamp addressing and hardware bilinear filtering. The CPU
// reference does exact bilinear interpolation; the tolerance covers the
// texture unit's 8-bit interpolation weights.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void resample(cudaTextureObject_t tex, float* __restrict__ out, int ow, int oh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= ow || y >= oh) return;
  float u = (x + 0.5f) / ow;
  float v = (y + 0.5f) / oh;
  out[y * ow + x] = tex2D<float>(tex, u, v);
}

int main() {
  const int w = 320, h = 240;    // source
  const int ow = 800, oh = 560;  // destination (upsampled, non-integer ratio)
  std::vector<float> src(size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      src[size_t(y) * w + x] = 0.5f + 0.5f * std::sin(0.07f * x + 0.04f * y) * std::cos(0.05f * y);

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CUDA_CHECK(cudaMallocArray(&arr, &desc, w, h));
  CUDA_CHECK(cudaMemcpy2DToArray(arr, 0, 0, src.data(), w * sizeof(float), w * sizeof(float), h,
                                 cudaMemcpyHostToDevice));

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  cudaTextureDesc td = {};
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t tex = 0;
  CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));

  float* d_out;
  CUDA_CHECK(cudaMalloc(&d_out, size_t(ow) * oh * sizeof(float)));
  heldout::GpuTimer timer;
  timer.start();
  dim3 block(16, 16), grid((ow + 15) / 16, (oh + 15) / 16);
  resample<<<grid, block>>>(tex, d_out, ow, oh);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<float> out(size_t(ow) * oh);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));

  auto texel = [&](int x, int y) {
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return double(src[size_t(y) * w + x]);
  };
  heldout::ErrTracker err;
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x) {
      double fx = (x + 0.5) / ow * w - 0.5, fy = (y + 0.5) / oh * h - 0.5;
      int x0 = int(std::floor(fx)), y0 = int(std::floor(fy));
      double a = fx - x0, b = fy - y0;
      double ref = (1 - a) * (1 - b) * texel(x0, y0) + a * (1 - b) * texel(x0 + 1, y0) +
                   (1 - a) * b * texel(x0, y0 + 1) + a * b * texel(x0 + 1, y0 + 1);
      err.add(out[size_t(y) * ow + x], ref, 5e-3, 1.0);
    }

  CUDA_CHECK(cudaDestroyTextureObject(tex));
  CUDA_CHECK(cudaFreeArray(arr));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("tex_array_bilinear", err.ok(), err.max_rel, timer.ms());
}
