// Streams, events and stream capture of the runtime's core. Every stream-ordered
// operation (kernel launch, copy, memset, host function, event record and wait, stream-ordered
// allocation) is an Operation handed to submit(): it runs at once (everything completes in issue
// order, which keeps the ordering streams promise) or, while its stream captures, becomes a node
// of the capture's graph that depends on what the stream captured before it.
#pragma once

#include <functional>
#include <thread>
#include <variant>

#include "emu/runtime/core/runtime.h"

struct ihipGraph;
struct hipGraphNode;

namespace gpuport::emu::hip {

// A capture sequence: begun on one stream, joined by streams that wait on its events, ended
// on the stream that began it.
struct Capture {
  unsigned long long id = 0;
  hipStreamCaptureMode mode = hipStreamCaptureModeGlobal;
  std::thread::id thread;  // the thread that began it (thread-local and global modes)
  ihipStream_t* origin = nullptr;
  ihipGraph* graph = nullptr;  // the graph being built; handed to the program at the end
  bool invalidated = false;    // an illegal call during the capture: ending it fails
  std::set<ihipStream_t*> streams;
};

// The state an event shares with the events opened from its IPC handle.
struct EventState {
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
  // Recorded into a capture: what a stream that waits on the event then depends on.
  std::shared_ptr<Capture> capture;
  std::vector<hipGraphNode*> capture_nodes;
};

}  // namespace gpuport::emu::hip

struct ihipStream_t {
  unsigned int flags = 0;
  int priority = 0;
  std::vector<std::uint32_t> cu_mask;  // hipExtStreamCreateWithCUMask (kept, not used: one queue)
  std::shared_ptr<gpuport::emu::hip::Capture> capture;  // the capture this stream takes part in
  std::vector<hipGraphNode*> capture_dependencies;     // what its next captured node depends on
};
struct ihipEvent_t {
  unsigned int flags = 0;
  std::shared_ptr<gpuport::emu::hip::EventState> state = std::make_shared<gpuport::emu::hip::EventState>();
  std::uint64_t ipc_id = 0;  // nonzero once an IPC handle names it
};

namespace gpuport::emu::hip {

// The forms of a copy that graphs keep apart (hipGraphNodeGetType tells them apart).
struct Copy1D {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t count = 0;
  hipMemcpyKind kind = hipMemcpyDefault;
};
struct CopyFromSymbol {
  void* dst = nullptr;
  const void* symbol = nullptr;
  size_t count = 0, offset = 0;
  hipMemcpyKind kind = hipMemcpyDeviceToHost;
};
struct CopyToSymbol {
  const void* symbol = nullptr;
  const void* src = nullptr;
  size_t count = 0, offset = 0;
  hipMemcpyKind kind = hipMemcpyHostToDevice;
};
struct HostCall {
  hipHostNodeParams params{};
  std::shared_ptr<void> keep;  // what params.userData points to when the runtime made it
};
struct ChildGraph {
  std::shared_ptr<ihipGraph> graph;  // the node's own graph (a clone of what it was given)
};
struct EmptyNode {};
struct EventRecord {
  hipEvent_t event = nullptr;
};
struct EventWait {
  hipEvent_t event = nullptr;
};
// Work that is stream-ordered but has no graph node in HIP 5.2 (stream-ordered allocation,
// stream memory operations): it runs when issued and refuses to be captured.
struct Uncapturable {
  std::function<hipError_t()> run;
};

// One stream-ordered operation; node_type() names the hipGraphNodeType of each alternative.
using Operation = std::variant<KernelLaunch, hipMemcpy3DParms, hipMemsetParams, HostCall, ChildGraph, EmptyNode, EventWait,
                               EventRecord, Copy1D, CopyFromSymbol, CopyToSymbol, Uncapturable>;
hipGraphNodeType node_type(const Operation& op);

// Runs `op` now, or appends it to the capture of the stream (hipStreamPerThread and null
// included). Refuses what a capture forbids: work on the legacy stream while a blocking stream
// captures (hipErrorStreamCaptureImplicit), uncapturable work, waits that cross captures.
hipError_t submit(hipStream_t stream, Operation op);

// The stream a _spt entry point (programs built with -fgpu-default-stream=per-thread) means: the
// calling thread's default stream for the null stream.
inline hipStream_t per_thread(hipStream_t stream) { return stream ? stream : hipStreamPerThread; }
// Runs an operation (submit's "now", and a graph launch's every node).
hipError_t run_operation(const Operation& op);

// The stream a handle names (null: the legacy stream; hipStreamPerThread: the calling thread's
// stream), or null when it names none. Called with the runtime's lock held.
ihipStream_t* find_stream(hipStream_t stream);
bool is_live_event(hipEvent_t event);  // lock held

// Streams and events: made, destroyed, synchronized and queried (all work completes when it is
// issued, so these check what a capture forbids and release pools over their threshold).
hipError_t create_stream(hipStream_t* stream, unsigned int flags, int priority);
hipError_t destroy_stream(hipStream_t stream);
hipError_t synchronize_stream(hipStream_t stream);
hipError_t query_stream(hipStream_t stream);
hipError_t synchronize_device();
hipError_t create_event(hipEvent_t* event, unsigned flags);
hipError_t destroy_event(hipEvent_t event);
hipError_t synchronize_event(hipEvent_t event);
hipError_t query_event(hipEvent_t event);
hipError_t elapsed_time(float* ms, hipEvent_t start, hipEvent_t stop);
// hipErrorInvalidHandle for an event that is not live, hipErrorCapturedEvent for one recorded
// into an active capture (waiting for it would wait for work only being recorded). Lock held.
hipError_t check_not_captured(hipEvent_t event);

// Stream capture: begun on a stream, joined by streams that wait on its events, ended on the
// stream that began it (hipStreamBeginCapture, hipStreamEndCapture); the status, id, graph and
// current dependencies of a stream's capture (any of the outputs but `status` may be null); the
// dependencies its next node gets (hipStreamAddCaptureDependencies or ...Set...); the calling
// thread's capture mode, exchanged.
hipError_t begin_capture(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t end_capture(hipStream_t stream, hipGraph_t* graph);
hipError_t capture_info(hipStream_t stream, hipStreamCaptureStatus* status, unsigned long long* id, hipGraph_t* graph,
                        const hipGraphNode_t** dependencies, size_t* count);
hipError_t update_capture_dependencies(hipStream_t stream, hipGraphNode_t* nodes, size_t count, unsigned int flags);
hipError_t exchange_capture_mode(hipStreamCaptureMode* mode);

// hipErrorStreamCaptureUnsupported, invalidating the captures concerned, when the calling
// thread may not make a potentially unsafe call (synchronous copies, hipMalloc, device
// synchronize) under its capture mode (hipThreadExchangeStreamCaptureMode); hipSuccess otherwise.
hipError_t check_unsafe_call();

// Copies and memsets over linear memory (core/copies.cc): checked when issued (or
// when a graph node is made), run in order by run_operation. hipMemcpy3DParms with an array
// operand is refused with hipErrorNotSupported (arrays belong to the texture family).
// `call` names the HIP function in the report of a range that is not the program's memory.
hipError_t check_copy(const hipMemcpy3DParms& p, const char* call = "a copy");
hipError_t check_copy(const Copy1D& p, const char* call = "a copy");
hipError_t check_copy(const CopyFromSymbol& p, const char* call = "a copy");
hipError_t check_copy(const CopyToSymbol& p, const char* call = "a copy");
hipError_t check_memset(const hipMemsetParams& p, const char* call = "a memset");
// A copy's or memset's operand [p, p + count): inside the runtime's block it lies in, else memory
// the emulator knows or host memory mapped with the access needed. Otherwise (a wild pointer,
// which would crash the program inside the runtime) it reports the call, the range and the
// nearest allocation as a finding and returns hipErrorInvalidValue.
hipError_t check_range(const char* call, const char* role, const void* p, size_t count, bool write);
hipError_t run_copy(const hipMemcpy3DParms& p);
hipError_t run_copy(const Copy1D& p);
hipError_t run_copy(const CopyFromSymbol& p);
hipError_t run_copy(const CopyToSymbol& p);
hipError_t run_memset(const hipMemsetParams& p);

// The memory pools release what they hold above their release threshold when the program
// synchronizes (core/pools.cc).
void release_pools_over_threshold();

}  // namespace gpuport::emu::hip
