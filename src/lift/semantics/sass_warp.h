// The meaning of SASS's warp-level instructions (SHFL, VOTE, MATCH, REDUX) and of the special
// registers derived from the lane and thread ids, written once over the warp hooks of sass.h
// (lane_id, active_mask, ballot, read_lane): the same text serves wave32 (a warp is the wave) and
// wave64 (a warp is one 32-lane half), whose target files define the hooks.
#pragma once

#include "lift/semantics/sass.h"

// SHFL modes, as the lifter passes them.
enum { SASS_SHFL_IDX = 0, SASS_SHFL_UP = 1, SASS_SHFL_DOWN = 2, SASS_SHFL_BFLY = 3 };
// SHFL.mode d, a, b, c with PTX shfl.sync's meaning: b[4:0] is the lane (or delta / xor mask), c
// packs the clamp value (c[4:0]) and the segment mask (c[12:8]). `in_range` is the predicate
// output: whether the source lane lies inside the caller's segment; a caller whose source lane is
// out of range gets its own `value`. The source lane must be active (as on NVIDIA, else undefined).
SASS_SEMANTIC(sass_u32, shfl)(sass_u32 value, sass_u32 b, sass_u32 c, sass_u32 mode, bool* in_range) SASS_CONVERGENT;

// VOTE modes.
enum { SASS_VOTE_ALL = 0, SASS_VOTE_ANY = 1, SASS_VOTE_EQ = 2 };
// VOTE.mode [Rd,] Pd, Ps: returns the ballot of `p` over the active lanes (what Rd receives) and
// sets `result` to the mode's reduction: ALL (every active lane), ANY (some), EQ (all or none).
SASS_SEMANTIC(sass_u32, vote)(bool p, sass_u32 mode, bool* result) SASS_CONVERGENT;

// MATCH.ANY[.U64] d, a: the active lanes whose `a` equals the caller's.
SASS_SEMANTIC(sass_u32, match_any)(sass_u32 value) SASS_CONVERGENT;
SASS_SEMANTIC(sass_u32, match_any64)(sass_u64 value) SASS_CONVERGENT;
// MATCH.ALL[.U64] Pd, d, a: the active mask when every active lane holds the caller's `a`, else 0;
// `all` says which.
SASS_SEMANTIC(sass_u32, match_all)(sass_u32 value, bool* all) SASS_CONVERGENT;
SASS_SEMANTIC(sass_u32, match_all64)(sass_u64 value, bool* all) SASS_CONVERGENT;

// REDUX operations.
enum { SASS_REDUX_AND = 0, SASS_REDUX_OR = 1, SASS_REDUX_XOR = 2, SASS_REDUX_SUM = 3, SASS_REDUX_MIN = 4, SASS_REDUX_MAX = 5 };
// REDUX.op[.S32] d, a: `op` over the values of the active lanes (MIN/MAX signed with .S32, else
// unsigned; SUM wraps modulo 2^32 either way).
SASS_SEMANTIC(sass_u32, redux)(sass_u32 value, sass_u32 op, bool is_signed) SASS_CONVERGENT;

// Lane masks (SR_EQMASK, SR_LTMASK, SR_LEMASK, SR_GTMASK, SR_GEMASK: PTX %lanemask_*), relative
// to the caller's lane id; they do not depend on which lanes are active.
enum { SASS_LANEMASK_EQ = 0, SASS_LANEMASK_LT = 1, SASS_LANEMASK_LE = 2, SASS_LANEMASK_GT = 3, SASS_LANEMASK_GE = 4 };
SASS_SEMANTIC(sass_u32, lanemask)(sass_u32 kind);

// SR_VIRTID as nvcc reads it for PTX %warpid (bits 8..14): here the warp's index within its block
// (linear thread id / 32) in bits 8..14, other bits 0. PTX documents %warpid as the warp's slot on
// its SM, which may change; the index in the block is one such value, and deterministic.
SASS_SEMANTIC(sass_u32, virtid)(void);
