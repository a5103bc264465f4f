#include "emu/interpreter.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <mutex>
#include <thread>
#include <condition_variable>
#include <deque>
#include <map>
#include <unordered_map>

#include "emu/lift_forms.h"

namespace gpuport::emu {
namespace {

Diagnostic error(const amdgpu::CodeObject& co, std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = co.origin;
  return d;
}

Handler resolve(const ParsedInstruction& p, Step& step) {
  if (Handler h = resolve_control(p, step)) return h;
  if (Handler h = resolve_scalar(p, step)) return h;
  if (Handler h = resolve_packed(p, step)) return h;
  if (Handler h = resolve_vector(p, step)) return h;
  if (Handler h = resolve_image(p, step)) return h;
  if (Handler h = resolve_memory(p, step)) return h;
  return resolve_cross_lane(p, step);
}

// Instructions whose immediate is a target relative to the next instruction.
bool is_branch(std::string_view m) { return m == "s_branch" || m.starts_with("s_cbranch_") || m == "s_call_b64"; }

// What the emulator cannot honour for this instruction: a modifier its handler does not
// implement (Step::accepts says which it does). Refusing is better than computing without it.
std::string unsupported_modifiers(const ParsedInstruction& p, const Step& s) {
  const Modifiers& m = p.modifiers;
  if ((m.dpp || m.dpp8) && !(s.accepts & Accepts::dpp)) return "DPP";
  if (m.op_sel != 0 && !(s.accepts & Accepts::op_sel)) return "op_sel";
  if (m.op_sel_hi_given && !(s.accepts & Accepts::op_sel)) return "op_sel_hi";
  if ((m.neg_lo || m.neg_hi) && !(s.accepts & Accepts::neg_lo_hi)) return "neg_lo/neg_hi";
  if (m.gds && !(s.accepts & Accepts::gds)) return "gds";
  for (const auto& o : p.operands) {
    if (o.sext && !(s.accepts & Accepts::sext)) return "sext";
    if (o.high16 && !(s.accepts & Accepts::high16)) return "16-bit register halves";
  }
  // Operands in function syntax (vmcnt(0), sendmsg(...), hwreg(...)), which the resolver read.
  const bool control = p.mnemonic.starts_with("s_waitcnt") || p.mnemonic == "s_delay_alu" || p.mnemonic.starts_with("s_sendmsg") ||
                       p.mnemonic.starts_with("s_set") || p.mnemonic.starts_with("s_get") || p.mnemonic == "s_version";
  if (!m.unknown.empty() && !control && !(s.accepts & Accepts::named_modifiers)) return m.unknown.front();
  return {};
}

}  // namespace

bool implements(std::string_view mnemonic) {
  ParsedInstruction p;
  p.mnemonic = std::string(mnemonic);
  Step step;
  if (mnemonic.starts_with("v_dual_")) {
    p.mnemonic = "v_" + std::string(mnemonic.substr(7));
  }
  return resolve(p, step) != nullptr;
}

namespace {

bool ran_past_the_end(Wave&, const Step&, Context& c) {
  Fault f;
  f.message = "execution ran past the last instruction of the kernel";
  c.fault = f;
  return false;
}

// A callee's instruction that the emulator does not implement: reached, it stops the kernel.
bool unimplemented(Wave&, const Step&, Context& c) {
  Fault f;
  f.message = "an instruction the emulator does not implement was reached";
  c.fault = f;
  return false;
}

}  // namespace

std::string PreparedKernel::where(const amdgpu::Instruction& instruction) const {
  const std::uint64_t a = instruction.address;
  if (a >= kernel->code_address && a < kernel->code_address + kernel->code_size)
    return fmt::format("byte offset {:#x}", a - kernel->code_address);
  for (const auto& f : code_object->functions)
    if (a >= f.address && a < f.address + f.size) return fmt::format("byte offset {:#x} of function {}", a - f.address, f.name);
  return fmt::format("address {:#x}", a);
}

Result<std::shared_ptr<PreparedKernel>> prepare_kernel(const amdgpu::CodeObject& co, const amdgpu::Kernel& kernel,
                                                       const amdgpu::Disassembler& disassembler) {
  auto code = disassembler.decode(co, kernel);
  if (!code) return Result<std::shared_ptr<PreparedKernel>>::failure(code.diagnostics());
  auto k = std::make_shared<PreparedKernel>();
  k->code_object = &co;
  k->kernel = &kernel;
  k->code = std::move(*code);
  k->kernel_instructions = k->code.instructions.size();
  k->wave64 = !kernel.descriptor.wave32;
  for (const auto& f : co.functions) {
    auto callee = disassembler.decode_range(co, f.address, f.size, "function " + f.name);
    if (!callee) return Result<std::shared_ptr<PreparedKernel>>::failure(callee.diagnostics());
    for (auto& i : *callee) k->code.instructions.push_back(std::move(i));
  }
  auto& instructions = k->code.instructions;
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    k->step_at[instructions[i].address] = static_cast<std::uint32_t>(i);
    if (instructions[i].mnemonic.starts_with("ds_gws_")) k->uses_global_wave_sync = true;
  }
  std::vector<Diagnostic> errors;
  k->steps.resize(instructions.size());
  for (std::size_t i = 0; i < instructions.size(); ++i) {
    const amdgpu::Instruction& inst = instructions[i];
    Step& step = k->steps[i];
    step.instruction = &inst;
    const bool own = i < k->kernel_instructions;
    // A callee's unimplemented instruction becomes a step that stops the kernel when reached,
    // once the checks below are done with the step.
    struct Deferred {
      Step& step;
      bool active = false;
      ~Deferred() {
        if (!active) return;
        const amdgpu::Instruction* at = step.instruction;
        step = Step();
        step.instruction = at;
        step.handler = unimplemented;
      }
    } deferred{step};
    auto unsupported = [&](const std::string& why) {
      const std::string message = fmt::format("kernel {}: the instruction at {} ({}) is not implemented by the emulator{}", kernel.name,
                                              k->where(inst), inst.text, why.empty() ? "" : ": " + why);
      if (own) {
        errors.push_back(error(co, "emu-unsupported", message));
      } else {
        k->unimplemented_in_functions.push_back(message);
        deferred.active = true;
      }
    };
    ParsedInstruction parsed;
    if (auto e = parse_instruction(inst.text, parsed)) {
      unsupported(*e);
      continue;
    }
    auto fill = [&](const ParsedInstruction& p, Step& s) -> bool {
      s.instruction = &inst;
      s.ops = p.operands;
      s.mods = p.modifiers;
      s.handler = resolve(p, s);
      if (!s.handler) {
        unsupported(p.mnemonic == parsed.mnemonic ? std::string() : p.mnemonic);
        return false;
      }
      // DPP around the resolved handler (semantics_dpp.cc); the first VGPR past the kernel's
      // count (init_wave allocates 8 spare) holds the permuted src0.
      if (p.modifiers.dpp || p.modifiers.dpp8)
        if (auto e = wrap_dpp(p, s, std::max<std::uint32_t>(kernel.vgpr_count, 1)); !e.empty()) {
          unsupported("DPP: " + e);
          s.handler = nullptr;
          return false;
        }
      if (auto m = unsupported_modifiers(p, s); !m.empty()) {
        unsupported("modifier " + m);
        s.handler = nullptr;
        return false;
      }
      return true;
    };
    if (parsed.vopd_y) {
      step.vopd_x = std::make_unique<Step>();
      step.vopd_y = std::make_unique<Step>();
      if (!fill(parsed, *step.vopd_x) || !fill(*parsed.vopd_y, *step.vopd_y)) continue;
      step.handler = vopd_handler(*step.vopd_x, *step.vopd_y);
      continue;
    }
    if (!fill(parsed, step)) continue;
    if (is_branch(parsed.mnemonic)) {
      // The MC operand is the signed word offset from the next instruction.
      std::int64_t words = 0;
      for (const auto& o : inst.operands)
        if (o.kind == amdgpu::Operand::Kind::imm) {
          words = static_cast<std::int16_t>(o.imm);
          break;
        }
      const std::uint64_t target = inst.address + 4 + static_cast<std::uint64_t>(words * 4);
      auto it = k->step_at.find(target);
      if (it == k->step_at.end()) {
        errors.push_back(error(co, "emu-bad-branch",
                               fmt::format("kernel {}: the branch at {} ({}) goes to address {:#x}, which is no instruction of the code object",
                                           kernel.name, k->where(inst), inst.text, target)));
        continue;
      }
      step.target = static_cast<std::int64_t>(it->second);
    }
  }
  if (!errors.empty()) return Result<std::shared_ptr<PreparedKernel>>::failure(std::move(errors));
  // The steps before the first that can leave the straight line (a branch, a jump by address, the
  // end, a trap), that one included: every wave of a launch runs at least these.
  for (const amdgpu::Instruction& inst : instructions) {
    ++k->entry_steps;
    const std::string_view m = inst.mnemonic;
    if (is_branch(m) || m == "s_endpgm" || m == "s_setpc_b64" || m == "s_swappc_b64" || m.starts_with("s_trap") || m == "s_sethalt") break;
  }
  // The sentinel after the last instruction: execution that runs off the end stops there.
  k->steps.emplace_back();
  k->steps.back().handler = ran_past_the_end;
  mark_fused_runs(k->steps, k->kernel_instructions);
  return k;
}

void fill_hidden_arguments(const amdgpu::Kernel& kernel, const Launch& launch, std::vector<std::uint8_t>& kernarg) {
  const std::size_t size = std::max<std::size_t>({std::size_t(kernel.kernarg_segment_size), std::size_t(kernel.descriptor.kernarg_size), kernarg.size()});
  kernarg.resize(size, 0);
  auto put = [&](const amdgpu::KernelArgument& a, std::uint64_t value) {
    if (a.offset + a.size > kernarg.size() || a.size > 8) return;
    std::memcpy(kernarg.data() + a.offset, &value, a.size);  // little endian: the low bytes
  };
  const int dims = launch.grid[2] * launch.block[2] > 1 ? 3 : launch.grid[1] * launch.block[1] > 1 ? 2 : 1;
  for (const auto& a : kernel.arguments) {
    const std::string& k = a.value_kind;
    if (!k.starts_with("hidden_")) continue;
    if (k == "hidden_block_count_x") put(a, launch.grid[0]);
    else if (k == "hidden_block_count_y") put(a, launch.grid[1]);
    else if (k == "hidden_block_count_z") put(a, launch.grid[2]);
    else if (k == "hidden_group_size_x") put(a, launch.block[0]);
    else if (k == "hidden_group_size_y") put(a, launch.block[1]);
    else if (k == "hidden_group_size_z") put(a, launch.block[2]);
    else if (k == "hidden_grid_dims") put(a, static_cast<std::uint64_t>(dims));
    else if (k == "hidden_dynamic_lds_size") put(a, launch.dynamic_lds);
    else if (k == "hidden_hostcall_buffer") put(a, launch.hostcall_buffer);
    else if (k == "hidden_heap_v1") put(a, launch.heap);
    else put(a, 0);  // remainders and global offsets are 0 for whole workgroups; no device-side queue
  }
}

namespace {

struct DispatchPacket {  // hsa_kernel_dispatch_packet_t
  std::uint16_t header = 0, setup = 0;
  std::uint16_t workgroup_size[3] = {};
  std::uint16_t reserved0 = 0;
  std::uint32_t grid_size[3] = {};
  std::uint32_t private_segment_size = 0, group_segment_size = 0;
  std::uint64_t kernel_object = 0, kernarg_address = 0, reserved2 = 0, completion_signal = 0;
};
static_assert(sizeof(DispatchPacket) == 64);

struct Shared {
  const PreparedKernel* kernel;
  const Launch* launch;
  std::uint64_t image_base, kernarg_address, dispatch_address, queue_address;
  std::uint32_t lds_bytes, scratch_per_lane, wave_size;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::optional<Diagnostic> failure;
  std::uint64_t failure_group = ~0ull;
  std::chrono::steady_clock::time_point deadline;
  bool has_deadline = false;
  // Time spent compiling the kernel during the launch (JitMode::hot), which the timeout excludes.
  std::atomic<std::int64_t> compiling_ns{0};
  int trace_lane = -1;  // GPUPORT_EMU_TRACE=<lane>: print every instruction of wave 0 of workgroup 0
  std::uint32_t waves_per_group = 1;
  MemcheckLog memcheck;
};

void init_wave(Wave& w, const Shared& sh, Workgroup& g, std::uint32_t index, std::uint32_t threads) {
  const amdgpu::Kernel& k = *sh.kernel->kernel;
  const amdgpu::KernelDescriptor& d = k.descriptor;
  const auto& block = sh.launch->block;
  w.size = sh.wave_size;
  for (std::size_t i = 0; i < w.s.size(); i += 8)  // (fill() became a slow `rep stos`)
    for (std::size_t j = 0; j < 8; ++j) w.s[i + j] = 0;
  w.scc = false;
  w.mode = d.float_round_mode_32 << mode::round32_shift | d.float_round_mode_16_64 << mode::round16_64_shift |
           d.float_denorm_mode_32 << mode::denorm32_shift | d.float_denorm_mode_16_64 << mode::denorm16_64_shift |
           (d.dx10_clamp ? mode::dx10_clamp : 0) | (d.ieee_mode ? mode::ieee : 0);
  w.vgprs = std::max<std::uint32_t>(k.vgpr_count, 1) + 8;
  w.v.assign(static_cast<std::size_t>(w.vgprs) * w.size, 0);
  w.pc = 0;
  w.done = w.at_barrier = false;
  w.index_in_group = index;
  w.group = &g;
  w.scratch_per_lane = sh.scratch_per_lane;
  w.scratch.assign(static_cast<std::size_t>(w.scratch_per_lane) * w.size, 0);
  std::uint32_t s = 0;
  auto put64 = [&](std::uint64_t v) {
    w.s[s++] = static_cast<std::uint32_t>(v);
    w.s[s++] = static_cast<std::uint32_t>(v >> 32);
  };
  if (d.private_segment_buffer) s += 4;  // no buffer resource: gfx11 scratch is architected
  if (d.dispatch_ptr) put64(sh.dispatch_address);
  if (d.queue_ptr) put64(sh.queue_address);
  if (d.kernarg_segment_ptr) put64(sh.kernarg_address);
  if (d.dispatch_id) put64(0);
  if (d.flat_scratch_init) put64(0);
  if (d.private_segment_size) w.s[s++] = sh.scratch_per_lane;
  s = d.user_sgpr_count;
  if (d.workgroup_id_x) w.s[s++] = g.id[0];
  if (d.workgroup_id_y) w.s[s++] = g.id[1];
  if (d.workgroup_id_z) w.s[s++] = g.id[2];
  if (d.workgroup_info) w.s[s++] = 0;
  if (d.private_segment_wave_offset) w.s[s++] = 0;
  // v0: each lane's workitem id, x | y << 10 | z << 20, counted on from the wave's first thread
  // (divisions per lane were a tenth of a short kernel's time).
  const std::uint32_t first = index * w.size;
  const std::uint32_t active = threads > first ? std::min(w.size, threads - first) : 0;
  std::uint32_t x = first % block[0], y = (first / block[0]) % block[1], z = first / (block[0] * block[1]);
  if (x + active <= block[0]) {  // one row of the block (a loop the compiler vectorizes)
    const std::uint32_t row = y << 10 | z << 20;
    std::uint32_t* v0 = &w.vgpr(0, 0);
    for (std::uint32_t lane = 0; lane < active; ++lane) v0[lane] = (x + lane) | row;
  } else {
    for (std::uint32_t lane = 0; lane < active; ++lane) {
      w.vgpr(0, lane) = x | y << 10 | z << 20;
      if (++x == block[0]) {
        x = 0;
        if (++y == block[1]) {
          y = 0;
          ++z;
        }
      }
    }
  }
  w.set_exec(active >= 64 ? ~0ull : (1ull << active) - 1);
}

// --timeout bounds the whole launch: waves check it every 65536 instructions, workgroups at
// every barrier round, and the dispatch before each workgroup it starts, so that neither a long
// wave, nor waves that meet at barriers often, nor a grid of many short workgroups outlives it.
bool past_deadline(const Shared& sh) {
  return sh.has_deadline &&
         std::chrono::steady_clock::now() > sh.deadline + std::chrono::nanoseconds(sh.compiling_ns.load(std::memory_order_relaxed));
}

// Runs one wave until it ends, reaches a barrier, or faults.
// --trace: one line per instruction of wave 0 of workgroup 0, with lane K's results.
void trace_step(const Wave& w, const Step& st, const PreparedKernel& k, std::uint32_t lane) {
  // Kernel instructions by byte offset, a callee's as function+offset.
  std::string at = fmt::format("{:6x}", st.instruction->address - k.kernel->code_address);
  if (w.pc >= k.kernel_instructions)
    for (const auto& f : k.code_object->functions)
      if (st.instruction->address >= f.address && st.instruction->address < f.address + f.size)
        at = fmt::format("{}+{:#x}", f.name, st.instruction->address - f.address);
  std::string line = fmt::format("{}: {:<60} exec={:016x} scc={}", at, st.instruction->text, w.exec(), w.scc ? 1 : 0);
  if (!st.ops.empty()) {
    const Operand& d = st.ops[0];
    if (d.kind == Operand::Kind::vgpr)
      for (unsigned i = 0; i < d.width; ++i) line += fmt::format(" v{}={:#x}", d.reg + i, w.vgpr(d.reg + i, lane));
    else if (d.kind == Operand::Kind::sgpr)
      for (unsigned i = 0; i < d.width; ++i) line += fmt::format(" s{}={:#x}", d.reg + i, w.s[(d.reg + i) & 127]);
    if (st.ops.size() > 1 && st.ops[1].kind == Operand::Kind::sgpr && st.ops[0].kind == Operand::Kind::vgpr)
      line += fmt::format(" s{}={:#x}", st.ops[1].reg, w.s[st.ops[1].reg]);
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

// Runs one wave until it ends, reaches a barrier, yields, waits on a global sync, or faults. The
// last step of every kernel is a sentinel that faults, so the loop needs no bounds check; every
// 65536 instructions it checks the budget, the timeout, another workgroup's fault. The waves of
// a workgroup take turns in fixed time slices of kWaveSlice instructions (so runs stay
// deterministic): short, as the hardware runs them side by side. A wave run alone to its next
// barrier would let it overwrite what the others have yet to read after the last one, which code
// that passes on GPUs leaves unsynchronized (llama.cpp b2000's soft_max; fixed upstream later).
// A launch without LDS shares nothing between its waves that they could read unsynchronized but
// global memory, which no GPU orders between waves either: its slices are kWaveSliceWithoutLds
// long (still finite, so that a wave spinning on another's flag lets it run). Each switch costs
// about what 32 instructions of compiled code do: the JIT's VALU rate doubles. A slice (or a
// look-up) that falls inside a fused run ends after it (Step::run_interior, lift_forms.h): the
// compiled code runs a run whole, and no other wave can see a run's register-only work.
constexpr std::uint64_t kWaveSlice = 32, kWaveSliceWithoutLds = 1024;
JitEntry jit_for(const PreparedKernel& k, Context& c, Shared& sh);
template <bool Trace, bool Memcheck>
bool run_wave_steps(Wave& w, const PreparedKernel& k, Context& c, Shared& sh, JitEntry jit) {
  const Step* steps = k.steps.data();
  const std::uint64_t budget = sh.launch->max_instructions ? sh.launch->max_instructions : ~0ull;
  const std::uint64_t slice = sh.waves_per_group > 1 ? (sh.lds_bytes ? kWaveSlice : kWaveSliceWithoutLds) - 1 : 0;  // a mask
  std::uint64_t count = 0, lanes = 0;
  std::uint64_t flushed = 0;  // of count, already added to c.instructions (for JitMode::hot)
  w.leave = false;
  // Compiled code runs until the loop below would look up (a slice's end, every 65536 steps, the
  // budget) or the wave leaves it; then the same checks follow as after an interpreted step.
  JitFrame frame{&w, &c, steps, w.v.data(), w.s.data(), &w.scc, &w.mode, &w.leave, &w.pc, &c.region_begin, &c.region_end,
                 w.group->lds.data(), w.group->lds.size(), 0, 0, 0, c.jit_regions.data(), c.image_base};
  const std::uint64_t period = slice ? slice + 1 : 0x10000;
  // The next look-up: at `next` instructions (a slice's end, every 65,536, the budget), or at
  // the first step after it that is not inside a fused run (Step::run_interior: both tiers).
  std::uint64_t next = std::min(period, budget), next_full = std::min<std::uint64_t>(0x10000, budget);
  while (!w.leave) {
    int compiled = 2;
    if constexpr (!Trace && !Memcheck) {
      if (jit) {
        frame.limit = next > count ? next - count : 0;  // 0: stop at the first step it may
        compiled = jit(&frame, w.pc);
        count += frame.executed;
        c.compiled_instructions += frame.executed;
        lanes += frame.lanes;
        if (compiled == 1) {
          c.instructions += count - flushed;
          c.lane_instructions += lanes;
          return false;
        }
        if (compiled == 0 && count < next) continue;  // it left the loop (w.leave) between look-ups
      }
    }
    if (compiled == 2) {  // interpreted (or a step the compiled code does not know)
      const Step& st = steps[w.pc];
      if constexpr (Memcheck) c.step = &st;
      lanes += static_cast<std::uint64_t>(std::popcount(w.exec()));
      if (!st.handler(w, st, c)) {
        c.instructions += count - flushed;
        c.lane_instructions += lanes;
        return false;
      }
      if constexpr (Trace) trace_step(w, st, k, static_cast<std::uint32_t>(sh.trace_lane));
      ++w.pc;
      ++count;
    }
    if (count < next || (w.pc < k.steps.size() && steps[w.pc].run_interior)) continue;
    next = std::min((count / period + 1) * period, budget > count ? budget : ~std::uint64_t{0});
    if (count < next_full) break;  // a slice's end: the workgroup's other waves' turn
    next_full = std::min((count / 0x10000 + 1) * 0x10000, budget > count ? budget : ~std::uint64_t{0});
    Fault f;
    if (count >= budget) f.message = fmt::format("the wave ran {} instructions without finishing (--max-instructions)", count);
    else if (past_deadline(sh)) {
      f.message = fmt::format("the kernel ran past the timeout of {} s", sh.launch->timeout_seconds);
      f.timeout = true;
    }
    if (!f.message.empty()) {
      c.fault = f;
      c.instructions += count - flushed;
      c.lane_instructions += lanes;
      return false;
    }
    if (sh.stop.load(std::memory_order_relaxed) || sh.waves_per_group > 1) break;
    // A wave that runs long alone: it counts toward the kernel's becoming hot, and goes on in the
    // compiled code from here once the kernel is (compiled now, if it is this wave that makes it so).
    if constexpr (!Trace && !Memcheck)
      if (!jit && sh.launch->jit == JitMode::hot) {
        c.instructions += count - flushed;
        flushed = count;
        jit = jit_for(k, c, sh);
      }
  }
  c.instructions += count - flushed;
  c.lane_instructions += lanes;
  return true;
}

// JitMode::hot: the wave-instructions after which a kernel is worth compiling. Compiling costs
// about 1.5 to 3.5 ms per step (on these machines, since fused runs; more for long runs of float
// steps), in which the interpreter runs some 40,000 to 100,000 wave-instructions: when the
// compile stops the wave, a kernel must have run about as long as its compiling would take
// (65,536 per step; at 131,072, mini-nbody's 1024 bodies ran 0.64 s, two thirds interpreted, at
// 65,536 0.46 s; at 32,768 nbody-block lost more than that in compiles that did not pay). With
// the compile helper the waves do not wait for the compile: half the wait.
// True once (jit_tried is set then): when `counted` wave-instructions make the kernel hot.
bool becomes_hot(const PreparedKernel& k, const Launch& launch, std::uint64_t counted) {
  const std::uint64_t per_step = jit_compiles_in_helper(k) ? 32768 : 65536;
  const std::uint64_t hot = launch.jit_hot ? launch.jit_hot : std::max<std::uint64_t>(kJitHotInstructions, per_step * k.steps.size());
  return counted >= hot && !k.jit_tried.exchange(true);
}

// Compiles the hot kernel, or, with the compile helper at work on it, links its code if the
// helper is done. Lifted here, on the wave's thread, and compiled by the helper process while
// the waves go on interpreting; this is called again at the next look-ups until the code is
// linked. (Not on a
// thread of this process: LLVM's code generation makes function-local static objects the first
// time it needs them, whose destructors run at exit before anything registered earlier could
// wait for the compile, and a compile on its own thread crashed programs that exited meanwhile.)
// Without a helper, the compile runs here.
JitEntry compile_hot(const PreparedKernel& k, Shared& sh) {
  const auto started = std::chrono::steady_clock::now();
  bool waiting = k.jit_waiting.load(std::memory_order_acquire);
  const JitEntry e = jit_compile_hot(k, &k.jit_error, waiting);
  sh.compiling_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count();
  if (e) k.jit_entry.store(e, std::memory_order_release);
  k.jit_waiting.store(waiting, std::memory_order_release);
  return e;
}

// The kernel's compiled code, compiling it here if the launch asks for the JIT and the kernel
// has become hot (JitMode::hot: the interpreter's wave-instructions of every launch, counted by
// each host thread every 65536).
JitEntry jit_for(const PreparedKernel& k, Context& c, Shared& sh) {
  if (JitEntry e = k.jit_entry.load(std::memory_order_acquire)) return e;
  if (sh.launch->jit != JitMode::hot || c.instructions - c.jit_reported < 0x10000) return nullptr;
  const std::uint64_t delta = c.instructions - c.jit_reported;
  c.jit_reported = c.instructions;
  if (!k.jit_waiting.load(std::memory_order_acquire) && !becomes_hot(k, *sh.launch, k.interpreted.fetch_add(delta) + delta)) return nullptr;
  return compile_hot(k, sh);
}

bool run_wave(Wave& w, const PreparedKernel& k, Context& c, Shared& sh) {
  if (sh.trace_lane >= 0 && w.group->id == std::array<std::uint32_t, 3>{0, 0, 0} && w.index_in_group == 0)
    return run_wave_steps<true, true>(w, k, c, sh, nullptr);
  if (c.memcheck) return run_wave_steps<false, true>(w, k, c, sh, nullptr);
  return run_wave_steps<false, false>(w, k, c, sh, sh.launch->jit == JitMode::never ? nullptr : jit_for(k, c, sh));
}

void fail_by_timeout(Shared& sh, std::uint64_t started_groups) {
  const Launch& L = *sh.launch;
  const std::uint64_t groups = std::uint64_t(L.grid[0]) * L.grid[1] * L.grid[2];
  Diagnostic d;
  d.code = kTimeoutCode;
  d.location.file = sh.kernel->code_object->origin;
  d.message = fmt::format("kernel {}: the launch ran past the timeout of {} s ({} of {} workgroups started)", sh.kernel->kernel->name,
                          L.timeout_seconds, std::min(started_groups, groups), groups);
  std::lock_guard lock(sh.mutex);
  if (!sh.failure) sh.failure = std::move(d);
  sh.stop = true;
}

// One workgroup's waves and LDS.
struct GroupState {
  Workgroup g;
  std::vector<Wave> waves;
  std::uint64_t index = 0;  // linear workgroup id
  bool parked = false;      // all its waves wait (a global wave sync holds one of them)
};

void start_group(GroupState& gs, std::uint64_t n, Shared& sh, std::uint32_t threads) {
  const Launch& L = *sh.launch;
  gs.index = n;
  gs.g.id = {static_cast<std::uint32_t>(n % L.grid[0]), static_cast<std::uint32_t>((n / L.grid[0]) % L.grid[1]),
             static_cast<std::uint32_t>(n / (std::uint64_t(L.grid[0]) * L.grid[1]))};
  gs.g.lds.assign(sh.lds_bytes, 0);
  if (sh.launch->memcheck) gs.g.lds_written.assign(sh.lds_bytes, 0);
  for (std::uint32_t i = 0; i < gs.waves.size(); ++i) init_wave(gs.waves[i], sh, gs.g, i, threads);
}

enum class GroupOutcome { done, parked, failed };

// Runs the waves of a workgroup, switching at s_barrier, s_sleep and time slices, until they all
// end, or all wait with at least one of them on a global wave sync (`park` decides, under the sync's
// lock, whether the group is parked), or one faults (the fault is recorded in `sh`).
template <typename Park>
GroupOutcome run_group(GroupState& gs, const PreparedKernel& k, Context& c, Shared& sh, Park&& park) {
  for (std::uint32_t round = 1;; ++round) {
    if ((round & 63) == 0 && past_deadline(sh)) {
      fail_by_timeout(sh, sh.next.load());
      return GroupOutcome::failed;
    }
    bool all_done = true;
    for (auto& w : gs.waves) {
      if (w.done) continue;
      w.yielded = false;
      if (!w.at_barrier && !w.at_gws && !run_wave(w, k, c, sh)) {
        const amdgpu::Instruction* inst = w.pc < k.steps.size() ? k.steps[w.pc].instruction : nullptr;
        Diagnostic d;
        d.code = c.fault->timeout ? kTimeoutCode : "emu-fault";
        d.location.file = k.code_object->origin;
        d.message = fmt::format("kernel {}: {}{} in workgroup ({}, {}, {}), wave {}{}", k.kernel->name, c.fault->message,
                                inst ? fmt::format(" at {} ({})", k.where(*inst), inst->text) : std::string(), gs.g.id[0], gs.g.id[1],
                                gs.g.id[2], w.index_in_group, c.fault->lane >= 0 ? fmt::format(", lane {}", c.fault->lane) : std::string());
        std::lock_guard lock(sh.mutex);
        if (gs.index < sh.failure_group) {
          sh.failure_group = gs.index;
          sh.failure = std::move(d);
        }
        sh.stop = true;
        return GroupOutcome::failed;
      }
      if (!w.done) all_done = false;
    }
    if (all_done) return GroupOutcome::done;
    if (sh.stop.load()) return GroupOutcome::failed;  // another workgroup faulted: its report counts
    bool all_waiting = true, global = false;
    for (auto& w : gs.waves) {
      if (w.done) continue;
      if (w.at_gws) global = true;
      else if (!w.at_barrier) all_waiting = false;
    }
    if (!all_waiting) continue;
    if (global) {
      if (park(gs)) return GroupOutcome::parked;
      continue;  // released while we looked
    }
    for (auto& w : gs.waves) w.at_barrier = false;  // every wave still running is at s_barrier
  }
}

Context make_context(Shared& sh, AddressSpace& memory) {
  Context c;
  if (sh.launch->memcheck) c.memcheck = &sh.memcheck;
  c.memory = &memory;
  c.image_base = sh.image_base;
  c.step_at = &sh.kernel->step_at;
  c.interrupt = sh.launch->interrupt;
  c.interrupt_user = sh.launch->interrupt_user;
  return c;
}

void add_stats(const Context& c, std::uint64_t groups, std::uint64_t waves, RunStats& stats, std::mutex& stats_mutex) {
  std::lock_guard lock(stats_mutex);
  stats.instructions += c.instructions;
  stats.lane_instructions += c.lane_instructions;
  stats.compiled_instructions += c.compiled_instructions;
  stats.workgroups += groups;
  stats.waves += waves;
}

// The streaming dispatch: each host thread takes the next workgroup and runs it to its end.
// `yields`: while the compile helper is at work on the kernel, this thread takes no workgroup,
// leaving its core to the compile (the first thread never yields, so the waves go on).
void worker(Shared& sh, RunStats& stats, std::mutex& stats_mutex, AddressSpace& memory, bool yields) {
  const Launch& L = *sh.launch;
  const std::uint64_t groups = std::uint64_t(L.grid[0]) * L.grid[1] * L.grid[2];
  const std::uint32_t threads = L.block[0] * L.block[1] * L.block[2];
  Context c = make_context(sh, memory);
  GroupState gs;
  gs.waves.resize(sh.waves_per_group);
  std::uint64_t done_groups = 0;
  auto never_park = [](GroupState&) { return false; };
  for (;;) {
    if (sh.stop.load()) break;
    if (yields && sh.kernel->jit_waiting.load(std::memory_order_acquire)) {
      if (sh.next.load() >= groups || past_deadline(sh)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      continue;
    }
    const std::uint64_t n = sh.next.fetch_add(1);
    if (n >= groups) break;
    if (past_deadline(sh)) {
      fail_by_timeout(sh, n);
      break;
    }
    start_group(gs, n, sh, threads);
    if (run_group(gs, *sh.kernel, c, sh, never_park) != GroupOutcome::done) {
      if (!sh.stop.load()) {  // waves wait on a global wave sync that this dispatch cannot provide
        std::lock_guard lock(sh.mutex);
        sh.stop = true;
      }
      break;
    }
    ++done_groups;
  }
  add_stats(c, done_groups, done_groups * sh.waves_per_group, stats, stats_mutex);
}

// Every workgroup of the grid resident at once, for kernels that use global wave sync (the
// hardware barrier behind cooperative groups' grid.sync()): host threads take runnable workgroups;
// a workgroup whose waves all wait with one of them at a global barrier is parked until the
// barrier's last wave arrives. Barriers and semaphores are per resource (M0[21:16] + offset).
class ResidentGrid final : public GlobalWaveSync {
 public:
  ResidentGrid(std::vector<GroupState>& groups, Shared& sh) : sh_(sh), total_(groups.size()) {
    for (auto& g : groups) {
      runnable_.push_back(&g);
      group_of_[&g.g] = &g;
    }
  }

  bool perform(Wave& w, Op op, std::uint32_t resource, std::uint32_t value) override {
    std::lock_guard lock(mutex_);
    Resource& r = resources_[resource];
    switch (op) {
      case Op::init: r.value = value; return false;
      case Op::barrier:
        if (r.barrier_waiting.empty()) r.barrier_target = value + 1;
        r.barrier_waiting.push_back(&w);
        if (r.barrier_waiting.size() < r.barrier_target) {
          w.at_gws = true;
          w.leave = true;
          return true;
        }
        for (Wave* x : r.barrier_waiting) release(*x);
        r.barrier_waiting.clear();
        return false;
      case Op::sema_v: ++r.value; break;
      case Op::sema_br: r.value += value; break;
      case Op::sema_p:
        if (r.value > 0) {
          --r.value;
          return false;
        }
        r.sema_waiting.push_back(&w);
        w.at_gws = true;
        w.leave = true;
        return true;
      case Op::sema_release_all:
        for (Wave* x : r.sema_waiting) release(*x);
        r.sema_waiting.clear();
        return false;
    }
    while (r.value > 0 && !r.sema_waiting.empty()) {  // sema_v / sema_br wake waiters in arrival order
      --r.value;
      release(*r.sema_waiting.front());
      r.sema_waiting.erase(r.sema_waiting.begin());
    }
    return false;
  }

  // A runnable workgroup, or null when the grid is done, stopped, or deadlocked.
  GroupState* next() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (sh_.stop.load() || finished_ == total_) return nullptr;
      if (!runnable_.empty()) {
        GroupState* g = runnable_.front();
        runnable_.pop_front();
        ++running_;
        return g;
      }
      if (running_ == 0) {  // every unfinished workgroup waits on a sync nobody else can complete
        deadlock_ = describe_waits();
        sh_.stop = true;
        cv_.notify_all();
        return nullptr;
      }
      cv_.wait_for(lock, std::chrono::milliseconds(50));
    }
  }

  // After run_group: the group is done, parked (by park() below) or failed.
  void returned(GroupOutcome outcome) {
    std::lock_guard lock(mutex_);
    --running_;
    if (outcome == GroupOutcome::done) ++finished_;
    cv_.notify_all();
  }

  // Parks the group unless a release came in meanwhile (under the lock releases take).
  bool park(GroupState& g) {
    std::lock_guard lock(mutex_);
    for (const auto& w : g.waves)
      if (!w.done && w.at_gws) {
        g.parked = true;
        return true;
      }
    return false;
  }

  const std::string& deadlock() const { return deadlock_; }

 private:
  struct Resource {
    std::uint32_t value = 0, barrier_target = 0;
    std::vector<Wave*> barrier_waiting, sema_waiting;
  };

  void release(Wave& w) {  // with the lock held
    w.at_gws = false;
    GroupState* g = group_of_.at(w.group);
    if (g->parked) {
      g->parked = false;
      runnable_.push_back(g);
      cv_.notify_one();
    }
  }

  std::string describe_waits() const {
    for (const auto& [id, r] : resources_) {
      if (!r.barrier_waiting.empty())
        return fmt::format("{} wave(s) wait at global wave sync barrier {} for {} (of {} workgroups in the grid, {} finished)",
                           r.barrier_waiting.size(), id, r.barrier_target, total_, finished_);
      if (!r.sema_waiting.empty())
        return fmt::format("{} wave(s) wait on global wave sync semaphore {}, which is 0", r.sema_waiting.size(), id);
    }
    return "every unfinished workgroup waits";
  }

  Shared& sh_;
  std::size_t total_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<GroupState*> runnable_;
  std::unordered_map<const Workgroup*, GroupState*> group_of_;
  std::map<std::uint32_t, Resource> resources_;
  std::size_t running_ = 0, finished_ = 0;
  std::string deadlock_;
};

void resident_worker(ResidentGrid& grid, Shared& sh, RunStats& stats, std::mutex& stats_mutex, AddressSpace& memory) {
  Context c = make_context(sh, memory);
  c.gws = &grid;
  std::uint64_t done_groups = 0;
  auto park = [&](GroupState& g) { return grid.park(g); };
  while (GroupState* g = grid.next()) {
    const GroupOutcome outcome = run_group(*g, *sh.kernel, c, sh, park);
    if (outcome == GroupOutcome::done) ++done_groups;
    grid.returned(outcome);
  }
  add_stats(c, done_groups, done_groups * sh.waves_per_group, stats, stats_mutex);
}

}  // namespace

Result<RunStats> run_kernel(const PreparedKernel& k, Launch launch, AddressSpace& memory, std::uint64_t image_base) {
  const amdgpu::CodeObject& co = *k.code_object;
  const amdgpu::Kernel& kernel = *k.kernel;
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] == 0 || launch.block[i] == 0)
      return error(co, "emu-bad-launch", fmt::format("kernel {}: a grid or block dimension is 0", kernel.name));
  for (int i = 0; i < 3; ++i)
    if (std::uint64_t(launch.grid[i]) * launch.block[i] > 0xffffffffull)
      return error(co, "emu-bad-launch",
                   fmt::format("kernel {}: {} work-items in dimension {} exceed the dispatch packet's 32 bits", kernel.name,
                               std::uint64_t(launch.grid[i]) * launch.block[i], "xyz"[i]));
  const std::uint64_t threads = std::uint64_t(launch.block[0]) * launch.block[1] * launch.block[2];
  if (threads > 1024 || (kernel.max_flat_workgroup_size && threads > kernel.max_flat_workgroup_size))
    return error(co, "emu-bad-launch",
                 fmt::format("kernel {}: {} threads per block exceed the kernel's limit of {}", kernel.name, threads,
                             kernel.max_flat_workgroup_size ? kernel.max_flat_workgroup_size : 1024));
  const std::uint64_t lds = std::uint64_t(kernel.descriptor.group_segment_fixed_size) + launch.dynamic_lds;
  if (lds > 65536)
    return error(co, "emu-bad-launch", fmt::format("kernel {}: {} bytes of LDS exceed gfx1100's 64 KiB per workgroup", kernel.name, lds));
  fill_hidden_arguments(kernel, launch, launch.kernarg);
  // The kernarg segment, dispatch packet and queue live in host memory registered for the run.
  std::vector<std::uint8_t> kernarg = launch.kernarg;
  kernarg.resize(kernarg.size() + 64, 0);
  DispatchPacket packet;
  for (int i = 0; i < 3; ++i) {
    packet.workgroup_size[i] = static_cast<std::uint16_t>(launch.block[i]);
    packet.grid_size[i] = launch.grid[i] * launch.block[i];
  }
  packet.setup = 3;
  packet.private_segment_size = kernel.descriptor.private_segment_fixed_size;
  packet.group_segment_size = static_cast<std::uint32_t>(lds);
  packet.kernarg_address = reinterpret_cast<std::uint64_t>(kernarg.data());
  std::vector<std::uint8_t> queue(256, 0);
  const std::uint64_t kernarg_address = reinterpret_cast<std::uint64_t>(kernarg.data());
  const std::uint64_t packet_address = reinterpret_cast<std::uint64_t>(&packet);
  const std::uint64_t queue_address = reinterpret_cast<std::uint64_t>(queue.data());
  memory.add(kernarg_address, kernarg.size(), AddressSpace::Kind::kernarg, "kernarg segment");
  memory.add(packet_address, sizeof(packet), AddressSpace::Kind::kernarg, "dispatch packet");
  memory.add(queue_address, queue.size(), AddressSpace::Kind::kernarg, "queue");

  Shared sh;
  sh.kernel = &k;
  sh.launch = &launch;
  sh.image_base = image_base;
  sh.kernarg_address = kernarg_address;
  sh.dispatch_address = packet_address;
  sh.queue_address = queue_address;
  sh.lds_bytes = static_cast<std::uint32_t>(lds);
  sh.scratch_per_lane = kernel.descriptor.private_segment_fixed_size + (kernel.uses_dynamic_stack ? 16384u : 0u);
  sh.wave_size = kernel.descriptor.wave32 ? 32 : 64;
  sh.waves_per_group = static_cast<std::uint32_t>((threads + sh.wave_size - 1) / sh.wave_size);
  if (const char* t = std::getenv("GPUPORT_EMU_TRACE")) sh.trace_lane = std::atoi(t);
  if (sh.trace_lane >= static_cast<int>(sh.wave_size)) {
    std::fprintf(stderr, "gpuport run: --trace %d: kernel %s runs in waves of %u lanes; not traced\n", sh.trace_lane, kernel.name.c_str(),
                 sh.wave_size);
    sh.trace_lane = -1;
  }
  // --jit always: compiled before the launch's clock and timeout start (--stats times the run).
  if (launch.jit == JitMode::always && !launch.memcheck && sh.trace_lane < 0 && !k.jit_tried.exchange(true)) {
    k.jit_entry.store(jit_compile(k, &k.jit_error), std::memory_order_release);
    if (!k.jit_error.empty())
      std::fprintf(stderr, "gpuport run: kernel %s runs on the interpreter: %s\n", kernel.name.c_str(), k.jit_error.c_str());
  }
  const std::uint64_t groups = std::uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  // --jit hot: a launch whose waves will run past the kernel's threshold whatever their branches do
  // (each runs at least the kernel's entry steps) is hot before its first wave; a launch of a
  // million small waves (a STREAM kernel) ran its first tenth interpreted before.
  if (launch.jit == JitMode::hot && !launch.memcheck && sh.trace_lane < 0 && !k.jit_entry.load(std::memory_order_acquire) &&
      !k.jit_waiting.load(std::memory_order_acquire)) {
    const std::uint64_t sure = groups * sh.waves_per_group * k.entry_steps;
    if (becomes_hot(k, launch, k.interpreted.load() + sure)) {
      compile_hot(k, sh);
      sh.compiling_ns = 0;  // before the launch's clock and timeout start
    }
  }
  if (launch.timeout_seconds > 0) {
    sh.has_deadline = true;
    sh.deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(launch.timeout_seconds));
  }
  RunStats stats;
  std::mutex stats_mutex;
  const auto start = std::chrono::steady_clock::now();
  const unsigned jobs = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(launch.jobs ? launch.jobs : 1, groups)));
  std::vector<GroupState> resident;
  std::unique_ptr<ResidentGrid> grid;
  if (k.uses_global_wave_sync) {
    if (groups > kMaxResidentWorkgroups)
      return error(co, "emu-bad-launch",
                   fmt::format("kernel {}: it uses global wave sync (a grid-wide barrier), which needs all {} workgroups of the grid resident "
                               "at once; the emulator keeps at most {}",
                               kernel.name, groups, kMaxResidentWorkgroups));
    resident.resize(groups);
    for (std::uint64_t n = 0; n < groups; ++n) {
      resident[n].waves.resize(sh.waves_per_group);
      start_group(resident[n], n, sh, static_cast<std::uint32_t>(threads));
    }
    grid = std::make_unique<ResidentGrid>(resident, sh);
  }
  // With a thread on every core, the last one leaves its core to the compile helper while it
  // works: the helper's compile otherwise shared two cores with two interpreting threads (rtm8's
  // kernel: 3.2 s to compile, against 1.2 s alone).
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  auto work = [&](unsigned index) {
    if (grid) resident_worker(*grid, sh, stats, stats_mutex, memory);
    else worker(sh, stats, stats_mutex, memory, index > 0 && index + 1 >= cores);
  };
  if (jobs == 1) {
    work(0);
  } else {
    std::vector<std::thread> threads_pool;
    for (unsigned i = 0; i < jobs; ++i) threads_pool.emplace_back(work, i);
    for (auto& t : threads_pool) t.join();
  }
  if (grid && !grid->deadlock().empty() && !sh.failure)
    return error(co, "emu-fault", fmt::format("kernel {}: the grid cannot finish: {}", kernel.name, grid->deadlock()));
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  memory.forget(kernarg_address);
  memory.forget(packet_address);
  memory.forget(queue_address);
  for (const auto& [step, e] : sh.memcheck.uninitialised_lds)
    stats.memcheck.push_back(fmt::format("kernel {}: {} read{} of uninitialised LDS at {} ({}); the first: {}", kernel.name, e.count,
                                         e.count == 1 ? "" : "s", k.where(*step->instruction), step->instruction->text, e.first));
  if (sh.failure) return *sh.failure;
  return stats;
}

}  // namespace gpuport::emu
