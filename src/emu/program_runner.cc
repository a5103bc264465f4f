#include "emu/program_runner.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "amdgpu/code_object.h"
#include "common/file_io.h"
#include "common/process.h"
#include "common/temporary.h"

extern char** environ;

namespace gpuport::emu {
namespace fs = std::filesystem;

extern const char* const kRocmLibrariesTable;  // data/emu/rocm-6.4-libraries.tsv, compiled in

namespace {

Diagnostic run_error(const std::string& file, std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = file;
  return d;
}

const char* const kSystemLibraryDirs[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
                                          "/usr/local/lib"};

std::vector<std::string> ld_library_path() {
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("LD_LIBRARY_PATH"))
    for (std::string_view rest = path; !rest.empty();) {
      const std::size_t colon = rest.find(':');
      if (colon != 0) dirs.emplace_back(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  return dirs;
}

bool is_hip_runtime(const std::string& name) { return name == "libamdhip64.so.5" || name == "libamdhip64.so.6"; }

// The libamdhip64 that a program's own libraries link (a CMake project built with
// BUILD_SHARED_LIBS keeps its kernels, and its link to HIP, in them): the libraries its
// DT_RUNPATH/DT_RPATH and LD_LIBRARY_PATH lead to, and theirs, a few levels deep. The system's
// libraries are not read (they are many and large); empty when none links HIP.
std::string runtime_of_own_libraries(const std::string& program, const amdgpu::DynamicSection& top) {
  struct Pending {
    fs::path file;
    amdgpu::DynamicSection dynamic;
    int depth;
  };
  std::vector<Pending> queue{{fs::path(program), top, 0}};
  std::set<std::string> seen;
  const auto extra = ld_library_path();
  std::error_code ec;
  for (std::size_t next = 0; next < queue.size() && queue.size() < 64; ++next) {
    const Pending current = queue[next];
    if (current.depth >= 4) continue;
    const std::string origin = fs::absolute(current.file, ec).parent_path().string();
    std::vector<std::string> dirs;
    for (std::string d : current.dynamic.search_path) {
      for (const std::string_view token : {"$ORIGIN", "${ORIGIN}"})
        for (std::size_t at = d.find(token); at != std::string::npos; at = d.find(token)) d.replace(at, token.size(), origin);
      dirs.push_back(d);
    }
    dirs.insert(dirs.end(), extra.begin(), extra.end());
    for (const auto& name : current.dynamic.needed) {
      if (is_hip_runtime(name)) return name;
      if (!seen.insert(name).second || name.find('/') != std::string::npos) continue;
      for (const auto& d : dirs) {
        const fs::path candidate = fs::path(d) / name;
        if (!fs::is_regular_file(candidate, ec)) continue;
        auto bytes = read_file(candidate, 1ull << 30);
        if (!bytes) break;
        if (auto dynamic = amdgpu::dynamic_section(*bytes, candidate.string())) queue.push_back({candidate, std::move(*dynamic), current.depth + 1});
        break;
      }
    }
  }
  return {};
}

// The libamdhip64 the program loads, or why it cannot run on the emulator.
Result<std::string> runtime_of(const std::string& program, std::string_view bytes, const amdgpu::DynamicSection& dynamic) {
  std::string runtime;
  for (const auto& name : dynamic.needed)
    if (is_hip_runtime(name)) runtime = name;
  if (runtime.empty()) runtime = runtime_of_own_libraries(program, dynamic);
  // Its own kernels must include gfx1100 code; a program without any (all its GPU work in
  // libraries or in code objects it loads) runs as long as it, or a library of its own, links
  // HIP's runtime.
  auto fatbin = amdgpu::hip_fatbin_section(bytes, program);
  if (fatbin) {
    auto code_object = amdgpu::load_code_object_from_bytes(bytes, program);
    if (!code_object) return Result<std::string>::failure(code_object.diagnostics());
  } else if (runtime.empty() || fatbin.diagnostics().front().code != "not-a-hip-executable") {
    auto why = fatbin.diagnostics();
    if (why.front().code == "not-a-hip-executable")
      why.front().message = "not a HIP program: no device code of its own (.hip_fatbin section) and no libamdhip64 among the "
                            "libraries it or its own libraries link";
    return Result<std::string>::failure(std::move(why));
  }
  // No link found (a system library that links HIP): HIP 5.2, Debian 12's own.
  return runtime.empty() ? std::string("libamdhip64.so.5") : runtime;
}

// The rows of data/emu/rocm-6.4-libraries.tsv: name, soname.
std::vector<std::pair<std::string, std::string>> rocm_libraries() {
  std::vector<std::pair<std::string, std::string>> rows;
  std::string_view text = kRocmLibrariesTable;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.empty() || line.front() == '#') continue;
    const std::size_t tab = line.find('\t'), tab2 = line.find('\t', tab + 1);
    if (tab == std::string_view::npos || tab2 == std::string_view::npos) continue;
    rows.emplace_back(line.substr(0, tab), line.substr(tab + 1, tab2 - tab - 1));
  }
  return rows;
}

// Whether the system's loader would find `soname` (LD_LIBRARY_PATH, then the usual folders).
bool system_has(const std::string& soname) {
  std::vector<std::string> dirs = ld_library_path();
  for (const char* d : kSystemLibraryDirs) dirs.emplace_back(d);
  std::error_code ec;
  for (const auto& d : dirs)
    if (fs::exists(fs::path(d) / soname, ec)) return true;
  return false;
}

// The loader for a program that links sid's ROCm libraries (empty: the system's), or the
// libraries to fetch first. Debian 12's own ROCm libraries (rocRAND, hipRAND, ... 5.x) are HIP 5
// builds: a HIP 6 program takes sid's; a HIP 5 one, the system's.
Result<fs::path> loader_for(const std::string& program, const std::vector<std::string>& needed, bool hip6, const fs::path& library_dir) {
  const fs::path lib = library_dir / "usr" / "lib" / "x86_64-linux-gnu";
  fs::path loader;
  std::vector<Diagnostic> problems;
  std::error_code ec;
  for (const auto& [name, soname] : rocm_libraries()) {
    if (std::find(needed.begin(), needed.end(), soname) == needed.end() || (!hip6 && system_has(soname))) continue;
    if (!library_dir.empty() && fs::exists(lib / soname, ec)) {
      loader = lib / "ld-linux-x86-64.so.2";
    } else {
      problems.push_back(run_error(program, "library-missing",
                                   fmt::format("the program links {} (ROCm 6.4's {}), which is not unpacked: "
                                               "scripts/fetch-rocm-6.4-libs {}",
                                               soname, name, name)));
    }
  }
  if (!loader.empty() && !fs::exists(loader, ec))
    problems.push_back(run_error(program, "library-missing",
                                 fmt::format("{} lacks sid's loader ({}): unpack it again with scripts/fetch-rocm-6.4-libs",
                                             library_dir.string(), loader.string())));
  if (!problems.empty()) return Result<fs::path>::failure(std::move(problems));
  return loader;
}

}  // namespace

Result<ProgramLinks> examine_program(const std::string& program, const fs::path& library_dir) {
  auto bytes = read_file(program, 1ull << 31);
  if (!bytes) return Result<ProgramLinks>::failure(bytes.diagnostics());
  auto dynamic = amdgpu::dynamic_section(*bytes, program);
  if (!dynamic) return Result<ProgramLinks>::failure(dynamic.diagnostics());
  auto runtime = runtime_of(program, *bytes, *dynamic);
  if (!runtime) return Result<ProgramLinks>::failure(runtime.diagnostics());
  auto loader = loader_for(program, dynamic->needed, *runtime == "libamdhip64.so.6", library_dir);
  if (!loader) return Result<ProgramLinks>::failure(loader.diagnostics());
  return ProgramLinks{*runtime, *loader};
}

ProgramRunResult run_emulated_program(const ProgramRunRequest& request) {
  ProgramRunResult result;
  if (request.command.empty()) {
    result.diagnostics.push_back(run_error("", "usage", "no program to run"));
    return result;
  }
  const std::string& program = request.command[0];
  auto links = examine_program(program, request.library_dir);
  if (!links) {
    result.diagnostics = links.diagnostics();
    return result;
  }
  if (!fs::exists(request.runtime_dir / links->runtime)) {
    const bool hip6 = links->runtime == "libamdhip64.so.6";
    result.diagnostics.push_back(run_error(
        program, "runtime-missing",
        fmt::format("the program needs {} (HIP {}), which the emulator's runtime folder {} lacks{}", links->runtime, hip6 ? "6" : "5",
                    request.runtime_dir.string(),
                    hip6 ? ": unpack HIP 6.4 (scripts/fetch-rocm-6.4) and build again" : ": build gpuport with Debian's libamdhip64-dev")));
    return result;
  }
  if (request.trace_lane > kMaxTraceLane) {
    result.diagnostics.push_back(
        run_error(program, "usage", fmt::format("--trace {}: a wave has lanes 0 to {}", request.trace_lane, kMaxTraceLane)));
    return result;
  }
  const bool checking = request.memcheck || request.initcheck;
  TemporaryFolder reports;
  if (request.stats || checking) {
    reports = TemporaryFolder::make("run");
    if (reports.empty()) {
      result.diagnostics.push_back(run_error(program, "io-error", "cannot make a temporary folder for the runtime's reports"));
      return result;
    }
  }
  const fs::path stats_file = request.stats ? reports.path() / "stats.tsv" : fs::path();
  const fs::path findings_file = checking ? reports.path() / "findings.txt" : fs::path();

  ProcessOptions options;
  options.pass_through = true;
  options.timeout = std::chrono::milliseconds(0);  // --timeout bounds each launch, inside the runtime
  // The variables of an outer gpuport run (or the user's shell) are replaced, not inherited.
  for (char** e = environ; *e; ++e) {
    std::string_view v = *e;
    const std::string_view name = v.substr(0, v.find('='));
    if (name.starts_with("GPUPORT_RUN_") || name == "GPUPORT_EMU_TRACE") options.environment[std::string(name)] = std::nullopt;
  }
  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  options.environment["LD_LIBRARY_PATH"] = request.runtime_dir.string() + (old_path && *old_path ? ":" + std::string(old_path) : "");
  if (request.jobs) options.environment["GPUPORT_RUN_JOBS"] = std::to_string(request.jobs);
  if (request.timeout_seconds > 0) options.environment["GPUPORT_RUN_TIMEOUT"] = fmt::format("{}", request.timeout_seconds);
  if (request.max_instructions) options.environment["GPUPORT_RUN_MAX_INSTRUCTIONS"] = std::to_string(request.max_instructions);
  if (request.wave64) options.environment["GPUPORT_RUN_WAVE64"] = "1";
  if (!request.jit.empty()) options.environment["GPUPORT_RUN_JIT"] = request.jit;
  if (!request.jit_cache.empty()) options.environment["GPUPORT_RUN_JIT_CACHE"] = request.jit_cache;
  if (!request.jit_helper.empty()) options.environment["GPUPORT_RUN_JIT_HELPER"] = request.jit_helper;
  // hipRTC in the runtime compiles with the same gfx1100 device libraries as the rest of gpuport.
  options.environment["GPUPORT_RUN_DEVICE_LIBS"] = request.device_lib_dir.string();
  if (request.trace_lane >= 0) options.environment["GPUPORT_EMU_TRACE"] = std::to_string(request.trace_lane);
  options.environment["GPUPORT_EMULATED"] = "1";  // a program may pick a smaller, emulation-sized workload
  if (request.stats) options.environment["GPUPORT_RUN_STATS"] = stats_file.string();
  if (checking) options.environment["GPUPORT_RUN_FINDINGS"] = findings_file.string();
  if (request.memcheck) options.environment["GPUPORT_RUN_LEAKS"] = "1";
  if (request.initcheck) options.environment["GPUPORT_RUN_INITCHECK"] = "1";

  // sid's libraries run on sid's glibc: its loader starts the program, with the emulator's
  // runtime ahead of them. Only this process sees that library path (LD_LIBRARY_PATH would hand
  // sid's libc to programs it starts, which the system's loader runs).
  std::vector<std::string> command = request.command;
  if (!links->loader.empty()) {
    const std::string path = request.runtime_dir.string() + ":" + links->loader.parent_path().string() +
                             (old_path && *old_path ? ":" + std::string(old_path) : "");
    command.insert(command.begin(), {links->loader.string(), "--argv0", program, "--library-path", path});
  }
  const ProcessResult run = run_process(command, options);
  if (!run.started) {
    result.diagnostics.push_back(run_error(program, "cannot-start", run.err.empty() ? "cannot start the program" : run.err));
    return result;
  }
  if (request.stats)
    if (auto text = read_file(stats_file, 64u << 20)) result.stats = *text;
  if (checking)
    if (auto text = read_file(findings_file, 64u << 20))
      for (char c : *text) result.findings += c == '\n';
  result.signal = run.signal;
  result.exit_status = run.signal ? 128 + run.signal : run.exit_code;
  return result;
}

}  // namespace gpuport::emu
