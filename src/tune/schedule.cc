#include "tune/schedule.h"

#include <algorithm>
#include <map>

#include "sass/printer.h"

namespace gpuport::tune {

namespace {

using sass::RegisterRef;

constexpr int kScoreboards = 6;   // SB0..SB5; 7 in a barrier field means none
constexpr int kScoreboardSetup = 2;  // cycles a scoreboard takes to be seen by a waiter
// The largest fixed latency in the opcode table: the bound for producers in other blocks.
int largest_fixed_latency(const TuneOpcodeTable& table) {
  int most = 1;
  for (const auto& row : table.rows) most = std::max(most, row.latency < 64 ? row.latency : 0);
  return most;
}

bool sets_scoreboard(const sass::ControlCode& c, int k) { return c.write_barrier == k || c.read_barrier == k; }
bool waits_scoreboard(const sass::ControlCode& c, int k) { return (c.wait_mask >> k & 1) != 0; }

int access_bytes(const sass::SassInstruction& inst) {
  if (inst.opcode == "LDSM" || inst.has_modifier("128")) return 16;
  if (inst.has_modifier("64")) return 8;
  for (std::string_view m : inst.modifiers)
    if (m == "U8" || m == "S8" || m == "8") return 1;
    else if (m == "U16" || m == "S16" || m == "16") return 2;
  return 4;
}

// Modifiers that make an access part of the memory model (volatile, relaxed, acquire/release,
// MMIO): such accesses are never reordered by address arithmetic.
bool is_weak_access(const sass::SassInstruction& inst) {
  for (std::string_view m : inst.modifiers)
    if (m == "STRONG" || m == "MMIO" || m == "VOLATILE" || m == "SYS" || m == "GPU" || m == "ACQUIRE" ||
        m == "RELEASE" || m == "RELAXED" || m == "SC")
      return false;
  return true;
}

MemoryAccess describe_access(const sass::SassInstruction& inst, const TuneOpcodeInfo& info) {
  MemoryAccess a;
  a.space = info.space;
  a.reads = info.cls == OpcodeClass::load || info.cls == OpcodeClass::atomic;
  a.writes = info.cls == OpcodeClass::store || info.cls == OpcodeClass::atomic;
  a.bytes = access_bytes(inst);
  for (const sass::SassOperand& op : inst.operands) {
    if (op.kind != sass::OperandKind::memory) continue;
    const sass::MemoryAddress& m = op.address;
    bool no_index = !m.index.present || m.index.index == sass::kZeroRegister;
    if (m.base.present && m.base.index != sass::kZeroRegister && no_index && is_weak_access(inst)) {
      a.known_address = true;
      a.base = {m.base.kind == sass::OperandKind::uniform_reg ? sass::RegisterFile::ur : sass::RegisterFile::r,
                m.base.index};
      a.offset = m.has_offset ? m.offset : 0;
      a.descriptor = std::string(m.descriptor.view());
    }
    break;
  }
  return a;
}

// Whether two accesses of one thread may touch the same bytes. Constant banks are never written;
// the shared, global and local windows are disjoint; a generic address may be any of them. Only
// thread-private (local) and global accesses are told apart by offsets from one base value:
// shared memory is where warp-synchronous code exchanges data between lanes without a barrier.
bool may_alias(const MemoryAccess& a, const MemoryAccess& b) {
  if (a.space == MemorySpace::constant || b.space == MemorySpace::constant) return false;
  auto window = [](MemorySpace s) { return s == MemorySpace::texture ? MemorySpace::global : s; };
  MemorySpace sa = window(a.space), sb = window(b.space);
  if (sa != sb && sa != MemorySpace::generic && sb != MemorySpace::generic) return false;
  if (sa != sb || !a.known_address || !b.known_address) return true;
  if (sa != MemorySpace::global && sa != MemorySpace::local) return true;
  if (a.base != b.base || a.base_version != b.base_version || a.descriptor != b.descriptor) return true;
  return a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

std::string describe(const sass::SassFunction& f, std::size_t index) {
  char address[16];
  std::snprintf(address, sizeof address, "/*%04llx*/ ", static_cast<unsigned long long>(f.instructions[index].address));
  return address + sass::print_instruction(f.instructions[index]);
}

// The pair registers a 64-bit address base occupies.
std::vector<RegisterRef> base_registers(const sass::SassInstruction& inst, const MemoryAccess& a) {
  std::vector<RegisterRef> regs{a.base};
  for (const sass::SassOperand& op : inst.operands)
    if (op.kind == sass::OperandKind::memory && op.address.wide) regs.push_back({a.base.file, static_cast<std::uint16_t>(a.base.index + 1)});
  return regs;
}

class BlockBuilder {
 public:
  BlockBuilder(KernelSchedule& s, BlockSchedule& b, int fixed_bound) : s_(s), b_(b), fixed_bound_(fixed_bound) {}

  void build() {
    register_dependences();
    scoreboard_dependences();
    memory_dependences();
    fence_dependences();
    std::sort(b_.dependences.begin(), b_.dependences.end(), [](const Dependence& x, const Dependence& y) {
      return std::tie(x.after, x.before) < std::tie(y.after, y.before);
    });
    b_.predecessors.assign(b_.count, {});
    for (const Dependence& d : b_.dependences) {
      auto& p = b_.predecessors[d.after];
      if (p.empty() || p.back() != d.before) p.push_back(d.before);
    }
    distances_within();
  }

 private:
  const InstructionFacts& fact(std::uint32_t local) const { return s_.facts[b_.first + local]; }
  void add(std::uint32_t before, std::uint32_t after, Dependence::Kind kind) {
    if (before != after) b_.dependences.push_back({before, after, kind});
  }
  int original_distance(std::uint32_t from, std::uint32_t to) const {
    int cycles = 0;
    for (std::uint32_t i = from; i < to; ++i) cycles += fact(i).stall();
    return cycles;
  }

  void register_dependences() {
    struct State {
      std::optional<std::uint32_t> last_def;
      std::vector<std::uint32_t> uses;
      std::uint32_t version = 0;
    };
    std::map<RegisterRef, State> state;
    for (std::uint32_t j = 0; j < b_.count; ++j) {
      InstructionFacts& f = s_.facts[b_.first + j];
      if (f.memory.known_address) {
        std::uint32_t version = 0;
        for (RegisterRef r : base_registers(s_.function->instructions[b_.first + j], f.memory)) version += state[r].version;
        f.memory.base_version = version;
      }
      for (RegisterRef u : f.def_use.uses) {
        State& st = state[u];
        if (st.last_def) flow(*st.last_def, j);
        st.uses.push_back(j);
      }
      for (RegisterRef d : f.def_use.defs) {
        State& st = state[d];
        if (st.last_def) output(*st.last_def, j);
        for (std::uint32_t u : st.uses) anti(u, j);
        st.last_def = j;
        st.uses.clear();
        ++st.version;
      }
    }
    for (auto& [reg, st] : state) {
      if (st.last_def) live_out_.push_back(*st.last_def);
    }
  }

  // Producer -> consumer through a register: the consumer must also stay behind the first wait
  // on the producer's scoreboard, and a fixed-latency producer keeps its distance.
  void flow(std::uint32_t p, std::uint32_t c) {
    add(p, c, Dependence::Kind::register_flow);
    guard(p, c, fact(p).control.write_barrier);
    keep_distance(p, c);
  }
  void output(std::uint32_t p, std::uint32_t c) {
    add(p, c, Dependence::Kind::register_output);
    guard(p, c, fact(p).control.write_barrier);
    keep_distance(p, c);
  }
  void anti(std::uint32_t reader, std::uint32_t writer) {
    add(reader, writer, Dependence::Kind::register_anti);
    guard(reader, writer, fact(reader).control.read_barrier);
  }
  void guard(std::uint32_t producer, std::uint32_t consumer, int scoreboard) {
    if (scoreboard >= kScoreboards) return;
    for (std::uint32_t w = producer + 1; w < consumer; ++w)
      if (waits_scoreboard(fact(w).control, scoreboard)) {
        add(w, consumer, Dependence::Kind::wait_guard);
        return;
      }
  }
  void keep_distance(std::uint32_t p, std::uint32_t c) {
    if (fact(p).variable_latency) return;
    int needed = std::min(original_distance(p, c), fact(p).info.latency);
    if (needed > 1) b_.distances.push_back({p, c, needed});
  }

  void scoreboard_dependences() {
    for (int k = 0; k < kScoreboards; ++k) {
      std::optional<std::uint32_t> last;
      std::optional<std::uint32_t> last_setter;
      for (std::uint32_t j = 0; j < b_.count; ++j) {
        const sass::ControlCode& c = fact(j).control;
        bool waits = waits_scoreboard(c, k), sets = sets_scoreboard(c, k);
        if (!waits && !sets) continue;
        if (last) add(*last, j, Dependence::Kind::scoreboard);
        if (waits && last_setter) {
          int needed = std::min(original_distance(*last_setter, j), kScoreboardSetup);
          if (needed > 1) b_.distances.push_back({*last_setter, j, needed});
        }
        last = j;
        if (sets) last_setter = j;
      }
    }
  }

  void memory_dependences() {
    std::vector<std::uint32_t> accesses;
    for (std::uint32_t j = 0; j < b_.count; ++j)
      if (fact(j).memory.space != MemorySpace::none) accesses.push_back(j);
    for (std::size_t x = 0; x < accesses.size(); ++x)
      for (std::size_t y = x + 1; y < accesses.size(); ++y) {
        const MemoryAccess& a = fact(accesses[x]).memory;
        const MemoryAccess& b = fact(accesses[y]).memory;
        if ((a.writes || b.writes) && may_alias(a, b)) add(accesses[x], accesses[y], Dependence::Kind::memory);
      }
  }

  void fence_dependences() {
    std::optional<std::uint32_t> previous;
    for (std::uint32_t j = 0; j < b_.count; ++j) {
      if (!fact(j).fence) continue;
      for (std::uint32_t i = previous ? *previous : 0; i < j; ++i) add(i, j, Dependence::Kind::fence);
      previous = j;
    }
    for (std::uint32_t j = 0; j < b_.count; ++j)
      if (fact(j).fence)
        for (std::uint32_t i = j + 1; i < b_.count && !fact(i).fence; ++i) add(j, i, Dependence::Kind::fence);
  }

  void distances_within() {
    // A fixed-latency value read in a later block: keep the producer's distance to the block end.
    std::sort(live_out_.begin(), live_out_.end());
    live_out_.erase(std::unique(live_out_.begin(), live_out_.end()), live_out_.end());
    for (std::uint32_t p : live_out_) {
      if (fact(p).variable_latency) continue;
      int needed = std::min(original_distance(p, static_cast<std::uint32_t>(b_.count)), fact(p).info.latency);
      if (needed > 1) b_.distances.push_back({p, DistanceConstraint::kBlockEnd, needed});
    }
    // A value from an earlier block: keep the consumer's distance from the block start unless
    // every predecessor already leaves the producer's latency behind (see live_in_distance).
    std::vector<RegisterRef> defined;
    for (std::uint32_t j = 0; j < b_.count; ++j) {
      const InstructionFacts& f = fact(j);
      int needed = 0;
      for (RegisterRef u : f.def_use.uses)
        if (!std::binary_search(defined.begin(), defined.end(), u)) needed = std::max(needed, live_in_need(u));
      needed = std::min(needed, original_distance(0, j));
      if (needed > 1) b_.distances.push_back({DistanceConstraint::kBlockStart, j, needed});
      for (RegisterRef d : f.def_use.defs) defined.insert(std::lower_bound(defined.begin(), defined.end(), d), d);
    }
  }

  // The cycles a read of live-in `reg` at the block start may still owe its producer: scan each
  // predecessor block backwards for the last definition; one that is variable-latency owes
  // nothing (a scoreboard guards it), a fixed-latency one owes its latency less its distance to
  // the block end; a predecessor scanned through without finding one owes the bound less its
  // length (the producer lies further back).
  int live_in_need(RegisterRef reg) {
    auto cached = live_in_cache_.find(reg);
    if (cached != live_in_cache_.end()) return cached->second;
    int need = 0;
    for (std::size_t pred : s_.cfg.predecessor_blocks(b_.block)) {
      const sass::BasicBlock& pb = s_.cfg.blocks[pred];
      if (pb.is_virtual_exit) continue;
      int distance = 0;
      bool found = false;
      for (std::size_t i = pb.last + 1; i-- > pb.first;) {
        const InstructionFacts& f = s_.facts[i];
        distance += f.stall();
        if (std::find(f.def_use.defs.begin(), f.def_use.defs.end(), reg) != f.def_use.defs.end()) {
          if (!f.variable_latency) need = std::max(need, f.info.latency - distance);
          found = true;
          break;
        }
        if (distance >= fixed_bound_) break;
      }
      if (!found) need = std::max(need, fixed_bound_ - distance);
    }
    live_in_cache_[reg] = need;
    return need;
  }

  KernelSchedule& s_;
  BlockSchedule& b_;
  int fixed_bound_;
  std::vector<std::uint32_t> live_out_;
  std::map<RegisterRef, int> live_in_cache_;
};

// Positions of a block's instructions (local index -> slot within the block) in `order`, or
// false when the block's slots hold instructions of another block.
bool block_positions(const KernelSchedule& s, const BlockSchedule& b, const Order& order, std::vector<std::uint32_t>& pos) {
  pos.assign(b.count, UINT32_MAX);
  for (std::size_t slot = 0; slot < b.count; ++slot) {
    std::uint32_t original = order[b.first + slot];
    if (original < b.first || original >= b.first + b.count || pos[original - b.first] != UINT32_MAX) return false;
    pos[original - b.first] = static_cast<std::uint32_t>(slot);
  }
  (void)s;
  return true;
}

// Problems of one block under `order` (at most `limit`, 0 = all).
// `dependences` false: the caller has already checked them (try_move checks the only pairs a
// rotation reorders: the moved instruction against those it passes).
std::vector<std::string> check_block(const KernelSchedule& s, const BlockSchedule& b, const Order& order, std::size_t limit,
                                     const StallPlan& stalls, bool dependences = true) {
  std::vector<std::string> problems;
  std::vector<std::uint32_t> pos;
  const sass::SassFunction& f = *s.function;
  if (!block_positions(s, b, order, pos)) {
    problems.push_back("block at " + describe(f, b.first) + ": its slots hold instructions of another block");
    return problems;
  }
  auto full = [&] { return limit != 0 && problems.size() >= limit; };
  for (const Dependence& d : b.dependences) {
    if (!dependences) break;
    if (pos[d.before] < pos[d.after]) continue;
    problems.push_back(std::string(dependence_kind_name(d.kind)) + " dependence reversed: " + describe(f, b.first + d.before) +
                       " must stay before " + describe(f, b.first + d.after));
    if (full()) return problems;
  }
  std::vector<int> stall_at(b.count);
  for (std::size_t slot = 0; slot < b.count; ++slot) {
    std::uint32_t i = order[b.first + slot];
    stall_at[slot] = stall_of(s, stalls, i);
    if (!stalls.empty() && stalls[i] < s.facts[i].control.stall) {
      problems.push_back("stall lowered below the compiled " + std::to_string(s.facts[i].control.stall) + " cycles: " + describe(f, i));
      if (full()) return problems;
    }
    if (!stalls.empty() && stalls[i] > max_stall(s.facts[i].control)) {
      problems.push_back("stall " + std::to_string(stalls[i]) + " cannot be encoded with this yield bit: " + describe(f, i));
      if (full()) return problems;
    }
  }
  // Issue cycle of each slot: a distance is then a difference of two entries.
  std::vector<int> issue(b.count + 1, 0);
  for (std::size_t slot = 0; slot < b.count; ++slot) issue[slot + 1] = issue[slot] + stall_at[slot];
  auto cycles = [&](std::size_t from, std::size_t to) { return issue[to] - issue[from]; };
  for (const DistanceConstraint& d : b.distances) {
    std::size_t from = d.producer == DistanceConstraint::kBlockStart ? 0 : pos[d.producer];
    std::size_t to = d.consumer == DistanceConstraint::kBlockEnd ? b.count : pos[d.consumer];
    if (to > from && cycles(from, to) >= d.cycles) continue;
    std::string p = d.producer == DistanceConstraint::kBlockStart ? "the block start" : describe(f, b.first + d.producer);
    std::string c = d.consumer == DistanceConstraint::kBlockEnd ? "the block end" : describe(f, b.first + d.consumer);
    problems.push_back("issue distance below " + std::to_string(d.cycles) + " cycles from " + p + " to " + c);
    if (full()) return problems;
  }
  return problems;
}

}  // namespace

std::string_view dependence_kind_name(Dependence::Kind kind) {
  switch (kind) {
    case Dependence::Kind::register_flow: return "register (read after write)";
    case Dependence::Kind::register_anti: return "register (write after read)";
    case Dependence::Kind::register_output: return "register (write after write)";
    case Dependence::Kind::scoreboard: return "scoreboard";
    case Dependence::Kind::wait_guard: return "scoreboard wait";
    case Dependence::Kind::memory: return "memory";
    case Dependence::Kind::fence: return "fence";
  }
  return "?";
}

KernelSchedule analyse_schedule(const sass::SassFunction& function, int arch, const TuneOpcodeTable& table) {
  KernelSchedule s;
  s.function = &function;
  s.cfg = sass::build_cfg(function, arch);
  for (const std::string& p : s.cfg.problems) s.problems.push_back("control flow: " + p);
  std::vector<sass::InstructionDefUse> du = sass::def_use(function);
  s.has_control_codes = !function.instructions.empty();
  for (const sass::SassInstruction& inst : function.instructions)
    if (!inst.control || inst.encoding_words != 2) s.has_control_codes = false;
  if (!s.has_control_codes)
    s.problems.push_back("the listing has no Volta+ encodings with control codes (nvdisasm -hex of an sm_70+ cubin)");
  s.facts.resize(function.instructions.size());
  for (std::size_t i = 0; i < function.instructions.size(); ++i) {
    const sass::SassInstruction& inst = function.instructions[i];
    InstructionFacts& f = s.facts[i];
    f.info = classify_instruction(inst, table);
    f.def_use = du[i];
    if (inst.control) f.control = *inst.control;
    f.variable_latency = f.control.write_barrier < kScoreboards;
    f.fence = f.info.cls == OpcodeClass::fence || s.cfg.control_of[i] != sass::ControlKind::none || !f.def_use.known_opcode;
    if (f.info.cls == OpcodeClass::load || f.info.cls == OpcodeClass::store || f.info.cls == OpcodeClass::atomic)
      f.memory = describe_access(inst, f.info);
  }
  s.block_index.assign(function.instructions.size(), 0);
  int fixed_bound = largest_fixed_latency(table);
  for (const sass::BasicBlock& bb : s.cfg.blocks) {
    if (bb.is_virtual_exit || bb.size() == 0) continue;
    BlockSchedule b;
    b.block = bb.id;
    b.first = bb.first;
    b.count = bb.size();
    s.blocks.push_back(std::move(b));
  }
  std::sort(s.blocks.begin(), s.blocks.end(), [](const BlockSchedule& a, const BlockSchedule& b) { return a.first < b.first; });
  for (std::size_t bi = 0; bi < s.blocks.size(); ++bi) {
    for (std::size_t i = 0; i < s.blocks[bi].count; ++i) s.block_index[s.blocks[bi].first + i] = bi;
    if (s.has_control_codes) BlockBuilder(s, s.blocks[bi], fixed_bound).build();
  }
  return s;
}

Order identity_order(const KernelSchedule& schedule) {
  Order order(schedule.facts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  return order;
}

int max_stall(const sass::ControlCode& control) { return control.yield ? 11 : 15; }

StallPlan original_stalls(const KernelSchedule& schedule) {
  StallPlan stalls(schedule.facts.size());
  for (std::size_t i = 0; i < stalls.size(); ++i) stalls[i] = schedule.facts[i].control.stall;
  return stalls;
}

int stall_of(const KernelSchedule& schedule, const StallPlan& stalls, std::uint32_t instruction) {
  int stall = stalls.empty() ? schedule.facts[instruction].control.stall : stalls[instruction];
  return stall == 0 ? 1 : stall;
}

std::vector<std::string> check_order(const KernelSchedule& schedule, const Order& order, const StallPlan& stalls) {
  std::vector<std::string> problems;
  if (order.size() != schedule.facts.size()) {
    problems.push_back("the order has " + std::to_string(order.size()) + " slots for " +
                       std::to_string(schedule.facts.size()) + " instructions");
    return problems;
  }
  for (const BlockSchedule& b : schedule.blocks) {
    bool moved = false;
    for (std::size_t i = 0; i < b.count && !moved; ++i)
      moved = order[b.first + i] != b.first + i ||
              (!stalls.empty() && stalls[b.first + i] != schedule.facts[b.first + i].control.stall);
    if (!moved) continue;
    if (!schedule.problems.empty()) {
      problems.push_back("the kernel cannot be rescheduled: " + schedule.problems.front());
      return problems;
    }
    auto block_problems = check_block(schedule, b, order, 0, stalls);
    problems.insert(problems.end(), block_problems.begin(), block_problems.end());
  }
  return problems;
}

namespace {

// Raises stalls inside block `b` until every distance constraint holds: a deficit is paid by the
// instruction just before the consumer, then by those before it (15 cycles at most each).
// Returns false when some deficit cannot be paid.
bool repair_distances(const KernelSchedule& s, const BlockSchedule& b, const Order& order, StallPlan& stalls) {
  std::vector<std::uint32_t> pos;
  if (!block_positions(s, b, order, pos)) return false;
  std::vector<int> issue(b.count + 1, 0);
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    for (std::size_t slot = 0; slot < b.count; ++slot) issue[slot + 1] = issue[slot] + stall_of(s, stalls, order[b.first + slot]);
    for (const DistanceConstraint& d : b.distances) {
      std::size_t from = d.producer == DistanceConstraint::kBlockStart ? 0 : pos[d.producer];
      std::size_t to = d.consumer == DistanceConstraint::kBlockEnd ? b.count : pos[d.consumer];
      if (to <= from) return false;
      int deficit = d.cycles - (issue[to] - issue[from]);
      for (std::size_t slot = to; deficit > 0 && slot-- > from;) {
        std::uint32_t i = order[b.first + slot];
        std::uint8_t& st = stalls[i];
        int now = st == 0 ? 1 : st;
        int raise = std::min(deficit, max_stall(s.facts[i].control) - now);
        if (raise <= 0) continue;
        st = static_cast<std::uint8_t>(now + raise);
        deficit -= raise;
        changed = true;
        for (std::size_t later = slot + 1; later <= b.count; ++later) issue[later] += raise;
      }
      if (deficit > 0) return false;
    }
    if (!changed) return true;
  }
  return false;
}

}  // namespace

bool try_move(const KernelSchedule& schedule, Order& order, std::size_t from_slot, std::size_t to_slot, StallPlan* stalls) {
  if (!schedule.problems.empty() || from_slot == to_slot || from_slot >= order.size() || to_slot >= order.size()) return false;
  std::size_t bi = schedule.block_index[from_slot];
  if (schedule.block_index[to_slot] != bi) return false;
  const BlockSchedule& b = schedule.blocks[bi];
  // Cheap test first: the moved instruction against those it passes.
  std::uint32_t moving = order[from_slot];
  std::uint32_t local = moving - static_cast<std::uint32_t>(b.first);
  std::size_t lo = std::min(from_slot, to_slot), hi = std::max(from_slot, to_slot);
  auto operation_bits = [&](std::uint32_t i) {
    const auto& e = schedule.function->instructions[i].encoding;
    return std::pair{e[0], e[1] & ((std::uint64_t{1} << 41) - 1)};  // without the control field
  };
  for (std::size_t slot = lo; slot <= hi; ++slot) {
    if (slot == from_slot) continue;
    std::uint32_t other = order[slot] - static_cast<std::uint32_t>(b.first);
    // Swapping two identical instructions changes nothing and would make the order ambiguous.
    if (operation_bits(order[slot]) == operation_bits(moving)) return false;
    // Passing upwards: `other` must not be a predecessor of `moving`; downwards the reverse.
    const auto& preds = to_slot < from_slot ? b.predecessors[local] : b.predecessors[other];
    std::uint32_t needle = to_slot < from_slot ? other : local;
    if (std::binary_search(preds.begin(), preds.end(), needle)) return false;
  }
  Order saved(order.begin() + static_cast<std::ptrdiff_t>(lo), order.begin() + static_cast<std::ptrdiff_t>(hi + 1));
  if (to_slot < from_slot)
    std::rotate(order.begin() + static_cast<std::ptrdiff_t>(to_slot), order.begin() + static_cast<std::ptrdiff_t>(from_slot),
                order.begin() + static_cast<std::ptrdiff_t>(from_slot + 1));
  else
    std::rotate(order.begin() + static_cast<std::ptrdiff_t>(from_slot), order.begin() + static_cast<std::ptrdiff_t>(from_slot + 1),
                order.begin() + static_cast<std::ptrdiff_t>(to_slot + 1));
  if (stalls == nullptr) {
    if (check_block(schedule, b, order, 1, {}, false).empty()) return true;
  } else {
    StallPlan trial = *stalls;
    if (repair_distances(schedule, b, order, trial) && check_block(schedule, b, order, 1, trial, false).empty()) {
      *stalls = std::move(trial);
      return true;
    }
  }
  std::copy(saved.begin(), saved.end(), order.begin() + static_cast<std::ptrdiff_t>(lo));
  return false;
}

void relax_stalls(const KernelSchedule& schedule, const Order& order, StallPlan& stalls) {
  if (stalls.empty()) return;
  for (const BlockSchedule& b : schedule.blocks)
    for (std::size_t i = b.first; i < b.first + b.count; ++i) {
      while (stalls[i] > schedule.facts[i].control.stall) {
        --stalls[i];
        if (!check_block(schedule, b, order, 1, stalls, false).empty()) {
          ++stalls[i];
          break;
        }
      }
    }
}

int issue_distance(const KernelSchedule& schedule, const Order& order, std::size_t from_slot, std::size_t to_slot,
                   const StallPlan& stalls) {
  int cycles = 0;
  for (std::size_t i = from_slot; i < to_slot; ++i) cycles += stall_of(schedule, stalls, order[i]);
  return cycles;
}

}  // namespace gpuport::tune
