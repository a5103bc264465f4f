// Special registers (S2R, S2UR, CS2R): thread and block ids, lane id and masks, warp id, clocks;
// and NANOSLEEP.
#include <fmt/format.h>

#include "lift/lift_context.h"
#include "lift/semantics/sass_warp.h"

namespace gpuport::lift {

namespace {

using sass::SassInstruction;

// The 32-bit value of a special register; nullptr (after a finding) when it has no counterpart.
llvm::Value* special_register(LiftContext& cx, std::string_view name) {
  auto& b = cx.builder();
  if (name == "SR_TID.X") return cx.hook("thread_id", {cx.u32(0)});
  if (name == "SR_TID.Y") return cx.hook("thread_id", {cx.u32(1)});
  if (name == "SR_TID.Z") return cx.hook("thread_id", {cx.u32(2)});
  if (name == "SR_CTAID.X") return cx.hook("block_id", {cx.u32(0)});
  if (name == "SR_CTAID.Y") return cx.hook("block_id", {cx.u32(1)});
  if (name == "SR_CTAID.Z") return cx.hook("block_id", {cx.u32(2)});
  if (name == "SR_LANEID") return cx.hook("lane_id", {});
  // PTX %lanemask_eq/lt/le/gt/ge.
  if (name == "SR_EQMASK") return cx.semantic("lanemask", {cx.u32(SASS_LANEMASK_EQ)});
  if (name == "SR_LTMASK") return cx.semantic("lanemask", {cx.u32(SASS_LANEMASK_LT)});
  if (name == "SR_LEMASK") return cx.semantic("lanemask", {cx.u32(SASS_LANEMASK_LE)});
  if (name == "SR_GTMASK") return cx.semantic("lanemask", {cx.u32(SASS_LANEMASK_GT)});
  if (name == "SR_GEMASK") return cx.semantic("lanemask", {cx.u32(SASS_LANEMASK_GE)});
  // PTX %warpid (nvcc extracts bits 8..14): the warp's index in its block; see sass_warp.h.
  if (name == "SR_VIRTID") return cx.semantic("virtid", {});
  // PTX %smid: any value below %nsmid is allowed (the SM may change while a thread runs); here
  // every block reports SM 0, the one SM of the emulator's view.
  if (name == "SR_VIRTUALSMID") return cx.u32(0);
  // PTX %nwarpid (the number of warp ids of an SM): nvcc 11.8 reads it from SR_VIRTCFG on sm_90 and
  // uses the word as it is (on sm_80 it folds %nwarpid to the constant 64); 64 warps per SM on both.
  if (name == "SR_VIRTCFG") return cx.u32(64);
  // PTX %clock / %clock_hi and %globaltimer_lo / _hi: words of the 64-bit counters.
  if (name == "SR_CLOCKLO") return b.CreateTrunc(cx.hook("clock", {}), cx.i32());
  if (name == "SR_CLOCKHI") return b.CreateTrunc(b.CreateLShr(cx.hook("clock", {}), 32), cx.i32());
  if (name == "SR_GLOBALTIMERLO") return b.CreateTrunc(cx.hook("global_timer", {}), cx.i32());
  if (name == "SR_GLOBALTIMERHI") return b.CreateTrunc(b.CreateLShr(cx.hook("global_timer", {}), 32), cx.i32());
  if (name == "SRZ") return cx.u32(0);
  // sm_90's shared window: one CTA per cluster here, and the window's high word is the high word
  // of the flat address of the kernel's LDS.
  if (name == "SR_CgaCtaId") return cx.u32(0);
  if (name == "SR_SWINHI")
    return b.CreateTrunc(b.CreateLShr(b.CreatePtrToInt(cx.generic_shared_base(), cx.i64()), 32), cx.i32());
  cx.refuse(fmt::format("special register {} is not supported", name));
  return nullptr;
}

// S2R d, SR_x / S2UR
bool lift_s2r(LiftContext& cx, const SassInstruction& ins) {
  if (ins.operands.size() != 2) return cx.refuse("S2R needs a destination and a special register");
  llvm::Value* v = special_register(cx, std::string_view(ins.operands[1].text));
  if (v == nullptr) return false;
  cx.write(ins.operands[0], v);
  return true;
}

// CS2R d64, SR_x: SRZ (a 64-bit zero), the clock or the global timer (d = LO, d+1 = HI); CS2R.32 d,
// SR_x: one word of them.
bool lift_cs2r(LiftContext& cx, const SassInstruction& ins) {
  if (ins.operands.size() != 2) return cx.refuse("CS2R needs a destination and a special register");
  for (std::string_view m : ins.modifiers)
    if (m != "32") return cx.refuse(fmt::format("CS2R with the modifier .{} is not supported", m));
  auto& b = cx.builder();
  const std::string_view name = ins.operands[1].text;
  const bool wide = !ins.has_modifier("32");
  llvm::Value* v;
  bool high = false;
  if (name == "SRZ") v = cx.u64(0);
  else if (name == "SR_CLOCKLO" || name == "SR_CLOCKHI") v = cx.hook("clock", {}), high = name == "SR_CLOCKHI";
  else if (name == "SR_GLOBALTIMERLO" || name == "SR_GLOBALTIMERHI") v = cx.hook("global_timer", {}), high = name == "SR_GLOBALTIMERHI";
  else return cx.refuse(fmt::format("special register {} is not supported in CS2R", name));
  if (wide && high) return cx.refuse(fmt::format("a 64-bit CS2R of {} is not supported", name));
  if (wide) cx.write64(ins.operands[0], v);
  else cx.write(ins.operands[0], b.CreateTrunc(high ? b.CreateLShr(v, 32) : v, cx.i32()));
  return true;
}

// NANOSLEEP t (immediate or register): a hint; the target sleeps briefly or not at all.
bool lift_nanosleep(LiftContext& cx, const SassInstruction& ins) {
  if (ins.operands.size() != 1 || ins.modifiers.begin() != ins.modifiers.end())
    return cx.refuse("only NANOSLEEP t without modifiers is supported");
  cx.hook("sleep", {cx.read_int(ins.operands[0])});
  return true;
}

// The callee a CALL names: "vprintf" of CALL.ABS.NOINC `(vprintf) (the parser keeps a label's name
// without the `( ) around it).
std::string_view callee_of(const SassInstruction& call) {
  for (const auto& op : call.operands) {
    std::string_view text = op.text;
    if (op.kind != sass::OperandKind::label) continue;
    if (text.size() > 3 && text.starts_with("`(") && text.ends_with(")")) text = text.substr(2, text.size() - 3);
    return text;
  }
  return {};
}

// A 64-bit pointer argument of CUDA's device-function ABI: the register pair Rn, Rn+1.
llvm::Value* pointer_argument(LiftContext& cx, unsigned first) {
  auto& b = cx.builder();
  llvm::Value* low = b.CreateZExt(cx.reg(false, first), cx.i64());
  llvm::Value* high = b.CreateShl(b.CreateZExt(cx.reg(false, first + 1), cx.i64()), 32);
  return cx.generic_pointer(b.CreateOr(low, high));
}

}  // namespace

bool is_library_call(const SassInstruction& call) {
  if (call.opcode != "CALL" || !call.has_modifier("ABS")) return false;
  const std::string_view callee = callee_of(call);
  return callee == "vprintf" || callee == "__assertfail";
}

// CUDA's device-function ABI puts the arguments in R4, R5, ... (64-bit ones in aligned pairs) and
// the result in R4:
//   int vprintf(const char* format /* R4:R5 */, const char* arguments /* R6:R7 */)
//   void __assertfail(const char* message /* R4:R5 */, const char* file /* R6:R7 */, unsigned line /* R8 */,
//                     const char* function /* R10:R11 */, size_t char_size /* R12:R13 */)
void lift_library_call(LiftContext& cx, const SassInstruction& call) {
  for (std::string_view m : call.modifiers)
    if (m != "ABS" && m != "NOINC") return (void)cx.refuse(fmt::format("CALL with the modifier .{} is not supported", m));
  const std::string_view callee = callee_of(call);
  if (callee == "vprintf") {
    cx.set_reg(false, 4, cx.hook("vprintf", {pointer_argument(cx, 4), pointer_argument(cx, 6)}));
    return;
  }
  if (callee == "__assertfail") {
    cx.hook("assert_fail", {pointer_argument(cx, 4), pointer_argument(cx, 6), cx.reg(false, 8), pointer_argument(cx, 10)});
    cx.builder().CreateUnreachable();
    return;
  }
  cx.refuse(fmt::format("a call of the library function {} is not supported", callee));
}

void register_special_handlers(HandlerTable& t) {
  t["S2R"] = lift_s2r;
  t["S2UR"] = lift_s2r;
  t["CS2R"] = lift_cs2r;
  t["NANOSLEEP"] = lift_nanosleep;
}

}  // namespace gpuport::lift
