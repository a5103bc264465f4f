// Jump tables of BRX/JMX from the cubin: see indirect_branches.h.
#include "sass/indirect_branches.h"

#include <fmt/format.h>

namespace gpuport::sass {
namespace {

// The constant-bank byte offset an `LDC Rn, c[0x2][...]` reads, for the instruction that last
// wrote `reg` before `at` in straight-line code; nullopt when that is not such an LDC.
std::optional<std::int64_t> table_offset(const SassFunction& f, std::size_t at, std::uint16_t reg) {
  for (std::size_t k = at; k-- > 0 && at - k <= 32;) {
    const auto& in = f.instructions[k];
    if (in.operands.empty() || in.operands[0].kind != OperandKind::reg || in.operands[0].index != reg) continue;
    if (in.opcode != "LDC" || in.operands.size() < 2 || in.operands[1].kind != OperandKind::constant ||
        in.operands[1].bank != 2)
      return std::nullopt;
    const auto& c = in.operands[1];
    return c.address.has_offset ? c.address.offset : c.value;  // c[0x2][R7+0xc] / c[0x2][0xc]
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> resolve_indirect_branches(SassProgram& program, const Cubin& cubin, std::string_view file) {
  std::vector<std::string> problems;
  const std::uint64_t width = (program.arch != 0 ? program.arch : cubin.arch) >= 70 ? 16 : 8;
  for (auto& f : program.functions) {
    const CubinKernel* k = cubin.find_kernel(f.name);
    if (k == nullptr || k->indirect_branches.empty()) continue;
    std::string_view table;
    if (const CubinSection* s = cubin.find_section(".nv.constant2." + f.name)) table = Cubin::section_bytes(file, *s);
    auto entry = [&](std::size_t byte) -> std::optional<std::int64_t> {
      if (byte + 4 > table.size()) return std::nullopt;
      const auto* p = reinterpret_cast<const unsigned char*>(table.data() + byte);
      return static_cast<std::int32_t>(p[0] | p[1] << 8 | p[2] << 16 | static_cast<std::uint32_t>(p[3]) << 24);
    };
    std::size_t next_slot = 0;  // tables follow one another when no LDC says where one starts
    for (const auto& r : k->indirect_branches) {
      const std::size_t i = f.find_instruction(r.offset);
      auto fail = [&](std::string_view why) {
        problems.push_back(fmt::format("{} /*{:04x}*/: indirect branch targets not resolved: {}", f.name, r.offset, why));
      };
      if (i == SassFunction::npos) { fail("no instruction at that offset"); continue; }
      const auto& in = f.instructions[i];
      // Pascal cubins also list their BRK/SYNC stack pops here, with no table: nothing to do.
      if (in.opcode != "BRX" && in.opcode != "JMX") continue;
      std::int64_t displacement = 0;
      std::optional<std::uint16_t> reg;
      for (const auto& o : in.operands) {
        if (o.kind == OperandKind::reg && !reg) reg = o.index;
        if (o.kind == OperandKind::immediate && !o.is_float) displacement = o.value;
      }
      // BRX jumps relative to the next instruction; JMX is absolute within the function.
      const std::int64_t base = in.opcode == "BRX" ? static_cast<std::int64_t>(in.address + width) + displacement : displacement;
      std::size_t start = next_slot;
      if (reg)
        if (auto off = table_offset(f, i, *reg)) start = static_cast<std::size_t>(*off);
      std::vector<std::uint64_t> targets;
      bool ok = true;
      for (std::uint32_t t = 0; t < r.count && ok; ++t) {
        auto v = entry(start + 4 * t);
        if (!v) { ok = false; break; }
        const std::int64_t address = base + *v;
        if (address < 0 || f.find_instruction(static_cast<std::uint64_t>(address)) == SassFunction::npos) ok = false;
        else targets.push_back(static_cast<std::uint64_t>(address));
      }
      if (!ok) {
        fail(table.empty() ? "no .nv.constant2 table" : "the jump table does not lead to instructions");
        continue;
      }
      next_slot = start + 4 * r.count;
      f.indirect_targets.emplace_back(in.address, std::move(targets));
    }
  }
  return problems;
}

}  // namespace gpuport::sass
