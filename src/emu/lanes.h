// The meaning of one lane of the VALU instructions (and of the scalar ALU's operations) that the
// emulator's two tiers share, written once:
// the interpreter (semantics_vector.cc) runs these functions in its lane loops, and the build
// compiles them with clang-19 to bitcode (lanes_bitcode.cc) that the JIT's lifter (lift.cc) calls
// and inlines. They read no wave state: sources in, result out. Which instruction binds to which
// function is the interpreter's resolve table; the lifter asks it (lift_forms.h).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gpuport::emu::lanes {

using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

[[gnu::always_inline]] inline u32 bits_of(float f) { return std::bit_cast<u32>(f); }

// name(op): an operation's name as lanes_bitcode.cc spells it (gpuport_lane_int_<name>, ...),
// for the lifter. Operations outside the list (F2::ldexp) have "".
#define GPUPORT_LANE_NAME_CASE(n) \
  case E::n: return #n;
#define GPUPORT_LANE_NAMES(name, Enum, LIST) \
  inline const char* name(Enum op) {         \
    using E = Enum;                          \
    switch (op) {                            \
      LIST(GPUPORT_LANE_NAME_CASE)           \
      default: break;                        \
    }                                        \
    return "";                               \
  }

// ---- integer: x, y, z are the sources as printed --------------------------------------------------
#define GPUPORT_LANE_INT_OPS(X) X(mov) X(not_) X(bfrev) X(clz) X(ctz) X(cls) X(add_nc) X(sub_nc) X(subrev_nc) X(and_) \
  X(or_) X(xor_) X(xnor) X(lshlrev) X(lshrrev) X(ashrrev) X(min_i32) X(max_i32) X(min_u32) X(max_u32) X(mul_u32_u24) \
  X(mul_i32_i24) X(mul_hi_u32_u24) X(mul_hi_i32_i24) X(mul_lo_u32) X(mul_hi_u32) X(mul_hi_i32) X(bcnt) X(mbcnt_lo) \
  X(mbcnt_hi) X(add3) X(xad) X(lshl_add) X(add_lshl) X(lshl_or) X(and_or) X(or3) X(xor3) X(alignbit) X(alignbyte) \
  X(bfi) X(bfe_u32) X(bfe_i32) X(perm) X(mad_u32_u24) X(mad_i32_i24) X(min3_i32) X(max3_i32) X(med3_i32) X(min3_u32) \
  X(max3_u32) X(med3_u32) X(minmax_i32) X(maxmin_i32) X(minmax_u32) X(maxmin_u32) X(bfm) X(sad_u32) X(movrels) \
  X(add_nc_i32) X(sub_nc_i32) X(cvt_off_f32_i4)

enum class I : std::uint8_t {
#define GPUPORT_LANE_ENUM(n) n,
  GPUPORT_LANE_INT_OPS(GPUPORT_LANE_ENUM)
#undef GPUPORT_LANE_ENUM
};

// One lane of an integer VALU operation: x, y, z are the sources as printed (absent ones 0).
template <I Op>
[[gnu::always_inline]] inline u32 int_op(u32 x, u32 y, u32 z, u32 lane, bool clamp) {
  (void)y, (void)z, (void)lane, (void)clamp;
  u32 r = 0;
  switch (Op) {
    case I::mov: r = x; break;
    case I::not_: r = ~x; break;
    case I::bfrev: r = 0; for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1) << (31 - i); break;
    case I::clz: r = x == 0 ? ~0u : u32(std::countl_zero(x)); break;
    case I::ctz: r = x == 0 ? ~0u : u32(std::countr_zero(x)); break;
    case I::cls: { const u32 t = (x >> 31) ? ~x : x; r = (x == 0 || x == ~0u) ? ~0u : u32(std::countl_zero(t)); break; }
    case I::add_nc: { const u64 t = u64(x) + y; r = (clamp && (t >> 32)) ? ~0u : u32(t); break; }
    case I::sub_nc: { const u32 yy = y; r = (clamp && yy > x) ? 0 : x - yy; break; }
    case I::subrev_nc: { const u32 yy = y; r = (clamp && x > yy) ? 0 : yy - x; break; }
    case I::and_: r = x & y; break;
    case I::or_: r = x | y; break;
    case I::xor_: r = x ^ y; break;
    case I::xnor: r = ~(x ^ y); break;
    case I::lshlrev: r = y << (x & 31); break;
    case I::lshrrev: r = y >> (x & 31); break;
    case I::ashrrev: r = u32(i32(y) >> (x & 31)); break;
    case I::min_i32: r = u32(std::min(i32(x), i32(y))); break;
    case I::max_i32: r = u32(std::max(i32(x), i32(y))); break;
    case I::min_u32: r = std::min(x, y); break;
    case I::max_u32: r = std::max(x, y); break;
    case I::mul_u32_u24: r = (x & 0xffffff) * (y & 0xffffff); break;
    case I::mul_i32_i24: r = u32(i64(i32(x << 8) >> 8) * i64(i32(y << 8) >> 8)); break;
    case I::mul_hi_u32_u24: r = u32((u64(x & 0xffffff) * (y & 0xffffff)) >> 32); break;
    case I::mul_hi_i32_i24: r = u32(u64(i64(i32(x << 8) >> 8) * i64(i32(y << 8) >> 8)) >> 32); break;
    case I::mul_lo_u32: r = x * y; break;
    case I::mul_hi_u32: r = u32((u64(x) * y) >> 32); break;
    case I::mul_hi_i32: r = u32(u64(i64(i32(x)) * i32(y)) >> 32); break;
    case I::bcnt: r = u32(std::popcount(x)) + y; break;
    case I::mbcnt_lo: r = u32(std::popcount(x & ((lane >= 32) ? ~0u : ((1u << lane) - 1)))) + y; break;
    case I::mbcnt_hi: r = u32(std::popcount(x & (lane <= 32 ? 0u : lane >= 64 ? ~0u : ((1u << (lane - 32)) - 1)))) + y; break;
    case I::add3: r = x + y + z; break;
    case I::xad: r = (x ^ y) + z; break;
    case I::lshl_add: r = (x << (y & 31)) + z; break;
    case I::add_lshl: r = (x + y) << (z & 31); break;
    case I::lshl_or: r = (x << (y & 31)) | z; break;
    case I::and_or: r = (x & y) | z; break;
    case I::or3: r = x | y | z; break;
    case I::xor3: r = x ^ y ^ z; break;
    case I::alignbit: r = u32(((u64(x) << 32) | y) >> (z & 31)); break;
    case I::alignbyte: r = u32(((u64(x) << 32) | y) >> (8 * (z & 3))); break;
    case I::bfi: { const u32 m = x; r = (m & y) | (~m & z); break; }
    case I::bfe_u32: { const u32 off = y & 31, width = z & 31; r = width == 0 ? 0 : (x >> off) & ((1u << width) - 1); break; }
    case I::bfe_i32: {
      const u32 off = y & 31, width = z & 31;
      r = width == 0 ? 0 : u32(i32(((x >> off) & ((1u << width) - 1)) << (32 - width)) >> (32 - width));
      break;
    }
    case I::perm: {
      const u64 bytes = (u64(x) << 32) | y;
      const u32 sel = z;
      r = 0;
      for (int i = 0; i < 4; ++i) {
        const u32 sb = (sel >> (8 * i)) & 0xff;
        u32 byte;
        if (sb <= 7) byte = u32(bytes >> (8 * sb)) & 0xff;
        else if (sb <= 11) {  // sign of a 16-bit half: bytes 1, 3, 5, 7
          const u32 which = 2 * (sb - 8) + 1;
          byte = ((bytes >> (8 * which + 7)) & 1) ? 0xff : 0;
        } else if (sb == 12) byte = 0;
        else byte = 0xff;
        r |= byte << (8 * i);
      }
      break;
    }
    case I::mad_u32_u24: r = (x & 0xffffff) * (y & 0xffffff) + z; break;
    case I::mad_i32_i24: r = u32(i64(i32(x << 8) >> 8) * i64(i32(y << 8) >> 8) + i32(z)); break;
    case I::min3_i32: r = u32(std::min({i32(x), i32(y), i32(z)})); break;
    case I::max3_i32: r = u32(std::max({i32(x), i32(y), i32(z)})); break;
    case I::med3_i32: { const i32 p = i32(x), q = i32(y), t = i32(z); r = u32(std::max(std::min(p, q), std::min(std::max(p, q), t))); break; }
    case I::min3_u32: r = std::min({x, y, z}); break;
    case I::max3_u32: r = std::max({x, y, z}); break;
    case I::med3_u32: { const u32 q = y, t = z; r = std::max(std::min(x, q), std::min(std::max(x, q), t)); break; }
    case I::minmax_i32: r = u32(std::max(std::min(i32(x), i32(y)), i32(z))); break;
    case I::maxmin_i32: r = u32(std::min(std::max(i32(x), i32(y)), i32(z))); break;
    case I::minmax_u32: r = std::max(std::min(x, y), z); break;
    case I::maxmin_u32: r = std::min(std::max(x, y), z); break;
    case I::bfm: r = ((x & 31) == 0 ? 0u : ((1u << (x & 31)) - 1)) << (y & 31); break;
    case I::sad_u32: { const u32 q = y; r = (x > q ? x - q : q - x) + z; break; }
    case I::movrels: r = x; break;
    case I::add_nc_i32: {  // clamp saturates to the signed range
      const i64 t = i64(i32(x)) + i32(y);
      r = clamp ? u32(i32(std::clamp<i64>(t, std::numeric_limits<i32>::min(), std::numeric_limits<i32>::max()))) : u32(t);
      break;
    }
    case I::sub_nc_i32: {
      const i64 t = i64(i32(x)) - i32(y);
      r = clamp ? u32(i32(std::clamp<i64>(t, std::numeric_limits<i32>::min(), std::numeric_limits<i32>::max()))) : u32(t);
      break;
    }
    case I::cvt_off_f32_i4: r = bits_of(static_cast<float>(i32(x << 28) >> 28) * 0.0625f); break;  // a 4-bit signed sixteenth
  }
  return r;
}

template <I Op>
constexpr int int_sources() {
  switch (Op) {
    case I::mov: case I::not_: case I::bfrev: case I::clz: case I::ctz: case I::cls: case I::movrels: case I::cvt_off_f32_i4: return 1;
    case I::add3: case I::xad: case I::lshl_add: case I::add_lshl: case I::lshl_or: case I::and_or: case I::or3: case I::xor3:
    case I::alignbit: case I::alignbyte: case I::bfi: case I::bfe_u32: case I::bfe_i32: case I::perm: case I::mad_u32_u24:
    case I::mad_i32_i24: case I::min3_i32: case I::max3_i32: case I::med3_i32: case I::min3_u32: case I::max3_u32: case I::med3_u32:
    case I::minmax_i32: case I::maxmin_i32: case I::minmax_u32: case I::maxmin_u32: case I::sad_u32: return 3;
    default: return 2;
  }
}


// int_sources<Op>() for an operation known only when the program runs (the lifter).
inline int int_source_count(I op) {
  switch (op) {
#define GPUPORT_LANE_SOURCES(n) \
  case I::n: return int_sources<I::n>();
    GPUPORT_LANE_INT_OPS(GPUPORT_LANE_SOURCES)
#undef GPUPORT_LANE_SOURCES
  }
  return 2;
}

GPUPORT_LANE_NAMES(int_op_name, I, GPUPORT_LANE_INT_OPS)

// Carry forms (v_add_co_u32 ... v_subrev_co_ci_u32): 0 add_co, 1 sub_co, 2 subrev_co, 3 add_co_ci,
// 4 sub_co_ci, 5 subrev_co_ci; ci is the lane's carry-in bit, carry the lane's carry-out.
template <int Op>
[[gnu::always_inline]] inline u32 carry_op(u32 a, u32 b, u32 ci, bool& carry) {
  const u64 x = a, y = b;
  u64 t = 0;
  switch (Op) {
    case 0: t = x + y; carry = t >> 32; break;
    case 1: t = x - y; carry = y > x; break;
    case 2: t = y - x; carry = x > y; break;
    case 3: t = x + y + ci; carry = t >> 32; break;
    case 4: t = x - y - ci; carry = y + ci > x; break;
    case 5: t = y - x - ci; carry = x + ci > y; break;
  }
  return static_cast<u32>(t);
}
// v_mad_u64_u32 / v_mad_i64_i32: x * y + c in 64 bits, carry when it does not fit.
template <bool Signed>
[[gnu::always_inline]] inline u64 mad64_op(u32 x, u32 y, u64 c, bool& carry) {
  if (Signed) {
    const __int128 t = static_cast<__int128>(i64(i32(x)) * i64(i32(y))) + static_cast<__int128>(i64(c));
    carry = t != static_cast<__int128>(static_cast<i64>(static_cast<u64>(t)));
    return static_cast<u64>(t);
  }
  const unsigned __int128 t = static_cast<unsigned __int128>(u64(x) * u64(y)) + c;
  carry = (t >> 64) != 0;
  return static_cast<u64>(t);
}
// v_lshlrev_b64 / v_lshrrev_b64 / v_ashrrev_i64 d, shift, x: 0 left, 1 logical right, 2 arithmetic.
template <int Op>
[[gnu::always_inline]] inline u64 shift64_op(u32 shift, u64 x) {
  const u32 n = shift & 63;
  return Op == 0 ? x << n : Op == 1 ? x >> n : u64(i64(x) >> n);
}

// ---- f32 binary operations (VOP2/VOP3), in the default float mode -------------------------------
enum class F2 : std::uint8_t { add, sub, subrev, mul, min, max, ldexp, mul_legacy };
#define GPUPORT_LANE_F2_OPS(X) X(add) X(sub) X(subrev) X(mul) X(min) X(max) X(mul_legacy)

// NaN results, defined rather than left to the host: which NaN an x86 instruction returns
// when two operands are NaN depends on the operand order the compiler picked, and LLVM's and
// GCC's min/max treat signalling NaNs differently. The rules here are the same for both tiers:
// arithmetic returns the first NaN source (in the order printed, after abs/neg), quieted;
// invalid operations keep the host's default NaN.
[[gnu::always_inline]] inline bool is_nan_bits(u32 b) { return (b & 0x7fffffffu) > 0x7f800000u; }
[[gnu::always_inline]] inline bool is_snan_bits(u32 b) { return is_nan_bits(b) && !(b & 0x400000u); }
[[gnu::always_inline]] inline float quiet(float x) { return std::bit_cast<float>(std::bit_cast<u32>(x) | 0x400000u); }
[[gnu::always_inline]] inline float nan_first(float x, float y, float r) {
  return std::isnan(x) ? quiet(x) : std::isnan(y) ? quiet(y) : r;
}
[[gnu::always_inline]] inline float nan_first(float x, float y, float z, float r) {
  return std::isnan(x) ? quiet(x) : std::isnan(y) ? quiet(y) : std::isnan(z) ? quiet(z) : r;
}

// IEEE-mode min/max (IEEE 754-2008 minNum/maxNum): a signalling NaN operand yields a quiet NaN,
// a quiet NaN the other operand; -0 is below +0.
[[gnu::always_inline]] inline float fmin32(float a, float b) {
  const u32 x = bits_of(a), y = bits_of(b);
  if (is_snan_bits(x) || is_snan_bits(y)) return quiet(is_snan_bits(x) ? a : b);
  if (is_nan_bits(x)) return b;
  if (is_nan_bits(y)) return a;
  return a < b ? a : b < a ? b : std::bit_cast<float>(x | y);
}
[[gnu::always_inline]] inline float fmax32(float a, float b) {
  const u32 x = bits_of(a), y = bits_of(b);
  if (is_snan_bits(x) || is_snan_bits(y)) return quiet(is_snan_bits(x) ? a : b);
  if (is_nan_bits(x)) return b;
  if (is_nan_bits(y)) return a;
  return a > b ? a : b > a ? b : std::bit_cast<float>(x & y);
}
[[gnu::always_inline]] inline double quiet(double x) { return std::bit_cast<double>(std::bit_cast<u64>(x) | (1ull << 51)); }
// fma with the first NaN source, quieted (f32 and f64: v_fma_f32, v_div_fmas).
template <typename T>
[[gnu::always_inline]] inline T fma_nan_first(T a, T b, T c) {
  return std::isnan(a) ? quiet(a) : std::isnan(b) ? quiet(b) : std::isnan(c) ? quiet(c) : std::fma(a, b, c);
}
[[gnu::always_inline]] inline float fma_f32(float a, float b, float c) { return fma_nan_first(a, b, c); }

GPUPORT_LANE_NAMES(f2_op_name, F2, GPUPORT_LANE_F2_OPS)

template <F2 Op>
[[gnu::always_inline]] inline float f2_op(float x, float y) {
  switch (Op) {
    case F2::add: return nan_first(x, y, x + y);
    case F2::sub: return nan_first(x, y, x - y);
    case F2::subrev: return nan_first(x, y, y - x);
    case F2::mul: return nan_first(x, y, x * y);
    case F2::mul_legacy: return (x == 0.0f || y == 0.0f) ? 0.0f : nan_first(x, y, x * y);
    case F2::min: return fmin32(x, y);
    case F2::max: return fmax32(x, y);
    case F2::ldexp: break;  // an integer second source: ldexp_f32 below
  }
  return 0;
}
// ---- f64 operations (VOP3) in the default float mode: add, mul, min, max and fma lifted, the rest
// the interpreter's (semantics_vector.cc). NaNs as for f32: the first NaN source, quieted.
enum class D2 : std::uint8_t { add, mul, min, max, fma, ldexp, rcp, rsq, sqrt, fract, trunc, ceil, floor, rndne, frexp_mant, mov };
#define GPUPORT_LANE_D2_OPS(X) X(add) X(mul) X(min) X(max) X(fma)
GPUPORT_LANE_NAMES(d2_op_name, D2, GPUPORT_LANE_D2_OPS)

[[gnu::always_inline]] inline bool is_snan(double x) {
  const u64 b = std::bit_cast<u64>(x);
  return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull && !(b & (1ull << 51));
}
[[gnu::always_inline]] inline double nan_first(double x, double y, double r) {
  return std::isnan(x) ? quiet(x) : std::isnan(y) ? quiet(y) : r;
}
// minNum/maxNum as fmin32/fmax32 (IEEE mode): a signalling NaN gives a quiet NaN, -0 below +0.
[[gnu::always_inline]] inline double fmin64(double a, double b) {
  if (is_snan(a) || is_snan(b)) return quiet(is_snan(a) ? a : b);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a < b ? a : b < a ? b : std::bit_cast<double>(std::bit_cast<u64>(a) | std::bit_cast<u64>(b));
}
[[gnu::always_inline]] inline double fmax64(double a, double b) {
  if (is_snan(a) || is_snan(b)) return quiet(is_snan(a) ? a : b);
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  return a > b ? a : b > a ? b : std::bit_cast<double>(std::bit_cast<u64>(a) & std::bit_cast<u64>(b));
}
// d = x op y (z: fma's addend, unused otherwise).
template <D2 Op>
[[gnu::always_inline]] inline double d2_op(double x, double y, double z) {
  switch (Op) {
    case D2::add: return nan_first(x, y, x + y);
    case D2::mul: return nan_first(x, y, x * y);
    case D2::min: return fmin64(x, y);
    case D2::max: return fmax64(x, y);
    case D2::fma: return fma_nan_first(x, y, z);
    default: break;  // the others: the interpreter's
  }
  return 0;
}

[[gnu::always_inline]] inline float ldexp_f32(float x, u32 e) {
  return std::ldexp(x, static_cast<int>(std::clamp<i64>(static_cast<i32>(e), -1000, 1000)));
}

// ---- f32 unary operations (VOP1/VOP3): the result before output modifiers ---------------------
enum class F1 : std::uint8_t { mov, rcp, rcp_iflag, rsq, sqrt, exp, log, sin, cos, fract, trunc, ceil, floor, rndne, frexp_mant };
#define GPUPORT_LANE_F1_OPS(X) X(mov) X(rcp) X(rcp_iflag) X(rsq) X(sqrt) X(exp) X(log) X(sin) X(cos) X(fract) X(trunc) \
  X(ceil) X(floor) X(rndne) X(frexp_mant)
GPUPORT_LANE_NAMES(f1_op_name, F1, GPUPORT_LANE_F1_OPS)

// A NaN source gives itself, quieted (as in the binary operations: defined here, since x86's
// rounding instructions quiet a signalling NaN where a library call may return it as it is).
template <F1 Op>
[[gnu::always_inline]] inline float f1_op(float x) {
  if (Op != F1::mov && std::isnan(x)) return quiet(x);
  switch (Op) {
    case F1::mov: return x;
    case F1::rcp:
    case F1::rcp_iflag: return static_cast<float>(1.0 / static_cast<double>(x));
    case F1::rsq: return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    case F1::sqrt: return std::sqrt(x);
    case F1::exp: return static_cast<float>(std::exp2(static_cast<double>(x)));
    case F1::log: return static_cast<float>(std::log2(static_cast<double>(x)));
    case F1::sin: return static_cast<float>(std::sin(static_cast<double>(x) * 6.283185307179586));
    case F1::cos: return static_cast<float>(std::cos(static_cast<double>(x) * 6.283185307179586));
    case F1::fract: return std::isinf(x) ? std::numeric_limits<float>::quiet_NaN() : std::fmin(x - std::floor(x), 0x1.fffffep-1f);
    case F1::trunc: return std::trunc(x);
    case F1::ceil: return std::ceil(x);
    case F1::floor: return std::floor(x);
    case F1::rndne: return std::nearbyint(x);
    case F1::frexp_mant: {
      if (std::isinf(x) || std::isnan(x)) return x;
      int e;
      return std::frexp(x, &e);
    }
  }
  return 0;
}

// ---- conversions (v_cvt_*) ------------------------------------------------------------------------
enum class Cv : std::uint8_t {
  f32_i32, f32_u32, i32_f32, u32_f32, f64_f32, f32_f64, f64_i32, f64_u32, i32_f64, u32_f64, f32_ubyte0, f32_ubyte1,
  f32_ubyte2, f32_ubyte3, rpi_i32_f32, flr_i32_f32, frexp_exp_i32_f32, frexp_exp_i32_f64,
};
// Those between 32-bit values: cv32_op takes the source's bits (a float source already flushed
// as MODE says) and gives the result's (a float result before output modifiers and flushing).
#define GPUPORT_LANE_CV32_OPS(X) X(f32_i32) X(f32_u32) X(i32_f32) X(u32_f32) X(f32_ubyte0) X(f32_ubyte1) X(f32_ubyte2) \
  X(f32_ubyte3) X(rpi_i32_f32) X(flr_i32_f32) X(frexp_exp_i32_f32)
GPUPORT_LANE_NAMES(cv32_op_name, Cv, GPUPORT_LANE_CV32_OPS)
// A float source (the others are integers, read without abs/neg).
constexpr bool cv_float_source(Cv op) {
  return op == Cv::i32_f32 || op == Cv::u32_f32 || op == Cv::rpi_i32_f32 || op == Cv::flr_i32_f32 || op == Cv::frexp_exp_i32_f32 ||
         op == Cv::f32_f64 || op == Cv::i32_f64 || op == Cv::u32_f64 || op == Cv::frexp_exp_i32_f64 || op == Cv::f64_f32;
}

// Toward zero, saturated to To's range, NaN 0.
template <typename To, typename From>
[[gnu::always_inline]] inline To saturate(From x) {
  if (std::isnan(x)) return 0;
  if (x <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
  if (x >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
  return static_cast<To>(x);
}

template <Cv Op>
[[gnu::always_inline]] inline u32 cv32_op(u32 x) {
  const float f = std::bit_cast<float>(x);
  switch (Op) {
    case Cv::f32_i32: return bits_of(static_cast<float>(i32(x)));
    case Cv::f32_u32: return bits_of(static_cast<float>(x));
    case Cv::i32_f32: return u32(saturate<i32>(f));
    case Cv::u32_f32: return saturate<u32>(f);
    case Cv::f32_ubyte0: return bits_of(static_cast<float>(x & 0xff));
    case Cv::f32_ubyte1: return bits_of(static_cast<float>((x >> 8) & 0xff));
    case Cv::f32_ubyte2: return bits_of(static_cast<float>((x >> 16) & 0xff));
    case Cv::f32_ubyte3: return bits_of(static_cast<float>(x >> 24));
    case Cv::rpi_i32_f32: return u32(saturate<i32>(std::floor(f + 0.5f)));
    case Cv::flr_i32_f32: return u32(saturate<i32>(std::floor(f)));
    case Cv::frexp_exp_i32_f32: {
      int e = 0;
      if (!std::isinf(f) && !std::isnan(f)) std::frexp(f, &e);
      return u32(e);
    }
    default: return 0;  // 64-bit sources or results: semantics_vector.cc's convert
  }
}

// ---- IEEE division's helpers (the sequence clang emits for a correctly rounded fdiv) -------------
// One definition for f32 and f64: the type's scale (2^64 / 2^128), the exponent difference at
// which the quotient may overflow the iteration, and the exponent below which the numerator is
// scaled up.
template <typename T>
struct DivisionTraits;
template <>
struct DivisionTraits<float> {
  static constexpr int scale = 64, overflow_difference = 96, small_numerator = 23, bias = 127;
  static int exponent(float f) { return static_cast<int>((std::bit_cast<u32>(f) >> 23) & 0xff); }
};
template <>
struct DivisionTraits<double> {
  static constexpr int scale = 128, overflow_difference = 768, small_numerator = 53, bias = 1023;
  static int exponent(double f) { return static_cast<int>((std::bit_cast<u64>(f) >> 52) & 0x7ff); }
};

// v_div_scale d, vcc, s0, s1 (denominator), s2 (numerator): s0 (one of the two) scaled so that
// the reciprocal iteration cannot overflow or flush; `scaled` marks a lane whose quotient comes
// out scaled, for v_div_fmas to undo.
template <typename T>
[[gnu::always_inline]] inline T div_scale_op(T s0, T den, T num, bool& scaled) {
  using D = DivisionTraits<T>;
  const bool denormal_reciprocal = std::fpclassify(T(1) / den) == FP_SUBNORMAL;
  const bool denormal_quotient = std::fpclassify(num / den) == FP_SUBNORMAL;
  scaled = false;
  if (num == 0 || den == 0) return std::numeric_limits<T>::quiet_NaN();
  if (D::exponent(num) - D::exponent(den) >= D::overflow_difference || (denormal_reciprocal && denormal_quotient)) {
    scaled = true;
    return s0 == den ? std::ldexp(s0, D::scale) : s0;
  }
  if (std::fpclassify(den) == FP_SUBNORMAL) return std::ldexp(s0, D::scale);
  if (denormal_reciprocal) return std::ldexp(s0, -D::scale);
  if (denormal_quotient) {
    scaled = true;
    return s0 == num ? std::ldexp(s0, D::scale) : s0;
  }
  if (D::exponent(num) <= D::small_numerator) return std::ldexp(s0, D::scale);
  return s0;
}

// v_div_fmas d, a, b, c: fma, then the scale undone where v_div_scale set VCC.
template <typename T>
[[gnu::always_inline]] inline T div_fmas_op(T a, T b, T c, bool scaled) {
  using D = DivisionTraits<T>;
  const T r = fma_nan_first(a, b, c);
  return scaled ? std::ldexp(r, D::exponent(c) > D::bias ? D::scale : -D::scale) : r;
}

// v_div_fixup d, quotient, denominator, numerator: the special values of IEEE division.
template <typename T>
[[gnu::always_inline]] inline T div_fixup_op(T q, T den, T num) {
  const bool negative = std::signbit(den) != std::signbit(num);
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  if (std::isnan(den) || std::isnan(num) || (den == 0 && num == 0) || (std::isinf(den) && std::isinf(num))) return nan;
  if (den == 0 || std::isinf(num)) return negative ? -inf : inf;
  if (std::isinf(den) || num == 0) return negative ? T(-0.0) : T(0.0);
  if (std::isnan(q)) return negative ? -inf : inf;  // the scaled sequence overflowed
  return negative ? -std::fabs(q) : std::fabs(q);
}

// ---- compares (VOPC) -----------------------------------------------------------------------------
// Conditions as numbered in the ISA's opcode order: F LT EQ LE GT LG/NE GE O U NGE NLG NGT NLE NEQ NLT T.
// LT EQ LE GT LG GE (1..6) of ordered values; LG is NE for integers.
template <typename T>
[[gnu::always_inline]] inline bool compare_ordered(T x, T y, u32 cond) {
  switch (cond) {
    case 1: return x < y;
    case 2: return x == y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x < y || x > y;
    case 6: return x >= y;
    default: return false;
  }
}
[[gnu::always_inline]] inline bool compare_float(double x, double y, u32 cond) {
  const bool unordered = std::isnan(x) || std::isnan(y);
  if (cond == 7) return !unordered;  // O
  if (cond == 8) return unordered;   // U
  if (cond >= 9 && cond <= 14) return !compare_ordered(x, y, 15 - cond);  // NGE NLG NGT NLE NEQ NLT: not GE LG GT LE EQ LT
  return cond == 15 || compare_ordered(x, y, cond);
}
// v_cmp_class: the class of a float given by its bits (a format of exp_bits exponent and
// mant_bits mantissa bits: f16, f32, f64), as the mask operand's bit numbers: 0 signaling NaN,
// 1 quiet NaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf. No
// float mode applies: a denormal is one whatever MODE flushes.
[[gnu::always_inline]] inline u32 float_class(u64 bits, unsigned exp_bits, unsigned mant_bits) {
  const u64 mant = bits & ((1ull << mant_bits) - 1), exp = (bits >> mant_bits) & ((1ull << exp_bits) - 1);
  const bool neg = (bits >> (mant_bits + exp_bits)) & 1;
  if (exp == (1ull << exp_bits) - 1) {
    if (mant) return (mant >> (mant_bits - 1)) & 1 ? 1 : 0;
    return neg ? 2 : 9;
  }
  if (exp == 0) return mant ? (neg ? 4 : 7) : (neg ? 5 : 6);
  return neg ? 3 : 8;
}
[[gnu::always_inline]] inline bool class_f32(u32 bits, u32 classes) { return (classes >> float_class(bits, 8, 23)) & 1; }

// F LT EQ LE GT NE GE T (0..7).
template <typename T>
[[gnu::always_inline]] inline bool compare_int(T x, T y, u32 cond) {
  return cond >= 7 || compare_ordered(x, y, cond);
}

// ---- cross-lane ------------------------------------------------------------------------------------
// ds_bpermute_b32 / ds_permute_b32: the lane that bits 6:2 of a lane's address name. The RDNA3
// guide's pseudocode takes it "MOD 32 regardless of wave size": in wave64 each half permutes
// within itself, as AMD's own compilers use it (semantics_memory.cc).
[[gnu::always_inline]] inline u32 permute_lane(u32 lane, u32 address) { return (lane & 32) | ((address >> 2) & 31); }

// ---- scalar ALU, one source (SOP1) ----------------------------------------------------------------
enum class S1 : std::uint8_t {
  mov_b32, mov_b64, cmov_b32, cmov_b64, not_b32, not_b64, brev_b32, brev_b64, bcnt0_i32_b32, bcnt1_i32_b32, bcnt1_i32_b64,
  ctz_i32_b32, ctz_i32_b64, clz_i32_u32, clz_i32_u64, cls_i32, sext_i32_i8, sext_i32_i16, bitset0_b32, bitset1_b32,
  abs_i32, and_saveexec, or_saveexec, xor_saveexec, and_not0_saveexec, and_not1_saveexec, or_not0_saveexec, or_not1_saveexec,
  nand_saveexec, nor_saveexec, xnor_saveexec, and_not0_wrexec, and_not1_wrexec, quadmask_b32, wqm_b32,
  bitset0_b64, bitset1_b64, bcnt0_i32_b64, bitreplicate_b64_b32, cls_i32_i64, quadmask_b64, wqm_b64,
};
// The operations s1_op defines (the others: semantics_scalar.cc's sop1).
#define GPUPORT_LANE_S1_OPS(X) X(mov_b32) X(mov_b64) X(cmov_b32) X(cmov_b64) X(not_b32) X(not_b64) X(brev_b32) \
  X(bcnt0_i32_b32) X(bcnt1_i32_b32) X(bcnt0_i32_b64) X(bcnt1_i32_b64) X(ctz_i32_b32) X(ctz_i32_b64) X(clz_i32_u32) \
  X(clz_i32_u64) X(cls_i32) X(sext_i32_i8) X(sext_i32_i16) X(abs_i32) X(and_saveexec) X(or_saveexec) X(xor_saveexec) \
  X(and_not0_saveexec) X(and_not1_saveexec) X(or_not0_saveexec) X(or_not1_saveexec) X(nand_saveexec) X(nor_saveexec) \
  X(xnor_saveexec) X(and_not0_wrexec) X(and_not1_wrexec)
GPUPORT_LANE_NAMES(s1_op_name, S1, GPUPORT_LANE_S1_OPS)
#define GPUPORT_LANE_LISTED_CASE(n) \
  case S1::n: return true;
constexpr bool s1_listed(S1 op) {
  switch (op) {
    GPUPORT_LANE_S1_OPS(GPUPORT_LANE_LISTED_CASE)
    default: return false;
  }
}
#undef GPUPORT_LANE_LISTED_CASE

// What an operation reads and writes: a 64-bit source or result; the saveexec family (the source
// is a lane mask, EXEC is read and written, the destination gets EXEC as it was, or the result
// for the wrexec forms); s_cmov (reads SCC and the destination).
struct S1Shape {
  bool wide_source = false, wide_result = false, saveexec = false, wrexec = false, cmov = false;
};
constexpr S1Shape s1_shape(S1 op) {
  S1Shape s;
  switch (op) {
    case S1::mov_b64:
    case S1::cmov_b64:
    case S1::not_b64: s.wide_source = s.wide_result = true; break;
    case S1::bcnt0_i32_b64:
    case S1::bcnt1_i32_b64:
    case S1::ctz_i32_b64:
    case S1::clz_i32_u64: s.wide_source = true; break;
    case S1::and_not0_wrexec:
    case S1::and_not1_wrexec: s.wrexec = true; [[fallthrough]];
    case S1::and_saveexec:
    case S1::or_saveexec:
    case S1::xor_saveexec:
    case S1::and_not0_saveexec:
    case S1::and_not1_saveexec:
    case S1::or_not0_saveexec:
    case S1::or_not1_saveexec:
    case S1::nand_saveexec:
    case S1::nor_saveexec:
    case S1::xnor_saveexec: s.saveexec = true; break;
    default: break;
  }
  s.cmov = op == S1::cmov_b32 || op == S1::cmov_b64;
  return s;
}

// x: the source (zero-extended when 32-bit); old: the destination as it was (s_cmov) or EXEC (the
// saveexec family); lanes: the wave's lanes (0xffffffff or all ones); scc: SCC before and after.
// The result: the destination's value, or the saveexec family's new EXEC.
template <S1 Op>
[[gnu::always_inline]] inline u64 s1_op(u64 x, u64 old, u64 lanes, bool& scc) {
  const u32 x32 = static_cast<u32>(x);
  auto set = [&](u64 r) {
    scc = r != 0;
    return r;
  };
  switch (Op) {
    case S1::mov_b32:
    case S1::mov_b64: return x;
    case S1::cmov_b32:
    case S1::cmov_b64: return scc ? x : old;
    case S1::not_b32: return set(static_cast<u32>(~x32));
    case S1::not_b64: return set(~x);
    case S1::brev_b32: return int_op<I::bfrev>(x32, 0, 0, 0, false);
    case S1::bcnt0_i32_b32: return set(32 - std::popcount(x32));
    case S1::bcnt1_i32_b32: return set(std::popcount(x32));
    case S1::bcnt0_i32_b64: return set(64 - std::popcount(x));
    case S1::bcnt1_i32_b64: return set(std::popcount(x));
    case S1::ctz_i32_b32: return int_op<I::ctz>(x32, 0, 0, 0, false);
    case S1::ctz_i32_b64: return x == 0 ? ~0u : u32(std::countr_zero(x));
    case S1::clz_i32_u32: return int_op<I::clz>(x32, 0, 0, 0, false);
    case S1::clz_i32_u64: return x == 0 ? ~0u : u32(std::countl_zero(x));
    case S1::cls_i32: return int_op<I::cls>(x32, 0, 0, 0, false);
    case S1::sext_i32_i8: return u32(i32(std::int8_t(x32)));
    case S1::sext_i32_i16: return u32(i32(std::int16_t(x32)));
    case S1::abs_i32: {
      const i32 v = i32(x32);
      return set(v < 0 ? u32(-i64(v)) : u32(v));
    }
    case S1::and_saveexec: return set((x & old) & lanes);
    case S1::or_saveexec: return set((x | old) & lanes);
    case S1::xor_saveexec: return set((x ^ old) & lanes);
    case S1::and_not0_saveexec:
    case S1::and_not0_wrexec: return set((~x & old) & lanes);
    case S1::and_not1_saveexec:
    case S1::and_not1_wrexec: return set((x & ~old) & lanes);
    case S1::or_not0_saveexec: return set((~x | old) & lanes);
    case S1::or_not1_saveexec: return set((x | ~old) & lanes);
    case S1::nand_saveexec: return set(~(x & old) & lanes);
    case S1::nor_saveexec: return set(~(x | old) & lanes);
    case S1::xnor_saveexec: return set(~(x ^ old) & lanes);
    default: return 0;
  }
}

// ---- scalar ALU (SOP2, SOPC): a, b the sources as printed; scc is SCC before and after ---------
#define GPUPORT_LANE_S2_OPS(X) X(add_u32) X(sub_u32) X(add_i32) X(sub_i32) X(addc_u32) X(subb_u32) X(min_i32) \
  X(min_u32) X(max_i32) X(max_u32) X(mul_i32) X(mul_hi_u32) X(mul_hi_i32) X(lshl1_add_u32) X(lshl2_add_u32) \
  X(lshl3_add_u32) X(lshl4_add_u32) X(absdiff_i32) X(pack_ll_b32_b16) X(pack_lh_b32_b16) X(pack_hh_b32_b16) \
  X(pack_hl_b32_b16)

enum class S2 : std::uint8_t {
#define GPUPORT_LANE_ENUM(n) n,
  GPUPORT_LANE_S2_OPS(GPUPORT_LANE_ENUM)
#undef GPUPORT_LANE_ENUM
};

template <S2 Op>
[[gnu::always_inline]] inline u32 s2_op(u32 a, u32 b, bool& scc) {
  u32 r = 0;
  const bool carry = scc;
  switch (Op) {
    case S2::add_u32: { const u64 t = u64(a) + b; r = u32(t); scc = t >> 32; break; }
    case S2::sub_u32: r = a - b; scc = b > a; break;
    case S2::add_i32: { r = a + b; scc = ((~(a ^ b)) & (a ^ r)) >> 31; break; }
    case S2::sub_i32: { r = a - b; scc = ((a ^ b) & (a ^ r)) >> 31; break; }
    case S2::addc_u32: { const u64 t = u64(a) + b + (carry ? 1 : 0); r = u32(t); scc = t >> 32; break; }
    case S2::subb_u32: { const u64 t = u64(a) - b - (carry ? 1 : 0); r = u32(t); scc = (u64(b) + (carry ? 1 : 0)) > a; break; }
    case S2::min_i32: scc = i32(a) < i32(b); r = scc ? a : b; break;
    case S2::min_u32: scc = a < b; r = scc ? a : b; break;
    case S2::max_i32: scc = i32(a) > i32(b); r = scc ? a : b; break;
    case S2::max_u32: scc = a > b; r = scc ? a : b; break;
    case S2::mul_i32: r = u32(i64(i32(a)) * i32(b)); break;
    case S2::mul_hi_u32: r = u32((u64(a) * b) >> 32); break;
    case S2::mul_hi_i32: r = u32(u64(i64(i32(a)) * i32(b)) >> 32); break;
    case S2::lshl1_add_u32: { const u64 t = (u64(a) << 1) + b; r = u32(t); scc = t >> 32; break; }
    case S2::lshl2_add_u32: { const u64 t = (u64(a) << 2) + b; r = u32(t); scc = t >> 32; break; }
    case S2::lshl3_add_u32: { const u64 t = (u64(a) << 3) + b; r = u32(t); scc = t >> 32; break; }
    case S2::lshl4_add_u32: { const u64 t = (u64(a) << 4) + b; r = u32(t); scc = t >> 32; break; }
    case S2::absdiff_i32: { const i64 d = i64(i32(a)) - i32(b); r = u32(d < 0 ? -d : d); scc = r != 0; break; }
    case S2::pack_ll_b32_b16: r = (a & 0xffff) | (b << 16); break;
    case S2::pack_lh_b32_b16: r = (a & 0xffff) | (b & 0xffff0000u); break;
    case S2::pack_hh_b32_b16: r = (a >> 16) | (b & 0xffff0000u); break;
    case S2::pack_hl_b32_b16: r = (a >> 16) | (b << 16); break;
  }
  return r;
}

// The bit operations, shifts, selects and bit fields, one definition for the _b32 and _b64
// forms (T is the operand width; shift amounts and bit-field controls are 32-bit operands).
#define GPUPORT_LANE_BITS_OPS(X) X(and_) X(or_) X(xor_) X(nand) X(nor) X(xnor) X(and_not1) X(or_not1) X(lshl) X(lshr) \
  X(ashr) X(cselect) X(bfe_u) X(bfe_i) X(bfm)

enum class Bits : std::uint8_t {
#define GPUPORT_LANE_ENUM(n) n,
  GPUPORT_LANE_BITS_OPS(GPUPORT_LANE_ENUM)
#undef GPUPORT_LANE_ENUM
};

template <typename T, Bits Op>
[[gnu::always_inline]] inline T bits_op(T a, T b, bool& scc) {
  using S = std::make_signed_t<T>;
  constexpr u32 bits = 8 * sizeof(T);
  T r = 0;
  bool sets_scc = true;
  switch (Op) {
    case Bits::and_: r = a & b; break;
    case Bits::or_: r = a | b; break;
    case Bits::xor_: r = a ^ b; break;
    case Bits::nand: r = ~(a & b); break;
    case Bits::nor: r = ~(a | b); break;
    case Bits::xnor: r = ~(a ^ b); break;
    case Bits::and_not1: r = a & ~b; break;
    case Bits::or_not1: r = a | ~b; break;
    case Bits::lshl: r = a << (b & (bits - 1)); break;
    case Bits::lshr: r = a >> (b & (bits - 1)); break;
    case Bits::ashr: r = T(S(a) >> (b & (bits - 1))); break;
    case Bits::cselect: r = scc ? a : b; sets_scc = false; break;
    case Bits::bfe_u:
    case Bits::bfe_i: {
      const u32 off = u32(b) & (bits - 1), width = (u32(b) >> 16) & 127;
      if (width == 0) r = 0;
      else if (width >= bits) r = a >> off;
      else {
        r = (a >> off) & ((T(1) << width) - 1);
        if (Op == Bits::bfe_i) r = T(S(r << (bits - width)) >> (bits - width));
      }
      break;
    }
    case Bits::bfm: {
      const u32 width = u32(a) & (bits - 1);
      r = (width == 0 ? T(0) : ((T(1) << width) - 1)) << (u32(b) & (bits - 1));
      sets_scc = false;
      break;
    }
  }
  if (sets_scc) scc = r != 0;
  return r;
}

// s_cmp_<cond>_i32/u32: 0 eq, 1 lg, 2 gt, 3 ge, 4 lt, 5 le.
template <int Cond, bool Signed>
[[gnu::always_inline]] inline bool scmp_op(u32 a, u32 b) {
  const i64 x = Signed ? i64(i32(a)) : i64(a), y = Signed ? i64(i32(b)) : i64(b);
  switch (Cond) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    case 5: return x <= y;
  }
  return false;
}

GPUPORT_LANE_NAMES(s2_op_name, S2, GPUPORT_LANE_S2_OPS)
GPUPORT_LANE_NAMES(bits_op_name, Bits, GPUPORT_LANE_BITS_OPS)

}  // namespace gpuport::emu::lanes
