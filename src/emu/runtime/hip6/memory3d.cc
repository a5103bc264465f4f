// The per-thread forms of the 3D copy and memset HIP 6 adds. Compiled into libamdhip64.so.6 only;
// calls the core and, for the per-thread forms, the entry points of emu/runtime/hip/ they stand
// for.
#include "emu/runtime/core/queues.h"

using namespace gpuport::emu::hip;

hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms* p, hipStream_t stream) { return hipMemcpy3DAsync(p, per_thread(stream)); }
hipError_t hipMemset3DAsync_spt(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream) {
  return hipMemset3DAsync(p, value, e, per_thread(stream));
}
