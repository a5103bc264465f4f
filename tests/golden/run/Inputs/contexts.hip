// Contexts in the emulator's HIP runtime: the primary context, contexts made by hipCtxCreate and
// the calling thread's context stack (create, push, pop, set, get), a destroyed context that
// another thread still has current, flags, API version, cache and LDS bank configurations,
// synchronize with a kernel launched under a created context, peer access on one device, and
// the errors of HIP 5.2's documentation and runtime for misuse.
#include <hip/hip_runtime.h>

#include <future>
#include <thread>
#include <vector>

#include "hip_check.h"

#pragma clang diagnostic ignored "-Wdeprecated-declarations"  // HIP 5.2 marks the context API deprecated

__global__ void square(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i * i;
}

int main() {
  // The primary context is current while no context was pushed; its flags are the device's.
  EXPECT_OK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync));
  hipCtx_t primary = nullptr, current = nullptr, retained = nullptr;
  EXPECT_OK(hipCtxGetCurrent(&primary));
  EXPECT(primary != nullptr);
  EXPECT_OK(hipDevicePrimaryCtxRetain(&retained, 0));
  EXPECT(retained == primary);
  unsigned int flags = 0;
  int active = 0;
  EXPECT_OK(hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT(flags == hipDeviceScheduleBlockingSync && active == 1);
  EXPECT_OK(hipCtxGetFlags(&flags));
  EXPECT(flags == hipDeviceScheduleBlockingSync);
  EXPECT_ERROR(hipDevicePrimaryCtxSetFlags(0, hipDeviceScheduleSpin), hipErrorContextAlreadyInUse);
  EXPECT_ERROR(hipDevicePrimaryCtxGetState(1, &flags, &active), hipErrorInvalidDevice);
  EXPECT_ERROR(hipDevicePrimaryCtxRetain(&retained, 1), hipErrorInvalidDevice);
  EXPECT_ERROR(hipDevicePrimaryCtxRetain(nullptr, 0), hipErrorInvalidValue);
  EXPECT_OK(hipDevicePrimaryCtxRelease(0));
  EXPECT_OK(hipDevicePrimaryCtxReset(0));
  EXPECT_ERROR(hipDevicePrimaryCtxRelease(2), hipErrorInvalidDevice);
  EXPECT_ERROR(hipCtxPopCurrent(&current), hipErrorInvalidContext);  // nothing pushed

  // Created contexts and the stack: create pushes, pop returns the top, set replaces it.
  hipCtx_t a = nullptr, b = nullptr;
  EXPECT_OK(hipCtxCreate(&a, hipDeviceScheduleYield, 0));
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == a && a != primary);
  EXPECT_OK(hipCtxGetFlags(&flags));
  EXPECT(flags == hipDeviceScheduleYield);
  hipDevice_t device = -1;
  EXPECT_OK(hipCtxGetDevice(&device));
  EXPECT(device == 0);
  int version = 0;
  EXPECT_OK(hipCtxGetApiVersion(a, &version));
  EXPECT(version == 4);
  EXPECT_OK(hipCtxCreate(&b, hipDeviceMapHost, 0));
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == b && b != a);
  EXPECT_OK(hipCtxPopCurrent(&current));
  EXPECT(current == b);
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == a);
  EXPECT_OK(hipCtxPushCurrent(b));
  EXPECT_OK(hipCtxSetCurrent(a));  // replaces b on top: the stack is a, a
  EXPECT_OK(hipCtxPopCurrent(&current));
  EXPECT(current == a);
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == a);
  EXPECT_OK(hipCtxSetCurrent(nullptr));  // unbinds: the primary context is current again
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == primary);
  EXPECT_OK(hipCtxPushCurrent(a));

  // Configurations: accepted, and read back as the fixed ones of an AMD device.
  hipFuncCache_t cache = hipFuncCachePreferL1;
  EXPECT_OK(hipCtxSetCacheConfig(hipFuncCachePreferShared));
  EXPECT_OK(hipCtxGetCacheConfig(&cache));
  EXPECT(cache == hipFuncCachePreferNone);
  EXPECT_ERROR(hipCtxSetCacheConfig(static_cast<hipFuncCache_t>(9)), hipErrorInvalidValue);
  hipSharedMemConfig banks = hipSharedMemBankSizeDefault;
  EXPECT_OK(hipCtxSetSharedMemConfig(hipSharedMemBankSizeEightByte));
  EXPECT_OK(hipCtxGetSharedMemConfig(&banks));
  EXPECT(banks == hipSharedMemBankSizeFourByte);
  EXPECT_ERROR(hipCtxSetSharedMemConfig(static_cast<hipSharedMemConfig>(5)), hipErrorInvalidValue);

  // Work under a created context runs on the one device; synchronize waits for it.
  const int n = 300;
  int* d = nullptr;
  EXPECT_OK(hipMalloc(&d, n * sizeof(int)));
  square<<<(n + 127) / 128, 128>>>(d, n);
  EXPECT_OK(hipCtxSynchronize());
  std::vector<int> squares(n);
  EXPECT_OK(hipMemcpy(squares.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += squares[i] != i * i;
  EXPECT(wrong == 0);
  EXPECT_OK(hipFree(d));

  // One device: a context's device is no peer of itself.
  EXPECT_ERROR(hipCtxEnablePeerAccess(b, 0), hipErrorInvalidDevice);
  EXPECT_ERROR(hipCtxEnablePeerAccess(b, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxEnablePeerAccess(nullptr, 0), hipErrorInvalidContext);
  EXPECT_ERROR(hipCtxDisablePeerAccess(b), hipErrorPeerAccessNotEnabled);

  // Destroying the calling thread's current context pops it; another thread that has it
  // current is told it is destroyed until it pops it.
  std::promise<void> pushed, destroyed;
  std::thread other([&] {
    hipDevice_t dev = -1;
    hipCtx_t mine = nullptr;
    EXPECT_OK(hipCtxGetCurrent(&mine));
    EXPECT(mine == primary);  // each thread has its own stack
    EXPECT_OK(hipCtxPushCurrent(b));
    pushed.set_value();
    destroyed.get_future().wait();
    EXPECT_ERROR(hipCtxGetDevice(&dev), hipErrorContextIsDestroyed);
    EXPECT_ERROR(hipCtxSynchronize(), hipErrorContextIsDestroyed);
    EXPECT_OK(hipCtxPopCurrent(&mine));
    EXPECT(mine == b);
    EXPECT_OK(hipCtxGetDevice(&dev));
    EXPECT(dev == 0);
  });
  pushed.get_future().wait();
  EXPECT_OK(hipCtxDestroy(b));  // current to the other thread only
  destroyed.set_value();
  other.join();
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == a);
  EXPECT_OK(hipCtxPushCurrent(a));  // the stack is a, a
  EXPECT_OK(hipCtxDestroy(a));      // the calling thread's current context: popped
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == a);  // the stack still held a beneath it
  EXPECT_ERROR(hipCtxGetDevice(&device), hipErrorContextIsDestroyed);
  EXPECT_OK(hipCtxPopCurrent(&current));
  EXPECT_OK(hipCtxGetCurrent(&current));
  EXPECT(current == primary);

  // Misuse.
  EXPECT_ERROR(hipCtxDestroy(a), hipErrorContextIsDestroyed);
  EXPECT_ERROR(hipCtxDestroy(nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxPushCurrent(b), hipErrorInvalidContext);  // destroyed
  EXPECT_ERROR(hipCtxPushCurrent(nullptr), hipErrorInvalidContext);
  EXPECT_ERROR(hipCtxSetCurrent(reinterpret_cast<hipCtx_t>(&version)), hipErrorInvalidContext);
  EXPECT_ERROR(hipCtxGetApiVersion(b, &version), hipErrorContextIsDestroyed);
  EXPECT_ERROR(hipCtxCreate(&a, 0, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxCreate(&a, 0x100, 0), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxCreate(nullptr, 0, 0), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxGetCurrent(nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxGetDevice(nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipCtxGetFlags(nullptr), hipErrorInvalidValue);
  EXPECT_OK(hipCtxDestroy(primary));  // the primary context is released, never destroyed
  EXPECT_OK(hipCtxGetDevice(&device));
  return finish("contexts");
}
