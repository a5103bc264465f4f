// Memory: scalar loads (SMEM), global/flat/scratch loads, stores and atomics, and LDS (DS). A
// functional model completes each access at once, so s_waitcnt has nothing to wait for. Every
// global and flat access is checked against the runtime's allocation table (AddressSpace);
// atomics on global memory are host atomics, since workgroups run on several host threads.
#include <atomic>
#include <algorithm>
#include <bit>
#include <cmath>
#include <fmt/format.h>
#include <string>
#include <string_view>

#include "emu/lift_forms.h"
#include "emu/semantics.h"

namespace gpuport::emu {
namespace {

using namespace semantics;

bool fault(Context& c, const Wave& w, u32 lane, u64 address, std::string message) {
  (void)w;
  Fault f;
  f.address = address;
  f.lane = static_cast<int>(lane);
  f.message = std::move(message);
  c.fault = std::move(f);
  return false;
}

// Host pointer for a global access of `bytes` at `address`, or a fault.
void* global_pointer(Context& c, const Wave& w, u32 lane, u64 address, u64 bytes, bool write) {
  if (address >= c.region_begin && address + bytes <= c.region_end && address + bytes >= address)
    return reinterpret_cast<void*>(address);
  const AddressSpace::Region* r = c.memory->find(address, bytes);
  if (r) {
    c.region_begin = r->base;
    c.region_end = r->base + r->size;
  }
  if (!r) {
    fault(c, w, lane, address,
          fmt::format("invalid global {} of {} bytes at {:#x}: {}", write ? "write" : "read", bytes, address,
                      c.memory->describe_near(address)));
    return nullptr;
  }
  return reinterpret_cast<void*>(address);
}

// --initcheck: a read (or the read half of an atomic: `write` is true for those too, so atomics
// are checked here by the caller passing them through check_lds_initialised before the write
// marks them) of LDS bytes this workgroup never wrote is logged; a write marks the bytes.
void check_lds_initialised(Context& c, Wave& w, u32 lane, u64 address, u64 bytes, bool write) {
  auto& written = w.group->lds_written;
  if (!write || c.reading_atomic) {
    for (u64 i = 0; i < bytes; ++i)
      if (!written[address + i]) {
        if (c.memcheck)
          c.memcheck->note(c.step, fmt::format("{} bytes at LDS offset {:#x}, lane {} of wave {} in workgroup ({}, {}, {})", bytes, address, lane,
                                               w.index_in_group, w.group->id[0], w.group->id[1], w.group->id[2]));
        break;
      }
  }
  if (write) std::fill_n(written.begin() + static_cast<std::ptrdiff_t>(address), bytes, std::uint8_t{1});
}

// A flat or global address: the LDS and scratch apertures, or global memory.
std::uint8_t* resolve_address(Context& c, Wave& w, u32 lane, u64 address, u64 bytes, bool write, int space) {
  if (space == 0 && address >= kSharedAperture && address < kSharedAperture + kApertureSize) {
    address -= kSharedAperture;
    space = 1;
  } else if (space == 0 && address >= kPrivateAperture && address < kPrivateAperture + kApertureSize) {
    address -= kPrivateAperture;
    space = 2;
  }
  if (space == 1) {
    auto& lds = w.group->lds;
    if (address > lds.size() || bytes > lds.size() - address) {
      fault(c, w, lane, address, fmt::format("LDS {} of {} bytes at offset {:#x} outside the workgroup's {} bytes of LDS",
                                             write ? "write" : "read", bytes, address, lds.size()));
      return nullptr;
    }
    if (!w.group->lds_written.empty()) [[unlikely]]
      check_lds_initialised(c, w, lane, address, bytes, write);
    return lds.data() + address;
  }
  if (space == 2) {
    if (address > w.scratch_per_lane || bytes > w.scratch_per_lane - address) {
      fault(c, w, lane, address, fmt::format("scratch {} of {} bytes at offset {:#x} outside the lane's {} bytes", write ? "write" : "read",
                                             bytes, address, w.scratch_per_lane));
      return nullptr;
    }
    return w.scratch.data() + static_cast<u64>(lane) * w.scratch_per_lane + address;
  }
  return static_cast<std::uint8_t*>(global_pointer(c, w, lane, address, bytes, write));
}

// ---- SMEM ---------------------------------------------------------------------------------------
// s_load_b<32*N> sdst, sbase, soffset-or-immediate [offset:imm]
template <int Dwords, bool Buffer>
bool s_load(Wave& w, const Step& s, Context& c) {
  u64 base;
  if (Buffer) base = read_scalar64(w, op(s, 1)) & 0xffffffffffffull;
  else base = read_scalar64(w, op(s, 1));
  const Operand& off = op(s, 2);
  u64 address = base + static_cast<u64>(s.mods.offset);
  if (off.kind == Operand::Kind::sgpr) address += read_scalar(w, off);
  else if (off.kind == Operand::Kind::int_const || off.kind == Operand::Kind::literal) address += static_cast<u64>(off.value);
  const void* p = global_pointer(c, w, 0, address, 4u * Dwords, false);
  if (!p) return false;
  std::uint32_t values[16];
  std::memcpy(values, p, 4u * Dwords);
  for (int i = 0; i < Dwords; ++i) w.s[(op(s, 0).reg + i) & 127] = values[i];
  return true;
}

// ---- global / flat / scratch ---------------------------------------------------------------------
// Width codes: 1 u8, 2 i8, 3 u16, 4 i16, 5 b32 ... by dwords; d16 forms load into a half.
enum Width : std::uint8_t { u8 = 1, i8, u16, i16, b32, b64, b96, b128, d16_b16, d16_hi_b16, d16_u8, d16_hi_u8, d16_i8, d16_hi_i8 };

u32 bytes_of(u32 width) {
  switch (width) {
    case u8: case i8: case d16_u8: case d16_hi_u8: case d16_i8: case d16_hi_i8: return 1;
    case u16: case i16: case d16_b16: case d16_hi_b16: return 2;
    case b32: return 4;
    case b64: return 8;
    case b96: return 12;
    default: return 16;
  }
}

// One lane's load of `width` bytes at p into VGPR `reg` (and up), extended or into a 16-bit half
// as the width says; and the store of the same.
void load_into(Wave& w, u32 reg, u32 lane, u32 width, const std::uint8_t* p) {
  u32& out = w.vgpr(reg, lane);
  std::uint16_t h;
  switch (width) {
    case u8: out = *p; break;
    case i8: out = u32(i32(std::int8_t(*p))); break;
    case u16: std::memcpy(&h, p, 2); out = h; break;
    case i16: std::memcpy(&h, p, 2); out = u32(i32(std::int16_t(h))); break;
    case d16_b16: std::memcpy(&h, p, 2); out = (out & 0xffff0000u) | h; break;
    case d16_hi_b16: std::memcpy(&h, p, 2); out = (out & 0xffffu) | u32(h) << 16; break;
    case d16_u8: out = (out & 0xffff0000u) | *p; break;
    case d16_hi_u8: out = (out & 0xffffu) | u32(*p) << 16; break;
    case d16_i8: out = (out & 0xffff0000u) | (u32(i32(std::int8_t(*p))) & 0xffff); break;
    case d16_hi_i8: out = (out & 0xffffu) | u32(i32(std::int8_t(*p))) << 16; break;
    default:
      for (u32 i = 0; i < bytes_of(width) / 4; ++i) std::memcpy(&w.vgpr(reg + i, lane), p + 4 * i, 4);
  }
}

void store_from(const Wave& w, u32 reg, u32 lane, u32 width, std::uint8_t* p) {
  const u32 v = w.vgpr(reg, lane);
  switch (width) {
    case u8: *p = static_cast<std::uint8_t>(v); break;
    case d16_hi_u8: *p = static_cast<std::uint8_t>(v >> 16); break;
    case u16: { const std::uint16_t h = static_cast<std::uint16_t>(v); std::memcpy(p, &h, 2); break; }
    case d16_hi_b16: { const std::uint16_t h = static_cast<std::uint16_t>(v >> 16); std::memcpy(p, &h, 2); break; }
    default:
      for (u32 i = 0; i < bytes_of(width) / 4; ++i) {
        const u32 x = w.vgpr(reg + i, lane);
        std::memcpy(p + 4 * i, &x, 4);
      }
  }
}

// Per-lane address of a global (space 0 via saddr or 64-bit vaddr), flat (space 0, 64-bit
// vaddr) or scratch (space 2) access. `vaddr` and `saddr` operand positions depend on the form.
u64 lane_address(const Wave& w, const Step& s, u32 lane, const Operand& vaddr, const Operand& saddr, int space) {
  if (space == 2) {
    u64 a = static_cast<u64>(static_cast<i64>(s.mods.offset));
    if (vaddr.kind == Operand::Kind::vgpr) a += w.vgpr(vaddr.reg, lane);
    if (saddr.kind == Operand::Kind::sgpr) a += read_scalar(w, saddr);
    return a & 0xffffffffull;
  }
  if (saddr.kind == Operand::Kind::sgpr) return read_scalar64(w, saddr) + w.vgpr(vaddr.reg, lane) + static_cast<u64>(s.mods.offset);
  return read_lane64(w, vaddr, lane) + static_cast<u64>(s.mods.offset);
}

// loads: vdst, vaddr, saddr|off (global, scratch) or vdst, vaddr (flat); stores: vaddr, vdata,
// saddr|off or vaddr, vdata. Lane by lane, up to the first that faults.
template <int Space, bool Store>
bool vmem_access(Wave& w, const Step& s, Context& c) {
  const u32 width = s.param;
  const u32 n = bytes_of(width);
  const Operand& data = op(s, Store ? 1 : 0);
  const Operand& vaddr = op(s, Store ? 0 : 1);
  return for_active_until(w, [&](u32 lane) {
    const u64 address = lane_address(w, s, lane, vaddr, op(s, 2), Space == 3 ? 0 : Space);
    std::uint8_t* p = resolve_address(c, w, lane, address, n, Store, Space == 3 ? 0 : Space);
    if (!p) return false;
    if (Store) store_from(w, data.reg, lane, width, p);
    else load_into(w, data.reg, lane, width, p);
    return true;
  });
}
template <int Space>
constexpr Handler vmem_load = vmem_access<Space, false>;
template <int Space>
constexpr Handler vmem_store = vmem_access<Space, true>;

enum class At : std::uint8_t {
  swap, cmpswap, add, sub, smin, umin, smax, umax, and_, or_, xor_, inc, dec, add_f32, min_f32, max_f32, csub,
  rsub, mskor, wrap, min_f64, max_f64, cmpstore_f32, cmpstore_f64,
};

// Atomics with a second data operand (DATA2): compare-and-swap's compare value, mskor's value to
// or in (DATA is the mask), wrap's increment (DATA is the limit).
constexpr bool two_data(At a) { return a == At::cmpswap || a == At::mskor || a == At::wrap || a == At::cmpstore_f32 || a == At::cmpstore_f64; }

template <typename T>
T atomic_apply(At op, T old, T data, T cmp, bool& store) {
  store = true;
  using S = std::make_signed_t<T>;
  switch (op) {
    case At::swap: return data;
    case At::cmpswap: store = old == cmp; return data;
    case At::add: return old + data;
    case At::sub: return old - data;
    case At::smin: return S(old) < S(data) ? old : data;
    case At::umin: return old < data ? old : data;
    case At::smax: return S(old) > S(data) ? old : data;
    case At::umax: return old > data ? old : data;
    case At::and_: return old & data;
    case At::or_: return old | data;
    case At::xor_: return old ^ data;
    case At::inc: return old >= data ? 0 : old + 1;
    case At::dec: return (old == 0 || old > data) ? data : old - 1;
    case At::csub: return old >= data ? old - data : 0;
    case At::rsub: return data - old;
    case At::mskor: return (old & ~data) | cmp;
    case At::wrap: return old >= data ? old - data : old + cmp;
    default: return old;
  }
}

// One atomic on host memory (global: other host threads may run other workgroups) or on LDS
// (one thread per workgroup: plain read-modify-write). Returns the old value.
template <typename T>
T do_atomic(std::uint8_t* p, bool shared, At op, T data, T cmp) {
  if (op == At::min_f64 || op == At::max_f64 || op == At::cmpstore_f32 || op == At::cmpstore_f64) {
    // Read-modify-write by compare-exchange on the bits: the float comparison decides (a compare
    // store by float equality: -0 equals +0, NaN equals nothing).
    auto f = [&](T old_bits, bool& store) -> T {
      store = true;
      if constexpr (sizeof(T) == 8) {
        const double o = bits_f64(old_bits), d = bits_f64(data);
        if (op == At::min_f64) return f64_bits(std::fmin(o, d));
        if (op == At::max_f64) return f64_bits(std::fmax(o, d));
        store = o == bits_f64(cmp);
        return data;
      } else {
        store = bits_f32(static_cast<u32>(old_bits)) == bits_f32(static_cast<u32>(cmp));
        return data;
      }
    };
    if (!shared) {
      std::atomic_ref<T> a(*reinterpret_cast<T*>(p));
      T old = a.load();
      for (;;) {
        bool store = true;
        const T r = f(old, store);
        if (!store || a.compare_exchange_weak(old, r)) return old;
      }
    }
    T old;
    std::memcpy(&old, p, sizeof(T));
    bool store = true;
    const T r = f(old, store);
    if (store) std::memcpy(p, &r, sizeof(T));
    return old;
  }
  if (op == At::add_f32 || op == At::min_f32 || op == At::max_f32) {
    auto f = [&](u32 old_bits) {
      const float o = bits_f32(old_bits), d = bits_f32(static_cast<u32>(data));
      const float r = op == At::add_f32 ? o + d : op == At::min_f32 ? std::fmin(o, d) : std::fmax(o, d);
      return f32_bits(r);
    };
    if (!shared) {
      std::atomic_ref<u32> a(*reinterpret_cast<u32*>(p));
      u32 old = a.load();
      while (!a.compare_exchange_weak(old, f(old))) {
      }
      return static_cast<T>(old);
    }
    u32 old;
    std::memcpy(&old, p, 4);
    const u32 r = f(old);
    std::memcpy(p, &r, 4);
    return static_cast<T>(old);
  }
  if (!shared) {
    std::atomic_ref<T> a(*reinterpret_cast<T*>(p));
    switch (op) {  // the ones the host has a single instruction for
      case At::add: return a.fetch_add(data);
      case At::sub: return a.fetch_sub(data);
      case At::and_: return a.fetch_and(data);
      case At::or_: return a.fetch_or(data);
      case At::xor_: return a.fetch_xor(data);
      case At::swap: return a.exchange(data);
      case At::cmpswap: {
        T expected = cmp;
        a.compare_exchange_strong(expected, data);
        return expected;
      }
      default: break;
    }
    T old = a.load();
    for (;;) {
      bool store = true;
      const T r = atomic_apply<T>(op, old, data, cmp, store);
      if (!store) return old;
      if (a.compare_exchange_weak(old, r)) return old;
    }
  }
  T old;
  std::memcpy(&old, p, sizeof(T));
  bool store = true;
  const T r = atomic_apply<T>(op, old, data, cmp, store);
  if (store) std::memcpy(p, &r, sizeof(T));
  return old;
}

// global_atomic_<op> [vdst,] vaddr, vdata, saddr|off [glc]: glc returns the old value.
template <int Space, bool Wide>
bool vmem_atomic(Wave& w, const Step& s, Context& c) {
  const At kind = static_cast<At>(s.param);
  const bool returns = s.mods.glc;
  const std::size_t base = returns ? 1 : 0;
  const Operand& vaddr = op(s, base);
  const Operand& data = op(s, base + 1);
  const Operand& saddr = op(s, base + 2);
  const u32 n = Wide ? 8 : 4;
  return for_active_until(w, [&](u32 lane) {
    const u64 address = lane_address(w, s, lane, vaddr, saddr, Space == 3 ? 0 : Space);
    c.reading_atomic = true;
    std::uint8_t* p = resolve_address(c, w, lane, address, n, true, Space == 3 ? 0 : Space);
    c.reading_atomic = false;
    if (!p) return false;
    const bool shared = Space == 1 || (address >= kSharedAperture && address < kSharedAperture + kApertureSize) ||
                        (address >= kPrivateAperture && address < kPrivateAperture + kApertureSize);
    if (Wide) {
      const u64 d = w.vgpr(data.reg, lane) | u64(w.vgpr(data.reg + 1, lane)) << 32;
      const u64 cmp = kind == At::cmpswap ? (w.vgpr(data.reg + 2, lane) | u64(w.vgpr(data.reg + 3, lane)) << 32) : 0;
      const u64 old = do_atomic<u64>(p, shared, kind, d, cmp);
      if (returns) {
        write_lane64(w, op(s, 0).reg, lane, old);
      }
    } else {
      const u32 d = w.vgpr(data.reg, lane);
      const u32 cmp = kind == At::cmpswap ? w.vgpr(data.reg + 1, lane) : 0;
      const u32 old = do_atomic<u32>(p, shared, kind, d, cmp);
      if (returns) w.vgpr(op(s, 0).reg, lane) = old;
    }
    return true;
  });
}

// ---- global wave sync (ds_gws_*) -----------------------------------------------------------------
// ds_gws_<op> [vdata] [offset:N] gds: resource M0[21:16] + offset; the value is the first active
// lane's vdata (init: the count, barrier: waves to wait for minus one, sema_br: the release count).
bool ds_gws(Wave& w, const Step& s, Context& c) {
  if (!c.gws) {
    Fault f;
    f.message = "global wave sync (ds_gws_*) without a dispatch that provides it";
    c.fault = f;
    return false;
  }
  const u64 exec = w.exec();
  if (exec == 0) return true;
  const u32 first = static_cast<u32>(std::countr_zero(exec));
  const Operand& data = op(s, 0);
  const u32 value = data.kind == Operand::Kind::vgpr ? w.vgpr(data.reg, first) : 0;
  const u32 resource = ((w.s[encoding::m0] >> 16) & 0x3f) + static_cast<u32>(s.mods.offset);
  c.gws->perform(w, static_cast<GlobalWaveSync::Op>(s.param), resource, value);
  return true;
}

// ---- LDS (DS) -----------------------------------------------------------------------------------
// An LDS address is 32 bits: the address VGPR plus the instruction's offset wraps, so a negative
// register with a positive offset (clang's tile[255 - tid]: -4 * tid with offset:1020) is fine.
inline u64 lds_address(u32 vaddr, i64 offset) { return static_cast<u32>(vaddr + static_cast<u32>(offset)); }

[[gnu::always_inline]] inline std::uint8_t* lds_pointer(Context& c, Wave& w, u32 lane, u64 address, u64 bytes, bool write) {
  // Inside the LDS and not tracking what was written (--memcheck): the pointer, inline; the
  // rest (faults, the initialisation check) where every address space's is.
  auto& lds = w.group->lds;
  if (address <= lds.size() && bytes <= lds.size() - address && w.group->lds_written.empty()) [[likely]]
    return lds.data() + address;
  return resolve_address(c, w, lane, address, bytes, write, 1);
}

// ds_load_<w> vdst, vaddr [offset:N]
bool ds_load(Wave& w, const Step& s, Context& c) {
  const u32 width = s.param;
  const u32 n = bytes_of(width);
  const Operand& d = op(s, 0);
  return for_active_until(w, [&](u32 lane) {
    const u64 address = lds_address(w.vgpr(op(s, 1).reg, lane), s.mods.offset);
    std::uint8_t* p = lds_pointer(c, w, lane, address, n, false);
    if (!p) return false;
    load_into(w, d.reg, lane, width, p);
    return true;
  });
}

// ds_store_<w> vaddr, vdata [offset:N]
bool ds_store(Wave& w, const Step& s, Context& c) {
  const u32 width = s.param;
  const u32 n = bytes_of(width);
  const Operand& data = op(s, 1);
  return for_active_until(w, [&](u32 lane) {
    const u64 address = lds_address(w.vgpr(op(s, 0).reg, lane), s.mods.offset);
    std::uint8_t* p = lds_pointer(c, w, lane, address, n, true);
    if (!p) return false;
    store_from(w, data.reg, lane, width, p);
    return true;
  });
}

// ds_load_2addr[_stride64]_b32/b64 vdst, vaddr offset0:a offset1:b (offsets in elements,
// times 64 for stride64).
template <bool Store>
bool ds_2addr(Wave& w, const Step& s, Context& c) {
  const u32 element = s.param;  // 4 or 8
  const u32 stride = s.param2 ? 64 : 1;
  const u64 o0 = static_cast<u64>(s.mods.offset0) * element * stride, o1 = static_cast<u64>(s.mods.offset1) * element * stride;
  return for_active_until(w, [&](u32 lane) {
    const u64 a = Store ? w.vgpr(op(s, 0).reg, lane) : w.vgpr(op(s, 1).reg, lane);
    std::uint8_t* p0 = lds_pointer(c, w, lane, lds_address(static_cast<u32>(a), static_cast<i64>(o0)), element, Store);
    if (!p0) return false;
    std::uint8_t* p1 = lds_pointer(c, w, lane, lds_address(static_cast<u32>(a), static_cast<i64>(o1)), element, Store);
    if (!p1) return false;
    const u32 words = element / 4;
    if (Store) {
      const u32 d0 = op(s, 1).reg, d1 = op(s, 2).reg;
      for (u32 i = 0; i < words; ++i) {
        std::memcpy(p0 + 4 * i, &w.vgpr(d0 + i, lane), 4);
        std::memcpy(p1 + 4 * i, &w.vgpr(d1 + i, lane), 4);
      }
    } else {
      const u32 d = op(s, 0).reg;
      for (u32 i = 0; i < words; ++i) {
        std::memcpy(&w.vgpr(d + i, lane), p0 + 4 * i, 4);
        std::memcpy(&w.vgpr(d + words + i, lane), p1 + 4 * i, 4);
      }
    }
    return true;
  });
}

// ds_<op>[_rtn]_<type>: [vdst,] vaddr, vdata[, vdata1] [offset:N]
template <bool Returns, bool Wide>
bool ds_atomic(Wave& w, const Step& s, Context& c) {
  const At kind = static_cast<At>(s.param);
  const std::size_t base = Returns ? 1 : 0;
  return for_active_until(w, [&](u32 lane) {
    const u64 address = lds_address(w.vgpr(op(s, base).reg, lane), s.mods.offset);
    c.reading_atomic = true;
    std::uint8_t* p = lds_pointer(c, w, lane, address, Wide ? 8 : 4, true);
    c.reading_atomic = false;
    if (!p) return false;
    const Operand& data = op(s, base + 1);
    const Operand& data1 = op(s, base + 2);
    if (Wide) {
      const u64 d = w.vgpr(data.reg, lane) | u64(w.vgpr(data.reg + 1, lane)) << 32;
      const u64 cmp = two_data(kind) ? (w.vgpr(data1.reg, lane) | u64(w.vgpr(data1.reg + 1, lane)) << 32) : 0;
      const u64 old = do_atomic<u64>(p, true, kind, d, cmp);
      if (Returns) {
        write_lane64(w, op(s, 0).reg, lane, old);
      }
    } else {
      const u32 d = w.vgpr(data.reg, lane);
      const u32 cmp = two_data(kind) ? w.vgpr(data1.reg, lane) : 0;
      const u32 old = do_atomic<u32>(p, true, kind, d, cmp);
      if (Returns) w.vgpr(op(s, 0).reg, lane) = old;
    }
    return true;
  });
}

// ds_bpermute_b32 vdst, vaddr, vdata [offset]: each lane reads vdata of the lane that bits 6:2
// of (vaddr + offset) name; ds_permute_b32: each lane writes its vdata to that lane (the highest
// writer wins; a lane nobody writes gets 0). The RDNA3 guide's pseudocode takes the lane "MOD 32
// regardless of wave size" (lanes::permute_lane): in wave64 each half permutes within itself,
// which is how AMD's own compilers use it (LLPC's wave64 shuffle on gfx11: a ds_bpermute for a
// lane in the same half, v_permlane64 then ds_bpermute for the other half; LLVM's wave.shuffle
// lowering likewise). A source lane outside EXEC gives 0 (bpermute) or writes nothing (permute).
template <bool Backward>
bool ds_permute(Wave& w, const Step& s, Context&) {
  const u32 d = op(s, 0).reg, a = op(s, 1).reg, data = op(s, 2).reg;
  u32 result[64] = {};
  const u64 exec = w.exec();
  for (u64 e = exec; e; e &= e - 1) {
    const u32 lane = static_cast<u32>(std::countr_zero(e));
    const u32 other = lanes::permute_lane(lane, w.vgpr(a, lane) + static_cast<u32>(s.mods.offset));
    if (Backward) result[lane] = (exec >> other) & 1 ? w.vgpr(data, other) : 0;
    else result[other] = w.vgpr(data, lane);
  }
  for (u64 e = exec; e; e &= e - 1) {
    const u32 lane = static_cast<u32>(std::countr_zero(e));
    w.vgpr(d, lane) = result[lane];
  }
  return true;
}

// Width from a mnemonic's last part: b32, b64, b96, b128, u8, i8, u16, i16, b8, b16, d16 forms.
int width_code(std::string_view m) {
  struct W {
    std::string_view suffix;
    int code;
  };
  static constexpr W widths[] = {
      {"_d16_hi_b16", d16_hi_b16}, {"_d16_b16", d16_b16}, {"_d16_hi_u8", d16_hi_u8}, {"_d16_u8", d16_u8},
      {"_d16_hi_i8", d16_hi_i8}, {"_d16_i8", d16_i8}, {"_d16_hi_b8", d16_hi_u8},
      {"_b128", b128}, {"_b96", b96}, {"_b64", b64}, {"_b32", b32}, {"_u16", u16}, {"_i16", i16}, {"_b16", u16},
      {"_u8", u8}, {"_i8", i8}, {"_b8", u8},
  };
  for (const auto& x : widths)
    if (m.ends_with(x.suffix)) return x.code;
  return 0;
}

int atomic_code(std::string_view name) {  // "add_u32" -> At::add
  struct A {
    std::string_view name;
    At kind;
  };
  static constexpr A atomics[] = {
      {"swap_b32", At::swap}, {"swap_b64", At::swap}, {"cmpswap_b32", At::cmpswap}, {"cmpswap_b64", At::cmpswap},
      {"cmpstore_b32", At::cmpswap}, {"cmpstore_b64", At::cmpswap}, {"storexchg_rtn_b32", At::swap}, {"storexchg_rtn_b64", At::swap},
      {"add_u32", At::add}, {"add_u64", At::add}, {"sub_u32", At::sub}, {"sub_u64", At::sub},
      {"min_i32", At::smin}, {"min_i64", At::smin}, {"min_u32", At::umin}, {"min_u64", At::umin},
      {"max_i32", At::smax}, {"max_i64", At::smax}, {"max_u32", At::umax}, {"max_u64", At::umax},
      {"and_b32", At::and_}, {"and_b64", At::and_}, {"or_b32", At::or_}, {"or_b64", At::or_},
      {"xor_b32", At::xor_}, {"xor_b64", At::xor_}, {"inc_u32", At::inc}, {"inc_u64", At::inc},
      {"dec_u32", At::dec}, {"dec_u64", At::dec}, {"add_f32", At::add_f32}, {"min_f32", At::min_f32},
      {"max_f32", At::max_f32}, {"csub_u32", At::csub}, {"storexchg_b32", At::swap}, {"storexchg_b64", At::swap},
      {"rsub_u32", At::rsub}, {"rsub_u64", At::rsub}, {"mskor_b32", At::mskor}, {"mskor_b64", At::mskor},
      {"wrap_b32", At::wrap}, {"min_f64", At::min_f64}, {"max_f64", At::max_f64},
      {"cmpstore_f32", At::cmpstore_f32}, {"cmpstore_f64", At::cmpstore_f64},
  };
  for (const auto& a : atomics)
    if (a.name == name) return static_cast<int>(a.kind);
  return -1;
}

}  // namespace

Handler resolve_memory(const ParsedInstruction& p, Step& step) {
  const std::string_view m = p.mnemonic;
  if (m == "buffer_gl0_inv" || m == "buffer_gl1_inv" || m == "s_gl1_inv" || m == "s_dcache_inv") return nop;
  // SMEM
  if (m.starts_with("s_load_b") || m.starts_with("s_buffer_load_b")) {
    const bool buffer = m.starts_with("s_buffer");
    const std::string_view n = m.substr(buffer ? 15 : 8);
    if (n == "32") return buffer ? s_load<1, true> : s_load<1, false>;
    if (n == "64") return buffer ? s_load<2, true> : s_load<2, false>;
    if (n == "128") return buffer ? s_load<4, true> : s_load<4, false>;
    if (n == "256") return buffer ? s_load<8, true> : s_load<8, false>;
    if (n == "512") return buffer ? s_load<16, true> : s_load<16, false>;
    return nullptr;
  }
  // global / flat / scratch
  for (auto [prefix, space] : {std::pair<std::string_view, int>{"global_", 0}, {"flat_", 3}, {"scratch_", 2}}) {
    if (!m.starts_with(prefix)) continue;
    const std::string_view rest = m.substr(prefix.size());
    const int w = width_code(m);
    if (rest.starts_with("load_") && w) {
      step.param = static_cast<std::uint32_t>(w);
      return space == 0 ? vmem_load<0> : space == 3 ? vmem_load<3> : vmem_load<2>;
    }
    if (rest.starts_with("store_") && w) {
      if (w == i8 || w == i16) return nullptr;
      step.param = static_cast<std::uint32_t>(w);
      return space == 0 ? vmem_store<0> : space == 3 ? vmem_store<3> : vmem_store<2>;
    }
    if (rest.starts_with("atomic_") && space != 2) {
      const int kind = atomic_code(rest.substr(7));
      if (kind < 0) return nullptr;
      step.param = static_cast<std::uint32_t>(kind);
      const bool wide = rest.ends_with("64");
      if (space == 0) return wide ? vmem_atomic<0, true> : vmem_atomic<0, false>;
      return wide ? vmem_atomic<3, true> : vmem_atomic<3, false>;
    }
    return nullptr;
  }
  // DS
  if (m.starts_with("ds_gws_")) {
    static constexpr std::pair<std::string_view, GlobalWaveSync::Op> gws[] = {
        {"init", GlobalWaveSync::Op::init},     {"barrier", GlobalWaveSync::Op::barrier}, {"sema_v", GlobalWaveSync::Op::sema_v},
        {"sema_p", GlobalWaveSync::Op::sema_p}, {"sema_br", GlobalWaveSync::Op::sema_br},
        {"sema_release_all", GlobalWaveSync::Op::sema_release_all}};
    for (const auto& [name, kind] : gws)
      if (m.substr(7) == name) {
        step.param = static_cast<std::uint32_t>(kind);
        step.accepts |= Accepts::gds;
        return ds_gws;
      }
    return nullptr;
  }
  if (m.starts_with("ds_")) {
    const std::string_view rest = m.substr(3);
    if (rest == "bpermute_b32") return ds_permute<true>;
    if (rest == "permute_b32") return ds_permute<false>;
    if (rest.starts_with("load_2addr") || rest.starts_with("store_2addr")) {
      step.param = rest.ends_with("b64") ? 8 : 4;
      step.param2 = rest.find("stride64") != std::string_view::npos ? 1 : 0;
      return rest.starts_with("load") ? ds_2addr<false> : ds_2addr<true>;
    }
    // The 16-bit-half forms: a byte or short into (or out of) the low or high half of the VGPR.
    static constexpr std::pair<std::string_view, int> halves[] = {
        {"load_u8_d16", d16_u8}, {"load_u8_d16_hi", d16_hi_u8}, {"load_i8_d16", d16_i8}, {"load_i8_d16_hi", d16_hi_i8},
        {"load_u16_d16", d16_b16}, {"load_u16_d16_hi", d16_hi_b16}, {"store_b8_d16_hi", d16_hi_u8}, {"store_b16_d16_hi", d16_hi_b16}};
    for (const auto& [name, code] : halves)
      if (rest == name) {
        step.param = static_cast<std::uint32_t>(code);
        return rest.starts_with("load") ? ds_load : ds_store;
      }
    if (rest == "nop") return nop;
    const int w = width_code(m);
    if (rest.starts_with("load_") && w) {
      step.param = static_cast<std::uint32_t>(w);
      return ds_load;
    }
    if (rest.starts_with("store_") && w) {
      step.param = static_cast<std::uint32_t>(w);
      return ds_store;
    }
    std::string_view name = rest;
    bool returns = false;
    if (const auto at = name.find("_rtn_"); at != std::string_view::npos) {
      returns = true;
      static thread_local std::string joined;
      joined = std::string(name.substr(0, at)) + "_" + std::string(name.substr(at + 5));
      name = joined;
    }
    const int kind = atomic_code(name);
    if (kind < 0) return nullptr;
    step.param = static_cast<std::uint32_t>(kind);
    const bool wide = name.ends_with("64");
    if (returns) return wide ? ds_atomic<true, true> : ds_atomic<true, false>;
    return wide ? ds_atomic<false, true> : ds_atomic<false, false>;
  }
  return nullptr;
}

LiftForm memory_lift_form(const Step& s) {
  using K = LiftForm::Kind;
  const std::uint32_t dwords = s.param >= b32 && s.param <= b128 ? s.param - b32 + 1 : 0;
  // flat_load/store (space 3) are global accesses whose address may fall in the LDS or private
  // aperture: the lifter's check of the region fails there, and its lookup resolves them.
  if ((s.handler == vmem_load<0> || s.handler == vmem_load<3>) && dwords) return {K::global_load, dwords};
  if ((s.handler == vmem_store<0> || s.handler == vmem_store<3>) && dwords) return {K::global_store, dwords};
  if (s.handler == ds_load && dwords) return {K::lds_load, dwords};
  if (s.handler == ds_store && dwords) return {K::lds_store, dwords};
  if ((s.handler == ds_2addr<false> || s.handler == ds_2addr<true>) && (s.param == 4 || s.param == 8)) {
    LiftForm f{s.handler == ds_2addr<false> ? K::lds_load2 : K::lds_store2, s.param / 4};
    f.wide = s.param2 != 0;
    return f;
  }
  if (s.handler == ds_permute<true>) return {K::lane_permute, 0};
  if (s.handler == s_load<1, false>) return {K::scalar_load, 1};
  if (s.handler == s_load<2, false>) return {K::scalar_load, 2};
  if (s.handler == s_load<4, false>) return {K::scalar_load, 4};
  if (s.handler == s_load<8, false>) return {K::scalar_load, 8};
  if (s.handler == s_load<16, false>) return {K::scalar_load, 16};
  return {};
}

// For the image and buffer families (semantics.h): the same checked global access, fault
// record and atomics.
void* semantics::checked_global_pointer(Context& c, const Wave& w, u32 lane, u64 address, u64 bytes, bool write) {
  return global_pointer(c, w, lane, address, bytes, write);
}
bool semantics::memory_fault(Context& c, const Wave& w, u32 lane, u64 address, std::string message) {
  return fault(c, w, lane, address, std::move(message));
}
int semantics::atomic_kind(std::string_view name) { return atomic_code(name); }
u32 semantics::global_atomic32(std::uint8_t* p, int kind, u32 data, u32 cmp) { return do_atomic<u32>(p, false, static_cast<At>(kind), data, cmp); }
u64 semantics::global_atomic64(std::uint8_t* p, int kind, u64 data, u64 cmp) { return do_atomic<u64>(p, false, static_cast<At>(kind), data, cmp); }

}  // namespace gpuport::emu
