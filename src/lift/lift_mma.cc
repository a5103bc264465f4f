// Matrix instructions (HMMA, IMMA, DMMA, BMMA) and the warp-wide matrix loads that feed them
// (LDSM, MOVM): each thread computes its own fragment of the result from the fragments of the
// other lanes, read through the read_lane hook. Semantics and layouts in semantics/sass_mma.*.
#include <fmt/format.h>

#include <charconv>

#include "lift/lift_context.h"
#include "lift/semantics/sass_mma.h"

namespace gpuport::lift {
namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

// Whether every dotted piece of the operand's suffix is ".reuse" or `allowed` (when not empty).
bool suffix_only(const SassOperand& op, std::string_view allowed) {
  std::string_view rest = op.suffix;
  while (!rest.empty()) {
    const std::size_t next = rest.find('.', 1);
    const std::string_view piece = rest.substr(0, next);
    if (piece != ".reuse" && (allowed.empty() || piece != allowed)) return false;
    if (next == std::string_view::npos) break;
    rest = rest.substr(next);
  }
  return true;
}

// A register operand (RZ allowed) without prefix modifiers.
bool unmodified_register(const SassOperand& op) {
  return op.kind == OperandKind::reg && !op.negate && !op.absolute && !op.bitwise_not && !op.logical_not;
}
// ... and with only the allowed suffix.
bool plain_register(const SassOperand& op, std::string_view allowed = {}) { return unmodified_register(op) && suffix_only(op, allowed); }

// A fresh [count x iN] array in the function's entry block (stack memory the semantic function
// reads or writes through a pointer; SROA turns it back into values after inlining).
llvm::Value* entry_array(LiftContext& cx, llvm::Type* element, unsigned count, const char* name) {
  llvm::Function* f = cx.builder().GetInsertBlock()->getParent();
  llvm::BasicBlock& entry = f->getEntryBlock();
  llvm::IRBuilder<> at_entry(&entry, entry.getFirstInsertionPt());
  return at_entry.CreateAlloca(llvm::ArrayType::get(element, count), nullptr, name);
}

// The registers Rn .. Rn+count-1 (RZ: zeros) in a new array of i32, or of i64 pairs when `pairs`.
llvm::Value* source_array(LiftContext& cx, const SassOperand& op, unsigned count, bool pairs, const char* name) {
  auto& b = cx.builder();
  llvm::Type* element = pairs ? cx.i64() : cx.i32();
  llvm::Value* array = entry_array(cx, element, count, name);
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value* v;
    if (op.is_zero_register()) {
      v = llvm::ConstantInt::get(element, 0);
    } else if (pairs) {
      llvm::Value* lo = b.CreateZExt(cx.reg(false, op.index + 2 * i), cx.i64());
      llvm::Value* hi = b.CreateZExt(cx.reg(false, op.index + 2 * i + 1), cx.i64());
      v = b.CreateOr(b.CreateShl(hi, 32), lo);
    } else {
      v = cx.reg(false, op.index + i);
    }
    b.CreateStore(v, b.CreateConstGEP2_32(llvm::ArrayType::get(element, count), array, 0, i));
  }
  return array;
}

// Copies a result array into Rd .. (RZ: dropped).
void write_results(LiftContext& cx, const SassOperand& d, llvm::Value* array, unsigned count, bool pairs) {
  if (d.is_zero_register()) return;
  auto& b = cx.builder();
  llvm::Type* element = pairs ? cx.i64() : cx.i32();
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value* v = b.CreateLoad(element, b.CreateConstGEP2_32(llvm::ArrayType::get(element, count), array, 0, i));
    if (pairs) {
      cx.set_reg(false, d.index + 2 * i, b.CreateTrunc(v, cx.i32()));
      cx.set_reg(false, d.index + 2 * i + 1, b.CreateTrunc(b.CreateLShr(v, 32), cx.i32()));
    } else {
      cx.set_reg(false, d.index + i, v);
    }
  }
}

// A matrix shape "16816" (m16 n8 k16), "8816", "168256", "884", or sm_90's "8x8x4" / "16x8x16".
struct Shape {
  unsigned m = 0, n = 0, k = 0;
};
std::optional<Shape> parse_shape(std::string_view text) {
  auto number = [](std::string_view s, unsigned& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
  };
  Shape shape;
  if (const std::size_t x = text.find('x'); x != std::string_view::npos) {
    const std::size_t y = text.find('x', x + 1);
    if (y == std::string_view::npos || !number(text.substr(0, x), shape.m) || !number(text.substr(x + 1, y - x - 1), shape.n) ||
        !number(text.substr(y + 1), shape.k))
      return std::nullopt;
    return shape;
  }
  if (text.starts_with("168")) shape.m = 16, text.remove_prefix(3);
  else if (text.starts_with("88")) shape.m = 8, text.remove_prefix(2);
  else return std::nullopt;
  shape.n = 8;
  if (!number(text, shape.k)) return std::nullopt;
  return shape;
}

// The modifiers after the shape, checked against a list: the instruction is refused when one is
// left over (an unknown modifier must not be ignored).
std::vector<std::string_view> modifier_list(const SassInstruction& ins) {
  std::vector<std::string_view> out;
  for (std::string_view m : ins.modifiers) out.push_back(m);
  return out;
}

// The four operands d, a, b, c of a matrix instruction; A and B with the suffixes `a_suffix` and
// `b_suffix` (".ROW", ".COL" of IMMA/BMMA) when given.
bool mma_operands(LiftContext& cx, const SassInstruction& ins, std::string_view a_suffix, std::string_view b_suffix) {
  const auto& ops = ins.operands;
  if (ops.size() != 4) return cx.refuse(fmt::format("{} needs four register operands", ins.opcode));
  for (const auto& op : ops)
    if (!unmodified_register(op))
      return cx.refuse(fmt::format("{} with an operand that is not a plain register", ins.opcode));
  if (!suffix_only(ops[0], {}) || !suffix_only(ops[1], a_suffix) || !suffix_only(ops[2], b_suffix) || !suffix_only(ops[3], {}) ||
      (!a_suffix.empty() && (!ops[1].has_suffix(a_suffix) || !ops[2].has_suffix(b_suffix))))
    return cx.refuse(fmt::format("{} operand suffixes other than {} A and {} B are not supported", ins.opcode,
                                 a_suffix.empty() ? "plain" : a_suffix, b_suffix.empty() ? "plain" : b_suffix));
  if (ops[1].is_zero_register() || ops[2].is_zero_register()) return cx.refuse(fmt::format("{} with RZ as A or B", ins.opcode));
  return true;
}

// Emits the call of a matrix semantic function on register arrays and writes D.
bool emit_mma(LiftContext& cx, const SassInstruction& ins, std::string_view semantic, std::vector<llvm::Value*> leading,
              unsigned a_count, unsigned b_count, unsigned c_count, bool pairs) {
  const auto& ops = ins.operands;
  llvm::Value* a = source_array(cx, ops[1], a_count, pairs, "mma.a");
  llvm::Value* b = source_array(cx, ops[2], b_count, pairs, "mma.b");
  llvm::Value* c = source_array(cx, ops[3], c_count, pairs, "mma.c");
  llvm::Value* d = entry_array(cx, pairs ? cx.i64() : cx.i32(), c_count, "mma.d");
  leading.insert(leading.end(), {a, b, c, d});
  cx.semantic(semantic, std::move(leading));
  write_results(cx, ops[0], d, c_count, pairs);
  return true;
}

// HMMA.<shape>.F32|F16[.BF16|.TF32]: m16n8k16 and m16n8k8 of f16/bf16, m16n8k4 and m16n8k8 of tf32.
bool lift_hmma(LiftContext& cx, const SassInstruction& ins) {
  const auto mods = modifier_list(ins);
  const auto shape = mods.empty() ? std::nullopt : parse_shape(mods[0]);
  if (!shape || shape->m != 16 || shape->n != 8)
    return cx.refuse(fmt::format("HMMA shape .{} is not supported (sm_70's 884 quad-pair form is not)", mods.empty() ? "" : mods[0]));
  if (mods.size() < 2 || (mods[1] != "F32" && mods[1] != "F16")) return cx.refuse("HMMA without an .F32 or .F16 accumulator");
  const bool f16_accumulator = mods[1] == "F16";
  int type = SASS_MMA_F16;
  if (mods.size() == 3 && mods[2] == "BF16") type = SASS_MMA_BF16;
  else if (mods.size() == 3 && mods[2] == "TF32") type = SASS_MMA_TF32;
  else if (mods.size() != 2) return cx.refuse(fmt::format("HMMA modifiers {} are not supported", ins.modifiers.dotted()));
  const unsigned k = shape->k;
  const bool shape_ok = type == SASS_MMA_TF32 ? (k == 4 || k == 8) : (k == 8 || k == 16);
  if (!shape_ok || (type != SASS_MMA_F16 && f16_accumulator))
    return cx.refuse(fmt::format("HMMA form {} is not supported", ins.modifiers.dotted()));
  if (!mma_operands(cx, ins, {}, {})) return false;
  const unsigned per_word = type == SASS_MMA_TF32 ? 1 : 2;
  const unsigned b_count = 8 * k / 32 / per_word;
  return emit_mma(cx, ins, "hmma", {cx.u32(k), cx.u32(type), cx.flag(f16_accumulator)}, 2 * b_count, b_count,
                  f16_accumulator ? 2 : 4, false);
}

// IMMA.<shape>.<A type>.<B type>[.SAT] d, a.ROW, b.COL, c: 8- and 4-bit integers, m8 and m16.
bool lift_imma(LiftContext& cx, const SassInstruction& ins) {
  const auto mods = modifier_list(ins);
  const auto shape = mods.empty() ? std::nullopt : parse_shape(mods[0]);
  if (!shape || shape->n != 8) return cx.refuse(fmt::format("IMMA shape .{} is not supported", mods.empty() ? "" : mods[0]));
  auto type_of = [](std::string_view t) -> int {
    if (t == "U8") return SASS_MMA_U8;
    if (t == "S8") return SASS_MMA_S8;
    if (t == "U4") return SASS_MMA_U4;
    if (t == "S4") return SASS_MMA_S4;
    return -1;
  };
  if (mods.size() < 3 || mods.size() > 4 || (mods.size() == 4 && mods[3] != "SAT"))
    return cx.refuse(fmt::format("IMMA modifiers {} are not supported", ins.modifiers.dotted()));
  const int a_type = type_of(mods[1]), b_type = type_of(mods[2]);
  if (a_type < 0 || b_type < 0) return cx.refuse(fmt::format("IMMA element types {} are not supported", ins.modifiers.dotted()));
  const bool four_bit = a_type >= SASS_MMA_U4;
  if (four_bit != (b_type >= SASS_MMA_U4)) return cx.refuse("IMMA with A and B of different widths");
  const unsigned per_word = four_bit ? 8 : 4;
  // The shapes PTX has: m8n8k16 / m16n8k16 / m16n8k32 of 8 bits, m8n8k32 / m16n8k32 / m16n8k64 of 4.
  const unsigned k = shape->k;
  const bool shape_ok = four_bit ? (shape->m == 8 ? k == 32 : (k == 32 || k == 64)) : (shape->m == 8 ? k == 16 : (k == 16 || k == 32));
  if (!shape_ok) return cx.refuse(fmt::format("IMMA shape .{} is not supported", mods[0]));
  if (!mma_operands(cx, ins, ".ROW", ".COL")) return false;
  const unsigned b_count = 8 * k / 32 / per_word;
  return emit_mma(cx, ins, "imma",
                  {cx.u32(shape->m), cx.u32(k), cx.u32(a_type), cx.u32(b_type), cx.flag(mods.size() == 4)},
                  shape->m / 8 * b_count, b_count, shape->m / 4, false);
}

// BMMA.<shape>.AND|XOR.POPC d, a.ROW, b.COL, c: m8n8k128, m16n8k128, m16n8k256 of single bits.
bool lift_bmma(LiftContext& cx, const SassInstruction& ins) {
  const auto mods = modifier_list(ins);
  const auto shape = mods.empty() ? std::nullopt : parse_shape(mods[0]);
  if (!shape || shape->n != 8 || !(shape->k == 128 || (shape->m == 16 && shape->k == 256)))
    return cx.refuse(fmt::format("BMMA shape .{} is not supported", mods.empty() ? "" : mods[0]));
  if (mods.size() != 3 || (mods[1] != "AND" && mods[1] != "XOR") || mods[2] != "POPC")
    return cx.refuse(fmt::format("BMMA modifiers {} are not supported", ins.modifiers.dotted()));
  if (!mma_operands(cx, ins, ".ROW", ".COL")) return false;
  const unsigned b_count = 8 * shape->k / 32 / 32;
  return emit_mma(cx, ins, "bmma", {cx.u32(shape->m), cx.u32(shape->k), cx.flag(mods[1] == "XOR")}, shape->m / 8 * b_count,
                  b_count, shape->m / 4, false);
}

// DMMA.884 (sm_80) / DMMA.8x8x4 (sm_90), and sm_90's m16n8k4/8/16: f64, register pairs.
bool lift_dmma(LiftContext& cx, const SassInstruction& ins) {
  const auto mods = modifier_list(ins);
  const auto shape = mods.size() == 1 ? parse_shape(mods[0]) : std::nullopt;
  if (!shape || shape->n != 8 || !((shape->m == 8 && shape->k == 4) || (shape->m == 16 && (shape->k == 4 || shape->k == 8 || shape->k == 16))))
    return cx.refuse(fmt::format("DMMA form {} is not supported", ins.modifiers.dotted()));
  if (!mma_operands(cx, ins, {}, {})) return false;
  const unsigned b_count = 8 * shape->k / 32;
  return emit_mma(cx, ins, "dmma", {cx.u32(shape->m), cx.u32(shape->k)}, shape->m / 8 * b_count, b_count, shape->m / 4, true);
}

// LDSM.16.M88[.2|.4] d, [addr] and LDSM.16.MT88[.2|.4]: lanes 8i..8i+7 address the rows of 8x8
// matrix i of 16-bit elements in shared memory; matrix i lands in Rd+i of every lane.
bool lift_ldsm(LiftContext& cx, const SassInstruction& ins) {
  const auto mods = modifier_list(ins);
  if (mods.size() < 2 || mods.size() > 3 || mods[0] != "16" || (mods[1] != "M88" && mods[1] != "MT88") ||
      (mods.size() == 3 && mods[2] != "2" && mods[2] != "4"))
    return cx.refuse(fmt::format("LDSM modifiers {} are not supported", ins.modifiers.dotted()));
  const bool transposed = mods[1] == "MT88";
  const unsigned matrices = mods.size() == 3 ? (mods[2] == "2" ? 2 : 4) : 1;
  const auto& ops = ins.operands;
  if (ops.size() != 2 || !plain_register(ops[0]) || ops[1].kind != OperandKind::memory)
    return cx.refuse("LDSM needs a register and a shared address");
  auto& b = cx.builder();
  llvm::Value* address = b.CreateTrunc(cx.address(ops[1].address), cx.i32());
  llvm::Value* lane = cx.hook("lane_id", {});
  llvm::Value* offset = cx.semantic("ldsm_row_offset", {lane, cx.flag(transposed)});
  // Every lane reads every row address (the exchange is uniform) before any register is written.
  std::vector<llvm::Value*> words;
  for (unsigned i = 0; i < matrices; ++i) {
    if (!transposed) {
      llvm::Value* row = cx.hook("read_lane", {address, cx.semantic("ldsm_source_lane", {lane, cx.u32(i), cx.flag(false), cx.u32(0)})});
      auto* load = b.CreateLoad(cx.i32(), cx.shared_pointer(b.CreateAdd(row, offset)));
      load->setAlignment(llvm::Align(4));
      words.push_back(load);
      continue;
    }
    llvm::Value* word = nullptr;
    for (unsigned half = 0; half < 2; ++half) {
      llvm::Value* row =
          cx.hook("read_lane", {address, cx.semantic("ldsm_source_lane", {lane, cx.u32(i), cx.flag(true), cx.u32(half)})});
      auto* load = b.CreateLoad(cx.i16(), cx.shared_pointer(b.CreateAdd(row, offset)));
      load->setAlignment(llvm::Align(2));
      llvm::Value* part = b.CreateShl(b.CreateZExt(load, cx.i32()), 16 * half);
      word = word == nullptr ? part : b.CreateOr(word, part);
    }
    words.push_back(word);
  }
  if (!ops[0].is_zero_register())
    for (unsigned i = 0; i < matrices; ++i) cx.set_reg(false, ops[0].index + i, words[i]);
  return true;
}

// MOVM.16.MT88 d, a: transposes the 8x8 matrix of 16-bit elements the warp holds.
bool lift_movm(LiftContext& cx, const SassInstruction& ins) {
  const auto mods = modifier_list(ins);
  if (mods.size() != 2 || mods[0] != "16" || mods[1] != "MT88")
    return cx.refuse(fmt::format("MOVM modifiers {} are not supported", ins.modifiers.dotted()));
  const auto& ops = ins.operands;
  if (ops.size() != 2 || !plain_register(ops[0]) || !plain_register(ops[1])) return cx.refuse("MOVM needs two registers");
  cx.write(ops[0], cx.semantic("movm_transpose", {cx.read(ops[1])}));
  return true;
}

}  // namespace

void register_mma_handlers(HandlerTable& t) {
  t["HMMA"] = lift_hmma;
  t["IMMA"] = lift_imma;
  t["BMMA"] = lift_bmma;
  t["DMMA"] = lift_dmma;
  t["LDSM"] = lift_ldsm;
  t["MOVM"] = lift_movm;
}

}  // namespace gpuport::lift
