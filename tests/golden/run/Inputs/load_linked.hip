// Loads a code object linked from separately assembled objects (as rocBLAS's Tensile libraries
// are: one AMDGPU metadata note per object) with hipModuleLoad and runs both of its kernels.
#include <hip/hip_runtime.h>

#include <cstdio>

#include "hip_check.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::printf("usage: %s CODE_OBJECT\n", argv[0]);
    return 2;
  }
  hipModule_t module = nullptr;
  EXPECT_OK(hipModuleLoad(&module, argv[1]));
  hipFunction_t add_one = nullptr, times_two = nullptr;
  EXPECT_OK(hipModuleGetFunction(&add_one, module, "add_one"));
  EXPECT_OK(hipModuleGetFunction(&times_two, module, "times_two"));
  int* d = nullptr;
  int h[32];
  for (int i = 0; i < 32; ++i) h[i] = i;
  EXPECT_OK(hipMalloc(&d, sizeof h));
  EXPECT_OK(hipMemcpy(d, h, sizeof h, hipMemcpyHostToDevice));
  void* args[] = {&d};
  EXPECT_OK(hipModuleLaunchKernel(add_one, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  EXPECT_OK(hipModuleLaunchKernel(times_two, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
  EXPECT_OK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < 32; ++i) ok = ok && h[i] == 2 * (i + 1);
  EXPECT(ok);
  EXPECT_OK(hipFree(d));
  EXPECT_OK(hipModuleUnload(module));
  return finish("load_linked");
}
