// SASS warp-level semantics (see sass_warp.h): shuffles, votes, matches, reductions and lane masks
// over the warp hooks. Loops visit the active lanes only, so a partial warp (a block size that is
// not a multiple of 32, divergent code) sees exactly its active lanes, as on NVIDIA.
#include "lift/semantics/sass_warp.h"

SASS_SEMANTIC(sass_u32, shfl)(sass_u32 value, sass_u32 b, sass_u32 c, sass_u32 mode, bool* in_range) {
  // PTX ISA, shfl.sync: lane = b[4:0], clamp = c[4:0], segmask = c[12:8];
  // maxLane = (laneid & segmask) | (clamp & ~segmask), minLane = laneid & segmask.
  const sass_i32 lane_id = static_cast<sass_i32>(gpuport_hook_lane_id());
  const sass_i32 lane = static_cast<sass_i32>(b & 31u);
  const sass_i32 clamp = static_cast<sass_i32>(c & 31u);
  const sass_i32 segment_mask = static_cast<sass_i32>((c >> 8) & 31u);
  const sass_i32 max_lane = (lane_id & segment_mask) | (clamp & ~segment_mask);
  const sass_i32 min_lane = lane_id & segment_mask;
  sass_i32 source;
  bool valid;
  switch (mode) {
    case SASS_SHFL_UP:
      source = lane_id - lane;
      valid = source >= max_lane;
      break;
    case SASS_SHFL_DOWN:
      source = lane_id + lane;
      valid = source <= max_lane;
      break;
    case SASS_SHFL_BFLY:
      source = lane_id ^ lane;
      valid = source <= max_lane;
      break;
    default:  // IDX
      source = min_lane | (lane & ~segment_mask);
      valid = source <= max_lane;
      break;
  }
  if (!valid) source = lane_id;
  *in_range = valid;
  // Every active lane takes part in the read, whichever lane it reads.
  return gpuport_hook_read_lane(value, static_cast<sass_u32>(source));
}

SASS_SEMANTIC(sass_u32, vote)(bool p, sass_u32 mode, bool* result) {
  const sass_u32 active = gpuport_hook_active_mask();
  const sass_u32 ballot = gpuport_hook_ballot(p) & active;
  if (mode == SASS_VOTE_ALL) *result = ballot == active;
  else if (mode == SASS_VOTE_ANY) *result = ballot != 0;
  else *result = ballot == 0 || ballot == active;
  return ballot;
}

namespace {

// Bit i set for each active lane i whose `value` equals the caller's (a 64-bit value read as two
// words). The loop runs over the active mask, the same in every active lane.
inline sass_u32 lanes_equal(sass_u32 low, sass_u32 high, bool wide) {
  const sass_u32 active = gpuport_hook_active_mask();
  sass_u32 equal = 0;
  for (sass_u32 rest = active; rest != 0; rest &= rest - 1) {
    const sass_u32 lane = static_cast<sass_u32>(__builtin_ctz(rest));
    bool same = gpuport_hook_read_lane(low, lane) == low;
    if (wide) same = gpuport_hook_read_lane(high, lane) == high && same;
    if (same) equal |= 1u << lane;
  }
  return equal;
}

}  // namespace

SASS_SEMANTIC(sass_u32, match_any)(sass_u32 value) { return lanes_equal(value, 0, false); }
SASS_SEMANTIC(sass_u32, match_any64)(sass_u64 value) {
  return lanes_equal(static_cast<sass_u32>(value), static_cast<sass_u32>(value >> 32), true);
}
SASS_SEMANTIC(sass_u32, match_all)(sass_u32 value, bool* all) {
  const sass_u32 active = gpuport_hook_active_mask();
  *all = lanes_equal(value, 0, false) == active;
  return *all ? active : 0u;
}
SASS_SEMANTIC(sass_u32, match_all64)(sass_u64 value, bool* all) {
  const sass_u32 active = gpuport_hook_active_mask();
  *all = lanes_equal(static_cast<sass_u32>(value), static_cast<sass_u32>(value >> 32), true) == active;
  return *all ? active : 0u;
}

SASS_SEMANTIC(sass_u32, redux)(sass_u32 value, sass_u32 op, bool is_signed) {
  const sass_u32 active = gpuport_hook_active_mask();
  sass_u32 result = 0;
  bool first = true;
  for (sass_u32 rest = active; rest != 0; rest &= rest - 1) {
    const sass_u32 v = gpuport_hook_read_lane(value, static_cast<sass_u32>(__builtin_ctz(rest)));
    if (first) {
      result = v;
      first = false;
      continue;
    }
    switch (op) {
      case SASS_REDUX_AND: result &= v; break;
      case SASS_REDUX_OR: result |= v; break;
      case SASS_REDUX_XOR: result ^= v; break;
      case SASS_REDUX_SUM: result += v; break;
      case SASS_REDUX_MIN:
        if (is_signed ? static_cast<sass_i32>(v) < static_cast<sass_i32>(result) : v < result) result = v;
        break;
      default:  // MAX
        if (is_signed ? static_cast<sass_i32>(v) > static_cast<sass_i32>(result) : v > result) result = v;
        break;
    }
  }
  return result;
}

SASS_SEMANTIC(sass_u32, lanemask)(sass_u32 kind) {
  const sass_u32 lane = gpuport_hook_lane_id() & 31u;
  const sass_u32 eq = 1u << lane;
  const sass_u32 lt = eq - 1u;
  switch (kind) {
    case SASS_LANEMASK_EQ: return eq;
    case SASS_LANEMASK_LT: return lt;
    case SASS_LANEMASK_LE: return lt | eq;
    case SASS_LANEMASK_GT: return ~(lt | eq);
    default: return ~lt;  // GE
  }
}

SASS_SEMANTIC(sass_u32, virtid)(void) {
  const sass_u32 linear = gpuport_hook_thread_id(0) +
                          gpuport_hook_block_size(0) * (gpuport_hook_thread_id(1) + gpuport_hook_block_size(1) * gpuport_hook_thread_id(2));
  return ((linear / 32u) & 0x7fu) << 8;
}
