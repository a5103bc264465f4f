// Thread-block clusters (sm_90) have no HIP equivalent: __threadfence_cluster is an
// unsupported-api error (exit 1), left in place, and the fix names __threadfence().
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void publish(int* flag) {
  flag[0] = 1;
  __threadfence_cluster();
  // CHECK: __threadfence_cluster();
}
// REPORT: threadfence-cluster.cu:8:3: error: '__threadfence_cluster' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}__threadfence()
// REPORT: 1 errors, 0 warnings
