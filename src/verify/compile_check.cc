#include "verify/compile_check.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/format.h>

#include "common/nvcc11.h"
#include "common/plain_paths.h"
#include "common/process.h"

namespace gpuport::verify {
namespace fs = std::filesystem;

bool is_compile_unit(const fs::path& path) {
  static const std::set<std::string> kUnits = {".cu", ".hip", ".cpp", ".cxx", ".cc"};
  return kUnits.count(path.extension().string()) != 0;
}

fs::path resolve_device_lib_dir(const CompileCheckOptions& options) {
  if (!options.device_lib_dir.empty()) return options.device_lib_dir;
  if (const char* env = std::getenv("GPUPORT_ROCM_DEVICE_LIB_PATH"); env && *env) return env;
  return GPUPORT_DEFAULT_DEVICE_LIB_DIR;
}

fs::path library_include_dir(const CompileCheckOptions& options, std::string_view target) {
  fs::path root = options.library_headers;
  if (root.empty()) {
    if (const char* env = std::getenv("GPUPORT_ROCM_LIBRARY_HEADERS"); env && *env) root = env;
    else root = GPUPORT_DEFAULT_LIBRARY_HEADERS;
  }
  const fs::path dir = root / (std::string(target) + "-libs");
  std::error_code ec;
  return fs::is_directory(dir, ec) ? dir : fs::path();
}

std::optional<std::string> amd_unavailable(const CompileCheckOptions& options) {
  if (find_program(options.clang).empty()) return fmt::format("{} not found (install clang-19)", options.clang);
  if (auto why = options.hip.unavailable()) return why;
  const fs::path dl = resolve_device_lib_dir(options);
  if (!fs::exists(dl / fmt::format("oclc_isa_version_{}.bc", options.amd_arch.substr(3))))
    return fmt::format("device libraries for {} not found in {} (make them with scripts/make-rocm-device-libs DIR "
                       "and pass --rocm-device-lib-path DIR)",
                       options.amd_arch, dl.string());
  return std::nullopt;
}

std::optional<std::string> nvcc_unavailable(const CompileCheckOptions& options) {
  if (find_program(options.nvcc).empty())
    return fmt::format("{} not found (install nvidia-cuda-toolkit from Debian non-free)", options.nvcc);
  if (find_program(options.nvcc_host_compiler).empty())
    return fmt::format("{} not found (nvcc 11.8 needs it as host compiler; install clang-14)", options.nvcc_host_compiler);
  return std::nullopt;
}

std::optional<std::string> nvidia_unavailable(const CompileCheckOptions& options) {
  if (auto why = nvcc_unavailable(options)) return why;
  // HIP code for NVIDIA builds on HIP's NVIDIA platform headers of the same version (hipother);
  // Debian packages them only with HIP 5.2. A HIP 6 port checked on 5.2's would fail on every
  // name HIP 6 added, which says nothing about the port. (A HIP -> CUDA translation is CUDA.)
  if (!options.cuda_source && options.hip.version != "5.2")
    return fmt::format("HIP {}'s NVIDIA platform headers are not packaged here (Debian has HIP 5.2's only): "
                       "check with --hip-version 5.2 for an NVIDIA build",
                       options.hip.version);
  if (!fs::exists("/usr/include/hip/hip_runtime.h")) return "HIP headers not found (install libamdhip64-dev)";
  return std::nullopt;
}

namespace {

std::string trim_output(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

}  // namespace

std::vector<std::string> hip_clang_command(const CompileCheckOptions& options) {
  std::vector<std::string> cmd = {options.clang, "-x", "hip", "--offload-arch=" + options.amd_arch};
  const auto hip_flags = options.hip.clang_flags();
  cmd.insert(cmd.end(), hip_flags.begin(), hip_flags.end());
  cmd.push_back("--rocm-device-lib-path=" + resolve_device_lib_dir(options).string());
  if (!options.device_pass_plugin.empty()) cmd.push_back("-fpass-plugin=" + options.device_pass_plugin.string());
  return cmd;
}

std::vector<std::string> nvcc_command(const CompileCheckOptions& options) {
  std::vector<std::string> cmd = {options.nvcc, "-ccbin", options.nvcc_host_compiler,
                                  fmt::format("-arch={}", options.nvidia_arch)};
  const auto flags = nvcc11_host_include_flags(options.nvcc_host_compiler);
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  return cmd;
}

std::vector<std::string> nvcc_hip_command(const CompileCheckOptions& options) {
  auto cmd = nvcc_command(options);
  cmd.insert(cmd.begin() + 3, {"-x", "cu", "-D__HIP_PLATFORM_NVIDIA__"});
  return cmd;
}

std::vector<source::CheckOutcome> check_unit(const fs::path& file, const CompileCheckOptions& options) {
  std::vector<source::CheckOutcome> out;
  std::error_code ec;
  const fs::path unit = fs::absolute(file, ec);
  std::vector<fs::path> include_dirs = {unit.parent_path()};
  for (const auto& d : options.include_dirs) include_dirs.push_back(fs::absolute(d, ec));
  ProcessOptions popts;
  popts.timeout = options.timeout;

  if (options.amd) {
    source::CheckOutcome c;
    c.target = options.amd_arch;
    if (auto why = amd_unavailable(options)) {
      c.skipped = true;
      c.message = *why;
    } else {
      // clang runs its steps itself, without a shell: the user's paths go as they are.
      std::vector<std::string> cmd = hip_clang_command(options);
      cmd.insert(cmd.end(), {"-fsyntax-only", "-Wno-unused-result"});
      for (const auto& d : include_dirs) cmd.push_back("-I" + d.string());
      // HIP 5.2 has no hipBLAS, hipCUB, rocThrust...: Debian 13's, as system headers (clang 19
      // rejects some of rocPRIM 5.7 otherwise), searched before /usr/local/include and
      // /usr/include (rocThrust over CUDA's Thrust). An unpacked HIP brings its own.
      if (auto libs = library_include_dir(options, "amd"); !libs.empty() && options.hip.uses_library_headers())
        cmd.insert(cmd.end(), {"-isystem", libs.string()});
      cmd.insert(cmd.end(), options.extra_flags.begin(), options.extra_flags.end());
      cmd.push_back(unit.string());
      auto r = run_process(cmd, popts);
      c.command = r.command_line;
      c.passed = r.succeeded();
      c.message = c.passed ? "" : trim_output(r.err + r.out + (r.timed_out ? "\n(timed out)" : ""));
    }
    out.push_back(std::move(c));
  }
  if (options.nvidia) {
    source::CheckOutcome c;
    c.target = "nvidia";
    if (auto why = nvidia_unavailable(options)) {
      c.skipped = true;
      c.message = *why;
    } else {
      // nvcc runs its steps through /bin/sh: it sees only paths of gpuport's choosing.
      PlainPaths plain;
      ProcessOptions nv = popts;
      nv.environment = nvcc11_environment();
      auto source = plain.input(unit);
      std::vector<fs::path> nvidia_dirs = include_dirs;
      if (auto libs = library_include_dir(options, "nvidia"); !libs.empty() && !options.cuda_source) nvidia_dirs.push_back(libs);
      auto includes = plain.include_flags(nvidia_dirs);
      auto dir = plain.folder();
      std::optional<Diagnostic> problem = plain.set_temporary_folder(nv.environment);
      if (!source) problem = source.diagnostics().front();
      else if (!includes) problem = includes.diagnostics().front();
      if (problem || !dir) {
        c.message = problem ? format_diagnostic(*problem) : "cannot make a private folder";
      } else {
        auto cmd = options.cuda_source ? nvcc_command(options) : nvcc_hip_command(options);
        if (options.cuda_source) {
          // HIP -> CUDA: the code may call __device__ functions of other units, which HIP builds
          // link with -fgpu-rdc: checked as relocatable device code (-rdc=true), which compiles
          // every unit that a whole-program build would. (The language standard stays nvcc's
          // default, C++14 for 11.8: clang's HIP default, C++17, hits a clash of nvcc 11.8 with
          // libstdc++ 12's <map> through clang-14; a -std from the compilation database wins.)
          cmd.insert(cmd.begin() + 3, {"-x", "cu", "-rdc=true"});
        }
        cmd.insert(cmd.end(), includes->begin(), includes->end());
        cmd.insert(cmd.end(), options.extra_flags.begin(), options.extra_flags.end());
        cmd.insert(cmd.end(), {"-c", source->string(), "-o", (*dir / "unit.o").string()});
        auto r = run_process(cmd, nv);
        c.command = plain.restore_command(r.command_line);
        c.passed = r.succeeded();
        c.message = c.passed ? "" : plain.restore(trim_output(r.err + r.out + (r.timed_out ? "\n(timed out)" : "")));
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace gpuport::verify
