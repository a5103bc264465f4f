#include "sass/cfg.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <deque>
#include <unordered_map>

namespace gpuport::sass {

namespace {

bool has_label_operand(const SassInstruction& inst) {
  for (const auto& op : inst.operands)
    if (op.kind == OperandKind::label) return true;
  return false;
}

const SassOperand* first_label(const SassInstruction& inst) {
  for (const auto& op : inst.operands)
    if (op.kind == OperandKind::label) return &op;
  return nullptr;
}

// Control transfers end a block; the rest (SSY, BSSY, BSYNC, plain WARPSYNC) do not.
bool ends_block(ControlKind kind, const SassInstruction& inst) {
  switch (kind) {
    case ControlKind::branch:
    case ControlKind::indirect:
    case ControlKind::call:
    case ControlKind::ret:
    case ControlKind::exit:
    case ControlKind::trap:
    case ControlKind::pop_sync:
    case ControlKind::pop_break:
    case ControlKind::pop_continue:
      return true;
    case ControlKind::warpsync:
      return has_label_operand(inst);
    default:
      return false;
  }
}

// The target of a Volta+ BRA or BSSY from its 128-bit encoding, for when the listing names a
// label it never defines (nvdisasm 11.8 does that now and then). Bit layout read off the
// committed listings and the whole benchmark corpus (every labelled BRA, WARPSYNC and BSSY of
// sm_70..sm_120 agrees): BRA's signed offset/4 is bits 34..81; from sm_90 on that field holds
// offset/1024 and bits 16..23 hold offset/4 mod 256 (WARPSYNC.COLLECTIVE the same). BSSY's
// offset/4 is bits 34..63. Relative to the next instruction.
std::optional<std::uint64_t> encoded_target(const SassInstruction& in, int arch) {
  if (arch < 70 || in.encoding_words != 2) return std::nullopt;
  const std::uint64_t w0 = in.encoding[0], w1 = in.encoding[1];
  auto sext = [](std::uint64_t v, int bits) {
    const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
    return static_cast<std::int64_t>((v ^ sign) - sign);
  };
  std::int64_t offset = 0;
  if (in.opcode == "BSSY") {
    offset = sext(w0 >> 34, 30) * 4;
  } else if (in.opcode == "BRA" || in.opcode == "WARPSYNC") {
    const std::int64_t high = sext(((w0 >> 34) | ((w1 & 0x3ffff) << 30)) & ((std::uint64_t{1} << 48) - 1), 48);
    offset = arch >= 90 ? high * 1024 + static_cast<std::int64_t>(((w0 >> 16) & 0xff) * 4) : high * 4;
  } else {
    return std::nullopt;
  }
  const std::int64_t target = static_cast<std::int64_t>(in.address) + 16 + offset;
  if (target < 0) return std::nullopt;
  return static_cast<std::uint64_t>(target);
}

ControlKind matching_push(ControlKind pop) {
  switch (pop) {
    case ControlKind::pop_sync: return ControlKind::push_sync;
    case ControlKind::pop_break: return ControlKind::push_break;
    case ControlKind::pop_continue: return ControlKind::push_continue;
    default: return ControlKind::none;
  }
}

struct Builder {
  const SassFunction& function;
  ControlFlowGraph& cfg;
  std::unordered_map<std::string_view, std::size_t> label_index;  // name -> instruction index

  std::optional<std::size_t> resolve(std::string_view target) const {
    if (target.starts_with("0x")) {
      std::uint64_t address = 0;
      auto [p, ec] = std::from_chars(target.data() + 2, target.data() + target.size(), address, 16);
      if (ec != std::errc() || p != target.data() + target.size()) return std::nullopt;
      std::size_t i = function.find_instruction(address);
      if (i == SassFunction::npos) return std::nullopt;
      return i;
    }
    auto it = label_index.find(target);
    if (it == label_index.end() || it->second >= function.instructions.size()) return std::nullopt;
    return it->second;
  }

  // The instructions an indirect branch (BRX/JMX) at i can go to, each once: from the cubin's
  // jump table when it is known, else from nvdisasm's BRANCH_TARGETS names. What cannot be
  // resolved is added to `problems` when given.
  std::vector<std::size_t> indirect_targets(std::size_t i, std::vector<std::string>* problems) const {
    std::vector<std::size_t> out;
    auto add = [&](std::size_t k) {
      if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(k);
    };
    const SassInstruction& in = function.instructions[i];
    for (const auto& [at, addresses] : function.indirect_targets) {
      if (at != in.address) continue;
      for (std::uint64_t a : addresses)
        if (std::size_t k = function.find_instruction(a); k != SassFunction::npos) add(k);
      return out;
    }
    auto names = branch_targets(in.annotation);
    if (names.empty() && problems) problems->push_back("indirect branch without BRANCH_TARGETS");
    for (const auto& name : names) {
      // nvdisasm 11.8 may name the function's section instead of the targets: no edge to the entry.
      if (name.starts_with(".text.")) {
        if (problems)
          problems->push_back("indirect targets not named (only the section " + name +
                              "): give the cubin, the .cu, or the listing beside its cubin");
      } else if (auto k = resolve(name)) {
        add(*k);
      } else if (problems) {
        problems->push_back("indirect target " + name + " not found");
      }
    }
    return out;
  }

  // The instruction index a transfer or marker goes to: its label, or (label undefined) the
  // target its encoding says.
  std::optional<std::size_t> resolve_target(std::size_t i, const SassOperand* label) const {
    if (label != nullptr)
      if (auto t = resolve(label->text)) return t;
    if (auto a = encoded_target(function.instructions[i], cfg.arch)) {
      std::size_t k = function.find_instruction(*a);
      if (k != SassFunction::npos) return k;
    }
    return std::nullopt;
  }

  std::optional<std::size_t> resolve_target_block(std::size_t i, const SassOperand* label) const {
    auto k = resolve_target(i, label);
    if (!k) return std::nullopt;
    return cfg.block_of[*k];
  }

  std::optional<std::size_t> resolve_block(std::string_view target) const {
    auto i = resolve(target);
    if (!i) return std::nullopt;
    return cfg.block_of[*i];
  }

  void problem(std::size_t instruction, std::string_view what) {
    const auto& inst = function.instructions[instruction];
    char address[32];
    std::snprintf(address, sizeof address, "%04llx", static_cast<unsigned long long>(inst.address));
    cfg.problems.push_back(cfg.function + " /*" + address + "*/ " + inst.opcode + ": " + std::string(what));
  }

  void add_edge(std::size_t from, std::size_t to, EdgeKind kind, std::size_t instruction) {
    std::size_t index = cfg.edges.size();
    cfg.edges.push_back({from, to, kind, instruction});
    cfg.blocks[from].successors.push_back(index);
    cfg.blocks[to].predecessors.push_back(index);
  }
};

}  // namespace

// "(*\"BRANCH_TARGETS .L_x_1,.L_x_2\"*)" -> {".L_x_1", ".L_x_2"}
std::vector<std::string> branch_targets(std::string_view annotation) {
  std::vector<std::string> out;
  constexpr std::string_view key = "BRANCH_TARGETS";
  std::size_t at = annotation.find(key);
  if (at == std::string_view::npos) return out;
  std::string_view rest = annotation.substr(at + key.size());
  std::size_t end = rest.find('"');
  if (end != std::string_view::npos) rest = rest.substr(0, end);
  std::string current;
  auto flush = [&] {
    if (!current.empty()) out.push_back(current);
    current.clear();
  };
  for (char c : rest) {
    if (c == ',' || c == ' ' || c == '\t') flush();
    else current += c;
  }
  flush();
  return out;
}

std::string_view edge_kind_name(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::fallthrough: return "fallthrough";
    case EdgeKind::branch_taken: return "branch-taken";
    case EdgeKind::branch_not_taken: return "branch-not-taken";
    case EdgeKind::indirect: return "indirect";
    case EdgeKind::call_return: return "call-return";
    case EdgeKind::reconvergence: return "reconvergence";
    case EdgeKind::exit: return "exit";
  }
  return "?";
}

ControlKind control_kind(const SassInstruction& instruction) {
  const OpcodeInfo* info = builtin_opcode_table().find(instruction.opcode);
  if (info == nullptr) return ControlKind::none;
  if (info->control == ControlKind::trap && !instruction.has_modifier("TRAP")) return ControlKind::none;
  // `CALL.REL.NOINC `(.L_x_11)`: a call to a label of the same function that pushes no return
  // address, which nvcc uses as a (guarded) jump, e.g. a loop exit followed by the back edge.
  if (info->control == ControlKind::call && instruction.has_modifier("NOINC"))
    if (const SassOperand* label = first_label(instruction); label != nullptr && label->text.view().starts_with(".L"))
      return ControlKind::branch;
  return info->control;
}

bool is_conditional(const SassInstruction& instruction) {
  if (instruction.guard && instruction.guard->index != 7) return true;
  if (instruction.guard && instruction.guard->index == 7 && instruction.guard->negated) return true;
  if (instruction.has_modifier("DIV") || instruction.has_modifier("CONV")) return true;
  if (instruction.opcode == "WARPSYNC" && has_label_operand(instruction)) return true;
  if (instruction.opcode == "BRA" || instruction.opcode == "JMP") {
    for (const auto& op : instruction.operands)
      if ((op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate) &&
          !(op.is_true_predicate() && !op.logical_not))
        return true;
  }
  return false;
}

std::vector<std::size_t> ControlFlowGraph::successor_blocks(std::size_t block) const {
  std::vector<std::size_t> out;
  for (std::size_t e : blocks[block].successors) out.push_back(edges[e].to);
  return out;
}

std::vector<std::size_t> ControlFlowGraph::predecessor_blocks(std::size_t block) const {
  std::vector<std::size_t> out;
  for (std::size_t e : blocks[block].predecessors) out.push_back(edges[e].from);
  return out;
}

std::optional<std::size_t> ControlFlowGraph::block_of_label(std::string_view label) const {
  for (const auto& b : blocks)
    for (const auto& l : b.labels)
      if (l == label) return b.id;
  return std::nullopt;
}

bool ControlFlowGraph::is_backward(const CfgEdge& e) const {
  if (blocks[e.to].is_virtual_exit || blocks[e.from].is_virtual_exit) return false;
  return blocks[e.to].first <= blocks[e.from].first;
}

ControlFlowGraph build_cfg(const SassFunction& function, int arch) {
  ControlFlowGraph cfg;
  cfg.function = function.name;
  cfg.arch = arch;
  const auto& insts = function.instructions;
  const std::size_t n = insts.size();
  Builder b{function, cfg, {}};
  for (const auto& l : function.labels) b.label_index.emplace(l.name, l.instruction_index);

  cfg.control_of.resize(n);
  for (std::size_t i = 0; i < n; ++i) cfg.control_of[i] = control_kind(insts[i]);

  // Leaders: the first instruction, labelled instructions, resolved targets, and the instruction
  // after each control transfer.
  std::vector<char> leader(n + 1, 0);
  if (n > 0) leader[0] = 1;
  for (const auto& l : function.labels)
    if (l.instruction_index < n) leader[l.instruction_index] = 1;
  for (std::size_t i = 0; i < n; ++i) {
    ControlKind kind = cfg.control_of[i];
    if (ends_block(kind, insts[i])) leader[i + 1] = 1;
    if (kind == ControlKind::call) {
      // The callee is another function, or (cuobjdump text, which prints addresses where
      // nvdisasm prints names) code of this one: a block starts there.
      if (const SassOperand* label = first_label(insts[i]); label != nullptr && label->text.view().starts_with("0x"))
        if (auto t = b.resolve(label->text.view())) leader[*t] = 1;
      continue;
    }
    if (const SassOperand* label = first_label(insts[i]))
      if (auto t = b.resolve_target(i, label)) leader[*t] = 1;
    if (cfg.control_of[i] == ControlKind::indirect)
      for (std::size_t t : b.indirect_targets(i, nullptr)) leader[t] = 1;
  }

  cfg.block_of.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (leader[i]) {
      BasicBlock block;
      block.id = cfg.blocks.size();
      block.first = i;
      cfg.blocks.push_back(std::move(block));
    }
    cfg.blocks.back().last = i;
    cfg.block_of[i] = cfg.blocks.back().id;
  }
  for (const auto& l : function.labels)
    if (l.instruction_index < n) cfg.blocks[cfg.block_of[l.instruction_index]].labels.push_back(l.name);
  {
    BasicBlock exit;
    exit.id = cfg.blocks.size();
    exit.is_virtual_exit = true;
    cfg.exit = exit.id;
    cfg.blocks.push_back(std::move(exit));
  }
  cfg.entry = n > 0 ? 0 : cfg.exit;

  for (std::size_t i = 0; i < n; ++i) {
    ControlKind kind = cfg.control_of[i];
    if (kind == ControlKind::push_sync || kind == ControlKind::push_break ||
        kind == ControlKind::push_continue || kind == ControlKind::barrier_set) {
      ReconvergenceMarker m;
      m.instruction = i;
      m.kind = kind;
      for (const auto& op : insts[i].operands)
        if (op.kind == OperandKind::barrier) m.barrier = op.index;
      if (const SassOperand* label = first_label(insts[i])) {
        if (auto t = b.resolve_target_block(i, label)) {
          m.target_block = *t;
          m.resolved = true;
        }
      }
      if (!m.resolved) b.problem(i, "reconvergence target not found");
      cfg.reconvergence.push_back(m);
    }
  }

  // Edges, block by block; Pascal pops without a BRANCH_TARGETS annotation wait for the stack walk.
  std::vector<std::size_t> pending_pops;  // block ids
  const std::size_t real_blocks = cfg.exit;
  for (std::size_t bid = 0; bid < real_blocks; ++bid) {
    std::size_t last = cfg.blocks[bid].last;
    const SassInstruction& inst = insts[last];
    ControlKind kind = cfg.control_of[last];
    bool conditional = is_conditional(inst);
    bool has_next = bid + 1 < real_blocks;
    auto next = [&](EdgeKind k) {
      if (has_next) b.add_edge(bid, bid + 1, k, last);
      // Falling off the end happens only in the padding after the last RET/BRA-to-self.
    };
    if (!ends_block(kind, inst)) {
      next(EdgeKind::fallthrough);
      continue;
    }
    switch (kind) {
      case ControlKind::branch:
      case ControlKind::warpsync: {
        const SassOperand* label = first_label(inst);
        std::optional<std::size_t> target;
        if (label != nullptr) target = b.resolve_target_block(last, label);
        if (target) b.add_edge(bid, *target, EdgeKind::branch_taken, last);
        else b.problem(last, "branch target not found");
        if (conditional) next(EdgeKind::branch_not_taken);
        break;
      }
      case ControlKind::indirect: {
        std::vector<std::string> problems;
        std::vector<std::size_t> blocks;
        for (std::size_t k : b.indirect_targets(last, &problems))
          if (std::find(blocks.begin(), blocks.end(), cfg.block_of[k]) == blocks.end()) blocks.push_back(cfg.block_of[k]);
        for (std::size_t t : blocks) b.add_edge(bid, t, EdgeKind::indirect, last);
        for (const auto& p : problems) b.problem(last, p);
        if (conditional) next(EdgeKind::branch_not_taken);
        break;
      }
      case ControlKind::call: {
        const SassOperand* label = first_label(inst);
        cfg.calls.push_back({last, label != nullptr ? std::string(std::string_view(label->text)) : std::string()});
        next(EdgeKind::call_return);
        break;
      }
      case ControlKind::ret:
      case ControlKind::exit:
      case ControlKind::trap:
        b.add_edge(bid, cfg.exit, EdgeKind::exit, last);
        if (conditional) next(EdgeKind::branch_not_taken);
        break;
      case ControlKind::pop_sync:
      case ControlKind::pop_break:
      case ControlKind::pop_continue: {
        auto names = branch_targets(inst.annotation);
        if (names.empty()) {
          pending_pops.push_back(bid);
        } else {
          for (const auto& name : names) {
            if (auto t = b.resolve_block(name)) b.add_edge(bid, *t, EdgeKind::reconvergence, last);
            else b.problem(last, "reconvergence target " + name + " not found");
          }
        }
        if (conditional) next(EdgeKind::branch_not_taken);
        break;
      }
      default:
        next(EdgeKind::fallthrough);
        break;
    }
  }

  // Pascal's reconvergence stack: walk the graph with the stack of (push kind, target block) in
  // force at each block, so a SYNC/BRK/CONT without an annotation goes where its SSY/PBK/PCNT
  // said. Merges keep the first stack seen (the compiler keeps them equal).
  bool has_pushes = std::any_of(cfg.control_of.begin(), cfg.control_of.end(), [](ControlKind k) {
    return k == ControlKind::push_sync || k == ControlKind::push_break || k == ControlKind::push_continue;
  });
  if (!pending_pops.empty() || has_pushes) {
    using Stack = std::vector<std::pair<ControlKind, std::size_t>>;
    std::vector<std::optional<Stack>> at_entry(cfg.blocks.size());
    std::vector<char> pending(cfg.blocks.size(), 0);
    for (std::size_t p : pending_pops) pending[p] = 1;
    std::deque<std::size_t> work;
    if (n > 0) {
      at_entry[cfg.entry] = Stack{};
      work.push_back(cfg.entry);
    }
    auto flow = [&](std::size_t to, const Stack& s) {
      if (cfg.blocks[to].is_virtual_exit || at_entry[to]) return;
      at_entry[to] = s;
      work.push_back(to);
    };
    while (!work.empty()) {
      std::size_t bid = work.front();
      work.pop_front();
      Stack stack = *at_entry[bid];
      const auto& block = cfg.blocks[bid];
      for (std::size_t i = block.first; i <= block.last; ++i) {
        ControlKind kind = cfg.control_of[i];
        if (kind == ControlKind::push_sync || kind == ControlKind::push_break ||
            kind == ControlKind::push_continue) {
          const SassOperand* label = first_label(insts[i]);
          std::optional<std::size_t> t;
          if (label != nullptr) t = b.resolve_block(label->text);
          if (t) stack.emplace_back(kind, *t);
        }
      }
      ControlKind last_kind = cfg.control_of[block.last];
      ControlKind push = matching_push(last_kind);
      std::optional<Stack> popped;
      if (push != ControlKind::none) {
        for (std::size_t k = stack.size(); k-- > 0;) {
          if (stack[k].first == push) {
            Stack below(stack.begin(), stack.begin() + static_cast<std::ptrdiff_t>(k));
            if (pending[bid]) {
              b.add_edge(bid, stack[k].second, EdgeKind::reconvergence, block.last);
              pending[bid] = 0;
            }
            popped = std::move(below);
            break;
          }
        }
        if (!popped && pending[bid]) {
          b.problem(block.last, "no matching SSY/PBK/PCNT on the reconvergence stack");
          pending[bid] = 0;
        }
      }
      for (std::size_t e : cfg.blocks[bid].successors) {
        const CfgEdge& edge = cfg.edges[e];
        if (edge.kind == EdgeKind::reconvergence && popped) flow(edge.to, *popped);
        else flow(edge.to, stack);
      }
    }
    for (std::size_t p = 0; p < pending.size(); ++p)
      if (pending[p]) b.problem(cfg.blocks[p].last, "unreachable SYNC/BRK/CONT without a target");
  }
  return cfg;
}

namespace {

std::string escape_dot(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string instruction_summary(const SassInstruction& inst) {
  std::string s;
  if (inst.guard) {
    s += '@';
    if (inst.guard->negated) s += '!';
    if (inst.guard->uniform) s += 'U';
    s += inst.guard->index == 7 ? "PT" : "P" + std::to_string(inst.guard->index);
    s += ' ';
  }
  s += inst.opcode.empty() ? "<undecoded>" : inst.opcode;
  s += inst.modifiers.dotted();
  return s;
}

std::string edge_style(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::fallthrough: return "";
    case EdgeKind::branch_taken: return " [label=\"T\", color=\"darkgreen\"]";
    case EdgeKind::branch_not_taken: return " [label=\"F\", color=\"red\"]";
    case EdgeKind::indirect: return " [label=\"indirect\", style=dashed]";
    case EdgeKind::call_return: return " [label=\"call\", style=dotted]";
    case EdgeKind::reconvergence: return " [label=\"reconv\", color=\"blue\", style=bold]";
    case EdgeKind::exit: return " [style=dashed, color=\"gray\"]";
  }
  return "";
}

std::string dot(const ControlFlowGraph& cfg, const SassFunction* function, const DotDecorations* deco = nullptr) {
  std::string out = "digraph \"" + escape_dot(cfg.function) + "\" {\n";
  out += "  node [shape=box, fontname=\"monospace\"];\n";
  for (const auto& block : cfg.blocks) {
    std::string label;
    if (block.is_virtual_exit) {
      out += "  b" + std::to_string(block.id) + " [label=\"exit\", shape=oval];\n";
      continue;
    }
    label = "B" + std::to_string(block.id);
    for (const auto& l : block.labels) label += " " + l;
    if (function != nullptr) {
      const auto& first = function->instructions[block.first];
      const auto& last = function->instructions[block.last];
      char range[64];
      std::snprintf(range, sizeof range, " [%04llx..%04llx]", static_cast<unsigned long long>(first.address),
                    static_cast<unsigned long long>(last.address));
      label += range;
      label += "\n" + instruction_summary(first);
      if (block.last != block.first) {
        if (block.last > block.first + 1) label += "\n...";
        label += "\n" + instruction_summary(last);
      }
    } else {
      label += " [" + std::to_string(block.first) + ".." + std::to_string(block.last) + "]";
    }
    if (deco != nullptr && block.id < deco->block_notes.size() && !deco->block_notes[block.id].empty())
      label += "\n" + deco->block_notes[block.id];
    out += "  b" + std::to_string(block.id) + " [label=\"" + escape_dot(label) + "\"";
    if (block.id == cfg.entry) out += ", penwidth=2";
    if (deco != nullptr && block.id < deco->block_attributes.size()) out += deco->block_attributes[block.id];
    out += "];\n";
  }
  for (const auto& e : cfg.edges)
    out += "  b" + std::to_string(e.from) + " -> b" + std::to_string(e.to) + edge_style(e.kind) + ";\n";
  if (deco != nullptr)
    for (const auto& line : deco->extra_lines) out += "  " + line + "\n";
  out += "}\n";
  return out;
}

}  // namespace

std::string to_dot(const ControlFlowGraph& cfg, const SassFunction& function) { return dot(cfg, &function); }
std::string to_dot(const ControlFlowGraph& cfg) { return dot(cfg, nullptr); }
std::string to_dot(const ControlFlowGraph& cfg, const SassFunction& function, const DotDecorations& decorations) {
  return dot(cfg, &function, &decorations);
}

}  // namespace gpuport::sass
