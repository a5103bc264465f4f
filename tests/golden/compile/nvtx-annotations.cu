// NVTX annotations (ranges, marks, event attributes, thread and stream names; UppASD names its
// threads and pushes ranges around callbacks). They change nothing a program computes: the
// names stay NVTX's and gpuport's NVTX shim declares them after the runtime include, sending
// ranges and marks to roctx where roctracer is installed (not in HIP 6.4's tree here: they do
// nothing) and NVTX's own headers on NVIDIA. The program builds with gpuport nvcc and runs on the
// emulator with the annotations in place.
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: grep -v -e CHECK -e RUN -e REPORT -e HIP64 -e EMU %t/nvtx-annotations.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o nvtx -lnvToolsExt
// RUN: %gpuport run %t.run/nvtx | FileCheck --check-prefix=EMU %s
// EMU: nvtx: 1024.0: PASS
#include <cuda_runtime.h>
#include <nvToolsExt.h>
#include <nvToolsExtCudaRt.h>
#include <pthread.h>
#include <stdio.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #if !defined(GPUPORT_NVTX)
// CHECK: #if defined(__HIP_PLATFORM_NVIDIA__)
// CHECK: #if __has_include(<roctracer/roctx.h>)

__global__ void fill(float* v) { v[threadIdx.x] = 1.0f; }

int main() {
  nvtxNameOsThread(pthread_self(), "MAIN_THREAD");
  // CHECK: nvtxNameOsThread(pthread_self(), "MAIN_THREAD");
  nvtxRangePush("setup");
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  nvtxNameCudaStreamA(stream, "work");
  // CHECK: nvtxNameCudaStreamA(stream, "work");
  float* d = nullptr;
  cudaMalloc(&d, 1024 * sizeof(float));
  nvtxRangePop();
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.colorType = NVTX_COLOR_ARGB;
  attributes.color = 0xff00ff00u;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "fill";
  nvtxRangePushEx(&attributes);
  fill<<<1, 1024, 0, stream>>>(d);
  cudaStreamSynchronize(stream);
  nvtxRangePop();
  nvtxMarkA("filled");
  float h[1024];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float x : h) sum += x;
  printf("nvtx: %.1f: %s\n", sum, sum == 1024.0 ? "PASS" : "FAIL");
  cudaFree(d);
  cudaStreamDestroy(stream);
  return sum == 1024.0 ? 0 : 1;
}
// REPORT-NOT: unsupported
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
