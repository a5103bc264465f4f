// clock() and clock64() exist in HIP (they count shader clocks) and are left unchanged.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__global__ void timed(long long* cycles, int* t32) {
  long long start = clock64();
  // CHECK: long long start = clock64();
  int s = clock();
  // CHECK-NEXT: int s = clock();
  cycles[threadIdx.x] = clock64() - start;
  // CHECK-NEXT: cycles[threadIdx.x] = clock64() - start;
  t32[threadIdx.x] = clock() - s;
  // CHECK-NEXT: t32[threadIdx.x] = clock() - s;
}
// REPORT: 0 errors, 0 warnings
