// Cooperative groups: <cooperative_groups.h> becomes <hip/hip_cooperative_groups.h>; HIP uses
// the same namespace and the same names (thread_block, this_thread_block, tiled_partition,
// thread_block_tile, this_grid, grid_group), so the code is otherwise unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cooperative_groups.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
// CHECK-NOT: #include <cooperative_groups.h>
namespace cg = cooperative_groups;
// CHECK: namespace cg = cooperative_groups;

__global__ void groups(int* out) {
  cg::thread_block block = cg::this_thread_block();
  // CHECK: cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  // CHECK-NEXT: cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  block.sync();
  // CHECK-NEXT: block.sync();
  out[block.thread_rank()] = tile.thread_rank();
  // CHECK-NEXT: out[block.thread_rank()] = tile.thread_rank();
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  // CHECK-NEXT: cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  grid.sync();
  // CHECK-NEXT: grid.sync();
}
// REPORT: 0 errors, 0 warnings
