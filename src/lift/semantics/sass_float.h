// Float SASS semantics (FADD, FMUL, FFMA, FSETP, FMNMX, MUFU, FCHK, ...): see sass.h.
#pragma once

#include "lift/semantics/sass.h"

// ---- float --------------------------------------------------------------------------------------
// rounding: 0 RN, 1 RM (down), 2 RP (up), 3 RZ. ftz flushes denormal inputs and results to zero
// (sign kept); sat clamps to [0, 1] (NaN to 0).
SASS_SEMANTIC(float, fadd)(float a, float b, sass_u32 rounding, bool ftz, bool sat);
SASS_SEMANTIC(float, fmul)(float a, float b, sass_u32 rounding, bool ftz, bool sat);
SASS_SEMANTIC(float, ffma)(float a, float b, float c, sass_u32 rounding, bool ftz, bool sat);
// FSETP.cmp[.FTZ].bop: cmp: 0 F, 1 LT, 2 EQ, 3 LE, 4 GT, 5 NE, 6 GE, 7 NUM, 8 NAN, 9 LTU,
// 10 EQU, 11 LEU, 12 GTU, 13 NEU, 14 GEU, 15 T (ordered compares false on NaN, the U forms true).
SASS_SEMANTIC(bool, fcmp)(float a, float b, sass_u32 cmp, bool ftz);
// FMNMX d, a, b, pred: min when pred is true, max otherwise; one NaN operand gives the other.
SASS_SEMANTIC(float, fmnmx)(float a, float b, bool min, bool ftz);
// MUFU.op d, a on the bits of a. op: 0 COS, 1 SIN, 2 EX2, 3 LG2, 4 RCP, 5 RSQ, 6 RCP64H,
// 7 RSQ64H, 8 SQRT, 9 TANH. The 64H forms take and give the high word of a double (the low word
// of the input is taken as 0), a seed the code refines with DFMA.
SASS_SEMANTIC(sass_u32, mufu)(sass_u32 a, sass_u32 op);
// FCHK p, a, b: true when a / b needs the slow path of the division sequence (the fast
// reciprocal-and-refine result could be wrong: b or a/b near the range limits, denormals, NaN/Inf).
SASS_SEMANTIC(bool, fchk)(float a, float b);
