// HIP graphs in the runtime's core: a graph is its nodes in creation order, each an
// Operation (streams.h) with its dependencies; instantiation clones the graph and fixes a
// deterministic topological order (ready nodes in creation order), which a launch runs node by
// node. Stream capture builds graphs through add_node.
#pragma once

#include <map>
#include <unordered_map>

#include "emu/runtime/core/queues.h"

struct hipUserObject;  // HIP 6's user objects (graphs.cc)

struct ihipGraph {
  ihipGraph();   // registers the graph as a live handle
  ~ihipGraph();  // and forgets it
  std::vector<std::unique_ptr<hipGraphNode>> nodes;  // creation order
  bool cloned = false;                               // made by hipGraphClone (hipGraphNodeFindInClone)
  hipGraphNode* owner = nullptr;                     // the child-graph node that embeds it, if any
  bool capturing = false;                            // a stream capture is building it
  // User objects the graph holds references to (HIP 6's hipGraphRetainUserObject), with their
  // counts; a clone (and so an instantiation) takes references of its own, and a graph gives
  // back its references when it is destroyed.
  std::map<hipUserObject*, unsigned> user_objects;
};

struct hipGraphNode {
  hipGraphNode();
  ~hipGraphNode();
  ihipGraph* graph = nullptr;
  gpuport::emu::hip::Operation operation;
  std::vector<hipGraphNode*> dependencies, dependents;  // in the order the edges were added
  std::uint64_t id = 0;                                 // unique; a clone's node keeps its original's
  std::vector<void*> kernel_param_pointers;             // what hipGraphKernelNodeGetParams hands out
  bool enabled = true;                                  // an instantiated node, off (hipGraphNodeSetEnabled)
};

struct hipGraphExec {
  hipGraphExec();
  ~hipGraphExec();
  std::unique_ptr<ihipGraph> graph;
  std::unordered_map<const hipGraphNode*, hipGraphNode*> node_of;  // the program's nodes -> ours
  std::vector<hipGraphNode*> order;                                 // launch order
  unsigned long long flags = 0;                                     // hipGraphInstantiateFlags it was made with
};

// The runtime's lock, held by every graph call for the rest of its scope.
#define GPUPORT_GRAPH_LOCK std::lock_guard graph_lock(::gpuport::emu::hip::runtime().mutex)

namespace gpuport::emu::hip {

// Adds a node depending on `dependencies` (nodes of the same graph). Lock held.
hipGraphNode* add_node(ihipGraph* graph, Operation op, const std::vector<hipGraphNode*>& dependencies);
// Destroys a graph the program never saw (a failed capture's).
void destroy_graph(ihipGraph* graph);
// Runs every node of a graph in its deterministic topological order.
hipError_t run_graph(const ihipGraph& graph);
bool is_live_graph(const ihipGraph* graph);      // lock held
bool is_live_node(const hipGraphNode* node);     // lock held
bool is_live_exec(const hipGraphExec* exec);     // lock held

// HIP's convention for the listing calls: with no array, the count; otherwise up to *count
// entries, the rest of the array nulled and *count set to the number there are.
template <typename T>
void list_handles(const std::vector<T>& items, T* out, size_t* count) {
  if (!out) {
    *count = items.size();
    return;
  }
  for (size_t i = 0; i < *count; ++i) out[i] = i < items.size() ? items[i] : T{};
  *count = std::min(*count, items.size());
}

// The operation of a live node if it has kind T, else null; the same for the node a program's
// node handle names in an instantiated graph. Lock held.
template <typename T>
T* node_operation(hipGraphNode_t node) {
  return is_live_node(node) ? std::get_if<T>(&node->operation) : nullptr;
}
template <typename T>
T* exec_operation(hipGraphExec_t exec, hipGraphNode_t node) {
  if (!is_live_exec(exec)) return nullptr;
  auto it = exec->node_of.find(node);
  return it == exec->node_of.end() ? nullptr : std::get_if<T>(&it->second->operation);
}
bool is_memcpy_node(hipGraphNode_t node);  // a 3D or 1-D copy's node. Lock held.

// A node the program adds: `deps` must be distinct live nodes of `graph`. Lock held.
hipError_t add_checked_node(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, Operation op);
// A kernel node's launch from its parameters (checked and copied as a launch is). Lock held.
hipError_t kernel_operation(const hipKernelNodeParams* p, KernelLaunch& k);
// A child-graph node holds a clone of `child`; an instantiated one is updated from another graph
// of the same shape (the lock is taken by the caller of the first, by the second itself).
hipError_t add_child_graph_node(hipGraphNode_t* node, hipGraph_t graph, const hipGraphNode_t* deps, size_t count, hipGraph_t child);
hipError_t update_child_graph(hipGraphExec_t exec, hipGraphNode_t node, hipGraph_t child);

// Graphs the program holds: made, destroyed (not a child graph, nor one a capture is building),
// cloned, searched for a clone's node; nodes destroyed; edges added (refusing duplicates and
// cycles, all or nothing), removed and listed.
hipError_t create_graph(hipGraph_t* graph, unsigned int flags);
hipError_t destroy_program_graph(hipGraph_t graph);
hipError_t clone_program_graph(hipGraph_t* clone, hipGraph_t graph);
hipError_t find_in_clone(hipGraphNode_t* node, hipGraphNode_t original, hipGraph_t clone);
hipError_t destroy_node(hipGraphNode_t node);
hipError_t add_dependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count);
hipError_t remove_dependencies(hipGraph_t graph, const hipGraphNode_t* from, const hipGraphNode_t* to, size_t count);
hipError_t graph_edges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to, size_t* count);

// Instantiation (a cycle fails, naming a node on it), destruction, launch on a stream (captured:
// a child-graph node of its own copy) and update from a graph of the same shape.
hipError_t instantiate(hipGraphExec_t* exec, hipGraph_t graph, hipGraphNode_t* error_node, char* log, size_t log_size);
hipError_t destroy_exec(hipGraphExec_t exec);
hipError_t launch_graph(hipGraphExec_t exec, hipStream_t stream);
hipError_t update_exec(hipGraphExec_t exec, hipGraph_t graph, hipGraphNode_t* error_node, hipGraphExecUpdateResult* result);
// The instantiated copy of `node` in `exec` when it may be switched off (kernels, copies,
// memsets), else null. Lock held.
hipGraphNode* switchable_node(hipGraphExec_t exec, hipGraphNode_t node);

// User objects (HIP 6): made with their references, retained and released (the destructor runs
// with the last); a graph holds references of its own, taken (or, with `move`, handed over from
// the caller) and given back.
hipUserObject* create_user_object(void* ptr, void (*destroy)(void*), unsigned references);
hipError_t retain_user_object(hipUserObject* object, unsigned count);
hipError_t release_user_object_references(hipUserObject* object, unsigned count);
hipError_t graph_retain_user_object(hipGraph_t graph, hipUserObject* object, unsigned count, bool move);
hipError_t graph_release_user_object(hipGraph_t graph, hipUserObject* object, unsigned count);

}  // namespace gpuport::emu::hip
