// Integer SASS semantics (IADD3, IMAD, LOP3, ISETP, SHF, LEA, PRMT, ...): see sass.h.
#pragma once

#include "lift/semantics/sass.h"

// ---- integer ------------------------------------------------------------------------------------
// IADD3 d, [co0, co1,] a, b, c [, ci0, ci1]: each source may be negated (two's complement, as
// the adder sees ~x + 1); the sum's bits above 31 are the carry: co0 = carry >= 1, co1 = carry >= 2.
SASS_SEMANTIC(sass_u32, iadd3)(sass_u32 a, bool neg_a, sass_u32 b, bool neg_b, sass_u32 c, bool neg_c,
                               bool ci0, bool ci1, bool* co0, bool* co1);
// IMAD d, a, b, c (low 32 bits); .X adds a carry.
SASS_SEMANTIC(sass_u32, imad)(sass_u32 a, sass_u32 b, sass_u32 c, bool neg_c, bool ci, bool* co);
// IMAD.HI d, a, b, c: bits 32..63 of a*b + c64, where c names a register pair (c, c+1) as in
// IMAD.WIDE: nvcc zeroes the low register when it wants only the high word added (`IMAD.MOV.U32
// R10, RZ, RZ, RZ; IMAD.HI.U32 R17, R5, R4, R10` for __umulhi(b, c) + a __mulhi in R11). `co` is
// the carry out of the 64-bit sum (bit 64), for the unsigned form.
SASS_SEMANTIC(sass_u32, imad_hi)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned, bool ci, bool* co);
// IMAD.WIDE[.U32] d64, a, b, c64: a*b (signed or unsigned 32x32->64) + c64.
SASS_SEMANTIC(sass_u64, imad_wide)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned);
// IMAD.WIDE[.U32][.X] d64, co, a, b, c64 [, ci]: the same plus a carry in; `co` is the carry out
// of the 64-bit sum (bit 64), as the 128-bit multiplications nvcc builds from it need.
SASS_SEMANTIC(sass_u64, imad_wide_carry)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned, bool ci, bool* co);
// LOP3.LUT d, a, b, c, lut: bit i of d = lut[(a_i << 2) | (b_i << 1) | c_i].
SASS_SEMANTIC(sass_u32, lop3)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 lut);
// LOP3.LUT's predicate output: the result is nonzero, or the predicate input q is true (nvcc chains
// q through the words of a wider value; a plain test passes !PT).
SASS_SEMANTIC(bool, lop3_nonzero)(sass_u32 result, bool q);
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
// The other modes read only sel[1:0] (PTX prmt's table of modes).
SASS_SEMANTIC(sass_u32, prmt)(sass_u32 a, sass_u32 sel, sass_u32 b, sass_u32 mode);
// SEL d, a, b, p: a when p, else b.
SASS_SEMANTIC(sass_u32, sel)(sass_u32 a, sass_u32 b, bool p);
// IMNMX[.U32] d, a, b, p: the minimum when p, the maximum otherwise (signed unless .U32).
SASS_SEMANTIC(sass_u32, imnmx)(sass_u32 a, sass_u32 b, bool is_unsigned, bool take_min);
// Blackwell's (sm_100, sm_120) three-source and 64-bit forms:
// VIMNMX3[.U32|.S32] d, a, b, c, p: the minimum (p) or maximum of three.
SASS_SEMANTIC(sass_u32, imnmx3)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned, bool take_min);
// .RELU on a signed VIMNMX/VIMNMX3 result (PTX min/max.relu.s32): negative results become 0.
SASS_SEMANTIC(sass_u32, relu)(sass_u32 a);
// VIADDMNMX[.U32] d, a, b, c, p: min or max of (a + b modulo 2^32) and c.
SASS_SEMANTIC(sass_u32, iadd_mnmx)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned, bool take_min);
// IMNMX.{U64,S64} on register pairs.
SASS_SEMANTIC(sass_u64, imnmx64)(sass_u64 a, sass_u64 b, bool is_unsigned, bool take_min);
// ISETP.cmp.{U64,S64}: the compare of two register pairs (cmp as icmp's).
SASS_SEMANTIC(bool, icmp64)(sass_u64 a, sass_u64 b, sass_u32 cmp, bool is_unsigned);
// VABSDIFF[.U32] d, a, b, c: |a - b| + c, the difference exact (signed unless .U32), the sum
// modulo 2^32 (PTX sad).
SASS_SEMANTIC(sass_u32, absdiff_add)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned);
// IABS d, a: |a| (two's complement: |-2^31| is -2^31, as PTX abs.s32 states).
SASS_SEMANTIC(sass_u32, iabs)(sass_u32 a);
// POPC d, a: the number of set bits.
SASS_SEMANTIC(sass_u32, popc)(sass_u32 a);
// FLO.U32/.S32[.SH] d, a: the bit position of the most significant 1 (for a negative .S32 value:
// of the most significant 0, the first bit that differs from the sign), or 0xffffffff when there
// is none; .SH gives 31 - position instead (PTX bfind[.shiftamt], which compiles to FLO).
SASS_SEMANTIC(sass_u32, flo)(sass_u32 a, bool is_signed, bool shift_amount);
// BREV d, a: the bits of a in reverse order.
SASS_SEMANTIC(sass_u32, brev)(sass_u32 a);
// BMSK[.W] d, position, width: `width` ones starting at bit `position` (PTX bmsk: both clamped
// to 32, or with .W taken modulo 32); bits past 31 are dropped.
SASS_SEMANTIC(sass_u32, bmsk)(sass_u32 position, sass_u32 width, bool wrap);
// SGXT[.U32][.W] d, a, width: the low `width` bits of a sign-extended (zero-extended with .U32);
// width clamped to 32, or modulo 32 with .W; width 0 gives 0 (PTX szext).
SASS_SEMANTIC(sass_u32, sgxt)(sass_u32 a, sass_u32 width, bool is_signed, bool wrap);
// PLOP3.LUT: lut[(a << 2) | (b << 1) | c], LOP3's truth table over three predicates.
SASS_SEMANTIC(bool, plop3)(bool a, bool b, bool c, sass_u32 lut);
// The predicate file as a byte: bit i is P0..P6 (bit 7, PT's place, reads as 0).
// P2R[.B1|.B2|.B3] d, PR, a, mask: byte `byte` of a with the bits that mask[7:0] selects taken
// from PR; the other bits and bytes of a unchanged.
SASS_SEMANTIC(sass_u32, p2r)(sass_u32 pr, sass_u32 a, sass_u32 mask, sass_u32 byte);
// R2P PR, a[.B1|.B2|.B3], mask: the new predicate byte: the bits mask[6:0] selects come from
// byte `byte` of a, the others keep pr's value.
SASS_SEMANTIC(sass_u32, r2p)(sass_u32 pr, sass_u32 a, sass_u32 mask, sass_u32 byte);
// IDP.4A.{S8,U8}.{S8,U8} d, a, b, c: c + the dot product of the four bytes of a and of b.
SASS_SEMANTIC(sass_u32, idp4a)(sass_u32 a, sass_u32 b, sass_u32 c, bool a_signed, bool b_signed);
// IDP.2A.{LO,HI}.{S16,U16}.{S8,U8} d, a, b, c: c + the two 16-bit halves of a times bytes 0, 1
// (.LO) or 2, 3 (.HI) of b (PTX dp2a).
SASS_SEMANTIC(sass_u32, idp2a)(sass_u32 a, sass_u32 b, sass_u32 c, bool a_signed, bool b_signed, bool hi);

