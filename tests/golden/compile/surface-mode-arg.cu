// CUDA's surface reads and writes take the boundary mode as a last argument. HIP 5.2's took it
// too; from HIP 5.7 only surf1Dread does. The translation keeps the calls as written and adds
// overloads with the extra argument for HIPs whose functions lack it (HIP_VERSION >= 5.7), so
// the same output compiles against HIP 6.4 (the default) and against HIP 5.2.
// RUN: rm -rf %t && %gpuport translate --check --check-targets amd -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/surface-mode-arg.cu | FileCheck %s
// RUN: rm -rf %t.52 && %gpuport translate --hip-version 5.2 --check --check-targets amd -o %t.52 %s 2>&1 | FileCheck --check-prefix=REPORT %s
// CHECK: #if defined(__HIP_PLATFORM_AMD__) && HIP_VERSION >= 50700000 && !defined(GPUPORT_SURF_MODE_ARG)
// CHECK: template <typename T> __device__ static inline void surf2Dread(T* d, hipSurfaceObject_t s, int x, int y, int) { surf2Dread(d, s, x, y); }
__global__ void life(cudaSurfaceObject_t cur, cudaSurfaceObject_t next, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  unsigned char c = 0, n = 0;
  surf2Dread(&c, cur, x, y, cudaBoundaryModeZero);
  // CHECK: surf2Dread(&c, cur, x, y, hipBoundaryModeZero);
  surf1Dread(&n, cur, x, cudaBoundaryModeClamp);
  // CHECK: surf1Dread(&n, cur, x, hipBoundaryModeClamp);
  surf2Dwrite<unsigned char>(c + n, next, x, y, cudaBoundaryModeTrap);
  // CHECK: surf2Dwrite<unsigned char>(c + n, next, x, y, hipBoundaryModeTrap);
}
// REPORT: check gfx1100: compiles
