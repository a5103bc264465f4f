// IPC handles within one process: a memory handle opened here maps to the memory it was made
// from (a kernel's writes through either pointer are seen through the other), an event handle
// opens to an event sharing the original's state; handles from another process are refused.
#include <hip/hip_runtime.h>

#include <unistd.h>

#include <cstring>

#include "hip_check.h"

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

// The handle as if another process had made it: the runtime keeps its pid after an 8-byte tag.
template <typename Handle>
static Handle from_other_process(Handle h) {
  uint64_t pid;
  std::memcpy(&pid, h.reserved + 8, sizeof pid);
  pid += 1;
  std::memcpy(h.reserved + 8, &pid, sizeof pid);
  return h;
}

int main() {
  const int n = 256;
  int* d;
  EXPECT_OK(hipMalloc(&d, n * sizeof(int)));
  hipIpcMemHandle_t h, inner;
  EXPECT_OK(hipIpcGetMemHandle(&h, d));
  EXPECT_OK(hipIpcGetMemHandle(&inner, d + 16));
  void* opened = nullptr;
  EXPECT_OK(hipIpcOpenMemHandle(&opened, h, hipIpcMemLazyEnablePeerAccess));
  EXPECT(opened == d);
  hipLaunchKernelGGL(fill, dim3(1), dim3(n), 0, 0, static_cast<int*>(opened), 1000, n);
  int got[n];
  EXPECT_OK(hipMemcpy(got, d, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[0] == 1000 && got[n - 1] == 1000 + n - 1);
  hipLaunchKernelGGL(fill, dim3(1), dim3(n), 0, 0, d, -5, n);
  EXPECT_OK(hipMemcpy(got, opened, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[3] == -2);
  void* opened_inner = nullptr;
  EXPECT_OK(hipIpcOpenMemHandle(&opened_inner, inner, hipIpcMemLazyEnablePeerAccess));
  EXPECT(opened_inner == d + 16);
  EXPECT_ERROR(hipIpcOpenMemHandle(&opened, h, hipIpcMemLazyEnablePeerAccess ^ 2), hipErrorInvalidValue);
  EXPECT_OK(hipIpcCloseMemHandle(opened));
  EXPECT_OK(hipIpcCloseMemHandle(opened_inner));
  EXPECT_ERROR(hipIpcCloseMemHandle(opened), hipErrorInvalidHandle);

  int on_stack = 0;
  int* host;
  EXPECT_OK(hipHostMalloc(&host, 64, 0));
  EXPECT_ERROR(hipIpcGetMemHandle(&h, &on_stack), hipErrorInvalidHandle);
  EXPECT_ERROR(hipIpcGetMemHandle(&h, host), hipErrorInvalidHandle);
  EXPECT_ERROR(hipIpcGetMemHandle(nullptr, d), hipErrorInvalidValue);
  hipIpcMemHandle_t garbage;
  std::memset(&garbage, 0x5a, sizeof garbage);
  EXPECT_ERROR(hipIpcOpenMemHandle(&opened, garbage, hipIpcMemLazyEnablePeerAccess), hipErrorInvalidHandle);
  EXPECT_ERROR(hipIpcOpenMemHandle(&opened, from_other_process(h), hipIpcMemLazyEnablePeerAccess), hipErrorMapFailed);
  EXPECT_OK(hipFree(d));
  EXPECT_ERROR(hipIpcOpenMemHandle(&opened, h, hipIpcMemLazyEnablePeerAccess), hipErrorInvalidHandle);  // its memory is gone

  // Events: only interprocess events without timing have handles.
  hipEvent_t timed, shared, opened_event;
  EXPECT_OK(hipEventCreate(&timed));
  EXPECT_OK(hipEventCreateWithFlags(&shared, hipEventInterprocess | hipEventDisableTiming));
  hipIpcEventHandle_t eh;
  EXPECT_ERROR(hipIpcGetEventHandle(&eh, timed), hipErrorInvalidConfiguration);
  EXPECT_OK(hipIpcGetEventHandle(&eh, shared));
  EXPECT_OK(hipIpcOpenEventHandle(&opened_event, eh));
  EXPECT(opened_event != shared);
  hipStream_t s;
  EXPECT_OK(hipStreamCreate(&s));
  // Recorded in a capture through the original, the opened event is a captured one too.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipEventRecord(shared, s));
  EXPECT_ERROR(hipEventQuery(opened_event), hipErrorCapturedEvent);
  hipGraph_t g;
  EXPECT_OK(hipStreamEndCapture(s, &g));
  EXPECT_OK(hipGraphDestroy(g));
  EXPECT_OK(hipEventRecord(opened_event, s));
  EXPECT_OK(hipStreamWaitEvent(s, shared, 0));
  EXPECT_OK(hipEventSynchronize(shared));
  EXPECT_OK(hipEventQuery(opened_event));
  float ms;
  EXPECT_ERROR(hipEventElapsedTime(&ms, opened_event, opened_event), hipErrorInvalidHandle);  // no timing
  hipIpcEventHandle_t bad;
  std::memset(&bad, 0, sizeof bad);
  EXPECT_ERROR(hipIpcOpenEventHandle(&opened_event, bad), hipErrorInvalidValue);
  hipEvent_t unused;
  EXPECT_ERROR(hipIpcOpenEventHandle(&unused, from_other_process(eh)), hipErrorInvalidContext);
  EXPECT_OK(hipEventDestroy(opened_event));
  EXPECT_OK(hipEventDestroy(shared));
  EXPECT_ERROR(hipIpcOpenEventHandle(&unused, eh), hipErrorInvalidValue);  // every event sharing it is gone
  EXPECT_OK(hipEventDestroy(timed));
  EXPECT_OK(hipStreamDestroy(s));
  EXPECT_OK(hipHostFree(host));
  return finish("ipc");
}
