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
#include <unordered_map>

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
  if (Handler h = resolve_scalar(p, step)) return h;
  if (Handler h = resolve_packed(p, step)) return h;
  if (Handler h = resolve_vector(p, step)) return h;
  return resolve_memory(p, step);
}

bool is_branch(std::string_view m) { return m == "s_branch" || m.starts_with("s_cbranch_"); }

// What the emulator cannot honour for this instruction: a modifier its handler does not
// implement (Step::accepts says which it does). Refusing is better than computing without it.
std::string unsupported_modifiers(const ParsedInstruction& p, const Step& s) {
  const Modifiers& m = p.modifiers;
  if ((m.dpp || m.dpp8) && !(s.accepts & Accepts::dpp)) return "DPP";
  if (m.op_sel != 0 && !(s.accepts & Accepts::op_sel)) return "op_sel";
  if (m.op_sel_hi_given && !(s.accepts & Accepts::op_sel)) return "op_sel_hi";
  if ((m.neg_lo || m.neg_hi) && !(s.accepts & Accepts::neg_lo_hi)) return "neg_lo/neg_hi";
  for (const auto& o : p.operands) {
    if (o.sext && !(s.accepts & Accepts::sext)) return "sext";
    if (o.high16 && !(s.accepts & Accepts::high16)) return "16-bit register halves";
  }
  const bool control = p.mnemonic.starts_with("s_waitcnt") || p.mnemonic == "s_delay_alu" || p.mnemonic == "s_sendmsg" ||
                       p.mnemonic.starts_with("s_set") || p.mnemonic.starts_with("s_get");
  if (!m.unknown.empty() && !control) return m.unknown.front();
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

Result<std::shared_ptr<PreparedKernel>> prepare_kernel(const amdgpu::CodeObject& co, const amdgpu::Kernel& kernel,
                                                       const amdgpu::Disassembler& disassembler) {
  auto code = disassembler.decode(co, kernel);
  if (!code) return Result<std::shared_ptr<PreparedKernel>>::failure(code.diagnostics());
  auto k = std::make_shared<PreparedKernel>();
  k->code_object = &co;
  k->kernel = &kernel;
  k->code = std::move(*code);
  k->wave64 = !kernel.descriptor.wave32;
  std::unordered_map<std::uint64_t, std::size_t> index_of;
  for (std::size_t i = 0; i < k->code.instructions.size(); ++i) index_of[k->code.instructions[i].address] = i;
  std::vector<Diagnostic> errors;
  k->steps.resize(k->code.instructions.size());
  for (std::size_t i = 0; i < k->code.instructions.size(); ++i) {
    const amdgpu::Instruction& inst = k->code.instructions[i];
    Step& step = k->steps[i];
    step.instruction = &inst;
    const std::uint64_t offset = inst.address - kernel.code_address;
    auto unsupported = [&](const std::string& why) {
      errors.push_back(error(co, "emu-unsupported",
                             fmt::format("kernel {}: the instruction at byte offset {:#x} ({}) is not implemented by the emulator{}",
                                         kernel.name, offset, inst.text, why.empty() ? "" : ": " + why)));
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
      step.handler = vopd_handler();
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
      auto it = index_of.find(target);
      if (it == index_of.end()) {
        errors.push_back(error(co, "emu-bad-branch",
                               fmt::format("kernel {}: the branch at byte offset {:#x} ({}) goes to {:#x}, which is no instruction of the kernel",
                                           kernel.name, offset, inst.text, target - kernel.code_address)));
        continue;
      }
      step.target = static_cast<std::int64_t>(it->second);
    }
  }
  if (!errors.empty()) return Result<std::shared_ptr<PreparedKernel>>::failure(std::move(errors));
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
    else put(a, 0);  // remainders and global offsets are 0 for whole workgroups; no hostcall, heap or queue yet
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
  int trace_lane = -1;  // GPUPORT_EMU_TRACE=<lane>: print every instruction of wave 0 of workgroup 0
};

void init_wave(Wave& w, const Shared& sh, Workgroup& g, std::uint32_t index, std::uint32_t threads) {
  const amdgpu::Kernel& k = *sh.kernel->kernel;
  const amdgpu::KernelDescriptor& d = k.descriptor;
  const auto& block = sh.launch->block;
  w.size = sh.wave_size;
  w.s.fill(0);
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
  std::uint64_t exec = 0;
  for (std::uint32_t lane = 0; lane < w.size; ++lane) {
    const std::uint32_t t = index * w.size + lane;
    if (t >= threads) break;
    exec |= 1ull << lane;
    const std::uint32_t x = t % block[0], y = (t / block[0]) % block[1], z = t / (block[0] * block[1]);
    w.vgpr(0, lane) = x | y << 10 | z << 20;
  }
  w.set_exec(exec);
}

// Runs one wave until it ends, reaches a barrier, or faults.
bool run_wave(Wave& w, const PreparedKernel& k, Context& c, Shared& sh) {
  const auto& steps = k.steps;
  std::uint64_t budget = sh.launch->max_instructions ? sh.launch->max_instructions : ~0ull;
  std::uint64_t count = 0;
  while (!w.done && !w.at_barrier) {
    if (w.pc >= steps.size()) {
      Fault f;
      f.message = "execution ran past the last instruction of the kernel";
      c.fault = f;
      return false;
    }
    const Step& st = steps[w.pc];
    c.lane_instructions += static_cast<std::uint64_t>(std::popcount(w.exec()));
    if (!st.handler(w, st, c)) return false;
    if (sh.trace_lane >= 0 && w.group->id == std::array<std::uint32_t, 3>{0, 0, 0} && w.index_in_group == 0) {
      std::string line = fmt::format("{:6x}: {:<60} exec={:016x} scc={}", st.instruction->address - k.kernel->code_address,
                                     st.instruction->text, w.exec(), w.scc ? 1 : 0);
      if (!st.ops.empty()) {
        const Operand& d = st.ops[0];
        if (d.kind == Operand::Kind::vgpr)
          for (unsigned i = 0; i < d.width; ++i) line += fmt::format(" v{}={:#x}", d.reg + i, w.vgpr(d.reg + i, static_cast<std::uint32_t>(sh.trace_lane)));
        else if (d.kind == Operand::Kind::sgpr)
          for (unsigned i = 0; i < d.width; ++i) line += fmt::format(" s{}={:#x}", d.reg + i, w.s[(d.reg + i) & 127]);
        if (st.ops.size() > 1 && st.ops[1].kind == Operand::Kind::sgpr && st.ops[0].kind == Operand::Kind::vgpr)
          line += fmt::format(" s{}={:#x}", st.ops[1].reg, w.s[st.ops[1].reg]);
      }
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    ++w.pc;
    if (++count >= budget) {
      Fault f;
      f.message = fmt::format("the wave ran {} instructions without finishing (--max-instructions)", count);
      c.fault = f;
      return false;
    }
    if ((count & 0xffff) == 0 && sh.has_deadline && std::chrono::steady_clock::now() > sh.deadline) {
      Fault f;
      f.message = fmt::format("the kernel ran past the timeout of {} s", sh.launch->timeout_seconds);
      c.fault = f;
      return false;
    }
    if ((count & 0xffff) == 0 && sh.stop.load(std::memory_order_relaxed)) return true;
  }
  c.instructions += count;
  return true;
}

void worker(Shared& sh, RunStats& stats, std::mutex& stats_mutex, AddressSpace& memory) {
  const PreparedKernel& k = *sh.kernel;
  const Launch& L = *sh.launch;
  const std::uint64_t groups = std::uint64_t(L.grid[0]) * L.grid[1] * L.grid[2];
  const std::uint32_t threads = L.block[0] * L.block[1] * L.block[2];
  const std::uint32_t waves = (threads + sh.wave_size - 1) / sh.wave_size;
  Context c;
  c.memory = &memory;
  c.image_base = sh.image_base;
  std::vector<Wave> wave(waves);
  Workgroup g;
  std::uint64_t done_groups = 0;
  for (;;) {
    if (sh.stop.load()) break;
    const std::uint64_t n = sh.next.fetch_add(1);
    if (n >= groups) break;
    g.id = {static_cast<std::uint32_t>(n % L.grid[0]), static_cast<std::uint32_t>((n / L.grid[0]) % L.grid[1]),
            static_cast<std::uint32_t>(n / (std::uint64_t(L.grid[0]) * L.grid[1]))};
    g.lds.assign(sh.lds_bytes, 0);
    for (std::uint32_t i = 0; i < waves; ++i) init_wave(wave[i], sh, g, i, threads);
    bool failed = false;
    for (;;) {
      bool all_done = true;
      for (auto& w : wave) {
        if (w.done) continue;
        if (!w.at_barrier && !run_wave(w, k, c, sh)) {
          failed = true;
          const amdgpu::Instruction* inst = w.pc < k.steps.size() ? k.steps[w.pc].instruction : nullptr;
          Diagnostic d;
          d.code = "emu-fault";
          d.location.file = k.code_object->origin;
          d.message = fmt::format("kernel {}: {}{} in workgroup ({}, {}, {}), wave {}{}", k.kernel->name, c.fault->message,
                                  inst ? fmt::format(" at byte offset {:#x} ({})", inst->address - k.kernel->code_address, inst->text)
                                       : std::string(),
                                  g.id[0], g.id[1], g.id[2], w.index_in_group,
                                  c.fault->lane >= 0 ? fmt::format(", lane {}", c.fault->lane) : std::string());
          std::lock_guard lock(sh.mutex);
          if (n < sh.failure_group) {
            sh.failure_group = n;
            sh.failure = std::move(d);
          }
          sh.stop = true;
          break;
        }
        if (!w.done) all_done = false;
      }
      if (failed || all_done) break;
      if (sh.stop.load()) {  // another workgroup faulted: its report is the one that counts
        failed = true;
        break;
      }
      // Every wave still running waits at the barrier: release them together.
      bool all_waiting = true;
      for (auto& w : wave)
        if (!w.done && !w.at_barrier) all_waiting = false;
      if (all_waiting)
        for (auto& w : wave) w.at_barrier = false;
    }
    if (failed) break;
    ++done_groups;
  }
  std::lock_guard lock(stats_mutex);
  stats.instructions += c.instructions;
  stats.lane_instructions += c.lane_instructions;
  stats.workgroups += done_groups;
  stats.waves += done_groups * waves;
}

}  // namespace

Result<RunStats> run_kernel(const PreparedKernel& k, Launch launch, AddressSpace& memory, std::uint64_t image_base) {
  const amdgpu::CodeObject& co = *k.code_object;
  const amdgpu::Kernel& kernel = *k.kernel;
  for (int i = 0; i < 3; ++i)
    if (launch.grid[i] == 0 || launch.block[i] == 0)
      return error(co, "emu-bad-launch", fmt::format("kernel {}: a grid or block dimension is 0", kernel.name));
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
  if (launch.timeout_seconds > 0) {
    sh.has_deadline = true;
    sh.deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(launch.timeout_seconds));
  }
  if (const char* t = std::getenv("GPUPORT_EMU_TRACE")) sh.trace_lane = std::atoi(t);
  RunStats stats;
  std::mutex stats_mutex;
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t groups = std::uint64_t(launch.grid[0]) * launch.grid[1] * launch.grid[2];
  const unsigned jobs = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(launch.jobs ? launch.jobs : 1, groups)));
  if (jobs == 1) {
    worker(sh, stats, stats_mutex, memory);
  } else {
    std::vector<std::thread> threads_pool;
    for (unsigned i = 0; i < jobs; ++i) threads_pool.emplace_back([&] { worker(sh, stats, stats_mutex, memory); });
    for (auto& t : threads_pool) t.join();
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  memory.forget(kernarg_address);
  memory.forget(packet_address);
  memory.forget(queue_address);
  if (sh.failure) return *sh.failure;
  return stats;
}

}  // namespace gpuport::emu
