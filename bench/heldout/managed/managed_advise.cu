// Unified memory with usage hints: a read-mostly lookup table, an output
// buffer preferred on the device, a __managed__ global counter, and queries
// of the range and pointer attributes that the hints set.
#include <cuda_runtime.h>

#include <cstdio>

#include "../include/heldout.cuh"

__managed__ unsigned int g_clipped = 0;

__global__ void apply_lut(const unsigned char* __restrict__ img, const float* __restrict__ lut,
                          float* __restrict__ out, int n, float clip) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = lut[img[i]];
    if (v > clip) {
      v = clip;
      atomicAdd(&g_clipped, 1u);
    }
    out[i] = v;
  }
}

int main() {
  const int n = 1 << 20;
  const float clip = 200.0f;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  int concurrent = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, dev));

  unsigned char* img;
  float *lut, *out;
  CUDA_CHECK(cudaMallocManaged(&img, n));
  CUDA_CHECK(cudaMallocManaged(&lut, 256 * sizeof(float)));
  CUDA_CHECK(cudaMallocManaged(&out, n * sizeof(float)));
  heldout::Lcg rng(99);
  for (int i = 0; i < n; ++i) img[i] = static_cast<unsigned char>(rng.next() >> 24);
  for (int j = 0; j < 256; ++j) lut[j] = 0.004f * j * j;  // gamma-like curve, 0..260

  CUDA_CHECK(cudaMemAdvise(lut, 256 * sizeof(float), cudaMemAdviseSetReadMostly, dev));
  CUDA_CHECK(cudaMemAdvise(img, n, cudaMemAdviseSetReadMostly, dev));
  CUDA_CHECK(cudaMemAdvise(out, n * sizeof(float), cudaMemAdviseSetPreferredLocation, dev));
  CUDA_CHECK(cudaMemAdvise(out, n * sizeof(float), cudaMemAdviseSetAccessedBy, cudaCpuDeviceId));

  int read_mostly = 0;
  CUDA_CHECK(cudaMemRangeGetAttribute(&read_mostly, sizeof(read_mostly),
                                      cudaMemRangeAttributeReadMostly, lut, 256 * sizeof(float)));
  int preferred = -2;
  CUDA_CHECK(cudaMemRangeGetAttribute(&preferred, sizeof(preferred),
                                      cudaMemRangeAttributePreferredLocation, out,
                                      n * sizeof(float)));
  cudaPointerAttributes attr;
  CUDA_CHECK(cudaPointerGetAttributes(&attr, out));
  const bool attrs_ok = read_mostly == 1 && preferred == dev && attr.type == cudaMemoryTypeManaged;

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  heldout::GpuTimer timer(s);
  timer.start();
  if (concurrent) {
    CUDA_CHECK(cudaMemPrefetchAsync(img, n, dev, s));
    CUDA_CHECK(cudaMemPrefetchAsync(lut, 256 * sizeof(float), dev, s));
  }
  apply_lut<<<(n + 255) / 256, 256, 0, s>>>(img, lut, out, n, clip);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  CUDA_CHECK(cudaDeviceSynchronize());

  heldout::ErrTracker err;
  unsigned int clipped = 0;
  for (int i = 0; i < n; ++i) {
    float want = lut[img[i]];
    if (want > clip) {
      want = clip;
      ++clipped;
    }
    err.add(out[i], want, 1e-6, 1.0);
  }
  const bool count_ok = clipped == g_clipped;
  if (!attrs_ok || !count_ok)
    std::fprintf(stderr, "read_mostly=%d preferred=%d type=%d clipped=%u/%u\n", read_mostly,
                 preferred, int(attr.type), g_clipped, clipped);

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(img));
  CUDA_CHECK(cudaFree(lut));
  CUDA_CHECK(cudaFree(out));
  return heldout::report("managed_advise", err.ok() && attrs_ok && count_ok, err.max_rel,
                         timer.ms());
}
