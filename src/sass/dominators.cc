#include "sass/dominators.h"

#include <algorithm>

namespace gpuport::sass {

namespace {

DominatorTree compute(const ControlFlowGraph& cfg, bool post) {
  const std::size_t n = cfg.blocks.size();
  DominatorTree tree;
  tree.post = post;
  tree.root = post ? cfg.exit : cfg.entry;
  tree.idom.assign(n, DominatorTree::none);
  tree.children.assign(n, {});
  tree.preorder.assign(n, DominatorTree::none);
  tree.subtree_end.assign(n, DominatorTree::none);
  if (n == 0) return tree;

  auto forward = [&](std::size_t b) { return post ? cfg.predecessor_blocks(b) : cfg.successor_blocks(b); };
  auto backward = [&](std::size_t b) { return post ? cfg.successor_blocks(b) : cfg.predecessor_blocks(b); };

  // Reverse postorder from the root (iterative DFS).
  std::vector<std::size_t> postorder;
  std::vector<std::size_t> number(n, DominatorTree::none);  // postorder number
  std::vector<char> seen(n, 0);
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack;
  seen[tree.root] = 1;
  stack.emplace_back(tree.root, forward(tree.root));
  std::vector<std::size_t> cursor{0};
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    std::size_t& c = cursor.back();
    if (c < next.size()) {
      std::size_t s = next[c++];
      if (!seen[s]) {
        seen[s] = 1;
        stack.emplace_back(s, forward(s));
        cursor.push_back(0);
      }
    } else {
      number[block] = postorder.size();
      postorder.push_back(block);
      stack.pop_back();
      cursor.pop_back();
    }
  }

  std::vector<std::size_t> doms(n, DominatorTree::none);
  doms[tree.root] = tree.root;
  auto intersect = [&](std::size_t a, std::size_t b) {
    while (a != b) {
      while (number[a] < number[b]) a = doms[a];
      while (number[b] < number[a]) b = doms[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::size_t k = postorder.size(); k-- > 0;) {
      std::size_t b = postorder[k];
      if (b == tree.root) continue;
      std::size_t new_idom = DominatorTree::none;
      for (std::size_t p : backward(b)) {
        if (number[p] == DominatorTree::none || doms[p] == DominatorTree::none) continue;
        new_idom = new_idom == DominatorTree::none ? p : intersect(p, new_idom);
      }
      if (new_idom != DominatorTree::none && doms[b] != new_idom) {
        doms[b] = new_idom;
        changed = true;
      }
    }
  }

  for (std::size_t b = 0; b < n; ++b) {
    if (b == tree.root || doms[b] == DominatorTree::none) continue;
    tree.idom[b] = doms[b];
    tree.children[doms[b]].push_back(b);
  }
  // Preorder numbering of the tree for O(1) ancestor queries.
  std::size_t counter = 0;
  std::vector<std::pair<std::size_t, std::size_t>> walk{{tree.root, 0}};
  tree.preorder[tree.root] = counter++;
  while (!walk.empty()) {
    auto& [block, child] = walk.back();
    if (child < tree.children[block].size()) {
      std::size_t c = tree.children[block][child++];
      tree.preorder[c] = counter++;
      walk.emplace_back(c, 0);
    } else {
      tree.subtree_end[block] = counter - 1;
      walk.pop_back();
    }
  }
  return tree;
}

}  // namespace

std::optional<std::size_t> DominatorTree::immediate(std::size_t block) const {
  if (block >= idom.size() || idom[block] == none) return std::nullopt;
  return idom[block];
}

bool DominatorTree::dominates(std::size_t a, std::size_t b) const {
  if (!contains(a) || !contains(b)) return false;
  return preorder[a] <= preorder[b] && preorder[b] <= subtree_end[a];
}

DominatorTree compute_dominators(const ControlFlowGraph& cfg) { return compute(cfg, false); }
DominatorTree compute_post_dominators(const ControlFlowGraph& cfg) { return compute(cfg, true); }

std::vector<std::size_t> back_edges(const ControlFlowGraph& cfg, const DominatorTree& dominators) {
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < cfg.edges.size(); ++e)
    if (dominators.dominates(cfg.edges[e].to, cfg.edges[e].from)) out.push_back(e);
  return out;
}

}  // namespace gpuport::sass
