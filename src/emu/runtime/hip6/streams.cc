// What HIP 6 adds to streams and events: more per-thread forms, a stream's device, event record
// flags. Compiled into libamdhip64.so.6 only; calls the core and, for the per-thread forms, the
// entry points of emu/runtime/hip/ they stand for.
#include "emu/runtime/core/graphs.h"

#include <cstring>

using namespace gpuport::emu::hip;

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
