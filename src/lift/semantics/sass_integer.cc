// Integer SASS semantics; see sass_integer.h for each function's definition.
#include "lift/semantics/sass_integer.h"

// Sums as chains of 32-bit adds that count their carries (each wrap of a partial sum is one
// carry out of bit 31, so the count is the 64-bit sum's high word): the shape LLVM turns into
// the target's add-with-carry (v_add_co_u32, v_add_co_ci_u32), where a 64-bit sum compared with
// 2^32 stays a 64-bit add and compare. -x is ~x + 1: the +1s join the carry-ins in the last add.
SASS_SEMANTIC(sass_u32, iadd3)(sass_u32 a, bool neg_a, sass_u32 b, bool neg_b, sass_u32 c, bool neg_c, bool ci0, bool ci1,
                               bool* co0, bool* co1) {
  sass_u32 sum = neg_a ? ~a : a, carries = 0;
  carries += __builtin_add_overflow(sum, neg_b ? ~b : b, &sum) ? 1u : 0u;
  carries += __builtin_add_overflow(sum, neg_c ? ~c : c, &sum) ? 1u : 0u;
  const sass_u32 ones = (neg_a ? 1u : 0u) + (neg_b ? 1u : 0u) + (neg_c ? 1u : 0u) + (ci0 ? 1u : 0u) + (ci1 ? 1u : 0u);
  carries += __builtin_add_overflow(sum, ones, &sum) ? 1u : 0u;
  *co0 = carries >= 1;
  *co1 = carries >= 2;
  return sum;
}

SASS_SEMANTIC(sass_u32, imad)(sass_u32 a, sass_u32 b, sass_u32 c, bool neg_c, bool ci, bool* co) {
  sass_u32 sum = a * b;
  bool carry = __builtin_add_overflow(sum, neg_c ? ~c : c, &sum);
  carry |= __builtin_add_overflow(sum, (neg_c ? 1u : 0u) + (ci ? 1u : 0u), &sum);
  *co = carry;
  return sum;
}

SASS_SEMANTIC(sass_u32, imad_hi)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned, bool ci, bool* co) {
  const sass_u64 product = gpuport_sass_imad_wide(a, b, 0, is_unsigned);
  const sass_u64 sum = product + c;
  const sass_u64 total = sum + (ci ? 1 : 0);
  *co = sum < product || total < sum;
  return static_cast<sass_u32>(total >> 32);
}

SASS_SEMANTIC(sass_u64, imad_wide)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned) {
  const sass_u64 product = is_unsigned ? static_cast<sass_u64>(a) * b
                                       : static_cast<sass_u64>(static_cast<sass_i64>(static_cast<sass_i32>(a)) *
                                                               static_cast<sass_i32>(b));
  return product + c;
}

SASS_SEMANTIC(sass_u64, imad_wide_carry)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned, bool ci, bool* co) {
  const sass_u64 product = gpuport_sass_imad_wide(a, b, 0, is_unsigned);
  const sass_u64 sum = product + c;
  const sass_u64 total = sum + (ci ? 1 : 0);
  *co = sum < product || total < sum;
  return total;
}

SASS_SEMANTIC(sass_u32, lop3)(sass_u32 a, sass_u32 b, sass_u32 c, sass_u32 lut) {
  sass_u32 d = 0;
  if (lut & 0x01) d |= ~a & ~b & ~c;
  if (lut & 0x02) d |= ~a & ~b & c;
  if (lut & 0x04) d |= ~a & b & ~c;
  if (lut & 0x08) d |= ~a & b & c;
  if (lut & 0x10) d |= a & ~b & ~c;
  if (lut & 0x20) d |= a & ~b & c;
  if (lut & 0x40) d |= a & b & ~c;
  if (lut & 0x80) d |= a & b & c;
  return d;
}

SASS_SEMANTIC(bool, lop3_nonzero)(sass_u32 result, bool q) { return result != 0 || q; }

// The outcome of compare `cmp` (F LT EQ LE GT NE GE T) from "less than" and "equal".
static inline bool compare_outcome(bool lt, bool eq, sass_u32 cmp) {
  switch (cmp) {
    case 0: return false;
    case 1: return lt;
    case 2: return eq;
    case 3: return lt || eq;
    case 4: return !lt && !eq;
    case 5: return !eq;
    case 6: return !lt;
    default: return true;
  }
}

SASS_SEMANTIC(bool, icmp)(sass_u32 a, sass_u32 b, sass_u32 cmp, bool is_unsigned) {
  const bool lt = is_unsigned ? a < b : static_cast<sass_i32>(a) < static_cast<sass_i32>(b);
  return compare_outcome(lt, a == b, cmp);
}

SASS_SEMANTIC(bool, icmp_ex)(sass_u32 a, sass_u32 b, sass_u32 cmp, bool is_unsigned, bool lower) {
  if (a == b) return cmp == 0 ? false : cmp == 7 ? true : lower;
  return gpuport_sass_icmp(a, b, cmp, is_unsigned);
}

SASS_SEMANTIC(bool, bool_op)(bool x, bool c, sass_u32 bop) {
  switch (bop) {
    case 0: return x && c;
    case 1: return x || c;
    default: return x != c;
  }
}

SASS_SEMANTIC(sass_u32, shf)(sass_u32 lo, sass_u32 shift, sass_u32 hi, bool left, bool wrap, sass_u32 kind, bool hi_result) {
  const bool wide = kind >= 2;
  const bool is_signed = kind == 1 || kind == 3;
  const sass_u32 limit = wide ? 64 : 32;
  sass_u32 n = wrap ? (shift & (limit - 1)) : (shift > limit ? limit : shift);
  const sass_u64 value = (static_cast<sass_u64>(hi) << 32) | lo;
  sass_u64 r;
  if (left) {
    r = n >= 64 ? 0 : value << n;
  } else if (is_signed) {
    const sass_i64 v = static_cast<sass_i64>(value);
    r = static_cast<sass_u64>(n >= 64 ? (v < 0 ? -1 : 0) : v >> n);
  } else {
    r = n >= 64 ? 0 : value >> n;
  }
  return hi_result ? static_cast<sass_u32>(r >> 32) : static_cast<sass_u32>(r);
}

SASS_SEMANTIC(sass_u32, lea)(sass_u32 a, sass_u32 b, sass_u32 shift, bool neg_a, bool ci, bool* co) {
  sass_u32 sum = (neg_a ? ~a + 1 : a) << (shift & 31);
  bool carry = __builtin_add_overflow(sum, b, &sum);  // a chain of 32-bit adds, as iadd3
  carry |= __builtin_add_overflow(sum, ci ? 1u : 0u, &sum);
  *co = carry;
  return sum;
}

SASS_SEMANTIC(sass_u32, lea_hi)(sass_u32 a, sass_u32 b, sass_u32 hi, sass_u32 shift, bool neg_a, bool ci, bool* co) {
  sass_u64 value = (static_cast<sass_u64>(hi) << 32) | a;
  if (neg_a) value = ~value + 1;
  const sass_u32 n = shift & 63;
  sass_u32 sum = static_cast<sass_u32>(n == 0 ? value >> 32 : (value << n) >> 32);
  bool carry = __builtin_add_overflow(sum, b, &sum);
  carry |= __builtin_add_overflow(sum, ci ? 1u : 0u, &sum);
  *co = carry;
  return sum;
}

SASS_SEMANTIC(sass_u32, prmt)(sass_u32 a, sass_u32 sel, sass_u32 b, sass_u32 mode) {
  const sass_u64 bytes = (static_cast<sass_u64>(b) << 32) | a;
  sass_u32 pick[4];
  switch (mode) {
    case 1: {  // F4E: forward 4 extract
      const sass_u32 s = sel & 3;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = (s + i) & 7;
      break;
    }
    case 2: {  // B4E: backward 4 extract
      const sass_u32 s = sel & 3;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = (s - i) & 7;
      break;
    }
    case 3: {  // RC8: replicate byte
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = sel & 3;
      break;
    }
    case 4: {  // ECL: edge clamp left (bytes below s repeat byte s)
      const sass_u32 s = sel & 3;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = i < s ? s : i;
      break;
    }
    case 5: {  // ECR: edge clamp right (bytes above s repeat byte s)
      const sass_u32 s = sel & 3;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = i > s ? s : i;
      break;
    }
    case 6: {  // RC16: replicate half
      const sass_u32 s = (sel & 1) * 2;
      pick[0] = s, pick[1] = s + 1, pick[2] = s, pick[3] = s + 1;
      break;
    }
    default:
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = (sel >> (4 * i)) & 0xf;
  }
  sass_u32 d = 0;
  for (sass_u32 i = 0; i < 4; ++i) {
    sass_u32 byte = static_cast<sass_u32>(bytes >> (8 * (pick[i] & 7))) & 0xff;
    if (mode == 0 && (pick[i] & 8)) byte = (byte & 0x80) ? 0xff : 0;
    d |= byte << (8 * i);
  }
  return d;
}

SASS_SEMANTIC(sass_u32, sel)(sass_u32 a, sass_u32 b, bool p) { return p ? a : b; }

SASS_SEMANTIC(sass_u32, imnmx)(sass_u32 a, sass_u32 b, bool is_unsigned, bool take_min) {
  const bool a_less = is_unsigned ? a < b : static_cast<sass_i32>(a) < static_cast<sass_i32>(b);
  return a_less == take_min ? a : b;
}

SASS_SEMANTIC(sass_u32, imnmx3)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned, bool take_min) {
  return gpuport_sass_imnmx(gpuport_sass_imnmx(a, b, is_unsigned, take_min), c, is_unsigned, take_min);
}

SASS_SEMANTIC(sass_u32, relu)(sass_u32 a) { return static_cast<sass_i32>(a) < 0 ? 0u : a; }

SASS_SEMANTIC(sass_u32, iadd_mnmx)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned, bool take_min) {
  return gpuport_sass_imnmx(a + b, c, is_unsigned, take_min);
}

SASS_SEMANTIC(sass_u64, imnmx64)(sass_u64 a, sass_u64 b, bool is_unsigned, bool take_min) {
  const bool a_less = is_unsigned ? a < b : static_cast<sass_i64>(a) < static_cast<sass_i64>(b);
  return a_less == take_min ? a : b;
}

SASS_SEMANTIC(bool, icmp64)(sass_u64 a, sass_u64 b, sass_u32 cmp, bool is_unsigned) {
  const bool lt = is_unsigned ? a < b : static_cast<sass_i64>(a) < static_cast<sass_i64>(b);
  return compare_outcome(lt, a == b, cmp);
}

SASS_SEMANTIC(sass_u32, absdiff_add)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned) {
  const bool a_less = is_unsigned ? a < b : static_cast<sass_i32>(a) < static_cast<sass_i32>(b);
  return (a_less ? b - a : a - b) + c;
}

SASS_SEMANTIC(sass_u32, iabs)(sass_u32 a) { return static_cast<sass_i32>(a) < 0 ? 0u - a : a; }

SASS_SEMANTIC(sass_u32, popc)(sass_u32 a) { return static_cast<sass_u32>(__builtin_popcount(a)); }

SASS_SEMANTIC(sass_u32, flo)(sass_u32 a, bool is_signed, bool shift_amount) {
  // A negative signed value is searched for its first 0: the first 1 of its complement.
  const sass_u32 x = is_signed && static_cast<sass_i32>(a) < 0 ? ~a : a;
  if (x == 0) return 0xffffffffu;
  const sass_u32 leading_zeros = static_cast<sass_u32>(__builtin_clz(x));
  return shift_amount ? leading_zeros : 31 - leading_zeros;
}

SASS_SEMANTIC(sass_u32, brev)(sass_u32 a) {
  a = ((a >> 1) & 0x55555555u) | ((a & 0x55555555u) << 1);
  a = ((a >> 2) & 0x33333333u) | ((a & 0x33333333u) << 2);
  a = ((a >> 4) & 0x0f0f0f0fu) | ((a & 0x0f0f0f0fu) << 4);
  a = ((a >> 8) & 0x00ff00ffu) | ((a & 0x00ff00ffu) << 8);
  return (a >> 16) | (a << 16);
}

SASS_SEMANTIC(sass_u32, bmsk)(sass_u32 position, sass_u32 width, bool wrap) {
  if (wrap) {
    position &= 31;
    width &= 31;
  } else {
    position = position > 32 ? 32 : position;
    width = width > 32 ? 32 : width;
  }
  const sass_u64 ones = (1ull << width) - 1;  // width <= 32: no shift past 63
  return position >= 32 ? 0u : static_cast<sass_u32>(ones << position);
}

SASS_SEMANTIC(sass_u32, sgxt)(sass_u32 a, sass_u32 width, bool is_signed, bool wrap) {
  const sass_u32 n = wrap ? (width & 31) : (width > 32 ? 32 : width);
  if (n == 0) return 0;
  if (n == 32) return a;
  const sass_u32 low = a & ((1u << n) - 1);
  const bool negative = is_signed && ((low >> (n - 1)) & 1);
  return negative ? low | ~((1u << n) - 1) : low;
}

SASS_SEMANTIC(bool, plop3)(bool a, bool b, bool c, sass_u32 lut) {
  const sass_u32 index = (a ? 4u : 0u) | (b ? 2u : 0u) | (c ? 1u : 0u);
  return ((lut >> index) & 1) != 0;
}

SASS_SEMANTIC(sass_u32, p2r)(sass_u32 pr, sass_u32 a, sass_u32 mask, sass_u32 byte) {
  const sass_u32 shift = 8 * (byte & 3);
  const sass_u32 m = (mask & 0xff) << shift;
  return (a & ~m) | (((pr & 0x7f) << shift) & m);
}

SASS_SEMANTIC(sass_u32, r2p)(sass_u32 pr, sass_u32 a, sass_u32 mask, sass_u32 byte) {
  const sass_u32 m = mask & 0x7f;  // bit 7 names PT, which is not written
  const sass_u32 bits = (a >> (8 * (byte & 3))) & 0x7f;
  return (pr & ~m & 0x7f) | (bits & m);
}

namespace {

inline sass_i32 lane(sass_u32 word, sass_u32 bits, sass_u32 index, bool is_signed) {
  const sass_u32 shift = bits * index;
  const sass_u32 mask = (1u << bits) - 1;
  const sass_u32 v = (word >> shift) & mask;
  if (is_signed && ((v >> (bits - 1)) & 1)) return static_cast<sass_i32>(v | ~mask);
  return static_cast<sass_i32>(v);
}

}  // namespace

SASS_SEMANTIC(sass_u32, idp4a)(sass_u32 a, sass_u32 b, sass_u32 c, bool a_signed, bool b_signed) {
  sass_u32 sum = c;
  for (sass_u32 i = 0; i < 4; ++i)
    sum += static_cast<sass_u32>(lane(a, 8, i, a_signed) * lane(b, 8, i, b_signed));
  return sum;
}

SASS_SEMANTIC(sass_u32, idp2a)(sass_u32 a, sass_u32 b, sass_u32 c, bool a_signed, bool b_signed, bool hi) {
  sass_u32 sum = c;
  for (sass_u32 i = 0; i < 2; ++i)
    sum += static_cast<sass_u32>(lane(a, 16, i, a_signed) * lane(b, 8, i + (hi ? 2 : 0), b_signed));
  return sum;
}
