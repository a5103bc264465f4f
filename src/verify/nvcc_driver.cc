// `gpuport nvcc` (see nvcc_driver.h): nvcc's options read into clang's, the sources translated
// into a private folder, and clang-19 run for gfx1100 as nvcc would run its own passes.
#include "verify/nvcc_driver.h"
#include "verify/cuda_toolkit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "common/file_io.h"
#include "common/process.h"
#include "common/temporary.h"
#include "source/compile_db.h"
#include "source/project.h"
#include "verify/nvcc_options.h"

namespace gpuport::verify {
namespace fs = std::filesystem;

namespace {

Diagnostic usage_error(std::string message) {
  Diagnostic d;
  d.code = "nvcc-option";
  d.message = std::move(message);
  d.location.file = "gpuport nvcc";
  return d;
}

NvccLanguage language_of(const fs::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".cu") return NvccLanguage::cuda;
  if (ext == ".c") return NvccLanguage::c;
  if (ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C") return NvccLanguage::cxx;
  return NvccLanguage::object;  // .o, .a, .so and anything else goes to the linker, as with nvcc
}

// `-lX` on a link line as HIP has it: X's HIP library, nothing, or X itself when not CUDA's.
void add_library(std::vector<std::string>& flags, std::string_view lib) {
  if (const auto m = cuda_libraries().find(lib); m != cuda_libraries().end()) {
    for (const auto& hip : m->second) flags.push_back("-l" + hip);
  } else {
    flags.push_back("-l" + std::string(lib));
  }
}

// nvcc's options that pass unknown ones on instead of refusing them.
bool forwards_unknown(std::string_view a) {
  return a == "-forward-unknown-to-host-compiler" || a == "--forward-unknown-to-host-compiler" ||
         a == "-forward-unknown-to-host-linker" || a == "--forward-unknown-to-host-linker" || a == "-forward-unknown-opts" ||
         a == "--forward-unknown-opts";
}

// A response file's words (CMake's --options-file and @file), or std::nullopt if unreadable.
std::optional<std::vector<std::string>> response_file_words(const std::string& path) {
  auto text = read_file(path, 16u << 20);
  if (!text) return std::nullopt;
  return source::split_command_line(*text);
}

// `-I/usr/include` (FindCUDA passes it where a project's Boost or glog lives there): the system's
// own headers, which GCC and clang search as system headers and so ignore as -I. Here it must be
// dropped too: HIP's clang searches a view of /usr/include after HIP 6.4's headers
// (clang-hip.rsp), and the folder itself, searched first, would give Debian's HIP 5.2 and CUDA's
// own Thrust and runtime headers in place of HIP 6.4's.
bool is_system_include_dir(const std::string& dir) {
  std::error_code ec;
  return fs::weakly_canonical(dir, ec) == "/usr/include";
}

std::vector<std::string> split_commas(const std::string& value) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= value.size()) {
    const std::size_t comma = value.find(',', at);
    std::string item = value.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    // FindCUDA writes each host flag quoted: -Xcompiler ,"-O3","-fPIC"
    if (item.size() >= 2 && item.front() == '"' && item.back() == '"') item = item.substr(1, item.size() - 2);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

// The newest architecture an -arch, -gencode or -code value names (sm_86, compute_86,
// `arch=compute_80,code=[compute_80,sm_80]`, sm_90a), as __CUDA_ARCH__ spells it (860); 0 for
// other options and for values naming none (native, all: gfx1100's own level is read then).
int named_architecture(std::string_view option, std::string_view value) {
  if (option != "--gpu-architecture" && option != "--generate-code" && option != "--gpu-code") return 0;
  int best = 0;
  for (std::size_t at = 0; at < value.size(); ++at) {
    std::size_t digits = std::string_view::npos;
    for (std::string_view prefix : {"sm_", "compute_", "lto_"})
      if (value.substr(at).starts_with(prefix) && (at == 0 || !std::isalnum(static_cast<unsigned char>(value[at - 1]))))
        digits = at + prefix.size();
    if (digits == std::string_view::npos) continue;
    int n = 0, count = 0;
    for (std::size_t k = digits; k < value.size() && std::isdigit(static_cast<unsigned char>(value[k])) && count < 4; ++k, ++count)
      n = n * 10 + (value[k] - '0');
    if (count >= 2) best = std::max(best, n * 10);
  }
  return best;
}

// The options of -Xcompiler and -Xlinker: nvcc hands them to the host tools on a shell command
// line, so a value with spaces is several options (llama.cpp passes its host flags joined by
// spaces, `-Xcompiler "-Wextra-semi -mavx2"`). An item with a quote in it is kept whole.
std::vector<std::string> split_host_options(const std::string& value) {
  std::vector<std::string> out;
  for (auto& item : split_commas(value)) {
    if (item.find_first_of("\"'") != std::string::npos) {
      out.push_back(std::move(item));
      continue;
    }
    for (std::size_t at = item.find_first_not_of(" \t"); at != std::string::npos; at = item.find_first_not_of(" \t", at)) {
      const std::size_t end = item.find_first_of(" \t", at);
      out.push_back(item.substr(at, end == std::string::npos ? std::string::npos : end - at));
      at = end;
    }
  }
  return out;
}

}  // namespace

const std::map<std::string, std::vector<std::string>, std::less<>>& cuda_libraries() {
  static const std::map<std::string, std::vector<std::string>, std::less<>> libraries = {
      {"cudart", {}},
      {"cudart_static", {}},
      {"cuda", {}},
      {"cudadevrt", {}},
      {"curand", {"hiprand"}},
      {"cublas", {"hipblas", "rocblas"}},  // llama.cpp's AMD path calls rocblas_initialize()
      {"cublasLt", {"hipblaslt"}},
      {"cufft", {"hipfft"}},
      {"cusparse", {"hipsparse"}},
      {"cusolver", {"hipsolver"}},
      {"nvToolsExt", {}},  // NVTX is gpuport's shim in the translated sources
      {"nvidia-ml", {}},   // so is NVML, over HIP's runtime
  };
  return libraries;
}

Result<NvccCommand> parse_nvcc_command(const std::vector<std::string>& arguments) {
  NvccCommand c;
  std::vector<std::string> args = arguments;  // --options-file splices its contents in
  c.forward_unknown = std::any_of(args.begin(), args.end(), forwards_unknown);
  bool forced = false;  // -x cu / c / c++ given
  NvccLanguage forced_language = NvccLanguage::object;
  int options_files = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string a = args[i];
    // The option's value: `-o x`, `-o=x`, `--output-file x`, `-Ix`.
    auto value_of = [&](std::string_view name, std::string& value) -> bool {
      if (a == name) {
        if (i + 1 >= args.size()) return false;
        value = args[++i];
        return true;
      }
      if (a.size() > name.size() && a.starts_with(name) && a[name.size()] == '=') {
        value = a.substr(name.size() + 1);
        return true;
      }
      return false;
    };
    auto attached = [&](std::string_view prefix, std::string& value) -> bool {  // -Ipath, -lfoo
      if (a.size() > prefix.size() && a.starts_with(prefix)) {
        value = a.substr(prefix.size());
        return true;
      }
      return value_of(prefix, value);
    };
    std::string v;
    if (a.empty()) continue;
    if (a[0] != '-') {
      NvccInput in{a, forced ? forced_language : language_of(a)};
      c.inputs.push_back(std::move(in));
      continue;
    }
    // Whole options of the table first (`-lineinfo` is not `-l ineinfo`): those replaced by a
    // clang option, dropped or refused.
    const std::string name = a.substr(0, a.find('='));
    if (const NvccOption* row = find_nvcc_option(name); row && row->action != NvccOptionAction::handled) {
      if (row->takes_value && name.size() < a.size()) {
        v = a.substr(name.size() + 1);
      } else if (row->takes_value) {
        if (i + 1 >= args.size()) return usage_error(fmt::format("{} needs a value", name));
        v = args[++i];
      } else if (name.size() < a.size()) {
        return usage_error(fmt::format("{} takes no value", name));
      }
      switch (row->action) {
        case NvccOptionAction::clang: c.compile_flags.push_back(std::string(row->text) + v); break;
        case NvccOptionAction::dropped:
          if (const int arch = named_architecture(row->long_name, v); arch > 0) {
            c.cuda_arch = std::max(c.cuda_arch, arch);
            c.notes.push_back(fmt::format("{} {}: {}; its device code stands in for sm_{}'s", name, v, row->text, arch / 10));
            break;
          }
          c.notes.push_back(fmt::format("{} dropped: {}", name, row->text));
          break;
        case NvccOptionAction::refused:
          return usage_error(fmt::format("option {} is not supported by gpuport nvcc: {}", name, row->text));
        case NvccOptionAction::handled: break;
      }
      continue;
    }
    if (forwards_unknown(a)) {
      // read before the loop
    } else if (value_of("--options-file", v) || value_of("-optf", v)) {
      // CMake's response files hold include folders and flags, shell-quoted.
      if (++options_files > 64) return usage_error("too many --options-file (does one include itself?)");
      const auto more = response_file_words(v);
      if (!more) return usage_error(fmt::format("--options-file {}: cannot read it", v));
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, more->begin(), more->end());
    } else if (a == "-c" || a == "--compile") {
      c.phase = NvccPhase::compile;
    } else if (a == "-dc" || a == "--device-c") {
      c.phase = NvccPhase::compile;
      c.relocatable_device_code = true;
    } else if (a == "-dlink" || a == "--device-link") {
      c.phase = NvccPhase::device_link;
    } else if (a == "-E" || a == "--preprocess") {
      c.phase = NvccPhase::preprocess;
    } else if (a == "-G" || a == "--device-debug") {
      c.compile_flags.push_back("-g");
      c.device_optimized = false;
    } else if (value_of("-dopt", v) || value_of("--dopt", v)) {
      if (v != "on" && v != "off") return usage_error(fmt::format("{} takes on or off, not {}", a, v));
      c.device_optimized = v == "on";
    } else if (a == "-cubin" || a == "--cubin" || a == "-fatbin" || a == "--fatbin") {
      c.phase = NvccPhase::device_code;
      c.device_code_extension = a.ends_with("cubin") ? ".cubin" : ".fatbin";
    } else if (a == "-lib" || a == "--lib") {
      c.phase = NvccPhase::library;
    } else if (a == "-link" || a == "--link") {
      c.phase = NvccPhase::link;
    } else if (a == "--version" || a == "-V") {
      c.phase = NvccPhase::version;
    } else if (a == "--help" || a == "-h") {
      c.phase = NvccPhase::help;
    } else if (value_of("-rdc", v) || value_of("--relocatable-device-code", v)) {
      if (v != "true" && v != "false") return usage_error(fmt::format("{} takes true or false, not {}", a, v));
      c.relocatable_device_code = v == "true";
    } else if (a == "-shared" || a == "--shared") {
      c.shared = true;
    } else if (a == "-v" || a == "--verbose") {
      c.verbose = true;
    } else if (value_of("-o", v) || value_of("--output-file", v)) {
      c.output = v;
    } else if (value_of("-odir", v) || value_of("--output-directory", v)) {
      c.output_dir = v;
    } else if (value_of("-x", v) || value_of("--x", v)) {
      forced = v != "none";
      if (v == "cu") forced_language = NvccLanguage::cuda;
      else if (v == "c") forced_language = NvccLanguage::c;
      else if (v == "c++") forced_language = NvccLanguage::cxx;
      else if (v != "none") return usage_error(fmt::format("-x {}: gpuport nvcc takes cu, c, c++ and none", v));
    } else if (attached("-I", v) || value_of("--include-path", v)) {
      for (auto& d : split_commas(v))
        if (!is_system_include_dir(d)) c.include_dirs.emplace_back(d);
    } else if (attached("-isystem", v) || value_of("--system-include", v)) {
      for (auto& d : split_commas(v.starts_with("=") ? v.substr(1) : v)) {  // CMake writes -isystem=DIR
        if (is_system_include_dir(d)) continue;
        c.compile_flags.push_back("-isystem");
        c.compile_flags.push_back(d);
      }
    } else if (attached("-D", v) || value_of("--define-macro", v)) {
      // FindCUDA's dependency scan runs `nvcc -M -D__CUDACC__`: nvcc defines the macro anyway.
      // Here the translation reads it (as __HIPCC__); given to clang it would tell HIP's headers
      // and rocThrust that nvcc compiles them (rocThrust then picks its CUDA system and
      // includes <cuda/version>: caffe's scan of math_functions.cu stopped there).
      if (v == "__CUDACC__" || v.starts_with("__CUDACC__=")) c.notes.push_back(fmt::format("-D{} dropped: nvcc defines it itself", v));
      else c.compile_flags.push_back("-D" + v);
    } else if (attached("-U", v) || value_of("--undefine-macro", v)) {
      c.compile_flags.push_back("-U" + v);
    } else if (attached("-L", v) || value_of("--library-path", v)) {
      for (auto& d : split_commas(v)) c.link_flags.push_back("-L" + d);
    } else if (attached("-l", v) || value_of("--library", v)) {
      for (auto& lib : split_commas(v)) add_library(c.link_flags, lib);
    } else if (value_of("-Werror", v) || value_of("--Werror", v)) {
      // nvcc's -Werror names kinds of its own warnings; all-warnings is clang's -Werror.
      if (v == "all-warnings") c.compile_flags.push_back("-Werror");
      else c.notes.push_back(fmt::format("-Werror {} dropped: a kind of nvcc's own warnings", v));
    } else if (a.starts_with("-W") && a.size() > 2) {
      // Warning options (GCC's and clang's spelling, which builds written for SCALE or clang
      // pass to nvcc) reach both compilers.
      c.compile_flags.push_back(a);
    } else if (a == "-O" && i + 1 < args.size() && (args[i + 1].size() == 1 && std::string_view("0123s").find(args[i + 1][0]) != std::string_view::npos)) {
      c.compile_flags.push_back("-O" + args[++i]);  // nvcc's `-O 3`
    } else if (a.starts_with("-O") && a.size() <= 3) {
      c.compile_flags.push_back(a);
    } else if (value_of("--optimize", v)) {
      c.compile_flags.push_back("-O" + v);
    } else if (value_of("-std", v) || value_of("--std", v)) {
      c.compile_flags.push_back("-std=" + v);
    } else if (value_of("-Xcompiler", v) || value_of("--compiler-options", v)) {
      for (auto& f : split_host_options(v)) c.host_flags.push_back(f);
    } else if (value_of("-Xlinker", v) || value_of("--linker-options", v)) {
      for (auto& f : split_host_options(v)) c.link_flags.push_back("-Wl," + f);
    } else if (value_of("-Xarchive", v) || value_of("--archive-options", v)) {
      for (auto& f : split_commas(v)) c.archive_flags.push_back(f);
    } else if (value_of("-ftz", v) || value_of("--ftz", v)) {
      if (v == "true") c.compile_flags.push_back("-fgpu-flush-denormals-to-zero");
    } else if (value_of("-fmad", v) || value_of("--fmad", v)) {
      if (v == "false") c.compile_flags.push_back("-ffp-contract=off");
    } else if (value_of("-prec-div", v) || value_of("--prec-div", v) || value_of("-prec-sqrt", v) ||
               value_of("--prec-sqrt", v)) {
      if (v == "false") c.notes.push_back(fmt::format("{} dropped: clang's divisions and square roots stay IEEE", a));
    } else if (value_of("-default-stream", v) || value_of("--default-stream", v)) {
      if (v == "per-thread") c.compile_flags.push_back("-fgpu-default-stream=per-thread");
      else if (v != "legacy" && v != "null") return usage_error(fmt::format("{} takes legacy, null or per-thread", name));
    } else if (const NvccOption* dep = find_nvcc_option(a); dep && dep->short_name.starts_with("-M") && !dep->takes_value) {
      c.compile_flags.emplace_back(dep->short_name);  // -M, -MM, -MD, -MMD, -MP in either spelling
    } else if (value_of("-MF", v) || value_of("--dependency-output", v)) {
      c.compile_flags.push_back("-MF");
      c.compile_flags.push_back(v);
    } else if (value_of("-MT", v) || value_of("--dependency-target-name", v)) {
      c.compile_flags.push_back("-MT");
      c.compile_flags.push_back(v);
    } else if (c.forward_unknown) {
      c.host_flags.push_back(a);  // as nvcc does: the option alone, for the host compiler
    } else {
      return usage_error(fmt::format("option {} is not supported by gpuport nvcc", a));
    }
  }
  // -M alone lists dependencies (CMake's dependency scan): a preprocessing run.
  c.lists_dependencies = std::find(c.compile_flags.begin(), c.compile_flags.end(), "-M") != c.compile_flags.end() ||
                         std::find(c.compile_flags.begin(), c.compile_flags.end(), "-MM") != c.compile_flags.end();
  if (c.phase == NvccPhase::link && c.lists_dependencies) c.phase = NvccPhase::preprocess;
  if (c.phase == NvccPhase::device_code)
    for (const auto& in : c.inputs)
      if (in.language != NvccLanguage::cuda)
        return usage_error(fmt::format("-cubin and -fatbin take CUDA sources; {} is not one", in.path.string()));
  if (c.phase != NvccPhase::version && c.phase != NvccPhase::help && c.inputs.empty()) return usage_error("no input files");
  return c;
}

namespace {

std::vector<std::string> split_colons(const std::string& value) {
  std::vector<std::string> out;
  std::size_t at = 0;
  for (std::size_t colon; (colon = value.find(':', at)) != std::string::npos; at = colon + 1) out.push_back(value.substr(at, colon - at));
  out.push_back(value.substr(at));
  return out;
}

// Every `from` folder prefix in `text` made `to`.
std::string replace_folder(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  std::size_t at = 0;
  for (std::size_t hit; (hit = text.find(from, at)) != std::string::npos; at = hit + from.size()) out += text.substr(at, hit - at) + to;
  return out + text.substr(at);
}

// A translation's folder and its original's: the compilers' messages about the first are
// shown about the second, where the user's files are.
struct Twin {
  std::string translated, original;  // both ending in '/'
};

// SCALE's recipes put the toolkit's include/ on CPATH, which compilers search as -I: taken off
// it, as the commands name that folder as a system one already.
std::map<std::string, std::optional<std::string>> environment_for(const fs::path& toolkit_root) {
  std::map<std::string, std::optional<std::string>> changes;
  if (toolkit_root.empty()) return changes;
  std::error_code ec;
  const fs::path include = fs::weakly_canonical(toolkit_root / "include", ec);
  for (const char* var : {"CPATH", "CPLUS_INCLUDE_PATH", "C_INCLUDE_PATH"}) {
    const char* value = std::getenv(var);
    if (!value) continue;
    std::string kept;
    for (const auto& dir : split_colons(value))
      if (fs::weakly_canonical(dir, ec) != include) kept += (kept.empty() ? "" : ":") + dir;
    changes[var] = kept;
  }
  return changes;
}

// One command, its output passed on: what nvcc shows of the passes it runs. With a twin, the
// output is read first and the translation's paths in it named as the originals.
bool run(const std::vector<std::string>& argv, const NvccDriverOptions& options, const Twin* twin = nullptr) {
  ProcessOptions p;
  p.timeout = std::chrono::seconds(0);
  p.pass_through = twin == nullptr;
  p.environment = options.environment;
  if (options.verbose) {
    std::string line;
    for (const auto& a : argv) line += (line.empty() ? "" : " ") + shell_quote(a);
    std::fprintf(stderr, "#$ %s\n", line.c_str());
  }
  const auto r = run_process(argv, p);
  if (!r.started) std::fprintf(stderr, "gpuport nvcc: cannot run %s\n", argv[0].c_str());
  if (twin) {
    std::fwrite(r.out.data(), 1, r.out.size(), stdout);
    const std::string err = replace_folder(r.err, twin->translated, twin->original);
    std::fwrite(err.data(), 1, err.size(), stderr);
  }
  return r.succeeded();
}

// The dependency file clang wrote (-MF, or -M's output) names the translated copies, which
// vanish with the temporary folder: make would then have no rule for them. It is rewritten to
// name the originals.
std::optional<Diagnostic> restore_dependency_paths(const NvccCommand& c, const fs::path& translated_root,
                                                   const fs::path& original_root) {
  fs::path deps;
  for (std::size_t i = 0; i + 1 < c.compile_flags.size(); ++i)
    if (c.compile_flags[i] == "-MF") deps = c.compile_flags[i + 1];
  if (deps.empty() && c.lists_dependencies && c.phase == NvccPhase::preprocess) deps = c.output;
  std::error_code ec;
  if (deps.empty() || !fs::is_regular_file(deps, ec)) return std::nullopt;
  auto text = read_file(deps, 64 << 20);
  if (!text) return text.diagnostics().front();
  const std::string out = replace_folder(*text, translated_root.string() + "/", original_root.string() + "/");
  if (out == *text) return std::nullopt;
  return write_file_atomic(deps, out);
}

}  // namespace

int run_nvcc_command(const NvccCommand& c, const maps::ApiMap& map, const NvccDriverOptions& driver_options) {
  NvccDriverOptions options = driver_options;
  options.verbose = options.verbose || c.verbose;
  options.environment = environment_for(options.toolkit_root);
  if (c.phase == NvccPhase::version) {
    // Build systems know nvcc by its first line and read the CUDA release from the last; the
    // second says what this is.
    std::printf("nvcc: NVIDIA (R) Cuda compiler driver (command line), as taken by gpuport nvcc\n"
                "gpuport nvcc: CUDA sources translated to HIP %s and compiled by clang-19 for %s\n"
                "Cuda compilation tools, release %d.%d, V%d.%d.0\n",
                options.compiler.hip.version.c_str(), options.compiler.amd_arch.c_str(), kNvccCudaMajor, kNvccCudaMinor,
                kNvccCudaMajor, kNvccCudaMinor);
    return 0;
  }
  if (c.phase == NvccPhase::help) {
    std::printf("gpuport nvcc: nvcc's command line, built for AMD %s: CUDA sources are translated to HIP %s and compiled\n"
                "by clang-19, host sources by gcc/g++, programs linked with HIP's runtime. Every nvcc option is read:\n"
                "handled, replaced by clang's, dropped with the reason (-v shows it) or refused with the reason.\n"
                "`gpuport nvcc --toolkit DIR` writes a CUDA toolkit folder whose bin/nvcc this is.\n",
                options.compiler.amd_arch.c_str(), options.compiler.hip.version.c_str());
    std::printf("\nnvcc's options (nvcc 11.8 and 13.0):\n");
    for (const auto& o : nvcc_options())
      std::printf("  %s (%s)%s  %s: %s\n", std::string(o.long_name).c_str(), std::string(o.short_name).c_str(),
                  o.takes_value ? " VALUE" : "", std::string(nvcc_action_name(o.action)).c_str(), std::string(o.text).c_str());
    return 0;
  }
  const std::string toolkit_libraries =
      options.toolkit_root.empty() ? std::string() : shell_quote("-L" + (options.toolkit_root / "lib64").string());
  if (options.verbose && !options.toolkit_root.empty()) {
    // nvcc's environment lines: CMake finds the toolkit by TOP and NVVMIR_LIBRARY_DIR, its
    // headers by INCLUDES, and the host link line as the one holding LIBRARIES.
    const std::string top = options.toolkit_root.string();
    const char* path = std::getenv("PATH");
    std::fprintf(stderr,
                 "#$ _NVVM_BRANCH_=nvvm\n#$ TOP=%s\n#$ NVVMIR_LIBRARY_DIR=%s/nvvm/libdevice\n#$ PATH=%s/bin:%s\n"
                 "#$ INCLUDES=%s\n#$ LIBRARIES=  %s\n",
                 top.c_str(), top.c_str(), top.c_str(), path ? path : "", shell_quote("-I" + top + "/include").c_str(),
                 toolkit_libraries.c_str());
  }
  if (auto why = amd_unavailable(options.compiler)) {
    std::fprintf(stderr, "gpuport nvcc: cannot build for %s: %s\n", options.compiler.amd_arch.c_str(), why->c_str());
    return 1;
  }
  for (const auto& n : c.notes)
    if (options.verbose) std::fprintf(stderr, "gpuport nvcc: note: %s\n", n.c_str());
  if (c.phase == NvccPhase::device_link) {
    // clang links device code when it links the program (-fgpu-rdc --hip-link): the object nvcc
    // would write here holds nothing clang needs. An empty one keeps the Makefile's rule whole.
    const fs::path out = c.output.empty() ? fs::path("a_dlink.o") : c.output;
    return run({options.host_c, "-x", "c", "-c", "/dev/null", "-o", out.string()}, options) ? 0 : 1;
  }

  TemporaryFolder tmp = TemporaryFolder::make("nvcc");
  if (tmp.empty()) {
    std::fprintf(stderr, "gpuport nvcc: cannot make a temporary folder\n");
    return 1;
  }
  std::error_code ec;
  // Every source is translated with the local headers it includes, into a tree of its own that
  // mirrors the folders of the originals (relative includes resolve as they did).
  struct Unit {
    fs::path translated;
    NvccLanguage language;
    fs::path object;  // what compiling it makes
    std::vector<fs::path> include_dirs;  // the translated twins of the -I folders, then the originals
    fs::path original_root, translated_root;  // the translation mirrors the first in the second
    bool identification = false;              // CMake's compiler identification source
  };
  std::vector<Unit> units;
  std::vector<std::string> link_inputs;
  int index = 0;
  for (const auto& in : c.inputs) {
    if (in.language == NvccLanguage::object) {
      link_inputs.push_back(in.path.string());
      continue;
    }
    Unit u;
    u.language = in.language;
    u.identification = in.path.filename() == "CMakeCUDACompilerId.cu";
    if (!options.translate) {
      // HIP sources (a tree `translate --project` wrote): compiled as they are.
      u.translated = in.path;
      u.include_dirs = c.include_dirs;
    } else {
      source::ProjectOptions po;
      po.mode = source::OutputMode::directory;
      po.output_dir = tmp.path() / fmt::format("unit{}", index);
      po.include_dirs = c.include_dirs;
      po.follow_includes = true;
      po.translate.line_markers = true;  // clang's messages at the original's lines
      if (c.cuda_arch > 0) po.translate.cuda_arch = c.cuda_arch;
      // The command's macros decide the file's conditional groups as the compiler will.
      for (const auto& f : c.compile_flags) {
        if (f.starts_with("-D")) po.translate.preprocessor.defines.push_back(f.substr(2));
        if (f.starts_with("-U")) po.translate.preprocessor.undefines.push_back(f.substr(2));
      }
      const auto result = source::translate_project({in.path}, map, po);
      bool rejected = false;
      for (const auto& f : result.report.files) {
        for (const auto& d : f.findings) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
        rejected = rejected || f.rejected;
      }
      if (rejected) return 1;
      u.original_root = result.root;
      u.translated_root = po.output_dir;
      u.translated = po.output_dir / fs::relative(fs::absolute(in.path, ec), result.root, ec);
      for (const auto& dir : c.include_dirs) {
        const fs::path twin = po.output_dir / fs::relative(fs::absolute(dir, ec), result.root, ec);
        if (fs::is_directory(twin, ec)) u.include_dirs.push_back(twin);
        u.include_dirs.push_back(dir);
      }
    }
    ++index;
    // The original's folder after the translation's: headers nobody translated (text files,
    // generated ones) are still found.
    u.include_dirs.push_back(fs::absolute(in.path, ec).parent_path());
    if (c.phase == NvccPhase::compile || c.phase == NvccPhase::device_code) {
      const std::string extension = c.phase == NvccPhase::compile ? ".o" : c.device_code_extension;
      u.object = !c.output.empty()       ? c.output
                 : c.output_dir.empty() ? fs::path(in.path.filename()).replace_extension(extension)
                                        : c.output_dir / fs::path(in.path.filename()).replace_extension(extension);
    } else {
      u.object = tmp.path() / fmt::format("unit{}.o", index);
    }
    units.push_back(std::move(u));
  }
  if ((c.phase == NvccPhase::compile || c.phase == NvccPhase::device_code) && !c.output.empty() && units.size() > 1) {
    std::fprintf(stderr, "gpuport nvcc: -o with %s names one output, but there are %zu inputs\n",
                 c.phase == NvccPhase::compile ? "-c" : "-cubin or -fatbin", units.size());
    return 1;
  }

  const std::vector<std::string> hip = hip_clang_command(options.compiler);
  const fs::path toolkit_include = options.toolkit_root.empty() ? fs::path() : fs::weakly_canonical(options.toolkit_root / "include", ec);
  for (const auto& u : units) {
    std::vector<std::string> cmd;
    if (u.language == NvccLanguage::cuda) {
      cmd = hip;
      // HIP 6 marks its API [[nodiscard]], CUDA does not: code written for nvcc ignores results
      // freely, and clang's warnings about it would bury the program's own.
      cmd.push_back("-Wno-unused-result");
      // A narrowing conversion of a value known only at run time inside braces is an error
      // for clang and a warning for nvcc's front end and GCC: code that builds with nvcc has them.
      cmd.push_back("-Wno-error=c++11-narrowing");
      // nvcc checks a __device__ function's body in the device pass only; clang's HIP host pass
      // resolves its calls too and rejects host functions there, unless that is deferred to
      // where the function is emitted (llama.cpp: `#else GGML_ASSERT(...)` in device functions,
      // the branch nvcc's host pass reads, calls fprintf).
      cmd.push_back("-fgpu-defer-diag");
      if (c.relocatable_device_code) cmd.push_back("-fgpu-rdc");
      if (c.shared) cmd.push_back("-fPIC");
      // nvcc -M writes one rule; clang's HIP -M writes one per side, each wrapped in bundle
      // markers (`# __CLANG_OFFLOAD_BUNDLE____START__ ...`), which FindCUDA's dependency reader
      // takes as file names. The host side's list holds the headers both sides read.
      if (c.phase == NvccPhase::preprocess && c.lists_dependencies) cmd.push_back("--cuda-host-only");
      // -cubin, -fatbin: the device side alone, linked into a code object (not bundled).
      if (c.phase == NvccPhase::device_code) {
        cmd.push_back("--cuda-device-only");
        cmd.push_back("--no-gpu-bundle-output");
      }
      if (u.identification) {
        // CMake identifies its CUDA compiler from the macros this file is compiled with, and then
        // passes it nvcc's options: it is told nvcc of the release --version names.
        for (const auto& m : {std::string("-D__NVCC__"), fmt::format("-D__CUDACC_VER_MAJOR__={}", kNvccCudaMajor),
                              fmt::format("-D__CUDACC_VER_MINOR__={}", kNvccCudaMinor), std::string("-D__CUDACC_VER_BUILD__=0")})
          cmd.push_back(m);
      }
      if (options.verbose)  // nvcc shows its device pass with an -arch; build systems read their default there
        std::fprintf(stderr, "#$ gpuport: device code for %s (nvcc's default -arch compute_52 stands for it)\n",
                     options.compiler.amd_arch.c_str());
    } else {
      // Host code, as nvcc hands it to the host compiler: with HIP's headers and platform macro.
      cmd = {u.language == NvccLanguage::c ? options.host_c : options.host_cxx, "-D__HIP_PLATFORM_AMD__=1"};
      if (!options.compiler.hip.root.empty()) {
        cmd.push_back("-isystem");
        cmd.push_back((options.compiler.hip.root / "usr/include").string());
      }
    }
    cmd.insert(cmd.end(), c.compile_flags.begin(), c.compile_flags.end());
    cmd.insert(cmd.end(), c.host_flags.begin(), c.host_flags.end());
    // nvcc's -O is the host compiler's; its device code is optimised whatever -O says (its
    // front end and ptxas run at -O3) unless -G or -dopt off. clang's -O applies to both sides:
    // the device side is given its own, last.
    if (u.language == NvccLanguage::cuda) {
      cmd.push_back("-Xarch_device");
      cmd.push_back(c.device_optimized ? "-O3" : "-O0");
    }
    for (const auto& d : u.include_dirs) {
      // The toolkit's include/ holds HIP's headers under links: searched as system headers, as
      // HIP's own folder is, so that their warnings stay out of the build's output.
      if (toolkit_include.empty() || fs::weakly_canonical(d, ec) != toolkit_include) cmd.push_back("-I" + d.string());
    }
    if (!toolkit_include.empty()) {
      cmd.push_back("-isystem");
      cmd.push_back(toolkit_include.string());
    }
    cmd.push_back(c.phase == NvccPhase::preprocess ? "-E" : "-c");
    cmd.push_back(u.translated.string());
    if (c.phase != NvccPhase::preprocess) {
      cmd.push_back("-o");
      cmd.push_back(u.object.string());
    } else if (!c.output.empty()) {
      cmd.push_back("-o");
      cmd.push_back(c.output.string());
    }
    const Twin twin{u.translated_root.string() + "/", u.original_root.string() + "/"};
    const bool to_stdout = c.phase == NvccPhase::preprocess && c.output.empty();  // not held in memory
    if (!run(cmd, options, to_stdout || !options.translate ? nullptr : &twin)) return 1;
    if (options.translate)
      if (auto err = restore_dependency_paths(c, u.translated_root, u.original_root)) {
        std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
        return 1;
      }
    link_inputs.push_back(u.object.string());
  }
  if (c.phase == NvccPhase::library) {
    std::vector<std::string> ar = {"ar", "rcs"};
    ar.insert(ar.end(), c.archive_flags.begin(), c.archive_flags.end());
    ar.push_back(c.output.empty() ? "a.a" : c.output.string());
    ar.insert(ar.end(), link_inputs.begin(), link_inputs.end());
    return run(ar, options) ? 0 : 1;
  }
  if (c.phase != NvccPhase::link) return 0;

  std::vector<std::string> inputs = link_inputs;
  inputs.insert(inputs.end(), c.host_flags.begin(), c.host_flags.end());
  inputs.insert(inputs.end(), c.link_flags.begin(), c.link_flags.end());
  if (c.shared) inputs.push_back("-shared");
  inputs.push_back("-o");
  inputs.push_back(c.output.empty() ? "a.out" : c.output.string());
  if (!options.toolkit_root.empty()) {
    // Through the toolkit's host-link command, which CMake reads from this line and then links
    // CUDA programs with.
    std::vector<std::string> cmd = {(options.toolkit_root / "bin" / "nvcc-host-link").string()};
    if (c.relocatable_device_code) cmd.push_back("-fgpu-rdc");
    cmd.insert(cmd.end(), inputs.begin(), inputs.end());
    cmd.push_back("-L" + (options.toolkit_root / "lib64").string());
    return run(cmd, options) ? 0 : 1;
  }
  return link_program(inputs, c.relocatable_device_code, options);
}

int run_host_link(const std::vector<std::string>& args, const NvccDriverOptions& options) {
  // CUDA's libraries named on the line become HIP's; objects made with -fgpu-rdc (their device
  // code is bitcode in an offload bundle) need clang's device link.
  NvccDriverOptions link_options = options;
  link_options.environment = environment_for(options.toolkit_root);
  std::vector<std::string> inputs;
  bool rdc = false;
  std::error_code ec;
  std::vector<std::string> expanded;  // CMake's response files (@objects1, @linkLibs.rsp) read in place
  for (const auto& a : args) {
    if (a.size() > 1 && a[0] == '@')
      if (const auto words = response_file_words(a.substr(1))) {
        expanded.insert(expanded.end(), words->begin(), words->end());
        continue;
      }
    expanded.push_back(a);
  }
  for (const auto& a : expanded) {
    if (a == "-fgpu-rdc") {
      rdc = true;
    } else if (a.starts_with("-l")) {
      add_library(inputs, std::string_view(a).substr(2));
    } else {
      // One object with a bundle settles it: the rest are not read.
      if (!rdc && !a.starts_with("-") && (a.ends_with(".o") || a.ends_with(".a")) && fs::is_regular_file(a, ec))
        if (auto bytes = read_file(a, 1ull << 31); bytes && bytes->find("__CLANG_OFFLOAD_BUNDLE__hip") != std::string::npos)
          rdc = true;
      inputs.push_back(a);
    }
  }
  return link_program(inputs, rdc, link_options);
}

namespace {

// The toolkit's run link options for one link: sid's loader and libraries only where the link
// reaches them; a shared library gets the RPATH, not the interpreter.
std::vector<std::string> link_flags_for(const std::vector<std::string>& inputs, const NvccDriverOptions& options) {
  if (options.run_link_flags.empty()) return {};
  const std::vector<fs::path> rocm_folders = {options.rocm_library_dir / "usr" / "lib" / "x86_64-linux-gnu",
                                               options.compiler.hip.library_dir()};
  if (!link_needs_rocm_libraries(inputs, rocm_folders)) return options.base_link_flags;
  const bool shared = std::find(inputs.begin(), inputs.end(), "-shared") != inputs.end();
  std::vector<std::string> out;
  for (const auto& f : options.run_link_flags)
    if (!shared || !f.starts_with("-Wl,--dynamic-linker=")) out.push_back(f);
  return out;
}

}  // namespace

int link_program(const std::vector<std::string>& inputs, bool rdc, const NvccDriverOptions& options) {
  // clang links the device code of every HIP object (--hip-link) and HIP's runtime.
  std::vector<std::string> cmd = {options.linker, "--hip-link", "--offload-arch=" + options.compiler.amd_arch};
  const auto hip_flags = options.compiler.hip.clang_flags();  // the ROCm path, as the compile had it
  cmd.insert(cmd.end(), hip_flags.begin(), hip_flags.end());
  if (rdc) cmd.push_back("-fgpu-rdc");
  cmd.push_back("--rocm-device-lib-path=" + resolve_device_lib_dir(options.compiler).string());
  for (const auto& f : inputs) {
    // A HIP library this HIP cannot link here (hipBLASLt is in no Debian release) is left out:
    // a program that calls it then fails to link by name, one that only lists it links.
    const bool hip_library = f.starts_with("-l") && std::any_of(cuda_libraries().begin(), cuda_libraries().end(), [&](const auto& m) {
                               return std::find(m.second.begin(), m.second.end(), f.substr(2)) != m.second.end();
                             });
    if (hip_library && !options.compiler.hip.can_link(f)) {
      std::fprintf(stderr, "gpuport nvcc: note: %s is not available for HIP %s here; left off the link line\n", f.c_str(),
                   options.compiler.hip.version.c_str());
      continue;
    }
    cmd.push_back(f);
  }
  const auto hip_link = options.compiler.hip.link_flags();
  cmd.insert(cmd.end(), hip_link.begin(), hip_link.end());
  for (const auto& f : link_flags_for(inputs, options)) cmd.push_back(f);
  return run(cmd, options) ? 0 : 1;
}

int run_ld(const std::vector<std::string>& args, const NvccDriverOptions& options) {
  // --no-as-needed before each library it keeps (gcc turns --as-needed on before its inputs;
  // its own `--push-state --as-needed -lgcc_s` stays as it is); the rest after the compiler's
  // own options (the interpreter gcc names comes first, and the last one wins).
  const auto ours = as_ld_options(link_flags_for(args, options));
  const bool keep_all = std::find(ours.begin(), ours.end(), "--no-as-needed") != ours.end();
  std::vector<std::string> cmd = {"ld"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // A shared library or linker script given by its path, not an option's value (-plugin X.so, -o X.so).
    const bool input_position = i == 0 || !args[i - 1].starts_with("-") || args[i - 1].starts_with("-l") ||
                                args[i - 1].starts_with("-L") || args[i - 1].starts_with("--") || args[i - 1] == "-Bdynamic";
    const bool library = (a.starts_with("-l") && a.size() > 2) ||
                         (!a.starts_with("-") && a.find(".so") != std::string::npos && input_position);
    if (keep_all && library && (i == 0 || args[i - 1] != "--as-needed")) cmd.push_back("--no-as-needed");
    cmd.push_back(a);
  }
  for (const auto& f : ours)
    if (f != "--no-as-needed") cmd.push_back(f);
  return run(cmd, options) ? 0 : 1;
}

}  // namespace gpuport::verify
