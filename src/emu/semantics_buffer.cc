// Buffer instructions (MUBUF, MTBUF): loads, stores and atomics through a buffer resource (V#)
// in four SGPRs. Address (RDNA3 ISA 9.4.1): base + soffset + inst_offset + stride * index +
// voffset, with index from the VGPR address when idxen (plus the lane when ADD_TID_ENABLE) and
// voffset when offen. The V#'s OOB_SELECT chooses the range check; loads out of range return 0
// (1 in components whose DST_SEL is SEL_1), stores and atomics out of range are dropped; format
// loads/stores and atomics are checked as a whole, untyped B64/B96/B128 dword by dword. An
// access in range is then checked against the runtime's allocations like a global access.
#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <string_view>

#include "emu/semantics.h"
#include "emu/texels.h"

namespace gpuport::emu::texels {
namespace {

using namespace semantics;
namespace vsharp = descriptors::buffer;

// What a buffer instruction does (Step::param low byte) and its size or atomic kind (above).
enum Op : u32 { load_untyped, store_untyped, load_format, store_format, atomic };
// Untyped widths: bytes moved and where they go in the VGPR.
enum Untyped : u32 { w_u8, w_i8, w_u16, w_i16, w_b32, w_b64, w_b96, w_b128, w_d16_b16, w_d16_hi_b16, w_d16_u8, w_d16_hi_u8, w_d16_i8, w_d16_hi_i8 };
// Step::param2 flags.
constexpr u32 f_offen = 1, f_idxen = 2, f_tformat = 4, f_d16 = 8, f_d16_hi = 16, f_tfe = 32, f_wide = 64, f_returns = 128;
constexpr u32 format_shift = 8, components_shift = 16;

u32 untyped_bytes(u32 w) {
  switch (w) {
    case w_u8: case w_i8: case w_d16_u8: case w_d16_hi_u8: case w_d16_i8: case w_d16_hi_i8: return 1;
    case w_u16: case w_i16: case w_d16_b16: case w_d16_hi_b16: return 2;
    case w_b64: return 8;
    case w_b96: return 12;
    case w_b128: return 16;
    default: return 4;
  }
}

struct Resource {
  u64 base = 0;
  u32 stride = 0, num_records = 0, oob = 0;
  bool add_tid = false;
  const DataFormat* format = nullptr;
  std::array<std::uint8_t, 4> sel{};
};

// The V# in four SGPRs, or a fault for the fields the emulator does not model.
bool read_resource(Wave& w, Context& c, const Operand& srsrc, Resource& r) {
  u32 d[4];
  for (u32 i = 0; i < 4; ++i) d[i] = w.s[(srsrc.reg + i) & 127];
  r.base = vsharp::base_address(d);
  r.stride = vsharp::stride.get(d);
  r.num_records = vsharp::num_records.get(d);
  r.oob = vsharp::oob_select.get(d);
  r.add_tid = vsharp::add_tid_enable.get(d) != 0;
  r.format = &descriptors::data_format(vsharp::format.get(d));
  for (u32 i = 0; i < 4; ++i) r.sel[i] = static_cast<std::uint8_t>(vsharp::dst_sel[i].get(d));
  if (vsharp::swizzle_enable.get(d) != 0)
    return memory_fault(c, w, 0, r.base, "swizzled buffer resources (V# SWIZZLE_ENABLE) are not emulated");
  return true;
}

// ISA table "Buffer Out Of Bounds Selection". `offset` is inst_offset + voffset (+ stride * index
// for raw buffers); `soffset` narrows a raw buffer's range.
bool in_range(const Resource& r, u64 index, u64 offset, u64 payload, u64 soffset) {
  switch (r.oob) {
    case vsharp::structured: return index < r.num_records && offset + payload <= r.stride;
    case vsharp::index_only: return index < r.num_records;
    case vsharp::no_check: return r.num_records != 0;
    default: return soffset + offset + payload <= r.num_records;
  }
}

struct LaneAddress {
  u64 index = 0, offset = 0;  // offset: inst_offset + voffset
};

LaneAddress lane_address(const Wave& w, const Step& s, const Resource& r, u32 lane) {
  LaneAddress a;
  const Operand& vaddr = op(s, 1);
  u32 reg = vaddr.reg;
  if (s.param2 & f_idxen) a.index = w.vgpr(reg++, lane);
  if (s.param2 & f_offen) a.offset = w.vgpr(reg, lane);
  if (r.add_tid) a.index += lane;
  a.offset += static_cast<u64>(s.mods.offset);
  return a;
}

// The byte address of `extra` bytes past a lane's element, and whether that range is in bounds.
struct Access {
  u64 address;
  bool ok;
};
Access access(const Resource& r, const LaneAddress& a, u64 extra, u64 payload, u64 soffset) {
  const u64 record = static_cast<u64>(r.stride) * a.index;
  const bool raw = r.oob == vsharp::raw;
  const bool ok = in_range(r, a.index, (raw ? record : 0) + a.offset + extra, payload, soffset);
  return {r.base + soffset + record + a.offset + extra, ok};
}

std::uint8_t* pointer(Context& c, const Wave& w, u32 lane, u64 address, u64 bytes, bool write) {
  return static_cast<std::uint8_t*>(checked_global_pointer(c, w, lane, address, bytes, write));
}

// The instruction's data format: MTBUF's own, else the V#'s (and its selects, for MUBUF formats).
const DataFormat& format_of(const Step& s, const Resource& r, std::array<std::uint8_t, 4>& sel) {
  if (s.param2 & f_tformat) {
    sel = {descriptors::sel_x, descriptors::sel_y, descriptors::sel_z, descriptors::sel_w};
    return descriptors::data_format((s.param2 >> format_shift) & 0x7f);
  }
  sel = r.sel;
  return *r.format;
}

bool unbound(const Resource& r) { return r.format->number == 0; }  // FORMAT INVALID: no resource

// buffer_load_<width> vdata, vaddr|off, srsrc, soffset [idxen] [offen] [offset:N]
bool load_untyped_op(Wave& w, const Step& s, Context& c) {
  Resource r;
  if (!read_resource(w, c, op(s, 2), r)) return false;
  const u32 width = s.param >> 8, bytes = untyped_bytes(width);
  const u32 d = op(s, 0).reg;
  const u64 soffset = read_scalar(w, op(s, 3));
  return for_active_until(w, [&](u32 lane) {
    const LaneAddress a = lane_address(w, s, r, lane);
    std::uint8_t data[16] = {};
    // Each dword of a wider load is checked on its own; narrower ones as a whole.
    for (u32 at = 0; at < bytes; at += 4) {
      const u32 piece = bytes < 4 ? bytes : 4;
      const Access x = access(r, a, at, piece, soffset);
      if (!x.ok || unbound(r)) continue;
      const std::uint8_t* p = pointer(c, w, lane, x.address, piece, false);
      if (!p) return false;
      std::memcpy(data + at, p, piece);
    }
    u32& v = w.vgpr(d, lane);
    u16 h;
    std::memcpy(&h, data, 2);
    switch (width) {
      case w_u8: v = data[0]; break;
      case w_i8: v = static_cast<u32>(static_cast<i32>(static_cast<std::int8_t>(data[0]))); break;
      case w_u16: v = h; break;
      case w_i16: v = static_cast<u32>(static_cast<i32>(static_cast<std::int16_t>(h))); break;
      case w_d16_b16: v = (v & 0xffff0000u) | h; break;
      case w_d16_hi_b16: v = (v & 0xffffu) | u32(h) << 16; break;
      case w_d16_u8: v = (v & 0xffff0000u) | data[0]; break;
      case w_d16_hi_u8: v = (v & 0xffffu) | u32(data[0]) << 16; break;
      case w_d16_i8: v = (v & 0xffff0000u) | (static_cast<u32>(static_cast<std::int8_t>(data[0])) & 0xffffu); break;
      case w_d16_hi_i8: v = (v & 0xffffu) | static_cast<u32>(static_cast<std::int8_t>(data[0])) << 16; break;
      default:
        for (u32 i = 0; i < bytes / 4; ++i) std::memcpy(&w.vgpr(d + i, lane), data + 4 * i, 4);
    }
    if (s.param2 & f_tfe) w.vgpr(d + (bytes + 3) / 4, lane) = 0;  // resident: status 0
    return true;
  });
}

// buffer_store_<width> vdata, vaddr|off, srsrc, soffset ...
bool store_untyped_op(Wave& w, const Step& s, Context& c) {
  Resource r;
  if (!read_resource(w, c, op(s, 2), r)) return false;
  if (unbound(r)) return true;
  const u32 width = s.param >> 8, bytes = untyped_bytes(width);
  const u32 d = op(s, 0).reg;
  const u64 soffset = read_scalar(w, op(s, 3));
  return for_active_until(w, [&](u32 lane) {
    const LaneAddress a = lane_address(w, s, r, lane);
    std::uint8_t data[16];
    for (u32 i = 0; i < (bytes + 3) / 4; ++i) std::memcpy(data + 4 * i, &w.vgpr(d + i, lane), 4);
    if (width == w_d16_hi_b16 || width == w_d16_hi_u8) {  // from bits [31:16]
      data[0] = data[2];
      data[1] = data[3];
    }
    for (u32 at = 0; at < bytes; at += 4) {
      const u32 piece = bytes < 4 ? bytes : 4;
      const Access x = access(r, a, at, piece, soffset);
      if (!x.ok) continue;
      std::uint8_t* p = pointer(c, w, lane, x.address, piece, true);
      if (!p) return false;
      std::memcpy(p, data + at, piece);
    }
    return true;
  });
}

// buffer_load_[d16_[hi_]]format_<xyzw> / tbuffer_load_[d16_]format_<xyzw>
bool load_format_op(Wave& w, const Step& s, Context& c) {
  Resource r;
  if (!read_resource(w, c, op(s, 2), r)) return false;
  std::array<std::uint8_t, 4> sel;
  const DataFormat& f = format_of(s, r, sel);
  if (f.number != 0 && f.channels == 0)
    return memory_fault(c, w, 0, r.base, fmt::format("buffer data format {} is not emulated", f.name));
  const u32 n = (s.param2 >> components_shift) & 7;
  const bool d16 = s.param2 & f_d16, hi = s.param2 & f_d16_hi;
  const u32 d = op(s, 0).reg;
  const u64 soffset = read_scalar(w, op(s, 3));
  return for_active_until(w, [&](u32 lane) {
    const LaneAddress a = lane_address(w, s, r, lane);
    Values v{};
    const Access x = access(r, a, 0, f.bytes(), soffset);
    if (x.ok && f.number != 0) {
      const std::uint8_t* p = pointer(c, w, lane, x.address, f.bytes(), false);
      if (!p) return false;
      v = decode(f, p);
    }
    v = select(v, sel, f.number ? f : descriptors::data_format(22));
    for (u32 i = 0; i < n; ++i) {
      if (!d16) {
        w.vgpr(d + i, lane) = v[i];
        continue;
      }
      const auto h = to_d16(f, v[i]);
      if (!h) return memory_fault(c, w, lane, x.address, fmt::format("a D16 load of the 32-bit integer format {} is not emulated", f.name));
      u32& reg = w.vgpr(d + i / 2, lane);
      const bool upper = hi || (i & 1);
      reg = upper ? (reg & 0xffffu) | u32(*h) << 16 : (reg & 0xffff0000u) | *h;
    }
    if (s.param2 & f_tfe) w.vgpr(d + (d16 ? (n + 1) / 2 : n), lane) = 0;
    return true;
  });
}

// buffer_store_[d16_[hi_]]format_<xyzw> / tbuffer_store_[d16_]format_<xyzw>
bool store_format_op(Wave& w, const Step& s, Context& c) {
  Resource r;
  if (!read_resource(w, c, op(s, 2), r)) return false;
  std::array<std::uint8_t, 4> sel;
  const DataFormat& f = format_of(s, r, sel);
  if (f.number == 0) return true;  // unbound
  if (f.channels == 0) return memory_fault(c, w, 0, r.base, fmt::format("buffer data format {} is not emulated", f.name));
  if (!identity_select(sel, f))
    return memory_fault(c, w, 0, r.base, "a format store through a V# whose DST_SEL is not the identity is not emulated");
  const u32 n = (s.param2 >> components_shift) & 7;
  const bool d16 = s.param2 & f_d16, hi = s.param2 & f_d16_hi;
  const u32 d = op(s, 0).reg;
  const u64 soffset = read_scalar(w, op(s, 3));
  return for_active_until(w, [&](u32 lane) {
    Values v{};
    for (u32 i = 0; i < n; ++i) {
      if (!d16) {
        v[i] = w.vgpr(d + i, lane);
        continue;
      }
      const u32 reg = w.vgpr(d + i / 2, lane);
      v[i] = from_d16(f, static_cast<u16>(hi || (i & 1) ? reg >> 16 : reg));
    }
    const Access x = access(r, lane_address(w, s, r, lane), 0, f.bytes(), soffset);
    if (!x.ok) return true;
    std::uint8_t* p = pointer(c, w, lane, x.address, f.bytes(), true);
    if (!p) return false;
    if (!encode(f, v, p)) return memory_fault(c, w, lane, x.address, fmt::format("stores to the data format {} are not emulated", f.name));
    return true;
  });
}

// buffer_atomic_<op> vdata, vaddr|off, srsrc, soffset ... [glc]: glc returns the old value in vdata.
bool atomic_op(Wave& w, const Step& s, Context& c) {
  Resource r;
  if (!read_resource(w, c, op(s, 2), r)) return false;
  const int kind = static_cast<int>(s.param >> 8);
  const bool wide = s.param2 & f_wide, returns = s.param2 & f_returns;
  const bool cmpswap = s.param2 & (1u << components_shift);
  const u32 bytes = wide ? 8 : 4;
  const u32 d = op(s, 0).reg;
  const u64 soffset = read_scalar(w, op(s, 3));
  return for_active_until(w, [&](u32 lane) {
    const Access x = access(r, lane_address(w, s, r, lane), 0, bytes, soffset);
    u64 old = 0;
    if (x.ok && !unbound(r)) {
      std::uint8_t* p = pointer(c, w, lane, x.address, bytes, true);
      if (!p) return false;
      if (wide) {
        const u64 data = w.vgpr(d, lane) | u64(w.vgpr(d + 1, lane)) << 32;
        const u64 cmp = cmpswap ? w.vgpr(d + 2, lane) | u64(w.vgpr(d + 3, lane)) << 32 : 0;
        old = global_atomic64(p, kind, data, cmp);
      } else {
        old = global_atomic32(p, kind, w.vgpr(d, lane), cmpswap ? w.vgpr(d + 1, lane) : 0);
      }
    }
    if (returns) {
      w.vgpr(d, lane) = static_cast<u32>(old);
      if (wide) w.vgpr(d + 1, lane) = static_cast<u32>(old >> 32);
    }
    return true;
  });
}

u32 components(std::string_view xyzw) { return xyzw == "x" ? 1 : xyzw == "xy" ? 2 : xyzw == "xyz" ? 3 : xyzw == "xyzw" ? 4 : 0; }

}  // namespace

Handler resolve_buffer(const ParsedInstruction& p, Step& step) {
  const std::string_view m = p.mnemonic;
  const bool typed = m.starts_with("tbuffer_");
  if (!typed && !m.starts_with("buffer_")) return nullptr;
  std::string_view rest = m.substr(typed ? 8 : 7);
  if (rest.starts_with("gl0_inv") || rest.starts_with("gl1_inv") || rest.starts_with("load_lds")) return nullptr;
  // implements() asks with the mnemonic alone: no operands, no modifiers to check.
  const bool by_name = p.operands.empty();
  const MemoryModifiers mm = memory_modifiers(p.modifiers);
  if (!by_name) {
    if (!mm.error.empty() || mm.dmask || mm.has_dim || mm.unorm || mm.a16 || mm.lwe || mm.d16 || mm.has_format != typed) return nullptr;
    if (p.operands.size() != 4 || p.operands[2].kind != Operand::Kind::sgpr || p.operands[2].width != 4) return nullptr;
    const Operand& vaddr = p.operands[1];
    const u32 address_regs = (mm.offen ? 1u : 0u) + (mm.idxen ? 1u : 0u);
    if (address_regs == 0 ? vaddr.kind != Operand::Kind::off : vaddr.kind != Operand::Kind::vgpr || vaddr.width != address_regs) return nullptr;
  }
  step.param2 = (mm.offen ? f_offen : 0) | (mm.idxen ? f_idxen : 0) | (mm.tfe ? f_tfe : 0);
  if (typed && !by_name) {
    if (descriptors::data_format(mm.format).channels == 0) return nullptr;
    step.param2 |= f_tformat | mm.format << format_shift;
  }
  step.accepts = Accepts::named_modifiers;
  // Format loads and stores: [d16_[hi_]]format_<xyzw>.
  for (std::string_view dir : {"load_", "store_"}) {
    if (!rest.starts_with(dir)) continue;
    std::string_view f = rest.substr(dir.size());
    u32 d16 = 0;
    if (f.starts_with("d16_hi_")) d16 = f_d16 | f_d16_hi, f.remove_prefix(7);
    else if (f.starts_with("d16_")) d16 = f_d16, f.remove_prefix(4);
    if (f.starts_with("format_")) {
      const u32 n = components(f.substr(7));
      if (!n || ((d16 & f_d16_hi) && n != 1)) return nullptr;
      step.param2 |= d16 | n << components_shift;
      if (dir == "load_") return load_format_op;
      if (mm.tfe) return nullptr;
      return store_format_op;
    }
  }
  if (typed) return nullptr;
  static constexpr std::pair<std::string_view, u32> loads[] = {
      {"load_u8", w_u8}, {"load_i8", w_i8}, {"load_u16", w_u16}, {"load_i16", w_i16}, {"load_b32", w_b32}, {"load_b64", w_b64},
      {"load_b96", w_b96}, {"load_b128", w_b128}, {"load_d16_b16", w_d16_b16}, {"load_d16_hi_b16", w_d16_hi_b16},
      {"load_d16_u8", w_d16_u8}, {"load_d16_hi_u8", w_d16_hi_u8}, {"load_d16_i8", w_d16_i8}, {"load_d16_hi_i8", w_d16_hi_i8}};
  static constexpr std::pair<std::string_view, u32> stores[] = {
      {"store_b8", w_u8}, {"store_b16", w_u16}, {"store_b32", w_b32}, {"store_b64", w_b64}, {"store_b96", w_b96}, {"store_b128", w_b128},
      {"store_d16_hi_b8", w_d16_hi_u8}, {"store_d16_hi_b16", w_d16_hi_b16}};
  for (const auto& [name, width] : loads)
    if (rest == name) return step.param = load_untyped | width << 8, load_untyped_op;
  for (const auto& [name, width] : stores)
    if (rest == name && !mm.tfe) return step.param = store_untyped | width << 8, store_untyped_op;
  if (rest.starts_with("atomic_") && !mm.tfe) {
    const int kind = atomic_kind(rest.substr(7));
    if (kind < 0) return nullptr;
    step.param = atomic | static_cast<u32>(kind) << 8;
    if (rest.ends_with("64")) step.param2 |= f_wide;
    if (rest.starts_with("atomic_cmpswap")) step.param2 |= 1u << components_shift;
    if (p.modifiers.glc) step.param2 |= f_returns;
    return atomic_op;
  }
  return nullptr;
}

}  // namespace gpuport::emu::texels
