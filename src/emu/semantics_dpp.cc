// Data-parallel primitives and the other cross-lane instructions of gfx1100. DPP16 and DPP8 are a
// transformation around any VALU handler: the lanes' src0 values are routed into a spare VGPR
// column, EXEC is narrowed to the lanes that write, and the instruction's own handler runs on
// that. Beside it: v_permlane16/x16/64, ds_swizzle_b32 and the VGPR-indexed v_movrel* moves.
#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <string_view>

#include "emu/semantics.h"

namespace gpuport::emu {

using namespace semantics;

// What a DPP step does besides its instruction (RDNA3 ISA guide, "Data Parallel Processing"; LLVM's
// modifier syntax page for how each control is spelled). Lane l reads src0 from lane source[l]
// (-1: outside its row, an invalid lane). A source is also invalid when it is outside EXEC, unless
// fi:1 (fetch inactive). An invalid source reads 0 with bound_ctrl:1 (DPP16) and always in DPP8
// ("fi:0: fetch zero when accessing data from inactive lanes"); with bound_ctrl:0 the lane does not
// write at all. row_mask and bank_mask also keep lanes from writing, but do not change which lanes
// may be read. A lane that does not write keeps its VGPR and gets 0 in a compare's or carry's mask,
// as a lane outside EXEC does.
struct DppRoute {
  Step inner;                             // the instruction, its src0 moved to `scratch`
  std::array<std::int8_t, 64> source{};
  std::array<std::uint8_t, 64> fetch{};   // source, or the lane itself where that is -1
  u64 out_of_row = 0;                     // lanes whose source is -1
  u64 enabled = ~0ull;                    // lanes row_mask and bank_mask let write
  u32 src0 = 0, scratch = 0;
  bool zero_invalid = false, fetch_inactive = false;
  bool keeps_exec = true;                 // false for instructions that write EXEC (v_cmpx)
};

namespace {

// The lane that `lane` reads under a DPP16 control: rows of 16 lanes, banks of 4 within a row
// (the DPP_CTRL table of the ISA guides: row_shl:n reads lane + n, row_shr:n lane - n, both
// invalid past the row's edge; row_ror:n rotates within the row; row_share:n reads lane n of the
// row, row_xmask:n the lane whose index in the row is its own xor n).
int dpp16_source(std::uint32_t control, u32 value, u32 lane) {
  const u32 row = lane & ~15u, in_row = lane & 15;
  switch (control) {
    case dpp_control::quad_perm: return static_cast<int>((lane & ~3u) | ((value >> (2 * (lane & 3))) & 3));
    case dpp_control::row_shl: return in_row + value < 16 ? static_cast<int>(lane + value) : -1;
    case dpp_control::row_shr: return in_row >= value ? static_cast<int>(lane - value) : -1;
    case dpp_control::row_ror: return static_cast<int>(row | ((in_row - value) & 15));
    case dpp_control::row_mirror: return static_cast<int>(row | (15 - in_row));
    case dpp_control::row_half_mirror: return static_cast<int>((lane & ~7u) | (7 - (lane & 7)));
    case dpp_control::row_share: return static_cast<int>(row | (value & 15));
    case dpp_control::row_xmask: return static_cast<int>(row | ((in_row ^ value) & 15));
    default: return -2;
  }
}

bool dpp(Wave& w, const Step& s, Context& c) {
  const DppRoute& r = *s.dpp;
  if (r.scratch >= w.vgprs) {
    c.fault = Fault{"DPP: no spare VGPR for the routed source", 0, -1};
    return false;
  }
  const u64 exec = w.exec();
  const u32* from = &w.v[r.src0 * w.size];
  u32* routed = &w.v[r.scratch * w.size];
  u64 writes = exec & r.enabled;
  if (exec == (w.size == 64 ? ~0ull : 0xffffffffull)) {  // every source lane active: no per-lane test
    for (u32 lane = 0; lane < w.size; ++lane) routed[lane] = from[r.fetch[lane]];
    if (r.zero_invalid)
      for (u64 e = writes & r.out_of_row; e; e &= e - 1) routed[std::countr_zero(e)] = 0;
    else
      writes &= ~r.out_of_row;
  } else {
    for (u64 e = writes; e; e &= e - 1) {
      const u32 lane = static_cast<u32>(std::countr_zero(e));
      const int source = r.source[lane];
      if (source >= 0 && (r.fetch_inactive || ((exec >> source) & 1))) routed[lane] = from[source];
      else if (r.zero_invalid) routed[lane] = 0;
      else writes &= ~(1ull << lane);
    }
  }
  w.set_exec(writes);
  const bool ok = r.inner.handler(w, r.inner, c);
  if (r.keeps_exec) w.set_exec(exec);
  return ok;
}

// v_permlane16_b32 / v_permlanex16_b32 d, s0, s1, s2 [op_sel:[fi,bound_ctrl]]: lane i of each row
// reads the lane that nibble i of {s2, s1} names, in its own row (permlane16) or the other row of
// its pair (x16: 0<->1, 2<->3). op_sel carries DPP's fi and bound_ctrl (LLVM's modifier syntax
// page, "dpp_op_sel"), applied as in DPP16: a source lane outside EXEC is read only with fi:1;
// otherwise the lane gets 0 with bound_ctrl:1, or keeps its value.
template <bool Cross>
bool permlane16(Wave& w, const Step& s, Context&) {
  const u32 d = op(s, 0).reg, src = op(s, 1).reg;
  const u64 select = read_scalar(w, op(s, 2)) | static_cast<u64>(read_scalar(w, op(s, 3))) << 32;
  const bool fetch_inactive = s.mods.op_sel & 1, bound_ctrl = (s.mods.op_sel >> 1) & 1;
  const u64 exec = w.exec();
  u32 before[64];
  std::copy_n(&w.v[src * w.size], w.size, before);
  for_active(w, [&](u32 lane) {
    const u32 row = (lane & ~15u) ^ (Cross ? 16u : 0u);
    const u32 from = row | static_cast<u32>((select >> (4 * (lane & 15))) & 15);
    if (fetch_inactive || ((exec >> from) & 1)) w.vgpr(d, lane) = before[from];
    else if (bound_ctrl) w.vgpr(d, lane) = 0;
  });
  return true;
}

// v_permlane64_b32 d, s: each lane reads the lane 32 away (wave64); a no-op in wave32.
bool permlane64(Wave& w, const Step& s, Context&) {
  if (w.size != 64) return true;
  const u32 d = op(s, 0).reg, src = op(s, 1).reg;
  u32 before[64];
  std::copy_n(&w.v[src * 64], 64, before);
  for_active(w, [&](u32 lane) { w.vgpr(d, lane) = before[lane ^ 32]; });
  return true;
}

// The lane that `lane` reads under a ds_swizzle_b32 offset (the RDNA3 guide's pseudocode for
// DS_SWIZZLE_B32): offset >= 0xe000 FFT mode, >= 0xc000 rotate mode, bit 15 quad permute, else
// bit-mask mode. Every mode stays within the lane's group of 32.
u32 swizzle_source(u32 offset, u32 lane) {
  const u32 half = lane & 32, i = lane & 31, mask = offset & 31;
  if (offset >= 0xe000) {  // FFT: the lane id's five bits reversed, shifted right by popcount(mask)
    u32 reversed = 0;
    for (u32 b = 0; b < 5; ++b) reversed |= ((i >> b) & 1) << (4 - b);
    return half | (((reversed >> std::popcount(mask)) | (i & mask)) & 31);
  }
  if (offset >= 0xc000) {  // rotate the bits outside `mask` by offset[9:5], down if offset[10]
    const u32 amount = (offset >> 5) & 31;
    const u32 rotated = (offset >> 10) & 1 ? i - amount : i + amount;
    return half | (i & mask) | (rotated & ~mask & 31);
  }
  if (offset & 0x8000) return (lane & ~3u) | ((offset >> (2 * (lane & 3))) & 3);
  const u32 and_mask = mask, or_mask = (offset >> 5) & 31, xor_mask = (offset >> 10) & 31;
  return half | (((i & and_mask) | or_mask) ^ xor_mask);
}

// ds_swizzle_b32 d, s offset:pattern: a source lane outside EXEC gives 0.
bool ds_swizzle(Wave& w, const Step& s, Context&) {
  const u32 d = op(s, 0).reg, data = op(s, 1).reg;
  const u64 exec = w.exec();
  u32 result[64];
  for_active(w, [&](u32 lane) {
    const u32 from = swizzle_source(s.param, lane);
    result[lane] = (exec >> from) & 1 ? w.vgpr(data, from) : 0;
  });
  for_active(w, [&](u32 lane) { w.vgpr(d, lane) = result[lane]; });
  return true;
}

// VGPR-indexed moves (VOP1), M0 adding to the register number: v_movrels_b32 d, s reads v[s + M0];
// v_movreld_b32 d, s writes v[d + M0]; v_movrelsd_b32 both; v_movrelsd_2_b32 adds M0[9:0] to the
// source and M0[25:16] to the destination. An index past the wave's VGPRs is a fault (what the
// hardware does there, the guide leaves to "out of range").
enum class Movrel : std::uint8_t { source, destination, both, both_split };

template <Movrel Kind>
bool movrel(Wave& w, const Step& s, Context& c) {
  const u32 m0 = w.s[encoding::m0];
  const Operand& d = op(s, 0);
  const Operand& a = op(s, 1);
  const u64 source_index = a.reg + static_cast<u64>(Kind == Movrel::both_split ? (m0 & 0x3ff) : Kind == Movrel::destination ? 0 : m0);
  const u64 destination_index = d.reg + static_cast<u64>(Kind == Movrel::both_split ? ((m0 >> 16) & 0x3ff) : Kind == Movrel::source ? 0 : m0);
  const bool indexes_source = Kind != Movrel::destination;
  if ((indexes_source && a.kind == Operand::Kind::vgpr && source_index >= w.vgprs) || destination_index >= w.vgprs) {
    c.fault = Fault{"VGPR index (register + M0) past the wave's VGPRs", 0, -1};
    return false;
  }
  u32 result[64];
  for_active(w, [&](u32 lane) {
    result[lane] = indexes_source && a.kind == Operand::Kind::vgpr ? w.vgpr(static_cast<u32>(source_index), lane) : read_lane(w, a, lane);
  });
  for_active(w, [&](u32 lane) { w.vgpr(static_cast<u32>(destination_index), lane) = result[lane]; });
  return true;
}

struct Entry {
  std::string_view mnemonic;
  Handler handler;
};
const Entry kCrossLane[] = {
    {"v_permlane16_b32", permlane16<false>}, {"v_permlanex16_b32", permlane16<true>}, {"v_permlane64_b32", permlane64},
    {"ds_swizzle_b32", ds_swizzle},
    {"v_movrels_b32", movrel<Movrel::source>}, {"v_movreld_b32", movrel<Movrel::destination>},
    {"v_movrelsd_b32", movrel<Movrel::both>}, {"v_movrelsd_2_b32", movrel<Movrel::both_split>},
};

// Where src0 is among the printed operands: after the destinations. A v_cmpx has none; a v_cmp
// one (the mask); a carry form (v_add_co_u32 v, s, ...) two, the second an SGPR, which DPP's src0
// never is (it must be a VGPR).
std::size_t src0_index(const ParsedInstruction& p) {
  if (p.mnemonic.starts_with("v_cmpx_")) return 0;
  if (p.mnemonic.starts_with("v_cmp_")) return 1;
  return p.operands.size() > 1 && p.operands[1].kind != Operand::Kind::vgpr ? 2 : 1;
}

}  // namespace

Handler resolve_cross_lane(const ParsedInstruction& p, Step& step) {
  for (const auto& e : kCrossLane)
    if (e.mnemonic == p.mnemonic) {
      if (p.mnemonic.starts_with("v_permlane") && p.mnemonic != "v_permlane64_b32") step.accepts |= Accepts::op_sel;  // fi, bound_ctrl
      if (p.mnemonic == "ds_swizzle_b32") step.param = static_cast<u32>(p.modifiers.offset) & 0xffff;
      return e.handler;
    }
  return nullptr;
}

std::string wrap_dpp(const ParsedInstruction& p, Step& step, std::uint32_t scratch_vgpr) {
  const Modifiers& m = p.modifiers;
  if (!p.mnemonic.starts_with("v_") || p.mnemonic.starts_with("v_readlane") || p.mnemonic.starts_with("v_writelane") ||
      p.mnemonic.starts_with("v_readfirstlane"))
    return "not a VALU instruction DPP applies to";
  for (const auto& e : kCrossLane)
    if (e.handler == step.handler) return "DPP on " + p.mnemonic + " is not implemented";
  const std::size_t at = src0_index(p);
  if (at >= step.ops.size() || step.ops[at].kind != Operand::Kind::vgpr || step.ops[at].width != 1)
    return "src0 is not a 32-bit VGPR";
  auto route = std::make_shared<DppRoute>();
  for (u32 lane = 0; lane < 64; ++lane) {
    const int source = m.dpp8 ? static_cast<int>((lane & ~7u) | (m.dpp8_lanes[lane & 7] & 7)) : dpp16_source(m.dpp_ctrl_kind, m.dpp_value, lane);
    if (source == -2) return "unknown DPP control";
    route->source[lane] = static_cast<std::int8_t>(source);
    route->fetch[lane] = static_cast<std::uint8_t>(source >= 0 ? source : static_cast<int>(lane));
    if (source < 0) route->out_of_row |= 1ull << lane;
    const bool row_on = m.dpp8 || ((m.row_mask >> (lane / 16)) & 1);
    const bool bank_on = m.dpp8 || ((m.bank_mask >> ((lane / 4) & 3)) & 1);
    if (!row_on || !bank_on) route->enabled &= ~(1ull << lane);
  }
  route->zero_invalid = m.dpp8 || m.bound_ctrl;
  route->fetch_inactive = m.fetch_inactive;
  route->src0 = step.ops[at].reg;
  route->scratch = scratch_vgpr;
  const Operand first = step.ops.empty() ? Operand() : step.ops[0];
  route->keeps_exec = !p.mnemonic.starts_with("v_cmpx_") &&
                      !(first.kind == Operand::Kind::sgpr && (first.reg == encoding::exec_lo || first.reg == encoding::exec_hi));
  Step& inner = route->inner;
  inner.handler = step.handler;
  inner.instruction = step.instruction;
  inner.ops = step.ops;
  inner.ops[at].reg = static_cast<std::uint16_t>(scratch_vgpr);
  inner.mods = step.mods;
  inner.param = step.param;
  inner.param2 = step.param2;
  inner.accepts = step.accepts;
  step.handler = dpp;
  step.dpp = std::move(route);
  step.accepts |= Accepts::dpp;
  return {};
}

}  // namespace gpuport::emu
