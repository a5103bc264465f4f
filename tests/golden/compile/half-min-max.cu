// CUDA's half max/min: HIP 5.2 has none, HIP 6 only __hmax/__hmin on __half (ggml's warp
// reductions call __hmax2). They become gpuport's shims, computed through float, where a half is
// exact: a NaN operand yields the other one, NaN for the _nan forms, as CUDA defines them; on
// NVIDIA CUDA's own. Checked on the emulator.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU %t/half-min-max.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o minmax
// RUN: %gpuport run %t.run/minmax | FileCheck --check-prefix=EMU %s
// EMU: half min/max: 2.5 -1 2.5 nan | 2.5 3 -1 -4: PASS
#include <cmath>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
// CHECK: #if !defined(GPUPORT_HALF_MINMAX)

__global__ void minmax(float* out) {
  const __half a = __float2half(2.5f), b = __float2half(-1.0f), nan = __float2half(nanf(""));
  out[0] = __half2float(__hmax(a, b));
  // CHECK: out[0] = __half2float(gpuport_hmax(a, b));
  out[1] = __half2float(__hmin(a, b));
  out[2] = __half2float(__hmax(nan, a));     // the other operand
  out[3] = __half2float(__hmax_nan(nan, a));  // NaN
  const __half2 x = __halves2half2(a, __float2half(-4.0f)), y = __halves2half2(b, __float2half(3.0f));
  const __half2 hi = __hmax2(x, y), lo = __hmin2(x, y);
  // CHECK: const __half2 hi = gpuport_hmax2(x, y), lo = gpuport_hmin2(x, y);
  out[4] = __low2float(hi);
  out[5] = __high2float(hi);
  out[6] = __low2float(lo);
  out[7] = __high2float(lo);
}

int main() {
  float* out;
  cudaMallocManaged(&out, 8 * sizeof(float));
  minmax<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  const bool ok = out[0] == 2.5f && out[1] == -1.0f && out[2] == 2.5f && std::isnan(out[3]) && out[4] == 2.5f &&
                  out[5] == 3.0f && out[6] == -1.0f && out[7] == -4.0f;
  std::printf("half min/max: %g %g %g %s | %g %g %g %g: %s\n", out[0], out[1], out[2], std::isnan(out[3]) ? "nan" : "number",
              out[4], out[5], out[6], out[7], ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
// REPORT-NOT: unsupported-api
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
