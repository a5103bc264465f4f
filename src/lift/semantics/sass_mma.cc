// Matrix (tensor core) SASS semantics; see sass_mma.h for the fragment layouts and the accumulation
// order and rounding chosen. Each lane gathers the whole rows of A and columns of B that its own D
// elements need (read_lane with a register index the same in every lane, so the exchange is uniform)
// and computes its elements as plain dot products.
#include "lift/semantics/sass_mma.h"

#include "lift/semantics/sass_half.h"

namespace {

// Rows of A and columns of B are at most 8 words of 32 bits (16 f16, 8 tf32, 32 s8, 64 s4, 256 b1).
constexpr sass_u32 kMaxWords = 8;

inline sass_u32 float_bits(float x) { return __builtin_bit_cast(sass_u32, x); }
inline float float_from_bits(sass_u32 b) { return __builtin_bit_cast(float, b); }
inline bool is_nan(float x) { return (float_bits(x) & 0x7fffffffu) > 0x7f800000u; }

// This lane's words of rows g and g+8 (m 16; only g for m 8) of A and of columns 2t and 2t+1 of B,
// in k order: a_rows[r][w] holds k = w * per_word .. (w+1) * per_word - 1 of row g + 8r.
// a_registers = m/8 * b_registers; a row has 4 * b_registers words.
struct Gathered {
  sass_u32 a_rows[2][kMaxWords];
  sass_u32 b_columns[2][kMaxWords];
  sass_u32 words;  // per row and per column
  sass_u32 row_groups;  // m / 8
};

void gather(sass_u32 m, sass_u32 b_registers, const sass_u32* a, const sass_u32* b, Gathered& out) {
  const sass_u32 lane = gpuport_hook_lane_id();
  const sass_u32 g = lane / 4, t = lane % 4;
  const sass_u32 row_groups = m / 8;
  out.words = 4 * b_registers;
  out.row_groups = row_groups;
  for (sass_u32 j = 0; j < row_groups * b_registers; ++j)
    for (sass_u32 from = 0; from < 4; ++from)
      out.a_rows[j % row_groups][(j / row_groups) * 4 + from] = gpuport_hook_read_lane(a[j], 4 * g + from);
  for (sass_u32 j = 0; j < b_registers; ++j)
    for (sass_u32 column = 0; column < 2; ++column)
      for (sass_u32 from = 0; from < 4; ++from)
        out.b_columns[column][j * 4 + from] = gpuport_hook_read_lane(b[j], 4 * (2 * t + column) + from);
}

sass_u32 elements_per_word(sass_u32 type) {
  switch (type) {
    case SASS_MMA_F16:
    case SASS_MMA_BF16: return 2;
    case SASS_MMA_TF32: return 1;
    case SASS_MMA_U8:
    case SASS_MMA_S8: return 4;
    default: return 8;  // u4, s4
  }
}

// The f32 fma chain over one row and one column, c first.
float dot_f32(const sass_u32* row, const sass_u32* column, sass_u32 words, sass_u32 type, float c) {
  const sass_u32 per_word = elements_per_word(type);
  float sum = c;
  for (sass_u32 w = 0; w < words; ++w)
    for (sass_u32 e = 0; e < per_word; ++e)
      sum = __builtin_fmaf(gpuport_sass_mma_float_element(row[w], e, type), gpuport_sass_mma_float_element(column[w], e, type), sum);
  return sum;
}

}  // namespace

SASS_SEMANTIC(float, mma_float_element)(sass_u32 word, sass_u32 e, sass_u32 type) {
  if (type == SASS_MMA_TF32) {
    const float x = float_from_bits(word);
    return is_nan(x) ? x : float_from_bits(word & 0xffffe000u);
  }
  const sass_u32 half = (word >> (16 * e)) & 0xffffu;
  if (type == SASS_MMA_BF16) return float_from_bits(half << 16);
  return static_cast<float>(gpuport_sass_double_from_half(static_cast<sass_u16>(half)));  // exact
}

SASS_SEMANTIC(sass_i32, mma_int_element)(sass_u32 word, sass_u32 e, sass_u32 type) {
  switch (type) {
    case SASS_MMA_U8: return static_cast<sass_i32>((word >> (8 * e)) & 0xffu);
    case SASS_MMA_S8: return static_cast<sass_i32>(word << (24 - 8 * e)) >> 24;
    case SASS_MMA_U4: return static_cast<sass_i32>((word >> (4 * e)) & 0xfu);
    default: return static_cast<sass_i32>(word << (28 - 4 * e)) >> 28;  // s4
  }
}

SASS_SEMANTIC(void, hmma)(sass_u32 k, sass_u32 type, bool f16_accumulator, const sass_u32* a, const sass_u32* b,
                          const sass_u32* c, sass_u32* d) {
  Gathered x;
  gather(16, k * 8 / 32 / elements_per_word(type), a, b, x);
  for (sass_u32 r = 0; r < 2; ++r) {
    sass_u32 packed = 0;
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      const float ci = f16_accumulator
                           ? static_cast<float>(gpuport_sass_double_from_half(static_cast<sass_u16>(c[r] >> (16 * column))))
                           : float_from_bits(c[i]);
      const float sum = dot_f32(x.a_rows[r], x.b_columns[column], x.words, type, ci);
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

SASS_SEMANTIC(void, imma)(sass_u32 m, sass_u32 k, sass_u32 a_type, sass_u32 b_type, bool saturate, const sass_u32* a,
                          const sass_u32* b, const sass_u32* c, sass_u32* d) {
  const sass_u32 per_word = elements_per_word(a_type);
  Gathered x;
  gather(m, k * 8 / 32 / per_word, a, b, x);
  for (sass_u32 r = 0; r < x.row_groups; ++r)
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      sass_i64 sum = static_cast<sass_i32>(c[i]);  // exact in 64 bits: at most 64 products below 2^16
      for (sass_u32 w = 0; w < x.words; ++w)
        for (sass_u32 e = 0; e < per_word; ++e)
          sum += static_cast<sass_i64>(gpuport_sass_mma_int_element(x.a_rows[r][w], e, a_type)) *
                 gpuport_sass_mma_int_element(x.b_columns[column][w], e, b_type);
      if (saturate) sum = sum > 0x7fffffffll ? 0x7fffffffll : sum < -0x80000000ll ? -0x80000000ll : sum;
      d[i] = static_cast<sass_u32>(sum);
    }
}

SASS_SEMANTIC(void, bmma)(sass_u32 m, sass_u32 k, bool xor_op, const sass_u32* a, const sass_u32* b, const sass_u32* c,
                          sass_u32* d) {
  Gathered x;
  gather(m, k * 8 / 32 / 32, a, b, x);
  for (sass_u32 r = 0; r < x.row_groups; ++r)
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      sass_u32 sum = c[i];
      for (sass_u32 w = 0; w < x.words; ++w) {
        const sass_u32 row = x.a_rows[r][w], col = x.b_columns[column][w];
        sum += static_cast<sass_u32>(__builtin_popcount(xor_op ? row ^ col : row & col));
      }
      d[i] = sum;
    }
}

SASS_SEMANTIC(void, dmma)(sass_u32 m, sass_u32 k, const sass_u64* a, const sass_u64* b, const sass_u64* c, sass_u64* d) {
  // The f64 layouts are those of 32-bit elements with one element per register (pair): gather the
  // low and high words as two such exchanges.
  const sass_u32 b_registers = k * 8 / 32;
  const sass_u32 a_registers = m / 8 * b_registers;
  sass_u32 a_lo[8], a_hi[8], b_lo[4], b_hi[4];
  for (sass_u32 j = 0; j < a_registers; ++j) a_lo[j] = static_cast<sass_u32>(a[j]), a_hi[j] = static_cast<sass_u32>(a[j] >> 32);
  for (sass_u32 j = 0; j < b_registers; ++j) b_lo[j] = static_cast<sass_u32>(b[j]), b_hi[j] = static_cast<sass_u32>(b[j] >> 32);
  Gathered lo, hi;
  gather(m, b_registers, a_lo, b_lo, lo);
  gather(m, b_registers, a_hi, b_hi, hi);
  auto element = [](const Gathered& l, const Gathered& h, bool from_a, sass_u32 index, sass_u32 w) {
    const sass_u64 bits = from_a ? (static_cast<sass_u64>(h.a_rows[index][w]) << 32) | l.a_rows[index][w]
                                 : (static_cast<sass_u64>(h.b_columns[index][w]) << 32) | l.b_columns[index][w];
    return __builtin_bit_cast(double, bits);
  };
  for (sass_u32 r = 0; r < lo.row_groups; ++r)
    for (sass_u32 column = 0; column < 2; ++column) {
      const sass_u32 i = r * 2 + column;
      double sum = __builtin_bit_cast(double, c[i]);
      for (sass_u32 w = 0; w < lo.words; ++w) sum = __builtin_fma(element(lo, hi, true, r, w), element(lo, hi, false, column, w), sum);
      d[i] = sum != sum ? 0x7fffffffffffffffull : __builtin_bit_cast(sass_u64, sum);
    }
}

SASS_SEMANTIC(sass_u32, movm_transpose)(sass_u32 value) {
  // Result element `half` of this lane: row g, column 2t + half of the transpose = row 2t + half,
  // column g of the source, which lane 4 * (2t + half) + g / 2 holds in its half g % 2.
  const sass_u32 lane = gpuport_hook_lane_id();
  const sass_u32 g = lane / 4, t = lane % 4;
  sass_u32 out = 0;
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
