// Streams, events, host callbacks and stream capture of the emulator's HIP runtime: the one
// submission point every stream-ordered operation goes through (submit), the capture state
// machine (begin, join through events, end), the checks that refuse what a capture forbids, and
// the synchronization calls. Operations run to completion when issued unless captured.
#include "emu/runtime/graphs.h"

#include <cstring>

namespace gpuport::emu::hip {
namespace {

ihipStream_t legacy_stream;                    // the null stream
thread_local ihipStream_t per_thread_stream;  // hipStreamPerThread
thread_local hipStreamCaptureMode thread_capture_mode = hipStreamCaptureModeGlobal;
std::set<Capture*> active_captures;  // under the runtime's lock
unsigned long long next_capture_id = 1;

bool is_active(const std::shared_ptr<Capture>& c) { return c && active_captures.count(c.get()); }

// A capture that a stream ordered with the legacy stream takes part in (blocking streams
// synchronize with the legacy stream): work on the legacy stream would depend on it.
Capture* blocking_capture() {
  for (Capture* c : active_captures)
    for (const ihipStream_t* s : c->streams)
      if (!(s->flags & hipStreamNonBlocking)) return c;
  return nullptr;
}

void end_capture(Capture& c) {
  c.graph->capturing = false;
  for (ihipStream_t* s : c.streams) {
    s->capture.reset();
    s->capture_dependencies.clear();
  }
  c.streams.clear();
  active_captures.erase(&c);
}

void add_unique(std::vector<hipGraphNode*>& to, const std::vector<hipGraphNode*>& nodes) {
  for (hipGraphNode* n : nodes)
    if (std::find(to.begin(), to.end(), n) == to.end()) to.push_back(n);
}

// Everything `nodes` depend on, transitively, and the nodes themselves.
std::set<const hipGraphNode*> ancestors_of(const std::vector<hipGraphNode*>& nodes) {
  std::set<const hipGraphNode*> seen;
  std::vector<const hipGraphNode*> todo(nodes.begin(), nodes.end());
  while (!todo.empty()) {
    const hipGraphNode* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    todo.insert(todo.end(), n->dependencies.begin(), n->dependencies.end());
  }
  return seen;
}

void record(ihipEvent_t* event) {
  std::lock_guard lock(runtime().mutex);
  event->state->recorded = true;
  event->state->when = std::chrono::steady_clock::now();
  event->state->capture.reset();
  event->state->capture_nodes.clear();
}

}  // namespace

ihipStream_t* find_stream(hipStream_t stream) {
  if (stream == nullptr) return &legacy_stream;
  if (stream == hipStreamPerThread) return &per_thread_stream;
  return runtime().streams.count(stream) ? stream : nullptr;
}

bool is_live_event(hipEvent_t event) { return event && runtime().events.count(event); }

// By name: HIP 6 renumbered hipGraphNodeType (Kernel is 1 in HIP 5.2, 0 in 6.4) and has no
// Memcpy1D (a 1-D copy is a Memcpy node there).
hipGraphNodeType node_type(const Operation& op) {
  struct Type {
    hipGraphNodeType operator()(const KernelLaunch&) const { return hipGraphNodeTypeKernel; }
    hipGraphNodeType operator()(const hipMemcpy3DParms&) const { return hipGraphNodeTypeMemcpy; }
    hipGraphNodeType operator()(const hipMemsetParams&) const { return hipGraphNodeTypeMemset; }
    hipGraphNodeType operator()(const HostCall&) const { return hipGraphNodeTypeHost; }
    hipGraphNodeType operator()(const ChildGraph&) const { return hipGraphNodeTypeGraph; }
    hipGraphNodeType operator()(const EmptyNode&) const { return hipGraphNodeTypeEmpty; }
    hipGraphNodeType operator()(const EventWait&) const { return hipGraphNodeTypeWaitEvent; }
    hipGraphNodeType operator()(const EventRecord&) const { return hipGraphNodeTypeEventRecord; }
#if HIP_VERSION_MAJOR >= 6
    hipGraphNodeType operator()(const Copy1D&) const { return hipGraphNodeTypeMemcpy; }
#else
    hipGraphNodeType operator()(const Copy1D&) const { return hipGraphNodeTypeMemcpy1D; }
#endif
    hipGraphNodeType operator()(const CopyFromSymbol&) const { return hipGraphNodeTypeMemcpyFromSymbol; }
    hipGraphNodeType operator()(const CopyToSymbol&) const { return hipGraphNodeTypeMemcpyToSymbol; }
    hipGraphNodeType operator()(const Uncapturable&) const { return hipGraphNodeTypeCount; }  // never a node
  };
  return std::visit(Type{}, op);
}

hipError_t submit(hipStream_t stream, Operation op) {
  auto& rt = runtime();
  std::unique_lock lock(rt.mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidHandle);
  if (s == &legacy_stream) {
    if (Capture* c = blocking_capture()) {
      c->invalidated = true;
      return ret(hipErrorStreamCaptureImplicit);
    }
  }
  if (auto* r = std::get_if<EventRecord>(&op); r && s->capture) {
    // Not a node: the event stands for what the stream has captured so far.
    if (s->capture->invalidated) return ret(hipErrorStreamCaptureInvalidated);
    r->event->state->capture = s->capture;
    r->event->state->capture_nodes = s->capture_dependencies;
    return hipSuccess;
  }
  if (auto* w = std::get_if<EventWait>(&op)) {
    const auto& state = *w->event->state;
    if (is_active(state.capture)) {
      Capture& c = *state.capture;
      if (!s->capture) {  // the stream joins the capture (a fork)
        s->capture = state.capture;
        s->capture_dependencies = state.capture_nodes;
        c.streams.insert(s);
        return hipSuccess;
      }
      if (s->capture != state.capture) {
        s->capture->invalidated = true;
        return ret(hipErrorStreamCaptureMerge);
      }
      add_unique(s->capture_dependencies, state.capture_nodes);  // a join
      return hipSuccess;
    }
    if (s->capture && state.recorded) {
      // A dependency on work outside the capture cannot be part of the graph.
      s->capture->invalidated = true;
      return ret(hipErrorStreamCaptureIsolation);
    }
    return hipSuccess;  // what the event stands for has completed: every operation runs when issued
  }
  if (s->capture) {
    Capture& c = *s->capture;
    if (c.invalidated) return ret(hipErrorStreamCaptureInvalidated);
    if (std::holds_alternative<Uncapturable>(op)) {
      c.invalidated = true;
      return ret(hipErrorStreamCaptureUnsupported);
    }
    hipGraphNode* node = add_node(c.graph, std::move(op), s->capture_dependencies);
    s->capture_dependencies = {node};
    return hipSuccess;
  }
  lock.unlock();
  return run_operation(op);
}

hipError_t run_operation(const Operation& op) {
  struct Runner {
    hipError_t operator()(const KernelLaunch& k) const { return run_launch(k); }
    hipError_t operator()(const hipMemcpy3DParms& p) const { return run_copy(p); }
    hipError_t operator()(const hipMemsetParams& p) const { return run_memset(p); }
    hipError_t operator()(const HostCall& h) const {
      h.params.fn(h.params.userData);
      return hipSuccess;
    }
    hipError_t operator()(const ChildGraph& g) const { return run_graph(*g.graph); }
    hipError_t operator()(const EmptyNode&) const { return hipSuccess; }
    hipError_t operator()(const EventWait&) const { return hipSuccess; }
    hipError_t operator()(const EventRecord& r) const {
      record(r.event);
      return hipSuccess;
    }
    hipError_t operator()(const Copy1D& p) const { return run_copy(p); }
    hipError_t operator()(const CopyFromSymbol& p) const { return run_copy(p); }
    hipError_t operator()(const CopyToSymbol& p) const { return run_copy(p); }
    hipError_t operator()(const Uncapturable& u) const { return u.run(); }
  };
  return std::visit(Runner{}, op);
}

hipError_t check_unsafe_call() {
  const hipStreamCaptureMode mode = thread_capture_mode;
  if (mode == hipStreamCaptureModeRelaxed) return hipSuccess;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  bool prohibited = false;
  for (Capture* c : active_captures) {
    if (c->mode == hipStreamCaptureModeRelaxed) continue;
    const bool own = c->thread == std::this_thread::get_id();
    if (own || (mode == hipStreamCaptureModeGlobal && c->mode == hipStreamCaptureModeGlobal)) {
      c->invalidated = true;
      prohibited = true;
    }
  }
  return prohibited ? ret(hipErrorStreamCaptureUnsupported) : hipSuccess;
}

}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

// ---- streams ----------------------------------------------------------------------------------
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority) {
  if (!stream || (flags & ~unsigned(hipStreamNonBlocking))) return ret(hipErrorInvalidValue);
  auto* s = new ihipStream_t;
  s->flags = flags;
  s->priority = std::clamp(priority, -1, 0);  // hipDeviceGetStreamPriorityRange: greatest -1, least 0
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.streams.insert(s);
  *stream = s;
  return hipSuccess;
}
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags) { return hipStreamCreateWithPriority(stream, flags, 0); }
hipError_t hipStreamCreate(hipStream_t* stream) { return hipStreamCreateWithPriority(stream, 0, 0); }
hipError_t hipExtStreamCreateWithCUMask(hipStream_t* stream, uint32_t cu_mask_size, const uint32_t* cu_mask) {
  if (!stream || cu_mask_size == 0 || !cu_mask) return ret(hipErrorInvalidValue);
  if (hipError_t e = hipStreamCreateWithPriority(stream, 0, 0)) return e;
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
hipError_t hipStreamDestroy(hipStream_t stream) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (!stream || stream == hipStreamPerThread || !rt.streams.count(stream)) return ret(hipErrorInvalidHandle);
  if (stream->capture) {
    stream->capture->invalidated = true;
    return ret(hipErrorStreamCaptureUnsupported);
  }
  rt.streams.erase(stream);
  delete stream;
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t stream) {
  {
    std::lock_guard lock(runtime().mutex);
    ihipStream_t* s = find_stream(stream);
    if (!s) return ret(hipErrorInvalidHandle);
    if (s->capture) {  // would wait for work that is only being recorded
      s->capture->invalidated = true;
      return ret(hipErrorStreamCaptureUnsupported);
    }
    if (s == &legacy_stream)
      if (Capture* c = blocking_capture()) {
        c->invalidated = true;
        return ret(hipErrorStreamCaptureImplicit);
      }
  }
  release_pools_over_threshold();
  return hipSuccess;
}
hipError_t hipStreamQuery(hipStream_t stream) {
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidHandle);
  if (s->capture) {
    s->capture->invalidated = true;
    return ret(hipErrorStreamCaptureUnsupported);
  }
  if (s == &legacy_stream)
    if (Capture* c = blocking_capture()) {
      c->invalidated = true;
      return ret(hipErrorStreamCaptureImplicit);
    }
  return hipSuccess;  // everything issued to it has completed
}
hipError_t hipDeviceSynchronize() {
  if (hipError_t e = check_unsafe_call()) return e;
  release_pools_over_threshold();
  return hipSuccess;
}
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
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
  constexpr unsigned supported = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess |
                                 hipEventReleaseToDevice | hipEventReleaseToSystem;
  constexpr unsigned release_flags = hipEventReleaseToDevice | hipEventReleaseToSystem;
  if (!event || (flags & ~supported) || (flags & release_flags) == release_flags) return ret(hipErrorInvalidValue);
  auto* e = new ihipEvent_t;
  e->flags = flags;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.events.insert(e);
  *event = e;
  return hipSuccess;
}
hipError_t hipEventCreate(hipEvent_t* event) { return hipEventCreateWithFlags(event, 0); }
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  {
    std::lock_guard lock(runtime().mutex);
    if (!is_live_event(event)) return ret(hipErrorInvalidHandle);
  }
  return submit(stream, EventRecord{event});
}
// Waiting for an event recorded into a capture would wait for work that is only being recorded.
static hipError_t check_not_captured(hipEvent_t event) {
  if (!is_live_event(event)) return ret(hipErrorInvalidHandle);
  if (is_active(event->state->capture)) return ret(hipErrorCapturedEvent);
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t event) {
  {
    std::lock_guard lock(runtime().mutex);
    if (hipError_t e = check_not_captured(event)) return e;
  }
  release_pools_over_threshold();
  return hipSuccess;
}
hipError_t hipEventQuery(hipEvent_t event) {
  std::lock_guard lock(runtime().mutex);
  return check_not_captured(event);  // recorded ones have completed; unrecorded ones count as complete
}
hipError_t hipEventDestroy(hipEvent_t event) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (!rt.events.erase(event)) return ret(hipErrorInvalidHandle);
  delete event;
  return hipSuccess;
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (!ms) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  if (hipError_t e = check_not_captured(start)) return e;
  if (hipError_t e = check_not_captured(stop)) return e;
  if ((start->flags | stop->flags) & hipEventDisableTiming) return ret(hipErrorInvalidHandle);
  if (!start->state->recorded || !stop->state->recorded) return ret(hipErrorInvalidHandle);
  *ms = std::chrono::duration<float, std::milli>(stop->state->when - start->state->when).count();
  return hipSuccess;
}

// ---- stream capture ---------------------------------------------------------------------------
hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidValue);
  if (s == &legacy_stream) return ret(hipErrorStreamCaptureUnsupported);  // the legacy stream cannot capture
  if (mode < hipStreamCaptureModeGlobal || mode > hipStreamCaptureModeRelaxed) return ret(hipErrorInvalidValue);
  if (s->capture) return ret(hipErrorIllegalState);
  auto c = std::make_shared<Capture>();
  c->id = next_capture_id++;
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->origin = s;
  c->graph = new ihipGraph;
  c->graph->capturing = true;
  c->streams.insert(s);
  s->capture = c;
  s->capture_dependencies.clear();
  active_captures.insert(c.get());
  return hipSuccess;
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  ihipStream_t* s = find_stream(stream);
  if (!graph || !s || s == &legacy_stream) return ret(hipErrorInvalidValue);
  if (!s->capture) return ret(hipErrorIllegalState);
  Capture& c = *s->capture;
  if (c.origin != s) return ret(hipErrorStreamCaptureUnmatched);
  if (c.mode != hipStreamCaptureModeRelaxed && c.thread != std::this_thread::get_id()) return ret(hipErrorStreamCaptureWrongThread);
  const std::shared_ptr<Capture> keep = s->capture;  // end_capture drops the streams' references
  *graph = nullptr;
  if (c.invalidated) {
    end_capture(c);
    destroy_graph(c.graph);
    return ret(hipErrorStreamCaptureInvalidated);
  }
  // Every stream that joined must have been joined back into this one: what it captured last
  // is something the origin stream's work now depends on.
  const auto joined = ancestors_of(s->capture_dependencies);
  for (const ihipStream_t* other : c.streams)
    for (const hipGraphNode* n : other->capture_dependencies)
      if (!joined.count(n)) {
        end_capture(c);
        destroy_graph(c.graph);
        return ret(hipErrorStreamCaptureUnjoined);
      }
  end_capture(c);
  *graph = c.graph;
  return hipSuccess;
}

// The status of a stream's capture; the legacy stream reports the implicit dependency a blocking
// stream's capture would give it.
static hipError_t capture_status(ihipStream_t* s, hipStreamCaptureStatus* status) {
  if (s == &legacy_stream && blocking_capture()) return ret(hipErrorStreamCaptureImplicit);
  *status = !s->capture ? hipStreamCaptureStatusNone
            : s->capture->invalidated ? hipStreamCaptureStatusInvalidated
                                      : hipStreamCaptureStatusActive;
  return hipSuccess;
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status) {
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!status || !s) return ret(hipErrorInvalidValue);
  return capture_status(s, status);
}

hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id, hipGraph_t* graph,
                                      const hipGraphNode_t** dependencies, size_t* count) {
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!status || !s) return ret(hipErrorInvalidValue);
  if (hipError_t e = capture_status(s, status)) return e;
  if (*status == hipStreamCaptureStatusNone) return hipSuccess;
  if (id) *id = s->capture->id;
  if (graph) *graph = s->capture->graph;
  if (dependencies) *dependencies = s->capture_dependencies.data();
  if (count) *count = s->capture_dependencies.size();
  return hipSuccess;
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id) {
  return hipStreamGetCaptureInfo_v2(stream, status, id, nullptr, nullptr, nullptr);
}

hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* nodes, size_t count, unsigned int flags) {
  std::lock_guard lock(runtime().mutex);
  ihipStream_t* s = find_stream(stream);
  if (!s) return ret(hipErrorInvalidValue);
  if (!s->capture) return ret(hipErrorIllegalState);
  if ((count && !nodes) || (flags != hipStreamAddCaptureDependencies && flags != hipStreamSetCaptureDependencies))
    return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode*> given(nodes, nodes + count);
  for (hipGraphNode* n : given)
    if (!is_live_node(n) || n->graph != s->capture->graph) return ret(hipErrorInvalidValue);
  if (flags == hipStreamSetCaptureDependencies) s->capture_dependencies.clear();
  add_unique(s->capture_dependencies, given);
  return hipSuccess;
}

hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode) {
  if (!mode || *mode < hipStreamCaptureModeGlobal || *mode > hipStreamCaptureModeRelaxed) return ret(hipErrorInvalidValue);
  std::swap(*mode, thread_capture_mode);
  return hipSuccess;
}

// ---- per-thread default stream variants (programs built with -fgpu-default-stream=per-thread) ----
hipError_t hipStreamSynchronize_spt(hipStream_t stream) { return hipStreamSynchronize(per_thread(stream)); }
hipError_t hipStreamQuery_spt(hipStream_t stream) { return hipStreamQuery(per_thread(stream)); }
hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags) { return hipStreamGetFlags(per_thread(stream), flags); }
hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority) { return hipStreamGetPriority(per_thread(stream), priority); }
hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  return hipStreamWaitEvent(per_thread(stream), event, flags);
}

#if HIP_VERSION_MAJOR >= 6
// ---- what HIP 6 adds: more per-thread variants, a stream's device, event record flags ----------
hipError_t hipStreamAddCallback_spt(hipStream_t stream, hipStreamCallback_t callback, void* data, unsigned int flags) {
  return hipStreamAddCallback(per_thread(stream), callback, data, flags);
}
hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn, void* data) { return hipLaunchHostFunc(per_thread(stream), fn, data); }
hipError_t hipStreamBeginCapture_spt(hipStream_t stream, hipStreamCaptureMode mode) {
  return hipStreamBeginCapture(per_thread(stream), mode);
}
hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t* graph) { return hipStreamEndCapture(per_thread(stream), graph); }
hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id) {
  return hipStreamGetCaptureInfo(per_thread(stream), status, id);
}
hipError_t hipStreamGetCaptureInfo_v2_spt(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id, hipGraph_t* graph,
                                          const hipGraphNode_t** dependencies, size_t* count) {
  return hipStreamGetCaptureInfo_v2(per_thread(stream), status, id, graph, dependencies, count);
}
hipError_t hipStreamIsCapturing_spt(hipStream_t stream, hipStreamCaptureStatus* status) {
  return hipStreamIsCapturing(per_thread(stream), status);
}
hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream) { return hipEventRecord(event, per_thread(stream)); }
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device) {
  if (!device) return ret(hipErrorInvalidValue);
  {
    std::lock_guard lock(runtime().mutex);
    if (!find_stream(stream)) return ret(hipErrorContextIsDestroyed);
  }
  *device = 0;  // the one emulated device
  return hipSuccess;
}
// hipEventRecordDefault (0) and hipEventRecordExternal, which only matters inside a capture on
// devices that order work across graphs; recorded the same way here.
hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream, unsigned int flags) {
  if (flags != hipEventRecordDefault && flags != hipEventRecordExternal) return ret(hipErrorInvalidValue);
  return hipEventRecord(event, stream);
}
#endif
