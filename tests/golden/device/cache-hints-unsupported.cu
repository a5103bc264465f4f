// Cache-hinted accesses without a HIP 5.2 form (__ldcv, a volatile load, and the stores __stcg,
// __stcs) are unsupported-api errors with a plain/volatile access as the suggested fix; __ldlu
// (last use) is a plain load and becomes __ldg.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void hints(float* out, float* in) {
  float a = __ldcv(in);
  // CHECK: float a = __ldcv(in);
  float b = __ldlu(in + 1);
  // CHECK-NEXT: float b = __ldg(in + 1);
  __stcg(out, a);
  // CHECK-NEXT: __stcg(out, a);
  __stcs(out + 1, b);
  // CHECK-NEXT: __stcs(out + 1, b);
}
// REPORT: :8:13: error: '__ldcv' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}volatile load
// REPORT: :12:3: error: '__stcg' {{.*}}[unsupported-api]
// REPORT-NEXT: fix: {{.*}}plain store
// REPORT: :14:3: error: '__stcs' {{.*}}[unsupported-api]
// REPORT-NOT: __ldlu
// REPORT: 3 errors, 0 warnings
