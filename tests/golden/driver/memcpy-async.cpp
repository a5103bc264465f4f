// Asynchronous driver copies are renamed; the stream argument is passed through.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
#include <cuda_runtime.h>

void roundtrip(CUdeviceptr dev, float* host, size_t bytes, cudaStream_t stream) {
  cuMemcpyHtoDAsync(dev, host, bytes, stream);
  // CHECK: {{^}}  hipMemcpyHtoDAsync(dev, host, bytes, stream);
  cuMemcpyDtoHAsync(host, dev, bytes, stream);
  // CHECK-NEXT: {{^}}  hipMemcpyDtoHAsync(host, dev, bytes, stream);
}
// REPORT: 0 errors, 0 warnings
