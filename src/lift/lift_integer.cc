// Integer instructions (vector and uniform datapath): moves, IADD3, IMAD, LOP3, ISETP, SHF, LEA,
// SEL, PRMT, ... Semantics in semantics/sass_integer.cc; operand layouts as nvdisasm prints them.
// Every handler checks the modifiers and operand suffixes it is given against those it
// implements: anything else is refused, never ignored.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

bool is_predicate(const SassOperand& op) {
  return op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate;
}

// Refuses an instruction that carries a modifier outside `known`.
bool known_modifiers(LiftContext& cx, const SassInstruction& ins, std::initializer_list<std::string_view> known) {
  for (std::string_view m : ins.modifiers)
    if (std::find(known.begin(), known.end(), m) == known.end())
      return cx.refuse(fmt::format("{} with the modifier .{} is not supported", ins.opcode, m));
  return true;
}

// Refuses operands whose reading the handlers do not model: suffixes other than the reuse flag
// (a register half .H1 or byte .B2 would change the value). Relocated symbol addresses
// (32@lo(symbol)) are values cx.read() resolves (lift_memory.cc); as a truth table, mask or count
// they are refused (immediate_value). `byte_suffix_at` names the one operand (R2P's source) that
// may carry a byte selector.
bool plain_operands(LiftContext& cx, const SassInstruction& ins, std::size_t byte_suffix_at = ~std::size_t{0}) {
  for (std::size_t i = 0; i < ins.operands.size(); ++i) {
    const SassOperand& op = ins.operands[i];
    std::string_view rest = op.suffix;
    while (!rest.empty()) {
      const std::size_t next = rest.find('.', 1);
      const std::string_view piece = rest.substr(0, next);
      const bool byte_selector = i == byte_suffix_at && (piece == ".B0" || piece == ".B1" || piece == ".B2" || piece == ".B3");
      if (piece != ".reuse" && !byte_selector)
        return cx.refuse(fmt::format("{} with an operand suffix {} is not supported", ins.opcode, piece));
      if (next == std::string_view::npos) break;
      rest.remove_prefix(next);
    }
    if (op.kind == OperandKind::unknown)
      return cx.refuse(fmt::format("{} with an operand '{}' the lifter cannot read", ins.opcode, std::string_view(op.text)));
  }
  return true;
}

bool no_prefixes(const SassOperand& op) { return !op.negate && !op.absolute && !op.bitwise_not && !op.logical_not; }

// A plain integer immediate's value (truth tables, masks), or -1 when the operand is not one.
std::int64_t immediate_value(const SassOperand& op) {
  if (op.kind != OperandKind::immediate || op.is_float || !no_prefixes(op)) return -1;
  if (op.text.find("@") != std::string_view::npos) return -1;  // 32@lo(symbol): the parser keeps 0
  return op.value;
}

// A register pair, 64-bit immediate or constant as a 64-bit integer with its prefixes (-x, ~x):
// the sources of Blackwell's 64-bit integer forms (IADD.64, SEL.64, ISETP.U64, ...). nvdisasm
// prints an immediate as its value (`-0x1` is all ones).
llvm::Value* read_int64(LiftContext& cx, const SassOperand& op) {
  llvm::Value* v = cx.read64(op);
  if (op.absolute) v = cx.builder().CreateBinaryIntrinsic(llvm::Intrinsic::abs, v, cx.flag(false));
  if (op.bitwise_not) v = cx.builder().CreateNot(v);
  if (op.negate) v = cx.builder().CreateNeg(v);
  return v;
}

// An operand that must be PT or UPT: an output the form names but this lifter does not model
// (nvdisasm prints PT when the instruction does not write it).
bool unwritten_predicate(LiftContext& cx, const SassInstruction& ins, const SassOperand& op) {
  if (is_predicate(op) && op.is_true_predicate() && !op.logical_not) return true;
  return cx.refuse(fmt::format("{} writing the predicate {} is not supported", ins.opcode, std::string_view(op.text)));
}

// The predicate file P0..P6 (UP0..UP6) as the low 7 bits of a word, as P2R and R2P see it.
llvm::Value* predicate_file(LiftContext& cx, bool uniform) {
  llvm::Value* pr = cx.u32(0);
  for (unsigned i = 0; i < 7; ++i) {
    llvm::Value* bit = cx.builder().CreateZExt(cx.pred(uniform, i), cx.i32());
    pr = cx.builder().CreateOr(pr, cx.builder().CreateShl(bit, i));
  }
  return pr;
}

// MOV d, a [, lane mask]: UMOV, and MOV32I of older encodings. The lane mask only says which
// lanes of a quad take part; every thread moves its own value.
// MOV.64/UMOV.64 d, a (sm_100/sm_120): a register pair or a 64-bit immediate.
bool lift_mov(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"64"}) || !plain_operands(cx, ins)) return false;
  if (ins.operands.size() < 2 || ins.operands.size() > 3) return cx.refuse("MOV needs a destination and a source");
  if (ins.has_modifier("64")) {
    if (ins.operands.size() != 2) return cx.refuse("MOV.64 needs d, a");
    cx.write64(ins.operands[0], read_int64(cx, ins.operands[1]));
    return true;
  }
  cx.write(ins.operands[0], cx.read_int(ins.operands[1]));
  return true;
}

// IADD3 d, [co0, [co1,]] a, b, c [, ci0, ci1]    (the carry-ins only with .X)
bool lift_iadd3(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"X", "64"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ins.has_modifier("64")) {
    // IADD3.64 d, PT, PT, a, b, c (sm_100/sm_120): a three-way sum of register pairs; the carry
    // outputs are always PT in what CUDA 13 emits, and an extended form is not modelled.
    if (ins.has_modifier("X") || ops.size() != 6) return cx.refuse(fmt::format("a {}.64 form other than d, PT, PT, a, b, c", ins.opcode));
    if (!unwritten_predicate(cx, ins, ops[1]) || !unwritten_predicate(cx, ins, ops[2])) return false;
    auto& b = cx.builder();
    cx.write64(ops[0], b.CreateAdd(b.CreateAdd(read_int64(cx, ops[3]), read_int64(cx, ops[4])), read_int64(cx, ops[5])));
    return true;
  }
  std::size_t i = 1;
  const SassOperand* co[2] = {nullptr, nullptr};
  while (i < ops.size() && is_predicate(ops[i]) && i <= 2 && ops.size() - i > 3) co[i - 1] = &ops[i], ++i;
  if (ops.size() < i + 3) return cx.refuse("IADD3 needs three sources");
  const SassOperand &a = ops[i], &b = ops[i + 1], &c = ops[i + 2];
  const bool extended = ins.has_modifier("X");
  if (ops.size() > i + 3 + (extended ? 2 : 0)) return cx.refuse("IADD3 with more operands than its form has");
  llvm::Value* ci[2] = {cx.flag(false), cx.flag(false)};
  if (extended) {
    for (int k = 0; k < 2; ++k)
      if (ops.size() > i + 3 + k) ci[k] = cx.read_predicate(ops[i + 3 + k]);
  }
  auto value = [&](const SassOperand& op) {
    llvm::Value* v = cx.read(op);
    if (op.bitwise_not) v = cx.builder().CreateNot(v);
    return v;
  };
  for (const SassOperand* op : {&a, &b, &c})
    if (op->absolute) return cx.refuse("IADD3 with an absolute-value source is not supported");
  llvm::Value* f0 = cx.out_flag();
  llvm::Value* f1 = cx.out_flag();
  llvm::Value* d = cx.semantic("iadd3", {value(a), cx.flag(a.negate), value(b), cx.flag(b.negate), value(c), cx.flag(c.negate),
                                         ci[0], ci[1], f0, f1});
  cx.write(ops[0], d);
  if (co[0]) cx.write_predicate(*co[0], cx.load_flag(f0));
  if (co[1]) cx.write_predicate(*co[1], cx.load_flag(f1));
  return true;
}

// IMAD[.MOV|.SHL|.IADD|.HI|.WIDE][.U32][.X] d, [co,] a, b, c [, ci]
bool lift_imad(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"MOV", "SHL", "IADD", "HI", "WIDE", "U32", "X"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  std::size_t i = 1;
  const SassOperand* co = nullptr;
  if (i < ops.size() && is_predicate(ops[i])) co = &ops[i], ++i;
  if (ops.size() < i + 3) return cx.refuse("IMAD needs three sources");
  const SassOperand &a = ops[i], &b = ops[i + 1], &c = ops[i + 2];
  const bool extended = ins.has_modifier("X");
  if (ops.size() > i + 3 + (extended ? 1 : 0)) return cx.refuse("IMAD with more operands than its form has");
  llvm::Value* ci = cx.flag(false);
  if (extended && ops.size() > i + 3) ci = cx.read_predicate(ops[i + 3]);
  if (c.absolute) return cx.refuse("IMAD with an absolute-value addend is not supported");
  const bool is_unsigned = ins.has_modifier("U32");
  if (ins.has_modifier("WIDE")) {
    if (c.bitwise_not) return cx.refuse("IMAD.WIDE with a complemented addend is not supported");
    llvm::Value* c64 = cx.read64(c);
    if (c.negate) c64 = cx.builder().CreateNeg(c64);
    if (co == nullptr && !extended) {
      cx.write64(ops[0], cx.semantic("imad_wide", {cx.read_int(a), cx.read_int(b), c64, cx.flag(is_unsigned)}));
      return true;
    }
    // The 64x64-bit products nvcc builds from 32x32->64 pieces chain the carry out of bit 64.
    if (c.negate) return cx.refuse("IMAD.WIDE with a carry and a negated addend is not supported");
    llvm::Value* carry = cx.out_flag();
    cx.write64(ops[0], cx.semantic("imad_wide_carry", {cx.read_int(a), cx.read_int(b), c64, cx.flag(is_unsigned), ci, carry}));
    if (co != nullptr) cx.write_predicate(*co, cx.load_flag(carry));
    return true;
  }
  llvm::Value* carry = cx.out_flag();
  llvm::Value* d;
  if (ins.has_modifier("HI")) {
    if (c.negate || c.bitwise_not) return cx.refuse("IMAD.HI with a negated or complemented addend is not supported");
    if (!is_unsigned && (co != nullptr || extended)) return cx.refuse("a signed IMAD.HI with a carry is not supported");
    if (c.kind != OperandKind::reg && c.kind != OperandKind::uniform_reg)
      return cx.refuse("IMAD.HI with an addend that is not a register pair is not supported");
    // The addend is the register pair (c, c+1), as IMAD.WIDE's.
    d = cx.semantic("imad_hi", {cx.read_int(a), cx.read_int(b), cx.read64(c), cx.flag(is_unsigned), ci, carry});
  } else {
    llvm::Value* cv = cx.read(c);
    if (c.bitwise_not) cv = cx.builder().CreateNot(cv);
    d = cx.semantic("imad", {cx.read_int(a), cx.read_int(b), cv, cx.flag(c.negate), ci, carry});
  }
  cx.write(ops[0], d);
  if (co != nullptr) cx.write_predicate(*co, cx.load_flag(carry));
  return true;
}

// ISETP.cmp[.U32][.EX].bop p, q, a, b, c [, lower]: p = (a cmp b) bop c, q = !(a cmp b) bop c.
bool lift_isetp(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"F", "LT", "EQ", "LE", "GT", "NE", "GE", "T", "U32", "U64", "S64", "EX", "AND", "OR", "XOR"}) ||
      !plain_operands(cx, ins))
    return false;
  const auto& ops = ins.operands;
  const int cmp = integer_compare_code(ins), bop = boolean_op_code(ins);
  if (cmp < 0 || bop < 0 || ops.size() < 5) return cx.refuse("an ISETP form without a comparison or boolean operation");
  const bool wide = ins.has_modifier("U64") || ins.has_modifier("S64");
  const bool is_unsigned = ins.has_modifier("U32") || ins.has_modifier("U64");
  if (wide && (ins.has_modifier("U32") || ins.has_modifier("EX") || (ins.has_modifier("U64") && ins.has_modifier("S64"))))
    return cx.refuse("ISETP with .U64 or .S64 and another type or .EX");
  llvm::Value* a = wide ? read_int64(cx, ops[2]) : cx.read_int(ops[2]);
  llvm::Value* b = wide ? read_int64(cx, ops[3]) : cx.read_int(ops[3]);
  llvm::Value* c = cx.read_predicate(ops[4]);
  llvm::Value* r;
  if (wide) {
    // ISETP.cmp.{U64,S64} (sm_100/sm_120): one compare of two register pairs.
    if (ops.size() != 5) return cx.refuse("ISETP.U64/.S64 with more operands than its form has");
    r = cx.semantic("icmp64", {a, b, cx.u32(cmp), cx.flag(is_unsigned)});
  } else if (ins.has_modifier("EX")) {
    if (ops.size() != 6) return cx.refuse("ISETP.EX without the lower words' predicate");
    r = cx.semantic("icmp_ex", {a, b, cx.u32(cmp), cx.flag(is_unsigned), cx.read_predicate(ops[5])});
  } else {
    if (ops.size() != 5) return cx.refuse("ISETP with more operands than its form has");
    r = cx.semantic("icmp", {a, b, cx.u32(cmp), cx.flag(is_unsigned)});
  }
  cx.write_predicate(ops[0], cx.semantic("bool_op", {r, c, cx.u32(bop)}));
  if (!ops[1].is_true_predicate()) cx.write_predicate(ops[1], cx.semantic("bool_op", {cx.builder().CreateNot(r), c, cx.u32(bop)}));
  return true;
}

// LOP3.LUT [p,] d, a, b, c, lut, q: d = lut applied bitwise; p = (d != 0) || q. nvcc passes !PT
// for a plain test and the previous word's p to test a 64-bit value for nonzero a word at a time
// (`LOP3.LUT P4, RZ, R21, 0x80, R4, 0xf8, !PT; LOP3.LUT P4, RZ, RZ, RZ, RZ, 0xfc, P4` for
// `(x >> 7) & 1 || y & 0x100` with 64-bit x, y), as Maxwell's LOP3.X accumulated its zero flag.
bool lift_lop3(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"LUT"}) || !plain_operands(cx, ins)) return false;
  if (!ins.has_modifier("LUT")) return cx.refuse("LOP3 without .LUT is not supported");
  const auto& ops = ins.operands;
  const SassOperand* p = nullptr;
  std::size_t i = 0;
  if (ops.size() == 7 && is_predicate(ops[0])) p = &ops[0], i = 1;
  else if (ops.size() != 6) return cx.refuse("a LOP3.LUT form with an unexpected operand count");
  const SassOperand &d = ops[i], &a = ops[i + 1], &b = ops[i + 2], &c = ops[i + 3], &lut = ops[i + 4], &pin = ops[i + 5];
  const std::int64_t table = immediate_value(lut);
  if (table < 0 || table > 0xff) return cx.refuse("LOP3.LUT needs an 8-bit immediate truth table");
  if (!is_predicate(pin)) return cx.refuse("LOP3.LUT needs a predicate as its last operand");
  llvm::Value* r = cx.semantic("lop3", {cx.read_int(a), cx.read_int(b), cx.read_int(c), cx.u32(static_cast<std::uint64_t>(table))});
  cx.write(d, r);
  if (p != nullptr) cx.write_predicate(*p, cx.semantic("lop3_nonzero", {r, cx.read_predicate(pin)}));
  return true;
}

// PLOP3.LUT p, q, a, b, c, lut, lut2: p = lut[(a << 2) | (b << 1) | c]. The second output (q,
// from lut2) is always PT in what nvcc emits; a written q is refused.
bool lift_plop3(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"LUT"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (!ins.has_modifier("LUT") || ops.size() != 7) return cx.refuse("a PLOP3 form other than PLOP3.LUT p, q, a, b, c, lut, lut2");
  for (std::size_t k = 0; k < 5; ++k)
    if (!is_predicate(ops[k])) return cx.refuse("PLOP3.LUT operands 1-5 must be predicates");
  if (!ops[1].is_true_predicate() || ops[1].logical_not) return cx.refuse("PLOP3.LUT writing its second predicate is not supported");
  const std::int64_t table = immediate_value(ops[5]);
  if (table < 0 || table > 0xff || immediate_value(ops[6]) < 0) return cx.refuse("PLOP3.LUT needs immediate truth tables");
  cx.write_predicate(ops[0], cx.semantic("plop3", {cx.read_predicate(ops[2]), cx.read_predicate(ops[3]), cx.read_predicate(ops[4]),
                                                   cx.u32(static_cast<std::uint64_t>(table))}));
  return true;
}

// SHF.{L,R}[.W].{U32,S32,U64,S64}[.HI] d, lo, shift, hi: a funnel shift of hi:lo.
bool lift_shf(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"L", "R", "W", "U32", "S32", "U64", "S64", "HI"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 4) return cx.refuse("SHF needs a destination and three sources");
  const bool left = ins.has_modifier("L");
  if (left == ins.has_modifier("R")) return cx.refuse("SHF needs one direction, .L or .R");
  int kind = -1, kinds = 0;
  const char* names[] = {"U32", "S32", "U64", "S64"};
  for (int k = 0; k < 4; ++k)
    if (ins.has_modifier(names[k])) kind = k, ++kinds;
  if (kinds != 1) return cx.refuse("SHF needs one type of .U32, .S32, .U64, .S64");
  cx.write(ops[0], cx.semantic("shf", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]), cx.flag(left),
                                       cx.flag(ins.has_modifier("W")), cx.u32(static_cast<std::uint64_t>(kind)),
                                       cx.flag(ins.has_modifier("HI"))}));
  return true;
}

// LEA d, [co,] a, b, shift [, ci]                 d = (a << shift) + b
// LEA.HI d, [co,] a, b, hi, shift [, ci]          d = ((hi:a) << shift) >> 32 + b
// LEA.HI.SX32 d, [co,] a, b, shift [, ci]         hi = a's sign extension
// The carry-in only with .X.
bool lift_lea(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"HI", "X", "SX32"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  const bool high = ins.has_modifier("HI"), extended = ins.has_modifier("X"), sign_extended = ins.has_modifier("SX32");
  if (sign_extended && !high) return cx.refuse("LEA.SX32 without .HI is not supported");
  std::size_t i = 1;
  const SassOperand* co = nullptr;
  if (i < ops.size() && is_predicate(ops[i])) co = &ops[i], ++i;
  const std::size_t sources = high && !sign_extended ? 4 : 3;
  if (ops.size() != i + sources + (extended ? 1 : 0)) return cx.refuse("a LEA form with an unexpected operand count");
  const SassOperand& a = ops[i];
  const SassOperand& b = ops[i + 1];
  const SassOperand& shift = ops[i + sources - 1];
  llvm::Value* ci = extended ? cx.read_predicate(ops[i + sources]) : cx.flag(false);
  // A prefixed addend is exact for the 32-bit sum (read_int applies it), not for the carry.
  if (!no_prefixes(b) && (co != nullptr || extended)) return cx.refuse("LEA with a prefixed addend and a carry is not supported");
  if (!no_prefixes(shift) || shift.kind != OperandKind::immediate) return cx.refuse("LEA needs an immediate shift");
  if (a.absolute || a.bitwise_not) return cx.refuse("LEA with a complemented or absolute-value source is not supported");
  // A negated a: PTX has no such form; seen as `LEA d, -a, RZ, s` (no carry), which is -(a << s).
  if (a.negate && (high || co != nullptr || extended)) return cx.refuse("LEA with a negated source and a carry or .HI is not supported");
  llvm::Value* carry = cx.out_flag();
  llvm::Value* d;
  if (!high) {
    d = cx.semantic("lea", {cx.read(a), cx.read_int(b), cx.read_int(shift), cx.flag(a.negate), ci, carry});
  } else {
    llvm::Value* lo = cx.read(a);
    llvm::Value* hi = sign_extended ? cx.builder().CreateAShr(cx.convert(lo, cx.i32()), 31) : cx.read_int(ops[i + 2]);
    d = cx.semantic("lea_hi", {lo, cx.read_int(b), hi, cx.read_int(shift), cx.flag(false), ci, carry});
  }
  cx.write(ops[0], d);
  if (co != nullptr) cx.write_predicate(*co, cx.load_flag(carry));
  return true;
}

// SEL d, a, b, p: a when p, else b.
// SEL.64 (sm_100/sm_120): the same for register pairs.
bool lift_sel(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"64"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 4 || !is_predicate(ops[3])) return cx.refuse("SEL needs d, a, b, predicate");
  if (ins.has_modifier("64")) {
    cx.write64(ops[0], cx.builder().CreateSelect(cx.read_predicate(ops[3]), read_int64(cx, ops[1]), read_int64(cx, ops[2])));
    return true;
  }
  cx.write(ops[0], cx.semantic("sel", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_predicate(ops[3])}));
  return true;
}

// IMNMX[.U32] d, a, b, p: the minimum when p, else the maximum.
// IMNMX.{U64,S64} PT, PT, d, a, b, p, !PT (sm_100/sm_120): the same for register pairs. The
// leading outputs are PT and the last input !PT in every instance CUDA 13 emits here; other
// values are refused.
bool lift_imnmx(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U32", "U64", "S64"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ins.has_modifier("U64") || ins.has_modifier("S64")) {
    if (ins.has_modifier("U32") || (ins.has_modifier("U64") && ins.has_modifier("S64")) || ops.size() != 7 || !is_predicate(ops[5]))
      return cx.refuse(fmt::format("a {} form other than {}.U64/.S64 PT, PT, d, a, b, p, !PT", ins.opcode, ins.opcode));
    if (!unwritten_predicate(cx, ins, ops[0]) || !unwritten_predicate(cx, ins, ops[1])) return false;
    if (!ops[6].is_true_predicate() || !ops[6].logical_not) return cx.refuse(fmt::format("{}.U64 with a last predicate other than !PT", ins.opcode));
    cx.write64(ops[2], cx.semantic("imnmx64", {read_int64(cx, ops[3]), read_int64(cx, ops[4]), cx.flag(ins.has_modifier("U64")),
                                               cx.read_predicate(ops[5])}));
    return true;
  }
  if (ops.size() != 4 || !is_predicate(ops[3])) return cx.refuse(fmt::format("{} needs d, a, b, predicate", ins.opcode));
  cx.write(ops[0], cx.semantic("imnmx", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.flag(ins.has_modifier("U32")),
                                         cx.read_predicate(ops[3])}));
  return true;
}

// The signedness of a VIMNMX-family instruction: .U32, or .S32 (the default); -1 for both.
int vimnmx_unsigned(const SassInstruction& ins) {
  if (ins.has_modifier("U32") && ins.has_modifier("S32")) return -1;
  return ins.has_modifier("U32") ? 1 : 0;
}

// VIMNMX[.U32|.S32][.RELU] d, a, b, p (sm_90 on; CUDA 13 prints the type) and the sm_100/sm_120
// form VIMNMX d, PT, PT, a, b, p, whose two predicate outputs are PT in all CUDA 13 emits here.
// VIMNMX3 d, a, b, c, p: of three sources. .RELU (PTX min/max.relu.s32): negative results are 0.
bool lift_vimnmx(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U32", "S32", "RELU"}) || !plain_operands(cx, ins)) return false;
  const int is_unsigned = vimnmx_unsigned(ins);
  if (is_unsigned < 0) return cx.refuse(fmt::format("{} with both .U32 and .S32", ins.opcode));
  if (is_unsigned == 1 && ins.has_modifier("RELU")) return cx.refuse(fmt::format("{}.U32.RELU is not supported", ins.opcode));
  const auto& ops = ins.operands;
  llvm::Value* r;
  if (ins.opcode == "VIMNMX3") {
    if (ops.size() != 5 || !is_predicate(ops[4])) return cx.refuse("VIMNMX3 needs d, a, b, c, predicate");
    r = cx.semantic("imnmx3", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]), cx.flag(is_unsigned == 1),
                               cx.read_predicate(ops[4])});
  } else {
    std::size_t a = 1;
    if (ops.size() == 6) {
      if (!unwritten_predicate(cx, ins, ops[1]) || !unwritten_predicate(cx, ins, ops[2])) return false;
      a = 3;
    } else if (ops.size() != 4) {
      return cx.refuse(fmt::format("{} needs d, a, b, predicate", ins.opcode));
    }
    if (!is_predicate(ops[a + 2])) return cx.refuse(fmt::format("{} needs a predicate last", ins.opcode));
    r = cx.semantic("imnmx", {cx.read_int(ops[a]), cx.read_int(ops[a + 1]), cx.flag(is_unsigned == 1), cx.read_predicate(ops[a + 2])});
  }
  if (ins.has_modifier("RELU")) r = cx.semantic("relu", {r});
  cx.write(ops[0], r);
  return true;
}

// VIADDMNMX[.U32|.S32] d, a, b, c, p (sm_100/sm_120): min (p) or max of a + b and c.
bool lift_viaddmnmx(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U32", "S32"}) || !plain_operands(cx, ins)) return false;
  const int is_unsigned = vimnmx_unsigned(ins);
  if (is_unsigned < 0) return cx.refuse("VIADDMNMX with both .U32 and .S32");
  const auto& ops = ins.operands;
  if (ops.size() != 5 || !is_predicate(ops[4])) return cx.refuse("VIADDMNMX needs d, a, b, c, predicate");
  cx.write(ops[0], cx.semantic("iadd_mnmx", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]), cx.flag(is_unsigned == 1),
                                             cx.read_predicate(ops[4])}));
  return true;
}

// IADD.64 d, a, b (sm_100/sm_120): a 64-bit add of register pairs, each source with its prefixes.
// A 32-bit IADD has not been seen from CUDA 13 and is refused.
bool lift_iadd(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"64"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (!ins.has_modifier("64")) return cx.refuse("IADD without .64 is not supported");
  if (ops.size() != 3) return cx.refuse("IADD.64 needs d, a, b");
  cx.write64(ops[0], cx.builder().CreateAdd(read_int64(cx, ops[1]), read_int64(cx, ops[2])));
  return true;
}

// VIADD d, a, b (sm_90): a + b, each source with its integer prefixes.
bool lift_viadd(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 3) return cx.refuse("VIADD needs d, a, b");
  cx.write(ops[0], cx.builder().CreateAdd(cx.read_int(ops[1]), cx.read_int(ops[2])));
  return true;
}

// VABSDIFF[.U32] d, a, b, c: |a - b| + c (signed unless .U32), what __sad and __usad compile
// to (PTX sad: the difference is exact, the sum wraps).
bool lift_vabsdiff(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U32", "S32"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 4) return cx.refuse("VABSDIFF needs d, a, b, c");
  if (ins.has_modifier("S32") && ins.has_modifier("U32")) return cx.refuse("VABSDIFF with both .U32 and .S32");
  cx.write(ops[0], cx.semantic("absdiff_add", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]),
                                               cx.flag(ins.has_modifier("U32"))}));
  return true;
}

// PRMT[.F4E|.B4E|.RC8|.ECL|.ECR|.RC16] d, a, sel, b.
bool lift_prmt(LiftContext& cx, const SassInstruction& ins) {
  static const std::pair<std::string_view, unsigned> modes[] = {{"F4E", 1}, {"B4E", 2}, {"RC8", 3}, {"ECL", 4}, {"ECR", 5}, {"RC16", 6}};
  if (!known_modifiers(cx, ins, {"F4E", "B4E", "RC8", "ECL", "ECR", "RC16"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 4) return cx.refuse("PRMT needs d, a, selector, b");
  unsigned mode = 0;
  for (auto [name, code] : modes)
    if (ins.has_modifier(name)) mode = code;
  if (ins.modifiers.size() > 1) return cx.refuse("PRMT with more than one mode");
  cx.write(ops[0], cx.semantic("prmt", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]), cx.u32(mode)}));
  return true;
}

// One-source operations: IABS, POPC, BREV, FLO and their uniform twins.
bool lift_unary(LiftContext& cx, const SassInstruction& ins, std::string_view semantic) {
  if (!known_modifiers(cx, ins, {}) || !plain_operands(cx, ins)) return false;
  if (ins.operands.size() != 2) return cx.refuse(fmt::format("{} needs d, a", ins.opcode));
  cx.write(ins.operands[0], cx.semantic(semantic, {cx.read_int(ins.operands[1])}));
  return true;
}

// FLO[.U32|.S32][.SH] d, a: signed unless .U32 (nvdisasm prints bfind.s32 as a bare FLO).
bool lift_flo(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U32", "S32", "SH"}) || !plain_operands(cx, ins)) return false;
  if (ins.operands.size() != 2) return cx.refuse("FLO needs d, a");
  const bool is_signed = !ins.has_modifier("U32");
  if (ins.has_modifier("S32") && ins.has_modifier("U32")) return cx.refuse("FLO with both .U32 and .S32");
  cx.write(ins.operands[0], cx.semantic("flo", {cx.read_int(ins.operands[1]), cx.flag(is_signed), cx.flag(ins.has_modifier("SH"))}));
  return true;
}

// BMSK[.W] d, position, width (.C, the clamping default, may be printed).
bool lift_bmsk(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"W", "C"}) || !plain_operands(cx, ins)) return false;
  if (ins.operands.size() != 3) return cx.refuse("BMSK needs d, position, width");
  if (ins.has_modifier("W") && ins.has_modifier("C")) return cx.refuse("BMSK with both .W and .C");
  cx.write(ins.operands[0],
           cx.semantic("bmsk", {cx.read_int(ins.operands[1]), cx.read_int(ins.operands[2]), cx.flag(ins.has_modifier("W"))}));
  return true;
}

// SGXT[.U32][.W] d, a, width.
bool lift_sgxt(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U32", "S32", "W", "C"}) || !plain_operands(cx, ins)) return false;
  if (ins.operands.size() != 3) return cx.refuse("SGXT needs d, a, width");
  if (ins.has_modifier("U32") && ins.has_modifier("S32")) return cx.refuse("SGXT with both .U32 and .S32");
  if (ins.has_modifier("W") && ins.has_modifier("C")) return cx.refuse("SGXT with both .W and .C");
  cx.write(ins.operands[0], cx.semantic("sgxt", {cx.read_int(ins.operands[1]), cx.read_int(ins.operands[2]),
                                                 cx.flag(!ins.has_modifier("U32")), cx.flag(ins.has_modifier("W"))}));
  return true;
}

// The byte a P2R/R2P works on: .B1-.B3 as a modifier (or, for R2P, as the source's suffix).
int byte_select(const SassInstruction& ins, const SassOperand* source) {
  int byte = 0, found = 0;
  const char* names[] = {"B0", "B1", "B2", "B3"};
  for (int k = 0; k < 4; ++k) {
    if (ins.has_modifier(names[k])) byte = k, ++found;
    if (source != nullptr && source->has_suffix(fmt::format(".{}", names[k]))) byte = k, ++found;
  }
  return found > 1 ? -1 : byte;
}

bool is_predicate_file(const SassOperand& op, bool& uniform) {
  if (op.kind != OperandKind::special_reg) return false;
  uniform = op.text == "UPR";
  return op.text == "PR" || op.text == "UPR";
}

// P2R[.B1|.B2|.B3] d, PR, a, mask; UP2UR d, UPR, a, mask: the predicates merged into a byte of a.
bool lift_p2r(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"B0", "B1", "B2", "B3"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  bool uniform = false;
  if (ops.size() == 2 && is_predicate_file(ops[1], uniform)) {
    // The short form: the predicate byte zero-extended (P2R.B0 d, PR, RZ, 0xff).
    const int byte = byte_select(ins, nullptr);
    if (byte < 0) return cx.refuse("P2R with more than one byte selector");
    cx.write(ops[0], cx.semantic("p2r", {predicate_file(cx, uniform), cx.u32(0), cx.u32(0xff), cx.u32(static_cast<unsigned>(byte))}));
    return true;
  }
  if (ops.size() != 4 || !is_predicate_file(ops[1], uniform)) return cx.refuse(fmt::format("{} needs d, PR, a, mask", ins.opcode));
  const int byte = byte_select(ins, nullptr);
  if (byte < 0) return cx.refuse("P2R with more than one byte selector");
  cx.write(ops[0], cx.semantic("p2r", {predicate_file(cx, uniform), cx.read_int(ops[2]), cx.read_int(ops[3]),
                                       cx.u32(static_cast<unsigned>(byte))}));
  return true;
}

// R2P PR, a[.B1|.B2|.B3], mask: the predicates mask selects from a byte of a.
bool lift_r2p(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"B0", "B1", "B2", "B3"}) || !plain_operands(cx, ins, 1)) return false;
  const auto& ops = ins.operands;
  bool uniform = false;
  if (ops.size() < 2 || ops.size() > 3 || !is_predicate_file(ops[0], uniform)) return cx.refuse(fmt::format("{} needs PR, a, mask", ins.opcode));
  const int byte = byte_select(ins, &ops[1]);
  if (byte < 0) return cx.refuse("R2P with more than one byte selector");
  llvm::Value* mask = ops.size() == 3 ? cx.read_int(ops[2]) : cx.u32(0xff);
  llvm::Value* pr = cx.semantic("r2p", {predicate_file(cx, uniform), cx.read_int(ops[1]), mask, cx.u32(static_cast<unsigned>(byte))});
  for (unsigned i = 0; i < 7; ++i)
    cx.set_pred(uniform, i, cx.builder().CreateTrunc(cx.builder().CreateLShr(cx.convert(pr, cx.i32()), i), cx.i1()));
  return true;
}

// R2UR d, a: a vector register into a uniform one. The compiler uses it for values that are the
// same in every active thread, so each thread's own value is the uniform value.
bool lift_r2ur(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {}) || !plain_operands(cx, ins)) return false;
  if (ins.operands.size() != 2) return cx.refuse("R2UR needs d, a");
  cx.write(ins.operands[0], cx.read_int(ins.operands[1]));
  return true;
}

// IDP.4A.{S8,U8}.{S8,U8} d, a, b, c and IDP.2A.{LO,HI}.{S16,U16}.{S8,U8} d, a, b, c.
bool lift_idp(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"4A", "2A", "LO", "HI", "S8", "U8", "S16", "U16"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 4) return cx.refuse("IDP needs d, a, b, c");
  std::vector<std::string_view> types;
  for (std::string_view m : ins.modifiers)
    if (m == "S8" || m == "U8" || m == "S16" || m == "U16") types.push_back(m);
  if (types.size() != 2) return cx.refuse("IDP needs the types of both sources");
  const bool a_signed = types[0][0] == 'S', b_signed = types[1][0] == 'S';
  if (ins.has_modifier("4A") && !ins.has_modifier("2A") && types[0].size() == 2 && types[1].size() == 2 && !ins.has_modifier("LO") &&
      !ins.has_modifier("HI")) {
    cx.write(ops[0], cx.semantic("idp4a", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]), cx.flag(a_signed),
                                           cx.flag(b_signed)}));
    return true;
  }
  if (ins.has_modifier("2A") && !ins.has_modifier("4A") && types[0].size() == 3 && types[1].size() == 2 &&
      ins.has_modifier("LO") != ins.has_modifier("HI")) {
    cx.write(ops[0], cx.semantic("idp2a", {cx.read_int(ops[1]), cx.read_int(ops[2]), cx.read_int(ops[3]), cx.flag(a_signed),
                                           cx.flag(b_signed), cx.flag(ins.has_modifier("HI"))}));
    return true;
  }
  return cx.refuse("an IDP form other than IDP.4A.{S8,U8}.{S8,U8} or IDP.2A.{LO,HI}.{S16,U16}.{S8,U8}");
}

}  // namespace

void register_integer_handlers(HandlerTable& t) {
  for (const char* op : {"MOV", "UMOV", "MOV32I"}) t[op] = lift_mov;
  for (const char* op : {"IADD3", "UIADD3"}) t[op] = lift_iadd3;
  for (const char* op : {"IMAD", "UIMAD"}) t[op] = lift_imad;
  for (const char* op : {"ISETP", "UISETP"}) t[op] = lift_isetp;
  for (const char* op : {"LOP3", "ULOP3"}) t[op] = lift_lop3;
  for (const char* op : {"PLOP3", "UPLOP3"}) t[op] = lift_plop3;
  for (const char* op : {"SHF", "USHF"}) t[op] = lift_shf;
  for (const char* op : {"LEA", "ULEA"}) t[op] = lift_lea;
  for (const char* op : {"SEL", "USEL"}) t[op] = lift_sel;
  for (const char* op : {"IMNMX", "UIMNMX"}) t[op] = lift_imnmx;
  for (const char* op : {"VIMNMX", "VIMNMX3"}) t[op] = lift_vimnmx;
  t["VIADDMNMX"] = lift_viaddmnmx;
  for (const char* op : {"IADD", "UIADD"}) t[op] = lift_iadd;
  t["VIADD"] = lift_viadd;
  t["VABSDIFF"] = lift_vabsdiff;
  for (const char* op : {"PRMT", "UPRMT"}) t[op] = lift_prmt;
  for (const char* op : {"IABS", "UIABS"}) t[op] = [](LiftContext& cx, const SassInstruction& ins) { return lift_unary(cx, ins, "iabs"); };
  for (const char* op : {"POPC", "UPOPC"}) t[op] = [](LiftContext& cx, const SassInstruction& ins) { return lift_unary(cx, ins, "popc"); };
  for (const char* op : {"BREV", "UBREV"}) t[op] = [](LiftContext& cx, const SassInstruction& ins) { return lift_unary(cx, ins, "brev"); };
  for (const char* op : {"FLO", "UFLO"}) t[op] = lift_flo;
  for (const char* op : {"BMSK", "UBMSK"}) t[op] = lift_bmsk;
  for (const char* op : {"SGXT", "USGXT"}) t[op] = lift_sgxt;
  for (const char* op : {"P2R", "UP2UR"}) t[op] = lift_p2r;
  t["R2P"] = lift_r2p;
  t["R2UR"] = lift_r2ur;
  t["IDP"] = lift_idp;
}

}  // namespace gpuport::lift
