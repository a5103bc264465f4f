// Shared by every program of the benchmark corpus: error checking, deterministic inputs, GPU
// timing, error measures and the one RESULT line `gpuport verify` compares.
//   RESULT <name> PASS|FAIL max_rel_err=<x> gpu_ms=<t>
// A program exits 0 only when it prints PASS.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CORPUS_CHECK(call)                                                                    \
  do {                                                                                        \
    cudaError_t corpus_err_ = (call);                                                         \
    if (corpus_err_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,               \
                   cudaGetErrorString(corpus_err_));                                          \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

// After a kernel launch: launch errors now, execution errors at the next synchronisation.
#define CORPUS_CHECK_LAUNCH() CORPUS_CHECK(cudaGetLastError())

// A CUDA library call (cuBLAS, cuSPARSE, cuRAND, cuFFT), whose status type and success value are
// the library's own: CORPUS_CHECK_STATUS(cublasCreate(&h), CUBLAS_STATUS_SUCCESS).
#define CORPUS_CHECK_STATUS(call, success)                                                    \
  do {                                                                                        \
    const auto corpus_status_ = (call);                                                       \
    if (corpus_status_ != (success)) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call,         \
                   static_cast<int>(corpus_status_));                                         \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

namespace corpus {

// Workload size. gpuport's CPU emulator sets CORPUS_EMULATED=1 (it is ~1000x slower than a GPU);
// programs then pick a smaller problem with sized() and time one repetition with reps().
// Unset, empty or "0": the full workload.
inline bool emulated() {
  for (const char* name : {"CORPUS_EMULATED", "GPUPORT_EMULATED"}) {  // the latter: set by `gpuport run`
    const char* v = std::getenv(name);
    if (v != nullptr && v[0] != '\0' && !(v[0] == '0' && v[1] == '\0')) return true;
  }
  return false;
}
// Timing repetitions: n normally, 1 under emulation.
inline int reps(int n) { return emulated() ? 1 : n; }
// A problem size: full normally, emulated_size under emulation.
template <class T>
T sized(T full, T emulated_size) {
  return emulated() ? emulated_size : full;
}

// splitmix64: the same sequence on every platform and compiler.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint32_t next_u32() { return static_cast<std::uint32_t>(next() >> 32); }
  // Uniform in [0, 1).
  float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n).
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>((next() >> 32) % n); }

 private:
  std::uint64_t state_;
};

// Times GPU work on a stream with events; stop() returns milliseconds.
class GpuTimer {
 public:
  GpuTimer() {
    CORPUS_CHECK(cudaEventCreate(&start_));
    CORPUS_CHECK(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;
  void start(cudaStream_t stream = 0) { CORPUS_CHECK(cudaEventRecord(start_, stream)); }
  float stop(cudaStream_t stream = 0) {
    CORPUS_CHECK(cudaEventRecord(stop_, stream));
    CORPUS_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    CORPUS_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_;
  cudaEvent_t stop_;
};

// Relative error with a floor, so values near zero are compared absolutely.
inline double rel_err(double got, double want, double floor = 1e-6) {
  const double scale = std::fabs(want) > floor ? std::fabs(want) : floor;
  if (std::isnan(got) != std::isnan(want)) return INFINITY;
  return std::fabs(got - want) / scale;
}

template <class T>
double max_rel_err(const std::vector<T>& got, const std::vector<T>& want, double floor = 1e-6) {
  if (got.size() != want.size()) return INFINITY;
  double worst = 0.0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = rel_err(static_cast<double>(got[i]), static_cast<double>(want[i]), floor);
    if (!(e <= worst)) worst = e;  // also catches NaN
  }
  return worst;
}

// Prints the RESULT line and gives the exit status.
inline int report(const char* name, bool pass, double max_rel_err, double gpu_ms) {
  std::printf("RESULT %s %s max_rel_err=%.3e gpu_ms=%.3f\n", name, pass ? "PASS" : "FAIL", max_rel_err, gpu_ms);
  return pass ? 0 : 1;
}

}  // namespace corpus
