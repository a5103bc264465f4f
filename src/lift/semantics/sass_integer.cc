// Integer SASS semantics; see sass_integer.h for each function's definition.
#include "lift/semantics/sass_integer.h"

namespace {

// The adder's view of a source: -x is ~x + 1, which carries out of bit 31 when x is 0.
inline sass_u64 addend(sass_u32 x, bool negate) { return negate ? static_cast<sass_u64>(~x) + 1 : x; }

}  // namespace

SASS_SEMANTIC(sass_u32, iadd3)(sass_u32 a, bool neg_a, sass_u32 b, bool neg_b, sass_u32 c, bool neg_c, bool ci0, bool ci1,
                               bool* co0, bool* co1) {
  const sass_u64 sum = addend(a, neg_a) + addend(b, neg_b) + addend(c, neg_c) + (ci0 ? 1 : 0) + (ci1 ? 1 : 0);
  const sass_u32 carry = static_cast<sass_u32>(sum >> 32);
  *co0 = carry >= 1;
  *co1 = carry >= 2;
  return static_cast<sass_u32>(sum);
}

SASS_SEMANTIC(sass_u32, imad)(sass_u32 a, sass_u32 b, sass_u32 c, bool neg_c, bool ci, bool* co) {
  const sass_u64 sum = static_cast<sass_u64>(a * b) + addend(c, neg_c) + (ci ? 1 : 0);
  *co = (sum >> 32) != 0;
  return static_cast<sass_u32>(sum);
}

SASS_SEMANTIC(sass_u32, imad_hi)(sass_u32 a, sass_u32 b, sass_u32 c, bool is_unsigned, bool ci, bool* co) {
  const sass_u64 product = is_unsigned ? static_cast<sass_u64>(a) * b
                                       : static_cast<sass_u64>(static_cast<sass_i64>(static_cast<sass_i32>(a)) *
                                                               static_cast<sass_i32>(b));
  const sass_u64 sum = (product >> 32) + c + (ci ? 1 : 0);
  *co = (sum >> 32) != 0;
  return static_cast<sass_u32>(sum);
}

SASS_SEMANTIC(sass_u64, imad_wide)(sass_u32 a, sass_u32 b, sass_u64 c, bool is_unsigned) {
  const sass_u64 product = is_unsigned ? static_cast<sass_u64>(a) * b
                                       : static_cast<sass_u64>(static_cast<sass_i64>(static_cast<sass_i32>(a)) *
                                                               static_cast<sass_i32>(b));
  return product + c;
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

SASS_SEMANTIC(bool, icmp)(sass_u32 a, sass_u32 b, sass_u32 cmp, bool is_unsigned) {
  const bool lt = is_unsigned ? a < b : static_cast<sass_i32>(a) < static_cast<sass_i32>(b);
  const bool eq = a == b;
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
  const sass_u32 shifted = (neg_a ? ~a + 1 : a) << (shift & 31);
  const sass_u64 sum = static_cast<sass_u64>(shifted) + b + (ci ? 1 : 0);
  *co = (sum >> 32) != 0;
  return static_cast<sass_u32>(sum);
}

SASS_SEMANTIC(sass_u32, lea_hi)(sass_u32 a, sass_u32 b, sass_u32 hi, sass_u32 shift, bool neg_a, bool ci, bool* co) {
  sass_u64 value = (static_cast<sass_u64>(hi) << 32) | a;
  if (neg_a) value = ~value + 1;
  const sass_u32 n = shift & 63;
  const sass_u32 top = static_cast<sass_u32>(n == 0 ? value >> 32 : (value << n) >> 32);
  const sass_u64 sum = static_cast<sass_u64>(top) + b + (ci ? 1 : 0);
  *co = (sum >> 32) != 0;
  return static_cast<sass_u32>(sum);
}

SASS_SEMANTIC(sass_u32, prmt)(sass_u32 a, sass_u32 sel, sass_u32 b, sass_u32 mode) {
  const sass_u64 bytes = (static_cast<sass_u64>(b) << 32) | a;
  sass_u32 pick[4];
  switch (mode) {
    case 1: {  // F4E: forward 4 extract
      const sass_u32 s = sel & 7;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = (s + i) & 7;
      break;
    }
    case 2: {  // B4E: backward 4 extract
      const sass_u32 s = sel & 7;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = (s - i) & 7;
      break;
    }
    case 3: {  // RC8: replicate byte
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = sel & 3;
      break;
    }
    case 4: {  // ECL: edge clamp left
      const sass_u32 s = sel & 3;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = i < s ? i : s;
      break;
    }
    case 5: {  // ECR: edge clamp right
      const sass_u32 s = sel & 3;
      for (sass_u32 i = 0; i < 4; ++i) pick[i] = i > s ? i : s;
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
