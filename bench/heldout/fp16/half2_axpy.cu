// Packed half-precision arithmetic: y = a*x + y and z = x*y + (x + y)
// computed two lanes at a time with half2 intrinsics (__hfma2, __hmul2,
// __hadd2). Inputs are converted on the host; the tail element of an odd
// length is handled with scalar half operations.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

__global__ void haxpy2(int n, float a, const __half* __restrict__ x, __half* __restrict__ y,
                       __half* __restrict__ z) {
  const int pairs = n / 2;
  const __half2 a2 = __float2half2_rn(a);
  const __half2* x2 = reinterpret_cast<const __half2*>(x);
  __half2* y2 = reinterpret_cast<__half2*>(y);
  __half2* z2 = reinterpret_cast<__half2*>(z);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += gridDim.x * blockDim.x) {
    __half2 xv = x2[i];
    __half2 yv = __hfma2(a2, xv, y2[i]);
    y2[i] = yv;
    z2[i] = __hadd2(__hmul2(xv, yv), __hadd2(xv, yv));
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && (n & 1)) {
    const int t = n - 1;
    __half yv = __hfma(__float2half(a), x[t], y[t]);
    y[t] = yv;
    z[t] = __hadd(__hmul(x[t], yv), __hadd(x[t], yv));
  }
}

// Split each half2 into float components, with .x/.y access and the
// low/high helpers, and repack with swapped halves.
__global__ void swap_and_widen(const __half2* __restrict__ in, __half2* __restrict__ swapped,
                               float* __restrict__ lo, float* __restrict__ hi, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  __half2 v = in[i];
  lo[i] = __low2float(v);
  hi[i] = __half2float(v.y);
  swapped[i] = __halves2half2(v.y, v.x);
}

int main() {
  const int n = (1 << 20) + 1;  // odd on purpose
  const float a = 0.75f;
  std::vector<__half> hx(n), hy(n);
  std::vector<float> fx(n), fy(n);
  heldout::Lcg rng(16);
  for (int i = 0; i < n; ++i) {
    hx[i] = __float2half(rng.uniform(-2.0f, 2.0f));
    hy[i] = __float2half(rng.uniform(-2.0f, 2.0f));
    fx[i] = __half2float(hx[i]);  // exact values the GPU sees
    fy[i] = __half2float(hy[i]);
  }
  __half *d_x, *d_y, *d_z, *d_sw;
  float *d_lo, *d_hi;
  const int pairs = n / 2;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_z, n * sizeof(__half)));
  CUDA_CHECK(cudaMalloc(&d_sw, pairs * sizeof(__half2)));
  CUDA_CHECK(cudaMalloc(&d_lo, pairs * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_hi, pairs * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, hx.data(), n * sizeof(__half), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, hy.data(), n * sizeof(__half), cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  swap_and_widen<<<(pairs + 255) / 256, 256>>>(reinterpret_cast<const __half2*>(d_x),
                                               reinterpret_cast<__half2*>(d_sw), d_lo, d_hi, pairs);
  CUDA_CHECK_LAUNCH();
  haxpy2<<<256, 256>>>(n, a, d_x, d_y, d_z);
  CUDA_CHECK_LAUNCH();
  timer.stop();

  std::vector<__half> ry(n), rz(n), sw(2 * pairs);
  std::vector<float> lo(pairs), hi(pairs);
  CUDA_CHECK(cudaMemcpy(ry.data(), d_y, n * sizeof(__half), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(rz.data(), d_z, n * sizeof(__half), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(sw.data(), d_sw, pairs * sizeof(__half2), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(lo.data(), d_lo, pairs * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(hi.data(), d_hi, pairs * sizeof(float), cudaMemcpyDeviceToHost));

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) {
    // Reference rounds y to half like the GPU does, then evaluates z in float.
    float y = __half2float(__float2half(a * fx[i] + fy[i]));
    float z = fx[i] * y + (fx[i] + y);
    // half has an 11-bit significand. y is rounded once; z is rounded three
    // times on terms up to ~12 in size, so it gets an absolute floor of 8.
    err.add(__half2float(ry[i]), y, 2e-3, 0.5);
    err.add(__half2float(rz[i]), z, 2e-3, 8.0);
  }
  for (int p = 0; p < pairs; ++p) {
    err.add(lo[p], fx[2 * p], 0.0, 1.0);
    err.add(hi[p], fx[2 * p + 1], 0.0, 1.0);
    err.add(__half2float(sw[2 * p]), fx[2 * p + 1], 0.0, 1.0);
    err.add(__half2float(sw[2 * p + 1]), fx[2 * p], 0.0, 1.0);
  }

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_z));
  CUDA_CHECK(cudaFree(d_sw));
  CUDA_CHECK(cudaFree(d_lo));
  CUDA_CHECK(cudaFree(d_hi));
  return heldout::report("half2_axpy", err.ok(), err.max_rel, timer.ms());
}
