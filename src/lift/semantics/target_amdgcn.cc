// The target hooks of sass.h for AMD gfx10/gfx11 in wave32, where one NVIDIA warp is one wave:
// lane i of the warp is lane i of the wave. Compiled only for amdgcn (to bitcode). The hooks that
// do not involve the warp are in target_amdgcn_common.h.
#include "lift/semantics/target_amdgcn_common.h"

SASS_HOOK(sass_u32, lane_id)(void) { return __builtin_amdgcn_mbcnt_lo(~0u, 0u); }
SASS_HOOK(sass_u32, active_mask)(void) { return __builtin_amdgcn_ballot_w32(true); }
SASS_HOOK(sass_u32, ballot)(bool value) { return __builtin_amdgcn_ballot_w32(value); }
SASS_HOOK(sass_u32, read_lane)(sass_u32 value, sass_u32 lane) {
  return static_cast<sass_u32>(__builtin_amdgcn_ds_bpermute(static_cast<int>(lane << 2), static_cast<int>(value)));
}
