// HIP declares hipLimitPrintfFifoSize but its runtime answers hipErrorUnsupportedLimit for it
// (hipDeviceSetLimit/GetLimit take only the stack and heap sizes): a translated call would fail
// at run time, so the limit is reported, with what to do, for every HIP version. The heap limit
// is translated (HIP 6.4 has hipDeviceSetLimit).
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: not %gpuport translate --hip-version 5.7 %s 2>&1 >/dev/null | FileCheck --check-prefix=REPORT %s
// RUN: not %gpuport translate --hip-version 5.2 %s 2>&1 >/dev/null | FileCheck --check-prefix=OLD %s
// OLD: printf-fifo-limit.cu:13:22: error: 'cudaLimitPrintfFifoSize' (runtime) has no HIP equivalent [unsupported-api]
void limits() {
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 24);
  // CHECK: hipDeviceSetLimit(hipLimitMallocHeapSize, 1 << 24);
  cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
  // CHECK: hipDeviceSetLimit(cudaLimitPrintfFifoSize, 1 << 20);
}
// REPORT: printf-fifo-limit.cu:13:22: error: 'cudaLimitPrintfFifoSize' (runtime) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: HIP's runtime rejects hipLimitPrintfFifoSize (hipErrorUnsupportedLimit): HIP's device printf buffer cannot be sized; drop the call
