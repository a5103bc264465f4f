// Inline assembly in host code that is the host CPU's (x86 rdtsc, ARM mrc) is no PTX and is not
// reported (it was, at error level, with its first letter dropped: "dtsc"); PTX in host code
// still is (asm-host-code.cu). Mnemonics keep their first letter (neg, rdtsc, testp), and an asm
// with empty outputs (`::`) reads its template only.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
static inline unsigned long long cycles() {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((unsigned long long)hi << 32) | lo;
}
// CHECK: asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
__device__ int negate(int x) {
  int r;
  asm("neg.s32 %0, %1;" : "=r"(r) : "r"(x));
  asm("{\n\ttestp.finite.f32 p, %0;\n}" :: "f"(1.f));
  return r;
}
// REPORT-NOT: rdtsc
// REPORT-NOT: dtsc
// REPORT: host-cpu-asm.cu:15:3: error: inline PTX (neg.s32) does not compile for AMD GPUs [inline-ptx]
// REPORT: host-cpu-asm.cu:16:3: error: inline PTX (testp.finite.f32) does not compile for AMD GPUs [inline-ptx]
// REPORT: 2 errors
