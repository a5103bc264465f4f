// What a hostile but fair program asks of the runtime: launches beyond what HIP allows, a grid
// of 2^31 - 1 short workgroups, copies and memsets to an address no allocation holds, an
// allocation of SIZE_MAX bytes, a kernel that never ends (for the signal tests), and a code object
// to load. The mode is the first argument.
#include "hip_check.h"

#include <cstdint>
#include <cstring>
#include <string_view>

__global__ void touch(int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = 1;
}

__global__ void spin(volatile int* flag) {
  while (*flag == 0) {
  }
}

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  int* d = nullptr;
  if (hipMalloc(&d, 16) != hipSuccess) return 2;
  if (mode == "limits") {
    // Work-items per dimension (blocks times block size) must fit 32 bits.
    EXPECT_ERROR(hipLaunchKernel(reinterpret_cast<const void*>(touch), dim3(4194305), dim3(1024), nullptr, 0, nullptr),
                 hipErrorInvalidConfiguration);
    void* args[] = {&d};
    EXPECT_ERROR(hipLaunchKernel(reinterpret_cast<const void*>(touch), dim3(1, 4194304), dim3(1, 1024), args, 0, nullptr),
                 hipErrorInvalidConfiguration);
    EXPECT_ERROR(hipLaunchKernel(reinterpret_cast<const void*>(touch), dim3(1), dim3(2048), args, 0, nullptr),
                 hipErrorInvalidConfiguration);
    // Out of memory, not a wrapped size: nothing is allocated.
    void* huge = reinterpret_cast<void*>(1);
    EXPECT_ERROR(hipMalloc(&huge, SIZE_MAX), hipErrorOutOfMemory);
    EXPECT(huge == nullptr);
    EXPECT_ERROR(hipMalloc(&huge, SIZE_MAX - 4095), hipErrorOutOfMemory);
    EXPECT_ERROR(hipMalloc(&huge, std::size_t(1) << 40), hipErrorOutOfMemory);
    std::size_t pitch = 0;
    EXPECT_ERROR(hipMallocPitch(&huge, &pitch, SIZE_MAX / 2, 4), hipErrorOutOfMemory);
    EXPECT_ERROR(hipMalloc3D(nullptr, make_hipExtent(1, 1, 1)), hipErrorInvalidValue);
    // Copies and memsets to and from memory that is not the program's: an error, not a crash.
    int host[4] = {1, 2, 3, 4};
    void* wild = reinterpret_cast<void*>(0x1000);
    EXPECT_ERROR(hipMemcpy(wild, host, sizeof host, hipMemcpyHostToDevice), hipErrorInvalidValue);
    EXPECT_ERROR(hipMemcpy(host, wild, sizeof host, hipMemcpyDeviceToHost), hipErrorInvalidValue);
    EXPECT_ERROR(hipMemcpyAsync(wild, d, 16, hipMemcpyDeviceToDevice, nullptr), hipErrorInvalidValue);
    EXPECT_ERROR(hipMemset(wild, 0, 16), hipErrorInvalidValue);
    EXPECT_ERROR(hipMemcpy(d, host, 32, hipMemcpyHostToDevice), hipErrorInvalidValue);  // past its 16-byte block
    // Read-only host memory as a destination: not writable.
    static const int table[4] = {5, 6, 7, 8};
    EXPECT_ERROR(hipMemcpy(const_cast<int*>(table), d, 16, hipMemcpyDeviceToHost), hipErrorInvalidValue);
    // The program's own memory still works, whatever the kind says.
    EXPECT_OK(hipMemcpy(d, host, sizeof host, hipMemcpyHostToDevice));
    int back[4] = {};
    EXPECT_OK(hipMemcpy(back, d, sizeof back, hipMemcpyDefault));
    EXPECT(std::memcmp(back, host, sizeof host) == 0);
    EXPECT_OK(hipMemcpy(back, table, sizeof back, hipMemcpyHostToHost));
    EXPECT(back[0] == 5);
    return finish("hostile limits");
  }
  if (mode == "many-groups") {
    // 2^31 - 1 workgroups of one thread each: allowed, and bounded by --timeout as a whole.
    hipLaunchKernelGGL(touch, dim3(2147483647), dim3(1), 0, nullptr, d);
    std::printf("launched: %s\n", hipGetErrorName(hipGetLastError()));
    std::printf("finished: %s\n", hipGetErrorName(hipDeviceSynchronize()));
    return 0;
  }
  if (mode == "huge-grid") {
    // 65536^3 workgroups of 1024 threads: within HIP's limits (each dimension's work-items fit
    // 32 bits), so accepted; --timeout ends it.
    hipLaunchKernelGGL(touch, dim3(65536, 65536, 65536), dim3(1024), 0, nullptr, d);
    std::printf("launched: %s\n", hipGetErrorName(hipGetLastError()));
    std::printf("finished: %s\n", hipGetErrorName(hipDeviceSynchronize()));
    return 0;
  }
  if (mode == "module" && argc > 2) {
    // A code object a user hands over: loaded, or refused with HIP's error.
    hipModule_t module = nullptr;
    std::printf("hipModuleLoad(%s): %s\n", argv[2], hipGetErrorName(hipModuleLoad(&module, argv[2])));
    return 0;
  }
  if (mode == "once") {
    hipLaunchKernelGGL(touch, dim3(1), dim3(32), 0, nullptr, d);
    int value = 0;
    EXPECT_OK(hipMemcpy(&value, d, sizeof value, hipMemcpyDeviceToHost));
    EXPECT(value == 1);
    return finish("hostile once");
  }
  if (mode == "spin") {
    // Never ends: the flag is never set. Says so first, for the signal tests.
    EXPECT_OK(hipMemset(d, 0, 16));
    std::printf("spinning\n");
    std::fflush(stdout);
    hipLaunchKernelGGL(spin, dim3(1), dim3(32), 0, nullptr, d);
    return hipDeviceSynchronize() == hipSuccess ? 3 : 4;
  }
  std::fprintf(stderr, "usage: hostile limits|many-groups|huge-grid|once|spin|module PATH\n");
  return 2;
}
