// Block-level templates keep their names and template arguments; only the namespace changes:
// cub::BlockReduce<float, 256> -> hipcub::BlockReduce<float, 256>, and a qualified nested
// type ...::TempStorage is untouched.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cub/block/block_reduce.cuh>
// CHECK: #include <hipcub/hipcub.hpp>

__global__ void block_sum(const float* in, float* out) {
  using BlockReduce = cub::BlockReduce<float, 256>;
  // CHECK: using BlockReduce = hipcub::BlockReduce<float, 256>;
  __shared__ typename BlockReduce::TempStorage temp;
  // CHECK-NEXT: __shared__ typename BlockReduce::TempStorage temp;
  float v = BlockReduce(temp).Sum(in[blockIdx.x * 256 + threadIdx.x]);
  // CHECK-NEXT: float v = BlockReduce(temp).Sum(in[blockIdx.x * 256 + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void block_scan(int* data) {
  typedef cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS> Scan;
  // CHECK: typedef hipcub::BlockScan<int, 128, hipcub::BLOCK_SCAN_WARP_SCANS> Scan;
  __shared__ Scan::TempStorage t;
  Scan(t).ExclusiveSum(data[threadIdx.x], data[threadIdx.x]);
  // CHECK: Scan(t).ExclusiveSum(data[threadIdx.x], data[threadIdx.x]);
}
// REPORT: 0 errors, 0 warnings
