#include "verify/harness.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "common/file_io.h"
#include "common/nvcc11.h"
#include "common/plain_paths.h"
#include "common/process.h"
#include "source/project.h"
#ifdef GPUPORT_HAVE_LIFT
#include "lift/asm_translate.h"
#endif

namespace gpuport::verify {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string_view step_status_name(StepStatus status) {
  switch (status) {
    case StepStatus::ok: return "ok";
    case StepStatus::failed: return "FAILED";
    case StepStatus::skipped: return "skipped";
    case StepStatus::not_run: return "-";
  }
  return "-";
}

std::string_view run_outcome_name(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::not_run: return "not run";
    case RunOutcome::passed: return "PASS";
    case RunOutcome::failed: return "FAIL";
    case RunOutcome::crashed: return "crashed";
    case RunOutcome::timed_out: return "timed out";
    case RunOutcome::no_result: return "no RESULT line";
    case RunOutcome::not_started: return "could not start";
  }
  return "not run";
}

bool ProgramReport::built() const {
  return build_original.status == StepStatus::ok && compile_amd.status == StepStatus::ok &&
         build_hip_nvidia.status == StepStatus::ok && translate.status == StepStatus::ok;
}

bool VerifyReport::all_ok() const {
  if (!errors.empty() || programs.empty()) return false;
  for (const auto& p : programs)
    if (p.verdict.starts_with("failed")) return false;
  return true;
}

std::optional<ResultLine> parse_result_line(std::string_view output) {
  std::optional<ResultLine> found;
  std::size_t pos = 0;
  while (pos < output.size()) {
    auto nl = output.find('\n', pos);
    std::string_view line = output.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? output.size() : nl + 1;
    if (!line.starts_with("RESULT ")) continue;
    char name[256] = {}, verdict[16] = {};
    double err = 0, ms = 0;
    const std::string copy(line);
    if (std::sscanf(copy.c_str(), "RESULT %255s %15s max_rel_err=%lf gpu_ms=%lf", name, verdict, &err, &ms) != 4)
      continue;
    const std::string v = verdict;
    if (v != "PASS" && v != "FAIL") continue;
    found = ResultLine{name, v == "PASS", err, ms};  // the last RESULT line counts
  }
  return found;
}

RunResult run_program(const fs::path& binary, std::chrono::milliseconds timeout,
                      const std::map<std::string, std::optional<std::string>>& environment,
                      const std::vector<std::string>& launcher) {
  RunResult r;
  ProcessOptions o;
  o.timeout = timeout;
  o.environment = environment;
  o.working_directory = binary.parent_path();
  const auto start = Clock::now();
  std::vector<std::string> command = launcher;
  command.push_back(binary.string());
  auto p = run_process(command, o);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.exit_code = p.exit_code;
  std::string all = p.out + p.err;
  // Keep the last 20 lines for the report.
  std::size_t cut = all.size();
  for (int lines = 0; cut > 0 && lines <= 20; --cut)
    if (all[cut - 1] == '\n') ++lines;
  r.output_tail = all.substr(cut);
  r.result = parse_result_line(p.out);
  r.detail = p.outcome();
  if (!p.started) r.outcome = RunOutcome::not_started;
  else if (p.timed_out) r.outcome = RunOutcome::timed_out, r.detail = fmt::format("timed out after {} s", timeout.count() / 1000.0);
  else if (p.signal != 0) r.outcome = RunOutcome::crashed;
  else if (!r.result) r.outcome = RunOutcome::no_result;
  else if (r.result->pass && p.exit_code == 0) r.outcome = RunOutcome::passed;
  else {
    r.outcome = RunOutcome::failed;
    if (r.result->pass) r.detail = fmt::format("printed PASS but exited {}", p.exit_code);
  }
  return r;
}

bool detect_gpu(std::string& note) {
  if (!find_program("nvidia-smi").empty()) {
    ProcessOptions o;
    o.timeout = std::chrono::seconds(20);
    auto r = run_process({"nvidia-smi", "-L"}, o);
    if (r.succeeded() && r.out.find("GPU") != std::string::npos) {
      note = r.out.substr(0, r.out.find('\n'));
      return true;
    }
  }
  if (fs::exists("/dev/nvidia0")) {
    note = "NVIDIA device node /dev/nvidia0 present";
    return true;
  }
  note = "no GPU";
  return false;
}

std::vector<fs::path> find_programs(const std::vector<fs::path>& inputs, std::vector<std::string>& errors) {
  std::vector<fs::path> out;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_regular_file(in, ec)) {
      out.push_back(fs::weakly_canonical(in, ec));
      continue;
    }
    if (!fs::is_directory(in, ec)) {
      errors.push_back(fmt::format("{}: no such file or folder", in.string()));
      continue;
    }
    std::vector<fs::path> found;
    for (auto it = fs::recursive_directory_iterator(in, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_directory() && it->path().filename() == "include") {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file() && it->path().extension() == ".cu") found.push_back(fs::weakly_canonical(it->path()));
    }
    if (ec) errors.push_back(fmt::format("{}: cannot read folder: {}", in.string(), ec.message()));
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

namespace {

// A 128-bit content hash (two independent 64-bit lanes) names cache entries. Collisions only
// matter for accidental equality of build inputs, which 128 bits make negligible.
class ContentHash {
 public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      a_ = (a_ ^ c) * 0x100000001b3ull;
      b_ = (b_ ^ c) * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    }
    const std::uint64_t n = bytes.size();
    a_ = (a_ ^ n) * 0xff51afd7ed558ccdull;
    b_ = (b_ ^ n) * 0xc4ceb9fe1a85ec53ull;
  }
  std::string hex() const {
    auto mix = [](std::uint64_t x) {
      x ^= x >> 33;
      x *= 0xff51afd7ed558ccdull;
      x ^= x >> 33;
      x *= 0xc4ceb9fe1a85ec53ull;
      return x ^ (x >> 33);
    };
    return fmt::format("{:016x}{:016x}", mix(a_), mix(b_ ^ a_));
  }

 private:
  std::uint64_t a_ = 0xcbf29ce484222325ull;
  std::uint64_t b_ = 0x84222325cbf29ce4ull;
};

// What a compiler is: its `--version` output (asked once per path).
std::string compiler_identity(const std::string& compiler, const std::map<std::string, std::optional<std::string>>& env) {
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  std::lock_guard lock(mutex);
  if (auto it = known.find(compiler); it != known.end()) return it->second;
  ProcessOptions o;
  o.environment = env;
  o.timeout = std::chrono::seconds(60);
  auto r = run_process({compiler, "--version"}, o);
  return known[compiler] = r.out + r.err;
}

std::string trim(std::string s, std::size_t max_lines = 40) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  std::size_t lines = 0, cut = std::string::npos;
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n' && ++lines == max_lines) {
      cut = i;
      break;
    }
  if (cut != std::string::npos) s = s.substr(0, cut) + "\n...";
  return s;
}

// Runs a build command that writes `output`, through the content-hash cache. `inputs` are the
// files whose bytes decide the result; `argv` holds "{out}" where the output path goes. A
// compiler that runs its steps through a shell (`through_shell`: nvcc) gets plain names for
// the output, the inputs and the -I folders (common/plain_paths.h).
StepResult cached_build(std::vector<std::string> argv, const fs::path& output, const std::vector<fs::path>& inputs,
                        const std::map<std::string, std::optional<std::string>>& env, const VerifyOptions& options,
                        bool through_shell) {
  StepResult step;
  const auto start = Clock::now();
  ContentHash hash;
  hash.add(compiler_identity(argv.front(), env));
  for (const auto& a : argv) hash.add(a);
  for (const auto& f : inputs) {
    auto content = read_file(f, 1ull << 30);
    hash.add(f.filename().string());
    hash.add(content ? *content : std::string("<unreadable>"));
  }
  const fs::path cache = options.cache_dir.empty() ? options.work_dir / "cache" : options.cache_dir;
  const fs::path entry = cache / hash.hex();
  for (auto& a : argv)
    if (a == "{out}") a = output.string();
  std::string command;
  for (std::size_t i = 0; i < argv.size(); ++i) command += (i ? " " : "") + shell_quote(argv[i]);
  step.command = command;
  std::error_code ec;
  fs::create_directories(output.parent_path(), ec);
  if (options.use_cache && fs::exists(entry / "output", ec)) {
    if (!copy_file_atomic(entry / "output", output, {.durable = false})) {
      fs::permissions(output, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add, ec);
      step.status = StepStatus::ok;
      step.cached = true;
      step.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      return step;
    }
  }
  ProcessOptions o;
  o.environment = env;
  o.timeout = options.build_timeout;
  PlainPaths plain;
  std::optional<Diagnostic> problem;
  if (through_shell) {
    std::set<std::string> input_names;
    for (const auto& f : inputs) input_names.insert(f.string());
    problem = plain.set_temporary_folder(o.environment);
    for (auto& a : argv) {
      Result<fs::path> alias = fs::path(a);
      if (a == output.string()) alias = plain.output(output);
      else if (a.starts_with("-I") && a.size() > 2) alias = plain.input(a.substr(2));
      else if (input_names.count(a)) alias = plain.input(a);
      if (!alias) problem = alias.diagnostics().front();
      else a = (a.starts_with("-I") ? "-I" : "") + alias->string();
    }
  }
  if (problem) {
    step.status = StepStatus::failed;
    step.message = format_diagnostic(*problem);
    return step;
  }
  auto r = run_process(argv, o);
  const auto committed = plain.commit_outputs();
  step.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!r.succeeded() || committed || !fs::exists(output, ec)) {
    step.status = StepStatus::failed;
    step.message = trim(plain.restore(r.err + r.out) + (r.started ? "" : "\ncould not start " + argv.front()) +
                        (r.timed_out ? "\n(timed out)" : "") + (committed ? "\n" + format_diagnostic(*committed) : ""));
    return step;
  }
  step.status = StepStatus::ok;
  if (options.use_cache) {
    fs::create_directories(entry, ec);
    copy_file_atomic(output, entry / "output", {.durable = false});
  }
  return step;
}

std::vector<fs::path> program_inputs(const fs::path& source) {
  std::vector<fs::path> all = {source};
  std::set<fs::path> seen = {source};
  for (std::size_t i = 0; i < all.size(); ++i) {
    auto content = read_file(all[i], 64ull << 20);
    if (!content) continue;
    for (const auto& inc : source::local_includes(all[i], *content, {}))
      if (seen.insert(inc).second) all.push_back(inc);
  }
  return all;
}

// The libraries that a program's files (program_inputs) name in their #includes.
std::vector<LibraryLink> program_library_links(const std::vector<fs::path>& files) {
  std::string text;
  for (const auto& f : files)
    if (auto content = read_file(f, 64ull << 20)) text += *content + "\n";
  return library_links(text);
}

// The environment of a program run on gpuport's emulator: its HIP runtime first on the library
// path, and the corpus's emulation-sized workloads.
std::map<std::string, std::optional<std::string>> emulator_environment(const VerifyOptions& options) {
  std::map<std::string, std::optional<std::string>> env;
  const char* old_path = std::getenv("LD_LIBRARY_PATH");
  env["LD_LIBRARY_PATH"] = options.emulator_runtime.string() + (old_path && *old_path ? ":" + std::string(old_path) : "");
  env["CORPUS_EMULATED"] = "1";
  env["GPUPORT_EMULATED"] = "1";
  env["GPUPORT_RUN_JOBS"] = std::to_string(options.jobs > 1 ? 1 : 2);  // programs already run in parallel
  return env;
}

ProgramReport verify_source(const fs::path& source, const maps::ApiMap& map, const VerifyOptions& options,
                         bool gpu, const std::string& gpu_note) {
  ProgramReport p;
  p.source = source.string();
  p.name = source.stem().string();
  p.domain = source.parent_path().filename().string();
  const fs::path dir = options.work_dir / p.domain / p.name;
  const auto& cc = options.compilers;
  const auto nv_env = nvcc11_environment();
  const std::map<std::string, std::optional<std::string>> no_env;

  // The CUDA libraries the program links (cuBLAS, cuFFT, ...), and their HIP counterparts.
  const auto inputs = program_inputs(source);
  const auto links = program_library_links(inputs);
  std::string link_names;
  for (const auto& l : links) link_names += (link_names.empty() ? "" : ", ") + l.label;

  // (1) the original, with nvcc 11.8.
  if (auto why = nvcc_unavailable(cc)) {
    p.build_original.status = StepStatus::skipped;
    p.build_original.message = *why;
  } else {
    auto argv = nvcc_command(cc);
    argv.insert(argv.end(), {"-O2", "-I" + source.parent_path().string(), source.string(), "-o", "{out}", "-lstdc++", "-lm"});
    for (const auto& l : links) argv.push_back(l.cuda_lib);
    p.build_original = cached_build(argv, dir / "original", inputs, nv_env, options, true);
  }

  // (2) translate, with the local headers it includes.
  source::ProjectOptions po;
  po.mode = source::OutputMode::directory;
  po.output_dir = fs::absolute(dir / "hip");
  po.jobs = 1;
  const auto start = Clock::now();
  auto tr = source::translate_project({source}, map, po);
  p.translate.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  p.translate.command = fmt::format("gpuport translate {} -o {}", source.string(), po.output_dir.string());
  fs::path hip_unit;
  std::vector<fs::path> hip_files;
  std::string errors;
  for (const auto& f : tr.report.files) {
    if (!f.output.empty()) hip_files.push_back(fs::absolute(f.output));
    if (fs::weakly_canonical(f.input) == source && !f.output.empty()) hip_unit = fs::absolute(f.output);
    for (const auto& d : f.findings)
      if (d.severity == Severity::error) errors += format_diagnostic(d) + "\n";
  }
  p.hip_unit = hip_unit.string();
  for (const auto& f : hip_files) p.hip_files.push_back(f.string());
  if (hip_unit.empty() || !errors.empty() || tr.report.io_failure) {
    p.translate.status = StepStatus::failed;
    p.translate.message = trim(errors.empty() ? std::string("no translated unit was written") : errors);
  } else {
    p.translate.status = StepStatus::ok;
  }

  if (!hip_unit.empty()) {
    // (3) AMD gfx1100: full compile of device and host code, linked against the HIP runtime.
    if (auto why = amd_unavailable(cc)) {
      p.compile_amd.status = StepStatus::skipped;
      p.compile_amd.message = *why;
    } else if (auto missing = std::find_if(links.begin(), links.end(), [&](const LibraryLink& l) { return !cc.hip.can_link(l.hip_lib); });
               missing != links.end()) {
      p.compile_amd.status = StepStatus::skipped;
      p.compile_amd.message = fmt::format("HIP {} has no {} to link here (Debian packages none for it): --hip-version 6.4",
                                          cc.hip.version, missing->label);
    } else {
      std::vector<std::string> argv = hip_clang_command(cc);
      const auto link = cc.hip.link_flags();
      argv.insert(argv.end(), {"-O2", "-Wno-unused-result"});
      // HIP 5.2: hipCUB, rocThrust, hipBLAS... headers from Debian 13, as --check adds them.
      if (auto libs = library_include_dir(cc, "amd"); !libs.empty() && cc.hip.uses_library_headers())
        argv.insert(argv.end(), {"-isystem", libs.string()});
      argv.insert(argv.end(), {hip_unit.string(), "-o", "{out}"});
      argv.insert(argv.end(), link.begin(), link.end());
      for (const auto& l : links) argv.push_back(l.hip_lib);
      p.compile_amd = cached_build(argv, dir / ("translated-" + cc.amd_arch), hip_files, no_env, options, false);
      if (options.emulate && !cc.hip.wave64_on_gfx11()) {
        p.compile_amd_wave64.status = StepStatus::skipped;
        p.compile_amd_wave64.message = fmt::format("HIP {} refuses wave64 on gfx11 (hip_runtime.h); --hip-version 5.2 builds it",
                                                   cc.hip.version);
      } else if (options.emulate) {  // wave64 too: 32-lane assumptions show there
        argv.insert(argv.begin() + 4, "-mwavefrontsize64");
        p.compile_amd_wave64 = cached_build(argv, dir / ("translated-" + cc.amd_arch + "-wave64"), hip_files, no_env, options, false);
      }
    }
    // (4) HIP on NVIDIA, with nvcc 11.8.
    if (auto why = nvidia_unavailable(cc)) {
      p.build_hip_nvidia.status = StepStatus::skipped;
      p.build_hip_nvidia.message = *why;
    } else if (!links.empty()) {
      p.build_hip_nvidia.status = StepStatus::skipped;
      p.build_hip_nvidia.message = fmt::format("no {} built for HIP's NVIDIA platform here (Debian has the headers only)", link_names);
    } else {
      auto argv = nvcc_hip_command(cc);
      argv.insert(argv.end(), {"-O2", "-I" + hip_unit.parent_path().string()});
      if (auto libs = library_include_dir(cc, "nvidia"); !libs.empty()) argv.push_back("-I" + libs.string());
      argv.insert(argv.end(), {hip_unit.string(), "-o", "{out}", "-lstdc++", "-lm"});
      p.build_hip_nvidia = cached_build(argv, dir / "translated-nvidia", hip_files, nv_env, options, true);
    }
  }

  // (5) run both on the GPU, where there is one.
  std::string failed_step;
  if (p.build_original.status == StepStatus::failed) failed_step = "nvcc build of the original";
  else if (p.translate.status == StepStatus::failed) failed_step = "translation";
  else if (p.compile_amd.status == StepStatus::failed) failed_step = "gfx1100 compile";
  else if (p.build_hip_nvidia.status == StepStatus::failed) failed_step = "HIP-on-NVIDIA build";
  if (!failed_step.empty()) {
    p.verdict = "failed: " + failed_step;
    return p;
  }
  if (options.emulate && p.compile_amd.status == StepStatus::ok) {
    auto env = emulator_environment(options);
    // A program that links ROCm's libraries starts as `gpuport run` starts it (sid's loader).
    const std::vector<std::string> launcher = links.empty() ? std::vector<std::string>() : options.emulator_launcher;
    p.run_emulated = run_program(dir / "translated-gfx1100", options.run_timeout, env, launcher);
    if (p.compile_amd_wave64.status == StepStatus::ok) {
      env["GPUPORT_RUN_WAVE64"] = "1";
      p.run_emulated_wave64 = run_program(dir / "translated-gfx1100-wave64", options.run_timeout, env, launcher);
    }
    if (p.run_emulated.outcome != RunOutcome::passed) {
      p.verdict = fmt::format("failed: gfx1100 (emulated) {}", run_outcome_name(p.run_emulated.outcome));
      return p;
    }
    if (p.run_emulated_wave64.outcome != RunOutcome::passed && p.compile_amd_wave64.status != StepStatus::skipped) {
      p.verdict = fmt::format("failed: gfx1100 wave64 (emulated) {}", p.compile_amd_wave64.status == StepStatus::ok
                                                                           ? std::string(run_outcome_name(p.run_emulated_wave64.outcome))
                                                                           : std::string("build failed"));
      return p;
    }
  }
  if (!options.run) {
    p.verdict = "not run: --no-run";
    return p;
  }
  if (!gpu) {
    p.verdict = "not run: " + gpu_note;
    return p;
  }
  if (p.build_original.status != StepStatus::ok || p.build_hip_nvidia.status != StepStatus::ok) {
    p.verdict = "not run: nvcc 11.8 missing";
    return p;
  }
  p.run_original = run_program(dir / "original", options.run_timeout);
  p.run_translated = run_program(dir / "translated-nvidia", options.run_timeout);
  if (p.run_original.outcome != RunOutcome::passed) {
    p.verdict = fmt::format("failed: original {}", run_outcome_name(p.run_original.outcome));
  } else if (p.run_translated.outcome != RunOutcome::passed) {
    p.verdict = fmt::format("failed: translated {}", run_outcome_name(p.run_translated.outcome));
  } else {
    p.verdict = "passed";
  }
  if (p.run_original.result && p.run_translated.result && p.run_original.result->gpu_ms > 0)
    p.runtime_ratio = p.run_translated.result->gpu_ms / p.run_original.result->gpu_ms;
  return p;
}

#ifdef GPUPORT_HAVE_LIFT
// --asm for one architecture: nvcc 11.8 -cubin (cached), `gpuport asm` of the cubin, the HIP host
// code linked with the translated device code (cached), the program on the emulator.
AsmPath verify_asm(const ProgramReport& p, const fs::path& source, int arch, const VerifyOptions& options) {
  AsmPath a;
  a.arch = arch;
  const auto& cc = options.compilers;
  const fs::path dir = options.work_dir / p.domain / p.name / fmt::format("asm-sm_{}", arch);
  if (auto why = nvcc_unavailable(cc)) {
    a.cubin.status = StepStatus::skipped;
    a.cubin.message = *why;
    return a;
  }
  auto argv = nvcc_command(cc);
  argv[3] = fmt::format("-arch=sm_{}", arch);
  argv.insert(argv.end(), {"-cubin", "-O3", "-I" + source.parent_path().string(), source.string(), "-o", "{out}"});
  const fs::path cubin = dir / fmt::format("{}.sm_{}.cubin", p.name, arch);
  a.cubin = cached_build(argv, cubin, program_inputs(source), nvcc11_environment(), options, true);
  if (a.cubin.status != StepStatus::ok) return a;

  const auto start = Clock::now();
  a.translate.command = fmt::format("gpuport asm {} --emit bundle -o {}", cubin.string(), dir.string());
  auto bytes = read_file(cubin, 1ull << 30);
  lift::AsmOptions ao;
  ao.archs = {arch};
  ao.want_ir = ao.want_assembly = ao.want_code_object = false;
  ao.want_bundle = true;
  const fs::path bundle = dir / fmt::format("{}.sm_{}.gfx1100.hipfb", p.name, arch);
  std::string findings;
  bool translated = false;
  if (bytes) {
    const lift::AsmResult r = lift::translate_machine_code(cubin, bytes.value(), ao);
    for (const auto& d : r.diagnostics)
      if (d.severity == Severity::error) findings += format_diagnostic(d) + "\n";
    for (const auto& out : r.outputs) {
      for (const auto& k : out.kernels)
        for (const auto& d : k.findings) findings += format_diagnostic(d) + "\n";
      if (out.ok && !translated) {
        if (auto err = write_file_atomic(bundle, out.bundle, {.durable = false})) findings += format_diagnostic(*err) + "\n";
        else translated = true;
      }
    }
  } else {
    findings = format_diagnostic(bytes.diagnostics().front());
  }
  a.translate.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  a.translate.status = translated ? StepStatus::ok : StepStatus::failed;
  a.translate.message = trim(findings.empty() && !translated ? std::string("no output") : findings);
  if (!translated) return a;

  if (auto why = amd_unavailable(cc)) {
    a.link.status = StepStatus::skipped;
    a.link.message = *why;
    return a;
  }
  std::vector<std::string> link = hip_clang_command(cc);
  link.insert(link.end(), {"--offload-host-only", "-O2", "-Wno-unused-result", "-Xclang", "-fcuda-include-gpubinary",
                           "-Xclang", bundle.string(), p.hip_unit, "-o", "{out}"});
  const auto hip_link = cc.hip.link_flags();
  link.insert(link.end(), hip_link.begin(), hip_link.end());
  const auto links = program_library_links(program_inputs(source));
  for (const auto& l : links) link.push_back(l.hip_lib);
  std::vector<fs::path> inputs(p.hip_files.begin(), p.hip_files.end());
  inputs.push_back(bundle);
  a.link = cached_build(link, dir / p.name, inputs, {}, options, false);
  if (a.link.status != StepStatus::ok || options.emulator_runtime.empty()) return a;
  a.run = run_program(dir / p.name, options.run_timeout, emulator_environment(options),
                      links.empty() ? std::vector<std::string>() : options.emulator_launcher);
  return a;
}
#endif

ProgramReport verify_one(const fs::path& source, const maps::ApiMap& map, const VerifyOptions& options, bool gpu,
                         const std::string& gpu_note) {
  ProgramReport p = verify_source(source, map, options, gpu, gpu_note);
#ifdef GPUPORT_HAVE_LIFT
  if (!options.asm_archs.empty() && !p.hip_unit.empty() && p.translate.status == StepStatus::ok) {
    for (int arch : options.asm_archs) p.asm_paths.push_back(verify_asm(p, source, arch, options));
    // The machine-code path proves itself by running; a failure there fails the program.
    if (!p.verdict.starts_with("failed"))
      for (const auto& a : p.asm_paths) {
        std::string why;
        if (a.cubin.status == StepStatus::failed) why = "nvcc -cubin";
        else if (a.translate.status == StepStatus::failed) why = "translation";
        else if (a.link.status == StepStatus::failed) why = "host link";
        else if (a.run.outcome != RunOutcome::passed && a.run.outcome != RunOutcome::not_run) why = std::string(run_outcome_name(a.run.outcome));
        if (!why.empty()) {
          p.verdict = fmt::format("failed: asm sm_{} (emulated) {}", a.arch, why);
          break;
        }
      }
  }
#endif
  return p;
}

}  // namespace

VerifyReport verify_programs(const std::vector<fs::path>& inputs, const maps::ApiMap& map, const VerifyOptions& options,
                             const VerifyProgress& progress) {
  VerifyReport report;
  report.run_requested = options.run;
  report.emulated = options.emulate;
  report.asm_archs = options.asm_archs;
  const auto programs = find_programs(inputs, report.errors);
  if (options.gpu_present) {
    report.gpu = *options.gpu_present;
    report.gpu_note = report.gpu ? "GPU assumed present" : "no GPU";
  } else {
    report.gpu = detect_gpu(report.gpu_note);
  }
  report.programs.resize(programs.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::mutex progress_mutex;
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < programs.size();) {
      report.programs[i] = verify_one(programs[i], map, options, report.gpu, report.gpu_note);
      const std::size_t d = done.fetch_add(1) + 1;
      if (progress) {
        std::lock_guard lock(progress_mutex);
        progress(report.programs[i], d, programs.size());
      }
    }
  };
  // Runs measure time: with a GPU, run programs one at a time so they do not share it.
  const unsigned jobs = report.gpu && options.run ? 1u : std::max(1u, options.jobs);
  {
    std::vector<std::jthread> pool;
    for (unsigned j = 0; j < std::min<std::size_t>(jobs, std::max<std::size_t>(1, programs.size())); ++j)
      pool.emplace_back(worker);
  }
  return report;
}

// -------------------------------------------------------------------------------------------
// Reports

namespace {

std::string cell(const StepResult& s) {
  if (s.status == StepStatus::ok && s.cached) return "ok*";
  return std::string(step_status_name(s.status));
}

// One word per --asm architecture: the run's outcome, or the step that failed.
std::string asm_outcome(const AsmPath& a) {
  if (a.cubin.status == StepStatus::failed) return "nvcc-failed";
  if (a.cubin.status == StepStatus::skipped) return "skipped";
  if (a.translate.status == StepStatus::failed) return "asm-failed";
  if (a.link.status == StepStatus::failed) return "link-failed";
  if (a.link.status == StepStatus::skipped) return "skipped";
  return std::string(run_outcome_name(a.run.outcome));
}

std::string asm_cell(const ProgramReport& p) {
  if (p.asm_paths.empty()) return "-";
  std::string c;
  for (const auto& a : p.asm_paths) c += (c.empty() ? "" : " / ") + asm_outcome(a);
  return c;
}

std::string run_cell(const ProgramReport& p) {
  if (p.verdict.starts_with("not run")) return p.verdict;
  if (p.run_original.outcome == RunOutcome::not_run) return "-";
  return fmt::format("{} / {}", run_outcome_name(p.run_original.outcome), run_outcome_name(p.run_translated.outcome));
}

struct DomainStats {
  std::size_t programs = 0, built = 0, passed = 0, ran = 0;
};

std::map<std::string, DomainStats> domain_stats(const VerifyReport& r) {
  std::map<std::string, DomainStats> m;
  for (const auto& p : r.programs) {
    auto& d = m[p.domain];
    ++d.programs;
    d.built += p.built();
    d.ran += p.run_original.outcome != RunOutcome::not_run;
    d.passed += p.passed();
  }
  return m;
}

std::string html_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

nlohmann::json step_json(const StepResult& s) {
  return {{"status", step_status_name(s.status)}, {"cached", s.cached}, {"command", s.command},
          {"message", s.message}, {"seconds", s.seconds}};
}

nlohmann::json run_json(const RunResult& r) {
  nlohmann::json j = {{"outcome", run_outcome_name(r.outcome)}, {"exit_code", r.exit_code}, {"detail", r.detail},
                      {"seconds", r.seconds}};
  if (r.result)
    j["result"] = {{"name", r.result->name}, {"pass", r.result->pass}, {"max_rel_err", r.result->max_rel_err},
                   {"gpu_ms", r.result->gpu_ms}};
  if (r.outcome != RunOutcome::passed && r.outcome != RunOutcome::not_run) j["output_tail"] = r.output_tail;
  return j;
}

}  // namespace

std::string format_table(const VerifyReport& r) {
  std::string out;
  std::size_t width = 24;
  for (const auto& p : r.programs) width = std::max(width, p.domain.size() + 1 + p.name.size());
  std::string emu_head = r.emulated ? fmt::format("{:<28} ", "gfx1100 (emulated) w32 / w64") : std::string();
  if (!r.asm_archs.empty()) {
    std::string head = "asm";
    for (int arch : r.asm_archs) head += fmt::format("{}sm_{}", head == "asm" ? " " : " / ", arch);
    emu_head += fmt::format("{:<28} ", head + " (emulated)");
  }
  out += fmt::format("{:<{}}  {:<7} {:<9} {:<8} {:<10} {}{:<24} {}\n", "program", width, "nvcc", "translate", "gfx1100",
                     "hip-nvidia", emu_head, "run (original / HIP)", "time ratio");
  for (const auto& p : r.programs) {
    std::string emu = r.emulated ? fmt::format("{:<28} ", fmt::format("{} / {}", run_outcome_name(p.run_emulated.outcome),
                                                                     run_outcome_name(p.run_emulated_wave64.outcome)))
                                 : std::string();
    if (!r.asm_archs.empty()) emu += fmt::format("{:<28} ", asm_cell(p));
    out += fmt::format("{:<{}}  {:<7} {:<9} {:<8} {:<10} {}{:<24} {}\n", p.domain + "/" + p.name, width,
                       cell(p.build_original), cell(p.translate), cell(p.compile_amd), cell(p.build_hip_nvidia), emu,
                       run_cell(p), p.runtime_ratio ? fmt::format("{:.2f}", *p.runtime_ratio) : "-");
  }
  // Failures with the command and the compiler's words.
  for (const auto& p : r.programs) {
    for (const auto* s : {&p.build_original, &p.translate, &p.compile_amd, &p.build_hip_nvidia}) {
      if (s->status != StepStatus::failed) continue;
      out += fmt::format("\n{}/{}: {}\n  command: {}\n", p.domain, p.name, p.verdict, s->command);
      std::string msg = s->message;
      for (std::size_t pos = 0; pos < msg.size();) {
        auto nl = msg.find('\n', pos);
        out += "  " + msg.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
        pos = nl == std::string::npos ? msg.size() : nl + 1;
      }
      break;
    }
    if (p.verdict.starts_with("failed: original") || p.verdict.starts_with("failed: translated") ||
        p.verdict.starts_with("failed: gfx1100 (emulated)") || p.verdict.starts_with("failed: gfx1100 wave64 (emulated)")) {
      const auto& run = p.verdict.starts_with("failed: original")             ? p.run_original
                        : p.verdict.starts_with("failed: translated")         ? p.run_translated
                        : p.verdict.starts_with("failed: gfx1100 (emulated)") ? p.run_emulated
                                                                              : p.run_emulated_wave64;
      out += fmt::format("\n{}/{}: {} ({})\n{}\n", p.domain, p.name, p.verdict, run.detail, run.output_tail);
    }
  }
  for (const auto& p : r.programs)
    for (const auto& a : p.asm_paths) {
      const StepResult* failed = a.cubin.status == StepStatus::failed       ? &a.cubin
                                 : a.translate.status == StepStatus::failed ? &a.translate
                                 : a.link.status == StepStatus::failed      ? &a.link
                                                                            : nullptr;
      if (failed != nullptr) {
        out += fmt::format("\n{}/{}: asm sm_{}: {}\n  command: {}\n", p.domain, p.name, a.arch, asm_outcome(a), failed->command);
        std::string msg = trim(failed->message, 12);
        for (std::size_t pos = 0; pos < msg.size();) {
          auto nl = msg.find('\n', pos);
          out += "  " + msg.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) + "\n";
          pos = nl == std::string::npos ? msg.size() : nl + 1;
        }
      } else if (a.run.outcome != RunOutcome::passed && a.run.outcome != RunOutcome::not_run) {
        out += fmt::format("\n{}/{}: asm sm_{} (emulated) {} ({})\n{}\n", p.domain, p.name, a.arch, run_outcome_name(a.run.outcome),
                           a.run.detail, a.run.output_tail);
      }
    }
  for (const auto& e : r.errors) out += "error: " + e + "\n";
  std::size_t built = 0, passed = 0, ran = 0, steps[4] = {};
  std::vector<double> ratios;
  for (const auto& p : r.programs) {
    built += p.built();
    passed += p.passed();
    ran += p.run_original.outcome != RunOutcome::not_run;
    steps[0] += p.build_original.status == StepStatus::ok;
    steps[1] += p.translate.status == StepStatus::ok;
    steps[2] += p.compile_amd.status == StepStatus::ok;
    steps[3] += p.build_hip_nvidia.status == StepStatus::ok;
    if (p.runtime_ratio) ratios.push_back(*p.runtime_ratio);
  }
  const std::size_t n = r.programs.size();
  out += fmt::format("\n{} programs ({} domains): nvcc {}/{}, translate {}/{}, gfx1100 {}/{}, hip-nvidia {}/{}; ", n,
                     domain_stats(r).size(), steps[0], n, steps[1], n, steps[2], n, steps[3], n);
  if (r.emulated) {
    std::size_t passed32 = 0, ran32 = 0, passed64 = 0, ran64 = 0;
    for (const auto& p : r.programs) {
      ran32 += p.run_emulated.outcome != RunOutcome::not_run;
      passed32 += p.run_emulated.outcome == RunOutcome::passed;
      ran64 += p.run_emulated_wave64.outcome != RunOutcome::not_run;
      passed64 += p.run_emulated_wave64.outcome == RunOutcome::passed;
    }
    out += fmt::format("gfx1100 (emulated) wave32 {} passed of {}, wave64 {} passed of {}; ", passed32, ran32, passed64, ran64);
  }
  for (std::size_t k = 0; k < r.asm_archs.size(); ++k) {
    std::size_t translated = 0, passed_asm = 0;
    for (const auto& p : r.programs)
      if (k < p.asm_paths.size()) {
        translated += p.asm_paths[k].translate.status == StepStatus::ok;
        passed_asm += p.asm_paths[k].run.outcome == RunOutcome::passed;
      }
    out += fmt::format("asm sm_{}: translated {}/{}, gfx1100 (emulated) passed {}/{}; ", r.asm_archs[k], translated, n, passed_asm, n);
  }
  if (ran == 0) {
    out += fmt::format("run: not run ({})", !r.run_requested ? "--no-run" : r.gpu_note);
  } else {
    std::sort(ratios.begin(), ratios.end());
    out += fmt::format("run: {} passed of {} run on {}", passed, ran, r.gpu_note);
    if (!ratios.empty()) out += fmt::format("; time ratio HIP/CUDA median {:.2f}", ratios[ratios.size() / 2]);
  }
  out += "\n(* = from the build cache)\n";
  return out;
}

nlohmann::json to_json(const VerifyReport& r) {
  nlohmann::json programs = nlohmann::json::array();
  for (const auto& p : r.programs) {
    nlohmann::json j = {{"name", p.name},
                        {"domain", p.domain},
                        {"source", p.source},
                        {"verdict", p.verdict},
                        {"steps",
                         {{"build_original", step_json(p.build_original)},
                          {"translate", step_json(p.translate)},
                          {"compile_amd", step_json(p.compile_amd)},
                          {"build_hip_nvidia", step_json(p.build_hip_nvidia)}}},
                        {"run", {{"original", run_json(p.run_original)}, {"translated", run_json(p.run_translated)},
                                 {"gfx1100_emulated", run_json(p.run_emulated)},
                                 {"gfx1100_wave64_emulated", run_json(p.run_emulated_wave64)}}}};
    if (p.runtime_ratio) j["runtime_ratio"] = *p.runtime_ratio;
    if (!p.asm_paths.empty()) {
      j["asm"] = nlohmann::json::array();
      for (const auto& a : p.asm_paths)
        j["asm"].push_back({{"arch", fmt::format("sm_{}", a.arch)},
                            {"cubin", step_json(a.cubin)},
                            {"translate", step_json(a.translate)},
                            {"link", step_json(a.link)},
                            {"gfx1100_emulated", run_json(a.run)},
                            {"outcome", asm_outcome(a)}});
    }
    programs.push_back(std::move(j));
  }
  nlohmann::json domains = nlohmann::json::object();
  for (const auto& [d, s] : domain_stats(r))
    domains[d] = {{"programs", s.programs}, {"built", s.built}, {"ran", s.ran}, {"passed", s.passed}};
  return {{"tool", "gpuport verify"}, {"gpu", r.gpu}, {"gpu_note", r.gpu_note}, {"programs", programs},
          {"domains", domains}, {"errors", r.errors}};
}

std::string to_html(const VerifyReport& r) {
  std::string h;
  h += "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gpuport verify</title>\n<style>"
       "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
       "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}th{background:#eee}"
       ".ok{color:#186a18}.bad{color:#b00020;font-weight:bold}.muted{color:#777}</style></head><body>\n";
  h += "<h1>gpuport verify</h1>\n<p>" + html_escape(fmt::format("{} programs; GPU: {}", r.programs.size(), r.gpu_note)) +
       "</p>\n";
  h += "<h2>Per domain</h2>\n<table><tr><th>domain</th><th>programs</th><th>built (all 4 steps)</th><th>ran</th>"
       "<th>passed</th><th>pass rate</th></tr>\n";
  for (const auto& [d, s] : domain_stats(r)) {
    const std::string rate = s.ran ? fmt::format("{:.0f}%", 100.0 * s.passed / s.ran) : "not run";
    h += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(d),
                     s.programs, s.built, s.ran, s.passed, rate);
  }
  h += "</table>\n<h2>Runtime ratio (HIP on NVIDIA / original CUDA, GPU time)</h2>\n";
  std::vector<const ProgramReport*> with_ratio;
  for (const auto& p : r.programs)
    if (p.runtime_ratio) with_ratio.push_back(&p);
  if (with_ratio.empty()) {
    h += "<p class=\"muted\">" +
         html_escape(r.gpu ? std::string("no program ran with a timing") : "not run: " + r.gpu_note) + "</p>\n";
  } else {
    // A horizontal bar per program; the line at 1.0 is parity.
    double max_ratio = 2.0;
    for (const auto* p : with_ratio) max_ratio = std::max(max_ratio, *p->runtime_ratio * 1.1);
    const int bar_h = 14, left = 260, plot_w = 500;
    const int height = static_cast<int>(with_ratio.size()) * (bar_h + 4) + 30;
    h += fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\">\n", left + plot_w + 60, height);
    int y = 10;
    for (const auto* p : with_ratio) {
      const double w = plot_w * (*p->runtime_ratio) / max_ratio;
      h += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>", left - 6, y + 11,
                       html_escape(p->domain + "/" + p->name));
      h += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"/>", left, y, w, bar_h,
                       *p->runtime_ratio <= 1.05 ? "#4c9a2a" : "#c0392b");
      h += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"11\">{:.2f}</text>\n", left + w + 4, y + 11,
                       *p->runtime_ratio);
      y += bar_h + 4;
    }
    const double one = left + plot_w / max_ratio;
    h += fmt::format("<line x1=\"{:.1f}\" y1=\"0\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#333\" stroke-dasharray=\"4 3\"/>",
                     one, one, y);
    h += fmt::format("<text x=\"{:.1f}\" y=\"{}\" font-size=\"11\">1.0</text>\n</svg>\n", one + 2, y + 14);
  }
  h += "<h2>Programs</h2>\n<table><tr><th>program</th><th>nvcc</th><th>translate</th><th>gfx1100</th>"
       "<th>hip-nvidia</th>";
  if (r.emulated) h += "<th>gfx1100 (emulated) wave32 / wave64</th>";
  if (!r.asm_archs.empty()) {
    std::string head = "asm";
    for (int arch : r.asm_archs) head += fmt::format("{}sm_{}", head == "asm" ? " " : " / ", arch);
    h += "<th>" + html_escape(head + " (emulated)") + "</th>";
  }
  h += "<th>run (original / HIP)</th><th>ratio</th><th>verdict</th></tr>\n";
  auto cls = [](const StepResult& s) { return s.status == StepStatus::failed ? "bad" : s.status == StepStatus::ok ? "ok" : "muted"; };
  for (const auto& p : r.programs) {
    std::string emulated =
        r.emulated ? fmt::format("<td>{} / {}</td>", run_outcome_name(p.run_emulated.outcome), run_outcome_name(p.run_emulated_wave64.outcome))
                   : std::string();
    if (!r.asm_archs.empty()) emulated += "<td>" + html_escape(asm_cell(p)) + "</td>";
    h += fmt::format(
        "<tr><td>{}</td><td class=\"{}\">{}</td><td class=\"{}\">{}</td><td class=\"{}\">{}</td><td class=\"{}\">{}</td>"
        "{}<td>{}</td><td>{}</td><td class=\"{}\">{}</td></tr>\n",
        html_escape(p.domain + "/" + p.name), cls(p.build_original), cell(p.build_original), cls(p.translate),
        cell(p.translate), cls(p.compile_amd), cell(p.compile_amd), cls(p.build_hip_nvidia), cell(p.build_hip_nvidia), emulated,
        html_escape(run_cell(p)), p.runtime_ratio ? fmt::format("{:.2f}", *p.runtime_ratio) : "-",
        p.passed() ? "ok" : p.verdict.starts_with("failed") ? "bad" : "muted", html_escape(p.verdict));
  }
  h += "</table>\n";
  for (const auto& p : r.programs) {
    for (const auto* s : {&p.build_original, &p.translate, &p.compile_amd, &p.build_hip_nvidia}) {
      if (s->status != StepStatus::failed) continue;
      h += "<h3 class=\"bad\">" + html_escape(p.domain + "/" + p.name + ": " + p.verdict) + "</h3>\n<pre>" +
           html_escape(s->command + "\n" + s->message) + "</pre>\n";
      break;
    }
  }
  h += "<p class=\"muted\">ok* = taken from the build cache (same inputs, same compiler, same command).</p>\n"
       "</body></html>\n";
  return h;
}

}  // namespace gpuport::verify
