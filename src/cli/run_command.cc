// gpuport run: runs a HIP executable built for gfx1100 on gpuport's emulator, through the
// emulator's libamdhip64.so.5 or .so.6 (put first on the child's library path); the program's output and
// exit status pass through. --coverage says, without running, whether every instruction of the
// program's kernels is implemented and which are only approximate. Argument handling only; the
// work is in emu/.
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "amdgpu/code_object.h"
#include "cli/commands.h"
#include "emu/coverage.h"
#include "emu/jit.h"
#include "emu/program_runner.h"
#include "verify/compile_check.h"

namespace gpuport::cli {
namespace {
namespace fs = std::filesystem;

// The exit status of a program that succeeded but had --memcheck or --initcheck findings.
constexpr int kMemcheckFindingsExit = 71;

struct RunArguments {
  std::vector<std::string> command;
  bool coverage = false;
  bool stats = false;
  bool wave64 = false;
  bool memcheck = false, initcheck = false;
  unsigned jobs = 0;
  double timeout = 0;
  std::uint64_t max_instructions = 0;
  int trace_lane = -1;
  std::string jit = "hot";
  std::string cache;
};

// A folder of the build: $variable when set, else `name` beside this gpuport's bin/ folder (the
// build it belongs to), else the path the build was configured with.
fs::path build_folder(const char* variable, const char* name, const char* configured) {
  if (const char* d = std::getenv(variable)) return d;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = self.parent_path().parent_path() / name;
    if (fs::is_directory(beside, ec)) return beside;
  }
  return configured;
}

}  // namespace

fs::path emulator_runtime_dir() { return build_folder("GPUPORT_RUNTIME_DIR", "emu-runtime", GPUPORT_RUNTIME_DIR); }
fs::path nvcc_semantics_plugin() {
  return build_folder("GPUPORT_LIBRARY_DIR", "lib", GPUPORT_LIBRARY_DIR) / "libgpuport-nvcc-semantics.so";
}
fs::path rocm_library_dir() { return build_folder("GPUPORT_ROCM_LIBS", "rocm-6.4-libs", GPUPORT_ROCM_LIBRARY_DIR); }

namespace {

int run_coverage(const RunArguments& a) {
  auto co = amdgpu::load_code_object(a.command[0]);
  if (!co) {
    for (const auto& d : co.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 2;
  }
  auto cov = emu::coverage(*co);
  if (!cov) {
    for (const auto& d : cov.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 2;
  }
  write_stdout(emu::format_coverage(*co, *cov));
  for (const auto& k : *cov)
    if (!k.unsupported.empty()) return 1;
  return 0;
}

int run_program(const RunArguments& a) {
  emu::ProgramRunRequest request;
  request.command = a.command;
  request.runtime_dir = emulator_runtime_dir();
  request.library_dir = rocm_library_dir();
  request.device_lib_dir = verify::resolve_device_lib_dir({});
  request.jobs = a.jobs;
  request.timeout_seconds = a.timeout;
  request.max_instructions = a.max_instructions;
  request.wave64 = a.wave64;
  request.stats = a.stats;
  request.memcheck = a.memcheck;
  request.initcheck = a.initcheck;
  request.trace_lane = a.trace_lane;
  request.jit = a.jit;
  std::error_code self_error;
  request.jit_helper = fs::read_symlink("/proc/self/exe", self_error).string();
  if (!a.cache.empty()) {  // made if absent; an absolute path, as the program may change folders
    std::error_code ec;
    fs::create_directories(a.cache, ec);
    if (!fs::is_directory(a.cache, ec)) {
      std::fprintf(stderr, "gpuport run: --cache %s: not a folder that can be made\n", a.cache.c_str());
      return 2;
    }
    request.jit_cache = fs::absolute(a.cache, ec).string();
  }
  const emu::ProgramRunResult run = emu::run_emulated_program(request);
  if (!run.ok()) {
    for (const auto& d : run.diagnostics) std::fprintf(stderr, "gpuport run: %s\n", format_diagnostic(d).c_str());
    return 2;
  }
  if (!run.stats.empty()) std::fputs(run.stats.c_str(), stderr);
  if (a.memcheck || a.initcheck)
    std::fprintf(stderr, "gpuport run: %s%s%s: %zu finding%s\n", a.memcheck ? "memcheck" : "", a.memcheck && a.initcheck ? " and " : "",
                 a.initcheck ? "initcheck" : "", run.findings, run.findings == 1 ? "" : "s");
  if (run.signal) std::fprintf(stderr, "gpuport run: %s was killed by signal %d\n", a.command[0].c_str(), run.signal);
  // Findings make a run that otherwise succeeded fail, as a sanitizer does.
  if (run.findings && run.exit_status == 0) return kMemcheckFindingsExit;
  return run.exit_status;
}

}  // namespace

Action add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArguments>();
  auto* cmd = app.add_subcommand("run", "run a HIP program built for gfx1100 on gpuport's emulator (results are labelled emulated)");
  cmd->add_option("command", args->command, "the program and its arguments (after --)")->required();
  cmd->add_flag("--coverage", args->coverage, "do not run: say whether every instruction of the program's kernels is implemented");
  cmd->add_flag("--stats", args->stats, "print per-kernel instruction counts and emulated lane-instructions per second");
  cmd->add_flag("--wave64", args->wave64, "report a 64-lane warpSize to the program (build it with -mwavefrontsize64)");
  cmd->add_flag("--memcheck", args->memcheck,
                "memory errors: out-of-bounds and use-after-free accesses stop the kernel whether or not this is given; "
                "this adds the leak check at exit (device memory never freed) and exits 71 on a finding");
  cmd->add_flag("--initcheck", args->initcheck,
                "report reads of LDS (shared memory, and private arrays clang keeps there) that the workgroup never wrote; "
                "exits 71 on a finding");
  cmd->add_option("-j,--jobs", args->jobs, "host threads for workgroups (default: all cores)");
  cmd->add_option("--timeout", args->timeout, "stop a kernel that runs longer than this many seconds");
  cmd->add_option("--max-instructions", args->max_instructions,
                  "stop a kernel whose wave runs more than this many instructions, naming the instruction it was at "
                  "(the same count in both JIT tiers; 0: no limit)");
  cmd->add_option("--jit", args->jit,
                  "the emulator's JIT tier: hot (compile a kernel once the interpreter has run it a while), always (compile every "
                  "kernel before it runs), never (the interpreter only) or compare (every launch on both, one host thread each, "
                  "from the same memory: any difference in memory, fault or counts stops the program, exit 70); --memcheck's "
                  "and --trace's checks always interpret")
      ->check(CLI::IsMember({"hot", "auto", "always", "never", "compare"}))
      ->capture_default_str();
  cmd->add_option("--cache", args->cache,
                  "keep the JIT's compiled kernels in this folder (made if absent) and load them from there in later runs");
  cmd->add_option("--trace", args->trace_lane,
                  "print every instruction wave 0 of workgroup 0 executes, with lane K's results, to stderr")
      ->check(CLI::Range(0, emu::kMaxTraceLane));
  cmd->positionals_at_end();
  return [args] { return args->coverage ? run_coverage(*args) : run_program(*args); };
}

Action add_jit_compile_command(CLI::App& app) {
  auto parent = std::make_shared<int>(0);
  auto* cmd = app.add_subcommand("jit-compile", "gpuport run's compile helper: a lifted kernel's bitcode on stdin, its object file on stdout");
  cmd->group("");  // not for users: started by the emulator's runtime
  cmd->add_option("--parent", *parent, "the process to leave with")->required();
  return [parent] { return emu::jit_compile_helper_main(*parent); };
}

}  // namespace gpuport::cli
