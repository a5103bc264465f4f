// A multi-line asm statement with several instructions is one inline-ptx error at the asm
// keyword; the message lists the mnemonics in order and the fix lists each known replacement.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned pack(unsigned x) {
  unsigned a, b;
  asm volatile(
      "popc.b32 %0, %2;\n\t"
      "prmt.b32 %1, %2, 0, 0x0123;\n\t"
      : "=r"(a), "=r"(b)
      : "r"(x));
  return a + b;
}
// CHECK: asm volatile(
// CHECK-NEXT: "popc.b32 %0, %2;\n\t"
// CHECK-NEXT: "prmt.b32 %1, %2, 0, 0x0123;\n\t"
// REPORT: multi-instruction.cu:8:3: error: inline PTX (popc.b32, prmt.b32) does not compile for AMD GPUs [inline-ptx]
// REPORT-NEXT: {{^    fix: popc.b32 -> __popc\(x\); prmt.b32 -> __byte_perm\(x, y, s\)$}}
// REPORT: 1 errors, 0 warnings
