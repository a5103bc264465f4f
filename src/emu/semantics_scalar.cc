// Scalar ALU (SOP1, SOP2, SOPC, SOPK) and program control (SOPP): branches, s_endpgm, barrier;
// the scheduling hints of a real SQ (s_waitcnt, s_delay_alu, s_nop, s_clause, prefetch) are
// no-ops of a functional model, which completes every access before the next instruction.
#include <algorithm>
#include <fmt/format.h>
#include <bit>
#include <string_view>

#include "emu/lanes.h"
#include "emu/lift_forms.h"
#include "emu/semantics.h"

namespace gpuport::emu {
namespace {

using namespace semantics;  // operand order as printed: sdst, ssrc0, ssrc1
using namespace lanes;

bool endpgm(Wave& w, const Step&, Context&) {
  w.done = w.leave = true;
  return true;
}

bool barrier(Wave& w, const Step&, Context&) {
  w.at_barrier = w.leave = true;
  return true;
}

// Branches: the step's target was resolved when the kernel was prepared.
template <int Cond>
bool branch(Wave& w, const Step& s, Context&) {
  bool take = false;
  switch (Cond) {
    case 0: take = true; break;
    case 1: take = w.scc; break;
    case 2: take = !w.scc; break;
    case 3: take = w.vcc() == 0; break;
    case 4: take = w.vcc() != 0; break;
    case 5: take = w.exec() == 0; break;
    case 6: take = w.exec() != 0; break;
  }
  if (take) w.pc = static_cast<std::size_t>(s.target) - 1;  // the interpreter adds one
  return true;
}

// SGPR-relative moves: s_movrels d, s reads SGPR[s + M0]; s_movreld d, s writes SGPR[d + M0]
// (Words 32-bit registers, pairs for _b64); s_movrelsd_2_b32 d, s: SGPR[d + M0[25:16]] =
// SGPR[s + M0[9:0]]. An index past s105 stops the kernel.
bool sgpr_index_fault(Context& c, u32 index) {
  Fault f;
  f.message = fmt::format("an SGPR-relative move reached s{}, past s105 (M0 too large)", index);
  c.fault = f;
  return false;
}

template <int Words, bool Destination>
bool movrel(Wave& w, const Step& s, Context& c) {
  const Operand& d = op(s, 0);
  const Operand& a = op(s, 1);
  const u32 m0 = w.s[encoding::m0];
  if (Destination) {
    const u32 to = d.reg + m0;
    if (d.kind != Operand::Kind::sgpr || to + Words > 106) return sgpr_index_fault(c, to + Words - 1);
    if (Words == 2) {
      const u64 v = read_scalar64(w, a);
      w.s[to] = u32(v);
      w.s[to + 1] = u32(v >> 32);
    } else {
      w.s[to] = read_scalar(w, a);
    }
    return true;
  }
  const u32 from = a.reg + m0;
  if (a.kind != Operand::Kind::sgpr || from + Words > 106) return sgpr_index_fault(c, from + Words - 1);
  if (Words == 2) write_scalar64(w, d, w.s[from] | u64(w.s[from + 1]) << 32);
  else write_scalar(w, d, w.s[from]);
  return true;
}

bool movrelsd_2(Wave& w, const Step& s, Context& c) {
  const u32 m0 = w.s[encoding::m0];
  const u32 to = op(s, 0).reg + ((m0 >> 16) & 0x3ff), from = op(s, 1).reg + (m0 & 0x3ff);
  if (to >= 106) return sgpr_index_fault(c, to);
  if (from >= 106) return sgpr_index_fault(c, from);
  w.s[to] = w.s[from];
  return true;
}

// SOP2 32-bit, with SCC as each op defines it.
template <S2 Op>
bool sop2(Wave& w, const Step& s, Context&) {
  const u32 a = read_scalar(w, op(s, 1)), b = read_scalar(w, op(s, 2));
  bool scc = w.scc;
  const u32 r = s2_op<Op>(a, b, scc);
  write_scalar(w, op(s, 0), r);
  w.scc = scc;
  return true;
}

template <typename T>
T read_width(const Wave& w, const Operand& o) {
  if constexpr (sizeof(T) == 8) return read_scalar64(w, o);
  else return read_scalar(w, o);
}

template <typename T, Bits Op>
bool sop2_bits(Wave& w, const Step& s, Context&) {
  const T a = Op == Bits::bfm ? T(read_scalar(w, op(s, 1))) : read_width<T>(w, op(s, 1));
  const bool b32 = Op == Bits::lshl || Op == Bits::lshr || Op == Bits::ashr || Op == Bits::bfe_u || Op == Bits::bfe_i || Op == Bits::bfm;
  const T b = b32 ? T(read_scalar(w, op(s, 2))) : read_width<T>(w, op(s, 2));
  bool scc = w.scc;
  const T r = bits_op<T, Op>(a, b, scc);
  if constexpr (sizeof(T) == 8) write_scalar64(w, op(s, 0), r);
  else write_scalar(w, op(s, 0), r);
  w.scc = scc;
  return true;
}

template <S1 Op>
bool sop1(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const Operand& a = op(s, 1);
  if constexpr (s1_listed(Op)) {  // lanes.h's
    constexpr S1Shape shape = s1_shape(Op);
    const u64 x = shape.saveexec ? read_mask(w, a) : shape.wide_source ? read_scalar64(w, a) : read_scalar(w, a);
    const u64 old = shape.saveexec ? w.exec() : shape.cmov ? (shape.wide_result ? read_scalar64(w, d) : read_scalar(w, d)) : 0;
    bool scc = w.scc;
    const u64 r = s1_op<Op>(x, old, w.size == 64 ? ~0ull : 0xffffffffull, scc);
    if (shape.saveexec) {
      write_mask(w, d, shape.wrexec ? r : old);
      w.set_exec(r);
    } else if (shape.wide_result) {
      write_scalar64(w, d, r);
    } else {
      write_scalar(w, d, static_cast<u32>(r));
    }
    w.scc = scc;
    return true;
  }
  switch (Op) {
    case S1::brev_b64: { u64 x = read_scalar64(w, a), r = 0; for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1) << (63 - i); write_scalar64(w, d, r); break; }
    case S1::bitset0_b32: write_scalar(w, d, read_scalar(w, d) & ~(1u << (read_scalar(w, a) & 31))); break;
    case S1::bitset1_b32: write_scalar(w, d, read_scalar(w, d) | (1u << (read_scalar(w, a) & 31))); break;
    case S1::bitset0_b64: write_scalar64(w, d, read_scalar64(w, d) & ~(1ull << (read_scalar(w, a) & 63))); break;
    case S1::bitset1_b64: write_scalar64(w, d, read_scalar64(w, d) | (1ull << (read_scalar(w, a) & 63))); break;
    case S1::quadmask_b32: { const u32 x = read_scalar(w, a); u32 r = 0; for (int q = 0; q < 8; ++q) r |= ((x >> (4 * q)) & 0xf ? 1u : 0u) << q; write_scalar(w, d, r); w.scc = r != 0; break; }
    case S1::bitreplicate_b64_b32: {  // bit i of the source into bits 2i and 2i+1
      const u32 x = read_scalar(w, a);
      u64 r = 0;
      for (int i = 0; i < 32; ++i) r |= u64((x >> i) & 1) * (3ull << (2 * i));
      write_scalar64(w, d, r);
      break;
    }
    case S1::cls_i32_i64: {
      const u64 x = read_scalar64(w, a);
      const u64 y = (x >> 63) ? ~x : x;
      write_scalar(w, d, (x == 0 || x == ~0ull) ? ~0u : u32(std::countl_zero(y)));
      break;
    }
    case S1::quadmask_b64: { const u64 x = read_scalar64(w, a); u64 r = 0; for (int q = 0; q < 16; ++q) r |= ((x >> (4 * q)) & 0xf ? 1ull : 0ull) << q; write_scalar64(w, d, r); w.scc = r != 0; break; }
    case S1::wqm_b64: { const u64 x = read_scalar64(w, a); u64 r = 0; for (int q = 0; q < 16; ++q) if ((x >> (4 * q)) & 0xf) r |= 0xfull << (4 * q); write_scalar64(w, d, r); w.scc = r != 0; break; }
    case S1::wqm_b32: { const u32 x = read_scalar(w, a); u32 r = 0; for (int q = 0; q < 8; ++q) if ((x >> (4 * q)) & 0xf) r |= 0xfu << (4 * q); write_scalar(w, d, r); w.scc = r != 0; break; }
    default: break;  // lanes.h's, above
  }
  return true;
}

// SOPC compares and SOPK.
template <int Cond, bool Signed, bool Wide>
bool scmp(Wave& w, const Step& s, Context&) {
  if (Wide) {
    const u64 a = read_scalar64(w, op(s, 0)), b = read_scalar64(w, op(s, 1));
    w.scc = Cond == 0 ? a == b : a != b;
    return true;
  }
  const u32 a = read_scalar(w, op(s, 0)), b = read_scalar(w, op(s, 1));
  w.scc = scmp_op<Cond, Signed>(a, b);
  return true;
}

template <int Kind>
bool bitcmp(Wave& w, const Step& s, Context&) {
  switch (Kind) {
    case 0: w.scc = !((read_scalar(w, op(s, 0)) >> (read_scalar(w, op(s, 1)) & 31)) & 1); break;
    case 1: w.scc = (read_scalar(w, op(s, 0)) >> (read_scalar(w, op(s, 1)) & 31)) & 1; break;
    case 2: w.scc = !((read_scalar64(w, op(s, 0)) >> (read_scalar(w, op(s, 1)) & 63)) & 1); break;
    case 3: w.scc = (read_scalar64(w, op(s, 0)) >> (read_scalar(w, op(s, 1)) & 63)) & 1; break;
  }
  return true;
}

// SOPK: sdst, simm16.
template <int Kind>
bool sopk(Wave& w, const Step& s, Context&) {
  const Operand& d = op(s, 0);
  const i32 imm = i32(std::int16_t(op(s, 1).value));
  switch (Kind) {
    case 0: write_scalar(w, d, u32(imm)); break;                      // s_movk_i32
    case 1: if (w.scc) write_scalar(w, d, u32(imm)); break;           // s_cmovk_i32
    case 2: {                                                          // s_addk_i32
      const u32 a = read_scalar(w, d), r = a + u32(imm);
      w.scc = ((~(a ^ u32(imm))) & (a ^ r)) >> 31;
      write_scalar(w, d, r);
      break;
    }
    case 3: write_scalar(w, d, u32(i64(i32(read_scalar(w, d))) * imm)); break;  // s_mulk_i32
  }
  return true;
}

// s_cmpk_*: ssrc (the sdst field), simm16; signed forms sign-extend, unsigned zero-extend.
template <int Cond, bool Signed>
bool scmpk(Wave& w, const Step& s, Context&) {
  const u32 a = read_scalar(w, op(s, 0));
  const i64 x = Signed ? i64(i32(a)) : i64(a);
  const i64 y = Signed ? i64(std::int16_t(op(s, 1).value)) : i64(std::uint16_t(op(s, 1).value));
  switch (Cond) {
    case 0: w.scc = x == y; break;
    case 1: w.scc = x != y; break;
    case 2: w.scc = x > y; break;
    case 3: w.scc = x >= y; break;
    case 4: w.scc = x < y; break;
    case 5: w.scc = x <= y; break;
  }
  return true;
}

struct Entry {
  std::string_view mnemonic;
  Handler handler;
};

const Entry kScalar[] = {
    {"s_nop", nop}, {"s_waitcnt", nop}, {"s_waitcnt_vscnt", nop}, {"s_waitcnt_vmcnt", nop}, {"s_waitcnt_expcnt", nop},
    {"s_waitcnt_lgkmcnt", nop}, {"s_waitcnt_depctr", nop}, {"s_delay_alu", nop}, {"s_clause", nop},
    {"s_set_inst_prefetch_distance", nop}, {"s_setprio", nop}, {"s_code_end", nop},
    {"s_icache_inv", nop}, {"s_dcache_inv", nop}, {"s_inst_prefetch", nop},
    {"s_endpgm", endpgm}, {"s_barrier", barrier},
    {"s_branch", branch<0>}, {"s_cbranch_scc1", branch<1>}, {"s_cbranch_scc0", branch<2>}, {"s_cbranch_vccz", branch<3>},
    {"s_cbranch_vccnz", branch<4>}, {"s_cbranch_execz", branch<5>}, {"s_cbranch_execnz", branch<6>},
    {"s_add_u32", sop2<S2::add_u32>}, {"s_sub_u32", sop2<S2::sub_u32>}, {"s_add_i32", sop2<S2::add_i32>},
    {"s_sub_i32", sop2<S2::sub_i32>}, {"s_addc_u32", sop2<S2::addc_u32>}, {"s_subb_u32", sop2<S2::subb_u32>},
    {"s_min_i32", sop2<S2::min_i32>}, {"s_min_u32", sop2<S2::min_u32>}, {"s_max_i32", sop2<S2::max_i32>},
    {"s_max_u32", sop2<S2::max_u32>}, {"s_mul_i32", sop2<S2::mul_i32>}, {"s_mul_hi_u32", sop2<S2::mul_hi_u32>},
    {"s_mul_hi_i32", sop2<S2::mul_hi_i32>}, {"s_lshl1_add_u32", sop2<S2::lshl1_add_u32>}, {"s_lshl2_add_u32", sop2<S2::lshl2_add_u32>},
    {"s_lshl3_add_u32", sop2<S2::lshl3_add_u32>}, {"s_lshl4_add_u32", sop2<S2::lshl4_add_u32>},
    {"s_absdiff_i32", sop2<S2::absdiff_i32>}, {"s_pack_ll_b32_b16", sop2<S2::pack_ll_b32_b16>},
    {"s_pack_lh_b32_b16", sop2<S2::pack_lh_b32_b16>}, {"s_pack_hh_b32_b16", sop2<S2::pack_hh_b32_b16>},
    {"s_pack_hl_b32_b16", sop2<S2::pack_hl_b32_b16>},
    {"s_and_b32", sop2_bits<u32, Bits::and_>}, {"s_or_b32", sop2_bits<u32, Bits::or_>},
    {"s_xor_b32", sop2_bits<u32, Bits::xor_>}, {"s_nand_b32", sop2_bits<u32, Bits::nand>},
    {"s_nor_b32", sop2_bits<u32, Bits::nor>}, {"s_xnor_b32", sop2_bits<u32, Bits::xnor>},
    {"s_and_not1_b32", sop2_bits<u32, Bits::and_not1>}, {"s_or_not1_b32", sop2_bits<u32, Bits::or_not1>},
    {"s_cselect_b32", sop2_bits<u32, Bits::cselect>}, {"s_bfm_b32", sop2_bits<u32, Bits::bfm>},
    {"s_lshl_b32", sop2_bits<u32, Bits::lshl>}, {"s_lshr_b32", sop2_bits<u32, Bits::lshr>},
    {"s_ashr_i32", sop2_bits<u32, Bits::ashr>}, {"s_bfe_u32", sop2_bits<u32, Bits::bfe_u>},
    {"s_bfe_i32", sop2_bits<u32, Bits::bfe_i>},
    {"s_and_b64", sop2_bits<u64, Bits::and_>}, {"s_or_b64", sop2_bits<u64, Bits::or_>},
    {"s_xor_b64", sop2_bits<u64, Bits::xor_>}, {"s_nand_b64", sop2_bits<u64, Bits::nand>},
    {"s_nor_b64", sop2_bits<u64, Bits::nor>}, {"s_xnor_b64", sop2_bits<u64, Bits::xnor>},
    {"s_and_not1_b64", sop2_bits<u64, Bits::and_not1>}, {"s_or_not1_b64", sop2_bits<u64, Bits::or_not1>},
    {"s_cselect_b64", sop2_bits<u64, Bits::cselect>}, {"s_bfm_b64", sop2_bits<u64, Bits::bfm>},
    {"s_lshl_b64", sop2_bits<u64, Bits::lshl>}, {"s_lshr_b64", sop2_bits<u64, Bits::lshr>},
    {"s_ashr_i64", sop2_bits<u64, Bits::ashr>}, {"s_bfe_u64", sop2_bits<u64, Bits::bfe_u>},
    {"s_bfe_i64", sop2_bits<u64, Bits::bfe_i>},
    {"s_mov_b32", sop1<S1::mov_b32>}, {"s_mov_b64", sop1<S1::mov_b64>}, {"s_cmov_b32", sop1<S1::cmov_b32>},
    {"s_cmov_b64", sop1<S1::cmov_b64>}, {"s_not_b32", sop1<S1::not_b32>}, {"s_not_b64", sop1<S1::not_b64>},
    {"s_brev_b32", sop1<S1::brev_b32>}, {"s_brev_b64", sop1<S1::brev_b64>}, {"s_bcnt0_i32_b32", sop1<S1::bcnt0_i32_b32>},
    {"s_bcnt1_i32_b32", sop1<S1::bcnt1_i32_b32>}, {"s_bcnt1_i32_b64", sop1<S1::bcnt1_i32_b64>},
    {"s_ctz_i32_b32", sop1<S1::ctz_i32_b32>}, {"s_ctz_i32_b64", sop1<S1::ctz_i32_b64>}, {"s_clz_i32_u32", sop1<S1::clz_i32_u32>},
    {"s_clz_i32_u64", sop1<S1::clz_i32_u64>}, {"s_cls_i32", sop1<S1::cls_i32>}, {"s_sext_i32_i8", sop1<S1::sext_i32_i8>},
    {"s_sext_i32_i16", sop1<S1::sext_i32_i16>}, {"s_bitset0_b32", sop1<S1::bitset0_b32>}, {"s_bitset1_b32", sop1<S1::bitset1_b32>},
    {"s_bitset0_b64", sop1<S1::bitset0_b64>}, {"s_bitset1_b64", sop1<S1::bitset1_b64>},
    {"s_abs_i32", sop1<S1::abs_i32>}, {"s_quadmask_b32", sop1<S1::quadmask_b32>}, {"s_wqm_b32", sop1<S1::wqm_b32>},
    {"s_bcnt0_i32_b64", sop1<S1::bcnt0_i32_b64>}, {"s_bitreplicate_b64_b32", sop1<S1::bitreplicate_b64_b32>},
    {"s_cls_i32_i64", sop1<S1::cls_i32_i64>}, {"s_quadmask_b64", sop1<S1::quadmask_b64>}, {"s_wqm_b64", sop1<S1::wqm_b64>},
    {"s_movrels_b32", movrel<1, false>}, {"s_movrels_b64", movrel<2, false>}, {"s_movreld_b32", movrel<1, true>},
    {"s_movreld_b64", movrel<2, true>}, {"s_movrelsd_2_b32", movrelsd_2}, {"s_endpgm_saved", endpgm},
    {"s_and_saveexec_b32", sop1<S1::and_saveexec>}, {"s_or_saveexec_b32", sop1<S1::or_saveexec>},
    {"s_xor_saveexec_b32", sop1<S1::xor_saveexec>}, {"s_and_not0_saveexec_b32", sop1<S1::and_not0_saveexec>},
    {"s_and_not1_saveexec_b32", sop1<S1::and_not1_saveexec>}, {"s_or_not0_saveexec_b32", sop1<S1::or_not0_saveexec>},
    {"s_or_not1_saveexec_b32", sop1<S1::or_not1_saveexec>}, {"s_nand_saveexec_b32", sop1<S1::nand_saveexec>},
    {"s_nor_saveexec_b32", sop1<S1::nor_saveexec>}, {"s_xnor_saveexec_b32", sop1<S1::xnor_saveexec>},
    {"s_and_not0_wrexec_b32", sop1<S1::and_not0_wrexec>}, {"s_and_not1_wrexec_b32", sop1<S1::and_not1_wrexec>},
    {"s_and_saveexec_b64", sop1<S1::and_saveexec>}, {"s_or_saveexec_b64", sop1<S1::or_saveexec>},
    {"s_xor_saveexec_b64", sop1<S1::xor_saveexec>}, {"s_and_not0_saveexec_b64", sop1<S1::and_not0_saveexec>},
    {"s_and_not1_saveexec_b64", sop1<S1::and_not1_saveexec>}, {"s_or_not0_saveexec_b64", sop1<S1::or_not0_saveexec>},
    {"s_or_not1_saveexec_b64", sop1<S1::or_not1_saveexec>}, {"s_nand_saveexec_b64", sop1<S1::nand_saveexec>},
    {"s_nor_saveexec_b64", sop1<S1::nor_saveexec>}, {"s_xnor_saveexec_b64", sop1<S1::xnor_saveexec>},
    {"s_and_not0_wrexec_b64", sop1<S1::and_not0_wrexec>}, {"s_and_not1_wrexec_b64", sop1<S1::and_not1_wrexec>},
    {"s_cmp_eq_u32", scmp<0, false, false>}, {"s_cmp_lg_u32", scmp<1, false, false>}, {"s_cmp_gt_u32", scmp<2, false, false>},
    {"s_cmp_ge_u32", scmp<3, false, false>}, {"s_cmp_lt_u32", scmp<4, false, false>}, {"s_cmp_le_u32", scmp<5, false, false>},
    {"s_cmp_eq_i32", scmp<0, true, false>}, {"s_cmp_lg_i32", scmp<1, true, false>}, {"s_cmp_gt_i32", scmp<2, true, false>},
    {"s_cmp_ge_i32", scmp<3, true, false>}, {"s_cmp_lt_i32", scmp<4, true, false>}, {"s_cmp_le_i32", scmp<5, true, false>},
    {"s_cmp_eq_u64", scmp<0, false, true>}, {"s_cmp_lg_u64", scmp<1, false, true>},
    {"s_bitcmp0_b32", bitcmp<0>}, {"s_bitcmp1_b32", bitcmp<1>}, {"s_bitcmp0_b64", bitcmp<2>}, {"s_bitcmp1_b64", bitcmp<3>},
    {"s_movk_i32", sopk<0>}, {"s_cmovk_i32", sopk<1>}, {"s_addk_i32", sopk<2>}, {"s_mulk_i32", sopk<3>},
    {"s_cmpk_eq_i32", scmpk<0, true>}, {"s_cmpk_lg_i32", scmpk<1, true>}, {"s_cmpk_gt_i32", scmpk<2, true>},
    {"s_cmpk_ge_i32", scmpk<3, true>}, {"s_cmpk_lt_i32", scmpk<4, true>}, {"s_cmpk_le_i32", scmpk<5, true>},
    {"s_cmpk_eq_u32", scmpk<0, false>}, {"s_cmpk_lg_u32", scmpk<1, false>}, {"s_cmpk_gt_u32", scmpk<2, false>},
    {"s_cmpk_ge_u32", scmpk<3, false>}, {"s_cmpk_lt_u32", scmpk<4, false>}, {"s_cmpk_le_u32", scmpk<5, false>},
};

}  // namespace

Handler resolve_scalar(const ParsedInstruction& p, Step&) {
  for (const auto& e : kScalar)
    if (e.mnemonic == p.mnemonic) return e.handler;
  return nullptr;
}

LiftForm scalar_lift_form(Handler h) {
  using K = LiftForm::Kind;
  if (h == nop) return {K::nop, 0};
  if (h == branch<0>) return {K::branch, 0};
  if (h == branch<1>) return {K::branch, 1};
  if (h == branch<2>) return {K::branch, 2};
  if (h == branch<3>) return {K::branch, 3};
  if (h == branch<4>) return {K::branch, 4};
  if (h == branch<5>) return {K::branch, 5};
  if (h == branch<6>) return {K::branch, 6};
#define GPUPORT_S2_FORM(n) \
  if (h == sop2<S2::n>) return {K::scalar_op, u32(S2::n)};
  GPUPORT_LANE_S2_OPS(GPUPORT_S2_FORM)
#undef GPUPORT_S2_FORM
#define GPUPORT_BITS_FORM(n)                                                         \
  if (h == sop2_bits<u32, Bits::n>) return {K::scalar_bits, u32(Bits::n), false, false}; \
  if (h == sop2_bits<u64, Bits::n>) return {K::scalar_bits, u32(Bits::n), false, true};
  GPUPORT_LANE_BITS_OPS(GPUPORT_BITS_FORM)
#undef GPUPORT_BITS_FORM
#define GPUPORT_S1_FORM(n) \
  if (h == sop1<S1::n>) return {K::scalar_unary, u32(S1::n)};
  GPUPORT_LANE_S1_OPS(GPUPORT_S1_FORM)
#undef GPUPORT_S1_FORM
  // s_cmp_<cond>_u32 and _i32, by condition (the 64-bit forms are left to their handlers).
  static constexpr Handler compares[2][6] = {
      {scmp<0, false, false>, scmp<1, false, false>, scmp<2, false, false>, scmp<3, false, false>, scmp<4, false, false>, scmp<5, false, false>},
      {scmp<0, true, false>, scmp<1, true, false>, scmp<2, true, false>, scmp<3, true, false>, scmp<4, true, false>, scmp<5, true, false>}};
  for (int is_signed = 0; is_signed < 2; ++is_signed)
    for (u32 cond = 0; cond < 6; ++cond)
      if (h == compares[is_signed][cond]) return {K::scalar_compare, cond, false, false, is_signed == 1};
  return {};
}

}  // namespace gpuport::emu
