// A graph memcpy node to or from a __device__ variable: CUDA takes the variable (a template
// overload), HIP a const void*, so the symbol is wrapped in HIP_SYMBOL(...). The cudaMallocHost
// call gets its flags written out. Compiled for both targets.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/graph-symbol-copies.cu | FileCheck %s
#include <cuda_runtime.h>

__device__ float table[64];

void build(cudaGraph_t graph, const float* src, float* dst, float** pinned) {
  cudaGraphNode_t to, from;
  cudaGraphAddMemcpyNodeToSymbol(&to, graph, nullptr, 0, table, src, sizeof(table), 0, cudaMemcpyHostToDevice);
  // CHECK: hipGraphAddMemcpyNodeToSymbol(&to, graph, nullptr, 0, HIP_SYMBOL(table), src, sizeof(table), 0, hipMemcpyHostToDevice);
  cudaGraphAddMemcpyNodeFromSymbol(&from, graph, &to, 1, dst, table, sizeof(table), 0, cudaMemcpyDeviceToHost);
  // CHECK: hipGraphAddMemcpyNodeFromSymbol(&from, graph, &to, 1, dst, HIP_SYMBOL(table), sizeof(table), 0, hipMemcpyDeviceToHost);
  cudaGraphMemcpyNodeSetParamsToSymbol(to, table, src, sizeof(table), 0, cudaMemcpyHostToDevice);
  // CHECK: hipGraphMemcpyNodeSetParamsToSymbol(to, HIP_SYMBOL(table), src, sizeof(table), 0, hipMemcpyHostToDevice);
  cudaMallocHost((void**)pinned, 256);
  // CHECK: hipHostMalloc((void**)pinned, 256, hipHostMallocDefault);
}
// REPORT: 1 files translated
// REPORT: 0 errors
// REPORT: checks: 2 passed, 0 failed
