// The target hooks of sass.h for AMD gfx10/gfx11 in wave64: one NVIDIA warp is one 32-lane half of
// the wave (lanes 0-31 or 32-63), so warp-level hooks work within the caller's half. Compiled only
// for amdgcn with +wavefrontsize64 (to bitcode). The hooks that do not involve the warp are the
// wave32 file's (target_amdgcn_common.h).
#include "lift/semantics/target_amdgcn_common.h"

namespace {

// Lane within the wave (0..63) and the first lane of the caller's warp (0 or 32).
inline sass_u32 wave_lane() { return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)); }
inline sass_u32 warp_base() { return wave_lane() & 32u; }

}  // namespace

SASS_HOOK(sass_u32, lane_id)(void) { return wave_lane() & 31u; }
SASS_HOOK(sass_u32, active_mask)(void) {
  return static_cast<sass_u32>(__builtin_amdgcn_ballot_w64(true) >> warp_base());
}
SASS_HOOK(sass_u32, ballot)(bool value) { return static_cast<sass_u32>(__builtin_amdgcn_ballot_w64(value) >> warp_base()); }
SASS_HOOK(sass_u32, read_lane)(sass_u32 value, sass_u32 lane) {
  // ds_bpermute_b32 addresses a lane of the whole wave (byte address / 4, modulo 64 on gfx9;
  // gfx10+ wave64 executes it as two 32-lane halves that each read within themselves): giving the
  // lane inside the caller's half works on both.
  const sass_u32 source = warp_base() + (lane & 31u);
  return static_cast<sass_u32>(__builtin_amdgcn_ds_bpermute(static_cast<int>(source << 2), static_cast<int>(value)));
}
