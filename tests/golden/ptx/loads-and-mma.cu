// A non-coherent global load (ld.global.nc) has a HIP equivalent (__ldg); tensor-core mma has
// none, and the fix says to use rocWMMA.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ float ldg(const float* p) {
  float r;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(r) : "l"(p));
  return r;
}
__device__ void mma(float* d, const unsigned* a, const unsigned* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}
// REPORT: loads-and-mma.cu:8:3: error: inline PTX (ld.global.nc.f32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: ld.global.nc -> __ldg(p)
// REPORT: loads-and-mma.cu:12:3: error: inline PTX (mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32) {{.*}}[inline-ptx]
// REPORT-NEXT: fix: {{.*}}rocWMMA
// REPORT: 2 errors, 0 warnings
// CHECK: asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(r) : "l"(p));
