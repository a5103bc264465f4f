// The gfx1100 functional model: a wave's registers (SGPRs, VGPRs, EXEC, VCC, SCC, M0), the
// workgroup's LDS, per-lane scratch, and global memory as a table of the runtime's allocations
// that every access is checked against. Instruction semantics (semantics_*.cc) are functions
// over this state; the interpreter (interpreter.h) runs prepared kernels on it.
#pragma once

#include <bit>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "amdgpu/decode.h"
#include "emu/operands.h"

namespace gpuport::emu {

// Flat addresses at or above these are LDS and scratch (the apertures src_shared_base and
// src_private_base report); they lie above x86-64's 47-bit user space, so they never alias host
// memory that global accesses use directly.
constexpr std::uint64_t kSharedAperture = 0x0001000000000000ull;
constexpr std::uint64_t kPrivateAperture = 0x0002000000000000ull;
constexpr std::uint64_t kApertureSize = 1ull << 32;

// Device memory as the runtime hands it out: host memory, each block registered here. Every
// global, scalar and flat access is checked against the table; an access outside every live
// block (or inside a freed one) is a fault, reported instead of touching host memory.
class AddressSpace {
 public:
  enum class Kind : std::uint8_t { device, host, kernarg, code_object, freed };
  struct Region {
    std::uint64_t base = 0, size = 0;
    Kind kind = Kind::device;
    std::string name;
  };
  void add(std::uint64_t base, std::uint64_t size, Kind kind, std::string name = {});
  // Marks a block freed (kept for use-after-free reports until the address is reused).
  void release(std::uint64_t base);
  void forget(std::uint64_t base);
  // The live region holding [address, address + bytes), or null.
  const Region* find(std::uint64_t address, std::uint64_t bytes) const;
  // The region nearest to `address` (live or freed), for fault reports.
  std::string describe_near(std::uint64_t address) const;
  // Every live region (not freed), in address order.
  std::vector<Region> live() const;

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, Region> regions_;
};

struct Fault {
  std::string message;  // what happened: "out-of-bounds global store of 4 bytes at 0x..."
  std::uint64_t address = 0;
  int lane = -1;
  bool timeout = false;  // the launch's --timeout, not the program: its diagnostic's code is kTimeoutCode
};
// The code of the diagnostic of a launch stopped by its timeout (where it stops depends on the
// machine's speed, not on the program).
inline constexpr const char* kTimeoutCode = "emu-timeout";

struct Step;
struct Wave;
struct Context;
struct DppRoute;  // semantics_dpp.cc
using Handler = bool (*)(Wave&, const Step&, Context&);

// One instruction ready to run: its handler, operands and modifiers, and the index of its
// branch target (branches) or of the next instruction.
struct Step {
  Handler handler = nullptr;
  const amdgpu::Instruction* instruction = nullptr;
  std::vector<Operand> ops;
  Modifiers mods;
  std::uint32_t param = 0, param2 = 0;  // family-specific (compare condition, data type, width)
  std::int64_t target = -1;             // branch target index
  // Fused runs (mark_fused_runs, lift_forms.h): on a run's first step the index of the step after
  // it; on its other steps run_interior, where neither tier ends a wave's turn.
  std::uint32_t run_end = 0;
  bool run_interior = false;
  // Modifiers the resolved handler honours (Accepts bits), set by the family that resolves the
  // instruction; any other modifier present refuses the instruction at preparation.
  std::uint32_t accepts = 0;
  std::unique_ptr<Step> vopd_x, vopd_y; // the halves of a VOPD pair (X first)
  // DPP16/DPP8 (semantics_dpp.cc): how each lane's src0 is fetched, and the instruction itself.
  std::shared_ptr<const DppRoute> dpp;
};

namespace Accepts {
constexpr std::uint32_t op_sel = 1, neg_lo_hi = 2, sext = 4, high16 = 8, dpp = 16, gds = 32;
// The family checked every modifier the parser kept by name (Modifiers::unknown): MUBUF/MIMG's
// offen, idxen, format:, dmask:, dim:, unorm, d16, a16, tfe, lwe.
constexpr std::uint32_t named_modifiers = 64;
}

struct Workgroup {
  std::array<std::uint32_t, 3> id{};
  std::vector<std::uint8_t> lds;
  // --memcheck: 1 for each LDS byte written in this workgroup (empty when not checking).
  std::vector<std::uint8_t> lds_written;
};

// --memcheck findings that do not stop the kernel (reads of LDS never written), counted per
// instruction with the first occurrence described; shared by the host threads of one dispatch.
struct MemcheckLog {
  struct Entry {
    std::uint64_t count = 0;
    std::string first;  // "4 bytes at LDS offset 0x40, lane 3 of wave 0 in workgroup (0, 0, 0)"
  };
  std::mutex mutex;
  std::map<const Step*, Entry> uninitialised_lds;
  void note(const Step* step, std::string first) {
    std::lock_guard lock(mutex);
    Entry& e = uninitialised_lds[step];
    if (e.count++ == 0) e.first = std::move(first);
  }
};

// The MODE register's float fields (RDNA3 ISA, hardware register MODE): FP_ROUND [3:0] (round
// mode of f32 in [1:0], of f16/f64 in [3:2]: 0 nearest even, 1 +inf, 2 -inf, 3 zero), FP_DENORM
// [7:4] (f32 in [5:4], f16/f64 in [7:6]: 3 keep denormals, 0 flush inputs and outputs), DX10_CLAMP
// [8], IEEE [9]. A wave starts with what its kernel descriptor asks for.
namespace mode {
constexpr std::uint32_t round32_shift = 0, round16_64_shift = 2, denorm32_shift = 4, denorm16_64_shift = 6;
constexpr std::uint32_t dx10_clamp = 1u << 8, ieee = 1u << 9;
inline bool keeps_denormals32(std::uint32_t m) { return ((m >> denorm32_shift) & 3) == 3; }
inline bool keeps_denormals16_64(std::uint32_t m) { return ((m >> denorm16_64_shift) & 3) == 3; }
}  // namespace mode

struct Wave {
  std::uint32_t size = 32;  // lanes
  std::array<std::uint32_t, 128> s{};
  bool scc = false;
  std::uint32_t mode = 0;  // the MODE register (namespace mode above)
  std::vector<std::uint32_t> v;  // [register * size + lane]
  std::uint32_t vgprs = 0;
  std::size_t pc = 0;            // index into the prepared steps
  bool done = false, at_barrier = false;
  bool yielded = false;  // gave the other waves of its workgroup a turn (s_sleep)
  // Set with done, at_barrier, yielded or at_gws: the interpreter's loop leaves the wave (one
  // check per instruction instead of four).
  bool leave = false;
  // Waiting at a global wave sync barrier or semaphore (ds_gws_*); cleared by the thread that
  // releases it, which may not be the one running the wave's workgroup.
  struct Flag {
    std::atomic<bool> value{false};
    Flag() = default;
    Flag(const Flag& o) : value(o.value.load()) {}
    Flag& operator=(const Flag& o) {
      value = o.value.load();
      return *this;
    }
    operator bool() const { return value.load(std::memory_order_acquire); }
    Flag& operator=(bool v) {
      value.store(v, std::memory_order_release);
      return *this;
    }
  } at_gws;
  std::uint32_t index_in_group = 0;
  Workgroup* group = nullptr;
  std::vector<std::uint8_t> scratch;  // [lane * scratch_per_lane + offset]
  std::uint32_t scratch_per_lane = 0;

  std::uint64_t exec() const {
    const std::uint64_t e = s[encoding::exec_lo] | static_cast<std::uint64_t>(s[encoding::exec_hi]) << 32;
    return size == 64 ? e : e & 0xffffffffull;
  }
  void set_exec(std::uint64_t e) {
    s[encoding::exec_lo] = static_cast<std::uint32_t>(e);
    s[encoding::exec_hi] = size == 64 ? static_cast<std::uint32_t>(e >> 32) : 0;
  }
  std::uint64_t vcc() const {
    const std::uint64_t m = s[encoding::vcc_lo] | static_cast<std::uint64_t>(s[encoding::vcc_hi]) << 32;
    return size == 64 ? m : m & 0xffffffffull;
  }
  std::uint32_t& vgpr(std::uint32_t reg, std::uint32_t lane) { return v[reg * size + lane]; }
  std::uint32_t vgpr(std::uint32_t reg, std::uint32_t lane) const { return v[reg * size + lane]; }
};

// Global wave sync (ds_gws_*): the hardware's barriers and semaphores across the workgroups of a
// dispatch, which cooperative groups' grid sync uses. The interpreter provides it (with every
// workgroup of the grid resident) to kernels that use it.
class GlobalWaveSync {
 public:
  virtual ~GlobalWaveSync() = default;
  enum class Op : std::uint8_t { init, barrier, sema_v, sema_p, sema_br, sema_release_all };
  // The wave performs `op` on resource `resource` with `value` (the first active lane's data);
  // returns whether the wave must wait (it sets the wave's at_gws then, cleared on release).
  virtual bool perform(Wave& w, Op op, std::uint32_t resource, std::uint32_t value) = 0;
};

struct Context {
  AddressSpace* memory = nullptr;
  std::uint64_t image_base = 0;  // host address of the code object's loaded image
  // Image address -> step index, for jumps by address (s_setpc_b64, s_swappc_b64).
  const std::unordered_map<std::uint64_t, std::uint32_t>* step_at = nullptr;
  std::optional<Fault> fault;
  // MSG_INTERRUPT (s_sendmsg): the host side of hostcalls (device printf, malloc), with M0.
  void (*interrupt)(void* user, std::uint32_t m0) = nullptr;
  void* interrupt_user = nullptr;
  GlobalWaveSync* gws = nullptr;
  // --memcheck: where findings go, and the instruction running (set only when checking).
  MemcheckLog* memcheck = nullptr;
  const Step* step = nullptr;
  bool reading_atomic = false;  // an atomic's access: it reads before it writes
  // The last live region a global access hit: regions do not change while a kernel runs, so
  // most accesses are checked without the address space's lock.
  std::uint64_t region_begin = 0, region_end = 0;
  // The JIT's per-step regions (begin, end pairs): each lifted global access checks its own
  // step's last region first, so that steps that read different buffers (a matrix product's two
  // inputs) do not evict each other's. Slots are shared by step number modulo their count.
  static constexpr unsigned kJitRegionSlots = 32;
  std::array<std::uint64_t, 2 * kJitRegionSlots> jit_regions{};
  std::uint64_t instructions = 0, lane_instructions = 0;
  std::uint64_t compiled_instructions = 0;  // of `instructions`, those the JIT's code ran
  // Of `instructions`, those already added to the kernel's count for the JIT's hot mode.
  std::uint64_t jit_reported = 0;
};

// Reading operands. Scalar: an SGPR (or pair), an inline constant, a literal, SCC, an aperture.
std::uint32_t read_scalar_slow(const Wave& w, const Operand& op);
std::uint64_t read_scalar64(const Wave& w, const Operand& op);
void write_scalar(Wave& w, const Operand& op, std::uint32_t value);
void write_scalar64(Wave& w, const Operand& op, std::uint64_t value);
// A lane mask in an SGPR (pair in wave64).
std::uint64_t read_mask(const Wave& w, const Operand& op);
void write_mask(Wave& w, const Operand& op, std::uint64_t mask);

// Vector sources as raw 32/64 bits per lane, and typed (inline float constants and input
// modifiers applied as the type needs them).
// Inline: these are the inner loop of every VALU instruction.
[[gnu::always_inline]] inline std::uint32_t read_scalar(const Wave& w, const Operand& op) {
  if (op.kind == Operand::Kind::sgpr) return op.reg == encoding::null ? 0 : w.s[op.reg];
  if (op.kind == Operand::Kind::int_const || op.kind == Operand::Kind::literal) return static_cast<std::uint32_t>(op.value);
  return read_scalar_slow(w, op);
}
[[gnu::always_inline]] inline std::uint32_t read_lane(const Wave& w, const Operand& op, std::uint32_t lane) {
  if (op.kind == Operand::Kind::vgpr) return w.v[op.reg * w.size + lane];
  return read_scalar(w, op);
}
[[gnu::always_inline]] inline std::uint64_t read_lane64(const Wave& w, const Operand& op, std::uint32_t lane) {
  if (op.kind == Operand::Kind::vgpr)
    return w.v[op.reg * w.size + lane] | static_cast<std::uint64_t>(w.v[(op.reg + 1) * w.size + lane]) << 32;
  return read_scalar64(w, op);
}
// Inline too: the f64 VALU instructions read it per lane and source (rocBLAS's DGEMM spent a
// third of its time in the call).
[[gnu::always_inline]] inline double read_f64(const Wave& w, const Operand& op, std::uint32_t lane) {
  std::uint64_t bits;
  if (op.kind == Operand::Kind::literal) bits = static_cast<std::uint64_t>(static_cast<std::uint32_t>(op.value)) << 32;
  else bits = read_lane64(w, op, lane);
  if (op.abs) bits &= ~(1ull << 63);
  if (op.neg) bits ^= 1ull << 63;
  return std::bit_cast<double>(bits);
}
std::uint16_t read_f16_bits(const Wave& w, const Operand& op, std::uint32_t lane, bool high = false);

inline std::uint32_t f32_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_f32(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline std::uint64_t f64_bits(double f) {
  std::uint64_t u;
  std::memcpy(&u, &f, 8);
  return u;
}
inline double bits_f64(std::uint64_t u) {
  double f;
  std::memcpy(&f, &u, 8);
  return f;
}

[[gnu::always_inline]] inline float read_f32(const Wave& w, const Operand& op, std::uint32_t lane) {
  std::uint32_t bits = op.kind == Operand::Kind::float_const ? f32_bits(static_cast<float>(op.fvalue)) : read_lane(w, op, lane);
  if (op.abs) bits &= 0x7fffffffu;
  if (op.neg) bits ^= 0x80000000u;
  return bits_f32(bits);
}

// Semantic families: each resolves a mnemonic (and its parsed operands) to a handler, filling
// the step's parameters; null when the family does not know the mnemonic.
Handler resolve_control(const ParsedInstruction& p, Step& step);
Handler resolve_scalar(const ParsedInstruction& p, Step& step);
Handler resolve_vector(const ParsedInstruction& p, Step& step);
Handler resolve_memory(const ParsedInstruction& p, Step& step);
Handler resolve_image(const ParsedInstruction& p, Step& step);  // MIMG, MUBUF, MTBUF
Handler resolve_packed(const ParsedInstruction& p, Step& step);  // 16-bit, packed, dot, WMMA
Handler vopd_handler(const Step& x, const Step& y);  // the VOPD pair's handler, once both halves are resolved
// semantics_dpp.cc: the cross-lane instructions (v_permlane16/x16/64, ds_swizzle) and VGPR-indexed
// moves (v_movrels/movreld/movrelsd); and DPP: wraps a resolved VALU step so that its src0 is
// read across lanes (scratch_vgpr: a VGPR the kernel does not use). An error when it cannot.
Handler resolve_cross_lane(const ParsedInstruction& p, Step& step);
std::string wrap_dpp(const ParsedInstruction& p, Step& step, std::uint32_t scratch_vgpr);



}  // namespace gpuport::emu
