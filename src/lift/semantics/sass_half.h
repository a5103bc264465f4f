// Packed half-precision SASS semantics (HFMA2, HADD2, HMUL2, ...): two f16 values per register,
// H0 in bits 0-15, H1 in bits 16-31. See sass.h.
#pragma once

#include "lift/semantics/sass.h"

// The f16 nearest to a double (round to nearest even, overflow to infinity, NaN kept quiet).
SASS_SEMANTIC(sass_u16, half_from_double)(double x);
SASS_SEMANTIC(double, double_from_half)(sass_u16 h);
// One lane of HFMA2: a*b + c rounded once to f16 (rounding 0 RN, 3 RZ); sat clamps to [0, 1].
SASS_SEMANTIC(sass_u16, hfma)(sass_u16 a, sass_u16 b, sass_u16 c, sass_u32 rounding, bool sat);
// HFMA2 d, a, b, c on both halves (sources already swizzled and negated by the lifter).
SASS_SEMANTIC(sass_u32, hfma2)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 rounding, bool sat);

// The same for either 16-bit format (format 2 F16, 3 BF16 as sass_float.h numbers them), rounded
// once (rounding 0 RN, 1 RM, 2 RP, 3 RZ); ftz flushes denormal inputs and results (PTX
// fma.ftz.f16); sat clamps to [0, 1] (NaN to +0). A NaN result is the canonical 0x7fff. HADD2 is
// hfma(a, 1, b) and HMUL2 hfma(a, b, -0): the same single rounding and signs of zero.
SASS_SEMANTIC(sass_u16, hfma_format)(sass_u16 a, sass_u16 b, sass_u16 c, sass_u32 format, sass_u32 rounding, bool sat, bool ftz);
SASS_SEMANTIC(sass_u32, hfma2_format)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 format, sass_u32 rounding, bool sat, bool ftz);
// A 16-bit float as f32 (exact; ftz flushes a denormal first).
SASS_SEMANTIC(float, half_to_float)(sass_u16 h, sass_u32 format, bool ftz);
// HSETP2/HSET2 on one half: cmp as sass_float.h's fcmp numbers it.
SASS_SEMANTIC(bool, hcmp)(sass_u16 a, sass_u16 b, sass_u32 format, sass_u32 cmp, bool ftz);
// HMNMX2 on one half: min when `min`, else max; PTX min/max.f16 rules (one NaN gives the other
// operand, two give 0x7fff; -0 below +0). Gives the chosen operand's bits.
SASS_SEMANTIC(sass_u16, hmnmx)(sass_u16 a, sass_u16 b, sass_u32 format, bool min, bool ftz);
// HMNMX2.NAN (PTX min/max.NaN): a NaN operand gives the canonical NaN 0x7fff; otherwise hmnmx.
SASS_SEMANTIC(sass_u16, hmnmx_nan)(sass_u16 a, sass_u16 b, sass_u32 format, bool min, bool ftz);
// HFMA2.RELU (PTX fma.rn.relu): the hfma_format result clamped below at +0 (max(r, +0) by PTX's
// max rules: negative values and -0 give +0) and a NaN result the canonical 0x7fff.
SASS_SEMANTIC(sass_u32, hfma2_relu)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 format, sass_u32 rounding, bool ftz);
