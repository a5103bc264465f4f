#include <cstdio>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "common/file_io.h"
#include "common/json.h"
#include "maps/api_map.h"
#include "sass/program.h"
#include "verify/harness.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

struct VerifyArguments {
  std::vector<std::string> inputs;
  std::string arch = "sm_90";
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::string json_path;
  std::string html_path;
  std::string work_dir = "build/verify";
  std::string cache_dir;
  bool no_cache = false;
  bool no_run = false;
  bool emulate = false;
  bool asm_path = false;
  std::vector<std::string> asm_archs = {"sm_80", "sm_90"};
  double timeout_s = 120;
  std::string device_lib_dir;
  std::string nvcc = "/usr/bin/nvcc";
  std::string clang = "clang++-19";
  std::string maps_dir;
  std::string hip_version = std::string(verify::kDefaultHipVersion);
  bool quiet = false;
};

int run_verify(const VerifyArguments& a) {
  const auto hip = verify::hip_target(a.hip_version);
  if (!hip) {
    std::fprintf(stderr, "gpuport verify: --hip-version must be one of %s\n", fmt::format("{}", fmt::join(verify::hip_versions(), ", ")).c_str());
    return 2;
  }
  const maps::LoadOptions load{.hip_version = hip->map_layer()};
  auto map = a.maps_dir.empty() ? maps::ApiMap::load_embedded(load) : maps::ApiMap::load_directory(a.maps_dir, load);
  if (!map) {
    for (const auto& d : map.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 2;
  }
  verify::VerifyOptions o;
  o.compilers.hip = *hip;
  o.compilers.nvidia_arch = a.arch;
  o.compilers.nvcc = a.nvcc;
  o.compilers.clang = a.clang;
  o.compilers.device_lib_dir = a.device_lib_dir;
  o.jobs = a.jobs;
  o.work_dir = fs::absolute(a.work_dir);
  if (!a.cache_dir.empty()) o.cache_dir = fs::absolute(a.cache_dir);
  o.use_cache = !a.no_cache;
  o.run = !a.no_run;
  o.emulate = a.emulate;
  o.emulator_runtime = emulator_runtime_dir();
  {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) o.emulator_launcher = {self.string(), "run"};
  }
  for (const auto& one : a.asm_path ? a.asm_archs : std::vector<std::string>{}) {
    const int arch = sass::parse_arch(one);
    if (arch == 0) {
      std::fprintf(stderr, "gpuport verify: --asm %s: not an architecture (sm_80, sm_90, ...)\n", one.c_str());
      return 2;
    }
    o.asm_archs.push_back(arch);
  }
  o.run_timeout = std::chrono::milliseconds(static_cast<long long>(a.timeout_s * 1000));

  const bool tty = ::isatty(2);
  auto progress = [&](const verify::ProgramReport& p, std::size_t done, std::size_t total) {
    if (a.quiet) return;
    std::fprintf(stderr, "[%zu/%zu] %s/%s: %s\n", done, total, p.domain.c_str(), p.name.c_str(), p.verdict.c_str());
    if (tty) std::fflush(stderr);
  };
  std::vector<fs::path> inputs(a.inputs.begin(), a.inputs.end());
  auto report = verify::verify_programs(inputs, *map, o, progress);

  const std::string table = verify::format_table(report);
  write_stdout(table);
  int status = report.all_ok() ? 0 : 1;
  if (!a.json_path.empty()) {
    if (auto err = write_file_atomic(a.json_path, dump_json(verify::to_json(report)))) {
      std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
      status = 2;
    }
  }
  if (!a.html_path.empty()) {
    if (auto err = write_file_atomic(a.html_path, verify::to_html(report))) {
      std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
      status = 2;
    }
  }
  return status;
}

}  // namespace

Action add_verify_command(CLI::App& app) {
  auto args = std::make_shared<VerifyArguments>();
  CLI::App* cmd = app.add_subcommand(
      "verify", "Build, translate, compile for both vendors and (with a GPU) run and compare self-checking CUDA programs");
  cmd->footer(
      "Each program prints `RESULT <name> PASS|FAIL max_rel_err=<x> gpu_ms=<t>`. Steps: nvcc build of the original,\n"
      "translation, clang-19 compile+link for gfx1100, nvcc build on HIP's NVIDIA platform, and where a GPU is\n"
      "present a run of the original and the translated (HIP-on-NVIDIA) binary. Without a GPU the runs say\n"
      "\"not run: no GPU\". Exit status: 0 all steps that ran succeeded, 1 a failure, 2 usage or I/O error.");
  cmd->add_option("inputs", args->inputs, "Program files (.cu) or folders of them")->required();
  cmd->add_option("--arch", args->arch, "NVIDIA architecture for nvcc")->capture_default_str();
  cmd->add_option("--hip-version", args->hip_version,
                  "HIP the translations target and the gfx1100 builds use (6.4, 5.7, 5.2; as for translate)")
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->jobs, "Programs built in parallel (runs are one at a time)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1024u));
  cmd->add_option("--json", args->json_path, "Write the full report as JSON");
  cmd->add_option("--html", args->html_path, "Write a self-contained HTML report (per-domain pass rates, runtime ratios)");
  cmd->add_option("--work", args->work_dir, "Folder for binaries and translations")->capture_default_str();
  cmd->add_option("--cache", args->cache_dir, "Build cache folder (default WORK/cache)");
  cmd->add_flag("--no-cache", args->no_cache, "Rebuild everything");
  cmd->add_flag("--no-run", args->no_run, "Build only, even where a GPU is present");
  cmd->add_flag("--emulate", args->emulate,
                "Also run each gfx1100 build on gpuport's emulator (AMD semantics, reported as gfx1100 (emulated))");
#ifdef GPUPORT_HAVE_LIFT
  cmd->add_flag("--asm", args->asm_path,
                "Also prove the machine-code path: each program's SASS (nvcc 11.8 -cubin) translated by `gpuport asm` to "
                "gfx1100, linked with the HIP host code of its translation and run on the emulator (reported as emulated)");
  cmd->add_option("--asm-arch", args->asm_archs, "NVIDIA architectures of --asm")->delimiter(',')->capture_default_str();
#endif
  cmd->add_option("--timeout", args->timeout_s, "Seconds a program may run")->capture_default_str();
  cmd->add_option("--rocm-device-lib-path", args->device_lib_dir, "gfx1100 device-library folder");
  cmd->add_option("--nvcc", args->nvcc, "nvcc 11.8")->capture_default_str();
  cmd->add_option("--clang", args->clang, "clang++ 19")->capture_default_str();
  cmd->add_option("--maps", args->maps_dir, "Load mapping tables from this folder");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines");
  return [args] { return run_verify(*args); };
}

}  // namespace gpuport::cli
