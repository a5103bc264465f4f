// A texture object whose array was freed: the emulator checks every texel fetch against the
// runtime's allocations, as it checks global accesses, and stops the kernel with the report.
#include "check.h"

__global__ void sample(hipTextureObject_t t, float* out) { out[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.5f, 0.5f); }

int main() {
  hipArray_t a;
  const hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  HIP_OK(hipMallocArray(&a, &desc, 32, 4));
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipTextureDesc tex{};
  hipTextureObject_t t;
  HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
  float* out;
  HIP_OK(hipMalloc(&out, 32 * sizeof(float)));
  sample<<<1, 32>>>(t, out);
  HIP_OK(hipDeviceSynchronize());
  std::printf("sampled a live array\n");
  HIP_OK(hipFreeArray(a));
  sample<<<1, 32>>>(t, out);
  HIP_OK(hipDeviceSynchronize());
  std::printf("not reached\n");
  return 0;
}
