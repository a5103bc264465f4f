// Graphs in the runtime's core: their nodes (each an Operation with its dependencies), the handles
// that are live, cloning, edges and cycles, instantiation (a clone with a deterministic
// topological order: of the nodes ready to run, the one created first, which respects every
// edge), launch node by node, updates of an instantiated graph, and HIP 6's user objects.
#include "emu/runtime/core/graphs.h"

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
bool is_live_exec(const hipGraphExec* exec) { return exec && live_execs.count(exec); }

static hipError_t check_dependencies(hipGraph_t graph, const hipGraphNode_t* deps, size_t count) {
  if (!is_live_graph(graph) || (count && !deps)) return hipErrorInvalidValue;
  for (size_t i = 0; i < count; ++i) {
    if (!is_live_node(deps[i]) || deps[i]->graph != graph) return hipErrorInvalidValue;
    for (size_t j = 0; j < i; ++j)
      if (deps[j] == deps[i]) return hipErrorInvalidValue;
  }
  return hipSuccess;
}

hipError_t add_checked_node(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, Operation op) {
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

bool is_memcpy_node(hipGraphNode_t node) {
  return is_live_node(node) && (std::holds_alternative<hipMemcpy3DParms>(node->operation) || std::holds_alternative<Copy1D>(node->operation));
}

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

namespace gpuport::emu::hip {


hipError_t create_graph(hipGraph_t* graph, unsigned int flags) {
  if (!graph || flags != 0) return ret(hipErrorInvalidValue);
  *graph = new ihipGraph;
  return hipSuccess;
}

hipError_t destroy_program_graph(hipGraph_t graph) {
  GPUPORT_GRAPH_LOCK;
  // A child graph dies with its node; a graph a capture is building, when the capture ends.
  if (!is_live_graph(graph) || graph->owner || graph->capturing) return ret(hipErrorInvalidValue);
  delete graph;
  return hipSuccess;
}

hipError_t clone_program_graph(hipGraph_t* clone, hipGraph_t graph) {
  GPUPORT_GRAPH_LOCK;
  if (!clone || !is_live_graph(graph)) return ret(hipErrorInvalidValue);
  *clone = clone_graph(*graph, nullptr).release();
  (*clone)->cloned = true;
  return hipSuccess;
}

hipError_t find_in_clone(hipGraphNode_t* node, hipGraphNode_t original, hipGraph_t clone) {
  GPUPORT_GRAPH_LOCK;
  if (!node || !is_live_node(original) || !is_live_graph(clone) || !clone->cloned) return ret(hipErrorInvalidValue);
  for (const auto& n : clone->nodes)
    if (n->id == original->id) {
      *node = n.get();
      return hipSuccess;
    }
  return ret(hipErrorInvalidValue);
}

hipError_t destroy_node(hipGraphNode_t node) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_node(node) || node->graph->capturing) return ret(hipErrorInvalidValue);  // streams may depend on it
  for (hipGraphNode* d : std::vector<hipGraphNode*>(node->dependencies)) remove_edge(d, node);
  for (hipGraphNode* d : std::vector<hipGraphNode*>(node->dependents)) remove_edge(node, d);
  std::erase_if(node->graph->nodes, [&](const auto& n) { return n.get() == node; });
  return hipSuccess;
}

hipError_t add_dependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count) {
  GPUPORT_GRAPH_LOCK;
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

hipError_t remove_dependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(graph) || (count && (!from || !to))) return ret(hipErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (!is_live_node(from[i]) || !is_live_node(to[i]) || from[i]->graph != graph) return ret(hipErrorInvalidValue);
    const auto& existing = from[i]->dependents;
    if (std::find(existing.begin(), existing.end(), to[i]) == existing.end()) return ret(hipErrorInvalidValue);
  }
  for (size_t i = 0; i < count; ++i) remove_edge(from[i], to[i]);
  return hipSuccess;
}

hipError_t graph_edges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to, size_t* count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(graph) || !count || (!from != !to)) return ret(hipErrorInvalidValue);
  std::vector<hipGraphNode_t> sources, targets;
  for (const auto& n : graph->nodes)
    for (hipGraphNode* d : n->dependents) sources.push_back(n.get()), targets.push_back(d);
  if (!from) {
    *count = sources.size();
    return hipSuccess;
  }
  size_t n = *count;
  list_handles(sources, from, &n);
  list_handles(targets, to, count);
  return hipSuccess;
}

hipError_t instantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log, size_t log_size) {
  GPUPORT_GRAPH_LOCK;
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

hipError_t destroy_exec(hipGraphExec_t exec) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_exec(exec)) return ret(hipErrorInvalidValue);
  delete exec;
  return hipSuccess;
}

hipError_t launch_graph(hipGraphExec_t exec, hipStream_t stream) {
  std::shared_ptr<ihipGraph> graph;
  {
    GPUPORT_GRAPH_LOCK;
    if (!is_live_exec(exec)) return ret(hipErrorInvalidValue);
    ihipStream_t* s = find_stream(stream);
    if (!s) return ret(hipErrorInvalidValue);
    // Captured, the launch becomes a child-graph node of its own copy; run, it runs the
    // instantiated graph itself (which the program must not destroy while it runs).
    if (s->capture) graph = std::shared_ptr<ihipGraph>(clone_graph(*exec->graph, nullptr));
    else graph = std::shared_ptr<ihipGraph>(exec->graph.get(), [](ihipGraph*) {});
  }
  return submit(stream, ChildGraph{graph});
}

hipError_t update_exec(hipGraphExec_t exec, hipGraph_t graph, hipGraphNode_t* error_node, hipGraphExecUpdateResult* result) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_exec(exec) || !is_live_graph(graph) || !error_node || !result) return ret(hipErrorInvalidValue);
  if (!updatable(*exec->graph, *graph, error_node, result)) return ret(hipErrorGraphExecUpdateFailure);
  update(*exec->graph, *graph);
  // The updating graph's nodes now name the instantiated ones too (hipGraphExec*SetParams).
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) exec->node_of[graph->nodes[i].get()] = exec->graph->nodes[i].get();
  return hipSuccess;
}

hipError_t add_child_graph_node(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipGraph_t child) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(child) || child == graph) return ret(hipErrorInvalidValue);
  return add_checked_node(node, graph, deps, count, ChildGraph{std::shared_ptr<ihipGraph>(clone_graph(*child, nullptr))});
}

hipError_t update_child_graph(hipGraphExec_t exec, hipGraphNode_t node, hipGraph_t child) {
  GPUPORT_GRAPH_LOCK;
  auto* c = exec_operation<ChildGraph>(exec, node);
  if (!c || !is_live_graph(child)) return ret(hipErrorInvalidValue);
  hipGraphNode_t error_node;
  hipGraphExecUpdateResult result;
  if (!updatable(*c->graph, *child, &error_node, &result)) return ret(hipErrorInvalidValue);
  update(*c->graph, *child);
  return hipSuccess;
}

hipGraphNode* switchable_node(hipGraphExec_t exec, hipGraphNode_t node) {
  if (!live_execs.count(exec) || !is_live_node(node)) return nullptr;
  const auto it = exec->node_of.find(node);
  if (it == exec->node_of.end()) return nullptr;
  const hipGraphNodeType type = node_type(it->second->operation);
  const bool switchable = type == hipGraphNodeTypeKernel || type == hipGraphNodeTypeMemcpy || type == hipGraphNodeTypeMemset ||
                          type == hipGraphNodeTypeMemcpyFromSymbol || type == hipGraphNodeTypeMemcpyToSymbol;
  return switchable ? it->second : nullptr;
}

hipUserObject* create_user_object(void* ptr, void (*destroy)(void*), unsigned references) {
  GPUPORT_GRAPH_LOCK;
  auto* object = new hipUserObject{ptr, destroy, references};
  live_user_objects.insert(object);
  return object;
}

hipError_t retain_user_object(hipUserObject* object, unsigned count) {
  GPUPORT_GRAPH_LOCK;
  if (!live_user_objects.count(object) || count == 0) return ret(hipErrorInvalidValue);
  object->references += count;
  return hipSuccess;
}

hipError_t release_user_object_references(hipUserObject* object, unsigned count) {
  GPUPORT_GRAPH_LOCK;
  if (!live_user_objects.count(object) || count == 0 || count > object->references) return ret(hipErrorInvalidValue);
  release_user_object(object, count);
  return hipSuccess;
}

hipError_t graph_retain_user_object(hipGraph_t graph, hipUserObject* object, unsigned count, bool move) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(graph) || !live_user_objects.count(object) || count == 0) return ret(hipErrorInvalidValue);
  // A move hands the caller's references to the graph instead of adding new ones.
  if (!move) {
    object->references += count;
  } else if (count > object->references) {
    return ret(hipErrorInvalidValue);
  }
  graph->user_objects[object] += count;
  return hipSuccess;
}

hipError_t graph_release_user_object(hipGraph_t graph, hipUserObject* object, unsigned count) {
  GPUPORT_GRAPH_LOCK;
  if (!is_live_graph(graph) || !live_user_objects.count(object) || count == 0) return ret(hipErrorInvalidValue);
  auto it = graph->user_objects.find(object);
  if (it == graph->user_objects.end() || it->second < count) return ret(hipErrorInvalidValue);
  if ((it->second -= count) == 0) graph->user_objects.erase(it);
  release_user_object(object, count);
  return hipSuccess;
}

}  // namespace gpuport::emu::hip
