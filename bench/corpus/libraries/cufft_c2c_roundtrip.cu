// cuFFT: a batch of 1-D complex-to-complex transforms of size 1024 (forward), compared with a
// double-precision DFT on the CPU, then the inverse transform, which must give back the input
// times n. cufftPlan1d, cufftExecC2C in both directions, cufftDestroy.
#include <cufft.h>

#include "../include/corpus.cuh"

#define CUFFT_CHECK(call) CORPUS_CHECK_STATUS(call, CUFFT_SUCCESS)

int main() {
  const int n = 1024;
  const int batch = corpus::sized(256, 4);
  const size_t total = (size_t)n * batch;
  corpus::Rng rng(0xff7u);
  std::vector<cufftComplex> h(total);
  for (auto& c : h) c = make_cuComplex(rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f));

  cufftComplex* d = nullptr;
  CORPUS_CHECK(cudaMalloc(&d, total * sizeof(cufftComplex)));
  CORPUS_CHECK(cudaMemcpy(d, h.data(), total * sizeof(cufftComplex), cudaMemcpyHostToDevice));
  cufftHandle plan;
  CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, batch));
  corpus::GpuTimer timer;
  timer.start();
  CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_FORWARD));
  const float gpu_ms = timer.stop();
  std::vector<cufftComplex> spectrum(total), back(total);
  CORPUS_CHECK(cudaMemcpy(spectrum.data(), d, total * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
  CUFFT_CHECK(cufftExecC2C(plan, d, d, CUFFT_INVERSE));
  CORPUS_CHECK(cudaMemcpy(back.data(), d, total * sizeof(cufftComplex), cudaMemcpyDeviceToHost));
  CUFFT_CHECK(cufftDestroy(plan));
  CORPUS_CHECK(cudaFree(d));

  // The DFT of the first and last transforms of the batch, in double (O(n^2) each), with the
  // error relative to the spectrum's largest magnitude (~sqrt(n) for inputs in [-1, 1]).
  const double pi = 3.14159265358979323846;
  double err = 0.0;
  for (int b : {0, batch - 1}) {
    const cufftComplex* x = &h[(size_t)b * n];
    const cufftComplex* y = &spectrum[(size_t)b * n];
    std::vector<double> re(n), im(n);
    double scale = 0.0;
    for (int k = 0; k < n; ++k) {
      double sr = 0, si = 0;
      for (int t = 0; t < n; ++t) {
        const double a = -2.0 * pi * (double)((long long)k * t % n) / n;
        sr += x[t].x * std::cos(a) - x[t].y * std::sin(a);
        si += x[t].x * std::sin(a) + x[t].y * std::cos(a);
      }
      re[k] = sr, im[k] = si;
      scale = std::fmax(scale, std::hypot(sr, si));
    }
    for (int k = 0; k < n; ++k) err = std::fmax(err, std::hypot(y[k].x - re[k], y[k].y - im[k]) / scale);
  }
  // The inverse of the forward transform is n times the input.
  double round_trip = 0.0;
  for (size_t i = 0; i < total; ++i)
    round_trip = std::fmax(round_trip, std::hypot(back[i].x / n - h[i].x, back[i].y / n - h[i].y));
  // Single-precision FFTs of size 1024: errors ~1e-6 relative; 1e-4 leaves room for any algorithm.
  const bool pass = err <= 1e-4 && round_trip <= 1e-4;
  if (!pass) std::fprintf(stderr, "cufft_c2c_roundtrip: spectrum error %g, round trip %g\n", err, round_trip);
  return corpus::report("cufft_c2c_roundtrip", pass, std::fmax(err, round_trip), gpu_ms);
}
