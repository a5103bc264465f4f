// Texture objects over plain device memory: a linear float buffer read with
// tex1Dfetch, an 8-bit linear buffer read as normalized floats, and a pitched
// 2D buffer sampled with point filtering and clamped unnormalized coordinates.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

// out[i] = table[idx[i]] * weight[i] where weight comes in as unorm8.
__global__ void gather_weighted(cudaTextureObject_t table, cudaTextureObject_t weights,
                                const int* __restrict__ idx, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(table, idx[i]) * tex1Dfetch<float>(weights, i);
}

// Shift an image by (dx, dy); reads outside the image are clamped to the edge.
__global__ void shift_image(cudaTextureObject_t img, float* __restrict__ out, int w, int h, int dx,
                            int dy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(img, x - dx + 0.5f, y - dy + 0.5f);
}

int main() {
  const int n = 1 << 18, table_size = 4096;
  std::vector<float> table(table_size);
  std::vector<int> idx(n);
  std::vector<unsigned char> wts(n);
  heldout::Lcg rng(8);
  for (auto& t : table) t = rng.uniform(-10.0f, 10.0f);
  for (auto& i : idx) i = int(rng.next() % table_size);
  for (auto& w8 : wts) w8 = static_cast<unsigned char>(rng.next() >> 24);

  float *d_table, *d_out;
  int* d_idx;
  unsigned char* d_w;
  CUDA_CHECK(cudaMalloc(&d_table, table_size * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_idx, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_w, n));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_table, table.data(), table_size * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_idx, idx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_w, wts.data(), n, cudaMemcpyHostToDevice));

  cudaResourceDesc r1 = {};
  r1.resType = cudaResourceTypeLinear;
  r1.res.linear.devPtr = d_table;
  r1.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  r1.res.linear.sizeInBytes = table_size * sizeof(float);
  cudaTextureDesc t1 = {};
  t1.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex_table = 0;
  CUDA_CHECK(cudaCreateTextureObject(&tex_table, &r1, &t1, nullptr));

  cudaResourceDesc r2 = {};
  r2.resType = cudaResourceTypeLinear;
  r2.res.linear.devPtr = d_w;
  r2.res.linear.desc = cudaCreateChannelDesc<unsigned char>();
  r2.res.linear.sizeInBytes = n;
  cudaTextureDesc t2 = {};
  t2.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t tex_w = 0;
  CUDA_CHECK(cudaCreateTextureObject(&tex_w, &r2, &t2, nullptr));

  const int w = 500, h = 300, dx = 7, dy = -5;
  std::vector<float> img(size_t(w) * h);
  for (size_t i = 0; i < img.size(); ++i) img[i] = float((i * 2654435761u) % 1000) * 0.001f;
  float* d_img;
  size_t pitch = 0;
  CUDA_CHECK(cudaMallocPitch(&d_img, &pitch, w * sizeof(float), h));
  CUDA_CHECK(cudaMemcpy2D(d_img, pitch, img.data(), w * sizeof(float), w * sizeof(float), h,
                          cudaMemcpyHostToDevice));
  cudaResourceDesc r3 = {};
  r3.resType = cudaResourceTypePitch2D;
  r3.res.pitch2D.devPtr = d_img;
  r3.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  r3.res.pitch2D.width = w;
  r3.res.pitch2D.height = h;
  r3.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc t3 = {};
  t3.addressMode[0] = t3.addressMode[1] = cudaAddressModeClamp;
  t3.filterMode = cudaFilterModePoint;
  t3.readMode = cudaReadModeElementType;
  t3.normalizedCoords = 0;
  cudaTextureObject_t tex_img = 0;
  CUDA_CHECK(cudaCreateTextureObject(&tex_img, &r3, &t3, nullptr));
  float* d_shift;
  CUDA_CHECK(cudaMalloc(&d_shift, img.size() * sizeof(float)));

  heldout::GpuTimer timer;
  timer.start();
  gather_weighted<<<(n + 255) / 256, 256>>>(tex_table, tex_w, d_idx, d_out, n);
  CUDA_CHECK_LAUNCH();
  shift_image<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(tex_img, d_shift, w, h, dx, dy);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  std::vector<float> out(n), shifted(img.size());
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(shifted.data(), d_shift, shifted.size() * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) err.add(out[i], double(table[idx[i]]) * (wts[i] / 255.0), 1e-5, 1.0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int sx = x - dx, sy = y - dy;
      sx = sx < 0 ? 0 : (sx >= w ? w - 1 : sx);
      sy = sy < 0 ? 0 : (sy >= h ? h - 1 : sy);
      err.add(shifted[size_t(y) * w + x], img[size_t(sy) * w + sx], 0.0, 1.0);
    }

  CUDA_CHECK(cudaDestroyTextureObject(tex_table));
  CUDA_CHECK(cudaDestroyTextureObject(tex_w));
  CUDA_CHECK(cudaDestroyTextureObject(tex_img));
  CUDA_CHECK(cudaFree(d_table));
  CUDA_CHECK(cudaFree(d_idx));
  CUDA_CHECK(cudaFree(d_w));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_img));
  CUDA_CHECK(cudaFree(d_shift));
  return heldout::report("tex_linear", err.ok(), err.max_rel, timer.ms());
}
