// cooperative_groups::reduce (<cooperative_groups/reduce.h>): no HIP has it. The include goes
// to HIP's cooperative groups header and gpuport's shim (GPUPORT_CG_REDUCE) defines reduce and
// CUDA's function objects on AMD (a butterfly over a tile, rank by rank over a coalesced group)
// and includes CUDA's own header on NVIDIA: the calls keep their CUDA spelling and compile for
// gfx1100 and for sm_90.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/cg-reduce.cu | FileCheck %s
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
// CHECK-NEXT: #if !defined(GPUPORT_CG_REDUCE)
// CHECK: template <typename T> struct plus
// CHECK: #include <cooperative_groups/reduce.h>
// CHECK-NEXT: #endif
// CHECK-NEXT: #endif
// CHECK-NOT: #include
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sums(const float* in, float* out, unsigned* bits, int* lowest) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> half_warp = cg::tiled_partition<16>(block);
  const float v = in[block.thread_rank()];
  const float s = cg::reduce(warp, v, cg::plus<float>());
  // CHECK: const float s = cg::reduce(warp, v, cg::plus<float>());
  const unsigned x = cg::reduce(half_warp, static_cast<unsigned>(v), cg::bit_xor<unsigned>());
  if (v > 0.0f) {
    cg::coalesced_group positive = cg::coalesced_threads();
    const int low = cg::reduce(positive, static_cast<int>(v * 100.0f), cg::less<int>());
    const int high = cg::reduce(positive, static_cast<int>(v * 100.0f), cg::greater<int>());
    if (positive.thread_rank() == 0) lowest[blockIdx.x] = high - low;
  }
  if (warp.thread_rank() == 0) out[blockIdx.x * 8 + block.thread_rank() / 32] = s;
  if (half_warp.thread_rank() == 0) bits[blockIdx.x] = x;
}

int main() {
  sums<<<1, 64>>>(nullptr, nullptr, nullptr, nullptr);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
// REPORT: 0 errors
