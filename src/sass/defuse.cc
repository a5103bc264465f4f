#include "sass/defuse.h"

#include <unordered_map>
#include <unordered_set>

#include <algorithm>
#include <array>
#include <deque>
#include <string_view>

namespace gpuport::sass {

namespace {

constexpr std::array<std::string_view, 14> kTypeModifiers{
    "F16", "BF16", "F32", "F64", "S8", "S16", "S32", "S64", "U8", "U16", "U32", "U64", "TF32", "E8"};

bool is_type_modifier(std::string_view m) {
  return std::find(kTypeModifiers.begin(), kTypeModifiers.end(), m) != kTypeModifiers.end();
}
bool is_float_type(std::string_view m) { return m.starts_with("F") || m.starts_with("BF") || m == "TF32"; }
bool is_64_bit(std::string_view m) { return m.ends_with("64"); }

bool is_predicate(const SassOperand& op) {
  return op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate;
}

void add_register(std::vector<RegisterRef>& out, OperandKind kind, std::uint16_t index, unsigned width) {
  switch (kind) {
    case OperandKind::reg:
      if (index == 255) return;
      for (unsigned k = 0; k < width && index + k < 255; ++k)
        out.push_back({RegisterFile::r, static_cast<std::uint16_t>(index + k)});
      return;
    case OperandKind::uniform_reg:
      if (index == kZeroRegister) return;
      for (unsigned k = 0; k < width && index + k < kZeroRegister; ++k)
        out.push_back({RegisterFile::ur, static_cast<std::uint16_t>(index + k)});
      return;
    case OperandKind::predicate:
      if (index != 7) out.push_back({RegisterFile::p, index});
      return;
    case OperandKind::uniform_predicate:
      if (index != 7) out.push_back({RegisterFile::up, index});
      return;
    default:
      return;
  }
}

void add_address(std::vector<RegisterRef>& out, const MemoryAddress& address) {
  // "desc[UR4]" / "gdesc[UR4]": the descriptor is kept as text; its uniform register is read.
  std::string_view descriptor = address.descriptor;
  if (std::size_t at = descriptor.find("[UR"); at != std::string_view::npos) {
    unsigned index = 0;
    bool digits = false;
    for (std::size_t k = at + 3; k < descriptor.size() && descriptor[k] >= '0' && descriptor[k] <= '9'; ++k) {
      index = index * 10 + static_cast<unsigned>(descriptor[k] - '0');
      digits = true;
    }
    if (digits && index < kZeroRegister) out.push_back({RegisterFile::ur, static_cast<std::uint16_t>(index)});
  }
  if (address.base.present)
    add_register(out, address.base.kind, address.base.index,
                 (address.wide || address.base.suffix == ".64") ? 2 : 1);
  if (address.index.present)
    add_register(out, address.index.kind, address.index.index, address.index.suffix == ".64" ? 2 : 1);
}

void add_operand(std::vector<RegisterRef>& out, const SassOperand& op, unsigned width) {
  switch (op.kind) {
    case OperandKind::memory:
    case OperandKind::constant:
      add_address(out, op.address);
      return;
    case OperandKind::special_reg:
      // PR / UPR stand for the whole predicate file (P2R, R2P).
      if (op.text == "PR")
        for (std::uint16_t p = 0; p < 7; ++p) out.push_back({RegisterFile::p, p});
      if (op.text == "UPR")
        for (std::uint16_t p = 0; p < 7; ++p) out.push_back({RegisterFile::up, p});
      return;
    default:
      add_register(out, op.kind, op.index, width);
  }
}

void sort_unique(std::vector<RegisterRef>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

// Register count of each operand under the table's width rule.
std::vector<unsigned> operand_widths(const SassInstruction& inst, WidthRule rule, std::size_t dest_count) {
  std::vector<unsigned> width(inst.operands.size(), 1);
  switch (rule) {
    case WidthRule::scalar:
      break;
    case WidthRule::memory: {
      unsigned w = inst.has_modifier("128") ? 4 : inst.has_modifier("64") ? 2 : 1;
      for (std::size_t i = 0; i < width.size(); ++i)
        if (inst.operands[i].kind == OperandKind::reg || inst.operands[i].kind == OperandKind::uniform_reg)
          width[i] = w;
      break;
    }
    case WidthRule::wide:
      if (inst.has_modifier("WIDE")) {
        if (!width.empty()) width[0] = 2;
        if (width.size() > 3) width[3] = 2;
      }
      break;
    case WidthRule::f64:
      for (std::size_t i = 0; i < width.size(); ++i) width[i] = 2;
      break;
    case WidthRule::convert: {
      std::vector<std::string_view> types;
      for (const auto& m : inst.modifiers)
        if (is_type_modifier(m)) types.push_back(m);
      bool dest64 = false;
      bool source64 = false;
      const bool int_to_float = inst.opcode == "I2F" || inst.opcode == "UI2F" || inst.opcode == "I2FP";
      const bool float_to_int = inst.opcode == "F2I";
      if (int_to_float || float_to_int) {
        // The float type belongs to one side and the integer type to the other, whatever the order.
        for (auto t : types) {
          bool float_side_is_dest = int_to_float;
          bool dest = is_float_type(t) == float_side_is_dest;
          (dest ? dest64 : source64) = (dest ? dest64 : source64) || is_64_bit(t);
        }
      } else {
        if (!types.empty()) dest64 = is_64_bit(types[0]);
        if (types.size() > 1) source64 = is_64_bit(types[1]);
      }
      for (std::size_t i = 0; i < width.size(); ++i) width[i] = (i < dest_count ? dest64 : source64) ? 2 : 1;
      break;
    }
  }
  return width;
}

}  // namespace

std::string register_name(RegisterRef reg) {
  switch (reg.file) {
    case RegisterFile::r: return "R" + std::to_string(reg.index);
    case RegisterFile::ur: return "UR" + std::to_string(reg.index);
    case RegisterFile::p: return "P" + std::to_string(reg.index);
    case RegisterFile::up: return "UP" + std::to_string(reg.index);
  }
  return "?";
}

InstructionDefUse def_use(const SassInstruction& inst, const OpcodeTable& table) {
  InstructionDefUse du;
  if (inst.guard) {
    if (inst.guard->index != 7) {
      du.uses.push_back({inst.guard->uniform ? RegisterFile::up : RegisterFile::p, inst.guard->index});
      du.partial = true;
    } else if (inst.guard->negated) {
      du.partial = true;  // @!PT: never executes
    }
  }
  if (inst.opcode.empty()) {
    du.known_opcode = false;
    return du;
  }
  const OpcodeInfo* info = table.find(inst.opcode);
  du.known_opcode = info != nullptr;
  const auto& ops = inst.operands;

  std::size_t dest_count = 0;
  if (info == nullptr) {
    dest_count = ops.empty() ? 0 : 1;
  } else if (info->def_rule == DefRule::count) {
    dest_count = std::min<std::size_t>(info->defs, ops.size());
  } else if (!ops.empty()) {
    if (is_predicate(ops[0])) {
      dest_count = std::min<std::size_t>(2, ops.size());
    } else {
      dest_count = 1;
      while (dest_count < ops.size() && is_predicate(ops[dest_count]) && !ops[dest_count].logical_not) ++dest_count;
    }
  }
  auto width = operand_widths(inst, info != nullptr ? info->width : WidthRule::scalar, dest_count);
  for (std::size_t i = 0; i < ops.size(); ++i) {
    // Addresses inside a leading memory operand are read, never written.
    bool dest = i < dest_count && ops[i].kind != OperandKind::memory && ops[i].kind != OperandKind::constant;
    add_operand(dest ? du.defs : du.uses, ops[i], width[i]);
  }
  sort_unique(du.defs);
  sort_unique(du.uses);
  return du;
}

std::vector<InstructionDefUse> def_use(const SassFunction& function, const OpcodeTable& table) {
  std::vector<InstructionDefUse> out;
  out.reserve(function.instructions.size());
  for (const auto& inst : function.instructions) out.push_back(def_use(inst, table));
  return out;
}

namespace {

// A register as a small integer: R0..R255, UR0..UR255, P0..P7, UP0..UP7 and room to spare.
constexpr std::uint32_t kRegisterKeys = 4 * 256;
std::uint32_t register_key(RegisterRef r) { return static_cast<std::uint32_t>(r.file) * 256 + (r.index & 255); }

}  // namespace

ValueGraph build_value_graph(const ControlFlowGraph& cfg, const std::vector<InstructionDefUse>& du) {
  ValueGraph g;
  const std::size_t nb = cfg.blocks.size();
  const std::uint32_t none = ValueGraph::none;
  std::vector<std::uint32_t> live_in(kRegisterKeys, none);
  auto add_value = [&](ValueGraph::Value v) {
    g.values.push_back(std::move(v));
    return static_cast<std::uint32_t>(g.values.size() - 1);
  };
  auto live_in_value = [&](RegisterRef r) {
    auto& v = live_in[register_key(r)];
    if (v == none) v = add_value({ValueGraph::Kind::live_in, r, none, none, {}});
    return v;
  };

  // Each block's values at its end, by register (sorted by key), and the reads of a value at a
  // block's entry that wait for resolution: (block << 32 | register key), and where the value
  // goes: a use (instruction, slot) or a partial definition's earlier value (value, -1).
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> block_end(nb);
  struct PendingRead {
    std::uint64_t key;
    std::uint32_t owner;  // instruction, or value for a partial definition
    std::uint32_t slot;   // use slot; none for a partial definition
  };
  std::vector<PendingRead> pending_reads;
  g.use_values.resize(du.size());
  for (std::size_t i = 0; i < du.size(); ++i) g.use_values[i].assign(du[i].uses.size(), none);
  // Definitions first (in instruction order), so that partial definitions and uses can point
  // at them; values are created per definition.
  std::vector<std::uint32_t> first_def(du.size() + 1, 0);
  for (std::size_t i = 0; i < du.size(); ++i) {
    first_def[i] = static_cast<std::uint32_t>(g.definitions.size());
    for (const auto& reg : du[i].defs) {
      g.definition_value.push_back(add_value({ValueGraph::Kind::definition, reg,
                                              static_cast<std::uint32_t>(g.definitions.size()), none, {}}));
      g.definitions.push_back({i, reg});
    }
  }
  first_def[du.size()] = static_cast<std::uint32_t>(g.definitions.size());
  for (std::size_t i = 0; i < du.size(); ++i)
    if (du[i].partial)
      for (std::uint32_t d = first_def[i]; d < first_def[i + 1]; ++d) g.values[g.definition_value[d]].operands.assign(1, none);

  std::vector<std::uint32_t> current(kRegisterKeys, none), stamp(kRegisterKeys, none);
  for (const auto& block : cfg.blocks) {
    if (block.is_virtual_exit) continue;
    const auto b = static_cast<std::uint32_t>(block.id);
    // A read takes the block's latest definition before it, else waits for the entry value.
    auto read = [&](RegisterRef r, std::uint32_t owner, std::uint32_t slot) -> std::uint32_t {
      const std::uint32_t k = register_key(r);
      if (stamp[k] == b) return current[k];
      pending_reads.push_back({(std::uint64_t{b} << 32) | k, owner, slot});
      return none;
    };
    for (std::size_t i = block.first; i <= block.last && i < du.size(); ++i) {
      const auto ii = static_cast<std::uint32_t>(i);
      for (std::size_t u = 0; u < du[i].uses.size(); ++u)
        g.use_values[i][u] = read(du[i].uses[u], ii, static_cast<std::uint32_t>(u));
      for (std::uint32_t d = first_def[i]; d < first_def[i + 1]; ++d) {
        const std::uint32_t v = g.definition_value[d];
        if (du[i].partial) g.values[v].operands[0] = read(g.definitions[d].reg, v, none);
        const std::uint32_t k = register_key(g.definitions[d].reg);
        stamp[k] = b;
        current[k] = v;
      }
    }
    for (std::uint32_t k = 0; k < kRegisterKeys; ++k)
      if (stamp[k] == b) block_end[b].emplace_back(k, current[k]);
  }
  auto end_value = [&](std::size_t block, std::uint32_t key) -> std::uint32_t {
    const auto& e = block_end[block];
    auto it = std::lower_bound(e.begin(), e.end(), std::make_pair(key, std::uint32_t{0}));
    return it != e.end() && it->first == key ? it->second : none;
  };

  // Entry values, resolved without recursion (single-predecessor chains can be very long):
  // a block with no predecessor reads the live-in value, one with a single predecessor that
  // predecessor's end value (or, with no definition there, the same as the predecessor's entry:
  // an alias, followed at the end), a join block a merge over its predecessors' end values.
  // Merges are made before their operands are looked for, so loops terminate.
  std::unordered_map<std::uint64_t, std::uint32_t> entry;  // (block << 32 | key) -> value
  std::unordered_map<std::uint64_t, std::uint64_t> alias;  // single predecessor, nothing defined: its entry
  std::vector<std::pair<std::uint32_t, std::size_t>> operand_reads;  // (merge value, operand index)
  std::vector<std::uint64_t> stack;
  auto distinct_predecessors = [&](std::size_t b) {
    auto preds = cfg.predecessor_blocks(b);
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    return preds;
  };
  auto reg_of = [](std::uint32_t key) {
    return RegisterRef{static_cast<RegisterFile>(key / 256), static_cast<std::uint16_t>(key % 256)};
  };
  auto resolve = [&](std::uint64_t start) {
    stack.push_back(start);
    while (!stack.empty()) {
      const std::uint64_t key = stack.back();
      stack.pop_back();
      if (entry.count(key) || alias.count(key)) continue;
      const std::size_t b = key >> 32;
      const auto reg_key = static_cast<std::uint32_t>(key & 0xffffffffu);
      const auto preds = distinct_predecessors(b);
      if (preds.empty()) {
        entry[key] = live_in_value(reg_of(reg_key));
      } else if (preds.size() == 1) {
        if (std::uint32_t v = end_value(preds[0], reg_key); v != none) {
          entry[key] = v;
        } else {
          const std::uint64_t pk = (std::uint64_t{preds[0]} << 32) | reg_key;
          alias[key] = pk;
          stack.push_back(pk);
        }
      } else {
        const std::uint32_t m = add_value({ValueGraph::Kind::merge, reg_of(reg_key), none, static_cast<std::uint32_t>(b),
                                           std::vector<std::uint32_t>(preds.size(), none)});
        entry[key] = m;
        for (std::size_t k = 0; k < preds.size(); ++k) {
          if (std::uint32_t v = end_value(preds[k], reg_key); v != none) {
            g.values[m].operands[k] = v;
          } else {
            operand_reads.emplace_back(m, k);
            stack.push_back((std::uint64_t{preds[k]} << 32) | reg_key);
          }
        }
      }
    }
  };
  // The value at an entry: aliases followed (and shortened); a ring of aliases is a loop of
  // single-predecessor blocks that no definition reaches: the live-in value.
  std::vector<std::uint64_t> chain;
  std::unordered_set<std::uint64_t> on_chain;
  auto entry_value = [&](std::uint64_t key) {
    chain.clear();
    on_chain.clear();
    std::uint64_t k = key;
    std::uint32_t v = none;
    while (true) {
      if (auto it = entry.find(k); it != entry.end()) {
        v = it->second;
        break;
      }
      if (!on_chain.insert(k).second) {
        v = live_in_value(reg_of(static_cast<std::uint32_t>(key & 0xffffffffu)));
        break;
      }
      chain.push_back(k);
      k = alias.at(k);
    }
    for (std::uint64_t c : chain) {
      alias.erase(c);
      entry[c] = v;
    }
    return v;
  };
  for (const auto& r : pending_reads) resolve(r.key);
  for (const auto& r : pending_reads) {
    const std::uint32_t v = entry_value(r.key);
    if (r.slot == none) g.values[r.owner].operands[0] = v;
    else g.use_values[r.owner][r.slot] = v;
  }
  // Merge operands read their predecessor's entry value (resolved above, since each was pushed).
  for (const auto& [m, k] : operand_reads) {
    const std::size_t p = distinct_predecessors(g.values[m].block)[k];
    const std::uint32_t v = entry_value((std::uint64_t{p} << 32) | register_key(g.values[m].reg));
    g.values[m].operands[k] = v;
  }
  return g;
}

std::vector<std::size_t> ValueGraph::reaching(std::uint32_t value) const {
  std::vector<std::size_t> out;
  std::vector<char> seen(values.size(), 0);
  std::vector<std::uint32_t> work = {value};
  while (!work.empty()) {
    const std::uint32_t v = work.back();
    work.pop_back();
    if (v == none || seen[v]) continue;
    seen[v] = 1;
    if (values[v].kind == Kind::definition) out.push_back(values[v].definition);
    for (std::uint32_t o : values[v].operands) work.push_back(o);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::size_t> ValueGraph::reaching(const std::vector<InstructionDefUse>& du, std::size_t index,
                                              RegisterRef reg) const {
  for (std::size_t u = 0; u < du[index].uses.size(); ++u)
    if (du[index].uses[u] == reg) return reaching(use_values[index][u]);
  return {};
}

}  // namespace gpuport::sass
