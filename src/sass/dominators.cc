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

  // Lengauer and Tarjan's algorithm (with path compression): near-linear, where the iterative
  // algorithm's intersections walk long dominator chains (quadratic on a long run of guarded
  // EXITs, whose post-dominator tree is flat but whose first passes build deep chains).
  constexpr std::size_t none = DominatorTree::none;
  std::vector<std::size_t> number(n, none);  // DFS preorder number
  std::vector<std::size_t> vertex, parent(n, none);
  {
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack;
    std::vector<std::size_t> cursor;
    number[tree.root] = 0;
    vertex.push_back(tree.root);
    stack.emplace_back(tree.root, forward(tree.root));
    cursor.push_back(0);
    while (!stack.empty()) {
      auto& [block, next] = stack.back();
      std::size_t& c = cursor.back();
      if (c < next.size()) {
        const std::size_t s = next[c++];
        if (number[s] == none) {
          number[s] = vertex.size();
          vertex.push_back(s);
          parent[s] = block;
          stack.emplace_back(s, forward(s));
          cursor.push_back(0);
        }
      } else {
        stack.pop_back();
        cursor.pop_back();
      }
    }
  }
  const std::size_t count = vertex.size();
  // Over DFS numbers from here on.
  std::vector<std::size_t> semi(count), label(count), ancestor(count, none), idom_number(count, none);
  std::vector<std::size_t> parent_number(count, none);
  std::vector<std::vector<std::size_t>> bucket(count);
  for (std::size_t v = 0; v < count; ++v) {
    semi[v] = label[v] = v;
    if (v > 0) parent_number[v] = number[parent[vertex[v]]];
  }
  std::vector<std::size_t> path;
  // The vertex of least semidominator on v's path to its forest root, compressing the path.
  auto eval = [&](std::size_t v) {
    if (ancestor[v] == none) return v;
    path.clear();
    for (std::size_t x = v; ancestor[ancestor[x]] != none; x = ancestor[x]) path.push_back(x);
    for (std::size_t k = path.size(); k-- > 0;) {
      const std::size_t x = path[k];
      const std::size_t a = ancestor[x];
      if (semi[label[a]] < semi[label[x]]) label[x] = label[a];
      ancestor[x] = ancestor[a];
    }
    return label[v];
  };
  for (std::size_t w = count; w-- > 1;) {
    for (std::size_t p : backward(vertex[w])) {
      if (number[p] == none) continue;  // not reachable from the root
      const std::size_t u = eval(number[p]);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    bucket[semi[w]].push_back(w);
    const std::size_t pw = parent_number[w];
    ancestor[w] = pw;
    for (std::size_t v : bucket[pw]) {
      const std::size_t u = eval(v);
      idom_number[v] = semi[u] < semi[v] ? u : pw;
    }
    bucket[pw].clear();
  }
  for (std::size_t w = 1; w < count; ++w)
    if (idom_number[w] != semi[w]) idom_number[w] = idom_number[idom_number[w]];

  std::vector<std::size_t> doms(n, none);
  doms[tree.root] = tree.root;
  for (std::size_t w = 1; w < count; ++w) doms[vertex[w]] = vertex[idom_number[w]];

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
