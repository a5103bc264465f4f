// The GNU spellings __asm__ __volatile__ and __asm are inline assembly too: reported as
// inline-ptx like asm volatile.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ void fence() {
  __asm__ __volatile__("membar.gl;" ::: "memory");
  __asm("membar.cta;");
}
// CHECK: __asm__ __volatile__("membar.gl;" ::: "memory");
// CHECK-NEXT: __asm("membar.cta;");
// REPORT: gnu-spelling.cu:7:3: error: inline PTX (membar.gl) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: membar.gl -> __threadfence()
// REPORT: gnu-spelling.cu:8:3: error: inline PTX (membar.cta) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: membar.cta -> __threadfence_block()
// REPORT: 2 errors, 0 warnings
