// Float instructions: FADD, FMUL, FFMA, ... Semantics in semantics/sass_float.cc.
#include <fmt/format.h>

#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::SassInstruction;

// .RN (default) 0, .RM 1, .RP 2, .RZ 3.
int rounding_code(const SassInstruction& ins) {
  if (ins.has_modifier("RM")) return 1;
  if (ins.has_modifier("RP")) return 2;
  if (ins.has_modifier("RZ")) return 3;
  return 0;
}

// FADD/FMUL d, a, b and FFMA d, a, b, c with .FTZ, .SAT and a rounding mode.
template <int Sources>
bool lift_arithmetic(LiftContext& cx, const SassInstruction& ins, const char* semantic) {
  const auto& ops = ins.operands;
  if (ops.size() < 1 + Sources) return cx.refuse("too few operands");
  std::vector<llvm::Value*> args;
  for (int i = 0; i < Sources; ++i) args.push_back(cx.read_float(ops[1 + i]));
  args.push_back(cx.u32(rounding_code(ins)));
  args.push_back(cx.flag(ins.has_modifier("FTZ")));
  args.push_back(cx.flag(ins.has_modifier("SAT")));
  cx.write(ops[0], cx.semantic(semantic, std::move(args)));
  return true;
}

// The packed-half sources of an H* instruction after the destination: registers with their
// swizzle (.H0_H0, .H1_H1) and negation/absolute value, or a pair of immediates (H1 printed first).
std::vector<llvm::Value*> half_sources(LiftContext& cx, const SassInstruction& ins, std::size_t first) {
  std::vector<llvm::Value*> out;
  auto& b = cx.builder();
  const auto& ops = ins.operands;
  for (std::size_t i = first; i < ops.size(); ++i) {
    const auto& op = ops[i];
    if (op.kind == sass::OperandKind::immediate && i + 1 < ops.size() && ops[i + 1].kind == sass::OperandKind::immediate) {
      auto half = [&](const sass::SassOperand& o) {
        const double v = o.is_float ? o.float_value : static_cast<double>(o.value);
        return cx.semantic("half_from_double", {llvm::ConstantFP::get(cx.f64(), v)});
      };
      llvm::Value* hi = b.CreateZExt(half(op), cx.i32());
      llvm::Value* lo = b.CreateZExt(half(ops[i + 1]), cx.i32());
      out.push_back(b.CreateOr(b.CreateShl(hi, 16), lo));
      ++i;
      continue;
    }
    if (op.kind == sass::OperandKind::predicate || op.kind == sass::OperandKind::uniform_predicate) break;
    llvm::Value* v = cx.read(op);
    if (op.has_suffix(".H0_H0")) v = b.CreateOr(b.CreateAnd(v, 0xffffu), b.CreateShl(v, 16));
    else if (op.has_suffix(".H1_H1")) v = b.CreateOr(b.CreateLShr(v, 16), b.CreateAnd(v, 0xffff0000u));
    else if (op.has_suffix(".F32")) {
      cx.refuse("an f32 source of a packed-half instruction");
      return {};
    }
    if (op.absolute) v = b.CreateAnd(v, 0x7fff7fffu);
    if (op.negate) v = b.CreateXor(v, 0x80008000u);
    out.push_back(v);
  }
  return out;
}

// HFMA2[.MMA] d, a, b, c: packed f16 fused multiply-add (.MMA only picks the execution unit).
bool lift_hfma2(LiftContext& cx, const SassInstruction& ins) {
  for (auto m : ins.modifiers)
    if (m != "MMA" && m != "RZ" && m != "SAT" && m != "FTZ") return cx.refuse(fmt::format("HFMA2 modifier .{} is not supported", m));
  if (ins.has_modifier("FTZ")) return cx.refuse("HFMA2.FTZ is not supported");
  const auto sources = half_sources(cx, ins, 1);
  if (sources.size() != 3) return cx.refuse("HFMA2 needs three packed-half sources");
  cx.write(ins.operands[0], cx.semantic("hfma2", {sources[0], sources[1], sources[2], cx.u32(ins.has_modifier("RZ") ? 3 : 0),
                                                  cx.flag(ins.has_modifier("SAT"))}));
  return true;
}

}  // namespace

void register_float_handlers(HandlerTable& t) {
  t["HFMA2"] = lift_hfma2;
  t["FADD"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_arithmetic<2>(cx, ins, "fadd"); };
  t["FMUL"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_arithmetic<2>(cx, ins, "fmul"); };
  t["FFMA"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_arithmetic<3>(cx, ins, "ffma"); };
}

}  // namespace gpuport::lift
