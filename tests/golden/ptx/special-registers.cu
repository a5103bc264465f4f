// Special registers: %clock64 -> clock64(), %smid -> __smid(), %globaltimer ->
// wall_clock64(); %warpid has no HIP equivalent and the fix says so (with the table's note).
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned long long regs(unsigned* out) {
  unsigned long long t, g;
  unsigned sm, w;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  out[0] = sm + w;
  return t + g;
}
// REPORT: :9:3: error: inline PTX (mov.u64) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: %clock64 -> clock64()
// REPORT: :10:3: error: inline PTX (mov.u32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: %smid -> __smid()
// REPORT: :11:3: error: inline PTX (mov.u64) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: %globaltimer -> wall_clock64()
// REPORT: :12:3: error: inline PTX (mov.u32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: %warpid: no HIP equivalent; compute threadIdx-based warp index with warpSize
// REPORT: 4 errors, 0 warnings
// CHECK: asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
