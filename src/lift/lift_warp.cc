// Warp and block-level instructions: barriers (BAR), votes, shuffles, ... through the target hooks.
#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::SassInstruction;

// BAR.SYNC[.DEFER_BLOCKING] 0: __syncthreads.
bool lift_bar(LiftContext& cx, const SassInstruction& ins) {
  if (!ins.has_modifier("SYNC") || ins.operands.size() != 1 || ins.operands[0].kind != sass::OperandKind::immediate ||
      ins.operands[0].value != 0)
    return cx.refuse("only BAR.SYNC 0 (every thread of the block) is supported");
  cx.hook("block_barrier", {});
  return true;
}

}  // namespace

void register_warp_handlers(HandlerTable& t) { t["BAR"] = lift_bar; }

}  // namespace gpuport::lift
