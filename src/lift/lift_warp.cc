// Warp and block-level instructions: barriers (BAR.SYNC, BAR.RED and its B2R.RESULT), shuffles
// (SHFL), votes (VOTE, VOTEU), matches (MATCH) and warp reductions (REDUX), through the warp
// semantics (semantics/sass_warp.cc) and the target hooks. Operand layouts as nvdisasm prints them.
#include <fmt/format.h>

#include <initializer_list>
#include <string_view>

#include "lift/lift_context.h"
#include "lift/semantics/sass.h"
#include "lift/semantics/sass_warp.h"

namespace gpuport::lift {

namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

bool is_predicate(const SassOperand& op) {
  return op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate;
}
bool is_register(const SassOperand& op) { return op.kind == OperandKind::reg || op.kind == OperandKind::uniform_reg; }

// Refuses (and returns false) when the instruction carries a modifier outside `known`.
bool only_modifiers(LiftContext& cx, const SassInstruction& ins, std::initializer_list<std::string_view> known) {
  for (std::string_view m : ins.modifiers) {
    bool found = false;
    for (std::string_view k : known) found = found || m == k;
    if (!found) return cx.refuse(fmt::format("{} with the modifier .{} is not supported", ins.opcode, m));
  }
  return true;
}

// The per-thread result of the last BAR.RED, which B2R.RESULT reads: kept in a register slot
// beyond the 255 SASS registers, so that it is an ordinary SSA value after promotion.
constexpr unsigned kBarrierResultSlot = 0x10000;

// The two words of block-shared scratch BAR.RED counts in: an LDS variable of its own, aligned
// above the kernel's shared block (16) so that LLVM's LDS layout puts it first and the dynamic
// shared memory the core addresses after the static block stays where it expects.
llvm::Value* barrier_scratch(LiftContext& cx) {
  llvm::Module& m = cx.module();
  const char* name = "gpuport.barrier_reduction";
  auto* type = llvm::ArrayType::get(cx.i32(), 2);
  llvm::GlobalVariable* g = m.getGlobalVariable(name, true);
  if (g == nullptr) {
    g = new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::InternalLinkage, llvm::PoisonValue::get(type), name, nullptr,
                                 llvm::GlobalValue::NotThreadLocal, 3);
    g->setAlignment(llvm::Align(32));
  }
  return cx.builder().CreateAddrSpaceCast(g, cx.builder().getPtrTy(0));
}

// BAR.SYNC[.DEFER_BLOCKING] id: __syncthreads and bar.sync id without a thread count (every thread
// of the block; a well-formed program then meets every id in the same order, so one hardware
// barrier serves them all). BAR.RED.{POPC,AND,OR}[.DEFER_BLOCKING] id, Ps: the barrier of
// __syncthreads_count/and/or, its result for B2R.RESULT. Thread counts (named barriers of part
// of the block) and BAR.ARV (arrive without waiting) have no counterpart in gfx1100's single
// workgroup barrier and are refused.
bool lift_bar(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  if (ins.has_modifier("ARV")) return cx.refuse("BAR.ARV (arrive without waiting, named barriers) has no gfx1100 counterpart");
  if (ins.has_modifier("SYNC")) {
    if (!only_modifiers(cx, ins, {"SYNC", "DEFER_BLOCKING"})) return false;
    if (ops.size() != 1 || ops[0].kind != OperandKind::immediate)
      return cx.refuse("BAR.SYNC with a thread count or a register barrier id (a named barrier of part of the block) is not supported");
    cx.hook("block_barrier", {});
    return true;
  }
  if (ins.has_modifier("RED")) {
    if (!only_modifiers(cx, ins, {"RED", "POPC", "AND", "OR", "DEFER_BLOCKING"})) return false;
    int op = ins.has_modifier("POPC") ? SASS_BLOCK_POPC : ins.has_modifier("AND") ? SASS_BLOCK_AND : ins.has_modifier("OR") ? SASS_BLOCK_OR : -1;
    if (op < 0) return cx.refuse("BAR.RED without .POPC, .AND or .OR");
    if (ops.size() != 2 || ops[0].kind != OperandKind::immediate || !is_predicate(ops[1]))
      return cx.refuse("BAR.RED with a thread count or a register barrier id is not supported");
    llvm::Value* result = cx.hook("block_reduce", {barrier_scratch(cx), cx.u32(static_cast<unsigned>(op)), cx.read_predicate(ops[1])});
    cx.set_reg(false, kBarrierResultSlot, result);
    return true;
  }
  return cx.refuse("BAR without .SYNC or .RED is not supported");
}

// B2R.RESULT d[, Pd]: the last BAR.RED's result; d the count (POPC) or 1/0 (AND, OR: the value of
// PTX's bar.red.and/or.pred result as an integer; nvcc reads these through Pd only), Pd whether it
// is nonzero.
bool lift_b2r(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  if (!only_modifiers(cx, ins, {"RESULT"}) || !ins.has_modifier("RESULT"))
    return cx.refuse("only B2R.RESULT (the result of BAR.RED) is supported");
  if (ops.empty() || ops.size() > 2 || !is_register(ops[0]) || (ops.size() == 2 && !is_predicate(ops[1])))
    return cx.refuse("B2R.RESULT needs a register and optionally a predicate");
  llvm::Value* result = cx.reg(false, kBarrierResultSlot);
  cx.write(ops[0], result);
  if (ops.size() == 2) cx.write_predicate(ops[1], cx.builder().CreateICmpNE(result, cx.u32(0)));
  return true;
}

// SHFL.{IDX,UP,DOWN,BFLY} Pd, d, a, b, c (b, c: register or immediate).
bool lift_shfl(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  if (!only_modifiers(cx, ins, {"IDX", "UP", "DOWN", "BFLY"})) return false;
  int mode = ins.has_modifier("IDX") ? SASS_SHFL_IDX : ins.has_modifier("UP") ? SASS_SHFL_UP : ins.has_modifier("DOWN") ? SASS_SHFL_DOWN
           : ins.has_modifier("BFLY") ? SASS_SHFL_BFLY : -1;
  if (mode < 0) return cx.refuse("SHFL without a mode");
  if (ops.size() != 5 || !is_predicate(ops[0]) || !is_register(ops[1])) return cx.refuse("SHFL needs Pd, d, a, b, c");
  llvm::Value* in_range = cx.out_flag();
  llvm::Value* d = cx.semantic("shfl", {cx.read_int(ops[2]), cx.read_int(ops[3]), cx.read_int(ops[4]), cx.u32(static_cast<unsigned>(mode)), in_range});
  cx.write(ops[1], d);
  cx.write_predicate(ops[0], cx.load_flag(in_range));
  return true;
}

// VOTE.{ALL,ANY,EQ} [d,] Pd, Ps and VOTEU (a uniform d / UPd): d receives the ballot of Ps over the
// active lanes (the form __ballot_sync and __activemask compile to: VOTE.ANY R, PT, PT), Pd the
// mode's answer. A register result is taken for .ANY only, the one form nvcc emits; for .ALL and
// .EQ what the register receives is not documented, so those forms are refused.
bool lift_vote(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  if (!only_modifiers(cx, ins, {"ALL", "ANY", "EQ"})) return false;
  int mode = ins.has_modifier("ALL") ? SASS_VOTE_ALL : ins.has_modifier("ANY") ? SASS_VOTE_ANY : ins.has_modifier("EQ") ? SASS_VOTE_EQ : -1;
  if (mode < 0) return cx.refuse(fmt::format("{} without .ALL, .ANY or .EQ", ins.opcode));
  const SassOperand* d = nullptr;
  std::size_t i = 0;
  if (ops.size() == 3) d = &ops[i++];
  if (ops.size() - i != 2 || (d != nullptr && !is_register(*d)) || !is_predicate(ops[i]) || !is_predicate(ops[i + 1]))
    return cx.refuse(fmt::format("{} needs [d,] Pd, Ps", ins.opcode));
  if (d != nullptr && !d->is_zero_register() && mode != SASS_VOTE_ANY)
    return cx.refuse(fmt::format("{} with a register result is supported for .ANY only", ins.opcode));
  llvm::Value* answer = cx.out_flag();
  llvm::Value* ballot = cx.semantic("vote", {cx.read_predicate(ops[i + 1]), cx.u32(static_cast<unsigned>(mode)), answer});
  if (d != nullptr) cx.write(*d, ballot);
  cx.write_predicate(ops[i], cx.load_flag(answer));
  return true;
}

// MATCH.ANY[.U64] d, a and MATCH.ALL[.U64] [Pd,] d, a (a 64-bit a is a register pair).
bool lift_match(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  if (!only_modifiers(cx, ins, {"ANY", "ALL", "U32", "U64"})) return false;
  const bool any = ins.has_modifier("ANY"), all = ins.has_modifier("ALL"), wide = ins.has_modifier("U64");
  if (any == all) return cx.refuse("MATCH needs exactly one of .ANY and .ALL");
  std::size_t i = 0;
  const SassOperand* pd = nullptr;
  if (!ops.empty() && is_predicate(ops[0])) pd = &ops[i++];
  if (ops.size() - i != 2 || !is_register(ops[i]) || (any && pd != nullptr)) return cx.refuse("MATCH needs [Pd,] d, a");
  llvm::Value* value = wide ? cx.read64(ops[i + 1]) : cx.read_int(ops[i + 1]);
  if (any) {
    cx.write(ops[i], cx.semantic(wide ? "match_any64" : "match_any", {value}));
    return true;
  }
  llvm::Value* flag = cx.out_flag();
  cx.write(ops[i], cx.semantic(wide ? "match_all64" : "match_all", {value, flag}));
  if (pd != nullptr) cx.write_predicate(*pd, cx.load_flag(flag));
  return true;
}

// REDUX[.op][.S32] d, a: d (a uniform register) = op over the active lanes' a. No op is .AND.
bool lift_redux(LiftContext& cx, const SassInstruction& ins) {
  const auto& ops = ins.operands;
  if (!only_modifiers(cx, ins, {"AND", "OR", "XOR", "SUM", "MIN", "MAX", "S32", "U32"})) return false;
  int op = SASS_REDUX_AND;
  if (ins.has_modifier("OR")) op = SASS_REDUX_OR;
  else if (ins.has_modifier("XOR")) op = SASS_REDUX_XOR;
  else if (ins.has_modifier("SUM")) op = SASS_REDUX_SUM;
  else if (ins.has_modifier("MIN")) op = SASS_REDUX_MIN;
  else if (ins.has_modifier("MAX")) op = SASS_REDUX_MAX;
  if (ops.size() != 2 || !is_register(ops[0])) return cx.refuse("REDUX needs d, a");
  cx.write(ops[0], cx.semantic("redux", {cx.read_int(ops[1]), cx.u32(static_cast<unsigned>(op)), cx.flag(ins.has_modifier("S32"))}));
  return true;
}

}  // namespace

void register_warp_handlers(HandlerTable& t) {
  t["BAR"] = lift_bar;
  t["B2R"] = lift_b2r;
  t["SHFL"] = lift_shfl;
  t["VOTE"] = lift_vote;
  t["VOTEU"] = lift_vote;
  t["MATCH"] = lift_match;
  t["REDUX"] = lift_redux;
  // CREDUX (sm_100/sm_120): what CUDA 13 compiles __reduce_*_sync to, a warp reduction into a
  // uniform register as REDUX.
  t["CREDUX"] = lift_redux;
}

}  // namespace gpuport::lift
