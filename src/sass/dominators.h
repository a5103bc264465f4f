// Dominator and post-dominator trees over a ControlFlowGraph (Lengauer and Tarjan's algorithm,
// near-linear), with O(1) `dominates` queries from tree numbering.
// Promise: blocks the root cannot reach (unreachable code for dominators; infinite loops and
// traps with no path to the virtual exit for post-dominators) are simply not in the tree: they
// have no immediate (post)dominator and `dominates` is false for them, never undefined.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "sass/cfg.h"

namespace gpuport::sass {

struct DominatorTree {
  bool post = false;      // a post-dominator tree (rooted at the virtual exit)
  std::size_t root = 0;   // entry, or the virtual exit
  static constexpr std::size_t none = static_cast<std::size_t>(-1);
  std::vector<std::size_t> idom;                   // block -> parent; none for the root and outsiders
  std::vector<std::vector<std::size_t>> children;  // in block order
  std::vector<std::size_t> preorder;               // block -> DFS entry number in the tree; none outside
  std::vector<std::size_t> subtree_end;            // block -> last preorder number in its subtree

  bool contains(std::size_t block) const { return block < preorder.size() && preorder[block] != none; }
  // The immediate dominator (post-dominator); nullopt for the root and for blocks not in the tree.
  std::optional<std::size_t> immediate(std::size_t block) const;
  // Reflexive: a block dominates itself.
  bool dominates(std::size_t a, std::size_t b) const;
  bool strictly_dominates(std::size_t a, std::size_t b) const { return a != b && dominates(a, b); }
};

DominatorTree compute_dominators(const ControlFlowGraph& cfg);
DominatorTree compute_post_dominators(const ControlFlowGraph& cfg);

// Edges whose target dominates their source (natural-loop back edges), as edge indices.
std::vector<std::size_t> back_edges(const ControlFlowGraph& cfg, const DominatorTree& dominators);

}  // namespace gpuport::sass
