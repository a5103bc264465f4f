// Matrix (tensor core) SASS semantics: HMMA, IMMA, BMMA, DMMA and the warp-collective matrix moves
// LDSM and MOVM, for one thread of the warp. A thread holds fragments of A, B and C in registers
// (the PTX ISA's "Matrix Fragments for mma.mMnNkK" tables say which lane holds which element); its
// elements of D need rows of A and columns of B that other lanes hold, read through the read_lane
// hook (sass.h), so every lane of the warp must execute the instruction (as on NVIDIA: .sync.aligned).
//
// Fragment layouts (g = lane / 4, t = lane % 4; an A or B register holds `per_word` elements of
// consecutive k: 2 f16/bf16, 1 tf32, 4 s8/u8, 8 s4/u4, 32 b1, element e in bits [e*w, (e+1)*w); an f64
// takes a register pair): A register j holds row g + 8 * (j % (m/8)) at k = (j / (m/8)) * 4 * per_word +
// t * per_word + e; B register j holds column g at k = j * 4 * per_word + t * per_word + e; C and D
// element i (a register each, or half of a packed-f16 register) is row g + 8 * (i / 2), column 2t + i % 2.
//
// Accumulation (PTX leaves order and intermediate rounding unspecified; fixed here): d = c + a[0]*b[0]
// + ... + a[K-1]*b[K-1] with the terms added in k order, each step one fused multiply-add rounded to
// nearest even in f32 (so each product is exact inside its step); denormal inputs and results are kept
// (no flush). An f16 D is the f32 result of that chain rounded to f16 (nearest even). NaN results are NVIDIA's
// canonical NaN: f32 0x7fffffff, f16 0x7fff; f64 (DMMA: the same fma chain in f64, which PTX documents
// as "identical to .f64 fma") 0x7fffffffffffffff. tf32 elements ignore the low 13 bits of their register
// (a NaN stays a NaN). Integers are exact: 32-bit wrap-around, or with .SAT the exact sum clamped to the
// s32 range (PTX .satfinite). Hardware tensor cores add differently (wider aligned sums, truncation):
// results match the hardware bit for bit when every partial sum is exact in f32 (small integers,
// short dyadic fractions), and otherwise within the rounding of K additions.
#pragma once

#include "lift/semantics/sass.h"

// The instructions below exchange values among the lanes of the warp (read_lane): LLVM must not move
// their calls across divergent control flow. (sass.h may define the marker; this is the same.)
#ifndef SASS_CONVERGENT
#if defined(__clang__)
#define SASS_CONVERGENT __attribute__((convergent))
#else
#define SASS_CONVERGENT
#endif
#endif

// Element types of A and B.
enum {
  SASS_MMA_F16 = 0,
  SASS_MMA_BF16 = 1,
  SASS_MMA_TF32 = 2,
  SASS_MMA_U8 = 3,
  SASS_MMA_S8 = 4,
  SASS_MMA_U4 = 5,
  SASS_MMA_S4 = 6,
};

// Float element e of an A/B register (exact in f32). type: SASS_MMA_F16, _BF16 or _TF32.
SASS_SEMANTIC(float, mma_float_element)(sass_u32 word, sass_u32 e, sass_u32 type);
// Integer element e of an A/B register. type: SASS_MMA_U8 .. SASS_MMA_S4.
SASS_SEMANTIC(sass_i32, mma_int_element)(sass_u32 word, sass_u32 e, sass_u32 type);

// ---- instructions -------------------------------------------------------------------------------
// Register arrays: `a`, `b`, `c` as the SASS operands name them (Ra, Ra+1, ...); `d` receives the
// results. `d` may be written only after every source is read: the lifter passes copies.
// HMMA.168<k>.F32|F16[.BF16|.TF32]: m16n8k`k` (f16/bf16: k 8 or 16, tf32: k 4 or 8; A holds k/4
// registers of f16/bf16 or k/2 of tf32, B half as many); type SASS_MMA_F16/_BF16/_TF32; f16_accumulator:
// C and D are 2 packed-f16 registers (H0 the even column), else 4 f32 registers.
SASS_SEMANTIC(void, hmma)(sass_u32 k, sass_u32 type, bool f16_accumulator, const sass_u32* a, const sass_u32* b,
                          const sass_u32* c, sass_u32* d) SASS_CONVERGENT;
// IMMA.<m>8<k>.<A type>.<B type>[.SAT]: m 8 or 16, of 8- or 4-bit integers (A and B of one width),
// s32 C and D (m/4 registers).
SASS_SEMANTIC(void, imma)(sass_u32 m, sass_u32 k, sass_u32 a_type, sass_u32 b_type, bool saturate, const sass_u32* a,
                          const sass_u32* b, const sass_u32* c, sass_u32* d) SASS_CONVERGENT;
// BMMA.<m>8<k>.AND|XOR.POPC: single bits, d = c + popc(row AND|XOR column), 32-bit wrap-around.
SASS_SEMANTIC(void, bmma)(sass_u32 m, sass_u32 k, bool xor_op, const sass_u32* a, const sass_u32* b, const sass_u32* c,
                          sass_u32* d) SASS_CONVERGENT;
// DMMA.884 (sm_80) / DMMA.8x8x4 (sm_90) and m16n8k4/8/16: every element f64 (a register pair).
SASS_SEMANTIC(void, dmma)(sass_u32 m, sass_u32 k, const sass_u64* a, const sass_u64* b, const sass_u64* c, sass_u64* d) SASS_CONVERGENT;

// ---- matrix moves -------------------------------------------------------------------------------
// MOVM.16.MT88 d, a: the 8x8 matrix of 16-bit elements that the warp holds one pair per lane (row
// lane/4, columns 2*(lane%4) and +1, as LDSM.16.M88 gives it), transposed.
SASS_SEMANTIC(sass_u32, movm_transpose)(sass_u32 value) SASS_CONVERGENT;
// LDSM.16.M88[.2|.4] / LDSM.16.MT88[.2|.4]: lanes 8i..8i+7 give the row addresses of 8x8 matrix i
// (16 bytes a row). Which lane's address this lane reads for matrix `matrix`, and the byte offset in
// that row: a 32-bit word (columns 2*(lane%4), +1 of row lane/4), or, transposed, one 16-bit element
// per `half` 0 and 1 (column lane/4 of rows 2*(lane%4) + half).
SASS_SEMANTIC(sass_u32, ldsm_source_lane)(sass_u32 lane, sass_u32 matrix, bool transposed, sass_u32 half);
SASS_SEMANTIC(sass_u32, ldsm_row_offset)(sass_u32 lane, bool transposed);
