// gpuport run: runs a HIP executable built for gfx1100 on gpuport's emulator, through the
// emulator's libamdhip64.so.5 (put first on the child's library path); the program's output and
// exit status pass through. --coverage says, without running, whether every instruction of the
// program's kernels is implemented and which are only approximate. Argument handling only; the
// work is in emu/.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "amdgpu/code_object.h"
#include "cli/commands.h"
#include "emu/coverage.h"
#include "verify/compile_check.h"

extern char** environ;

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
  int trace_lane = -1;
};

}  // namespace

// build/emu-runtime beside build/bin, or $GPUPORT_RUNTIME_DIR.
fs::path emulator_runtime_dir() {
  if (const char* d = std::getenv("GPUPORT_RUNTIME_DIR")) return d;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = self.parent_path().parent_path() / "emu-runtime";
    if (fs::exists(beside / "libamdhip64.so.5")) return beside;
  }
  return GPUPORT_RUNTIME_DIR;
}

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
  const fs::path dir = emulator_runtime_dir();
  if (!fs::exists(dir / "libamdhip64.so.5")) {
    std::fprintf(stderr, "gpuport run: the emulator's HIP runtime is not built (%s/libamdhip64.so.5 missing)\n", dir.c_str());
    return 2;
  }
  // Refuse what cannot run before starting it: no gfx1100 code object, or unimplemented code.
  auto co = amdgpu::load_code_object(a.command[0]);
  if (!co) {
    for (const auto& d : co.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
    return 2;
  }
  const std::string stats_file = a.stats ? (fs::temp_directory_path() / fmt::format("gpuport-run-stats-{}.tsv", ::getpid())).string() : "";
  const bool checking = a.memcheck || a.initcheck;
  const std::string findings_file =
      checking ? (fs::temp_directory_path() / fmt::format("gpuport-run-findings-{}.txt", ::getpid())).string() : "";
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view v = *e;
    if (v.starts_with("LD_LIBRARY_PATH=") || v.starts_with("GPUPORT_RUN_") || v.starts_with("GPUPORT_EMU_TRACE=")) continue;
    env.emplace_back(v);
  }
  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  env.push_back("LD_LIBRARY_PATH=" + dir.string() + (old_path && *old_path ? ":" + std::string(old_path) : ""));
  if (a.jobs) env.push_back(fmt::format("GPUPORT_RUN_JOBS={}", a.jobs));
  if (a.timeout > 0) env.push_back(fmt::format("GPUPORT_RUN_TIMEOUT={}", a.timeout));
  if (a.wave64) env.push_back("GPUPORT_RUN_WAVE64=1");
  // hipRTC in the runtime compiles with the same gfx1100 device libraries as the rest of gpuport.
  env.push_back("GPUPORT_RUN_DEVICE_LIBS=" + verify::resolve_device_lib_dir({}).string());
  if (a.trace_lane >= 0) env.push_back(fmt::format("GPUPORT_EMU_TRACE={}", a.trace_lane));
  env.push_back("GPUPORT_EMULATED=1");  // a program may pick a smaller, emulation-sized workload
  if (!stats_file.empty()) env.push_back("GPUPORT_RUN_STATS=" + stats_file);
  if (checking) env.push_back("GPUPORT_RUN_FINDINGS=" + findings_file);
  if (a.memcheck) env.push_back("GPUPORT_RUN_LEAKS=1");
  if (a.initcheck) env.push_back("GPUPORT_RUN_INITCHECK=1");
  std::vector<char*> argv, envp;
  for (const auto& s : a.command) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  for (auto& s : env) envp.push_back(s.data());
  envp.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, a.command[0].c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0) {
    std::fprintf(stderr, "gpuport run: cannot start %s\n", a.command[0].c_str());
    return 2;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (!stats_file.empty()) {
    std::ifstream in(stats_file);
    std::stringstream ss;
    ss << in.rdbuf();
    if (!ss.str().empty()) std::fputs(ss.str().c_str(), stderr);
    std::error_code ec;
    fs::remove(stats_file, ec);
  }
  std::size_t findings = 0;
  if (checking) {
    std::ifstream in(findings_file);
    for (std::string line; std::getline(in, line);) ++findings;
    std::error_code ec;
    fs::remove(findings_file, ec);
    std::fprintf(stderr, "gpuport run: %s%s%s: %zu finding%s\n", a.memcheck ? "memcheck" : "", a.memcheck && a.initcheck ? " and " : "",
                 a.initcheck ? "initcheck" : "", findings, findings == 1 ? "" : "s");
  }
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr, "gpuport run: %s was killed by signal %d\n", a.command[0].c_str(), WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  // Findings make a run that otherwise succeeded fail, as a sanitizer does.
  if (findings && WEXITSTATUS(status) == 0) return kMemcheckFindingsExit;
  return WEXITSTATUS(status);
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
  cmd->add_option("--trace", args->trace_lane,
                  "print every instruction wave 0 of workgroup 0 executes, with lane K's results, to stderr");
  cmd->positionals_at_end();
  return [args] { return args->coverage ? run_coverage(*args) : run_program(*args); };
}

}  // namespace gpuport::cli
