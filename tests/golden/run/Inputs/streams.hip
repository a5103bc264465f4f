// Streams, events, host functions, stream memory operations and stream capture, checked against
// the HIP API's definition: what a capture records instead of running, how streams fork and join
// a capture through events, and the errors for what a capture forbids.
#include <hip/hip_runtime.h>

#include <cstring>
#include <thread>
#include <vector>

#include "hip_check.h"

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

static std::vector<int> order;
static void callback(hipStream_t, hipError_t status, void* value) {
  if (status == hipSuccess) order.push_back(static_cast<int>(reinterpret_cast<intptr_t>(value)));
}
static size_t graph_nodes(hipGraph_t g) {
  size_t n = 0;
  return hipGraphGetNodes(g, nullptr, &n) == hipSuccess ? n : 0;
}
static size_t graph_edges(hipGraph_t g) {
  size_t n = 0;
  return hipGraphGetEdges(g, nullptr, nullptr, &n) == hipSuccess ? n : 0;
}

static void streams_and_events() {
  hipStream_t s, nb;
  EXPECT_OK(hipStreamCreateWithPriority(&s, 0, -1));
  EXPECT_OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  unsigned flags = 7;
  int priority = 7;
  EXPECT_OK(hipStreamGetFlags(nb, &flags));
  EXPECT(flags == hipStreamNonBlocking);
  EXPECT_OK(hipStreamGetPriority(s, &priority));
  EXPECT(priority == -1);
  EXPECT_OK(hipStreamGetFlags(hipStreamPerThread, &flags));
  EXPECT(flags == 0);
  EXPECT_ERROR(hipStreamCreateWithFlags(&s, 0x10), hipErrorInvalidValue);
  EXPECT_ERROR(hipStreamGetFlags(s, nullptr), hipErrorInvalidValue);
  EXPECT(hipGetStreamDeviceId(s) == 0);

  hipStream_t masked;
  const uint32_t mask[2] = {0x0000ffffu, 0};
  uint32_t got[2] = {0, 0};
  EXPECT_OK(hipExtStreamCreateWithCUMask(&masked, 2, mask));
  EXPECT_OK(hipExtStreamGetCUMask(masked, 2, got));
  EXPECT(got[0] == 0x0000ffffu && got[1] == 0);
  EXPECT_ERROR(hipExtStreamCreateWithCUMask(&masked, 0, mask), hipErrorInvalidValue);
  EXPECT_OK(hipStreamDestroy(masked));
  EXPECT_ERROR(hipStreamDestroy(masked), hipErrorInvalidHandle);

  // Events: elapsed time needs two recorded timing events.
  hipEvent_t a, b, untimed, never;
  EXPECT_OK(hipEventCreate(&a));
  EXPECT_OK(hipEventCreate(&b));
  EXPECT_OK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  EXPECT_OK(hipEventCreate(&never));
  EXPECT_ERROR(hipEventCreateWithFlags(&a, 0x100), hipErrorInvalidValue);
  EXPECT_OK(hipEventRecord(a, s));
  EXPECT_OK(hipEventRecord(b, s));
  EXPECT_OK(hipEventRecord(untimed, s));
  EXPECT_OK(hipEventSynchronize(b));
  EXPECT_OK(hipEventQuery(b));
  EXPECT_OK(hipEventQuery(never));  // never recorded: counts as complete
  float ms = -1;
  EXPECT_OK(hipEventElapsedTime(&ms, a, b));
  EXPECT(ms >= 0);
  EXPECT_ERROR(hipEventElapsedTime(&ms, a, untimed), hipErrorInvalidHandle);
  EXPECT_ERROR(hipEventElapsedTime(&ms, a, never), hipErrorInvalidHandle);
  EXPECT_ERROR(hipEventElapsedTime(nullptr, a, b), hipErrorInvalidValue);
  EXPECT_ERROR(hipStreamWaitEvent(s, a, 1), hipErrorInvalidValue);
  EXPECT_OK(hipStreamWaitEvent(s, a, 0));
  EXPECT_OK(hipStreamWaitEvent(nb, never, 0));

  // Host callbacks (hipLaunchHostFunc is not in HIP 5.2's exports) run in stream order, after what was issued before them.
  order.clear();
  EXPECT_OK(hipStreamAddCallback(s, callback, reinterpret_cast<void*>(1), 0));
  EXPECT_OK(hipStreamAddCallback(s, callback, reinterpret_cast<void*>(2), 0));
  EXPECT_OK(hipStreamAddCallback(nullptr, callback, reinterpret_cast<void*>(3), 0));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT((order == std::vector<int>{1, 2, 3}));
  EXPECT_ERROR(hipStreamAddCallback(s, callback, nullptr, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipStreamAddCallback(s, nullptr, nullptr, 0), hipErrorInvalidValue);

  // Stream memory operations: writes land in order; waits whose condition holds pass.
  uint32_t* word;
  uint64_t* dword;
  EXPECT_OK(hipHostMalloc(&word, sizeof(uint32_t), 0));
  EXPECT_OK(hipHostMalloc(&dword, sizeof(uint64_t), 0));
  int attribute = 0;
  EXPECT_OK(hipDeviceGetAttribute(&attribute, hipDeviceAttributeCanUseStreamWaitValue, 0));
  EXPECT(attribute == 1);
  EXPECT_OK(hipStreamWriteValue32(s, word, 0x5a, 0));
  EXPECT_OK(hipStreamWriteValue64(s, dword, 0x123456789ull, 0));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(*word == 0x5a && *dword == 0x123456789ull);
  EXPECT_OK(hipStreamWaitValue32(s, word, 0x50, hipStreamWaitValueGte, 0xffffffffu));
  EXPECT_OK(hipStreamWaitValue32(s, word, 0x0a, hipStreamWaitValueEq, 0x0f));    // 0x5a & 0x0f == 0x0a
  EXPECT_OK(hipStreamWaitValue32(s, word, 0x02, hipStreamWaitValueAnd, 0xffffffffu));
  EXPECT_OK(hipStreamWaitValue64(s, dword, 0x1, hipStreamWaitValueNor, 0xffull));  // ~(0x89 | 0x1) & 0xff != 0
  EXPECT_ERROR(hipStreamWaitValue32(s, word, 0, 9, 0xffffffffu), hipErrorInvalidValue);
  EXPECT_ERROR(hipStreamWriteValue32(s, nullptr, 1, 0), hipErrorInvalidValue);
  // A value another host thread sets later: the wait holds the stream until then.
  *word = 0;
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    __atomic_store_n(word, 7u, __ATOMIC_SEQ_CST);
  });
  EXPECT_OK(hipStreamWaitValue32(s, word, 7, hipStreamWaitValueEq, 0xffffffffu));
  writer.join();

  for (hipEvent_t e : {a, b, untimed, never}) EXPECT_OK(hipEventDestroy(e));
  EXPECT_ERROR(hipEventDestroy(a), hipErrorInvalidHandle);
  EXPECT_ERROR(hipEventRecord(a, s), hipErrorInvalidHandle);
  EXPECT_OK(hipHostFree(word));
  EXPECT_OK(hipHostFree(dword));
  EXPECT_OK(hipStreamDestroy(s));
  EXPECT_OK(hipStreamDestroy(nb));
}

static void capture(float* d, int n) {
  hipStream_t s, s2, nb;
  EXPECT_OK(hipStreamCreate(&s));
  EXPECT_OK(hipStreamCreate(&s2));
  EXPECT_OK(hipStreamCreateWithFlags(&nb, hipStreamNonBlocking));
  std::vector<float> host(n, 1.0f), back(n, 0.0f);
  EXPECT_OK(hipMemcpy(d, host.data(), n * sizeof(float), hipMemcpyHostToDevice));

  EXPECT_ERROR(hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal), hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(hipStreamBeginCapture(s, static_cast<hipStreamCaptureMode>(7)), hipErrorInvalidValue);
  hipStreamCaptureStatus status;
  EXPECT_OK(hipStreamIsCapturing(s, &status));
  EXPECT(status == hipStreamCaptureStatusNone);
  hipGraph_t graph = nullptr;
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorIllegalState);

  // Captured work is recorded, not run: the device data stays as it was until the graph runs.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal), hipErrorIllegalState);
  EXPECT_OK(hipStreamIsCapturing(s, &status));
  EXPECT(status == hipStreamCaptureStatusActive);
  unsigned long long id1 = 0, id2 = 0;
  EXPECT_OK(hipStreamGetCaptureInfo(s, &status, &id1));
  EXPECT(status == hipStreamCaptureStatusActive && id1 != 0);
  (void)hipGetLastError();  // clears what the failing calls above left
  hipLaunchKernelGGL(scale, dim3((n + 63) / 64), dim3(64), 0, s, d, 3.0f, n);
  EXPECT_OK(hipGetLastError());
  order.clear();
  EXPECT_OK(hipStreamAddCallback(s, callback, reinterpret_cast<void*>(9), 0));
  hipGraph_t capturing = nullptr;
  const hipGraphNode_t* deps = nullptr;
  size_t ndeps = 0;
  EXPECT_OK(hipStreamGetCaptureInfo_v2(s, &status, &id2, &capturing, &deps, &ndeps));
  EXPECT(id2 == id1 && capturing != nullptr && ndeps == 1);
  EXPECT_ERROR(hipGraphDestroy(capturing), hipErrorInvalidValue);  // the capture is building it
  EXPECT_ERROR(hipGraphDestroyNode(deps[0]), hipErrorInvalidValue);
  hipGraphNodeType type;
  EXPECT(ndeps == 1 && hipGraphNodeGetType(deps[0], &type) == hipSuccess && type == hipGraphNodeTypeHost);
  EXPECT_OK(hipMemcpyAsync(back.data(), d, n * sizeof(float), hipMemcpyDeviceToHost, s));
  EXPECT(order.empty() && back[0] == 0.0f);
  EXPECT_OK(hipStreamEndCapture(s, &graph));
  EXPECT(graph != nullptr && graph_nodes(graph) == 3 && graph_edges(graph) == 2);
  EXPECT_OK(hipStreamIsCapturing(s, &status));
  EXPECT(status == hipStreamCaptureStatusNone);
  hipGraphExec_t exec;
  EXPECT_OK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(back[0] == 3.0f && back[n - 1] == 3.0f && order == std::vector<int>{9});
  EXPECT_OK(hipGraphExecDestroy(exec));
  EXPECT_OK(hipGraphDestroy(graph));

  // Fork and join through events: s2 joins the capture by waiting on an event of s, and is
  // joined back when s waits on an event recorded after s2's work.
  hipEvent_t fork, join;
  EXPECT_OK(hipEventCreateWithFlags(&fork, hipEventDisableTiming));
  EXPECT_OK(hipEventCreateWithFlags(&join, hipEventDisableTiming));
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipMemsetAsync(d, 0, n * sizeof(float), s));
  EXPECT_OK(hipEventRecord(fork, s));
  EXPECT_ERROR(hipEventQuery(fork), hipErrorCapturedEvent);
  EXPECT_OK(hipStreamWaitEvent(s2, fork, 0));
  EXPECT_OK(hipStreamIsCapturing(s2, &status));
  EXPECT(status == hipStreamCaptureStatusActive);
  EXPECT_ERROR(hipStreamEndCapture(s2, &graph), hipErrorStreamCaptureUnmatched);
  hipLaunchKernelGGL(scale, dim3((n + 63) / 64), dim3(64), 0, s2, d, 2.0f, n);
  EXPECT_OK(hipStreamAddCallback(s, callback, reinterpret_cast<void*>(5), 0));
  EXPECT_OK(hipEventRecord(join, s2));
  EXPECT_OK(hipStreamWaitEvent(s, join, 0));
  EXPECT_OK(hipStreamAddCallback(s, callback, reinterpret_cast<void*>(6), 0));
  EXPECT_OK(hipStreamEndCapture(s, &graph));
  // memset -> {kernel, host 5} -> host 6: four nodes, four edges.
  EXPECT(graph_nodes(graph) == 4 && graph_edges(graph) == 4);
  EXPECT_OK(hipStreamIsCapturing(s2, &status));
  EXPECT(status == hipStreamCaptureStatusNone);
  EXPECT_OK(hipGraphDestroy(graph));

  // A forked stream that is not joined back.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipEventRecord(fork, s));
  EXPECT_OK(hipStreamWaitEvent(s2, fork, 0));
  hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, s2, d, 2.0f, n);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureUnjoined);
  EXPECT(graph == nullptr);

  // Illegal calls during a global-mode capture invalidate it.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipMemcpy(back.data(), d, sizeof(float), hipMemcpyDeviceToHost), hipErrorStreamCaptureUnsupported);
  EXPECT_OK(hipStreamIsCapturing(s, &status));
  EXPECT(status == hipStreamCaptureStatusInvalidated);
  EXPECT_ERROR(hipMemsetAsync(d, 0, 4, s), hipErrorStreamCaptureInvalidated);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  EXPECT(graph == nullptr);
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipDeviceSynchronize(), hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  void* p = nullptr;
  EXPECT_ERROR(hipMalloc(&p, 64), hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipStreamSynchronize(s), hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipMallocAsync(&p, 64, s), hipErrorStreamCaptureUnsupported);  // no allocation node in HIP 5.2
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);

  // The legacy stream synchronizes with blocking streams: work on it while one captures.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeRelaxed));
  EXPECT_ERROR(hipMemsetAsync(d, 0, 4, nullptr), hipErrorStreamCaptureImplicit);
  EXPECT_ERROR(hipStreamIsCapturing(nullptr, &status), hipErrorStreamCaptureImplicit);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  // ... but not with a non-blocking one, and relaxed mode allows potentially unsafe calls.
  EXPECT_OK(hipStreamBeginCapture(nb, hipStreamCaptureModeRelaxed));
  EXPECT_OK(hipMemsetAsync(d, 0, 4, nullptr));
  EXPECT_OK(hipMalloc(&p, 64));
  EXPECT_OK(hipFree(p));
  EXPECT_OK(hipMemsetAsync(d, 0, 4, nb));
  EXPECT_OK(hipStreamEndCapture(nb, &graph));
  EXPECT(graph_nodes(graph) == 1);
  EXPECT_OK(hipGraphDestroy(graph));

  // The thread's own mode decides: relaxed allows unsafe calls during a global capture.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  hipStreamCaptureMode mode = hipStreamCaptureModeRelaxed;
  EXPECT_OK(hipThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == hipStreamCaptureModeGlobal);
  EXPECT_OK(hipMalloc(&p, 64));
  EXPECT_OK(hipFree(p));
  EXPECT_OK(hipThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == hipStreamCaptureModeRelaxed);
  mode = static_cast<hipStreamCaptureMode>(5);
  EXPECT_ERROR(hipThreadExchangeStreamCaptureMode(&mode), hipErrorInvalidValue);
  // Another thread in global mode may not either; in thread-local mode it may.
  hipError_t other_global = hipSuccess, other_local = hipSuccess;
  std::thread([&] {
    void* q = nullptr;
    other_global = hipMalloc(&q, 16);
    hipStreamCaptureMode m = hipStreamCaptureModeThreadLocal;
    (void)hipThreadExchangeStreamCaptureMode(&m);
    other_local = hipMalloc(&q, 16);
    if (other_local == hipSuccess) (void)hipFree(q);
  }).join();
  EXPECT_ERROR(other_global, hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(other_local, hipSuccess);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  // A thread-local capture, ended from another thread.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeThreadLocal));
  hipError_t wrong_thread = hipSuccess;
  std::thread([&] { wrong_thread = hipStreamEndCapture(s, &graph); }).join();
  EXPECT_ERROR(wrong_thread, hipErrorStreamCaptureWrongThread);
  EXPECT_OK(hipStreamEndCapture(s, &graph));
  EXPECT(graph_nodes(graph) == 0);
  EXPECT_OK(hipGraphDestroy(graph));

  // Waits across capture boundaries.
  hipEvent_t outside;
  EXPECT_OK(hipEventCreate(&outside));
  EXPECT_OK(hipEventRecord(outside, s2));
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipStreamWaitEvent(s, outside, 0), hipErrorStreamCaptureIsolation);
  EXPECT_ERROR(hipStreamEndCapture(s, &graph), hipErrorStreamCaptureInvalidated);
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipStreamBeginCapture(s2, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipEventRecord(fork, s));
  EXPECT_ERROR(hipStreamWaitEvent(s2, fork, 0), hipErrorStreamCaptureMerge);
  EXPECT_OK(hipStreamEndCapture(s, &graph));
  EXPECT_OK(hipGraphDestroy(graph));
  EXPECT_ERROR(hipStreamEndCapture(s2, &graph), hipErrorStreamCaptureInvalidated);

  // Dependencies set by hand: the next node depends on what the stream is told.
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipMemsetAsync(d, 0, 4, s));
  EXPECT_OK(hipStreamGetCaptureInfo_v2(s, &status, nullptr, &capturing, &deps, &ndeps));
  const hipGraphNode_t first = deps[0];
  EXPECT_OK(hipMemsetAsync(d, 1, 4, s));
  hipGraphNode_t set[1] = {first};
  EXPECT_OK(hipStreamUpdateCaptureDependencies(s, set, 1, hipStreamSetCaptureDependencies));
  EXPECT_ERROR(hipStreamUpdateCaptureDependencies(s, set, 1, 7), hipErrorInvalidValue);
  EXPECT_OK(hipMemsetAsync(d, 2, 4, s));  // depends on the first memset only
  EXPECT_OK(hipStreamEndCapture(s, &graph));
  size_t dependents = 0;
  EXPECT_OK(hipGraphNodeGetDependentNodes(first, nullptr, &dependents));
  EXPECT(graph_nodes(graph) == 3 && dependents == 2);
  EXPECT_ERROR(hipStreamUpdateCaptureDependencies(s, set, 1, hipStreamAddCaptureDependencies), hipErrorIllegalState);
  EXPECT_OK(hipGraphDestroy(graph));

  // The per-thread default stream captures too.
  EXPECT_OK(hipStreamBeginCapture(hipStreamPerThread, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipMemsetAsync(d, 0, 4, hipStreamPerThread));
  EXPECT_OK(hipStreamEndCapture(hipStreamPerThread, &graph));
  EXPECT(graph_nodes(graph) == 1);
  EXPECT_OK(hipGraphDestroy(graph));

  for (hipEvent_t e : {fork, join, outside}) EXPECT_OK(hipEventDestroy(e));
  for (hipStream_t t : {s, s2, nb}) EXPECT_OK(hipStreamDestroy(t));
}

int main() {
  const int n = 300;
  float* d;
  EXPECT_OK(hipMalloc(&d, n * sizeof(float)));
  streams_and_events();
  capture(d, n);
  EXPECT_OK(hipStreamSynchronize_spt(nullptr));
  EXPECT_OK(hipFree(d));
  return finish("streams");
}
