// Harness fixture: its translation keeps inline PTX, which clang cannot compile for gfx1100.
#include <cstdio>
__global__ void lane_ids(unsigned* out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}
int main() {
  std::printf("RESULT ptx_does_not_compile PASS max_rel_err=0 gpu_ms=1\n");
  return 0;
}
