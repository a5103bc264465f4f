// CUDA's value-returning surface reads, `T v = surf2Dread<T>(surf, x, y)`: HIP has only the
// forms that store through a pointer (surf2Dread(&v, surf, x, y)), so the value form, told by
// its template argument, becomes gpuport's shim (GPUPORT_SURF_READ), which calls HIP's pointer
// form on AMD and CUDA's own on NVIDIA; the pointer form is left as it is. Compiles for gfx1100
// and for sm_90.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/surface-read-value.cu | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if !defined(GPUPORT_SURF_READ)
// CHECK: #define GPUPORT_SURF_MODE(mode) , mode...
// CHECK: surf1Dread(&v, s, x, mode...);
// CHECK: surf2DLayeredread(&v, s, x, y, layer GPUPORT_SURF_MODE(mode));
// CHECK: #else
// CHECK: return surf3Dread<T>(s, x, y, z, mode...);

__global__ void reads(cudaSurfaceObject_t a, cudaSurfaceObject_t b, cudaSurfaceObject_t c, float* out) {
  const int x = threadIdx.x;
  float one = surf1Dread<float>(a, x * 4);
  // CHECK: float one = gpuport_surf1Dread<float>(a, x * 4);
  uchar4 two = surf2Dread<uchar4>(b, x * 4, 1, cudaBoundaryModeZero);
  // CHECK: uchar4 two = gpuport_surf2Dread<uchar4>(b, x * 4, 1, hipBoundaryModeZero);
  float three = surf3Dread<float>(c, x * 4, 0, 0);
  float layered = surf1DLayeredread<float>(a, x * 4, 2) + surf2DLayeredread<float>(b, x * 4, 0, 1);
  // CHECK: float layered = gpuport_surf1DLayeredread<float>(a, x * 4, 2) + gpuport_surf2DLayeredread<float>(b, x * 4, 0, 1);
  float stored = 0.0f;
  surf2Dread(&stored, b, x * 4, 0);
  // CHECK: surf2Dread(&stored, b, x * 4, 0);
  out[x] = one + two.x + three + layered + stored;
}

int main() {
  reads<<<1, 32>>>(0, 0, 0, nullptr);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
// REPORT: 0 errors
