// Integer instructions (vector and uniform datapath): moves, IADD3, IMAD, LOP3, ISETP, SHF, LEA,
// SEL, PRMT, ... Semantics in semantics/sass_integer.cc; operand layouts as nvdisasm prints them.
#include <fmt/format.h>

#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

bool is_predicate(const SassOperand& op) {
  return op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate;
}

// MOV d, a [, lane mask]: UMOV, and MOV32I of older encodings.
bool lift_mov(LiftContext& cx, const SassInstruction& ins) {
  if (ins.operands.size() < 2) return cx.refuse("MOV needs a destination and a source");
  cx.write(ins.operands[0], cx.read_int(ins.operands[1]));
  return true;
}

// IADD3 d, [co0, [co1,]] a, b, c [, ci0, ci1]    (the carry-ins only with .X)
bool lift_iadd3(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  std::size_t i = 1;
  const SassOperand* co[2] = {nullptr, nullptr};
  while (i < ops.size() && is_predicate(ops[i]) && i <= 2 && ops.size() - i > 3) co[i - 1] = &ops[i], ++i;
  if (ops.size() < i + 3) return cx.refuse("IADD3 needs three sources");
  const SassOperand &a = ops[i], &b = ops[i + 1], &c = ops[i + 2];
  llvm::Value* ci[2] = {cx.flag(false), cx.flag(false)};
  if (ins.has_modifier("X")) {
    for (int k = 0; k < 2; ++k)
      if (ops.size() > i + 3 + k) ci[k] = cx.read_predicate(ops[i + 3 + k]);
  }
  auto value = [&](const SassOperand& op) {
    llvm::Value* v = cx.read(op);
    if (op.bitwise_not) v = cx.builder().CreateNot(v);
    return v;
  };
  llvm::Value* f0 = cx.out_flag();
  llvm::Value* f1 = cx.out_flag();
  llvm::Value* d = cx.semantic("iadd3", {value(a), cx.flag(a.negate), value(b), cx.flag(b.negate), value(c), cx.flag(c.negate),
                                         ci[0], ci[1], f0, f1});
  cx.write(ops[0], d);
  if (co[0]) cx.write_predicate(*co[0], cx.load_flag(f0));
  if (co[1]) cx.write_predicate(*co[1], cx.load_flag(f1));
  return true;
}

// IMAD[.MOV|.SHL|.IADD|.U32|.HI|.WIDE][.U32][.X] d, [co,] a, b, c [, ci]
bool lift_imad(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  std::size_t i = 1;
  const SassOperand* co = nullptr;
  if (i < ops.size() && is_predicate(ops[i])) co = &ops[i], ++i;
  if (ops.size() < i + 3) return cx.refuse("IMAD needs three sources");
  const SassOperand &a = ops[i], &b = ops[i + 1], &c = ops[i + 2];
  llvm::Value* ci = cx.flag(false);
  if (ins.has_modifier("X") && ops.size() > i + 3) ci = cx.read_predicate(ops[i + 3]);
  const bool is_unsigned = ins.has_modifier("U32");
  if (ins.has_modifier("WIDE")) {
    if (co != nullptr || ins.has_modifier("X")) return cx.refuse("IMAD.WIDE with a carry is not supported");
    llvm::Value* c64 = cx.read64(c);
    if (c.negate) c64 = cx.builder().CreateNeg(c64);
    cx.write64(ops[0], cx.semantic("imad_wide", {cx.read_int(a), cx.read_int(b), c64, cx.flag(is_unsigned)}));
    return true;
  }
  llvm::Value* carry = cx.out_flag();
  llvm::Value* d;
  if (ins.has_modifier("HI")) {
    d = cx.semantic("imad_hi", {cx.read_int(a), cx.read_int(b), cx.read_int(c), cx.flag(is_unsigned), ci, carry});
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
  const auto& ops = ins.operands;
  const int cmp = integer_compare_code(ins), bop = boolean_op_code(ins);
  if (cmp < 0 || bop < 0 || ops.size() < 5) return cx.refuse("an ISETP form without a comparison or boolean operation");
  const bool is_unsigned = ins.has_modifier("U32");
  llvm::Value* a = cx.read_int(ops[2]);
  llvm::Value* b = cx.read_int(ops[3]);
  llvm::Value* c = cx.read_predicate(ops[4]);
  llvm::Value* r;
  if (ins.has_modifier("EX")) {
    if (ops.size() < 6) return cx.refuse("ISETP.EX without the lower words' predicate");
    r = cx.semantic("icmp_ex", {a, b, cx.u32(cmp), cx.flag(is_unsigned), cx.read_predicate(ops[5])});
  } else {
    r = cx.semantic("icmp", {a, b, cx.u32(cmp), cx.flag(is_unsigned)});
  }
  cx.write_predicate(ops[0], cx.semantic("bool_op", {r, c, cx.u32(bop)}));
  if (!ops[1].is_true_predicate()) cx.write_predicate(ops[1], cx.semantic("bool_op", {cx.builder().CreateNot(r), c, cx.u32(bop)}));
  return true;
}

}  // namespace

void register_integer_handlers(HandlerTable& t) {
  for (const char* op : {"MOV", "UMOV", "MOV32I"}) t[op] = lift_mov;
  for (const char* op : {"IADD3", "UIADD3"}) t[op] = lift_iadd3;
  for (const char* op : {"IMAD", "UIMAD"}) t[op] = lift_imad;
  for (const char* op : {"ISETP", "UISETP"}) t[op] = lift_isetp;
}

}  // namespace gpuport::lift
