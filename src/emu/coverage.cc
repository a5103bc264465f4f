#include "emu/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "emu/interpreter.h"

namespace gpuport::emu {

extern const char* const kApproximateTable;  // data/emu/approximate.tsv, compiled in

namespace {

const std::map<std::string, InstructionStatus, std::less<>>& approximate_table() {
  static const auto table = [] {
    std::map<std::string, InstructionStatus, std::less<>> t;
    std::string_view rest = kApproximateTable;
    while (!rest.empty()) {
      const auto nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      if (line.empty() || line[0] == '#') continue;
      std::vector<std::string_view> cells;
      while (true) {
        const auto tab = line.find('\t');
        cells.push_back(line.substr(0, tab));
        if (tab == std::string_view::npos) break;
        line.remove_prefix(tab + 1);
      }
      if (cells.size() < 3) continue;
      t[std::string(cells[0])] = {Status::approximate, std::string(cells[1]), std::string(cells[2])};
    }
    return t;
  }();
  return table;
}

}  // namespace

InstructionStatus status_of(std::string_view mnemonic) {
  std::string base(mnemonic);
  if (base.starts_with("v_dual_")) base = "v_" + base.substr(7);
  if (!implements(base)) return {};
  const auto& t = approximate_table();
  if (auto it = t.find(base); it != t.end()) return it->second;
  return {Status::exact, "", ""};
}

Result<std::vector<KernelCoverage>> coverage(const amdgpu::CodeObject& co) {
  std::vector<KernelCoverage> out;
  std::unique_ptr<amdgpu::Disassembler> d32, d64;
  for (const auto& k : co.kernels) {
    auto& d = k.descriptor.wave32 ? d32 : d64;
    if (!d) {
      auto r = amdgpu::Disassembler::create(!k.descriptor.wave32);
      if (!r) return Result<std::vector<KernelCoverage>>::failure(r.diagnostics());
      d = std::move(*r);
    }
    KernelCoverage kc;
    kc.kernel = k.name;
    auto code = d->decode(co, k);
    if (!code) return Result<std::vector<KernelCoverage>>::failure(code.diagnostics());
    kc.instructions = code->instructions.size();
    std::set<std::string> approximate;
    for (const auto& i : code->instructions) {
      // VOPD pairs name two mnemonics in one instruction ("x ... :: y ...").
      std::string_view text = i.text;
      while (!text.empty()) {
        std::string mnemonic(text.substr(0, text.find(' ')));
        for (std::string_view suffix : {"_dpp", "_e32", "_e64", "_sdwa"})  // "_e64_dpp": both
          if (mnemonic.ends_with(suffix)) mnemonic.resize(mnemonic.size() - suffix.size());
        if (status_of(mnemonic).status == Status::approximate) approximate.insert(mnemonic);
        const auto dual = text.find(":: ");
        text = dual == std::string_view::npos ? std::string_view() : text.substr(dual + 3);
      }
    }
    kc.approximate.assign(approximate.begin(), approximate.end());
    bool calls = false;
    for (const auto& i : code->instructions)
      calls |= i.mnemonic == "s_swappc_b64" || i.mnemonic == "s_setpc_b64" || i.mnemonic == "s_call_b64";
    auto prepared = prepare_kernel(co, k, *d);
    if (!prepared)
      for (const auto& e : prepared.diagnostics()) kc.unsupported.push_back(e.message);
    else if (calls)
      kc.unsupported_in_callees = (*prepared)->unimplemented_in_functions;
    out.push_back(std::move(kc));
  }
  return out;
}

std::string format_coverage(const amdgpu::CodeObject& co, const std::vector<KernelCoverage>& kernels) {
  std::string out = fmt::format("{}: {} kernel(s) for gfx1100 (emulated)\n", co.origin, kernels.size());
  std::size_t unsupported = 0, may_stop = 0;
  for (const auto& k : kernels) {
    const char* verdict = !k.unsupported.empty()             ? "UNSUPPORTED"
                          : !k.unsupported_in_callees.empty() ? "MAY-STOP"
                          : !k.approximate.empty()            ? "approximate"
                                                              : "exact";
    out += fmt::format("  {:<12} {} ({} instructions)", verdict, k.kernel, k.instructions);
    if (!k.approximate.empty()) out += fmt::format("; approximate: {}", fmt::join(k.approximate, ", "));
    out += "\n";
    for (const auto& u : k.unsupported) out += "    " + u + "\n";
    for (const auto& u : k.unsupported_in_callees) out += "    (if called) " + u + "\n";
    unsupported += k.unsupported.size();
    may_stop += k.unsupported_in_callees.size();
  }
  out += unsupported ? fmt::format("{} instruction(s) the emulator does not implement: the program cannot run\n", unsupported)
         : may_stop  ? fmt::format("{} instruction(s) the emulator does not implement in device functions the kernels may call: "
                                   "a kernel stops if it reaches one\n", may_stop)
                     : "every instruction is implemented\n";
  return out;
}

}  // namespace gpuport::emu
