// Double-precision math on the device: sincos, sincospi, exp/log, erf,
// lgamma/tgamma, cbrt, hypot, norm3d, rnorm3d, rsqrt, pow, atan2, asinh and
// fma, checked against the host libm with ulp-scale tolerances.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "../include/heldout.cuh"

constexpr int kFuncs = 16;

__global__ void eval_double(const double* __restrict__ x, const double* __restrict__ y,
                            double* __restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const double a = x[i], b = y[i];
    double* o = out + size_t(i) * kFuncs;
    double s, c, sp, cp;
    sincos(a, &s, &c);
    sincospi(a, &sp, &cp);
    o[0] = s;
    o[1] = c;
    o[2] = sp + cp;
    o[3] = exp(a) * log(b);
    o[4] = erf(a);
    o[5] = lgamma(b);
    o[6] = tgamma(b * 0.5);
    o[7] = cbrt(a);
    o[8] = hypot(a, b);
    o[9] = norm3d(a, b, 1.0);
    o[10] = rnorm3d(a, b, 1.0);
    o[11] = rsqrt(b);
    o[12] = pow(b, a * 0.25);
    o[13] = atan2(b, a);
    o[14] = asinh(a);
    o[15] = fma(a, b, -a);
  }
}

int main() {
  const int n = 1 << 17;
  std::vector<double> x(n), y(n);
  heldout::Lcg rng(271);
  for (int i = 0; i < n; ++i) {
    x[i] = rng.uniform(-5.0f, 5.0f) + 1e-3 * rng.uniform();
    y[i] = rng.uniform(2.5f, 30.0f);  // away from lgamma's roots at 1 and 2
  }
  double *d_x, *d_y, *d_out;
  CUDA_CHECK(cudaMalloc(&d_x, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_y, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_out, size_t(n) * kFuncs * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_x, x.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_y, y.data(), n * sizeof(double), cudaMemcpyHostToDevice));

  heldout::GpuTimer timer;
  timer.start();
  eval_double<<<256, 256>>>(d_x, d_y, d_out, n);
  CUDA_CHECK_LAUNCH();
  timer.stop();
  std::vector<double> out(size_t(n) * kFuncs);
  CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(double), cudaMemcpyDeviceToHost));

  const double pi = 3.14159265358979323846;
  // Most functions are within 1-4 ulp (~1e-15); gamma functions up to ~10 ulp.
  const double tol[kFuncs] = {1e-14, 1e-14, 1e-14, 1e-14, 1e-14, 1e-13, 1e-13, 1e-14,
                              1e-14, 1e-14, 1e-14, 1e-14, 1e-13, 1e-14, 1e-14, 1e-14};
  heldout::ErrTracker err;
  long bad_before = 0;
  for (int i = 0; i < n; ++i) {
    const double a = x[i], b = y[i];
    const double ref[kFuncs] = {std::sin(a),
                                std::cos(a),
                                std::sin(pi * a) + std::cos(pi * a),
                                std::exp(a) * std::log(b),
                                std::erf(a),
                                std::lgamma(b),
                                std::tgamma(b * 0.5),
                                std::cbrt(a),
                                std::hypot(a, b),
                                std::sqrt(a * a + b * b + 1.0),
                                1.0 / std::sqrt(a * a + b * b + 1.0),
                                1.0 / std::sqrt(b),
                                std::pow(b, a * 0.25),
                                std::atan2(b, a),
                                std::asinh(a),
                                std::fma(a, b, -a)};
    for (int f = 0; f < kFuncs; ++f) {
      // sin(pi*a) on the host loses accuracy for large a; give sincospi an absolute floor.
      const double fl = f == 2 ? 1e-1 : 1e-3;
      err.add(out[size_t(i) * kFuncs + f], ref[f], f == 2 ? 1e-13 : tol[f], fl);
      if (err.bad != bad_before) {
        if (bad_before < 5) std::fprintf(stderr, "f=%d x=%.17g y=%.17g got=%.17g want=%.17g\n", f, a, b,
                                         out[size_t(i) * kFuncs + f], ref[f]);
        bad_before = err.bad;
      }
    }
  }

  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_out));
  return heldout::report("math_double", err.ok(), err.max_rel, timer.ms());
}
