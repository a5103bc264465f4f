// gpuport asm: translates NVIDIA machine code to AMD gfx1100 machine code (src/lift). Argument
// handling, output files and printing only.
#include <optional>
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/file_io.h"
#include "common/json.h"
#include "common/plain_paths.h"
#include "lift/asm_translate.h"
#include "sass/program.h"
#include "sass/toolchain.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

struct AsmArguments {
  std::string input;
  std::string target = "gfx1100";
  std::vector<std::string> emit;
  std::string output_dir = ".";
  std::string kernel;
  std::string archs;
  std::string report;  // "json" prints a JSON report on stdout
  bool no_optimize = false;
  bool wave64 = false;
  std::optional<std::uint64_t> shared_bytes;
  std::optional<std::uint32_t> local_bytes;
  std::string source;  // the program's HIP source, for SASS text without its cubin
};

constexpr std::uint64_t kMaxInputBytes = 1ull << 30;

// "vadd.cu" -> "vadd.sm_80": the stem of the input and the arch (once: "k.sm_80.cubin" -> "k.sm_80").
std::string output_stem(const std::string& input, int arch) {
  std::string stem = fs::path(input).stem().string();
  const std::string suffix = fmt::format(".sm_{}", arch);
  if (stem.ends_with(suffix)) return stem;
  return stem + suffix;
}

int run_asm(const AsmArguments& a) {
  lift::AsmOptions options;
  // gfx1100, or sm_XX: the round trip back to an NVIDIA cubin through NVPTX and ptxas 11.8.
  const bool nvptx = a.target.starts_with("sm_");
  if (nvptx) {
    options.target = lift::LiftTarget::nvptx;
    options.nvptx_sm = sass::parse_arch(a.target);
    if (options.nvptx_sm < 70 || options.nvptx_sm > 90) {
      std::fprintf(stderr, "gpuport asm: --target %s: the NVIDIA round trip builds sm_70 to sm_90 (CUDA 11.8's ptxas)\n",
                   a.target.c_str());
      return 2;
    }
    if (a.wave64) {
      std::fprintf(stderr, "gpuport asm: --wave64 is for --target gfx1100\n");
      return 2;
    }
  } else if (a.target != "gfx1100") {
    std::fprintf(stderr, "gpuport asm: --target %s: expected gfx1100 or sm_XX (sm_70 to sm_90)\n", a.target.c_str());
    return 2;
  }
  if (!a.archs.empty()) {
    std::string problem;
    auto archs = sass::parse_arch_list(a.archs, problem);
    if (!archs) {
      std::fprintf(stderr, "gpuport asm: --arch %s: %s\n", a.archs.c_str(), problem.c_str());
      return 2;
    }
    options.archs = *archs;
  }
  if (!a.kernel.empty()) options.kernel = a.kernel;
  options.optimize = !a.no_optimize;
  if (a.wave64) options.target = lift::LiftTarget::gfx1100_wave64;
  options.text_hints.static_shared_bytes = a.shared_bytes;
  options.text_hints.local_bytes = a.local_bytes;
  std::optional<lift::SourceDeclarations> declarations;
  if (!a.source.empty()) {
    auto read = lift::read_source_declarations(a.source);
    if (!read) {
      for (const auto& d : read.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      return 2;
    }
    declarations = std::move(read.value());
    options.text_hints.declarations = &*declarations;
  }
  bool want_executable = false;
  std::vector<std::string> emit = a.emit.empty() ? std::vector<std::string>{nvptx ? "obj" : "bundle"} : a.emit;
  options.want_ir = options.want_assembly = options.want_code_object = options.want_bundle = false;
  for (const auto& e : emit) {
    if (e == "ll") options.want_ir = true;
    else if (e == "asm") options.want_assembly = true;
    else if (e == "obj") options.want_code_object = true;
    else if (e == "exe" && nvptx) want_executable = options.want_assembly = options.want_code_object = true;
    else if (e == "exe") {
      std::fprintf(stderr, "gpuport asm: --emit exe is for an NVIDIA --target (sm_XX)\n");
      return 2;
    } else if (e == "bundle" && !nvptx) options.want_bundle = true;
    else if (e == "bundle") {
      std::fprintf(stderr, "gpuport asm: --emit bundle is for --target gfx1100 (an NVIDIA target makes obj: a cubin)\n");
      return 2;
    } else {
      std::fprintf(stderr, "gpuport asm: --emit %s: expected obj, asm, ll or bundle\n", e.c_str());
      return 2;
    }
  }
  if (want_executable && fs::path(a.input).extension() != ".cu") {
    std::fprintf(stderr, "gpuport asm: --emit exe needs the program's .cu (its host code is built by nvcc)\n");
    return 2;
  }
  auto bytes = read_file(a.input, kMaxInputBytes);
  if (!bytes) {
    for (const auto& d : bytes.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 2;
  }
  const lift::AsmResult result = lift::translate_machine_code(a.input, bytes.value(), options);
  int status = 0;
  for (const auto& d : result.diagnostics) {
    std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    if (d.severity == Severity::error) status = 1;
  }
  if (result.outputs.empty() && status == 0) {
    std::fprintf(stderr, "gpuport asm: %s: no SASS for the requested architectures\n", a.input.c_str());
    status = 1;
  }
  nlohmann::ordered_json report = nlohmann::ordered_json::array();
  for (const auto& out : result.outputs) {
    nlohmann::ordered_json o;
    o["input"] = out.name;
    o["arch"] = fmt::format("sm_{}", out.arch);
    o["target"] = a.target;
    o["ok"] = out.ok;
    o["seconds"] = {{"setup", out.setup_seconds}, {"lift", out.lift_seconds}, {"optimize", out.optimize_seconds}, {"codegen", out.codegen_seconds},
                    {"link", out.link_seconds}};
    o["files"] = nlohmann::ordered_json::array();
    o["kernels"] = nlohmann::ordered_json::array();
    for (const auto& k : out.kernels) {
      for (const auto& d : k.findings) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      nlohmann::ordered_json kj;
      kj["name"] = k.name;
      if (k.hip_name != k.name) kj["hip_name"] = k.hip_name;
      kj["ok"] = k.ok;
      kj["sass_instructions"] = k.sass_instructions;
      kj["findings"] = nlohmann::ordered_json::array();
      for (const auto& d : k.findings) kj["findings"].push_back({{"code", d.code}, {"message", d.message}, {"line", d.location.line}});
      o["kernels"].push_back(std::move(kj));
    }
    if (!out.ok) {
      status = 1;
      std::fprintf(stderr, "gpuport asm: %s: not translated (no output written)\n", out.name.c_str());
    } else {
      const fs::path dir = a.output_dir;
      const std::string stem = output_stem(a.input, out.arch) + "." + a.target + (a.wave64 ? "-wave64" : "");
      auto write = [&](const std::string& ext, const std::string& content) {
        const fs::path path = dir / (stem + ext);
        if (auto d = write_file_atomic(path, content, {.durable = false})) {
          std::fprintf(stderr, "%s\n", format_diagnostic(*d).c_str());
          status = 2;
          return;
        }
        o["files"].push_back(path.string());
        if (a.report != "json") std::fprintf(stderr, "gpuport asm: wrote %s\n", path.string().c_str());
      };
      if (options.want_ir) write(".ll", out.ir);
      if (options.want_assembly) write(nvptx ? ".ptx" : ".s", out.assembly);
      if (options.want_code_object) write(nvptx ? ".cubin" : ".co", out.code_object);
      if (options.want_bundle) write(".hipfb", out.bundle);
      if (want_executable && status == 0) {
        // The CUDA program itself, built by nvcc 11.8 with the round-tripped cubin and PTX in
        // place of its own device code.
        const fs::path exe = dir / stem;
        TemporaryFolder work = TemporaryFolder::make("asm-exe");
        const auto toolchain = sass::detect_toolchain(sass::ToolchainId::cuda11);
        const sass::ToolRun built = sass::build_executable_with_device_code(
            toolchain, a.input, options.nvptx_sm, dir / (stem + ".cubin"), dir / (stem + ".ptx"), exe, work.path());
        work.remove();
        if (!built.ok) {
          std::fprintf(stderr, "%s: error: the CUDA program with the round-tripped device code was not built: %s\n",
                       a.input.c_str(), built.message.c_str());
          status = 1;
        } else {
          o["files"].push_back(exe.string());
          if (a.report != "json") std::fprintf(stderr, "gpuport asm: wrote %s\n", exe.string().c_str());
        }
      }
    }
    report.push_back(std::move(o));
  }
  if (a.report == "json") {
    make_valid_utf8(report);
    write_stdout(dump_json(report, 2));
  }
  return status;
}

}  // namespace

Action add_asm_command(CLI::App& app) {
  auto args = std::make_shared<AsmArguments>();
  auto* cmd = app.add_subcommand("asm", "translate NVIDIA machine code (SASS) into AMD gfx1100 machine code through LLVM IR");
  cmd->add_option("input", args->input, "a cubin, an executable or fatbinary with CUDA code, a .cu file, or SASS text")->required();
  cmd->add_option("--target", args->target,
                  "gfx1100 (default), or sm_70 to sm_90: back to NVIDIA through LLVM's NVPTX back end and ptxas 11.8 "
                  "(the round trip that checks the lifter on an NVIDIA GPU)");
  cmd->add_option("--emit", args->emit, "what to write: obj (code object; a cubin for sm_XX), asm (gfx1100 assembly; PTX "
                                        "for sm_XX), ll, bundle (default: bundle; obj for sm_XX), exe (sm_XX with a .cu input: the "
                                        "CUDA program built by nvcc 11.8 with the round-tripped device code)")->delimiter(',');
  cmd->add_option("-o,--output-dir", args->output_dir, "the folder for the outputs (default: .)");
  cmd->add_option("--kernel", args->kernel, "translate only this kernel (its mangled name)");
  cmd->add_option("--arch", args->archs, "NVIDIA architectures: for a .cu input the ones to compile (default sm_80), "
                                        "for others the ones to keep (default all)");
  cmd->add_option("--report", args->report, "json: print a JSON report on standard output")->check(CLI::IsMember({"json"}));
  cmd->add_flag("--wave64", args->wave64, "gfx1100 in wave64 (each NVIDIA warp is one 32-lane half of a wave); default wave32");
  cmd->add_option("--shared-bytes", args->shared_bytes,
                  "SASS text without its cubin: the kernels' static shared memory in bytes (default: from the listing)");
  cmd->add_option("--source", args->source,
                  "SASS text without its cubin: the program's HIP source (gpuport translate's output), for its __constant__ "
                  "variables (names, sizes, initial values) and the sizes of structs its kernels take by value");
  cmd->add_option("--local-bytes", args->local_bytes,
                  "SASS text without its cubin: per-thread local memory in bytes (default: from the listing)");
  cmd->add_flag("--no-opt", args->no_optimize, "keep the lifted IR unoptimised beyond inlining and SSA form");
  return [args] { return run_asm(*args); };
}

}  // namespace gpuport::cli
