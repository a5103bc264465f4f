// HIP graphs in the emulator's runtime: a graph is its nodes in creation order, each an
// Operation (streams.h) with its dependencies; instantiation clones the graph and fixes a
// deterministic topological order (ready nodes in creation order), which a launch runs node by
// node. Stream capture builds graphs through add_node.
#pragma once

#include <map>
#include <unordered_map>

#include "emu/runtime/streams.h"

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

namespace gpuport::emu::hip {

// Adds a node depending on `dependencies` (nodes of the same graph). Lock held.
hipGraphNode* add_node(ihipGraph* graph, Operation op, const std::vector<hipGraphNode*>& dependencies);
// Destroys a graph the program never saw (a failed capture's).
void destroy_graph(ihipGraph* graph);
// Runs every node of a graph in its deterministic topological order.
hipError_t run_graph(const ihipGraph& graph);
bool is_live_graph(const ihipGraph* graph);      // lock held
bool is_live_node(const hipGraphNode* node);     // lock held

}  // namespace gpuport::emu::hip
