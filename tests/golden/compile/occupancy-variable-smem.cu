// cudaOccupancyMaxPotentialBlockSizeVariableSMem (HIP: AMD from 5.5, NVIDIA not as of 6.x) and
// cudaOccupancyAvailableDynamicSMemPerBlock (no HIP name): gpuport's shim (GPUPORT_OCCUPANCY)
// answers both from HIP's own occupancy calculator on AMD before 5.5 and calls CUDA's on
// NVIDIA; the translation compiles for gfx1100 and for sm_90.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/occupancy-variable-smem.cu | FileCheck %s
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if !defined(GPUPORT_OCCUPANCY)
// CHECK: #if HIP_VERSION < 50500000
// CHECK: e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, b, block_size_to_dynamic_smem_size(b));
// CHECK: #define hipOccupancyMaxPotentialBlockSizeVariableSMem gpuport_hipOccupancyMaxPotentialBlockSizeVariableSMem
// CHECK: #else
// CHECK: cudaOccupancyAvailableDynamicSMemPerBlock(dynamic_smem_size, func, num_blocks, block_size)

__global__ void sum_squares(const float* in, float* out) {
  extern __shared__ float partial[];
  partial[threadIdx.x] = in[threadIdx.x] * in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

struct SmemPerBlock {
  __host__ __device__ size_t operator()(int block) const { return block * sizeof(float); }
};

int main() {
  int min_grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, sum_squares, SmemPerBlock(), 1024);
  // CHECK: hipOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, sum_squares, SmemPerBlock(), 1024);
  cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(&min_grid, &block, sum_squares, SmemPerBlock(), 0, cudaOccupancyDefault);
  size_t smem = 0;
  cudaOccupancyAvailableDynamicSMemPerBlock(&smem, sum_squares, 2, block);
  // CHECK: gpuport_hipOccupancyAvailableDynamicSMemPerBlock(&smem, sum_squares, 2, block);
  return smem >= block * sizeof(float) ? 0 : 1;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
// REPORT: 0 errors
