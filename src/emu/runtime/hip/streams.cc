// Streams, events, host callbacks, stream memory operations and stream capture of the HIP runtime
// API: each entry point checks its arguments and hands the work to the core's queues
// (core/queues.h), through which every stream-ordered operation is submitted.
#include "emu/runtime/core/graphs.h"

#include <cstring>

using namespace gpuport::emu::hip;
using namespace gpuport::emu::hip;

// ---- streams ----------------------------------------------------------------------------------
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority) {
  return create_stream(stream, flags, priority);
}
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) { return hipStreamCreateWithPriority(stream, flags, 0); }
hipError_t hipStreamCreate(hipStream_t* stream) { return hipStreamCreateWithPriority(stream, 0, 0); }
hipError_t hipExtStreamCreateWithCUMask(hipStream_t* stream, uint32_t cu_mask_size, const uint32_t* cu_mask) {
  if (!stream || cu_mask_size == 0 || !cu_mask) return ret(hipErrorInvalidValue);
  if (hipError_t e = create_stream(stream, 0, 0)) return e;
  (*stream)->cu_mask.assign(cu_mask, cu_mask + cu_mask_size);
  return hipSuccess;
}
hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cu_mask_size, uint32_t* cu_mask) {
  if (!cu_mask || cu_mask_size == 0) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidHandle);
  // Every one of the 48 CUs unless the stream was made with a mask (bits past 48 are ignored).
  for (uint32_t i = 0; i < cu_mask_size; ++i) {
    uint32_t all = i == 0 ? 0xffffffffu : i == 1 ? 0xffffu : 0;
    cu_mask[i] = s->cu_mask.empty() ? all : (i < s->cu_mask.size() ? s->cu_mask[i] & all : 0);
  }
  return hipSuccess;
}
hipError_t hipStreamDestroy(hipStream_t stream) { return destroy_stream(stream); }
hipError_t hipStreamSynchronize(hipStream_t stream) { return synchronize_stream(stream); }
hipError_t hipStreamQuery(hipStream_t stream) { return query_stream(stream); }
hipError_t hipDeviceSynchronize() { return synchronize_device(); }
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  if (flags != 0) return ret(hipErrorInvalidValue);
  {
    std::lock_guard lock(runtime().mutex);
    if (!is_live_event(event)) return ret(hipErrorInvalidHandle);
  }
  return submit(stream, EventWait{event});
}
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags) {
  if (!flags) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidHandle);
  *flags = s->flags;
  return hipSuccess;
}
hipError_t hipStreamGetPriority(hipStream_t stream, int* priority) {
  if (!priority) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidHandle);
  *priority = s->priority;
  return hipSuccess;
}
int hipGetStreamDeviceId(hipStream_t stream) {
  std::lock_guard lock(runtime().mutex);
  return find_stream(stream) ? 0 : -1;
}

// ---- host functions ---------------------------------------------------------------------------
namespace {
struct StreamCallback {
  hipStreamCallback_t callback;
  hipStream_t stream;
  void* data;
};
void call_stream_callback(void* p) {
  const auto* c = static_cast<const StreamCallback*>(p);
  c->callback(c->stream, hipSuccess, c->data);
}
}  // namespace

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* data, unsigned int flags) {
  if (!callback || flags != 0) return ret(hipErrorInvalidValue);
  auto call = std::make_shared<StreamCallback>(StreamCallback{callback, stream, data});
  HostCall h;
  h.params = {call_stream_callback, call.get()};
  h.keep = call;
  return submit(stream, std::move(h));
}
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* data) {
  if (!fn) return ret(hipErrorInvalidValue);
  HostCall h;
  h.params = {fn, data};
  return submit(stream, std::move(h));
}

// ---- stream memory operations -------------------------------------------------------------------
namespace {
template <typename T>
hipError_t write_value(hipStream_t stream, void* ptr, T value, unsigned int flags) {
  if (!ptr || flags != 0) return ret(hipErrorInvalidValue);
  return submit(stream, Uncapturable{[ptr, value] {
                  __atomic_store_n(static_cast<T*>(ptr), value, __ATOMIC_SEQ_CST);
                  return hipSuccess;
                }});
}

template <typename T>
bool condition_holds(T current, T value, unsigned int flags, T mask) {
  current &= mask;
  switch (flags) {
    case hipStreamWaitValueGte: return current >= value;
    case hipStreamWaitValueEq: return current == value;
    case hipStreamWaitValueAnd: return (current & value) != 0;
    default: return static_cast<T>(~(current | (value & mask))) != 0;  // hipStreamWaitValueNor
  }
}

// The stream waits until the condition holds. Work issued before it has completed, so only
// another host thread can still change the value: wait for one (up to --timeout, or 10 s).
template <typename T>
hipError_t wait_value(hipStream_t stream, void* ptr, T value, unsigned int flags, T mask, const char* name) {
  if (!ptr || flags > hipStreamWaitValueNor) return ret(hipErrorInvalidValue);
  return submit(stream, Uncapturable{[=] {
                  auto& rt = runtime();
                  const double limit = rt.timeout > 0 ? rt.timeout : 10.0;
                  const auto start = std::chrono::steady_clock::now();
                  while (!condition_holds(__atomic_load_n(static_cast<T*>(ptr), __ATOMIC_SEQ_CST), value, flags, mask)) {
                    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > limit)
                      rt.fail(fmt::format("{}: the value at {} never met the condition within {} s (every operation runs when "
                                          "it is issued, so only another host thread could have changed it)",
                                          name, ptr, limit));
                    std::this_thread::yield();
                  }
                  return hipSuccess;
                }});
}
}  // namespace

hipError_t hipStreamWriteValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags) {
  return write_value(stream, ptr, value, flags);
}
hipError_t hipStreamWriteValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags) {
  return write_value(stream, ptr, value, flags);
}
hipError_t hipStreamWaitValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags, uint32_t mask) {
  return wait_value(stream, ptr, value, flags, mask, "hipStreamWaitValue32");
}
hipError_t hipStreamWaitValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags, uint64_t mask) {
  return wait_value(stream, ptr, value, flags, mask, "hipStreamWaitValue64");
}

// ---- events -----------------------------------------------------------------------------------
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) { return create_event(event, flags); }
hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, 0); }
hipError_t hipEventSynchronize(hipEvent_t event) { return synchronize_event(event); }
hipError_t hipEventQuery(hipEvent_t event) { return query_event(event); }
hipError_t hipEventDestroy(hipEvent_t event) { return destroy_event(event); }
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) { return elapsed_time(ms, start, stop); }
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  {
    std::lock_guard lock(runtime().mutex);
    if (!is_live_event(event)) return ret(hipErrorInvalidHandle);
  }
  return submit(stream, EventRecord{event});
}

// ---- stream capture ---------------------------------------------------------------------------
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) { return begin_capture(stream, mode); }
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) { return end_capture(stream, graph); }
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id, hipGraph_t* graph,
                                      const hipGraphNode_t** dependencies, size_t* count) {
  return capture_info(stream, status, id, graph, dependencies, count);
}
hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* nodes, size_t count, unsigned int flags) {
  return update_capture_dependencies(stream, nodes, count, flags);
}
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode) { return exchange_capture_mode(mode); }

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status) {
  return capture_info(stream, status, nullptr, nullptr, nullptr, nullptr);
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id) {
  return hipStreamGetCaptureInfo_v2(stream, status, id, nullptr, nullptr, nullptr);
}

// ---- per-thread default stream variants (programs built with -fgpu-default-stream=per-thread) ----
hipError_t hipStreamSynchronize_spt(hipStream_t stream) { return hipStreamSynchronize(per_thread(stream)); }
hipError_t hipStreamQuery_spt(hipStream_t stream) { return hipStreamQuery(per_thread(stream)); }
hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) { return hipStreamGetFlags(per_thread(stream), flags); }
hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) { return hipStreamGetPriority(per_thread(stream), priority); }
hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  return hipStreamWaitEvent(per_thread(stream), event, flags);
}
