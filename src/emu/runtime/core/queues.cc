// Streams, events and stream capture in the runtime's core: the one submission point every stream-
// ordered operation goes through (submit), the capture state machine (begin, join through events,
// end), the checks that refuse what a capture forbids, and the synchronization of streams, events
// and the device. Operations run to completion when issued unless captured.
#include "emu/runtime/core/graphs.h"

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

void finish_capture(Capture& c) {
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
    hipGraphNodeType operator()(const Copy1D&) const { return kCopy1DNodeType; }
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

hipError_t create_stream(hipStream_t* stream, unsigned int flags, int priority) {
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

hipError_t destroy_stream(hipStream_t stream) {
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

// Waiting for (or asking about) a stream's work: refused for a stream that captures (it would
// wait for work that is only being recorded) and for the legacy stream while a blocking stream
// captures, invalidating the capture.
static hipError_t check_wait(hipStream_t stream) {
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
  return hipSuccess;
}

hipError_t synchronize_stream(hipStream_t stream) {
  if (hipError_t e = check_wait(stream)) return e;
  release_pools_over_threshold();
  return hipSuccess;
}

hipError_t query_stream(hipStream_t stream) {
  return check_wait(stream);  // everything issued to it has completed
}

hipError_t synchronize_device() {
  if (hipError_t e = check_unsafe_call()) return e;
  release_pools_over_threshold();
  return hipSuccess;
}

hipError_t create_event(hipEvent_t* event, unsigned flags) {
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

// Waiting for an event recorded into a capture would wait for work that is only being recorded.
hipError_t check_not_captured(hipEvent_t event) {
  if (!is_live_event(event)) return ret(hipErrorInvalidHandle);
  if (is_active(event->state->capture)) return ret(hipErrorCapturedEvent);
  return hipSuccess;
}

hipError_t synchronize_event(hipEvent_t event) {
  {
    std::lock_guard lock(runtime().mutex);
    if (hipError_t e = check_not_captured(event)) return e;
  }
  release_pools_over_threshold();
  return hipSuccess;
}

hipError_t query_event(hipEvent_t event) {
  std::lock_guard lock(runtime().mutex);
  return check_not_captured(event);  // recorded ones have completed; unrecorded ones count as complete
}

hipError_t destroy_event(hipEvent_t event) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (!rt.events.erase(event)) return ret(hipErrorInvalidHandle);
  delete event;
  return hipSuccess;
}

hipError_t elapsed_time(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (!ms) return ret(hipErrorInvalidValue);
  std::lock_guard lock(runtime().mutex);
  if (hipError_t e = check_not_captured(start)) return e;
  if (hipError_t e = check_not_captured(stop)) return e;
  if ((start->flags | stop->flags) & hipEventDisableTiming) return ret(hipErrorInvalidHandle);
  if (!start->state->recorded || !stop->state->recorded) return ret(hipErrorInvalidHandle);
  *ms = std::chrono::duration<float, std::milli>(stop->state->when - start->state->when).count();
  return hipSuccess;
}

hipError_t begin_capture(hipStream_t stream, hipStreamCaptureMode mode) {
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

hipError_t end_capture(hipStream_t stream, hipGraph_t* graph) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  ihipStream_t* s = find_stream(stream);
  if (!graph || !s || s == &legacy_stream) return ret(hipErrorInvalidValue);
  if (!s->capture) return ret(hipErrorIllegalState);
  Capture& c = *s->capture;
  if (c.origin != s) return ret(hipErrorStreamCaptureUnmatched);
  if (c.mode != hipStreamCaptureModeRelaxed && c.thread != std::this_thread::get_id()) return ret(hipErrorStreamCaptureWrongThread);
  const std::shared_ptr<Capture> keep = s->capture;  // finish_capture drops the streams' references
  *graph = nullptr;
  if (c.invalidated) {
    finish_capture(c);
    destroy_graph(c.graph);
    return ret(hipErrorStreamCaptureInvalidated);
  }
  // Every stream that joined must have been joined back into this one: what it captured last
  // is something the origin stream's work now depends on.
  const auto joined = ancestors_of(s->capture_dependencies);
  for (const ihipStream_t* other : c.streams)
    for (const hipGraphNode* n : other->capture_dependencies)
      if (!joined.count(n)) {
        finish_capture(c);
        destroy_graph(c.graph);
        return ret(hipErrorStreamCaptureUnjoined);
      }
  finish_capture(c);
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

hipError_t capture_info(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id, hipGraph_t* graph,
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

hipError_t update_capture_dependencies(hipStream_t stream, hipGraphNode_t* nodes, size_t count, unsigned int flags) {
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

hipError_t exchange_capture_mode(hipStreamCaptureMode* mode) {
  if (!mode || *mode < hipStreamCaptureModeGlobal || *mode > hipStreamCaptureModeRelaxed) return ret(hipErrorInvalidValue);
  std::swap(*mode, thread_capture_mode);
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
