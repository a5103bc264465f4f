// Special registers (S2R, S2UR, CS2R): thread and block ids, lane id and masks, clocks.
#include <fmt/format.h>

#include "lift/lift_context.h"

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

// CS2R d64, SR_x: SRZ (a 64-bit zero), the clock.
bool lift_cs2r(LiftContext& cx, const SassInstruction& ins) {
  if (ins.operands.size() != 2) return cx.refuse("CS2R needs a destination and a special register");
  const std::string_view name = ins.operands[1].text;
  const bool wide = !ins.has_modifier("32");
  llvm::Value* v;
  if (name == "SRZ") v = cx.u64(0);
  else if (name == "SR_CLOCKLO") v = cx.hook("clock", {});
  else if (name == "SR_GLOBALTIMERLO") v = cx.hook("global_timer", {});
  else return cx.refuse(fmt::format("special register {} is not supported in CS2R", name));
  if (wide) cx.write64(ins.operands[0], v);
  else cx.write(ins.operands[0], cx.builder().CreateTrunc(v, cx.i32()));
  return true;
}

}  // namespace

void register_special_handlers(HandlerTable& t) {
  t["S2R"] = lift_s2r;
  t["S2UR"] = lift_s2r;
  t["CS2R"] = lift_cs2r;
}

}  // namespace gpuport::lift
