// heldout.cuh - tiny helpers shared by the held-out CUDA programs.
// Error checking, cudaEvent timing and the single RESULT line.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                          \
  do {                                                                            \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n",                   \
                   cudaGetErrorName(err_), static_cast<int>(err_), __FILE__,      \
                   __LINE__, cudaGetErrorString(err_));                           \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

// Check a kernel launch: configuration errors now, execution errors at the sync.
#define CUDA_CHECK_LAUNCH()                 \
  do {                                      \
    CUDA_CHECK(cudaGetLastError());         \
  } while (0)

namespace heldout {

// Accumulates GPU time over any number of start()/stop() pairs on one stream.
class GpuTimer {
 public:
  explicit GpuTimer(cudaStream_t stream = 0) : stream_(stream) {
    CUDA_CHECK(cudaEventCreate(&start_));
    CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  void start() { CUDA_CHECK(cudaEventRecord(start_, stream_)); }
  void stop() {
    CUDA_CHECK(cudaEventRecord(stop_, stream_));
    CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    total_ms_ += ms;
  }
  float ms() const { return total_ms_; }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
  float total_ms_ = 0.0f;
};

// Relative error with an absolute floor so values near zero do not blow up.
inline double rel_err(double got, double want, double floor = 1e-6) {
  double denom = std::fabs(want) > floor ? std::fabs(want) : floor;
  return std::fabs(got - want) / denom;
}

// Tracks the worst relative error seen.
struct ErrTracker {
  double max_rel = 0.0;
  long bad = 0;
  void add(double got, double want, double tol, double floor = 1e-6) {
    double e = rel_err(got, want, floor);
    if (!(e <= tol)) ++bad;            // also counts NaN
    if (e > max_rel || e != e) max_rel = e;
  }
  bool ok() const { return bad == 0; }
};

// Prints the one final line and returns the process exit status.
inline int report(const char* name, bool pass, double max_rel_err, double gpu_ms) {
  std::printf("RESULT %s %s max_rel_err=%.3e gpu_ms=%.3f\n", name, pass ? "PASS" : "FAIL",
              max_rel_err, gpu_ms);
  std::fflush(stdout);
  return pass ? 0 : 1;
}

// Deterministic pseudo-random numbers for inputs (xorshift32).
struct Lcg {
  unsigned state;
  explicit Lcg(unsigned seed) : state(seed ? seed : 0x9e3779b9u) {}
  unsigned next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
  // uniform in [lo, hi)
  float uniform(float lo = 0.0f, float hi = 1.0f) {
    return lo + (hi - lo) * static_cast<float>(next() >> 8) * (1.0f / 16777216.0f);
  }
};

}  // namespace heldout
