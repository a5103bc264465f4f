#include "sass/defuse.h"

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
      if (index == 63) return;
      for (unsigned k = 0; k < width && index + k < 63; ++k)
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
    if (digits && index < 63) out.push_back({RegisterFile::ur, static_cast<std::uint16_t>(index)});
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

using Bits = std::vector<std::uint64_t>;

void set_bit(Bits& b, std::size_t i) { b[i / 64] |= std::uint64_t{1} << (i % 64); }
bool test_bit(const Bits& b, std::size_t i) { return (b[i / 64] >> (i % 64)) & 1u; }

}  // namespace

ReachingDefinitions reaching_definitions(const ControlFlowGraph& cfg, const std::vector<InstructionDefUse>& du) {
  ReachingDefinitions rd;
  std::vector<std::vector<std::size_t>> defs_of_instruction(du.size());
  for (std::size_t i = 0; i < du.size(); ++i)
    for (const auto& reg : du[i].defs) {
      defs_of_instruction[i].push_back(rd.definitions.size());
      rd.definitions.push_back({i, reg});
    }
  const std::size_t d = rd.definitions.size();
  const std::size_t words = (d + 63) / 64;
  // All definition sites of each register, for kills.
  std::vector<std::pair<RegisterRef, std::size_t>> by_register;
  for (std::size_t k = 0; k < d; ++k) by_register.emplace_back(rd.definitions[k].reg, k);
  std::sort(by_register.begin(), by_register.end());
  auto sites_of = [&](RegisterRef reg) {
    auto lo = std::lower_bound(by_register.begin(), by_register.end(), std::make_pair(reg, std::size_t{0}));
    auto hi = std::upper_bound(by_register.begin(), by_register.end(),
                               std::make_pair(reg, static_cast<std::size_t>(-1)));
    return std::make_pair(lo, hi);
  };

  const std::size_t nb = cfg.blocks.size();
  std::vector<Bits> gen(nb, Bits(words, 0)), kill(nb, Bits(words, 0)), in(nb, Bits(words, 0)),
      out(nb, Bits(words, 0));
  for (const auto& block : cfg.blocks) {
    if (block.is_virtual_exit) continue;
    Bits& g = gen[block.id];
    Bits& k = kill[block.id];
    for (std::size_t i = block.first; i <= block.last && i < du.size(); ++i) {
      for (std::size_t def : defs_of_instruction[i]) {
        if (!du[i].partial) {
          auto [lo, hi] = sites_of(rd.definitions[def].reg);
          for (auto it = lo; it != hi; ++it) {
            set_bit(k, it->second);
            g[it->second / 64] &= ~(std::uint64_t{1} << (it->second % 64));
          }
        }
        set_bit(g, def);
      }
    }
  }
  std::deque<std::size_t> work;
  std::vector<char> queued(nb, 0);
  for (std::size_t b = 0; b < nb; ++b) {
    out[b] = gen[b];
    work.push_back(b);
    queued[b] = 1;
  }
  while (!work.empty()) {
    std::size_t b = work.front();
    work.pop_front();
    queued[b] = 0;
    Bits new_in(words, 0);
    for (std::size_t p : cfg.predecessor_blocks(b))
      for (std::size_t w = 0; w < words; ++w) new_in[w] |= out[p][w];
    in[b] = new_in;
    Bits new_out(words, 0);
    for (std::size_t w = 0; w < words; ++w) new_out[w] = gen[b][w] | (new_in[w] & ~kill[b][w]);
    if (new_out != out[b]) {
      out[b] = std::move(new_out);
      for (std::size_t s : cfg.successor_blocks(b))
        if (!queued[s]) {
          queued[s] = 1;
          work.push_back(s);
        }
    }
  }
  rd.in.assign(nb, {});
  rd.out.assign(nb, {});
  for (std::size_t b = 0; b < nb; ++b)
    for (std::size_t k = 0; k < d; ++k) {
      if (test_bit(in[b], k)) rd.in[b].push_back(k);
      if (test_bit(out[b], k)) rd.out[b].push_back(k);
    }
  return rd;
}

std::vector<std::size_t> ReachingDefinitions::reaching(const ControlFlowGraph& cfg,
                                                       const std::vector<InstructionDefUse>& du,
                                                       std::size_t index, RegisterRef reg) const {
  std::size_t block = cfg.block_of[index];
  std::vector<std::size_t> current;
  for (std::size_t k : in[block])
    if (definitions[k].reg == reg) current.push_back(k);
  std::size_t k = 0;
  // Definitions are numbered in instruction order, so walk them alongside the instructions.
  while (k < definitions.size() && definitions[k].instruction < cfg.blocks[block].first) ++k;
  for (; k < definitions.size() && definitions[k].instruction < index; ++k) {
    if (definitions[k].reg != reg) continue;
    if (!du[definitions[k].instruction].partial) current.clear();
    current.push_back(k);
  }
  std::sort(current.begin(), current.end());
  return current;
}

}  // namespace gpuport::sass
