// hipRTC in the runtime's core (HIP 5.2 and 6.4 export it from libamdhip64): programs compiled
// at run time by the machine's clang-19 into gfx1100 code objects that hipModuleLoadData loads.
// Each compilation works in a private temporary folder (the source, the named headers, the code
// object), removed before the call returns; the compiler's diagnostics are the program log.
//
// What HIP 5.2's hipRTC does and this one does too: -O3 and -std=c++14 unless the options say
// otherwise, HIP's headers available without an #include and __HIPCC_RTC__ defined for the
// program, --gpu-architecture=X read as --offload-arch=X, name expressions lowered by referring to
// them from the compiled source, hiprtcVersion's 9.0. What it adds: the options are checked
// against a table (an unknown one is a compile error in the log; -fgpu-rdc is refused, since a
// hipRTC program of HIP 5.2 cannot be linked), lowered names before compilation and name
// expressions after it are the errors hiprtc.h defines for them, and the log size counts its NUL.
#include "emu/runtime/core/rtc.h"

#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/process.h"
#include "common/temporary.h"

namespace fs = std::filesystem;


namespace gpuport::emu::hip {
namespace {

std::mutex programs_mutex;
std::set<_hiprtcProgram*>& programs() {
  static auto* p = new std::set<_hiprtcProgram*>();
  return *p;
}

// The name of the variable through which the compiled source refers to name expression `index`.
std::string expression_variable(std::size_t index) { return fmt::format("__gpuport_hiprtc_name_expression_{}", index); }

}  // namespace

bool valid_include_name(std::string_view name) {
  if (name.empty() || name.front() == '/') return false;
  for (const auto& part : fs::path(name))
    if (part == "..") return false;
  return true;
}

namespace {

// ---- options -----------------------------------------------------------------------------------
// How an option a program passes is handed to clang.
enum class OptionAction {
  pass,             // the option as it is
  pass_with_value,  // the option, then its value (the next option when not attached)
  rewrite,          // `clang` + the value after the spelling (--define-macro=X -> -DX)
  optimization,     // replaces the default -O3
  standard,         // replaces the default -std=c++14: -std= + the value
  architecture,     // the target processor (gfx1100 unless given)
  wave64,           // -mwavefrontsize64
  wave32,           // -mno-wavefrontsize64
  ignore,           // accepted, no effect here
  refuse,           // HIPRTC_ERROR_INVALID_OPTION, with `reason` in the log
};

struct OptionRule {
  std::string_view spelling;
  bool prefix;  // the spelling starts the option (a value follows); else the whole option
  OptionAction action;
  std::string_view clang = {};  // what `rewrite`, `pass_with_value` hand over
  std::string_view reason = {};
};

// The options HIP 5.2's hipRTC programs pass (clang's spellings, and NVRTC's where HIP programs
// ported from CUDA keep them). Checked in order: exact spellings before prefixes that cover them.
constexpr OptionRule kOptionRules[] = {
    {"-fgpu-rdc", false, OptionAction::refuse, {}, "relocatable device code needs hipRTC's linker, which HIP 5.2 does not have"},
    {"-rdc=true", false, OptionAction::refuse, {}, "relocatable device code needs hipRTC's linker, which HIP 5.2 does not have"},
    {"--relocatable-device-code=true", false, OptionAction::refuse, {}, "relocatable device code needs hipRTC's linker, which HIP 5.2 does not have"},
    {"-fno-gpu-rdc", false, OptionAction::ignore},
    {"-rdc=false", false, OptionAction::ignore},
    {"--relocatable-device-code=false", false, OptionAction::ignore},
    {"-hip-pch", false, OptionAction::ignore},  // HIP 5.2: deprecated, no effect
    {"--save-temps", false, OptionAction::ignore},
    {"-mwavefrontsize64", false, OptionAction::wave64},
    {"-mno-wavefrontsize64", false, OptionAction::wave32},
    {"-O0", false, OptionAction::optimization},
    {"-O1", false, OptionAction::optimization},
    {"-O2", false, OptionAction::optimization},
    {"-O3", false, OptionAction::optimization},
    {"-Os", false, OptionAction::optimization},
    {"-Oz", false, OptionAction::optimization},
    {"-ffast-math", false, OptionAction::pass},
    {"-fno-fast-math", false, OptionAction::pass},
    {"--use_fast_math", false, OptionAction::rewrite, "-ffast-math"},
    {"-funsafe-math-optimizations", false, OptionAction::pass},
    {"-fgpu-flush-denormals-to-zero", false, OptionAction::pass},
    {"-fno-gpu-flush-denormals-to-zero", false, OptionAction::pass},
    {"--ftz=true", false, OptionAction::rewrite, "-fgpu-flush-denormals-to-zero"},
    {"--ftz=false", false, OptionAction::rewrite, "-fno-gpu-flush-denormals-to-zero"},
    {"-ffp-contract=", true, OptionAction::pass},
    {"-mcumode", false, OptionAction::pass},
    {"-mno-cumode", false, OptionAction::pass},
    {"-g", false, OptionAction::pass},
    {"-lineinfo", false, OptionAction::rewrite, "-gline-tables-only"},
    {"--generate-line-info", false, OptionAction::rewrite, "-gline-tables-only"},
    {"-w", false, OptionAction::pass},
    {"-W", true, OptionAction::pass},
    {"--std=", true, OptionAction::standard},
    {"-std=", true, OptionAction::standard},
    {"--gpu-architecture=", true, OptionAction::architecture},
    {"--offload-arch=", true, OptionAction::architecture},
    {"--define-macro=", true, OptionAction::rewrite, "-D"},
    {"--undefine-macro=", true, OptionAction::rewrite, "-U"},
    {"--include-path=", true, OptionAction::rewrite, "-I"},
    {"--pre-include=", true, OptionAction::rewrite, "-include"},
    {"-include", false, OptionAction::pass_with_value, "-include"},
    {"-mllvm", false, OptionAction::pass_with_value, "-mllvm"},
    {"-D", true, OptionAction::pass_with_value, "-D"},
    {"-U", true, OptionAction::pass_with_value, "-U"},
    {"-I", true, OptionAction::pass_with_value, "-I"},
};

struct CompileSettings {
  std::vector<std::string> clang_options;
  std::string optimization = "-O3", standard = "-std=c++14", architecture = "gfx1100";
  bool wave64 = std::getenv("GPUPORT_RUN_WAVE64") != nullptr;  // `gpuport run --wave64`
};

// Translates the program's options; on failure, says why in `log` and returns the error.
hiprtcResult translate_options(const std::vector<std::string>& options, CompileSettings& s, std::string& log) {
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    const OptionRule* rule = nullptr;
    for (const auto& r : kOptionRules)
      if (r.prefix ? o.starts_with(r.spelling) : o == r.spelling) {
        rule = &r;
        break;
      }
    if (!rule) {
      log += fmt::format("error: unknown option '{}' (gpuport's hipRTC accepts the options of its table in src/emu/runtime/hiprtc.cc)\n", o);
      return HIPRTC_ERROR_COMPILATION;
    }
    const std::string value = rule->prefix ? o.substr(rule->spelling.size()) : std::string();
    switch (rule->action) {
      case OptionAction::pass: s.clang_options.push_back(o); break;
      case OptionAction::pass_with_value:
        if (!value.empty()) {
          s.clang_options.push_back(std::string(rule->clang) + value);
        } else if (i + 1 < options.size()) {
          s.clang_options.push_back(std::string(rule->clang));
          s.clang_options.push_back(options[++i]);
        } else {
          log += fmt::format("error: option '{}' needs a value\n", o);
          return HIPRTC_ERROR_INVALID_OPTION;
        }
        break;
      case OptionAction::rewrite:
        if (rule->spelling.back() == '=' && value.empty()) {
          log += fmt::format("error: option '{}' needs a value\n", o);
          return HIPRTC_ERROR_INVALID_OPTION;
        }
        if (rule->clang == "-include") {
          s.clang_options.push_back("-include");
          s.clang_options.push_back(value);
        } else {
          s.clang_options.push_back(std::string(rule->clang) + value);
        }
        break;
      case OptionAction::optimization: s.optimization = o; break;
      case OptionAction::standard: s.standard = "-std=" + value; break;
      case OptionAction::architecture: s.architecture = value; break;
      case OptionAction::wave64: s.wave64 = true; break;
      case OptionAction::wave32: s.wave64 = false; break;
      case OptionAction::ignore: break;
      case OptionAction::refuse:
        log += fmt::format("error: option '{}' is not supported: {}\n", o, rule->reason);
        return HIPRTC_ERROR_INVALID_OPTION;
    }
  }
  return HIPRTC_SUCCESS;
}

// The gfx1100 device-library folder: the one `gpuport run` names, the project's variable, or
// the build's own.
fs::path device_library_folder() {
  for (const char* variable : {"GPUPORT_RUN_DEVICE_LIBS", "GPUPORT_ROCM_DEVICE_LIB_PATH"})
    if (const char* d = std::getenv(variable); d && *d) return d;
  return GPUPORT_DEFAULT_DEVICE_LIB_DIR;
}

bool write_text(const fs::path& path, std::string_view text) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out);
}

// `text` as a C string literal's contents.
std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// The symbol each name expression's variable points to, read from the relocated image of the
// compiled code object: a kernel's or device function's code, or a variable.
void lower_names(_hiprtcProgram& p) {
  auto co = amdgpu::read_code_object(p.code, "the hipRTC program " + p.name);
  if (!co) return;
  const auto base = reinterpret_cast<std::uint64_t>(co->memory.data());
  for (std::size_t i = 0; i < p.name_expressions.size(); ++i) {
    const std::string variable = expression_variable(i);
    for (const auto& g : co->globals) {
      if (g.name != variable || g.size < 8) continue;
      std::uint64_t target = 0;
      std::memcpy(&target, co->memory.data() + g.address, 8);
      const std::uint64_t address = target - base;
      std::string symbol;
      for (const auto& k : co->kernels)
        if (k.code_address == address) symbol = k.name;
      for (const auto* list : {&co->functions, &co->globals})
        for (const auto& s : *list)
          if (symbol.empty() && s.address == address && !s.name.starts_with("__gpuport_hiprtc_")) symbol = s.name;
      if (!symbol.empty()) p.lowered[p.name_expressions[i]] = symbol;
    }
  }
}

}  // namespace

hiprtcResult compile(_hiprtcProgram& p, const std::vector<std::string>& options) {
  p.log.clear();
  p.code.clear();
  p.lowered.clear();
  p.compiled = false;
  CompileSettings settings;
  if (hiprtcResult r = translate_options(options, settings, p.log); r != HIPRTC_SUCCESS) return r;
  const fs::path libraries = device_library_folder();
  const std::string clang = find_program("clang-19").string();
  if (clang.empty() || !fs::exists(libraries / "oclc_isa_version_1100.bc")) {
    p.log += clang.empty() ? "error: clang-19, which gpuport's hipRTC compiles with, is not installed\n"
                           : fmt::format("error: the gfx1100 device libraries are not in {} (set GPUPORT_ROCM_DEVICE_LIB_PATH)\n",
                                         libraries.string());
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  const TemporaryFolder folder = TemporaryFolder::make("hiprtc");
  if (folder.empty()) {
    p.log += "error: cannot make a temporary folder for the compilation\n";
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  // HIP's headers come first, as hipRTC's built-in header gives them; __HIPCC_RTC__ is defined
  // after them, since HIP 5.2's headers leave out the warp functions when it is set.
  const std::string prelude = "#include <hip/hip_runtime.h>\n#define __HIPCC_RTC__ 1\n";
  std::string source = fmt::format("#line 1 \"{}\"\n{}\n", escaped(p.name), p.source);
  for (std::size_t i = 0; i < p.name_expressions.size(); ++i)
    source += fmt::format("#line 1 \"name expression {}: {}\"\n__device__ auto {} = {};\n", i + 1, escaped(p.name_expressions[i]),
                          expression_variable(i), p.name_expressions[i]);
  bool written = write_text(folder.path() / "gpuport-hiprtc-prelude.h", prelude) && write_text(folder.path() / "program.hip", source);
  for (const auto& [include, text] : p.headers) written = written && write_text(folder.path() / include, text);
  if (!written) {
    p.log += "error: cannot write the program's files to a temporary folder\n";
    return HIPRTC_ERROR_INTERNAL_ERROR;
  }
  std::vector<std::string> argv = {clang, "-x", "hip", "--cuda-device-only", "--no-gpu-bundle-output", "--offload-arch=" + settings.architecture,
                                   "--rocm-path=/usr", "--rocm-device-lib-path=" + libraries.string(), "-fno-color-diagnostics",
                                   settings.optimization, settings.standard, "-I.", "-include", "gpuport-hiprtc-prelude.h"};
  // The HIP this runtime implements, ahead of the HIP 5.2 that /usr/include may hold.
  if (std::string_view(GPUPORT_HIP_INCLUDE_DIR) != "/usr/include") argv.insert(argv.end(), {"-isystem", GPUPORT_HIP_INCLUDE_DIR});
  if (settings.wave64) argv.push_back("-mwavefrontsize64");
  argv.insert(argv.end(), settings.clang_options.begin(), settings.clang_options.end());
  argv.insert(argv.end(), {"-c", "program.hip", "-o", "program.hsaco"});
  ProcessOptions run;
  run.working_directory = folder.path();
  run.environment["TMPDIR"] = folder.path().string();  // the driver's intermediate files go with the rest
  run.timeout = std::chrono::minutes(5);
  const ProcessResult result = run_process(argv, run);
  p.log += result.out + result.err;
  if (result.timed_out) p.log += fmt::format("error: the compilation did not end within {} s\n", run.timeout.count() / 1000);
  if (!result.succeeded()) {
    if (!result.started) p.log += fmt::format("error: cannot run {}\n", clang);
    return HIPRTC_ERROR_COMPILATION;
  }
  std::ifstream in(folder.path() / "program.hsaco", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  p.code = bytes.str();
  if (p.code.empty()) {
    p.log += "error: the compiler wrote no code object\n";
    return HIPRTC_ERROR_COMPILATION;
  }
  p.compiled = true;
  lower_names(p);
  return HIPRTC_SUCCESS;
}


_hiprtcProgram* live_program(hiprtcProgram handle) {
  std::lock_guard lock(programs_mutex);
  return programs().count(handle) ? handle : nullptr;
}

hiprtcProgram add_program(std::unique_ptr<_hiprtcProgram> program) {
  std::lock_guard lock(programs_mutex);
  programs().insert(program.get());
  return program.release();
}

bool destroy_program(hiprtcProgram handle) {
  {
    std::lock_guard lock(programs_mutex);
    if (!programs().erase(handle)) return false;
  }
  delete handle;
  return true;
}

}  // namespace gpuport::emu::hip

