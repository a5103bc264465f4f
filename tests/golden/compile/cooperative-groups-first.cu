// <cooperative_groups.h> included before <cuda_runtime.h>: HIP 5.2's hip_cooperative_groups.h
// uses hipBlockDim_x and friends, which only hip_runtime.h defines, so the runtime include is
// put right before it (the later one stays); the translation compiles for gfx1100 and for
// NVIDIA, and translating it again changes nothing.
// REQUIRES: hip-compilers
// RUN: rm -rf %t && %gpuport translate --hip-version 5.2 --check -o %t %s > %t.log 2>&1
// The default target, HIP 6.4, for gfx1100 (HIP 6.4 has no NVIDIA platform headers here):
// RUN: rm -rf %t.64 && %gpuport translate --check --check-targets amd -o %t.64 %s 2>&1 | FileCheck --check-prefix=HIP64 %s
// HIP64: check gfx1100: compiles
// RUN: FileCheck --check-prefix=REPORT %s < %t.log
// RUN: grep -v -e CHECK -e RUN -e REPORT %t/cooperative-groups-first.cu | FileCheck %s
// RUN: %gpuport translate %t/cooperative-groups-first.cu 2>/dev/null | diff %t/cooperative-groups-first.cu -
#include <cooperative_groups.h>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #include <hip/hip_cooperative_groups.h>
// CHECK-NEXT: #include <hip/hip_runtime.h>
namespace cg = cooperative_groups;
__global__ void k(int* x) {
  cg::thread_block b = cg::this_thread_block();
  x[b.thread_rank()] = static_cast<int>(b.size());
}
// REPORT: check gfx1100: compiles
// REPORT: check nvidia: compiles
