// 3D volumes in pitched device memory: cudaMalloc3D, cudaMemcpy3D from a host
// volume, cudaMemset3D, a 7-point Laplacian kernel, and cudaMemcpy3DAsync of
// an interior sub-box back to the host using srcPos/extent.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void laplacian7(cudaPitchedPtr in, cudaPitchedPtr out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  const size_t slice = in.pitch * ny;
  const char* base = static_cast<const char*>(in.ptr);
  auto v = [&](int xx, int yy, int zz) {
    return reinterpret_cast<const float*>(base + zz * slice + yy * in.pitch)[xx];
  };
  float lap = v(x - 1, y, z) + v(x + 1, y, z) + v(x, y - 1, z) + v(x, y + 1, z) + v(x, y, z - 1) +
              v(x, y, z + 1) - 6.0f * v(x, y, z);
  char* obase = static_cast<char*>(out.ptr);
  reinterpret_cast<float*>(obase + z * out.pitch * ny + y * out.pitch)[x] = lap;
}

int main() {
  const int nx = 96, ny = 80, nz = 64;
  std::vector<float> vol(size_t(nx) * ny * nz);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        vol[(size_t(z) * ny + y) * nx + x] = 0.01f * x * x + 0.02f * y * z - 0.5f * ((x + y + z) % 3);

  const cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
  cudaPitchedPtr d_in, d_out;
  CUDA_CHECK(cudaMalloc3D(&d_in, extent));
  CUDA_CHECK(cudaMalloc3D(&d_out, extent));

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  heldout::GpuTimer timer(s);
  timer.start();
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(vol.data(), nx * sizeof(float), nx, ny);
  up.dstPtr = d_in;
  up.extent = extent;
  up.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3DAsync(&up, s));
  CUDA_CHECK(cudaMemset3DAsync(d_out, 0, extent, s));
  laplacian7<<<dim3((nx + 31) / 32, (ny + 3) / 4, nz), dim3(32, 4), 0, s>>>(d_in, d_out, nx, ny, nz);
  CUDA_CHECK_LAUNCH();

  // Interior box [8,8+bx) x [4,4+by) x [2,2+bz) into a tight host array.
  const int ox = 8, oy = 4, oz = 2, bx = 64, by = 48, bz = 40;
  std::vector<float> box(size_t(bx) * by * bz);
  cudaMemcpy3DParms down = {};
  down.srcPtr = d_out;
  down.srcPos = make_cudaPos(ox * sizeof(float), oy, oz);
  down.dstPtr = make_cudaPitchedPtr(box.data(), bx * sizeof(float), bx, by);
  down.dstPos = make_cudaPos(0, 0, 0);
  down.extent = make_cudaExtent(bx * sizeof(float), by, bz);
  down.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3DAsync(&down, s));
  timer.stop();
  CUDA_CHECK(cudaStreamSynchronize(s));

  // Whole output volume, synchronously, for the border check.
  std::vector<float> full(vol.size());
  cudaMemcpy3DParms all = {};
  all.srcPtr = d_out;
  all.dstPtr = make_cudaPitchedPtr(full.data(), nx * sizeof(float), nx, ny);
  all.extent = extent;
  all.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&all));

  auto V = [&](int x, int y, int z) { return double(vol[(size_t(z) * ny + y) * nx + x]); };
  auto ref_at = [&](int x, int y, int z) {
    if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return 0.0;
    return V(x - 1, y, z) + V(x + 1, y, z) + V(x, y - 1, z) + V(x, y + 1, z) + V(x, y, z - 1) +
           V(x, y, z + 1) - 6.0 * V(x, y, z);
  };
  heldout::ErrTracker err;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) err.add(full[(size_t(z) * ny + y) * nx + x], ref_at(x, y, z), 2e-3, 1.0);
  for (int z = 0; z < bz; ++z)
    for (int y = 0; y < by; ++y)
      for (int x = 0; x < bx; ++x)
        err.add(box[(size_t(z) * by + y) * bx + x], ref_at(x + ox, y + oy, z + oz), 2e-3, 1.0);

  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(d_in.ptr));
  CUDA_CHECK(cudaFree(d_out.ptr));
  return heldout::report("memcpy_3d", err.ok(), err.max_rel, timer.ms());
}
