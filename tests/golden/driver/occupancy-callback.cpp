// HIP's occupancy calls take a fixed dynamic shared-memory size, not CUDA's
// block-size-to-shared-memory callback (CUoccupancyB2DSize): the callback argument is dropped,
// silently when it is null, with a warning naming it when it is not (the size it would compute
// must then be passed by hand). The callback type becomes void*, as hipify-clang writes it.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
size_t smem(int block) { return block * 4; }
void f(CUfunction fn, int* grid, int* block) {
  CUoccupancyB2DSize cb = smem;
  // CHECK: void* cb = smem;
  cuOccupancyMaxPotentialBlockSize(grid, block, fn, NULL, 0, 256);
  // CHECK: hipModuleOccupancyMaxPotentialBlockSize(grid, block, fn, 0, 256);
  cuOccupancyMaxPotentialBlockSizeWithFlags(grid, block, fn, cb, 0, 256, 0);
  // CHECK: hipModuleOccupancyMaxPotentialBlockSizeWithFlags(grid, block, fn, 0, 256, 0);
}
// REPORT-NOT: 12:{{[0-9]+}}: warning
// REPORT: 14:62: warning: argument 'cb' dropped: hipModuleOccupancyMaxPotentialBlockSizeWithFlags has no such parameter [argument-dropped]
// REPORT: 0 errors, 1 warnings
