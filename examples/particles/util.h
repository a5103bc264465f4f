// Error checking and event timing shared by the particles example.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

// Every runtime call goes through CUDA_CHECK so that a failure names the call and the line.
#define CUDA_CHECK(call)                                                              \
  do {                                                                                \
    cudaError_t err_ = (call);                                                        \
    if (err_ != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(err_), cudaGetErrorName(err_));                 \
      std::exit(EXIT_FAILURE);                                                        \
    }                                                                                 \
  } while (0)

// Checks a kernel launch: the launch error at once, the execution error at the next sync.
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

// Times work queued on one stream with a pair of events.
struct GpuTimer {
  cudaEvent_t start{};
  cudaEvent_t stop{};
  cudaStream_t stream{};

  explicit GpuTimer(cudaStream_t s) : stream(s) {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~GpuTimer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  void begin() { CUDA_CHECK(cudaEventRecord(start, stream)); }
  void end() { CUDA_CHECK(cudaEventRecord(stop, stream)); }

  // Milliseconds between begin() and end(); waits for the stop event.
  float elapsed_ms() const {
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    return ms;
  }
};
