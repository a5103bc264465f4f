// Conway's game of life on two cudaArrays used as surfaces. Each generation
// reads neighbours with surf2Dread (zero boundary mode: outside cells are dead)
// and writes the next state with surf2Dwrite; the arrays ping-pong.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void life_step(cudaSurfaceObject_t cur, cudaSurfaceObject_t next, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int alive = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      unsigned char c;
      // x offsets are in bytes for surfaces.
      surf2Dread(&c, cur, (x + dx) * int(sizeof(unsigned char)), y + dy, cudaBoundaryModeZero);
      alive += c;
    }
  unsigned char self = surf2Dread<unsigned char>(cur, x * sizeof(unsigned char), y);
  unsigned char out = (alive == 3 || (alive == 2 && self)) ? 1 : 0;
  surf2Dwrite(out, next, x * sizeof(unsigned char), y);
}

int main() {
  const int w = 512, h = 384, gens = 64;
  std::vector<unsigned char> grid(size_t(w) * h);
  heldout::Lcg rng(31337);
  for (auto& c : grid) c = (rng.next() % 100) < 30 ? 1 : 0;

  cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
  cudaArray_t arr[2];
  cudaSurfaceObject_t surf[2];
  for (int k = 0; k < 2; ++k) {
    CUDA_CHECK(cudaMallocArray(&arr[k], &desc, w, h, cudaArraySurfaceLoadStore));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr[k];
    CUDA_CHECK(cudaCreateSurfaceObject(&surf[k], &res));
  }
  CUDA_CHECK(cudaMemcpy2DToArray(arr[0], 0, 0, grid.data(), w, w, h, cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  dim3 block(32, 8), blocks((w + 31) / 32, (h + 7) / 8);
  for (int g = 0; g < gens; ++g) {
    life_step<<<blocks, block>>>(surf[g % 2], surf[(g + 1) % 2], w, h);
    CUDA_CHECK_LAUNCH();
  }
  timer.stop();
  std::vector<unsigned char> result(grid.size());
  CUDA_CHECK(cudaMemcpy2DFromArray(result.data(), w, arr[gens % 2], 0, 0, w, h,
                                   cudaMemcpyDeviceToHost));

  std::vector<unsigned char> a = grid, b(grid.size());
  for (int g = 0; g < gens; ++g) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int alive = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int xx = x + dx, yy = y + dy;
            if ((dx || dy) && xx >= 0 && yy >= 0 && xx < w && yy < h) alive += a[size_t(yy) * w + xx];
          }
        unsigned char self = a[size_t(y) * w + x];
        b[size_t(y) * w + x] = (alive == 3 || (alive == 2 && self)) ? 1 : 0;
      }
    a.swap(b);
  }
  long wrong = 0, population = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    wrong += a[i] != result[i];
    population += a[i];
  }
  const double frac = double(wrong) / a.size();
  const bool pass = wrong == 0 && population > 0;

  for (int k = 0; k < 2; ++k) {
    CUDA_CHECK(cudaDestroySurfaceObject(surf[k]));
    CUDA_CHECK(cudaFreeArray(arr[k]));
  }
  return heldout::report("surf2d_life", pass, frac, timer.ms());
}
