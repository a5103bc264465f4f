// Program control beyond branches: calls and returns by address (s_getpc_b64/s_setpc_b64/
// s_swappc_b64/s_call_b64), traps (s_trap: a device-side abort, __builtin_trap, a failed
// assert), messages (s_sendmsg: the hostcall interrupt that device printf and malloc raise,
// VGPR deallocation; s_sendmsg_rtn), the MODE register and the other hardware registers
// (s_getreg/s_setreg, s_denorm_mode, s_round_mode), and s_sleep, at which a wave lets the other
// waves of its workgroup run.
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <string_view>

#include "emu/lift_forms.h"
#include "emu/semantics.h"

namespace gpuport::emu {
namespace {

using namespace semantics;

bool fault(Context& c, std::string message) {
  Fault f;
  f.message = std::move(message);
  c.fault = std::move(f);
  return false;
}

// Continues at the instruction at image address `target` (the interpreter then adds one).
bool jump(Wave& w, Context& c, u64 target) {
  const u64 address = target - c.image_base;
  auto it = c.step_at->find(address);
  if (target < c.image_base || it == c.step_at->end())
    return fault(c, fmt::format("a jump to {:#x}, which is no instruction of the code object", target));
  w.pc = static_cast<std::size_t>(it->second) - 1;
  return true;
}

u64 next_address(const Step& s, const Context& c) { return c.image_base + s.instruction->address + s.instruction->size; }

bool getpc(Wave& w, const Step& s, Context& c) {
  write_scalar64(w, op(s, 0), next_address(s, c));
  return true;
}

bool setpc(Wave& w, const Step& s, Context& c) { return jump(w, c, read_scalar64(w, op(s, 0))); }

// s_swappc_b64 sdst, ssrc: the return address into sdst, then to ssrc (read before the write:
// sdst and ssrc may be the same pair).
bool swappc(Wave& w, const Step& s, Context& c) {
  const u64 target = read_scalar64(w, op(s, 1));
  write_scalar64(w, op(s, 0), next_address(s, c));
  return jump(w, c, target);
}

// s_call_b64 sdst, label: the return address into sdst, then to the label (resolved when the
// kernel was prepared, like a branch).
bool call(Wave& w, const Step& s, Context& c) {
  write_scalar64(w, op(s, 0), next_address(s, c));
  w.pc = static_cast<std::size_t>(s.target) - 1;
  return true;
}

bool trap(Wave&, const Step& s, Context& c) {
  return fault(c, fmt::format("the kernel trapped (s_trap {}): a device-side abort, __builtin_trap() or a failed assert",
                              op(s, 0).value));
}

// v_illegal raises the illegal-instruction exception; code objects pad the space after a
// kernel's last instruction with it (rocBLAS's Tensile kernels do), which is never reached.
bool illegal(Wave&, const Step&, Context& c) {
  return fault(c, "the wave executed v_illegal (an illegal-instruction exception)");
}

bool halt(Wave&, const Step& s, Context& c) {
  return fault(c, fmt::format("the wave halted ({})", s.instruction->text));
}

// A functional model has no other waves on the SIMD to give the cycles to: the wave yields to
// the other waves of its workgroup (a spin-wait on another wave's flag then makes progress).
bool sleep(Wave& w, const Step&, Context&) {
  w.yielded = w.leave = true;
  return true;
}

// ---- messages ------------------------------------------------------------------------------------
enum Message : std::uint32_t { interrupt = 1, dealloc_vgprs = 19, rtn_get_doorbell = 128, rtn_get_ddid, rtn_get_tma, rtn_get_realtime, rtn_save_wave, rtn_get_tba };

struct NamedMessage {
  std::string_view name;
  Message id;
};
constexpr NamedMessage kMessages[] = {
    {"MSG_INTERRUPT", interrupt},        {"MSG_DEALLOC_VGPRS", dealloc_vgprs}, {"MSG_RTN_GET_DOORBELL", rtn_get_doorbell},
    {"MSG_RTN_GET_DDID", rtn_get_ddid},  {"MSG_RTN_GET_TMA", rtn_get_tma},     {"MSG_RTN_GET_REALTIME", rtn_get_realtime},
    {"MSG_RTN_GET_TBA", rtn_get_tba},
};

// "sendmsg(MSG_INTERRUPT)" -> the message, when it is one a compute kernel can send.
bool parse_message(const Modifiers& m, Message& out) {
  for (const auto& text : m.unknown) {
    if (!text.starts_with("sendmsg(")) continue;
    std::string_view name = std::string_view(text).substr(8);
    name = name.substr(0, name.find_first_of(",)"));
    for (const auto& n : kMessages)
      if (n.name == name) {
        out = n.id;
        return true;
      }
  }
  return false;
}

// MSG_INTERRUPT: the device side of a hostcall (printf, malloc) has put a packet in the hostcall
// buffer and rung the doorbell; the runtime's handler serves it now, so the wave finds its
// answer when it next looks. M0 carries the signal's event id.
bool send_interrupt(Wave& w, const Step&, Context& c) {
  if (c.interrupt) c.interrupt(c.interrupt_user, w.s[encoding::m0]);
  // A hostcall may have freed device memory (a large block's free): the regions this thread's
  // accesses remembered are forgotten, so that an access to it after is found freed.
  c.region_begin = c.region_end = 0;
  c.jit_regions.fill(0);
  return true;
}

// s_sendmsg_rtn_b32/b64 sdst, message. No trap handler is installed (TMA/TBA 0); the doorbell and
// dispatch ids of the one emulated queue are 0; REALTIME counts a 100 MHz clock.
template <bool Wide>
bool sendmsg_rtn(Wave& w, const Step& s, Context&) {
  u64 value = 0;
  if (s.param == rtn_get_realtime)
    value = static_cast<u64>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count()) / 10;
  if (Wide) write_scalar64(w, op(s, 0), value);
  else write_scalar(w, op(s, 0), static_cast<u32>(value));
  return true;
}

// ---- hardware registers ----------------------------------------------------------------------------
// hwreg(ID[, offset, size]) as LLVM prints it, by name or number.
struct HardwareRegister {
  u32 id = 0, offset = 0, size = 32;
};
enum HwReg : u32 { hw_mode = 1, hw_status = 2, hw_trapsts = 3, hw_gpr_alloc = 5, hw_lds_alloc = 6, hw_ib_sts = 7, hw_hw_id1 = 23, hw_hw_id2 = 24, hw_shader_cycles = 29 };

bool parse_hwreg(const Modifiers& m, HardwareRegister& out) {
  static constexpr std::pair<std::string_view, u32> names[] = {
      {"HW_REG_MODE", hw_mode},         {"HW_REG_STATUS", hw_status},   {"HW_REG_TRAPSTS", hw_trapsts},
      {"HW_REG_GPR_ALLOC", hw_gpr_alloc}, {"HW_REG_LDS_ALLOC", hw_lds_alloc}, {"HW_REG_IB_STS", hw_ib_sts},
      {"HW_REG_HW_ID1", hw_hw_id1},     {"HW_REG_HW_ID2", hw_hw_id2},   {"HW_REG_SHADER_CYCLES", hw_shader_cycles},
      {"HW_REG_SH_MEM_BASES", 15},      {"HW_REG_FLAT_SCR_LO", 20},     {"HW_REG_FLAT_SCR_HI", 21},
  };
  for (const auto& text : m.unknown) {
    if (!text.starts_with("hwreg(") || !text.ends_with(")")) continue;
    std::string_view inner = std::string_view(text).substr(6, text.size() - 7);
    std::string_view fields[3];
    int n = 0;
    while (n < 3) {
      const auto comma = inner.find(',');
      std::string_view f = inner.substr(0, comma);
      while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
      fields[n++] = f;
      if (comma == std::string_view::npos) break;
      inner.remove_prefix(comma + 1);
    }
    auto number = [](std::string_view f, u32& v) {
      char* end = nullptr;
      const std::string t(f);
      v = static_cast<u32>(std::strtoul(t.c_str(), &end, 0));
      return !t.empty() && end && *end == 0;
    };
    bool named = false;
    for (const auto& [name, id] : names)
      if (fields[0] == name) out.id = id, named = true;
    if (!named && !number(fields[0], out.id)) return false;
    if (n == 3 && (!number(fields[1], out.offset) || !number(fields[2], out.size))) return false;
    if (n == 2) return false;
    return out.size >= 1 && out.size <= 32 && out.offset + out.size <= 32;
  }
  return false;
}

u32 field_mask(const HardwareRegister& r) { return (r.size == 32 ? ~0u : ((1u << r.size) - 1)) << r.offset; }

// What a hardware register reads: MODE exactly; STATUS's SCC, EXECZ and VCCZ bits; HW_ID1 and
// HW_ID2 made up from the wave's place (the emulator has no CUs: an emulator-defined but stable
// placement); SHADER_CYCLES a 20-bit count of nanoseconds; LDS_ALLOC the workgroup's LDS in
// 64-dword blocks; registers a compute kernel has no business reading return 0.
u32 read_hwreg(const Wave& w, u32 id) {
  switch (id) {
    case hw_mode: return w.mode;
    case hw_status: return (w.scc ? 1u : 0u) | (w.exec() == 0 ? 1u << 9 : 0u) | (w.vcc() == 0 ? 1u << 10 : 0u);
    case hw_hw_id1: {
      const u32 group = w.group->id[0] + 7 * w.group->id[1] + 13 * w.group->id[2];
      return (w.index_in_group & 31) | ((w.index_in_group & 3) << 8) | ((group % 12) << 10) | (((group / 12) & 1) << 16) |
             (((group / 24) & 3) << 18);
    }
    case hw_hw_id2: return 0;
    case hw_lds_alloc: return static_cast<u32>((w.group->lds.size() + 255) / 256) << 12;
    case hw_shader_cycles:
      return static_cast<u32>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count()) &
             0xfffffu;
    default: return 0;
  }
}

// s_getreg_b32 sdst, hwreg(id, offset, size): the field, shifted down. step.param = id,
// param2 = offset | size << 8.
bool getreg(Wave& w, const Step& s, Context&) {
  const HardwareRegister r{s.param, s.param2 & 0xff, s.param2 >> 8};
  write_scalar(w, op(s, 0), (read_hwreg(w, r.id) & field_mask(r)) >> r.offset);
  return true;
}

// s_setreg_b32 hwreg(MODE, offset, size), ssrc / s_setreg_imm32_b32 hwreg(...), imm: only MODE is
// writable by a kernel here (others are refused when the kernel is prepared).
bool setreg(Wave& w, const Step& s, Context&) {
  const HardwareRegister r{s.param, s.param2 & 0xff, s.param2 >> 8};
  const u32 value = read_scalar(w, op(s, 0));
  w.mode = (w.mode & ~field_mask(r)) | ((value << r.offset) & field_mask(r));
  return true;
}

// s_denorm_mode imm4 (MODE[7:4]) and s_round_mode imm4 (MODE[3:0]).
template <u32 Shift>
bool set_mode_nibble(Wave& w, const Step& s, Context&) {
  w.mode = (w.mode & ~(0xfu << Shift)) | ((static_cast<u32>(op(s, 0).value) & 0xf) << Shift);
  return true;
}

struct Entry {
  std::string_view mnemonic;
  Handler handler;
};

const Entry kControl[] = {
    {"s_getpc_b64", getpc}, {"s_setpc_b64", setpc}, {"s_swappc_b64", swappc}, {"s_call_b64", call},
    {"s_trap", trap}, {"s_sethalt", halt}, {"s_sleep", sleep}, {"v_illegal", illegal},
    {"s_denorm_mode", set_mode_nibble<mode::denorm32_shift>}, {"s_round_mode", set_mode_nibble<mode::round32_shift>},
    // Performance and debug hints: nothing to do in a functional model. s_cbranch_cdbg* branch
    // only when a debugger is attached, which never is.
    {"s_incperflevel", nop}, {"s_decperflevel", nop}, {"s_ttracedata", nop}, {"s_ttracedata_imm", nop}, {"s_wakeup", nop},
    {"s_version", nop}, {"s_wait_idle", nop}, {"s_wait_event", nop}, {"s_atc_probe", nop}, {"s_atc_probe_buffer", nop}, {"s_cbranch_cdbgsys", nop}, {"s_cbranch_cdbguser", nop},
    {"s_cbranch_cdbgsys_or_user", nop}, {"s_cbranch_cdbgsys_and_user", nop},
};

}  // namespace

LiftForm control_lift_form(Handler h) { return h == getpc ? LiftForm{LiftForm::Kind::get_pc, 0} : LiftForm{}; }

Handler resolve_control(const ParsedInstruction& p, Step& step) {
  const std::string_view m = p.mnemonic;
  const bool query = p.operands.empty() && p.modifiers.unknown.empty();  // a mnemonic alone (the status table)
  if (m == "s_sendmsg") {
    if (query) return nop;
    Message id{};
    if (!parse_message(p.modifiers, id)) return nullptr;
    if (id == dealloc_vgprs) return nop;
    if (id == interrupt) return send_interrupt;
    return nullptr;
  }
  if (m == "s_sendmsg_rtn_b32" || m == "s_sendmsg_rtn_b64") {
    if (query) return sendmsg_rtn<false>;
    Message id{};
    if (!parse_message(p.modifiers, id) || id < rtn_get_doorbell || id == rtn_save_wave) return nullptr;
    step.param = id;
    return m.ends_with("b64") ? sendmsg_rtn<true> : sendmsg_rtn<false>;
  }
  if (m == "s_getreg_b32" || m == "s_setreg_b32" || m == "s_setreg_imm32_b32") {
    HardwareRegister r;
    if (query) return getreg;
    if (!parse_hwreg(p.modifiers, r)) return nullptr;
    if (m != "s_getreg_b32" && r.id != hw_mode) return nullptr;
    step.param = r.id;
    step.param2 = r.offset | r.size << 8;
    return m == "s_getreg_b32" ? getreg : setreg;
  }
  for (const auto& e : kControl)
    if (e.mnemonic == m) return e.handler;
  return nullptr;
}

bool semantics::nop(Wave&, const Step&, Context&) { return true; }

}  // namespace gpuport::emu
