// A launch, in a template, of a kernel the file never declares (nvflip's FLIP.h launches
// kernelsRGB2YCxCz, whose kernel is named kernelsRGBToYCxCz, in a member of its tensor class
// template that nothing calls): nvcc looks the name up where the template is instantiated, so a
// template never instantiated builds; clang looks it up where the launch is written and stops.
// The translation declares, before the template, a kernel of that name that no call matches,
// and says so: the program builds with gpuport nvcc and runs on the emulator, and instantiating
// the member still fails, naming the kernel. Launches of declared kernels, and launches outside
// templates (which nvcc rejects too), are left as written.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: grep -v -e CHECK -e RUN -e REPORT -e EMU -e INST %t.cu | FileCheck %s
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o scaled
// RUN: %gpuport run %t.run/scaled | FileCheck --check-prefix=EMU %s
// RUN: not %gpuport nvcc -DINSTANTIATE_RENAMED %s -o %t.run/inst 2> %t.inst
// RUN: FileCheck --check-prefix=INST %s < %t.inst
// RUN: %gpuport translate %S/Inputs/undeclared-kernel-left.cu 2>&1 | FileCheck --check-prefix=LEFT %s
// REPORT: undeclared-kernel-in-template.cu:[[@LINE+27]]:20: warning: kernel 'scaleOld' is launched in a template but declared nowhere in this file: nvcc looks the name up where the template is instantiated (a template never instantiated builds), clang where the launch is written; a declaration that no call matches is added before the template, so that clang too waits for an instantiation, which fails [undeclared-kernel]
// REPORT-NOT: [undeclared-kernel]
// CHECK: template <class gpuport_T> struct gpuport_undeclared_scaleOld; template <class gpuport_T, class... gpuport_A> __global__ void scaleOld(gpuport_undeclared_scaleOld<gpuport_T>, gpuport_A...); template <class T>
// CHECK: void twice() { scale<<<1, n>>>(this->data, this->n); }
// CHECK-NEXT: void renamed() { scaleOld <<<1, this->n >>> (this->data, this->n); }
// EMU: scaled: 2 4 6 8: PASS
// INST: error: no matching function for call to 'scaleOld'
// INST: note: candidate template ignored: could not match 'gpuport_undeclared_scaleOld<gpuport_T>'
// LEFT-NOT: [undeclared-kernel]
#include <cstdio>
#include <cuda_runtime.h>

namespace img {
struct px {
  float v;
};

__global__ void scale(px* p, int n) {
  if (threadIdx.x < n) p[threadIdx.x].v *= 2;
}

template <class T>
class tensor {
 public:
  T* data;
  int n;
  void twice() { scale<<<1, n>>>(this->data, this->n); }
  void renamed() { scaleOld << <1, this->n >> > (this->data, this->n); }
};
}  // namespace img

int main() {
  img::tensor<img::px> t;
  t.n = 4;
  cudaMalloc(&t.data, 4 * sizeof(img::px));
  img::px h[4] = {{1}, {2}, {3}, {4}};
  cudaMemcpy(t.data, h, sizeof h, cudaMemcpyHostToDevice);
  t.twice();
#ifdef INSTANTIATE_RENAMED
  t.renamed();
#endif
  cudaMemcpy(h, t.data, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = h[0].v == 2 && h[1].v == 4 && h[2].v == 6 && h[3].v == 8;
  std::printf("scaled: %g %g %g %g: %s\n", h[0].v, h[1].v, h[2].v, h[3].v, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
