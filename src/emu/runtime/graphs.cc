// HIP graphs of the emulator's runtime: creation, nodes of every HIP 5.2 kind with their
// parameter getters and setters, edges, cloning, instantiation, launch, and updates of an
// instantiated graph. A launch runs the nodes one after another in a deterministic topological
// order (of the nodes ready to run, the one created first), which respects every edge.
#include "emu/runtime/graphs.h"

#include <cstring>
#include <queue>

namespace gpuport::emu::hip {
namespace {

std::set<const ihipGraph*> live_graphs;  // under the runtime's lock
std::set<const hipGraphNode*> live_nodes;
std::set<const hipGraphExec*> live_execs;
std::uint64_t next_node_id = 1;

std::unique_ptr<ihipGraph> clone_graph(const ihipGraph& graph, std::unordered_map<const hipGraphNode*, hipGraphNode*>* map);

}  // namespace
}  // namespace gpuport::emu::hip

// A user object: its destructor runs when the last reference goes (HIP 6's hipUserObjectCreate).
struct hipUserObject {
  void* ptr = nullptr;
  void (*destroy)(void*) = nullptr;
  unsigned references = 0;
};

namespace gpuport::emu::hip {
namespace {

std::set<hipUserObject*> live_user_objects;

// Lock held. Runs the destructor when the last reference goes.
void release_user_object(hipUserObject* object, unsigned count) {
  object->references -= count;
  if (object->references != 0) return;
  live_user_objects.erase(object);
  object->destroy(object->ptr);
  delete object;
}
void retain_user_objects(ihipGraph& graph, const std::map<hipUserObject*, unsigned>& objects) {
  for (const auto& [object, count] : objects) {
    object->references += count;
    graph.user_objects[object] += count;
  }
}

// A deep copy of an operation: a child graph is cloned, not shared.
Operation copy_operation(const Operation& op) {
  if (const auto* child = std::get_if<ChildGraph>(&op)) return ChildGraph{std::shared_ptr<ihipGraph>(clone_graph(*child->graph, nullptr))};
  return op;
}

std::unique_ptr<ihipGraph> clone_graph(const ihipGraph& graph, std::unordered_map<const hipGraphNode*, hipGraphNode*>* map) {
  auto clone = std::make_unique<ihipGraph>();
  retain_user_objects(*clone, graph.user_objects);
  std::unordered_map<const hipGraphNode*, hipGraphNode*> local;
  auto& to = map ? *map : local;
  for (const auto& n : graph.nodes) {
    hipGraphNode* c = add_node(clone.get(), copy_operation(n->operation), {});
    c->id = n->id;
    to[n.get()] = c;
  }
  // Edges once every node exists (an edge may point to a node made earlier), in their order.
  for (const auto& n : graph.nodes) {
    hipGraphNode* c = to.at(n.get());
    for (const hipGraphNode* d : n->dependencies) c->dependencies.push_back(to.at(d));
    for (const hipGraphNode* d : n->dependents) c->dependents.push_back(to.at(d));
  }
  return clone;
}

// Kahn's algorithm; of the nodes ready to run, the one created first. Empty when there is a cycle.
std::vector<hipGraphNode*> launch_order(const ihipGraph& graph) {
  std::unordered_map<const hipGraphNode*, std::size_t> index, waiting;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) index[graph.nodes[i].get()] = i;
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    waiting[graph.nodes[i].get()] = graph.nodes[i]->dependencies.size();
    if (graph.nodes[i]->dependencies.empty()) ready.push(i);
  }
  std::vector<hipGraphNode*> order;
  while (!ready.empty()) {
    hipGraphNode* n = graph.nodes[ready.top()].get();
    ready.pop();
    order.push_back(n);
    for (const hipGraphNode* d : n->dependents)
      if (--waiting[d] == 0) ready.push(index[d]);
  }
  if (order.size() != graph.nodes.size()) order.clear();
  return order;
}

// Whether `to` can be reached from `from` along edges.
bool reaches(const hipGraphNode* from, const hipGraphNode* to) {
  std::set<const hipGraphNode*> seen;
  std::vector<const hipGraphNode*> todo{from};
  while (!todo.empty()) {
    const hipGraphNode* n = todo.back();
    todo.pop_back();
    if (n == to) return true;
    if (!seen.insert(n).second) continue;
    todo.insert(todo.end(), n->dependents.begin(), n->dependents.end());
  }
  return false;
}

void remove_edge(hipGraphNode* from, hipGraphNode* to) {
  std::erase(from->dependents, to);
  std::erase(to->dependencies, from);
}

// HIP's convention for the listing calls: with no array, the count; otherwise up to *count
// entries, the rest of the array nulled and *count set to the number there are.
template <typename T>
void list(const std::vector<T>& items, T* out, size_t* count) {
  if (!out) {
    *count = items.size();
    return;
  }
  for (size_t i = 0; i < *count; ++i) out[i] = i < items.size() ? items[i] : T{};
  *count = std::min(*count, items.size());
}

hipError_t check_dependencies(hipGraph_t graph, const hipGraphNode_t* deps, size_t count) {
  if (!is_live_graph(graph) || (count && !deps)) return hipErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!is_live_node(deps[i]) || deps[i]->graph != graph) return hipErrorInvalidValue;
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return hipErrorInvalidValue;
  }
  return hipSuccess;
}

hipError_t add(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, Operation op) {
  if (!node) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_dependencies(graph, deps, count)) return ret(e);
  *node = add_node(graph, std::move(op), std::vector<hipGraphNode*>(deps, deps + count));
  return hipSuccess;
}

hipError_t kernel_operation(const hipKernelNodeParams* p, KernelLaunch& k) {
  if (!p || !p->func) return ret(hipErrorInvalidValue);
  if (!find_function(p->func)) return ret(hipErrorInvalidDeviceFunction);
  k.function = p->func;
  k.grid = p->gridDim;
  k.block = p->blockDim;
  k.shared = p->sharedMemBytes;
  return make_launch(k, p->kernelParams, p->extra);
}

// The node a program's node handle names in an instantiated graph, if it has the given kind.
template <typename T>
T* exec_operation(hipGraphExec_t exec, hipGraphNode_t node) {
  if (!live_execs.count(exec)) return nullptr;
  auto it = exec->node_of.find(node);
  return it == exec->node_of.end() ? nullptr : std::get_if<T>(&it->second->operation);
}

template <typename T>
T* node_operation(hipGraphNode_t node) {
  return is_live_node(node) ? std::get_if<T>(&node->operation) : nullptr;
}

bool is_memcpy_node(hipGraphNode_t node) {
  return is_live_node(node) && (std::holds_alternative<hipMemcpy3DParms>(node->operation) || std::holds_alternative<Copy1D>(node->operation));
}

// Can `from` be updated into `to` (same topology, node kinds and kernel functions)?
bool updatable(const ihipGraph& from, const ihipGraph& to, hipGraphNode_t* error_node, hipGraphExecUpdateResult* result) {
  *error_node = nullptr;
  if (from.nodes.size() != to.nodes.size()) {
    *result = hipGraphExecUpdateErrorTopologyChanged;
    return false;
  }
  std::unordered_map<const hipGraphNode*, std::size_t> from_index, to_index;
  for (std::size_t i = 0; i < from.nodes.size(); ++i) from_index[from.nodes[i].get()] = i, to_index[to.nodes[i].get()] = i;
  for (std::size_t i = 0; i < from.nodes.size(); ++i) {
    const hipGraphNode& a = *from.nodes[i];
    hipGraphNode* b = to.nodes[i].get();
    *error_node = b;
    if (a.operation.index() != b->operation.index()) {
      *result = hipGraphExecUpdateErrorNodeTypeChanged;
      return false;
    }
    std::set<std::size_t> da, db;
    for (const hipGraphNode* d : a.dependencies) da.insert(from_index.at(d));
    for (const hipGraphNode* d : b->dependencies) db.insert(to_index.at(d));
    if (da != db) {
      *result = hipGraphExecUpdateErrorTopologyChanged;
      return false;
    }
    if (const auto* k = std::get_if<KernelLaunch>(&a.operation); k && k->function != std::get<KernelLaunch>(b->operation).function) {
      *result = hipGraphExecUpdateErrorFunctionChanged;
      return false;
    }
    if (const auto* c = std::get_if<ChildGraph>(&a.operation)) {
      hipGraphNode_t inner = nullptr;
      if (!updatable(*c->graph, *std::get<ChildGraph>(b->operation).graph, &inner, result)) return false;
    }
  }
  *error_node = nullptr;
  *result = hipGraphExecUpdateSuccess;
  return true;
}

// Takes every node's parameters from `from` (checked by updatable()).
void update(ihipGraph& to, const ihipGraph& from) {
  for (std::size_t i = 0; i < to.nodes.size(); ++i) {
    Operation& op = to.nodes[i]->operation;
    if (auto* c = std::get_if<ChildGraph>(&op)) update(*c->graph, *std::get<ChildGraph>(from.nodes[i]->operation).graph);
    else op = from.nodes[i]->operation;
  }
}

}  // namespace

bool is_live_graph(const ihipGraph* graph) { return graph && live_graphs.count(graph); }
bool is_live_node(const hipGraphNode* node) { return node && live_nodes.count(node); }

hipGraphNode* add_node(ihipGraph* graph, Operation op, const std::vector<hipGraphNode*>& dependencies) {
  auto node = std::make_unique<hipGraphNode>();
  node->graph = graph;
  node->id = next_node_id++;
  node->operation = std::move(op);
  if (auto* child = std::get_if<ChildGraph>(&node->operation)) child->graph->owner = node.get();
  for (hipGraphNode* d : dependencies) {
    d->dependents.push_back(node.get());
    node->dependencies.push_back(d);
  }
  graph->nodes.push_back(std::move(node));
  return graph->nodes.back().get();
}

void destroy_graph(ihipGraph* graph) { delete graph; }

hipError_t run_graph(const ihipGraph& graph) {
  std::vector<hipGraphNode*> order;
  {
    std::lock_guard lock(runtime().mutex);
    order = launch_order(graph);
  }
  for (const hipGraphNode* n : order)
    if (n->enabled)
      if (hipError_t e = run_operation(n->operation)) return e;
  return hipSuccess;
}

}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

ihipGraph::ihipGraph() {
  std::lock_guard lock(runtime().mutex);
  live_graphs.insert(this);
}
ihipGraph::~ihipGraph() {
  std::lock_guard lock(runtime().mutex);
  for (const auto& [object, count] : user_objects) release_user_object(object, count);
  nodes.clear();
  live_graphs.erase(this);
}
hipGraphNode::hipGraphNode() {
  std::lock_guard lock(runtime().mutex);
  live_nodes.insert(this);
}
hipGraphNode::~hipGraphNode() {
  std::lock_guard lock(runtime().mutex);
  live_nodes.erase(this);
}
hipGraphExec::hipGraphExec() {
  std::lock_guard lock(runtime().mutex);
  live_execs.insert(this);
}
hipGraphExec::~hipGraphExec() {
  std::lock_guard lock(runtime().mutex);
  live_execs.erase(this);
}

#define GRAPH_LOCK std::lock_guard graph_lock(runtime().mutex)

// ---- graphs -----------------------------------------------------------------------------------
hipError_t hipGraphCreate(hipGraph_t* graph, unsigned int flags) {
  if (!graph || flags != 0) return ret(hipErrorInvalidValue);
  *graph = new ihipGraph;
  return hipSuccess;
}
hipError_t hipGraphDestroy(hipGraph_t graph) {
  GRAPH_LOCK;
  // A child graph dies with its node; a graph a capture is building, when the capture ends.
  if (!is_live_graph(graph) || graph->owner || graph->capturing) return ret(hipErrorInvalidValue);
  delete graph;
  return hipSuccess;
}
hipError_t hipGraphClone(hipGraph_t* clone, hipGraph_t graph) {
  GRAPH_LOCK;
  if (!clone || !is_live_graph(graph)) return ret(hipErrorInvalidValue);
  *clone = clone_graph(*graph, nullptr).release();
  (*clone)->cloned = true;
  return hipSuccess;
}
hipError_t hipGraphNodeFindInClone(hipGraphNode_t* node, hipGraphNode_t original, hipGraph_t clone) {
  GRAPH_LOCK;
  if (!node || !is_live_node(original) || !is_live_graph(clone) || !clone->cloned) return ret(hipErrorInvalidValue);
  for (const auto& n : clone->nodes)
    if (n->id == original->id) {
      *node = n.get();
      return hipSuccess;
    }
  return ret(hipErrorInvalidValue);
}

// ---- nodes ------------------------------------------------------------------------------------
hipError_t hipGraphAddKernelNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                 const hipKernelNodeParams* params) {
  GRAPH_LOCK;
  KernelLaunch k;
  if (hipError_t e = kernel_operation(params, k)) return e;
  return add(node, graph, deps, count, std::move(k));
}
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams* params) {
  GRAPH_LOCK;
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
  GRAPH_LOCK;
  auto* k = node_operation<KernelLaunch>(node);
  if (!k) return ret(hipErrorInvalidValue);
  KernelLaunch updated;
  if (hipError_t e = kernel_operation(params, updated)) return e;
  *k = std::move(updated);
  return hipSuccess;
}
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, const hipKernelNodeParams* params) {
  GRAPH_LOCK;
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
  GRAPH_LOCK;
  if (!params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*params, __func__)) return e;
  return add(node, graph, deps, count, *params);
}
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms* params) {
  GRAPH_LOCK;
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
  GRAPH_LOCK;
  if (!is_memcpy_node(node) || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*params, __func__)) return e;
  node->operation = *params;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, hipMemcpy3DParms* params) {
  GRAPH_LOCK;
  auto* p = exec_operation<hipMemcpy3DParms>(exec, node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_copy(*params, __func__)) return e;
  *p = *params;
  return hipSuccess;
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, void* dst,
                                   const void* src, size_t bytes, hipMemcpyKind kind) {
  GRAPH_LOCK;
  const Copy1D c{dst, src, bytes, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  return add(node, graph, deps, count, c);
}
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  GRAPH_LOCK;
  if (!is_memcpy_node(node)) return ret(hipErrorInvalidValue);
  const Copy1D c{dst, src, bytes, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  node->operation = c;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t exec, hipGraphNode_t node, void* dst, const void* src, size_t bytes,
                                             hipMemcpyKind kind) {
  GRAPH_LOCK;
  auto* p = exec_operation<Copy1D>(exec, node);
  if (!p) return ret(hipErrorInvalidValue);
  const Copy1D c{dst, src, bytes, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}

hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, void* dst,
                                           const void* symbol, size_t bytes, size_t offset, hipMemcpyKind kind) {
  GRAPH_LOCK;
  const CopyFromSymbol c{dst, symbol, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  return add(node, graph, deps, count, c);
}
hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void* dst, const void* symbol, size_t bytes, size_t offset,
                                                 hipMemcpyKind kind) {
  GRAPH_LOCK;
  auto* p = node_operation<CopyFromSymbol>(node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyFromSymbol c{dst, symbol, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t exec, hipGraphNode_t node, void* dst, const void* symbol,
                                                     size_t bytes, size_t offset, hipMemcpyKind kind) {
  GRAPH_LOCK;
  auto* p = exec_operation<CopyFromSymbol>(exec, node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyFromSymbol c{dst, symbol, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}
hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                         const void* symbol, const void* src, size_t bytes, size_t offset, hipMemcpyKind kind) {
  GRAPH_LOCK;
  const CopyToSymbol c{symbol, src, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  return add(node, graph, deps, count, c);
}
hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void* symbol, const void* src, size_t bytes, size_t offset,
                                               hipMemcpyKind kind) {
  GRAPH_LOCK;
  auto* p = node_operation<CopyToSymbol>(node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyToSymbol c{symbol, src, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t exec, hipGraphNode_t node, const void* symbol, const void* src,
                                                   size_t bytes, size_t offset, hipMemcpyKind kind) {
  GRAPH_LOCK;
  auto* p = exec_operation<CopyToSymbol>(exec, node);
  if (!p) return ret(hipErrorInvalidValue);
  const CopyToSymbol c{symbol, src, bytes, offset, kind};
  if (hipError_t e = check_copy(c, __func__)) return e;
  *p = c;
  return hipSuccess;
}

hipError_t hipGraphAddMemsetNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                                 const hipMemsetParams* params) {
  GRAPH_LOCK;
  if (!params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_memset(*params, __func__)) return e;
  return add(node, graph, deps, count, *params);
}
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams* params) {
  GRAPH_LOCK;
  const auto* p = node_operation<hipMemsetParams>(node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  *params = *p;
  return hipSuccess;
}
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams* params) {
  GRAPH_LOCK;
  auto* p = node_operation<hipMemsetParams>(node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_memset(*params, __func__)) return e;
  *p = *params;
  return hipSuccess;
}
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, const hipMemsetParams* params) {
  GRAPH_LOCK;
  auto* p = exec_operation<hipMemsetParams>(exec, node);
  if (!p || !params) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_memset(*params, __func__)) return e;
  *p = *params;
  return hipSuccess;
}

hipError_t hipGraphAddHostNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count,
                               const hipHostNodeParams* params) {
  GRAPH_LOCK;
  if (!params || !params->fn) return ret(hipErrorInvalidValue);
  return add(node, graph, deps, count, HostCall{*params, nullptr});
}
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams* params) {
  GRAPH_LOCK;
  const auto* h = node_operation<HostCall>(node);
  if (!h || !params) return ret(hipErrorInvalidValue);
  *params = h->params;
  return hipSuccess;
}
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams* params) {
  GRAPH_LOCK;
  auto* h = node_operation<HostCall>(node);
  if (!h || !params || !params->fn) return ret(hipErrorInvalidValue);
  *h = HostCall{*params, nullptr};
  return hipSuccess;
}
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, const hipHostNodeParams* params) {
  GRAPH_LOCK;
  auto* h = exec_operation<HostCall>(exec, node);
  if (!h || !params || !params->fn) return ret(hipErrorInvalidValue);
  *h = HostCall{*params, nullptr};
  return hipSuccess;
}

hipError_t hipGraphAddChildGraphNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipGraph_t child) {
  GRAPH_LOCK;
  if (!is_live_graph(child) || child == graph) return ret(hipErrorInvalidValue);
  return add(node, graph, deps, count, ChildGraph{std::shared_ptr<ihipGraph>(clone_graph(*child, nullptr))});
}
hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t* graph) {
  GRAPH_LOCK;
  const auto* c = node_operation<ChildGraph>(node);
  if (!c || !graph) return ret(hipErrorInvalidValue);
  *graph = c->graph.get();  // the node's own graph: changes to it change the node
  return hipSuccess;
}
hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t exec, hipGraphNode_t node, hipGraph_t child) {
  GRAPH_LOCK;
  auto* c = exec_operation<ChildGraph>(exec, node);
  if (!c || !is_live_graph(child)) return ret(hipErrorInvalidValue);
  hipGraphNode_t error_node;
  hipGraphExecUpdateResult result;
  if (!updatable(*c->graph, *child, &error_node, &result)) return ret(hipErrorInvalidValue);
  update(*c->graph, *child);
  return hipSuccess;
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count) {
  GRAPH_LOCK;
  return add(node, graph, deps, count, EmptyNode{});
}

template <typename T>
static hipError_t add_event_node(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipEvent_t event) {
  GRAPH_LOCK;
  if (!is_live_event(event)) return ret(hipErrorInvalidValue);
  return add(node, graph, deps, count, T{event});
}
template <typename T>
static hipError_t get_event(hipGraphNode_t node, hipEvent_t* event) {
  GRAPH_LOCK;
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
  GRAPH_LOCK;
  return set_event(node_operation<EventRecord>(node), event);
}
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t exec, hipGraphNode_t node, hipEvent_t event) {
  GRAPH_LOCK;
  return set_event(exec_operation<EventRecord>(exec, node), event);
}
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipEvent_t event) {
  return add_event_node<EventWait>(node, graph, deps, count, event);
}
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t* event) { return get_event<EventWait>(node, event); }
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  GRAPH_LOCK;
  return set_event(node_operation<EventWait>(node), event);
}
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t exec, hipGraphNode_t node, hipEvent_t event) {
  GRAPH_LOCK;
  return set_event(exec_operation<EventWait>(exec, node), event);
}

hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* type) {
  GRAPH_LOCK;
  if (!is_live_node(node) || !type) return ret(hipErrorInvalidValue);
  *type = node_type(node->operation);
  return hipSuccess;
}
hipError_t hipGraphDestroyNode(hipGraphNode_t node) {
  GRAPH_LOCK;
  if (!is_live_node(node) || node->graph->capturing) return ret(hipErrorInvalidValue);  // streams may depend on it
  for (hipGraphNode* d : std::vector<hipGraphNode*>(node->dependencies)) remove_edge(d, node);
  for (hipGraphNode* d : std::vector<hipGraphNode*>(node->dependents)) remove_edge(node, d);
  std::erase_if(node->graph->nodes, [&](const auto& n) { return n.get() == node; });
  return hipSuccess;
}

// ---- edges ------------------------------------------------------------------------------------
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || (count && (!from || !to))) return ret(hipErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (!is_live_node(from[i]) || !is_live_node(to[i]) || from[i]->graph != graph || to[i]->graph != graph || from[i] == to[i])
      return ret(hipErrorInvalidValue);
    const auto& existing = from[i]->dependents;
    if (std::find(existing.begin(), existing.end(), to[i]) != existing.end()) return ret(hipErrorInvalidValue);
    for (size_t j = 0; j < i; ++j)
      if (from[j] == from[i] && to[j] == to[i]) return ret(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < count; ++i) {
    if (reaches(to[i], from[i])) {  // the edge would close a cycle: undo what this call added
      for (size_t j = 0; j < i; ++j) remove_edge(from[j], to[j]);
      return ret(hipErrorInvalidValue);
    }
    from[i]->dependents.push_back(to[i]);
    to[i]->dependencies.push_back(from[i]);
  }
  return hipSuccess;
}
hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || (count && (!from || !to))) return ret(hipErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (!is_live_node(from[i]) || !is_live_node(to[i]) || from[i]->graph != graph) return ret(hipErrorInvalidValue);
    const auto& existing = from[i]->dependents;
    if (std::find(existing.begin(), existing.end(), to[i]) == existing.end()) return ret(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < count; ++i) remove_edge(from[i], to[i]);
  return hipSuccess;
}
hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to, size_t* count) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || !count || (!from != !to)) return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> sources, targets;
  for (const auto& n : graph->nodes)
    for (hipGraphNode* d : n->dependents) sources.push_back(n.get()), targets.push_back(d);
  if (!from) {
    *count = sources.size();
    return hipSuccess;
  }
  size_t n = *count;
  list(sources, from, &n);
  list(targets, to, count);
  return hipSuccess;
}
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || !count) return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> all;
  for (const auto& n : graph->nodes) all.push_back(n.get());
  list(all, nodes, count);
  return hipSuccess;
}
hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* count) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || !count) return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> roots;
  for (const auto& n : graph->nodes)
    if (n->dependencies.empty()) roots.push_back(n.get());
  list(roots, nodes, count);
  return hipSuccess;
}
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* nodes, size_t* count) {
  GRAPH_LOCK;
  if (!is_live_node(node) || !count) return ret(hipErrorInvalidValue);
  list(node->dependencies, nodes, count);
  return hipSuccess;
}
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t* nodes, size_t* count) {
  GRAPH_LOCK;
  if (!is_live_node(node) || !count) return ret(hipErrorInvalidValue);
  list(node->dependents, nodes, count);
  return hipSuccess;
}

// ---- instantiated graphs -------------------------------------------------------------------------
hipError_t hipGraphInstantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log, size_t log_size) {
  GRAPH_LOCK;
  if (!exec || !is_live_graph(graph)) return ret(hipErrorInvalidValue);
  if (log && log_size) log[0] = '\0';
  if (launch_order(*graph).empty() && !graph->nodes.empty()) {
    // A cycle: name the first node on it (one a node depending on it leads back to).
    for (const auto& n : graph->nodes) {
      bool on_cycle = false;
      for (const hipGraphNode* d : n->dependents) on_cycle = on_cycle || reaches(d, n.get());
      if (on_cycle) {
        if (error_node) *error_node = n.get();
        break;
      }
    }
    if (log && log_size) std::snprintf(log, log_size, "the graph's dependencies form a cycle");
    return ret(hipErrorInvalidValue);
  }
  auto e = std::make_unique<hipGraphExec>();
  e->graph = clone_graph(*graph, &e->node_of);
  *exec = e.release();
  return hipSuccess;
}
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* exec, hipGraph_t graph, unsigned long long flags) {
  if (flags != 0 && flags != hipGraphInstantiateFlagAutoFreeOnLaunch) return ret(hipErrorInvalidValue);
  GRAPH_LOCK;
  if (hipError_t e = hipGraphInstantiate(exec, graph, nullptr, nullptr, 0)) return e;
  (*exec)->flags = flags;
  return hipSuccess;
}
hipError_t hipGraphExecDestroy(hipGraphExec_t exec) {
  GRAPH_LOCK;
  if (!live_execs.count(exec)) return ret(hipErrorInvalidValue);
  delete exec;
  return hipSuccess;
}
hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) {
  std::shared_ptr<ihipGraph> graph;
  {
    GRAPH_LOCK;
    if (!live_execs.count(exec)) return ret(hipErrorInvalidValue);
    ihipStream_t* s = find_stream(stream);
    if (!s) return ret(hipErrorInvalidValue);
    // Captured, the launch becomes a child-graph node of its own copy; run, it runs the
    // instantiated graph itself (which the program must not destroy while it runs).
    if (s->capture) graph = std::shared_ptr<ihipGraph>(clone_graph(*exec->graph, nullptr));
    else graph = std::shared_ptr<ihipGraph>(exec->graph.get(), [](ihipGraph*) {});
  }
  return submit(stream, ChildGraph{graph});
}
hipError_t hipGraphExecUpdate(hipGraphExec_t exec, hipGraph_t graph, hipGraphNode_t* error_node, hipGraphExecUpdateResult* result) {
  GRAPH_LOCK;
  if (!live_execs.count(exec) || !is_live_graph(graph) || !error_node || !result) return ret(hipErrorInvalidValue);
  if (!updatable(*exec->graph, *graph, error_node, result)) return ret(hipErrorGraphExecUpdateFailure);
  update(*exec->graph, *graph);
  // The updating graph's nodes now name the instantiated ones too (hipGraphExec*SetParams).
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) exec->node_of[graph->nodes[i].get()] = exec->graph->nodes[i].get();
  return hipSuccess;
}

#if HIP_VERSION_MAJOR >= 6
// ---- what HIP 6 adds: instantiation parameters, uploads, per-node enabling, user objects -------
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t* exec, hipGraph_t graph, hipGraphInstantiateParams* params) {
  if (!params) return ret(hipErrorInvalidValue);
  // A graph the device launches itself needs device-side launches, which gfx1100 code does not make.
  const unsigned long long known = hipGraphInstantiateFlagAutoFreeOnLaunch | hipGraphInstantiateFlagUpload |
                                   hipGraphInstantiateFlagUseNodePriority;
  params->errNode_out = nullptr;
  params->result_out = hipGraphInstantiateError;
  if (params->flags & ~known) return ret(hipErrorInvalidValue);
  GRAPH_LOCK;
  if ((params->flags & hipGraphInstantiateFlagUpload) && !find_stream(params->uploadStream)) return ret(hipErrorInvalidValue);
  hipGraphNode_t error_node = nullptr;
  if (hipError_t e = hipGraphInstantiate(exec, graph, &error_node, nullptr, 0)) {
    params->errNode_out = error_node;
    if (error_node) params->result_out = hipGraphInstantiateInvalidStructure;
    return e;
  }
  (*exec)->flags = params->flags;
  params->result_out = hipGraphInstantiateSuccess;
  return hipSuccess;
}
hipError_t hipGraphExecGetFlags(hipGraphExec_t exec, unsigned long long* flags) {
  GRAPH_LOCK;
  if (!live_execs.count(exec) || !flags) return ret(hipErrorInvalidValue);
  *flags = exec->flags;
  return hipSuccess;
}
// The emulated device reads the graph from host memory: there is nothing to upload.
hipError_t hipGraphUpload(hipGraphExec_t exec, hipStream_t stream) {
  GRAPH_LOCK;
  if (!live_execs.count(exec) || !find_stream(stream)) return ret(hipErrorInvalidValue);
  return hipSuccess;
}
hipError_t hipGraphLaunch_spt(hipGraphExec_t exec, hipStream_t stream) { return hipGraphLaunch(exec, per_thread(stream)); }

namespace {
// The instantiated copy of `node` in `exec`, when the node may be switched off: kernels, copies
// and memsets.
hipGraphNode* switchable_node(hipGraphExec_t exec, hipGraphNode_t node) {
  if (!live_execs.count(exec) || !is_live_node(node)) return nullptr;
  const auto it = exec->node_of.find(node);
  if (it == exec->node_of.end()) return nullptr;
  const hipGraphNodeType type = node_type(it->second->operation);
  const bool switchable = type == hipGraphNodeTypeKernel || type == hipGraphNodeTypeMemcpy || type == hipGraphNodeTypeMemset ||
                          type == hipGraphNodeTypeMemcpyFromSymbol || type == hipGraphNodeTypeMemcpyToSymbol;
  return switchable ? it->second : nullptr;
}
}  // namespace
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t exec, hipGraphNode_t node, unsigned int enabled) {
  GRAPH_LOCK;
  hipGraphNode* n = switchable_node(exec, node);
  if (!n) return ret(hipErrorInvalidValue);
  n->enabled = enabled != 0;
  return hipSuccess;
}
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t exec, hipGraphNode_t node, unsigned int* enabled) {
  GRAPH_LOCK;
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
  GRAPH_LOCK;
  auto* object = new hipUserObject{ptr, destroy, references};
  live_user_objects.insert(object);
  *out = object;
  return hipSuccess;
}
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count) {
  GRAPH_LOCK;
  if (!live_user_objects.count(object) || count == 0) return ret(hipErrorInvalidValue);
  object->references += count;
  return hipSuccess;
}
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count) {
  GRAPH_LOCK;
  if (!live_user_objects.count(object) || count == 0 || count > object->references) return ret(hipErrorInvalidValue);
  release_user_object(object, count);
  return hipSuccess;
}
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count, unsigned int flags) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || !live_user_objects.count(object) || count == 0 || (flags != 0 && flags != hipGraphUserObjectMove))
    return ret(hipErrorInvalidValue);
  // hipGraphUserObjectMove hands the caller's references to the graph instead of adding new ones.
  if (!(flags & hipGraphUserObjectMove)) {
    object->references += count;
  } else if (count > object->references) {
    return ret(hipErrorInvalidValue);
  }
  graph->user_objects[object] += count;
  return hipSuccess;
}
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count) {
  GRAPH_LOCK;
  if (!is_live_graph(graph) || !live_user_objects.count(object) || count == 0) return ret(hipErrorInvalidValue);
  auto it = graph->user_objects.find(object);
  if (it == graph->user_objects.end() || it->second < count) return ret(hipErrorInvalidValue);
  if ((it->second -= count) == 0) graph->user_objects.erase(it);
  release_user_object(object, count);
  return hipSuccess;
}
#endif
