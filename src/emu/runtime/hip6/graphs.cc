// What HIP 6 adds to graphs: instantiation parameters, uploads, per-node enabling, graph memory
// attributes and user objects. Compiled into libamdhip64.so.6 only; calls the core and, for the
// per-thread forms, the entry points of emu/runtime/hip/ they stand for.
#include "emu/runtime/core/graphs.h"

#include <cstring>

using namespace gpuport::emu::hip;

// ---- what HIP 6 adds: instantiation parameters, uploads, per-node enabling, user objects -------
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t* exec, hipGraph_t graph, hipGraphInstantiateParams* params) {
  if (!params) return ret(hipErrorInvalidValue);
  // A graph the device launches itself needs device-side launches, which gfx1100 code does not make.
  const unsigned long long known = hipGraphInstantiateFlagAutoFreeOnLaunch | hipGraphInstantiateFlagUpload |
                                   hipGraphInstantiateFlagUseNodePriority;
  params->errNode_out = nullptr;
  params->result_out = hipGraphInstantiateError;
  if (params->flags & ~known) return ret(hipErrorInvalidValue);
  GPUPORT_GRAPH_LOCK;
  if ((params->flags & hipGraphInstantiateFlagUpload) && !find_stream(params->uploadStream)) return ret(hipErrorInvalidValue);
  hipGraphNode_t error_node = nullptr;
  if (hipError_t e = instantiate(exec, graph, &error_node, nullptr, 0)) {
    params->errNode_out = error_node;
    if (error_node) params->result_out = hipGraphInstantiateInvalidStructure;
    return e;
  }
  (*exec)->flags = params->flags;
  params->result_out = hipGraphInstantiateSuccess;
  return hipSuccess;
}
hipError_t hipGraphExecGetFlags(hipGraphExec_t exec, unsigned long long* flags) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_exec(exec) || !flags) return ret(hipErrorInvalidValue);
  *flags = exec->flags;
  return hipSuccess;
}
// The emulated device reads the graph from host memory: there is nothing to upload.
hipError_t hipGraphUpload(hipGraphExec_t exec, hipStream_t stream) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_exec(exec) || !find_stream(stream)) return ret(hipErrorInvalidValue);
  return hipSuccess;
}
hipError_t hipGraphLaunch_spt(hipGraphExec_t exec, hipStream_t stream) { return hipGraphLaunch(exec, per_thread(stream)); }

hipError_t hipGraphNodeSetEnabled(hipGraphExec_t exec, hipGraphNode_t node, unsigned int enabled) {
  GPUPORT_GRAPH_LOCK;
  hipGraphNode* n = switchable_node(exec, node);
  if (!n) return ret(hipErrorInvalidValue);
  n->enabled = enabled != 0;
  return hipSuccess;
}
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t exec, hipGraphNode_t node, unsigned int* enabled) {
  GPUPORT_GRAPH_LOCK;
  const hipGraphNode* n = switchable_node(exec, node);
  if (!n || !enabled) return ret(hipErrorInvalidValue);
  *enabled = n->enabled;
  return hipSuccess;
}

// Graph memory (hipGraphAddMemAllocNode) is not implemented: none is ever in use, and the
// attributes say so.
hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attribute, void* value) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  if (!value || attribute < hipGraphMemAttrUsedMemCurrent || attribute > hipGraphMemAttrReservedMemHigh) return ret(hipErrorInvalidValue);
  *static_cast<std::uint64_t*>(value) = 0;
  return hipSuccess;
}
// Only the high watermarks may be set, and only to 0 (a reset).
hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attribute, void* value) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  if (!value || (attribute != hipGraphMemAttrUsedMemHigh && attribute != hipGraphMemAttrReservedMemHigh) ||
      *static_cast<const std::uint64_t*>(value) != 0)
    return ret(hipErrorInvalidValue);
  return hipSuccess;
}
hipError_t hipDeviceGraphMemTrim(int device) { return device == 0 ? hipSuccess : ret(hipErrorInvalidDevice); }

hipError_t hipUserObjectCreate(hipUserObject_t* out, void* ptr, hipHostFn_t destroy, unsigned int references, unsigned int flags) {
  if (!out || !destroy || references == 0 || flags != hipUserObjectNoDestructorSync) return ret(hipErrorInvalidValue);
  *out = create_user_object(ptr, destroy, references);
  return hipSuccess;
}
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count) { return retain_user_object(object, count); }
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count) { return release_user_object_references(object, count); }
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count, unsigned int flags) {
  if (flags != 0 && flags != hipGraphUserObjectMove) return ret(hipErrorInvalidValue);
  return graph_retain_user_object(graph, object, count, flags & hipGraphUserObjectMove);
}
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count) {
  return graph_release_user_object(graph, object, count);
}
