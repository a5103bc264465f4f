// HIP graphs of the runtime API: creation, nodes of every kind with their parameter getters and
// setters, edges, cloning, instantiation, launch and updates of an instantiated graph. The graphs
// themselves, their order and their launch are the core's (core/graphs.h); these entry points
// check and convert what the program passes.
#include "emu/runtime/core/graphs.h"

#include <cstring>

using namespace gpuport::emu::hip;


// ---- graphs -----------------------------------------------------------------------------------
hipError_t hipGraphCreate(hipGraph_t* graph, unsigned int flags) { return create_graph(graph, flags); }
hipError_t hipGraphDestroy(hipGraph_t graph) { return destroy_program_graph(graph); }
hipError_t hipGraphClone(hipGraph_t* clone, hipGraph_t graph) { return clone_program_graph(clone, graph); }
hipError_t hipGraphNodeFindInClone(hipGraphNode_t* node, hipGraphNode_t original, hipGraph_t clone) {
  return find_in_clone(node, original, clone);
}

// ---- nodes ------------------------------------------------------------------------------------
hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                 const hipKernelNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  KernelLaunch k;
  if (hipError_t e = kernel_operation(params, k)) return e;
  return add_checked_node(node, graph, deps, count, std::move(k));
}
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  const auto* k = node_operation<KernelLaunch>(node);
  if (!k || !params) return ret(hipErrorInvalidValue);
  // kernelParams point into the node's own copy of the arguments.
  node->kernel_param_pointers.clear();
  for (std::uint32_t offset : k->offsets)
    node->kernel_param_pointers.push_back(const_cast<std::uint8_t*>(k->arguments.data()) + offset);
  params->func = const_cast<void*>(k->function);
  params->gridDim = k->grid;
  params->blockDim = k->block;
  params->sharedMemBytes = k->shared;
  params->kernelParams = node->kernel_param_pointers.data();
  params->extra = nullptr;
  return hipSuccess;
}
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  auto* k = node_operation<KernelLaunch>(node);
  if (!k) return ret(hipErrorInvalidValue);
  KernelLaunch updated;
  if (hipError_t e = kernel_operation(params, updated)) return e;
  *k = std::move(updated);
  return hipSuccess;
}
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, const hipKernelNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  auto* k = exec_operation<KernelLaunch>(exec, node);
  if (!k) return ret(hipErrorInvalidValue);
  KernelLaunch updated;
  if (hipError_t e = kernel_operation(params, updated)) return e;
  if (updated.function != k->function) return ret(hipErrorInvalidValue);  // an instantiated node keeps its kernel
  *k = std::move(updated);
  return hipSuccess;
}

hipError_t hipGraphAddMemcpyNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                 const hipMemcpy3DParms* params) {
  GPUPORT_GRAPH_LOCK;
  if (!params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*params, __func__)) return e;
  return add_checked_node(node, graph, deps, count, *params);
}
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms* params) {
  GPUPORT_GRAPH_LOCK;
  if (!is_memcpy_node(node) || !params) return ret(hipErrorInvalidValue);
  if (const auto* p = std::get_if<hipMemcpy3DParms>(&node->operation)) {
    *params = *p;
    return hipSuccess;
  }
  // A 1D copy as the 3D parameters that describe it: one row of `count` bytes.
  const auto& c = std::get<Copy1D>(node->operation);
  std::memset(params, 0, sizeof(*params));
  params->srcPtr = make_hipPitchedPtr(const_cast<void*>(c.src), c.count, c.count, 1);
  params->dstPtr = make_hipPitchedPtr(c.dst, c.count, c.count, 1);
  params->extent = make_hipExtent(c.count, 1, 1);
  params->kind = c.kind;
  return hipSuccess;
}
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms* params) {
  GPUPORT_GRAPH_LOCK;
  if (!is_memcpy_node(node) || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*params, __func__)) return e;
  node->operation = *params;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, hipMemcpy3DParms* params) {
  GPUPORT_GRAPH_LOCK;
  auto* p = exec_operation<hipMemcpy3DParms>(exec, node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*params, __func__)) return e;
  *p = *params;
  return hipSuccess;
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, void* dst,
                                   const void* src, size_t bytes, hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  const Copy1D c{dst, src, bytes, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  return add_checked_node(node, graph, deps, count, c);
}
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  if (!is_memcpy_node(node)) return ret(hipErrorInvalidValue);
  const Copy1D c{dst, src, bytes, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  node->operation = c;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t exec, hipGraphNode_t node, void* dst, const void* src, size_t bytes,
                                             hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  auto* p = exec_operation<Copy1D>(exec, node);
  if (!p) return ret(hipErrorInvalidValue);
  const Copy1D c{dst, src, bytes, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}

hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, void* dst,
                                           const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  const CopyFromSymbol c{dst, symbol, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  return add_checked_node(node, graph, deps, count, c);
}
hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void* dst, const void* symbol, size_t bytes, size_t offset,
                                                 hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  auto* p = node_operation<CopyFromSymbol>(node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyFromSymbol c{dst, symbol, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t exec, hipGraphNode_t node, void* dst, const void* symbol,
                                                     size_t bytes, size_t offset, hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  auto* p = exec_operation<CopyFromSymbol>(exec, node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyFromSymbol c{dst, symbol, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}
hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                         const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  const CopyToSymbol c{symbol, src, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  return add_checked_node(node, graph, deps, count, c);
}
hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void* symbol, const void* src, size_t bytes, size_t offset,
                                               hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  auto* p = node_operation<CopyToSymbol>(node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyToSymbol c{symbol, src, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t exec, hipGraphNode_t node, const void* symbol, const void* src,
                                                   size_t bytes, size_t offset, hipMemcpyKind kind) {
  GPUPORT_GRAPH_LOCK;
  auto* p = exec_operation<CopyToSymbol>(exec, node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyToSymbol c{symbol, src, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}

hipError_t hipGraphAddMemsetNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                 const hipMemsetParams* params) {
  GPUPORT_GRAPH_LOCK;
  if (!params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_memset(*params, __func__)) return e;
  return add_checked_node(node, graph, deps, count, *params);
}
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams* params) {
  GPUPORT_GRAPH_LOCK;
  const auto* p = node_operation<hipMemsetParams>(node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  *params = *p;
  return hipSuccess;
}
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams* params) {
  GPUPORT_GRAPH_LOCK;
  auto* p = node_operation<hipMemsetParams>(node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_memset(*params, __func__)) return e;
  *p = *params;
  return hipSuccess;
}
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, const hipMemsetParams* params) {
  GPUPORT_GRAPH_LOCK;
  auto* p = exec_operation<hipMemsetParams>(exec, node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_memset(*params, __func__)) return e;
  *p = *params;
  return hipSuccess;
}

hipError_t hipGraphAddHostNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                               const hipHostNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  if (!params || !params->fn) return ret(hipErrorInvalidValue);
  return add_checked_node(node, graph, deps, count, HostCall{*params, nullptr});
}
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  const auto* h = node_operation<HostCall>(node);
  if (!h || !params) return ret(hipErrorInvalidValue);
  *params = h->params;
  return hipSuccess;
}
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  auto* h = node_operation<HostCall>(node);
  if (!h || !params || !params->fn) return ret(hipErrorInvalidValue);
  *h = HostCall{*params, nullptr};
  return hipSuccess;
}
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, const hipHostNodeParams* params) {
  GPUPORT_GRAPH_LOCK;
  auto* h = exec_operation<HostCall>(exec, node);
  if (!h || !params || !params->fn) return ret(hipErrorInvalidValue);
  *h = HostCall{*params, nullptr};
  return hipSuccess;
}

hipError_t hipGraphAddChildGraphNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipGraph_t child) {
  return add_child_graph_node(node, graph, deps, count, child);
}
hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t* graph) {
  GPUPORT_GRAPH_LOCK;
  const auto* c = node_operation<ChildGraph>(node);
  if (!c || !graph) return ret(hipErrorInvalidValue);
  *graph = c->graph.get();  // the node's own graph: changes to it change the node
  return hipSuccess;
}
hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, hipGraph_t child) {
  return update_child_graph(exec, node, child);
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count) {
  GPUPORT_GRAPH_LOCK;
  return add_checked_node(node, graph, deps, count, EmptyNode{});
}

template <typename T>
static hipError_t add_event_node(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipEvent_t event) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_event(event)) return ret(hipErrorInvalidValue);
  return add_checked_node(node, graph, deps, count, T{event});
}
template <typename T>
static hipError_t get_event(hipGraphNode_t node, hipEvent_t* event) {
  GPUPORT_GRAPH_LOCK;
  const auto* e = node_operation<T>(node);
  if (!e || !event) return ret(hipErrorInvalidValue);
  *event = e->event;
  return hipSuccess;
}
template <typename T>
static hipError_t set_event(T* e, hipEvent_t event) {
  if (!e || !is_live_event(event)) return ret(hipErrorInvalidValue);
  e->event = event;
  return hipSuccess;
}
hipError_t hipGraphAddEventRecordNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipEvent_t event) {
  return add_event_node<EventRecord>(node, graph, deps, count, event);
}
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t* event) { return get_event<EventRecord>(node, event); }
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  GPUPORT_GRAPH_LOCK;
  return set_event(node_operation<EventRecord>(node), event);
}
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t exec, hipGraphNode_t node, hipEvent_t event) {
  GPUPORT_GRAPH_LOCK;
  return set_event(exec_operation<EventRecord>(exec, node), event);
}
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipEvent_t event) {
  return add_event_node<EventWait>(node, graph, deps, count, event);
}
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t* event) { return get_event<EventWait>(node, event); }
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  GPUPORT_GRAPH_LOCK;
  return set_event(node_operation<EventWait>(node), event);
}
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t exec, hipGraphNode_t node, hipEvent_t event) {
  GPUPORT_GRAPH_LOCK;
  return set_event(exec_operation<EventWait>(exec, node), event);
}

hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* type) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_node(node) || !type) return ret(hipErrorInvalidValue);
  *type = node_type(node->operation);
  return hipSuccess;
}

hipError_t hipGraphDestroyNode(hipGraphNode_t node) { return destroy_node(node); }

// ---- edges ------------------------------------------------------------------------------------
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count) {
  return add_dependencies(graph, from, to, count);
}
hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count) {
  return remove_dependencies(graph, from, to, count);
}
hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to, size_t* count) {
  return graph_edges(graph, from, to, count);
}
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(graph) || !count) return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> all;
  for (const auto& n : graph->nodes) all.push_back(n.get());
  list_handles(all, nodes, count);
  return hipSuccess;
}
hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(graph) || !count) return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> roots;
  for (const auto& n : graph->nodes)
    if (n->dependencies.empty()) roots.push_back(n.get());
  list_handles(roots, nodes, count);
  return hipSuccess;
}
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* nodes, size_t* count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_node(node) || !count) return ret(hipErrorInvalidValue);
  list_handles(node->dependencies, nodes, count);
  return hipSuccess;
}
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t* nodes, size_t* count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_node(node) || !count) return ret(hipErrorInvalidValue);
  list_handles(node->dependents, nodes, count);
  return hipSuccess;
}

// ---- instantiated graphs -------------------------------------------------------------------------
hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log, size_t log_size) {
  return instantiate(exec, graph, error_node, log, log_size);
}
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph, unsigned long long flags) {
  if (flags != 0 && flags != hipGraphInstantiateFlagAutoFreeOnLaunch) return ret(hipErrorInvalidValue);
  GPUPORT_GRAPH_LOCK;
  if (hipError_t e = instantiate(exec, graph, nullptr, nullptr, 0)) return e;
  (*exec)->flags = flags;
  return hipSuccess;
}
hipError_t hipGraphExecDestroy(hipGraphExec_t exec) { return destroy_exec(exec); }
hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) { return launch_graph(exec, stream); }
hipError_t hipGraphExecUpdate(hipGraphExec_t exec, hipGraph_t graph, hipGraphNode_t* error_node, hipGraphExecUpdateResult* result) {
  return update_exec(exec, graph, error_node, result);
}
