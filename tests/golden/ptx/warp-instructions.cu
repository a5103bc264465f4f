// Warp-level PTX: shfl.sync.bfly -> __shfl_xor(v, mask), shfl.sync.down -> __shfl_down,
// vote.sync.ballot -> __ballot(p) (the fix names the longest matching pattern). A .reg
// declaration and setp inside braces are skipped as mnemonics where they are not code.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float bfly(float v) {
  float r;
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v));
  return r;
}
__device__ float down(float v) {
  float r;
  asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(r) : "f"(v));
  return r;
}
__device__ unsigned vote(int p) {
  unsigned r;
  asm("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }" : "=r"(r) : "r"(p));
  // CHECK: asm("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }" : "=r"(r) : "r"(p));
  return r;
}
// REPORT: warp-instructions.cu:9:3: error: inline PTX (shfl.sync.bfly.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: {{^    fix: shfl.sync.bfly -> __shfl_xor\(v, mask\)$}}
// REPORT: warp-instructions.cu:14:3: error: inline PTX (shfl.sync.down.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: {{^    fix: shfl.sync.down -> __shfl_down\(v, delta\)$}}
// REPORT: warp-instructions.cu:19:3: error: inline PTX (setp.ne.s32, vote.sync.ballot.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: {{^    fix: vote.sync.ballot -> __ballot\(p\)$}}
// REPORT-NOT: warp-mask
// REPORT: 3 errors, 0 warnings
