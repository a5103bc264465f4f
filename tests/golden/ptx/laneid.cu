// Inline PTX reading %laneid does not compile for AMD: an inline-ptx error (exit 1) naming the
// instruction, whose fix points at __lane_id(). The asm statement is left unchanged.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned lane_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  // CHECK: asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
// REPORT: laneid.cu:8:3: error: inline PTX (mov.u32) does not compile for AMD GPUs [inline-ptx]
// REPORT-NEXT: {{^    fix: %laneid -> __lane_id\(\)$}}
// REPORT: 1 errors, 0 warnings
