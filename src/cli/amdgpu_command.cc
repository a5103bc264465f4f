// gpuport amdgpu: what a gfx1100 code object holds (kernels, descriptors, arguments, decoded
// instructions), read from a HIP executable, an offload bundle or a code object. Argument
// handling and printing only; the work is in amdgpu/.
#include <cstdio>

#include <fmt/format.h>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "amdgpu/listing.h"
#include "cli/commands.h"
#include "common/json.h"
#include "emu/coverage.h"

namespace gpuport::cli {
namespace {

struct AmdgpuArguments {
  std::string input;
  std::vector<std::string> kernels;
  bool json = false;
  bool wave64 = false;
  bool forms = false;
};

int print_errors(const std::vector<Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
  return 1;
}

int run_amdgpu(const AmdgpuArguments& a) {
  if (a.forms) {
    auto disassembler = amdgpu::Disassembler::create(a.wave64);
    if (!disassembler) return print_errors(disassembler.diagnostics());
    std::string out =
        "# form\tmnemonic\temulator (every gfx11 encoding LLVM's AMDGPU MC layer knows; the emulator's status of its mnemonic:\n"
        "# exact, approximate with the bound, or unsupported; a modifier its handler does not honour is refused when used)\n";
    for (const auto& f : (*disassembler)->gfx11_opcodes()) {
      const auto st = emu::status_of(f.mnemonic);
      const char* status = st.status == emu::Status::exact ? "exact" : st.status == emu::Status::approximate ? "approximate" : "unsupported";
      out += fmt::format("{}\t{}\t{}{}{}\n", f.form, f.mnemonic, status, st.bound.empty() ? "" : " ", st.bound);
    }
    write_stdout(out);
    return 0;
  }
  if (a.input.empty()) {
    std::fprintf(stderr, "gpuport amdgpu: an input file is required (or --forms)\n");
    return 2;
  }
  auto co = amdgpu::load_code_object(a.input);
  if (!co) return print_errors(co.diagnostics());
  auto disassembler = amdgpu::Disassembler::create(a.wave64);
  if (!disassembler) return print_errors(disassembler.diagnostics());
  std::vector<amdgpu::KernelCode> decoded;
  for (const auto& name : a.kernels)
    if (!co->find_kernel(name)) {
      std::vector<std::string> names;
      for (const auto& k : co->kernels) names.push_back(k.name);
      std::fprintf(stderr, "gpuport amdgpu: %s: no kernel %s (kernels: %s)\n", a.input.c_str(), name.c_str(),
                   fmt::format("{}", fmt::join(names, ", ")).c_str());
      return 1;
    }
  for (const auto& k : co->kernels) {
    if (!a.kernels.empty() && std::find(a.kernels.begin(), a.kernels.end(), k.name) == a.kernels.end()) continue;
    auto code = (*disassembler)->decode(*co, k);
    if (!code) return print_errors(code.diagnostics());
    decoded.push_back(std::move(*code));
  }
  write_stdout(a.json ? dump_json(amdgpu::listing_json(*co, decoded), 1) : amdgpu::format_listing(*co, decoded));
  return 0;
}

}  // namespace

Action add_amdgpu_command(CLI::App& app) {
  auto args = std::make_shared<AmdgpuArguments>();
  auto* cmd = app.add_subcommand("amdgpu", "list the kernels of a gfx1100 code object: descriptors, arguments, decoded instructions");
  cmd->add_option("input", args->input, "HIP executable (clang -x hip --offload-arch=gfx1100), offload bundle or AMDGPU code object")
      ;
  cmd->add_option("--kernel", args->kernels, "only this kernel (mangled name; repeatable)");
  cmd->add_flag("--json", args->json, "JSON instead of text");
  cmd->add_flag("--wave64", args->wave64, "decode as wave64 code (-mwavefrontsize64)");
  cmd->add_flag("--forms", args->forms, "list every gfx11 instruction form LLVM knows (form, mnemonic) instead");
  return [args] { return run_amdgpu(*args); };
}

}  // namespace gpuport::cli
