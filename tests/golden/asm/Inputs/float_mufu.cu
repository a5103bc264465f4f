// MUFU.TANH, MUFU.SQRT and the .ftz approximations reached through PTX (tanh.approx.f32,
// sqrt.approx.f32, ex2.approx.ftz.f32, lg2.approx.ftz.f32, rcp.approx.ftz.f32, rsqrt.approx.ftz.f32,
// sin/cos.approx.ftz.f32); the CPU checks them against the error bounds the PTX ISA documents.
#include <cmath>
#include <cstdio>

const int kOut = 9;
const int kStride = 11;  // a stride the compiler multiplies with IMAD (not a shift or LEA)

// The PTX instructions by name; the HIP translation supplies only the host code (the device code
// is nvcc's SASS, lifted), so there the kernel body is left out.
#define APPROX(instruction, out, in) asm(#instruction " %0, %1;" : "=f"(out) : "f"(in))

__global__ void approximations(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float r[kOut] = {};
#ifndef __HIPCC__
  APPROX(tanh.approx.f32, r[0], x);
  APPROX(sqrt.approx.f32, r[1], x);
  APPROX(ex2.approx.ftz.f32, r[2], x);
  APPROX(lg2.approx.ftz.f32, r[3], x);
  APPROX(rcp.approx.ftz.f32, r[4], x);
  APPROX(rsqrt.approx.ftz.f32, r[5], x);
  APPROX(sin.approx.ftz.f32, r[6], x);
  APPROX(cos.approx.ftz.f32, r[7], x);
  APPROX(sqrt.approx.ftz.f32, r[8], x);
#endif
  for (int k = 0; k < kOut; ++k) out[i * kStride + k] = r[k];
}

int main() {
  const float xs[] = {0.5f, -0.5f, 1e-3f, -2.0f, 3.0f, 10.0f, 100.0f, 0.0f, -0.0f, 1e-40f, 2.0f, 0.1f, 7.5f, 1e30f, -1e-5f, INFINITY};
  const int n = 16;
  float *da, *dout, out[n * kStride];
  cudaMalloc(&da, sizeof xs); cudaMalloc(&dout, sizeof out);
  cudaMemcpy(da, xs, sizeof xs, cudaMemcpyHostToDevice);
  approximations<<<1, 32>>>(da, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  int bad = 0;
  auto expect = [&](int i, int k, double want, double rel, double abs_err) {
    const float got = out[i * kStride + k];
    bool ok;
    if (std::isnan(want)) ok = std::isnan(got);
    else if (std::isinf(want)) ok = got == (float)want;
    else ok = std::fabs(got - want) <= rel * std::fabs(want) + abs_err;
    if (!ok && bad++ < 20) printf("mismatch: x=%g output %d got %.9g want %.9g\n", xs[i], k, got, want);
  };
  for (int i = 0; i < n; ++i) {
    const double x = xs[i];
    const double flushed = std::fabs(x) < 0x1p-126 ? std::copysign(0.0, x) : x;  // .ftz and MUFU: denormals are zeros
    expect(i, 0, std::tanh(x), std::exp2(-10.987), 0);                                    // PTX: relative 2^-10.987
    if (x >= 0) expect(i, 1, std::sqrt(x), 0x1p-23, 0);                             // PTX: 2^-23 relative (denormals kept)
    if (std::fabs(x) < 126) expect(i, 2, std::exp2(flushed), 2 * 0x1p-23, 0);     // PTX: 2 ulp
    if (flushed > 0) expect(i, 3, std::log2(flushed), 0x1p-22, 0x1p-22);           // PTX: 2^-22.6 absolute near 1
    if (std::fabs(x) < 1e38) expect(i, 4, 1 / flushed, 0x1p-23, 0);                // PTX: 1 ulp
    if (flushed >= 0) expect(i, 5, 1 / std::sqrt(flushed), std::exp2(-22.9), 0);          // PTX: 2^-22.9 relative
    if (std::fabs(x) <= 3.14159265) {  // PTX: 2^-20.5 absolute on [-pi, pi] (outside it, nvcc's f32
      expect(i, 6, std::sin(flushed), 0, std::exp2(-20.5));  // reduction x * 1/(2 pi) itself costs more)
      expect(i, 7, std::cos(flushed), 0, std::exp2(-20.5));
    }
    if (flushed >= 0) expect(i, 8, std::sqrt(flushed), 0x1p-23, 0);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
