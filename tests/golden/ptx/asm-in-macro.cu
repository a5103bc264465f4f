// Inline PTX inside a macro definition is reported once, at the asm in the #define (where the
// fix has to be made), not at each expansion; the macro is left unchanged.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#define LDG_F32(r, p) asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(r) : "l"(p))
// CHECK: #define LDG_F32(r, p) asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(r) : "l"(p))

__device__ float a(const float* p) { float r; LDG_F32(r, p); return r; }
__device__ float b(const float* p) { float r; LDG_F32(r, p + 1); return r; }
// REPORT: asm-in-macro.cu:5:23: error: inline PTX (ld.global.nc.f32) {{.*}}[inline-ptx]
// REPORT-NOT: error:
// REPORT: 1 errors, 0 warnings
