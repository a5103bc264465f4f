// __ldcv (a volatile load) has no HIP form: an unsupported-api error with a volatile access as
// the suggested fix. __ldlu (last use) is a plain load and becomes __ldg; the cache-hinted
// stores become gpuport's shims (compile/cache-hinted-stores.cu), so they are no error.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void hints(float* out, float* in) {
  float a = __ldcv(in);
  // CHECK: float a = __ldcv(in);
  float b = __ldlu(in + 1);
  // CHECK-NEXT: float b = __ldg(in + 1);
  __stcg(out, a);
  // CHECK-NEXT: gpuport_stcg(out, a);
  __stcs(out + 1, b);
  // CHECK-NEXT: gpuport_stcs(out + 1, b);
}
// REPORT: :8:13: error: '__ldcv' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}volatile load
// REPORT-NOT: __stc
// REPORT-NOT: __ldlu
// REPORT: 1 errors, 0 warnings
