// PTX bit instructions map to HIP intrinsics in the fix text: brev.b32 -> __brev(x),
// popc.b32 -> __popc(x), prmt.b32 -> __byte_perm(x, y, s), clz.b32 -> __clz(x).
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned bits(unsigned x, unsigned y) {
  unsigned a, b, c, d;
  asm("brev.b32 %0, %1;" : "=r"(a) : "r"(x));
  asm("popc.b32 %0, %1;" : "=r"(b) : "r"(x));
  asm("prmt.b32 %0, %1, %2, 0x5410;" : "=r"(c) : "r"(x), "r"(y));
  asm("clz.b32 %0, %1;" : "=r"(d) : "r"(y));
  // CHECK: asm("brev.b32 %0, %1;" : "=r"(a) : "r"(x));
  // CHECK-NEXT: asm("popc.b32 %0, %1;" : "=r"(b) : "r"(x));
  return a + b + c + d;
}
// REPORT: bit-instructions.cu:8:3: error: inline PTX (brev.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: brev.b32 -> __brev(x)
// REPORT: bit-instructions.cu:9:3: error: inline PTX (popc.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: popc.b32 -> __popc(x)
// REPORT: bit-instructions.cu:10:3: error: inline PTX (prmt.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: prmt.b32 -> __byte_perm(x, y, s)
// REPORT: bit-instructions.cu:11:3: error: inline PTX (clz.b32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: clz.b32 -> __clz(x)
// REPORT: 4 errors, 0 warnings
