// Matrix (tensor core) SASS semantics; see sass_mma.h for the fragment layouts and the accumulation
// order and rounding chosen. Each lane gathers the whole rows of A and columns of B that its own D
// elements need (read_lane with a register index the same in every lane, so the exchange is uniform)
// and computes its elements as plain dot products. Shapes are template constants, one instance per
// shape, chosen by the entry points from the lifter's constant arguments.
#include "lift/semantics/sass_mma.h"

#include "lift/semantics/sass_half.h"

// Full unrolling, requested per loop (the trip counts are template constants): the gathered words
// then stay in registers instead of stack memory, also for m16n8k32's 256 terms, which the default
// unroll threshold would leave as a loop.
#ifdef __clang__
#define SASS_UNROLL _Pragma("unroll")
#else
#define SASS_UNROLL _Pragma("GCC unroll 64")
#endif

namespace {

inline sass_u32 float_bits(float x) { return __builtin_bit_cast(sass_u32, x); }
inline float float_from_bits(sass_u32 b) { return __builtin_bit_cast(float, b); }
inline bool is_nan(float x) { return (float_bits(x) & 0x7fffffffu) > 0x7f800000u; }

// f16 -> f32: exact (LLVM's fpext; one v_cvt_f32_f16 on gfx1100, where HMMA converts 64 elements a
// lane: cheaper than the conversion through double of sass_half).
inline float f32_from_half(sass_u32 h) { return static_cast<float>(__builtin_bit_cast(_Float16, static_cast<sass_u16>(h))); }

// This lane's words of rows g and g+8 (RowGroups 2, m16; only g for m8) of A and of columns 2t and
// 2t+1 of B, in k order: a_rows[r][w] holds k = w * per_word .. (w+1) * per_word - 1 of row g + 8r.
// B has Words / 4 registers, A RowGroups times as many.
template <sass_u32 RowGroups, sass_u32 Words>
struct Gathered {
  sass_u32 a_rows[RowGroups][Words];
  sass_u32 b_columns[2][Words];
};

template <sass_u32 RowGroups, sass_u32 Words>
void gather(const sass_u32* a, const sass_u32* b, Gathered<RowGroups, Words>& out) {
  const sass_u32 lane = gpuport_hook_lane_id();
  const sass_u32 g = lane / 4, t = lane % 4;
  constexpr sass_u32 b_registers = Words / 4;
  SASS_UNROLL
  for (sass_u32 j = 0; j < RowGroups * b_registers; ++j)
    SASS_UNROLL
    for (sass_u32 from = 0; from < 4; ++from)
      out.a_rows[j % RowGroups][(j / RowGroups) * 4 + from] = gpuport_hook_read_lane(a[j], 4 * g + from);
  SASS_UNROLL
  for (sass_u32 j = 0; j < b_registers; ++j)
    SASS_UNROLL
    for (sass_u32 column = 0; column < 2; ++column)
      SASS_UNROLL
      for (sass_u32 from = 0; from < 4; ++from)
        out.b_columns[column][j * 4 + from] = gpuport_hook_read_lane(b[j], 4 * (2 * t + column) + from);
}

// m16n8k(4 * BRegisters * PerWord) of f16/bf16 (PerWord 2) or tf32 (1).
template <sass_u32 BRegisters, sass_u32 PerWord>
void hmma(sass_u32 type, bool f16_accumulator, const sass_u32* a, const sass_u32* b, const sass_u32* c, sass_u32* d) {
  Gathered<2, 4 * BRegisters> x;
  gather(a, b, x);
  SASS_UNROLL
  for (sass_u32 r = 0; r < 2; ++r) {
    sass_u32 packed = 0;
    SASS_UNROLL
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      float sum = f16_accumulator ? f32_from_half((c[r] >> (16 * column)) & 0xffffu) : float_from_bits(c[i]);
      SASS_UNROLL
      for (sass_u32 w = 0; w < 4 * BRegisters; ++w)
        SASS_UNROLL
        for (sass_u32 e = 0; e < PerWord; ++e)
          sum = __builtin_fmaf(gpuport_sass_mma_float_element(x.a_rows[r][w], e, type),
                               gpuport_sass_mma_float_element(x.b_columns[column][w], e, type), sum);
      if (f16_accumulator) {
        const sass_u32 h = is_nan(sum) ? 0x7fffu : gpuport_sass_half_from_double(static_cast<double>(sum));
        packed |= h << (16 * column);
      } else {
        d[i] = is_nan(sum) ? 0x7fffffffu : float_bits(sum);
      }
    }
    if (f16_accumulator) d[r] = packed;
  }
}

template <sass_u32 RowGroups, sass_u32 BRegisters, sass_u32 PerWord>
void imma(sass_u32 a_type, sass_u32 b_type, bool saturate, const sass_u32* a, const sass_u32* b, const sass_u32* c, sass_u32* d) {
  Gathered<RowGroups, 4 * BRegisters> x;
  gather(a, b, x);
  SASS_UNROLL
  for (sass_u32 r = 0; r < RowGroups; ++r)
    SASS_UNROLL
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      sass_i64 sum = static_cast<sass_i32>(c[i]);  // exact in 64 bits: at most 64 products below 2^16
      SASS_UNROLL
      for (sass_u32 w = 0; w < 4 * BRegisters; ++w)
        SASS_UNROLL
        for (sass_u32 e = 0; e < PerWord; ++e)
          sum += static_cast<sass_i64>(gpuport_sass_mma_int_element(x.a_rows[r][w], e, a_type)) *
                 gpuport_sass_mma_int_element(x.b_columns[column][w], e, b_type);
      if (saturate) sum = sum > 0x7fffffffll ? 0x7fffffffll : sum < -0x80000000ll ? -0x80000000ll : sum;
      d[i] = static_cast<sass_u32>(sum);
    }
}

template <sass_u32 RowGroups, sass_u32 BRegisters>
void bmma(bool xor_op, const sass_u32* a, const sass_u32* b, const sass_u32* c, sass_u32* d) {
  Gathered<RowGroups, 4 * BRegisters> x;
  gather(a, b, x);
  SASS_UNROLL
  for (sass_u32 r = 0; r < RowGroups; ++r)
    SASS_UNROLL
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      sass_u32 sum = c[i];
      SASS_UNROLL
      for (sass_u32 w = 0; w < 4 * BRegisters; ++w) {
        const sass_u32 row = x.a_rows[r][w], col = x.b_columns[column][w];
        sum += static_cast<sass_u32>(__builtin_popcount(xor_op ? row ^ col : row & col));
      }
      d[i] = sum;
    }
}

// The f64 layouts are those of 32-bit elements with one element per register (pair): the low and
// high words are gathered as two such exchanges.
template <sass_u32 RowGroups, sass_u32 BRegisters>
void dmma(const sass_u64* a, const sass_u64* b, const sass_u64* c, sass_u64* d) {
  sass_u32 a_lo[RowGroups * BRegisters], a_hi[RowGroups * BRegisters], b_lo[BRegisters], b_hi[BRegisters];
  SASS_UNROLL
  for (sass_u32 j = 0; j < RowGroups * BRegisters; ++j) a_lo[j] = static_cast<sass_u32>(a[j]), a_hi[j] = static_cast<sass_u32>(a[j] >> 32);
  SASS_UNROLL
  for (sass_u32 j = 0; j < BRegisters; ++j) b_lo[j] = static_cast<sass_u32>(b[j]), b_hi[j] = static_cast<sass_u32>(b[j] >> 32);
  Gathered<RowGroups, 4 * BRegisters> lo, hi;
  gather(a_lo, b_lo, lo);
  gather(a_hi, b_hi, hi);
  auto join = [](sass_u32 low, sass_u32 high) { return __builtin_bit_cast(double, (static_cast<sass_u64>(high) << 32) | low); };
  SASS_UNROLL
  for (sass_u32 r = 0; r < RowGroups; ++r)
    SASS_UNROLL
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      double sum = __builtin_bit_cast(double, c[i]);
      SASS_UNROLL
      for (sass_u32 w = 0; w < 4 * BRegisters; ++w)
        sum = __builtin_fma(join(lo.a_rows[r][w], hi.a_rows[r][w]), join(lo.b_columns[column][w], hi.b_columns[column][w]), sum);
      d[i] = sum != sum ? 0x7fffffffffffffffull : __builtin_bit_cast(sass_u64, sum);
    }
}

}  // namespace

SASS_SEMANTIC(float, mma_float_element)(sass_u32 word, sass_u32 e, sass_u32 type) {
  if (type == SASS_MMA_TF32) {
    const float x = float_from_bits(word);
    return is_nan(x) ? x : float_from_bits(word & 0xffffe000u);
  }
  const sass_u32 half = (word >> (16 * e)) & 0xffffu;
  if (type == SASS_MMA_BF16) return float_from_bits(half << 16);
  return f32_from_half(half);
}

SASS_SEMANTIC(sass_i32, mma_int_element)(sass_u32 word, sass_u32 e, sass_u32 type) {
  switch (type) {
    case SASS_MMA_U8: return static_cast<sass_i32>((word >> (8 * e)) & 0xffu);
    case SASS_MMA_S8: return static_cast<sass_i32>(word << (24 - 8 * e)) >> 24;
    case SASS_MMA_U4: return static_cast<sass_i32>((word >> (4 * e)) & 0xfu);
    default: return static_cast<sass_i32>(word << (28 - 4 * e)) >> 28;  // s4
  }
}

// The entry points pick the shape's instance (the lifter passes constants, so inlining keeps one).
// Shapes the lifter does not pass leave d as it is.
SASS_SEMANTIC(void, hmma)(sass_u32 k, sass_u32 type, bool f16_accumulator, const sass_u32* a, const sass_u32* b,
                          const sass_u32* c, sass_u32* d) {
  if (type == SASS_MMA_TF32) {
    if (k == 4) hmma<1, 1>(type, f16_accumulator, a, b, c, d);
    else if (k == 8) hmma<2, 1>(type, f16_accumulator, a, b, c, d);
  } else {
    if (k == 8) hmma<1, 2>(type, f16_accumulator, a, b, c, d);
    else if (k == 16) hmma<2, 2>(type, f16_accumulator, a, b, c, d);
  }
}

SASS_SEMANTIC(void, imma)(sass_u32 m, sass_u32 k, sass_u32 a_type, sass_u32 b_type, bool saturate, const sass_u32* a,
                          const sass_u32* b, const sass_u32* c, sass_u32* d) {
  const bool four_bit = a_type == SASS_MMA_U4 || a_type == SASS_MMA_S4;
  const sass_u32 b_registers = k * 8 / 32 / (four_bit ? 8 : 4);
  if (four_bit) {
    if (m == 8 && b_registers == 1) imma<1, 1, 8>(a_type, b_type, saturate, a, b, c, d);
    else if (m == 16 && b_registers == 1) imma<2, 1, 8>(a_type, b_type, saturate, a, b, c, d);
    else if (m == 16 && b_registers == 2) imma<2, 2, 8>(a_type, b_type, saturate, a, b, c, d);
  } else {
    if (m == 8 && b_registers == 1) imma<1, 1, 4>(a_type, b_type, saturate, a, b, c, d);
    else if (m == 16 && b_registers == 1) imma<2, 1, 4>(a_type, b_type, saturate, a, b, c, d);
    else if (m == 16 && b_registers == 2) imma<2, 2, 4>(a_type, b_type, saturate, a, b, c, d);
  }
}

SASS_SEMANTIC(void, bmma)(sass_u32 m, sass_u32 k, bool xor_op, const sass_u32* a, const sass_u32* b, const sass_u32* c,
                          sass_u32* d) {
  if (m == 8 && k == 128) bmma<1, 1>(xor_op, a, b, c, d);
  else if (m == 16 && k == 128) bmma<2, 1>(xor_op, a, b, c, d);
  else if (m == 16 && k == 256) bmma<2, 2>(xor_op, a, b, c, d);
}

SASS_SEMANTIC(void, dmma)(sass_u32 m, sass_u32 k, const sass_u64* a, const sass_u64* b, const sass_u64* c, sass_u64* d) {
  if (m == 8 && k == 4) dmma<1, 1>(a, b, c, d);
  else if (m == 16 && k == 4) dmma<2, 1>(a, b, c, d);
  else if (m == 16 && k == 8) dmma<2, 2>(a, b, c, d);
  else if (m == 16 && k == 16) dmma<2, 4>(a, b, c, d);
}

SASS_SEMANTIC(sass_u32, movm_transpose)(sass_u32 value) {
  // Result element `half` of this lane: row g, column 2t + half of the transpose = row 2t + half,
  // column g of the source, which lane 4 * (2t + half) + g / 2 holds in its half g % 2.
  const sass_u32 lane = gpuport_hook_lane_id();
  const sass_u32 g = lane / 4, t = lane % 4;
  sass_u32 out = 0;
  SASS_UNROLL
  for (sass_u32 half = 0; half < 2; ++half) {
    const sass_u32 word = gpuport_hook_read_lane(value, 4 * (2 * t + half) + g / 2);
    out |= ((word >> (16 * (g % 2))) & 0xffffu) << (16 * half);
  }
  return out;
}

SASS_SEMANTIC(sass_u32, ldsm_source_lane)(sass_u32 lane, sass_u32 matrix, bool transposed, sass_u32 half) {
  return 8 * matrix + (transposed ? 2 * (lane % 4) + half : lane / 4);
}

SASS_SEMANTIC(sass_u32, ldsm_row_offset)(sass_u32 lane, bool transposed) {
  return transposed ? 2 * (lane / 4) : 4 * (lane % 4);
}
