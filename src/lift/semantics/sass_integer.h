// Integer SASS semantics (IADD3, IMAD, LOP3, ISETP, SHF, LEA, PRMT, ...): see sass.h.
#pragma once

#include "lift/semantics/sass.h"

// ---- integer ------------------------------------------------------------------------------------
// IADD3 d, [co0, co1,] a, b, c [, ci0, ci1]: each source may be negated (two's complement, as
// the adder sees ~x + 1); the sum's bits above 31 are the carry: co0 = carry >= 1, co1 = carry >= 2.
SASS_SEMANTIC(sass_u32, iadd3)(sass_u32 a, bool neg_a, sass_u32 b, bool neg_b, sass_u32 c, bool neg_c,
                               bool ci0, bool ci1, bool* co0, bool* co1);
// IMAD d, a, b, c (low 32 bits); .HI: high 32 of a*b + c's 64-bit extension; .X adds a carry.
SASS_SEMANTIC(sass_u32, imad)(sass_u32 a, sass_u32 b, sass_u32 c, bool neg_c, bool ci, bool* co);
SASS_SEMANTIC(sass_u32, imad_hi)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned, bool ci, bool* co);
// IMAD.WIDE[.U32] d64, a, b, c64: a*b (signed or unsigned 32x32->64) + c64.
SASS_SEMANTIC(sass_u64, imad_wide)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned);
// LOP3.LUT d, a, b, c, lut: bit i of d = lut[(a_i << 2) | (b_i << 1) | c_i].
SASS_SEMANTIC(sass_u32, lop3)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 lut);
// ISETP.cmp[.U32].bop p, a, b, c: (a cmp b) bop c. cmp: 0 F, 1 LT, 2 EQ, 3 LE, 4 GT, 5 NE, 6 GE,
// 7 T; bop: 0 AND, 1 OR, 2 XOR. .EX: `ex_equal` is the result of the lower words' compare, used
// when the (high) words are equal.
SASS_SEMANTIC(bool, icmp)(sass_u32 a, sass_u32 b, sass_u32 cmp, bool is_unsigned);
SASS_SEMANTIC(bool, icmp_ex)(sass_u32 a, sass_u32 b, sass_u32 cmp, bool is_unsigned, bool lower);
SASS_SEMANTIC(bool, bool_op)(bool x, bool c, sass_u32 bop);
// SHF.L/R[.W].type[.HI] d, lo, shift, hi: a funnel shift of the 64-bit hi:lo.
// kind: 0 U32 (shift clamped to 32, or wrapped with .W), 1 S32 (right shifts fill with the sign),
// 2 U64, 3 S64 (shift of 0..63). `hi_result` picks the high word of the shifted value.
SASS_SEMANTIC(sass_u32, shf)(sass_u32 lo, sass_u32 shift, sass_u32 hi, bool left, bool wrap, sass_u32 kind, bool hi_result);
// LEA d, a, b, shift: (a << shift) + b; LEA.HI: (hi:a << shift) >> 32 + b. With carry in and out.
SASS_SEMANTIC(sass_u32, lea)(sass_u32 a, sass_u32 b, sass_u32 shift, bool neg_a, bool ci, bool* co);
SASS_SEMANTIC(sass_u32, lea_hi)(sass_u32 a, sass_u32 b, sass_u32 hi, sass_u32 shift, bool neg_a, bool ci, bool* co);
// PRMT d, a, sel, b: bytes of {b, a} picked by the four nibbles of sel (mode: 0 default, 1 F4E,
// 2 B4E, 3 RC8, 4 ECL, 5 ECR, 6 RC16); in the default mode bit 3 of a nibble replicates the sign.
SASS_SEMANTIC(sass_u32, prmt)(sass_u32 a, sass_u32 sel, sass_u32 b, sass_u32 mode);

