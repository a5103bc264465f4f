// `gpuport asm`'s work; see asm_translate.h.
#include "lift/asm_translate.h"

#include <fmt/format.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "lift/hip_names.h"
#include "lift/kernel_info.h"
#include "lift/lower.h"
#include "sass/cubin.h"
#include "sass/indirect_branches.h"
#include "sass/listing_source.h"
#include "sass/parser.h"

namespace gpuport::lift {

namespace {

// Which functions of a listing are kernels. A cubin's listing marks them (STO_CUDA_ENTRY); a
// listing without one (cuobjdump -sass text) does not, so there every function that no other
// function calls by name is taken for a kernel.
std::vector<bool> kernel_functions(const sass::SassProgram& program, bool from_cubin) {
  std::vector<bool> kernel(program.functions.size(), false);
  bool any_marked = false;
  for (std::size_t i = 0; i < program.functions.size(); ++i) any_marked = any_marked || program.functions[i].is_entry;
  if (from_cubin || any_marked) {
    for (std::size_t i = 0; i < program.functions.size(); ++i) kernel[i] = program.functions[i].is_entry;
    return kernel;
  }
  std::set<std::string, std::less<>> called;
  for (const auto& f : program.functions)
    for (const auto& ins : f.instructions) {
      if (!ins.opcode.starts_with("CALL")) continue;
      for (const auto& op : ins.operands) {
        std::string_view t(op.text);
        if (op.kind == sass::OperandKind::label && t.starts_with("`(") && t.ends_with(")")) called.insert(std::string(t.substr(2, t.size() - 3)));
      }
    }
  for (std::size_t i = 0; i < program.functions.size(); ++i) kernel[i] = !called.contains(program.functions[i].name);
  return kernel;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void translate_program(const sass::SassProgram& program, const sass::Cubin* cubin, std::string_view cubin_bytes,
                       const AsmOptions& options, AsmOutput& out) {
  const auto setup = std::chrono::steady_clock::now();
  auto made = make_lift_module(out.name, options.target, options.nvptx_sm);
  out.setup_seconds = seconds_since(setup);
  if (!made) {
    KernelReport r;
    r.findings = made.diagnostics();
    out.kernels.push_back(std::move(r));
    return;
  }
  LiftModule module = std::move(made.value());
  auto phase = std::chrono::steady_clock::now();
  bool all = true;
  const std::vector<bool> kernels = kernel_functions(program, cubin != nullptr);
  for (std::size_t fi = 0; fi < program.functions.size(); ++fi) {
    const sass::SassFunction& f = program.functions[fi];
    if (!kernels[fi] && !(options.kernel && f.name == *options.kernel)) continue;
    if (options.kernel && f.name != *options.kernel) continue;
    KernelReport report;
    report.name = f.name;
    LiftRequest request;
    request.program = &program;
    request.kernel = &f;
    request.arch = out.arch;
    request.target = options.target;
    request.source_name = out.name;
    const sass::CubinKernel* ck = cubin ? cubin->find_kernel(f.name) : nullptr;
    if (ck != nullptr) request.info = kernel_info_from_cubin(*cubin, cubin_bytes, *ck);
    else {
      request.info = kernel_info_from_text(program, f, out.arch, options.text_hints, report.findings);
      const std::uint32_t line = f.instructions.empty() ? 0 : f.instructions.front().line;
      for (auto& d : report.findings)
        if (d.location.file.empty()) d.location = {out.name, line, 0};
    }
    // The name the HIP host code registers the kernel by (vector types, anonymous namespaces
    // and library types are spelt differently in HIP's C++).
    const HipName hip = hip_mangled_name(f.name, ck != nullptr && ck->is_local);
    if (!hip.reason.empty()) {
      Diagnostic d;
      d.severity = Severity::warning;
      d.code = "hip-name-unknown";
      d.message = fmt::format("kernel {}: its HIP name cannot be derived ({}); nvcc's name is kept, which HIP host code "
                              "may register differently", f.name, hip.reason);
      report.findings.push_back(d);
    }
    request.info.name = hip.name;
    report.hip_name = hip.name;
    if (!has_errors(report.findings)) {
      LiftResult lifted = lift_kernel(*module.module, request);
      report.sass_instructions = lifted.instructions;
      report.findings.insert(report.findings.end(), lifted.findings.begin(), lifted.findings.end());
      report.ok = lifted.function != nullptr;
    }
    all = all && report.ok;
    out.kernels.push_back(std::move(report));
  }
  if (out.kernels.empty()) {
    KernelReport r;
    Diagnostic d;
    d.code = "no-kernel";
    d.message = options.kernel ? fmt::format("no kernel named {} in {}", *options.kernel, out.name)
                               : fmt::format("{} has no kernel", out.name);
    r.findings.push_back(d);
    out.kernels.push_back(std::move(r));
    return;
  }
  out.lift_seconds = seconds_since(phase);
  if (!all) return;
  phase = std::chrono::steady_clock::now();
  auto problems = finalize_module(module, options.optimize);
  out.optimize_seconds = seconds_since(phase);
  if (!problems.empty()) {
    out.kernels.front().findings.insert(out.kernels.front().findings.end(), problems.begin(), problems.end());
    return;
  }
  if (options.want_ir) out.ir = module_text(module);
  phase = std::chrono::steady_clock::now();
  if (options.want_assembly || (options.target == LiftTarget::nvptx && options.want_code_object)) {
    auto text = emit_machine_code(module, EmitKind::assembly);
    if (!text) return (void)out.kernels.front().findings.push_back(text.diagnostics().front());
    out.assembly = std::move(text.value());
  }
  if (options.target == LiftTarget::nvptx) {
    // The round trip: PTX through ptxas 11.8 to a cubin.
    out.codegen_seconds = seconds_since(phase);
    phase = std::chrono::steady_clock::now();
    if (options.want_code_object) {
      auto cubin = assemble_ptx(out.assembly, options.nvptx_sm);
      if (!cubin) return (void)out.kernels.front().findings.push_back(cubin.diagnostics().front());
      out.code_object = std::move(cubin.value());
    }
    out.link_seconds = seconds_since(phase);
  } else if (options.want_code_object || options.want_bundle) {
    auto object = emit_machine_code(module, EmitKind::object);
    if (!object) return (void)out.kernels.front().findings.push_back(object.diagnostics().front());
    out.codegen_seconds = seconds_since(phase);
    phase = std::chrono::steady_clock::now();
    auto linked = link_code_object(object.value());
    if (!linked) return (void)out.kernels.front().findings.push_back(linked.diagnostics().front());
    out.code_object = std::move(linked.value());
    if (options.want_bundle) {
      auto bundle = make_offload_bundle(out.code_object, options.target);
      if (!bundle) return (void)out.kernels.front().findings.push_back(bundle.diagnostics().front());
      out.bundle = std::move(bundle.value());
    }
    out.link_seconds = seconds_since(phase);
  } else {
    out.codegen_seconds = seconds_since(phase);
  }
  out.ok = true;
}

}  // namespace

AsmResult translate_machine_code(const std::filesystem::path& input, std::string_view bytes, const AsmOptions& options) {
  AsmResult result;
  sass::ListingRequest request;
  request.archs = options.archs.empty() ? std::vector<int>{80} : options.archs;
  request.prefer_newest_disassembler = true;
  auto listings = sass::obtain_listings(input, bytes, request);
  result.diagnostics = listings.diagnostics;
  for (const auto& listing : listings.listings) {
    sass::SassParseOptions po;
    po.file_name = listing.name;
    po.arch = listing.arch;
    auto parsed = sass::parse_sass(listing.text, po);
    for (const auto& d : parsed.diagnostics)
      if (d.severity == Severity::error) result.diagnostics.push_back(d);
    // A listing the parser found damaged is not translated: all or nothing.
    if (has_errors(parsed.diagnostics)) continue;
    std::optional<sass::Cubin> cubin;
    if (!listing.cubin.empty()) {
      auto read = sass::read_cubin(listing.cubin, listing.cubin_name.empty() ? listing.name : listing.cubin_name);
      for (const auto& d : read.diagnostics) result.diagnostics.push_back(d);
      cubin = std::move(read.cubin);
    }
    for (auto& program : parsed.programs) {
      int arch = program.arch ? program.arch : listing.arch;
      if (arch == 0 && options.archs.size() == 1) arch = options.archs[0];  // text that does not say
      if (arch == 0) {
        result.diagnostics.push_back({Severity::error, "unknown-arch",
                                      "the listing does not say which NVIDIA architecture it is for: give it with --arch (sm_80, sm_90, ...)",
                                      {listing.name, 0, 0}, {}});
        continue;
      }
      if (!options.archs.empty() && std::find(options.archs.begin(), options.archs.end(), arch) == options.archs.end()) continue;
      if (program.functions.empty()) continue;
      if (!cubin)
        for (auto& d : sass::redecode_undecoded(program, arch, listing.name)) result.diagnostics.push_back(std::move(d));
      if (cubin)
        for (const auto& why : sass::resolve_indirect_branches(program, *cubin, listing.cubin))
          result.diagnostics.push_back({Severity::warning, "sass-indirect-branch", why, {listing.name, 0, 0}, {}});
      AsmOutput out;
      out.arch = arch;
      out.name = listing.name.find('@') == std::string::npos ? fmt::format("{}@sm_{}", listing.name, arch) : listing.name;
      translate_program(program, cubin ? &*cubin : nullptr, listing.cubin, options, out);
      result.outputs.push_back(std::move(out));
    }
  }
  return result;
}

}  // namespace gpuport::lift
