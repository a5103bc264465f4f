// What the semantic families (semantics_scalar.cc, semantics_vector.cc, semantics_memory.cc)
// share: short integer names, operand access by printed position, and the loops over the lanes
// under EXEC.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "emu/lanes.h"
#include "emu/machine.h"

namespace gpuport::emu::semantics {

using lanes::i32;
using lanes::i64;
using lanes::u16;
using lanes::u32;
using lanes::u64;

// The i-th operand as printed (destinations first); an empty operand past the end.
inline const Operand& op(const Step& s, std::size_t i) {
  static const Operand none;
  return i < s.ops.size() ? s.ops[i] : none;
}

// A 64-bit value into the VGPR pair reg, reg + 1 of one lane.
inline void write_lane64(Wave& w, u32 reg, u32 lane, u64 value) {
  w.vgpr(reg, lane) = static_cast<u32>(value);
  w.vgpr(reg + 1, lane) = static_cast<u32>(value >> 32);
}

// f(lane) for every lane under EXEC. With every lane of the wave active (the common case) it is
// a counted loop, which the compiler can unroll and vectorize when f is simple.
template <typename F>
[[gnu::always_inline]] inline void for_active(const Wave& w, F&& f) {
  const u64 e = w.exec();
  if (e == (w.size == 64 ? ~0ull : 0xffffffffull)) {
    const u32 n = w.size;
    for (u32 lane = 0; lane < n; ++lane) f(lane);
    return;
  }
  for (u64 m = e; m; m &= m - 1) f(static_cast<u32>(std::countr_zero(m)));
}

// body(lane) for lanes [0, n) of a wave whose lanes are all active, as a loop the compiler
// vectorizes; built twice, for the baseline x86-64 the library targets and for AVX2 with FMA
// (variable shifts, 32-bit multiplies and fused multiply-add in vector registers), which the
// host's CPU picks once. body must be marked always_inline, and may only read lane `lane` of
// source columns that are the destination column itself or disjoint from it (VGPR columns never
// partly overlap), so no lane depends on another.
bool host_has_avx2_fma();
// "No lane depends on another", for GCC (the release build). clang (the fuzz build, with ASan)
// gets no hint: it cannot vectorize instrumented loops and would warn that it did not.
#if defined(__clang__)
#define GPUPORT_LANES_INDEPENDENT
#else
#define GPUPORT_LANES_INDEPENDENT _Pragma("GCC ivdep")
#endif
template <typename F>
void full_wave_baseline(const F& body, u32 n) {
  GPUPORT_LANES_INDEPENDENT
  for (u32 lane = 0; lane < n; ++lane) body(lane);
}
template <typename F>
__attribute__((target("avx2,fma"))) void full_wave_avx2(const F& body, u32 n) {
  GPUPORT_LANES_INDEPENDENT
  for (u32 lane = 0; lane < n; ++lane) body(lane);
}
template <typename F>
[[gnu::always_inline]] inline void for_full_wave(u32 n, const F& body) {
  if (host_has_avx2_fma()) full_wave_avx2(body, n);
  else full_wave_baseline(body, n);
}
[[gnu::always_inline]] inline bool all_lanes_active(const Wave& w) { return w.exec() == (w.size == 64 ? ~0ull : 0xffffffffull); }

// The same, stopping at the first lane for which f returns false (a memory fault).
template <typename F>
[[gnu::always_inline]] inline bool for_active_until(const Wave& w, F&& f) {
  for (u64 e = w.exec(); e; e &= e - 1)
    if (!f(static_cast<u32>(std::countr_zero(e)))) return false;
  return true;
}

// The handler of every instruction that changes nothing the emulator keeps (waits, hints, cache
// invalidations): one function, so that the lifter knows each of them as a no-op.
bool nop(Wave&, const Step&, Context&);

// Global memory for the families beyond semantics_memory.cc (defined there): the host pointer
// of a checked access (null after recording a fault that names the nearest allocation), a fault
// record, and host atomics by the memory family's atomic kind ("add_u32", "cmpswap_b64", ...;
// -1 for a name it does not know; cmpswap takes `cmp`).
void* checked_global_pointer(Context& c, const Wave& w, u32 lane, u64 address, u64 bytes, bool write);
bool memory_fault(Context& c, const Wave& w, u32 lane, u64 address, std::string message);
int atomic_kind(std::string_view name);
u32 global_atomic32(std::uint8_t* p, int kind, u32 data, u32 cmp);
u64 global_atomic64(std::uint8_t* p, int kind, u64 data, u64 cmp);

}  // namespace gpuport::emu::semantics
