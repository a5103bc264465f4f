// Float SASS semantics (FADD, FMUL, FFMA, FSETP, FMNMX, MUFU, FCHK, FRND, conversions, the
// double-precision D* instructions, ...): see sass.h for the conventions.
//
// NaN results: FP32 arithmetic, MUFU, FRND and conversions to f32 give NVIDIA's canonical NaN
// 0x7fffffff (what the hardware writes for any NaN result of these instructions; CUDA's
// CUDART_NAN_F is the same word). f16/bf16 results give 0x7fff by the same rule. f64 results keep
// the native quiet NaN (the input's payload, quieted): NVIDIA's f64 NaN word is not documented
// and no program we know depends on it.
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
// FMNMX d, a, b, pred: min when pred is true, max otherwise (PTX min/max.f32): one NaN operand
// gives the other, two give the canonical NaN; -0 is below +0.
SASS_SEMANTIC(float, fmnmx)(float a, float b, bool min, bool ftz);
// FMNMX.NAN (PTX min/max.NaN.f32): a NaN operand gives the canonical NaN; otherwise fmnmx.
SASS_SEMANTIC(float, fmnmx_nan)(float a, float b, bool min, bool ftz);
// MUFU.op d, a on the bits of a. op: 0 COS, 1 SIN, 2 EX2, 3 LG2, 4 RCP, 5 RSQ, 6 RCP64H,
// 7 RSQ64H, 8 SQRT, 9 TANH. The f32 forms but TANH flush denormal inputs and results to zero (the
// compiler scales denormal operands itself before MUFU: nvcc's sqrt.approx, lg2.approx and
// ex2.approx sequences; tanh.approx.f32 is a bare MUFU.TANH, so TANH keeps them) and go through
// the target's approximation hooks; their error bound is
// NVIDIA's documented one or better (see target_amdgcn_common.h). The 64H forms take and give
// the high word of a double (the low word of the input is taken as 0), a seed that the
// compiler's code refines with DFMA; we give the correctly rounded value's high word.
SASS_SEMANTIC(sass_u32, mufu)(sass_u32 a, sass_u32 op);
// FCHK p, a, b: true when a / b must take the slow path of the IEEE division sequence (nvcc's
// div.rn.f32: MUFU.RCP, two FFMA refinements of the reciprocal, q = a*r, the residual and one
// correction; __cuda_sm3x_div_rn_noftz_f32_slowpath otherwise). NVIDIA does not document the
// predicate's exact boundaries; ours sets it wherever that fast path can be wrong: b zero,
// denormal, Inf or NaN or |b| outside [2^-124, 2^126); a zero (the fast path loses the sign of
// a zero quotient: 0 * r + 0 is +0), denormal, Inf or NaN or |a| < 2^-102 (the residual would
// underflow); a quotient whose exponent is outside [-124, 125]. The slow path is exact for every
// input, so a superset of the hardware's cases costs time, never a wrong result.
SASS_SEMANTIC(bool, fchk)(float a, float b);
// FRND[.mode][.FTZ]: an integral f32; mode 0 to nearest even (the default), 1 FLOOR, 2 CEIL,
// 3 TRUNC. NaN gives the canonical NaN.
SASS_SEMANTIC(float, frnd)(float a, sass_u32 mode, bool ftz);
SASS_SEMANTIC(double, frnd64)(double a, sass_u32 mode);

// ---- conversions ----------------------------------------------------------------------------------
// Integer kinds: 0 S32, 1 U32, 2 S64, 3 U64, 4 S16, 5 U16, 6 S8, 7 U8.
// Float formats: 0 F32, 1 F64, 2 F16, 3 BF16. A float of any format travels as its bits, in the
// low bits of a u64.
// F2I.dst[.src].mode: PTX cvt.rni/rmi/rpi/rzi.dst.src: NaN gives 0, values beyond the integer
// range saturate to its limits; mode as frnd (0 RN even, 1 FLOOR, 2 CEIL, 3 TRUNC). ftz flushes
// a denormal f32 or f16 input to zero first. Gives the integer's bits (sign-extended to 64 for the
// signed kinds).
SASS_SEMANTIC(sass_u64, f2i)(sass_u64 source, sass_u32 format, sass_u32 kind, sass_u32 mode, bool ftz);
// I2F/I2FP.dst.src[.rounding]: the integer (its low bits per kind, signed kinds sign-extended)
// rounded to the float format (rounding as fadd).
SASS_SEMANTIC(sass_u64, i2f)(sass_u64 source, sass_u32 kind, sass_u32 format, sass_u32 rounding);
// F2F.dst.src[.rounding][.FTZ]: float to float (PTX cvt.frnd.dst.src): rounding as fadd; ftz flushes
// f32 denormal inputs and f32 results. NaN gives the destination's canonical NaN (f64: quiet
// input payload); overflow follows the rounding mode (RZ gives the largest finite).
SASS_SEMANTIC(sass_u64, f2f)(sass_u64 source, sass_u32 from_format, sass_u32 to_format, sass_u32 rounding, bool ftz);
// F2FP[.BF16|.F16][.F32].PACK_AB[.RZ] d, a, b: (cvt(a) << 16) | cvt(b) to f16 (format 2) or bf16
// (format 3), as PTX cvt.rn/rz.f16x2.f32 d, a, b puts a in the upper half.
SASS_SEMANTIC(sass_u32, f2fp_pack)(float a, float b, sass_u32 format, sass_u32 rounding);

// ---- double ---------------------------------------------------------------------------------------
// DADD/DMUL/DFMA with .RN (0), .RM (1), .RP (2), .RZ (3); denormals always kept (f64 has no FTZ).
SASS_SEMANTIC(double, dadd)(double a, double b, sass_u32 rounding);
SASS_SEMANTIC(double, dmul)(double a, double b, sass_u32 rounding);
SASS_SEMANTIC(double, dfma)(double a, double b, double c, sass_u32 rounding);
// DSETP.cmp: cmp as fcmp.
SASS_SEMANTIC(bool, dcmp)(double a, double b, sass_u32 cmp);
// DMNMX d, a, b, pred: as fmnmx for f64 (two NaNs give the quiet a).
SASS_SEMANTIC(double, dmnmx)(double a, double b, bool min);
// DSETP.MIN/.MAX p, q, a, b: what nvcc's fmin/fmax sequence for doubles selects with: p true
// when a is the result of min (max) under PTX's rules (a not NaN and b NaN, or a below (above) b,
// -0 below +0, or equal), q true when both are NaN (the sequence then sets b's quiet bit and takes
// b). Written to *both_nan.
SASS_SEMANTIC(bool, dsetp_minmax)(double a, double b, bool min, bool* both_nan);
