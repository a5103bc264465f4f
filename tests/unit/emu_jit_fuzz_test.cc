// Differential fuzzing of the emulator's two tiers: random gfx1100 programs over the instruction
// forms the lifter compiles itself (and some it leaves to their handlers), with random register
// contents, EXEC masks, float modes, memory offsets and one or two waves, run by the asm harness (emu_asm.h), which
// runs each program on the interpreter and on the JIT and reports any difference in memory,
// fault or counts. A fixed seed and a few programs here; GPUPORT_JIT_FUZZ_SECONDS=N runs random
// seeds for N seconds (the figure in docs/RESULTS.md).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "emu_asm.h"

namespace gpuport::emu::testing {
namespace {

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  // A kernel body: inputs loaded into v2..v9 and s11..s18, `count` random instructions, then
  // every data register stored to out (v: 8 columns, s: one word each, SCC and VCC too).
  std::string body(int count) {
    std::string b;
    for (int r = 0; r < 8; ++r) b += fmt::format("  global_load_b32 v{}, v1, s[4:5] offset:{}\n", 2 + r, r * 4 * wave_);
    b += "  s_load_b256 s[12:19], s[8:9], 0x0\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_mov_b32 s11, s10\n";
    b += "  v_mov_b32 v14, v2\n  v_mov_b32 v15, v3\n  v_lshlrev_b32 v16, 1, v1\n";  // v16: 8 bytes a lane
    b += "  v_lshlrev_b32 v17, 2, v1\n  v_mul_u32_u24 v22, 3, v1\n";              // v17: 16 bytes, v22: 12 bytes
    // Flat addresses: v[18:19] the lane's word of `in`, v[20:21] its word of LDS (the aperture).
    const char* carry = wave_ == 64 ? "s[30:31]" : "s30";
    b += fmt::format("  v_add_co_u32 v18, {0}, s4, v1\n  v_add_co_ci_u32_e64 v19, {0}, s5, 0, {0}\n", carry);
    b += "  s_mov_b64 s[32:33], src_shared_base\n  v_mov_b32 v20, v1\n  v_mov_b32 v21, s33\n";
    if (pick(4) == 0) b += "  s_denorm_mode 0\n";  // flush denormals: the lifted floats take their handlers
    for (int i = 0; i < count; ++i) b += instruction();
    b += wave_ == 64 ? "  s_mov_b64 exec, -1\n" : "  s_mov_b32 exec_lo, -1\n";
    for (int r = 0; r < 8; ++r) b += fmt::format("  global_store_b32 v1, v{}, s[6:7] offset:{}\n", 2 + r, r * 4 * wave_);
    b += "  s_cselect_b32 s20, 1, 0\n";
    b += wave_ == 64 ? "  s_mov_b64 s[22:23], vcc\n" : "  s_mov_b32 s22, vcc_lo\n  s_mov_b32 s23, 0\n";
    b += "  v_mov_b32 v10, 0\n";
    for (int r = 11; r <= 23; ++r) b += fmt::format("  v_mov_b32 v11, s{}\n  global_store_b32 v10, v11, s[6:7] offset:{}\n", r, 32 * wave_ + 4 * (r - 11));
    return b;
  }

  void set_wave(unsigned wave) { wave_ = wave; }

  // Inputs: integers and floats of every class (zeros, denormals, infinities, NaNs).
  std::uint32_t value() {
    static const std::uint32_t special[] = {0, 0x80000000u, 1, 0x7fffffu, 0x807fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                                            0x7fa00000u, 0x3f800000u, 0xbf800000u, 0x4f800000u, 0xffffffffu, 0x7fffffffu, 31, 32};
    switch (pick(4)) {
      case 0: return special[pick(16)];
      case 1: return static_cast<std::uint32_t>(pick(64));
      case 2: return std::bit_cast<std::uint32_t>(std::uniform_real_distribution<float>(-100.0f, 100.0f)(rng_));
      default: return static_cast<std::uint32_t>(rng_());
    }
  }

 private:
  unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }
  std::string vreg() { return fmt::format("v{}", 2 + pick(8)); }
  std::string sreg() { return fmt::format("s{}", 11 + pick(8)); }
  std::string mask_reg() { return wave_ == 64 ? fmt::format("s[{}:{}]", 24 + 2 * pick(3), 25 + 2 * pick(3) - 0) : fmt::format("s{}", 24 + pick(3)); }
  std::string mask_pair() {
    const unsigned r = 24 + 2 * pick(3);
    return wave_ == 64 ? fmt::format("s[{}:{}]", r, r + 1) : fmt::format("s{}", r);
  }
  std::string vcc() { return wave_ == 64 ? "vcc" : "vcc_lo"; }
  std::string constant() {
    static const char* inline_constants[] = {"0", "1", "-1", "4", "-16", "64", "0.5", "-2.0", "1.0", "4.0"};
    if (pick(3) == 0) return fmt::format("{:#x}", value());  // a literal
    return inline_constants[pick(10)];
  }
  // A VALU source: mostly VGPRs, sometimes an SGPR or a constant (at most one non-VGPR per
  // instruction keeps gfx11's constant-bus rule).
  std::string vsrc(bool& used_scalar, bool floats) {
    std::string s;
    if (!used_scalar && pick(4) == 0) {
      used_scalar = true;
      s = pick(2) ? sreg() : constant();
    } else {
      s = vreg();
      if (floats && pick(6) == 0) s = "|" + s + "|";
      if (floats && pick(6) == 0) s = "-" + s;
    }
    return s;
  }

  std::string instruction() {
    static const char* int2[] = {"v_add_nc_u32", "v_sub_nc_u32", "v_subrev_nc_u32", "v_xor_b32", "v_and_b32", "v_or_b32", "v_lshlrev_b32",
                                 "v_lshrrev_b32", "v_ashrrev_i32", "v_mul_lo_u32", "v_mul_hi_u32", "v_mul_hi_i32", "v_min_i32",
                                 "v_max_u32", "v_mul_u32_u24", "v_mul_i32_i24", "v_xnor_b32", "v_bfm_b32", "v_min_u32", "v_max_i32"};
    static const char* int3[] = {"v_bfe_u32", "v_bfe_i32", "v_bfi_b32", "v_alignbit_b32", "v_add3_u32", "v_lshl_add_u32", "v_and_or_b32",
                                 "v_xor3_b32", "v_or3_b32", "v_mad_u32_u24", "v_med3_i32", "v_min3_u32", "v_perm_b32", "v_lshl_or_b32"};
    static const char* int1[] = {"v_not_b32", "v_bfrev_b32", "v_clz_i32_u32", "v_cls_i32", "v_ctz_i32_b32", "v_mov_b32"};
    static const char* float2[] = {"v_add_f32", "v_sub_f32", "v_subrev_f32", "v_mul_f32", "v_min_f32", "v_max_f32", "v_mul_dx9_zero_f32"};
    static const char* conditions[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"};
    static const char* int_conditions[] = {"f", "lt", "eq", "le", "gt", "ne", "ge", "t"};
    static const char* s2[] = {"s_add_u32", "s_sub_u32", "s_add_i32", "s_sub_i32", "s_addc_u32", "s_subb_u32", "s_min_i32", "s_max_u32",
                               "s_mul_i32", "s_mul_hi_u32", "s_lshl2_add_u32", "s_and_b32", "s_or_b32", "s_xor_b32", "s_nand_b32",
                               "s_and_not1_b32", "s_lshl_b32", "s_lshr_b32", "s_ashr_i32", "s_cselect_b32", "s_bfe_u32", "s_bfe_i32",
                               "s_bfm_b32", "s_absdiff_i32", "s_pack_ll_b32_b16", "s_mul_hi_i32"};
    static const char* scmp[] = {"eq", "lg", "gt", "ge", "lt", "le"};
    bool used = false;
    switch (pick(19)) {
      case 0:
      case 1: return fmt::format("  {}_e64 {}, {}, {}\n", int2[pick(20)], vreg(), vsrc(used, false), vsrc(used, false));
      case 2: return fmt::format("  {}_e64 {}, {}, {}, {}\n", int3[pick(14)], vreg(), vsrc(used, false), vsrc(used, false), vsrc(used, false));
      case 3: return fmt::format("  {}_e64 {}, {}\n", int1[pick(6)], vreg(), vsrc(used, false));
      case 4:
      case 5: return fmt::format("  {}_e64 {}, {}, {}\n", float2[pick(7)], vreg(), vsrc(used, true), vsrc(used, true));
      case 6: {
        const unsigned form = pick(2);
        if (form == 0) return fmt::format("  v_fma_f32 {}, {}, {}, {}\n", vreg(), vsrc(used, true), vsrc(used, true), vsrc(used, true));
        return fmt::format("  v_fmac_f32_e64 {}, {}, {}\n", vreg(), vsrc(used, true), vsrc(used, true));
      }
      case 7: {  // compares into VCC or an SGPR (pair), sometimes into EXEC
        const unsigned type = pick(3);
        const char* t = type == 0 ? "f32" : type == 1 ? "i32" : "u32";
        const char* c = type == 0 ? conditions[pick(16)] : int_conditions[pick(8)];
        if (type == 0 && pick(4) == 0) {  // v_cmp_class: a float against a mask of classes
          const std::string x = vsrc(used, true), classes = vsrc(used, false);
          if (pick(5) == 0) return fmt::format("  v_cmpx_class_f32_e64 {}, {}\n", x, classes);
          return fmt::format("  v_cmp_class_f32_e64 {}, {}, {}\n", pick(2) ? vcc() : mask_pair(), x, classes);
        }
        if (pick(5) == 0) return fmt::format("  v_cmpx_{}_{}_e64 {}, {}\n", c, t, vsrc(used, type == 0), vsrc(used, type == 0));
        const std::string dst = pick(2) ? vcc() : mask_pair();
        return fmt::format("  v_cmp_{}_{}_e64 {}, {}, {}\n", c, t, dst, vsrc(used, type == 0), vsrc(used, type == 0));
      }
      case 8: {
        used = true;  // the mask is the scalar source
        return fmt::format("  v_cndmask_b32_e64 {}, {}, {}, {}\n", vreg(), vreg(), vreg(), pick(2) ? vcc() : mask_pair());
      }
      case 9:
      case 10: {
        const std::string a = pick(3) ? sreg() : constant(), b = pick(3) ? sreg() : (pick(2) ? "0" : "7");
        return fmt::format("  {} {}, {}, {}\n", s2[pick(26)], sreg(), a, b);
      }
      case 11: return fmt::format("  s_cmp_{}_{} {}, {}\n", scmp[pick(6)], pick(2) ? "i32" : "u32", sreg(), pick(2) ? sreg() : constant());
      case 13: {  // the address arithmetic: carry chains, 64-bit multiply-add and shifts
        const std::string carry = pick(2) ? vcc() : mask_pair();
        switch (pick(4)) {
          case 0: return fmt::format("  v_add_co_u32 {}, {}, {}, {}\n  v_add_co_ci_u32_e64 {}, {}, {}, {}, {}\n", vreg(), carry,
                                     vsrc(used, false), vreg(), vreg(), mask_pair(), vreg(), vreg(), carry);
          case 1: return fmt::format("  v_sub_co_u32 {}, {}, {}, {}\n  v_subrev_co_ci_u32_e64 {}, {}, {}, {}, {}\n", vreg(), carry,
                                     vsrc(used, false), vreg(), vreg(), mask_pair(), vreg(), vreg(), carry);
          case 2: return fmt::format("  {} v[12:13], {}, {}, {}, v[14:15]\n  v_mov_b32 {}, v{}\n",
                                     pick(2) ? "v_mad_u64_u32" : "v_mad_i64_i32", mask_pair(), vreg(), vreg(), vreg(), 12 + pick(2));
          default: {
            static const char* shifts[] = {"v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"};
            return fmt::format("  {} v[12:13], {}, v[14:15]\n  v_mov_b32 {}, v{}\n", shifts[pick(3)], vsrc(used, false), vreg(), 12 + pick(2));
          }
        }
      }
      case 12: {
        // LDS (512 bytes): a store or load at 4 * lane + a random offset, sometimes past its end.
        // The 2-address forms: element offsets that may be equal or overlap (the later store wins).
        const unsigned offset = 4 * pick(20);
        switch (pick(7)) {
          case 6:  // a cross-lane read by any register's bits 6:2, sometimes onto its own address or data
            return fmt::format("  ds_bpermute_b32 {}, {}, {} offset:{}\n  s_waitcnt lgkmcnt(0)\n", vreg(), vreg(), vreg(), offset);
          case 0: return fmt::format("  ds_store_b32 v1, {} offset:{}\n", vreg(), offset);
          case 1: return fmt::format("  ds_load_b32 {}, v1 offset:{}\n  s_waitcnt lgkmcnt(0)\n", vreg(), offset);
          case 2: {
            const bool stride64 = pick(4) == 0, b64 = pick(2);
            const unsigned range = stride64 ? 3 : b64 ? 50 : 100;
            return fmt::format("  ds_store_2addr{}_b{} v1, {}, {} offset0:{} offset1:{}\n", stride64 ? "_stride64" : "", b64 ? 64 : 32,
                               b64 ? "v[12:13]" : vreg(), b64 ? "v[14:15]" : vreg(), pick(range), pick(range));
          }
          case 3: {
            const bool stride64 = pick(4) == 0, b64 = pick(2);
            const unsigned range = stride64 ? 3 : b64 ? 50 : 100;
            return fmt::format("  ds_load_2addr{}_b{} {}, v1 offset0:{} offset1:{}\n  s_waitcnt lgkmcnt(0)\n  v_mov_b32 {}, v{}\n",
                               stride64 ? "_stride64" : "", b64 ? 64 : 32, b64 ? "v[12:15]" : "v[12:13]", pick(range), pick(range),
                               vreg(), 12 + pick(b64 ? 4 : 2));
          }
          case 4: return fmt::format("  ds_store_2addr_b32 v1, {}, {} offset0:{} offset1:{}\n", vreg(), vreg(), pick(4), pick(4));
          default:  // 4 or 8 bytes a lane apart (the second: contiguous, for the vector path)
            if (pick(2)) return fmt::format("  ds_store_b64 v16, v[12:13] offset:{}\n", 2 * offset);
            return fmt::format("  ds_load_b64 v[12:13], {} offset:{}\n  s_waitcnt lgkmcnt(0)\n  v_mov_b32 {}, v{}\n", pick(2) ? "v1" : "v16",
                               2 * offset, vreg(), 12 + pick(2));
        }
      }
      case 15: {  // unary f32, conversions, the division helpers (the sequence clang emits, or parts)
        static const char* unary[] = {"v_rcp_f32", "v_rcp_iflag_f32", "v_rsq_f32", "v_sqrt_f32", "v_exp_f32", "v_log_f32",
                                      "v_sin_f32", "v_cos_f32", "v_fract_f32", "v_trunc_f32", "v_ceil_f32", "v_floor_f32",
                                      "v_rndne_f32", "v_frexp_mant_f32"};
        static const char* from_float[] = {"v_cvt_i32_f32", "v_cvt_u32_f32", "v_cvt_rpi_i32_f32", "v_cvt_flr_i32_f32",
                                           "v_frexp_exp_i32_f32"};
        static const char* from_int[] = {"v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_f32_ubyte0", "v_cvt_f32_ubyte1",
                                         "v_cvt_f32_ubyte2", "v_cvt_f32_ubyte3"};
        switch (pick(5)) {
          case 0: return fmt::format("  {}_e64 {}, {}\n", unary[pick(14)], vreg(), vsrc(used, true));
          case 1: return fmt::format("  {}_e64 {}, {}\n", from_float[pick(5)], vreg(), vsrc(used, true));
          case 2: return fmt::format("  {}_e64 {}, {}\n", from_int[pick(6)], vreg(), vsrc(used, false));
          case 3: {
            const std::string num = vreg(), den = vreg(), q = vreg();
            return fmt::format("  v_div_scale_f32 v12, {0}, {1}, {1}, {2}\n  v_div_scale_f32 v13, {3}, {2}, {1}, {2}\n"
                               "  v_rcp_f32_e32 v11, v12\n  v_fma_f32 v11, -v12, v11, 1.0\n  v_mul_f32_e32 v11, v13, v11\n"
                               "  v_div_fmas_f32 v11, v11, v12, v13\n  v_div_fixup_f32 {4}, v11, {1}, {2}\n",
                               mask_pair(), den, num, vcc(), q);
          }
          default:
            return fmt::format("  v_div_scale_f32 {}, {}, {}, {}, {}\n", vreg(), pick(2) ? vcc() : mask_pair(), vsrc(used, true),
                               vreg(), vreg());
        }
      }
      case 16: {  // SOP1 (the saveexec family too) and reads of one lane into an SGPR
        static const char* one[] = {"s_mov_b32", "s_cmov_b32", "s_not_b32", "s_brev_b32", "s_bcnt0_i32_b32", "s_bcnt1_i32_b32",
                                    "s_ctz_i32_b32", "s_clz_i32_u32", "s_cls_i32", "s_sext_i32_i8", "s_sext_i32_i16", "s_abs_i32"};
        static const char* saveexec[] = {"and_saveexec", "or_saveexec", "xor_saveexec", "and_not0_saveexec", "and_not1_saveexec",
                                         "or_not0_saveexec", "or_not1_saveexec", "nand_saveexec", "nor_saveexec", "xnor_saveexec",
                                         "and_not0_wrexec", "and_not1_wrexec"};
        const char* b = wave_ == 64 ? "b64" : "b32";
        switch (pick(5)) {
          case 0: return fmt::format("  {} {}, {}\n", one[pick(12)], sreg(), pick(3) ? sreg() : constant());
          case 1: {
            const unsigned d = 12 + 2 * pick(3), a = 12 + 2 * pick(4);  // aligned pairs
            static const char* wide[] = {"s_mov_b64", "s_cmov_b64", "s_not_b64"};
            if (pick(2)) return fmt::format("  {} s[{}:{}], s[{}:{}]\n", wide[pick(3)], d, d + 1, a, a + 1);
            static const char* count[] = {"s_bcnt0_i32_b64", "s_bcnt1_i32_b64", "s_ctz_i32_b64", "s_clz_i32_u64"};
            return fmt::format("  {} {}, s[{}:{}]\n", count[pick(4)], sreg(), a, a + 1);
          }
          case 2: return fmt::format("  s_{}_{} {}, {}\n", saveexec[pick(12)], b, mask_pair(), mask_pair());
          case 3: return fmt::format("  v_readfirstlane_b32 {}, {}\n", sreg(), vreg());
          default: return fmt::format("  v_readlane_b32 {}, {}, {}\n", sreg(), vreg(), pick(2) ? sreg() : std::to_string(pick(65))  /* inline constants: 0..64 */);
        }
      }
      case 17: {  // f64: add, mul, min, max, fma and compares, on VGPR pairs, SGPR pairs and constants
        auto src64 = [&]() -> std::string {
          if (!used && pick(4) == 0) {
            used = true;
            static const char* c[] = {"0", "1", "-1", "0.5", "-2.0", "1.0", "4.0", "0x40080000", "0x7ff80000", "0xfff00000"};
            const unsigned r = 12 + 2 * pick(3);
            return pick(2) ? fmt::format("s[{}:{}]", r, r + 1) : c[pick(10)];
          }
          const unsigned r = 2 + 2 * pick(4);
          std::string v = fmt::format("v[{}:{}]", r, r + 1);
          if (pick(6) == 0) v = "|" + v + "|";
          if (pick(6) == 0) v = "-" + v;
          return v;
        };
        const unsigned d = 2 + 2 * pick(4);
        static const char* two[] = {"v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64"};
        switch (pick(4)) {
          case 0:
          case 1: return fmt::format("  {} v[{}:{}], {}, {}\n", two[pick(4)], d, d + 1, src64(), src64());
          case 2: return fmt::format("  v_fma_f64 v[{}:{}], {}, {}, {}\n", d, d + 1, src64(), src64(), src64());
          default: {
            if (pick(3) == 0) {  // 64-bit integer compares: no input modifiers
              auto int64 = [&]() -> std::string {
                const std::string x = src64();
                const std::size_t bar = x.find_first_not_of("-|");
                return bar == std::string::npos ? x : x.substr(bar, x.find_last_not_of("|") + 1 - bar);
              };
              const char* t = pick(2) ? "i64" : "u64";
              const char* c = int_conditions[pick(8)];
              if (pick(4) == 0) return fmt::format("  v_cmpx_{}_{}_e64 {}, {}\n", c, t, int64(), int64());
              return fmt::format("  v_cmp_{}_{}_e64 {}, {}, {}\n", c, t, pick(2) ? vcc() : mask_pair(), int64(), int64());
            }
            const char* c = conditions[pick(16)];
            if (pick(4) == 0) return fmt::format("  v_cmpx_{}_f64_e64 {}, {}\n", c, src64(), src64());
            const std::string dst = pick(2) ? vcc() : mask_pair();
            return fmt::format("  v_cmp_{}_f64_e64 {}, {}, {}\n", c, dst, src64(), src64());
          }
        }
      }
      case 14: {  // flat: `in` or the LDS through its aperture, sometimes past either's end
        const unsigned offset = 4 * pick(std::min(1023u, 2 * 8 * wave_ + 8) / 4);
        const char* address = pick(2) ? "v[18:19]" : "v[20:21]";
        if (pick(2)) return fmt::format("  flat_store_b32 {}, {} offset:{}\n", address, vreg(), offset);
        return fmt::format("  flat_load_b32 {}, {} offset:{}\n  s_waitcnt vmcnt(0) lgkmcnt(0)\n", vreg(), address, offset);
      }
      default: {
        // Memory: a load from `in` at a random lane offset, sometimes past its end (a fault).
        const unsigned words = pick(4) == 0 ? 2 : 1;
        const int offset = 4 * static_cast<int>(pick(std::min(1023u, 2 * 8 * wave_ + 8)));  // the encoding's 12 bits
        if (words == 2) {
          // Lanes 4 bytes apart (a window of wide loads), the access's size (coalesced) or any
          // other stride (strided), through the lifter's vector paths for evenly spaced lanes.
          static const char* spacing[] = {"v1", "v16", "v17", "v22"};
          if (pick(2))
            return fmt::format("  global_load_b128 v[12:15], {}, s[4:5] offset:{}\n  v_mov_b32 {}, v{}\n", spacing[pick(4)], offset, vreg(),
                               12 + pick(4));
          return fmt::format("  global_load_b64 v[12:13], {}, s[4:5] offset:{}\n  v_mov_b32 {}, v13\n", spacing[pick(4)], offset, vreg());
        }
        return fmt::format("  global_load_b32 {}, v1, s[4:5] offset:{}\n", vreg(), offset);
      }
    }
  }

  std::mt19937_64 rng_;
  unsigned wave_ = 32;
};

// One random program on both tiers; "" or what differs.
std::string run_one(std::uint64_t seed, bool wave64, int count) {
  Generator g(seed);
  g.set_wave(wave64 ? 64 : 32);
  AsmKernel k;
  k.wave64 = wave64;
  k.lds_bytes = 512;
  k.body = g.body(count);
  AsmLaunch l;
  // One wave, or two: then the waves take turns every 32 instructions, and the compiled code
  // must stop where the interpreter's slices end (their stores overlap: the order shows).
  const unsigned wave = wave64 ? 64 : 32;
  l.threads = wave * (1 + static_cast<unsigned>(seed % 2));
  l.in.resize(8 * 2 * wave + 8);
  for (auto& x : l.in) x = g.value();
  l.aux.resize(8);
  for (auto& x : l.aux) x = g.value();
  l.out_words = 8 * 2 * wave + 64;
  l.n = g.value();
  const AsmRun r = run_asm(k, l);
  if (!r.skip_reason.empty()) return "SKIP " + r.skip_reason;
  if (r.error.find("the JIT tier differs") != std::string::npos)
    return fmt::format("seed {} wave{}: {}\n{}", seed, wave64 ? 64 : 32, r.error, asm_source(k));
  if (r.error.starts_with("llvm-mc")) return fmt::format("seed {}: the generator wrote what llvm-mc refuses: {}", seed, r.error);
  return "";
}

TEST(EmuJitFuzz, RandomProgramsRunAlikeOnBothTiers) {
  double seconds = 0;
  if (const char* s = std::getenv("GPUPORT_JIT_FUZZ_SECONDS")) seconds = std::atof(s);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t seed = seconds > 0 ? std::random_device{}() : 20261207;
  int programs = 0;
  for (;;) {
    for (bool wave64 : {false, true}) {
      const std::string d = run_one(seed, wave64, 40);
      if (d.starts_with("SKIP ")) GTEST_SKIP() << d.substr(5);
      ASSERT_EQ(d, "");
      ++programs;
    }
    ++seed;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds > 0 ? elapsed >= seconds : programs >= 12) break;
  }
  if (seconds > 0) std::printf("EmuJitFuzz: %d programs in %.0f s, no difference\n", programs, seconds);
}

}  // namespace
}  // namespace gpuport::emu::testing
