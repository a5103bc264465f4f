// compare_tiers.h: a launch on the compiled code, its memory kept, the memory put back, the launch
// on the interpreter, and the two memories compared region by region.
#include "emu/compare_tiers.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace gpuport::emu {
namespace {

struct Copy {
  AddressSpace::Region region;
  std::vector<std::uint8_t> bytes;
};

std::vector<Copy> copy_of(const std::vector<AddressSpace::Region>& regions) {
  std::vector<Copy> out;
  out.reserve(regions.size());
  for (const auto& r : regions) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(r.base);
    out.push_back({r, std::vector<std::uint8_t>(p, p + r.size)});
  }
  return out;
}

void put_back(const std::vector<Copy>& copies) {
  for (const auto& c : copies) std::memcpy(reinterpret_cast<void*>(c.region.base), c.bytes.data(), c.bytes.size());
}

std::string kind_name(AddressSpace::Kind k) {
  switch (k) {
    case AddressSpace::Kind::device: return "device block";
    case AddressSpace::Kind::host: return "host block";
    case AddressSpace::Kind::kernarg: return "kernel arguments";
    case AddressSpace::Kind::code_object: return "code object";
    default: return "block";
  }
}

// The first difference between the compiled code's memory and the live (interpreter's) memory.
std::string first_difference(const std::vector<Copy>& jit) {
  for (const auto& c : jit) {
    const auto* live = reinterpret_cast<const std::uint8_t*>(c.region.base);
    if (std::memcmp(live, c.bytes.data(), c.bytes.size()) == 0) continue;
    std::uint64_t first = 0, count = 0;
    for (std::uint64_t i = c.bytes.size(); i-- > 0;)
      if (live[i] != c.bytes[i]) {
        first = i;
        ++count;
      }
    // The 4-byte word holding the first differing byte, in both.
    const std::uint64_t word = first & ~std::uint64_t(3);
    auto word_of = [&](const std::uint8_t* p) {
      std::uint32_t w = 0;
      std::memcpy(&w, p + word, std::min<std::uint64_t>(4, c.bytes.size() - word));
      return w;
    };
    return fmt::format("{} bytes differ in the {} at {:#x} ({}{} bytes); the first at byte {:#x}: the interpreter wrote {:#010x}, "
                       "the compiled code {:#010x}",
                       count, kind_name(c.region.kind), c.region.base, c.region.name.empty() ? "" : c.region.name + ", ", c.region.size,
                       first, word_of(live), word_of(c.bytes.data()));
  }
  return {};
}

std::string message_of(const Result<RunStats>& r) { return r ? std::string() : r.diagnostics().front().message; }

}  // namespace

Result<TierComparison> run_on_both_tiers(const PreparedKernel& kernel, Launch launch, AddressSpace& memory, std::uint64_t image_base,
                                         std::uint64_t memory_limit) {
  TierComparison out;
  launch.jobs = 1;
  const auto regions = memory.live();
  std::uint64_t bytes = 0;
  for (const auto& r : regions) bytes += r.size;
  if (launch.hostcall_buffer) out.not_compared = "it makes hostcalls (device printf or malloc), which would reach the host twice";
  else if (bytes > memory_limit)
    out.not_compared = fmt::format("its {} MiB of live memory exceed the {} MiB a comparison copies", bytes >> 20, memory_limit >> 20);
  if (!out.not_compared.empty()) {
    launch.jit = JitMode::never;
    auto r = run_kernel(kernel, std::move(launch), memory, image_base);
    if (!r) return Result<TierComparison>::failure(r.diagnostics());
    out.stats = *r;
    return out;
  }
  const std::vector<Copy> before = copy_of(regions);
  Launch compiled = launch;
  compiled.jit = JitMode::always;
  const Result<RunStats> j = run_kernel(kernel, std::move(compiled), memory, image_base);
  if (!kernel.jit_entry.load()) {
    out.not_compared = "the JIT does not compile it: " + kernel.jit_error;
  }
  const std::vector<Copy> after_jit = out.not_compared.empty() ? copy_of(regions) : std::vector<Copy>{};
  put_back(before);
  launch.jit = JitMode::never;
  Result<RunStats> i = run_kernel(kernel, std::move(launch), memory, image_base);
  // Where a timeout stops a run depends on the machine's speed: a run that reached it is not
  // compared (the interpreter's result stands, a timeout or not).
  auto timed_out = [](const Result<RunStats>& r) { return !r && r.diagnostics().front().code == kTimeoutCode; };
  if (out.not_compared.empty() && (timed_out(i) || timed_out(j)))
    out.not_compared = timed_out(j) ? "the compiled code reached the timeout" : "the interpreter reached the timeout";
  if (out.not_compared.empty()) {
    if (message_of(i) != message_of(j)) {
      out.difference = fmt::format("the interpreter {}, the compiled code {}", i ? "ran to the end" : "stopped: " + message_of(i),
                                   j ? "ran to the end" : "stopped: " + message_of(j));
    } else if (i && (i->instructions != j->instructions || i->lane_instructions != j->lane_instructions)) {
      out.difference = fmt::format("the interpreter ran {} instructions ({} lane-instructions), the compiled code {} ({})", i->instructions,
                                   i->lane_instructions, j->instructions, j->lane_instructions);
    } else {
      out.difference = first_difference(after_jit);
    }
  }
  if (!i && out.difference.empty()) return Result<TierComparison>::failure(i.diagnostics());
  if (i) out.stats = *i;
  return out;
}

}  // namespace gpuport::emu
