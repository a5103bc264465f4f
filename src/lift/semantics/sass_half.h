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
