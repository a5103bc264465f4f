// Single-precision math library and intrinsics in one kernel: sincosf,
// __expf, expf, rsqrtf, fmaf, erff, erfcf, log1pf, exp2f, tanhf, hypotf,
// powf, atan2f, cbrtf, __fdividef, __saturatef, __sinf/__cosf. Each result is
// checked against a double-precision host reference with its own tolerance.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr int kFuncs = 18;

__global__ void eval_all(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = x[i], b = y[i];
  float* o = out + size_t(i) * kFuncs;
  float s, c;
  sincosf(a, &s, &c);
  o[0] = s;
  o[1] = c;
  o[2] = __expf(a);
  o[3] = expf(a);
  o[4] = rsqrtf(b);
  o[5] = fmaf(a, b, -1.0f);
  o[6] = erff(a);
  o[7] = erfcf(a);
  o[8] = log1pf(b);
  o[9] = exp2f(a);
  o[10] = tanhf(a);
  o[11] = hypotf(a, b);
  o[12] = powf(b, a);
  o[13] = atan2f(a, b);
  o[14] = cbrtf(a);
  o[15] = __fdividef(a, b);
  o[16] = __saturatef(a);
  o[17] = __sinf(a) * __cosf(a);
}

int main() {
  const int n = 1 << 17;
  std::vector<float> x(n), y(n);
  heldout::Lcg rng(314);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform(-4.0f, 4.0f);
    y[i] = rng.uniform(0.05f, 20.0f);
  }
  float *d_x, *d_y, *d_out;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, size_t(n) * kFuncs * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  eval_all<<<(n + 127) / 128, 128>>>(d_x, d_y, d_out, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<float> out(size_t(n) * kFuncs);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));

  // Relative tolerance and absolute floor per function. Library functions are
  // within a few ulp (~1e-6); the fast intrinsics are looser.
  const double tol[kFuncs] = {2e-6, 2e-6, 2e-5, 2e-6, 2e-6, 1e-6, 2e-6, 2e-6, 2e-6,
                              2e-6, 2e-6, 2e-6, 1e-5, 2e-6, 2e-6, 2e-6, 0.0,  5e-6};
  const double floor_[kFuncs] = {1.0, 1.0, 1e-3, 1e-3, 1e-3, 1.0, 1.0, 1e-3, 1e-3,
                                 1e-3, 1.0, 1e-3, 1e-3, 1.0, 1.0, 1e-2, 1.0, 1.0};
  std::vector<heldout::ErrTracker> per(kFuncs);
  for (int i = 0; i < n; ++i) {
    const double a = x[i], b = y[i];
    const double ref[kFuncs] = {std::sin(a),       std::cos(a),        std::exp(a),        std::exp(a),
                                1.0 / std::sqrt(b), a * b - 1.0,        std::erf(a),        std::erfc(a),
                                std::log1p(b),      std::exp2(a),       std::tanh(a),       std::hypot(a, b),
                                std::pow(b, a),     std::atan2(a, b),   std::cbrt(a),       a / b,
                                a < 0 ? 0.0 : (a > 1 ? 1.0 : a),        std::sin(a) * std::cos(a)};
    for (int f = 0; f < kFuncs; ++f) per[f].add(out[size_t(i) * kFuncs + f], ref[f], tol[f], floor_[f]);
  }
  heldout::ErrTracker all;
  for (int f = 0; f < kFuncs; ++f) {
    if (!per[f].ok()) std::fprintf(stderr, "function %d: %ld bad, max rel %.3e\n", f, per[f].bad, per[f].max_rel);
    all.bad += per[f].bad;
    all.max_rel = std::fmax(all.max_rel, per[f].max_rel);
  }

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("math_float", all.ok(), all.max_rel, timer.ms());
}
