// Device and runtime queries: cudaGetDeviceCount, cudaGetDeviceProperties
// cross-checked against cudaDeviceGetAttribute, driver/runtime versions,
// memory info and limits. A kernel reports built-in values (warpSize, grid
// shape) and prints one line from the device; the grid is sized per SM.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

struct DeviceView {
  int warp_size;
  int block_dim;
  int grid_dim;
};

__global__ void probe(DeviceView* view, unsigned* per_block, float* y, const float* x, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    view->warp_size = warpSize;
    view->block_dim = blockDim.x;
    view->grid_dim = gridDim.x;
    printf("probe: %d blocks of %d threads, warpSize %d\n", gridDim.x, blockDim.x, warpSize);
  }
  unsigned count = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = 2.0f * x[i] + 1.0f;
    ++count;
  }
  atomicAdd(&per_block[blockIdx.x], count);
}

int main() {
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 1) return heldout::report("device_attrs", false, 0.0, 0.0);
  const int dev = 0;
  CUDA_CHECK(cudaSetDevice(dev));
  cudaDeviceProp p;
  CUDA_CHECK(cudaGetDeviceProperties(&p, dev));

  int sms, warp, max_tpb, major, minor, l2, smem_block, clock_khz, bus_width;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&max_tpb, cudaDevAttrMaxThreadsPerBlock, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&smem_block, cudaDevAttrMaxSharedMemoryPerBlock, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, dev));
  int driver = 0, runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20));
  size_t fifo = 0, stack = 0;
  CUDA_CHECK(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  CUDA_CHECK(cudaDeviceGetLimit(&stack, cudaLimitStackSize));

  std::printf("%s: cc %d.%d, %d SMs, %d-bit bus, L2 %d KiB, %.1f/%.1f GiB free\n", p.name, major, minor, sms,
              bus_width, l2 / 1024, free_b / 1073741824.0, total_b / 1073741824.0);
  long mismatches = 0;
  mismatches += p.multiProcessorCount != sms;
  mismatches += p.warpSize != warp;
  mismatches += p.maxThreadsPerBlock != max_tpb;
  mismatches += p.major != major || p.minor != minor;
  mismatches += p.l2CacheSize != l2;
  mismatches += p.sharedMemPerBlock != size_t(smem_block);
  mismatches += driver < runtime;  // a driver older than the runtime could not run this
  mismatches += free_b == 0 || free_b > total_b;
  mismatches += fifo < (1 << 20) || stack == 0;
  (void)clock_khz;

  const int n = 1 << 20, threads = 256, blocks = 4 * sms;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = 0.001f * (i % 2000) - 1.0f;
  float *d_x, *d_y;
  unsigned* d_per_block;
  DeviceView* d_view;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_per_block, blocks * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&d_view, sizeof(DeviceView)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_per_block, 0, blocks * sizeof(unsigned)));

  heldout::GpuTimer timer;
  timer.start();
  probe<<<blocks, threads>>>(d_view, d_per_block, d_y, d_x, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  CUDA_CHECK(cudaDeviceSynchronize());  // flushes the device printf

  DeviceView view;
  std::vector<unsigned> per_block(blocks);
  std::vector<float> y(n);
  CUDA_CHECK(cudaMemcpy(&view, d_view, sizeof(view), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(per_block.data(), d_per_block, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(y.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));
  mismatches += view.warp_size != p.warpSize || view.block_dim != threads || view.grid_dim != blocks;
  unsigned long long total = 0;
  for (unsigned c : per_block) total += c;
  mismatches += total != static_cast<unsigned long long>(n);

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) err.add(y[i], 2.0 * x[i] + 1.0, 1e-6, 1.0);
  if (mismatches) std::fprintf(stderr, "%ld property mismatches\n", mismatches);

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_per_block));
  CUDA_CHECK(cudaFree(d_view));
  return heldout::report("device_attrs", err.ok() && mismatches == 0, err.max_rel, timer.ms());
}
