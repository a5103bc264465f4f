// Occupancy queries are renamed; HIP 5.2 has template overloads taking the kernel, so the
// kernel argument is not cast.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

__global__ void work(float* p) {}

int best_block() {
  int blocks = 0, min_grid = 0, block = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, work, 256, 0);
  // CHECK: {{^}}  hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, work, 256, 0);
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, work, 0, 0);
  // CHECK-NEXT: {{^}}  hipOccupancyMaxPotentialBlockSize(&min_grid, &block, work, 0, 0);
  return block;
}
// CHECK-NOT: reinterpret_cast
// REPORT: 0 errors, 0 warnings
