// Texture references are deprecated in CUDA but HIP 5.2 still has hipBindTexture: the call
// is renamed and reported as a warning (deprecated-api); warnings do not fail the run.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda_runtime.h>

void bind(size_t* offset, const textureReference* ref, float* dev, const cudaChannelFormatDesc* desc, size_t n) {
  cudaBindTexture(offset, ref, dev, desc, n);
  // CHECK: {{^}}  hipBindTexture(offset, ref, dev, desc, n);
  // REPORT: {{.*}}deprecated-bind-texture.cu:[[@LINE-2]]:3: warning: 'cudaBindTexture' {{.*}}[deprecated-api]
}
// REPORT: 0 errors, 1 warnings
