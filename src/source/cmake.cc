// CMake build files, CUDA -> HIP (see cmake.h). The file is read as CMake reads it: commands
// `name(args)`, arguments quoted, bracketed or unquoted, comments `#...` and `#[[...]]`. Edits
// are byte ranges of the original text; everything else is kept.
#include "source/cmake.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/text.h"

namespace gpuport::source {

namespace {

enum class ArgKind { unquoted, quoted, bracket, open, close };

struct Arg {
  std::size_t offset = 0, length = 0;
  ArgKind kind = ArgKind::unquoted;
};

struct Command {
  std::string name;  // lower case
  std::size_t begin = 0, end = 0;  // the name's first byte; one past the closing ')'
  std::vector<Arg> args;
};

struct Edit {
  std::size_t begin, end;
  std::string text;
};

// CMake's boolean constants are case-insensitive: ON, On, on.
std::string upper_case(std::string_view value) {
  std::string upper;
  for (char ch : value) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return upper;
}

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `[[`, `[=[`, ... at i: the bracket's '=' count, or -1.
int bracket_open(std::string_view t, std::size_t i) {
  if (i >= t.size() || t[i] != '[') return -1;
  std::size_t k = i + 1;
  while (k < t.size() && t[k] == '=') ++k;
  return k < t.size() && t[k] == '[' ? static_cast<int>(k - i - 1) : -1;
}

std::size_t bracket_end(std::string_view t, std::size_t i, int level) {
  const std::string close = "]" + std::string(static_cast<std::size_t>(level), '=') + "]";
  const std::size_t at = t.find(close, i + static_cast<std::size_t>(level) + 2);
  return at == std::string_view::npos ? t.size() : at + close.size();
}

// The commands of a CMake file, read as CMake's grammar has them: between commands only spaces,
// comments and line endings, and a line ending after each command. On text CMake would refuse,
// `problem` is set to its offset and `why` says what is wrong, as CMake's parse error would.
std::vector<Command> parse(std::string_view t, std::size_t& problem, std::string& why) {
  std::vector<Command> out;
  problem = std::string_view::npos;
  std::size_t i = 0;
  bool line_ended = true;  // a new command may start: at the start, or after a line ending
  auto word_at = [&](std::size_t at) {
    std::size_t e = at;
    while (e < t.size() && e - at < 20 && t[e] != ' ' && t[e] != '\t' && t[e] != '\n' && t[e] != '\r') ++e;
    return std::string(t.substr(at, e - at));
  };
  while (i < t.size()) {
    const char c = t[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '\n') {
      line_ended = true;
      ++i;
      continue;
    }
    if (c == '#') {
      const int level = bracket_open(t, i + 1);
      if (level >= 0) i = bracket_end(t, i + 1, level);
      else while (i < t.size() && t[i] != '\n') ++i;
      continue;
    }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      problem = i;
      why = "expected a command name, got '" + word_at(i) + "'; the file is left as it is";
      return out;
    }
    if (!line_ended) {
      problem = i;
      why = "expected a line ending after the command before, got '" + word_at(i) + "'; the file is left as it is";
      return out;
    }
    std::size_t k = i;
    while (k < t.size() && is_ident_char(t[k])) ++k;
    std::size_t open = k;
    while (open < t.size() && (t[open] == ' ' || t[open] == '\t')) ++open;
    if (open >= t.size() || t[open] != '(') {
      problem = i;
      why = "the command name '" + std::string(t.substr(i, k - i)) + "' is not followed by '('; the file is left as it is";
      return out;
    }
    Command cmd;
    cmd.begin = i;
    for (std::size_t n = i; n < k; ++n) cmd.name += static_cast<char>(std::tolower(static_cast<unsigned char>(t[n])));
    int depth = 1;
    std::size_t p = open + 1;
    while (p < t.size() && depth > 0) {
      const char d = t[p];
      if (d == ' ' || d == '\t' || d == '\n' || d == '\r') {
        ++p;
      } else if (d == '#') {
        const int level = bracket_open(t, p + 1);
        if (level >= 0) p = bracket_end(t, p + 1, level);
        else while (p < t.size() && t[p] != '\n') ++p;
      } else if (d == '(') {
        cmd.args.push_back({p, 1, ArgKind::open});
        ++depth, ++p;
      } else if (d == ')') {
        if (--depth > 0) cmd.args.push_back({p, 1, ArgKind::close});
        ++p;
      } else if (d == '"') {
        std::size_t q = p + 1;
        while (q < t.size() && t[q] != '"') q += t[q] == '\\' ? 2 : 1;
        q = std::min(q + 1, t.size());
        cmd.args.push_back({p, q - p, ArgKind::quoted});
        p = q;
      } else if (const int level = bracket_open(t, p); level >= 0) {
        const std::size_t q = bracket_end(t, p, level);
        cmd.args.push_back({p, q - p, ArgKind::bracket});
        p = q;
      } else {
        std::size_t q = p;
        int genex = 0;  // $<...> may hold spaces only when quoted; parentheses end a word
        while (q < t.size()) {
          const char e = t[q];
          if (e == '\\' && q + 1 < t.size()) {
            q += 2;
            continue;
          }
          if (e == '$' && q + 1 < t.size() && t[q + 1] == '<') ++genex;
          if (e == '>' && genex > 0) --genex;
          if (e == ' ' || e == '\t' || e == '\n' || e == '\r' || e == '(' || e == ')' || (e == '"' && q > p) || e == '#') break;
          ++q;
        }
        cmd.args.push_back({p, q - p, ArgKind::unquoted});
        p = q;
      }
    }
    if (depth > 0) {
      problem = i;
      why = "a command whose parenthesis is never closed; the file is left as it is";
      return out;
    }
    cmd.end = p;
    out.push_back(std::move(cmd));
    i = p;
    line_ended = false;
  }
  return out;
}

// CUDA::* imported targets: the HIP/ROCm target and the package that defines it.
struct TargetMap {
  std::string_view cuda, hip, package;
};
constexpr TargetMap kTargets[] = {
    {"CUDA::cudart", "hip::host", ""},          {"CUDA::cudart_static", "hip::host", ""},
    {"CUDA::cuda_driver", "hip::host", ""},     {"CUDA::curand", "hip::hiprand", "hiprand"},
    {"CUDA::curand_static", "hip::hiprand", "hiprand"}, {"CUDA::cublas", "roc::hipblas", "hipblas"},
    {"CUDA::cublas_static", "roc::hipblas", "hipblas"}, {"CUDA::cublasLt", "roc::hipblaslt", "hipblaslt"},
    {"CUDA::cufft", "hip::hipfft", "hipfft"},   {"CUDA::cufft_static", "hip::hipfft", "hipfft"},
    {"CUDA::cusparse", "roc::hipsparse", "hipsparse"}, {"CUDA::cusparse_static", "roc::hipsparse", "hipsparse"},
    {"CUDA::cusolver", "roc::hipsolver", "hipsolver"}, {"CUDA::cusolver_static", "roc::hipsolver", "hipsolver"},
    // NVTX is gpuport's shim in the translated sources (roctx's header where installed): no library.
    {"CUDA::nvToolsExt", "hip::host", ""},      {"CUDA::nvtx3", "hip::host", ""},
    // NVML is gpuport's shim too, over HIP's runtime.
    {"CUDA::nvml", "hip::host", ""},            {"CUDA::nvml_static", "hip::host", ""},
};

// nvcc options with a clang equivalent, and those clang does not need.
const std::map<std::string_view, std::string_view> kNvccToClang = {
    {"--use_fast_math", "-ffast-math"},   {"-use_fast_math", "-ffast-math"},     {"-lineinfo", "-gline-tables-only"},
    {"--generate-line-info", "-gline-tables-only"}, {"-rdc=true", "-fgpu-rdc"}, {"--relocatable-device-code=true", "-fgpu-rdc"},
    {"-G", "-g"},                          {"--device-debug", "-g"},               {"--default-stream=per-thread", "-fgpu-default-stream=per-thread"},
    {"-ftz=true", "-fgpu-flush-denormals-to-zero"}, {"--ftz=true", "-fgpu-flush-denormals-to-zero"}, {"--fmad=false", "-ffp-contract=off"},
    {"-fmad=false", "-ffp-contract=off"},
};
const std::set<std::string_view> kNvccNotNeeded = {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--expt-extended-lambda",
                                                   "-expt-extended-lambda", "--extended-lambda", "-extended-lambda",
                                                   "-rdc=false", "--keep", "-prec-div=true", "-prec-sqrt=true"};

// Variables and properties whose HIP twin is the same name with HIP for CUDA.
constexpr std::string_view kRenamed[] = {
    "CMAKE_CUDA_ARCHITECTURES", "CMAKE_CUDA_STANDARD", "CMAKE_CUDA_STANDARD_REQUIRED", "CMAKE_CUDA_EXTENSIONS",
    "CMAKE_CUDA_FLAGS", "CMAKE_CUDA_FLAGS_DEBUG", "CMAKE_CUDA_FLAGS_RELEASE", "CMAKE_CUDA_FLAGS_RELWITHDEBINFO",
    "CMAKE_CUDA_FLAGS_MINSIZEREL", "CMAKE_CUDA_FLAGS_INIT", "CMAKE_CUDA_COMPILER", "CMAKE_CUDA_COMPILER_ID",
    "CMAKE_CUDA_COMPILER_VERSION", "CUDA_ARCHITECTURES", "CUDA_STANDARD", "CUDA_STANDARD_REQUIRED", "CUDA_EXTENSIONS",
};

// Each name in an argument (identifiers, with `::` inside: CUDA::cudart) replaced by what
// `replace(name, offset in v)` returns; everything between names kept.
template <typename Replace>
std::string map_words(const std::string& v, Replace replace) {
  std::string out;
  for (std::size_t i = 0; i < v.size();) {
    if (!is_ident_char(v[i]) || (i > 0 && is_ident_char(v[i - 1]))) {
      out += v[i++];
      continue;
    }
    std::size_t e = i;
    while (e < v.size() && (is_ident_char(v[e]) || (v[e] == ':' && e + 1 < v.size() && v[e + 1] == ':') || (e > 0 && v[e - 1] == ':' && v[e] == ':')))
      ++e;
    out += replace(std::string_view(v.data() + i, e - i), i);
    i = e;
  }
  return out;
}

// A command whose arguments are compiler options: target_compile_options, add_compile_options,
// or a set/string/list of the flags variable `variable` (CMAKE_CUDA_FLAGS, CMAKE_HIP_FLAGS...).
bool holds_flags_of(const std::string& name, bool names_variable) {
  return name == "target_compile_options" || name == "add_compile_options" ||
         ((name == "set" || name == "string" || name == "list") && names_variable);
}

// Removes a flag from a flags argument with one separator next to it: the one before it, or,
// for the first flag of a list, the one after (k, the end of the flag, moves past it).
void drop_word(std::string& out, const std::string& v, std::size_t& k) {
  if (!out.empty() && (out.back() == ' ' || out.back() == ';')) {
    while (!out.empty() && (out.back() == ' ' || out.back() == ';')) out.pop_back();
    return;
  }
  if (k < v.size() && (v[k] == ' ' || v[k] == ';')) ++k;
}

class CMakeTranslator {
 public:
  CMakeTranslator(std::string_view path, std::string_view text, const CMakeOptions& options, FileTranslation& result)
      : path_(path), text_(text), options_(options), r_(result), lines_(text) {}

  void run() {
    std::size_t problem = 0;
    std::string why;
    commands_ = parse(text_, problem, why);
    if (problem != std::string_view::npos) {
      report(problem, Severity::error, "cmake-syntax", why);
      r_.ok = false;
      return;
    }
    if (options_.to_cuda) return run_to_cuda();
    collect_packages();
    for (std::size_t c = 0; c < commands_.size(); ++c) translate(commands_[c]);
    if (!cu_sources_.empty() || !target_cu_sources_.empty()) {
      const std::string nl = text_.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
      std::string tail = (!text_.empty() && text_.back() != '\n') ? nl : std::string();
      tail += fmt::format("# Added by gpuport: CMake's HIP language does not take .cu files by itself.{}", nl);
      if (!cu_sources_.empty())
        tail += fmt::format("set_source_files_properties({} PROPERTIES LANGUAGE HIP)  # added by gpuport{}", join(cu_sources_), nl);
      // Source properties belong to a directory: those of files a target of another directory
      // gets (target_sources) are set in the target's directory.
      for (const auto& [target, files] : target_cu_sources_)
        tail += fmt::format("set_source_files_properties({} TARGET_DIRECTORY {} PROPERTIES LANGUAGE HIP)  # added by gpuport{}",
                            join(files), target, nl);
      edits_.push_back({text_.size(), text_.size(), tail});
      ++r_.rewrites;
    }
    apply();
  }

  static std::string join(const std::vector<std::string>& items) {
    std::string list;
    for (const auto& s : items) list += (list.empty() ? "" : " ") + s;
    return list;
  }

 private:
  std::string_view arg_text(const Arg& a) const { return text_.substr(a.offset, a.length); }
  // An argument's value: quotes and bracket delimiters removed.
  std::string_view arg_value(const Arg& a) const {
    std::string_view v = arg_text(a);
    if (a.kind == ArgKind::quoted && v.size() >= 2) return v.substr(1, v.size() - 2);
    return v;
  }

  bool holds_flags(const Command& cmd, std::string_view variable) const {
    return holds_flags_of(cmd.name, std::any_of(cmd.args.begin(), cmd.args.end(),
                                                [&](const Arg& a) { return arg_value(a).starts_with(variable); }));
  }

  void report(std::size_t offset, Severity severity, std::string code, std::string message, std::string fix = {}) {
    Diagnostic d;
    d.severity = severity;
    d.code = std::move(code);
    d.message = std::move(message);
    d.fix = std::move(fix);
    const auto lc = lines_.locate(static_cast<std::uint32_t>(offset));
    d.location = {std::string(path_), lc.line, lc.column};
    r_.findings.push_back(std::move(d));
  }

  void edit(std::size_t begin, std::size_t end, std::string text) {
    edits_.push_back({begin, end, std::move(text)});
    ++r_.rewrites;
  }

  // The packages the file's CUDA::* targets need, for the find_package that replaces
  // CUDAToolkit's.
  void collect_packages() {
    for (const auto& cmd : commands_) {
      if (cmd.name == "find_package" && !cmd.args.empty() && arg_value(cmd.args[0]) == "CUDAToolkit") finds_toolkit_ = true;
      for (const auto& a : cmd.args)
        for (const auto& m : kTargets)
          if (arg_value(a).find(m.cuda) != std::string_view::npos && !m.package.empty()) packages_.insert(std::string(m.package));
    }
  }

  std::string line_indent(std::size_t offset) const {
    std::size_t b = text_.rfind('\n', offset == 0 ? 0 : offset - 1);
    b = b == std::string_view::npos ? 0 : b + 1;
    std::size_t e = b;
    while (e < text_.size() && (text_[e] == ' ' || text_[e] == '\t')) ++e;
    return std::string(text_.substr(b, e - b));
  }

  void translate(const Command& cmd) {
    const auto& args = cmd.args;
    const std::string& n = cmd.name;
    if (n == "find_package" && !args.empty()) {
      const std::string_view pkg = arg_value(args[0]);
      if (pkg == "CUDAToolkit") {
        edit(args[0].offset, args[0].offset + args[0].length, "hip");
        // A version is CUDA's: dropped.
        if (args.size() > 1 && std::isdigit(static_cast<unsigned char>(arg_value(args[1]).empty() ? 'x' : arg_value(args[1])[0]))) {
          std::size_t b = args[0].offset + args[0].length;
          edit(b, args[1].offset + args[1].length, "");
        }
        // hip ships a package configuration file, not a find module: MODULE would fail.
        for (std::size_t k = 1; k < args.size(); ++k)
          if (arg_value(args[k]) == "MODULE") {
            edit(args[k - 1].offset + args[k - 1].length, args[k].offset + args[k].length, "");
            report(args[k].offset, Severity::note, "cmake-module",
                   "find_package(CUDAToolkit MODULE): hip is found by its package configuration file, so MODULE is dropped");
          }
        std::string extra;
        const std::string indent = line_indent(cmd.begin);
        for (const auto& p : packages_) extra += fmt::format("\n{}find_package({} REQUIRED)  # added by gpuport", indent, p);
        if (!extra.empty()) edit(cmd.end, cmd.end, extra);
      } else if (pkg == "CUDA") {
        report(cmd.begin, Severity::error, "cmake-untranslated",
               "find_package(CUDA) is CMake's deprecated FindCUDA module (cuda_add_executable, CUDA_NVCC_FLAGS): not translated",
               "move the project to enable_language(CUDA) and find_package(CUDAToolkit) first, or to the HIP language by hand");
      }
    }
    if (n == "cuda_add_executable" || n == "cuda_add_library" || n == "cuda_include_directories" || n == "cuda_wrap_srcs" ||
        n == "cuda_compile") {
      report(cmd.begin, Severity::error, "cmake-untranslated",
             fmt::format("{}() belongs to the deprecated FindCUDA module: not translated", n),
             "use add_executable/add_library with the HIP language");
    }
    // The language itself.
    if (n == "project" || n == "enable_language" || n == "check_language") {
      bool enables = false;
      for (std::size_t k = n == "project" ? 1 : 0; k < args.size(); ++k)
        if (arg_value(args[k]) == "CUDA") {
          edit(args[k].offset, args[k].offset + args[k].length, "HIP");
          enables = true;  // check_language(HIP) needs the prelude as much: it looks for the compiler
        }
      if (enables && !prelude_included_) {
        prelude_included_ = true;
        r_.needs_hip_prelude = true;
        edit(cmd.begin, cmd.begin,
             fmt::format("include(\"${{CMAKE_CURRENT_LIST_DIR}}/gpuport-hip.cmake\")  # added by gpuport: clang and HIP for CMake's "
                         "HIP language{}{}",
                         text_.find("\r\n") != std::string_view::npos ? "\r\n" : "\n", line_indent(cmd.begin)));
      }
    }
    // .cu sources of targets.
    if (n == "add_executable" || n == "add_library" || n == "target_sources") {
      auto& list = n == "target_sources" && !args.empty() ? target_cu_sources_[std::string(arg_value(args[0]))] : cu_sources_;
      for (std::size_t k = 1; k < args.size(); ++k) {
        const std::string_view v = arg_value(args[k]);
        if (v.size() > 3 && v.ends_with(".cu") && v.find("$<") == std::string_view::npos &&
            std::find(list.begin(), list.end(), v) == list.end())
          list.emplace_back(v);
      }
      if (n == "target_sources" && !args.empty() && target_cu_sources_[std::string(arg_value(args[0]))].empty())
        target_cu_sources_.erase(std::string(arg_value(args[0])));
    }
    if (n == "file" && args.size() >= 3 && (arg_value(args[0]) == "GLOB" || arg_value(args[0]) == "GLOB_RECURSE")) {
      bool cu = false, other = false;
      for (std::size_t k = 2; k < args.size(); ++k) {
        const std::string_view pattern = arg_value(args[k]);
        if (pattern == "LIST_DIRECTORIES" || pattern == "RELATIVE" || pattern == "CONFIGURE_DEPENDS" || pattern == "FOLLOW_SYMLINKS") {
          k += pattern == "LIST_DIRECTORIES" || pattern == "RELATIVE";
          continue;
        }
        (pattern.ends_with(".cu") ? cu : other) = true;
      }
      const std::string indent = line_indent(cmd.begin);
      const std::string var(arg_value(args[1]));
      if (cu && !other)
        edit(cmd.end, cmd.end, fmt::format("\n{}set_source_files_properties(${{{}}} PROPERTIES LANGUAGE HIP)  # added by gpuport", indent, var));
      else if (cu)  // C and C++ files of the same glob keep their language
        edit(cmd.end, cmd.end,
             fmt::format("\n{0}set(_gpuport_cu_sources ${{{1}}})  # added by gpuport: the .cu files of the glob"
                         "\n{0}list(FILTER _gpuport_cu_sources INCLUDE REGEX \"\\\\.cu$\")  # added by gpuport"
                         "\n{0}set_source_files_properties(${{_gpuport_cu_sources}} PROPERTIES LANGUAGE HIP)  # added by gpuport",
                         indent, var));
    }
    // Separable compilation: clang's -fgpu-rdc, for the target and what links it.
    if (n == "set_target_properties" || n == "set_property") {
      std::vector<std::string_view> targets;
      std::size_t k = 0;
      if (n == "set_target_properties") {
        while (k < args.size() && arg_value(args[k]) != "PROPERTIES") targets.push_back(arg_value(args[k++]));
      } else if (!args.empty() && arg_value(args[0]) == "TARGET") {
        for (k = 1; k < args.size() && arg_value(args[k]) != "PROPERTY"; ++k) targets.push_back(arg_value(args[k]));
      }
      for (std::size_t j = k; j + 1 < args.size(); ++j) {
        const std::string_view key = arg_value(args[j]);
        if (key != "CUDA_SEPARABLE_COMPILATION" && key != "CUDA_RESOLVE_DEVICE_SYMBOLS") continue;
        const std::string value(arg_value(args[j + 1]));
        const std::string upper = upper_case(value);
        const bool on = upper == "ON" || upper == "TRUE" || upper == "1" || upper == "YES";
        edit(args[j].offset, args[j].offset + args[j].length,
             key == "CUDA_SEPARABLE_COMPILATION" ? "GPUPORT_SEPARABLE_COMPILATION" : "GPUPORT_RESOLVE_DEVICE_SYMBOLS");
        if (key == "CUDA_SEPARABLE_COMPILATION" && on) {
          std::string extra;
          for (auto t : targets)
            extra += fmt::format(
                "\n{0}target_compile_options({1} PUBLIC $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>)  # added by gpuport (separable compilation)"
                "\n{0}target_link_options({1} PUBLIC \"$<$<LINK_LANGUAGE:HIP>:-fgpu-rdc;--hip-link>\")  # added by gpuport (device link)"
                "\n{0}foreach(_gpuport_arch IN LISTS CMAKE_HIP_ARCHITECTURES)  # added by gpuport"
                "\n{0}  target_link_options({1} PUBLIC \"$<$<LINK_LANGUAGE:HIP>:--offload-arch=${{_gpuport_arch}}>\")  # added by gpuport"
                "\n{0}endforeach()  # added by gpuport",
                line_indent(cmd.begin), t);
          edit(cmd.end, cmd.end, extra);
          report(args[j].offset, Severity::note, "cmake-separable-compilation",
                 "CUDA_SEPARABLE_COMPILATION: clang's -fgpu-rdc for the target and what links it (the property is kept as "
                 "GPUPORT_SEPARABLE_COMPILATION, which CMake ignores)");
        } else if (key == "CUDA_RESOLVE_DEVICE_SYMBOLS") {
          report(args[j].offset, Severity::note, "cmake-separable-compilation",
                 "CUDA_RESOLVE_DEVICE_SYMBOLS has no HIP property: with -fgpu-rdc the device link happens when the executable links");
        }
      }
    }
    if (!finds_toolkit_ && n != "find_package") {
      // The file uses CUDA::* targets of a CUDAToolkit found elsewhere (a parent directory): the
      // HIP libraries' packages are found here, before their first use.
      std::string extra;
      for (const auto& a : args)
        for (const auto& m : kTargets)
          if (!m.package.empty() && arg_value(a).find(m.cuda) != std::string_view::npos && found_here_.insert(std::string(m.package)).second)
            extra += fmt::format("find_package({} REQUIRED)  # added by gpuport: {}'s package{}{}", m.package, m.hip,
                                 text_.find("\r\n") != std::string_view::npos ? "\r\n" : "\n", line_indent(cmd.begin));
      if (!extra.empty()) edit(cmd.begin, cmd.begin, extra);
    }
    const bool flag_command = holds_flags(cmd, "CMAKE_CUDA_FLAGS");
    for (std::size_t k = 0; k < args.size(); ++k) {
      const Arg& a = args[k];
      if (a.kind == ArgKind::open || a.kind == ArgKind::close || a.kind == ArgKind::bracket) continue;
      std::string v(arg_text(a));
      std::string out = rename_words(v, a.offset);
      if (k > 0 && arg_value(args[k - 1]) == "LANGUAGE" && arg_value(a) == "CUDA") out = "HIP";
      // Architectures: NVIDIA's numbers mean nothing to clang.
      if (k > 0 && (arg_value(args[k - 1]) == "CUDA_ARCHITECTURES" || arg_value(args[k - 1]) == "CMAKE_CUDA_ARCHITECTURES") &&
          !(n == "if" || n == "elseif")) {
        const std::string_view value = arg_value(a);
        const std::string upper = upper_case(value);
        if (upper == "OFF" || upper == "FALSE" || upper == "NO") {
          // CUDA's OFF leaves the architectures to nvcc's default or to flags; HIP's would leave
          // clang's default, which is no AMD GPU the user has: gfx1100 instead.
          out = a.kind == ArgKind::quoted ? "\"gfx1100\"" : "gfx1100";
          report(a.offset, Severity::note, "cmake-architectures",
                 fmt::format("CUDA_ARCHITECTURES {} (nvcc's default) replaced by gfx1100: list the AMD GPUs to build for", value));
        } else if (!value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) || value == "native" || value == "all" ||
                                      value == "all-major")) {
          out = a.kind == ArgKind::quoted ? "\"gfx1100\"" : "gfx1100";
          report(a.offset, Severity::note, "cmake-architectures",
                 fmt::format("NVIDIA architectures '{}' replaced by gfx1100: list the AMD GPUs to build for", value));
          // Further numbers of the same list are dropped.
          for (std::size_t j = k + 1; j < args.size() && args[j].kind == ArgKind::unquoted && !arg_value(args[j]).empty() &&
                                      std::isdigit(static_cast<unsigned char>(arg_value(args[j])[0]));
               ++j)
            edit(args[j - 1].offset + args[j - 1].length, args[j].offset + args[j].length, "");
        }
      }
      if (flag_command) out = translate_flags(out, a.offset);
      if (out != v) edit(a.offset, a.offset + a.length, out);
    }
  }

  // Whole-word renames inside one argument: CUDA variables and properties, generator
  // expressions' languages, CUDA::* targets.
  std::string rename_words(const std::string& v, std::size_t offset) {
    return map_words(v, [&](std::string_view word, std::size_t i) {
      std::string replacement(word);
      for (const auto& m : kTargets)
        if (word == m.cuda) replacement = m.hip;
      if (word.starts_with("CUDA::") && replacement == word)
        report(offset + i, Severity::warning, "cmake-untranslated",
               fmt::format("imported target {} has no HIP twin in gpuport's table; left as it is", word),
               "remove it, or link the ROCm library that does its work");
      for (auto name : kRenamed)
        if (word == name) replacement = std::string(name.substr(0, name.find("CUDA"))) + "HIP" + std::string(name.substr(name.find("CUDA") + 4));
      if (word == "CUDAToolkit_FOUND") replacement = "hip_FOUND";
      else if (word.starts_with("CUDAToolkit_") || word == "CMAKE_CUDA_HOST_COMPILER" || word == "CUDA_NVCC_FLAGS")
        report(offset + i, Severity::warning, "cmake-untranslated", fmt::format("{} has no HIP twin; left as it is", word));
      // $<COMPILE_LANGUAGE:CUDA>, $<LINK_LANGUAGE:CUDA>, $<COMPILE_LANG_AND_ID:CUDA,NVIDIA>
      if (word == "CUDA" && i > 0 && (v[i - 1] == ':' || v[i - 1] == ',') && v.rfind("LANG", i) != std::string::npos) replacement = "HIP";
      return replacement;
    });
  }

  // nvcc options in flags: clang's equivalents, or removed with a finding.
  std::string translate_flags(const std::string& v, std::size_t offset) {
    std::string out;
    std::size_t i = 0;
    bool skip_next_word = false, unwrap_next = false;
    // Host options split from -Xcompiler=a,b: list items where the argument is a CMake list
    // (a generator expression's ;-list), words of a command line otherwise.
    const char list_separator = v.find(';') != std::string::npos || v.find("$<") != std::string::npos ? ';' : ' ';
    while (i < v.size()) {
      const bool boundary = i == 0 || v[i - 1] == ' ' || v[i - 1] == ';' || v[i - 1] == ':' || v[i - 1] == '"' || v[i - 1] == '>';
      if (!(v[i] == '-' && boundary) && !(boundary && (skip_next_word || unwrap_next) && v[i] != ' ' && v[i] != '"' && v[i] != '>')) {
        out += v[i++];
        continue;
      }
      std::size_t k = i;
      while (k < v.size() && v[k] != ' ' && v[k] != ';' && v[k] != '"' && v[k] != '>') ++k;
      const std::string word = v.substr(i, k - i);
      if (skip_next_word) {
        skip_next_word = false;
        i = k;
        continue;
      }
      if (unwrap_next) {  // -Xcompiler a,b -> a b
        unwrap_next = false;
        std::string host = word;
        std::replace(host.begin(), host.end(), ',', list_separator);
        out += host;
        i = k;
        continue;
      }
      if (auto m = kNvccToClang.find(word); m != kNvccToClang.end()) {
        out += m->second;
      } else if (kNvccNotNeeded.count(word)) {
        report(offset + i, Severity::note, "nvcc-flag", fmt::format("nvcc option {} removed: clang does not need it", word));
        drop_word(out, v, k);
      } else if (word == "-Xcompiler" || word == "--compiler-options") {
        unwrap_next = true;
        drop_word(out, v, k);
      } else if (word.starts_with("-Xcompiler=") || word.starts_with("--compiler-options=")) {
        std::string host = word.substr(word.find('=') + 1);
        std::replace(host.begin(), host.end(), ',', list_separator);
        out += host;
      } else if (word == "-Xptxas" || word == "-gencode" || word == "-Xcudafe" || word == "-maxrregcount" || word == "-arch" ||
                 word == "--gpu-architecture" || word == "-code") {
        report(offset + i, Severity::warning, "nvcc-flag", fmt::format("nvcc option {} and its value removed: no clang equivalent", word),
               "for register limits use __launch_bounds__; the AMD architectures come from HIP_ARCHITECTURES");
        skip_next_word = true;
        drop_word(out, v, k);
      } else if (word.starts_with("-Xptxas=") || word.starts_with("--ptxas-options") || word.starts_with("-gencode=") ||
                 word.starts_with("-maxrregcount") || word.starts_with("--maxrregcount") || word.starts_with("-arch=") ||
                 word.starts_with("--gpu-architecture=") || word.starts_with("-Xcudafe") || word.starts_with("--generate-code") ||
                 word.starts_with("-code=") || word.starts_with("-prec-div=") || word.starts_with("-prec-sqrt=")) {
        report(offset + i, Severity::warning, "nvcc-flag", fmt::format("nvcc option {} removed: no clang equivalent", word),
               "for register limits use __launch_bounds__; the AMD architectures come from HIP_ARCHITECTURES");
        drop_word(out, v, k);
      } else {
        out += word;
      }
      i = k;
    }
    return out;
  }

  // ---- HIP -> CUDA --------------------------------------------------------------------------

  void run_to_cuda() {
    // Lines a CUDA -> HIP translation added go whole.
    std::vector<std::pair<std::size_t, std::size_t>> dropped;
    for (std::size_t b = 0; b < text_.size();) {
      std::size_t e = text_.find('\n', b);
      e = e == std::string_view::npos ? text_.size() : e + 1;
      const std::string_view line = text_.substr(b, e - b);
      const std::size_t first = line.find_first_not_of(" \t");
      const bool marked = line.find("# added by gpuport") != std::string_view::npos ||
                          (first != std::string_view::npos && line.substr(first).starts_with("# Added by gpuport"));
      if (marked) {
        dropped.emplace_back(b, e);
        edit(b, e, "");
      }
      b = e;
    }
    for (const auto& cmd : commands_) {
      const bool gone = std::any_of(dropped.begin(), dropped.end(), [&](auto r) { return cmd.begin >= r.first && cmd.begin < r.second; });
      if (!gone) translate_to_cuda(cmd);
    }
    if (!cu_sources_.empty()) {
      std::string list;
      for (const auto& s : cu_sources_) list += (list.empty() ? "" : " ") + s;
      const std::string nl = text_.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
      std::string tail = (!text_.empty() && text_.back() != '\n') ? nl : std::string();
      tail += fmt::format("set_source_files_properties({} PROPERTIES LANGUAGE CUDA)  # added by gpuport: .hip sources as CUDA{}", list, nl);
      edits_.push_back({text_.size(), text_.size(), tail});
      ++r_.rewrites;
    }
    apply();
  }

  void translate_to_cuda(const Command& cmd) {
    static const std::map<std::string_view, std::string_view> kTargetsBack = {
        {"hip::host", "CUDA::cudart"},       {"hip::device", "CUDA::cudart"},     {"hip::amdhip64", "CUDA::cudart"},
        {"hip::hiprand", "CUDA::curand"},    {"roc::rocrand", "CUDA::curand"},    {"roc::hipblas", "CUDA::cublas"},
        {"roc::rocblas", "CUDA::cublas"},    {"roc::hipblaslt", "CUDA::cublasLt"}, {"hip::hipfft", "CUDA::cufft"},
        {"roc::rocfft", "CUDA::cufft"},      {"roc::hipsparse", "CUDA::cusparse"}, {"roc::rocsparse", "CUDA::cusparse"},
        {"roc::hipsolver", "CUDA::cusolver"}, {"roc::rocsolver", "CUDA::cusolver"}, {"hip::hipcub", "CUDA::cudart"},
        {"roc::rocprim", "CUDA::cudart"},     {"roc::rocthrust", "CUDA::cudart"},
    };
    static const std::set<std::string_view> kLibraryPackages = {"hiprand", "rocrand", "hipblas", "rocblas", "hipblaslt", "hipfft",
                                                                "rocfft", "hipsparse", "rocsparse", "hipsolver", "rocsolver",
                                                                "hipcub", "rocprim", "rocthrust"};
    const auto& args = cmd.args;
    const std::string& n = cmd.name;
    if (n == "find_package" && !args.empty()) {
      const std::string_view pkg = arg_value(args[0]);
      if (pkg == "hip") {
        edit(cmd.begin, cmd.end, "find_package(CUDAToolkit REQUIRED)");
        return;
      }
      if (kLibraryPackages.count(pkg)) {
        edit(cmd.begin, cmd.end,
             fmt::format("# find_package({}) removed by gpuport: its CUDA library comes with find_package(CUDAToolkit)", pkg));
        return;
      }
    }
    if (n == "project" || n == "enable_language" || n == "check_language")
      for (std::size_t k = n == "project" ? 1 : 0; k < args.size(); ++k)
        if (arg_value(args[k]) == "HIP") edit(args[k].offset, args[k].offset + args[k].length, "CUDA");
    if (n == "add_executable" || n == "add_library" || n == "target_sources")
      for (std::size_t k = 1; k < args.size(); ++k) {
        const std::string_view v = arg_value(args[k]);
        if (v.size() > 4 && v.ends_with(".hip") && v.find("${") == std::string_view::npos &&
            std::find(cu_sources_.begin(), cu_sources_.end(), v) == cu_sources_.end())
          cu_sources_.emplace_back(v);
      }
    const bool flag_command = holds_flags(cmd, "CMAKE_HIP_FLAGS");
    for (std::size_t k = 0; k < args.size(); ++k) {
      const Arg& a = args[k];
      if (a.kind == ArgKind::open || a.kind == ArgKind::close || a.kind == ArgKind::bracket) continue;
      const std::string v(arg_text(a));
      std::string out = map_words(v, [&](std::string_view word, std::size_t i) {
        std::string replacement(word);
        if (auto t = kTargetsBack.find(word); t != kTargetsBack.end()) replacement = t->second;
        for (auto name : kRenamed) {
          std::string hip = std::string(name.substr(0, name.find("CUDA"))) + "HIP" + std::string(name.substr(name.find("CUDA") + 4));
          if (word == hip) replacement = std::string(name);
        }
        if (word == "GPUPORT_SEPARABLE_COMPILATION") replacement = "CUDA_SEPARABLE_COMPILATION";
        if (word == "GPUPORT_RESOLVE_DEVICE_SYMBOLS") replacement = "CUDA_RESOLVE_DEVICE_SYMBOLS";
        if (word == "hip_FOUND") replacement = "CUDAToolkit_FOUND";
        if (word == "HIP" && i > 0 && (v[i - 1] == ':' || v[i - 1] == ',') && v.rfind("LANG", i) != std::string::npos) replacement = "CUDA";
        return replacement;
      });
      if (k > 0 && arg_value(args[k - 1]) == "LANGUAGE" && arg_value(a) == "HIP") out = "CUDA";
      if (k > 0 && (arg_value(args[k - 1]) == "HIP_ARCHITECTURES" || arg_value(args[k - 1]) == "CMAKE_HIP_ARCHITECTURES") &&
          arg_value(a).starts_with("gfx")) {
        out = a.kind == ArgKind::quoted ? "\"80\"" : "80";
        report(a.offset, Severity::note, "cmake-architectures",
               fmt::format("AMD architectures '{}' replaced by 80 (sm_80): list the NVIDIA GPUs to build for", arg_value(a)));
        for (std::size_t j = k + 1; j < args.size() && args[j].kind == ArgKind::unquoted && arg_value(args[j]).starts_with("gfx"); ++j)
          edit(args[j - 1].offset + args[j - 1].length, args[j].offset + args[j].length, "");
      }
      if (flag_command) out = flags_to_nvcc(out, a.offset);
      if (out != v) edit(a.offset, a.offset + a.length, out);
    }
  }

  // clang options in flags: nvcc's, or the host compiler's through -Xcompiler=.
  std::string flags_to_nvcc(const std::string& v, std::size_t offset) {
    static const std::map<std::string_view, std::string_view> kSame = {
        {"-ffast-math", "--use_fast_math"}, {"-gline-tables-only", "-lineinfo"},
        {"-fgpu-default-stream=per-thread", "--default-stream=per-thread"}, {"-fgpu-flush-denormals-to-zero", "-ftz=true"},
        {"-ffp-contract=off", "--fmad=false"},
    };
    std::string out;
    std::size_t i = 0;
    while (i < v.size()) {
      const bool boundary = i == 0 || v[i - 1] == ' ' || v[i - 1] == ';' || v[i - 1] == ':' || v[i - 1] == '"' || v[i - 1] == '>';
      if (!(v[i] == '-' && boundary)) {
        out += v[i++];
        continue;
      }
      std::size_t k = i;
      while (k < v.size() && v[k] != ' ' && v[k] != ';' && v[k] != '"' && v[k] != '>') ++k;
      const std::string word = v.substr(i, k - i);
      if (auto m = kSame.find(word); m != kSame.end()) {
        out += m->second;
      } else if (word == "-fgpu-rdc" || word.starts_with("--offload-arch") || word == "-munsafe-fp-atomics" || word == "--hip-link" ||
                 word.starts_with("-mwavefrontsize") || word.starts_with("--rocm-")) {
        report(offset + i, Severity::note, "clang-flag",
               word == "-fgpu-rdc" ? std::string("clang option -fgpu-rdc removed: set CUDA_SEPARABLE_COMPILATION ON on the target")
                                   : fmt::format("clang option {} removed: AMD only", word));
        drop_word(out, v, k);
      } else if ((word.starts_with("-W") && !word.starts_with("-Werror=") && !word.starts_with("-Wno-deprecated")) ||
                 (word.starts_with("-f") && word != "-fPIC") || (word.starts_with("-m") && word != "-m64")) {
        out += "-Xcompiler=" + word;  // a host compiler option: nvcc passes it on
      } else {
        out += word;
      }
      i = k;
    }
    return out;
  }

  void apply() {
    std::stable_sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
    std::string out;
    out.reserve(text_.size() + 256);
    std::size_t at = 0;
    for (const auto& e : edits_) {
      if (e.begin < at) continue;  // overlaps an earlier edit: the earlier wins
      out.append(text_.substr(at, e.begin - at));
      out += e.text;
      at = e.end;
    }
    out.append(text_.substr(at));
    r_.output = std::move(out);
  }

  std::string_view path_, text_;
  const CMakeOptions& options_;
  FileTranslation& r_;
  LineIndex lines_;
  std::vector<Command> commands_;
  std::vector<Edit> edits_;
  std::set<std::string> packages_;
  bool finds_toolkit_ = false;        // the file has find_package(CUDAToolkit)
  std::set<std::string> found_here_;  // packages this file's translation finds before their use
  std::vector<std::string> cu_sources_;
  std::map<std::string, std::vector<std::string>> target_cu_sources_;  // target_sources(T ...) .cu files, by T
  bool prelude_included_ = false;
};

}  // namespace

bool is_makefile(std::string_view name) {
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return name == "Makefile" || name == "makefile" || name == "GNUmakefile" || (name.size() > 3 && name.ends_with(".mk"));
}

FileTranslation translate_makefile(std::string_view path, std::string_view text, const CMakeOptions& options) {
  // A Makefile's logic is arbitrary, so only its nvcc is replaced: each command word `nvcc` (or
  // a path ending in /nvcc) becomes $(GPUPORT_NVCC), defined at the top as `gpuport nvcc
  // --hip-sources`, which reads nvcc's options and builds the translated (HIP) sources for
  // gfx1100. Lines that link CUDA's libraries without nvcc get a warning with the change to make.
  static const std::map<std::string_view, std::string_view> kLibraries = {
      {"-lcudart", "-lamdhip64"}, {"-lcuda", "-lamdhip64"},         {"-lcublas", "-lhipblas"},     {"-lcurand", "-lhiprand"},
      {"-lcufft", "-lhipfft"},    {"-lcusparse", "-lhipsparse"},    {"-lcusolver", "-lhipsolver"}, {"-lnvToolsExt", "(nothing: NVTX is gpuport's shim)"},
      {"-lnvidia-ml", "(nothing: NVML is gpuport's shim)"},
  };
  FileTranslation r;
  r.path = std::string(path);
  std::string out;
  LineIndex lines(text);
  bool replaced = false;
  for (std::size_t b = 0; b < text.size();) {
    std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) e = text.size();
    const std::string_view line = text.substr(b, e - b);
    const std::size_t hash = line.find('#');
    const std::string_view code = line.substr(0, hash);
    std::vector<std::string> changes;
    std::string new_line;
    std::size_t copied = 0;  // of `line`
    bool runs_nvcc = false, through_nvcc = false;
    for (std::size_t i = 0; i < code.size();) {
      while (i < code.size() && (code[i] == ' ' || code[i] == '\t')) ++i;
      std::size_t k = i;
      while (k < code.size() && code[k] != ' ' && code[k] != '\t') ++k;
      const std::string_view word = code.substr(i, k - i);
      if ((word.starts_with("$(") || word.starts_with("${")) && upper_case(word).find("NVCC") != std::string::npos) {
        through_nvcc = true;  // $(NVCC): its libraries are gpuport nvcc's to map
      } else if (word == "nvcc" || word.ends_with("/nvcc")) {
        runs_nvcc = true;
        new_line += std::string(line.substr(copied, i - copied)) + "$(GPUPORT_NVCC)";
        copied = k;
      } else if (auto l = kLibraries.find(word); l != kLibraries.end()) {
        changes.push_back(fmt::format("{} -> {}", word, l->second));
      } else if (word.find("cuda/lib64") != std::string_view::npos) {
        changes.push_back(fmt::format("{}: HIP's libraries are on the default path", word));
      }
      i = k;
    }
    new_line += std::string(line.substr(copied));
    out += new_line;
    if (e < text.size()) out += '\n';
    const std::size_t first = code.find_first_not_of(" \t");
    const auto lc = lines.locate(static_cast<std::uint32_t>(b + (first == std::string_view::npos ? 0 : first)));
    if (runs_nvcc) {
      replaced = true;
      Diagnostic d;
      d.severity = Severity::note;
      d.code = "makefile-nvcc";
      d.message = "nvcc -> $(GPUPORT_NVCC) (gpuport nvcc --hip-sources: nvcc's options, the HIP sources built for gfx1100)";
      d.location = {std::string(path), lc.line, lc.column};
      r.findings.push_back(std::move(d));
    } else if (!changes.empty() && !through_nvcc) {
      Diagnostic d;
      d.severity = Severity::warning;
      d.code = "makefile-nvcc";
      d.message = "this line links CUDA's libraries without nvcc; it is not rewritten";
      std::string fix;
      for (const auto& c : changes) fix += (fix.empty() ? "" : "; ") + c;
      d.fix = fix + " (or link with $(GPUPORT_NVCC), or give CUDA's folder as `gpuport nvcc --toolkit DIR` writes it)";
      d.location = {std::string(path), lc.line, lc.column};
      r.findings.push_back(std::move(d));
    }
    b = e + 1;
  }
  if (replaced) {
    const std::string version = options.hip_version.empty() ? "" : " --hip-version " + options.hip_version;
    out = fmt::format("# added by gpuport: nvcc's command lines build the translated HIP sources for AMD gfx1100\n"
                      "GPUPORT_NVCC ?= gpuport nvcc{} --hip-sources\n",
                      version) +
          out;
  }
  r.output = std::move(out);
  return r;
}

bool is_build_file(std::string_view name) {
  if (const auto slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return name == "CMakeLists.txt" || (name.size() > 6 && name.ends_with(".cmake"));
}

FileTranslation translate_cmake(std::string_view path, std::string_view text, const CMakeOptions& options) {
  FileTranslation result;
  result.path = std::string(path);
  result.to_cuda = options.to_cuda;
  CMakeTranslator(path, text, options, result).run();
  if (!result.ok) result.output.clear();
  return result;
}

std::string hip_prelude_text(const CMakeOptions& options) {
  std::string s = R"cmake(# Written by gpuport translate --project: finds clang and HIP for CMake's HIP language, so that
# `cmake -S . -B build -DCMAKE_HIP_ARCHITECTURES=gfx1100` works with Debian's clang-19 and HIP as
# with a ROCm install. Everything here yields to what the user sets (-D, HIPCXX, ROCM_PATH).
if(NOT CMAKE_HIP_COMPILER AND NOT DEFINED ENV{HIPCXX})
  find_program(GPUPORT_HIP_CLANG NAMES clang++-19 clang++ PATHS /opt/rocm/llvm/bin)
  if(GPUPORT_HIP_CLANG)
    set(CMAKE_HIP_COMPILER "${GPUPORT_HIP_CLANG}" CACHE FILEPATH "HIP compiler (gpuport)")
  endif()
endif()
)cmake";
  if (!options.hip_root.empty())
    s += fmt::format(R"cmake(# The HIP this project was translated for: HIP {1}, which gpuport unpacked from Debian's packages
# into {0} (nothing installed). HIP code compiles with its include list alone
# (clang-hip.rsp: not Debian 12's HIP 5.2 in /usr/include); CMake finds its packages (hip,
# hip-lang, hipblas, hiprand, ...) there first; sid's libraries need glibc 2.38, so their own
# undefined symbols are left to run time (`gpuport run` starts the program with sid's loader).
if(NOT DEFINED ENV{{ROCM_PATH}} AND NOT GPUPORT_HIP_ROOT AND EXISTS "{0}/clang-hip.rsp")
  set(GPUPORT_HIP_ROOT "{0}" CACHE PATH "HIP {1} (gpuport)")
endif()
if(GPUPORT_HIP_ROOT AND NOT CMAKE_HIP_FLAGS MATCHES "clang-hip.rsp")
  string(APPEND CMAKE_HIP_FLAGS_INIT " @${{GPUPORT_HIP_ROOT}}/clang-hip.rsp")
  list(PREPEND CMAKE_PREFIX_PATH "${{GPUPORT_HIP_ROOT}}/usr/lib/x86_64-linux-gnu/cmake")
  # -L first: clang's --hip-link searches <rocm>/lib after /usr/lib, where Debian 12's HIP 5.2 is.
  set(_gpuport_link " -L${{GPUPORT_HIP_ROOT}}/usr/lib/x86_64-linux-gnu -Wl,--unresolved-symbols=ignore-in-shared-libs")
  # A language enabled before this file (project(x C CXX), then check_language(HIP)) has read
  # the _INIT values already: the flags go to the variables themselves too.
  get_property(_gpuport_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(_gpuport_kind EXE SHARED MODULE)
    string(APPEND CMAKE_${{_gpuport_kind}}_LINKER_FLAGS_INIT "${{_gpuport_link}}")
    if(_gpuport_languages AND NOT CMAKE_${{_gpuport_kind}}_LINKER_FLAGS MATCHES "unresolved-symbols")
      string(APPEND CMAKE_${{_gpuport_kind}}_LINKER_FLAGS "${{_gpuport_link}}")
    endif()
  endforeach()
  set(_gpuport_hip_lang "${{GPUPORT_HIP_ROOT}}/usr/lib/x86_64-linux-gnu/cmake/hip-lang/hip-lang-config.cmake")
  include_directories(BEFORE SYSTEM "$<$<COMPILE_LANGUAGE:C,CXX>:${{GPUPORT_HIP_ROOT}}/usr/include>")
endif()
)cmake",
                     options.hip_root, options.hip_version);
  s += R"cmake(# CMake looks for <root>/lib/cmake/hip-lang; Debian installs it under /usr/lib/<arch>/cmake, and
# its target puts /usr/include on the system include path of HIP code, ahead of libstdc++'s own
# (whose #include_next <math.h> then fails). A root in the build tree forwards to Debian's files
# without that.
if(NOT CMAKE_HIP_COMPILER_ROCM_ROOT)
  foreach(_gpuport_root $ENV{ROCM_PATH} /opt/rocm /usr)
    if(EXISTS "${_gpuport_root}/lib/cmake/hip-lang/hip-lang-config.cmake")
      set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_gpuport_root}" CACHE PATH "ROCm root (gpuport)")
      break()
    endif()
  endforeach()
endif()
if(NOT CMAKE_HIP_COMPILER_ROCM_ROOT)
  if(NOT _gpuport_hip_lang)
    file(GLOB _gpuport_hip_lang /usr/lib/*/cmake/hip-lang/hip-lang-config.cmake)
  endif()
  if(_gpuport_hip_lang)
    list(GET _gpuport_hip_lang 0 _gpuport_hip_lang)
    get_filename_component(_gpuport_hip_lang "${_gpuport_hip_lang}" DIRECTORY)
    set(_gpuport_root "${CMAKE_BINARY_DIR}/gpuport-rocm-root")
    file(WRITE "${_gpuport_root}/lib/cmake/hip-lang/hip-lang-config.cmake"
         "include(\"${_gpuport_hip_lang}/hip-lang-config.cmake\")\n"
         "foreach(t hip-lang::device hip-lang::amdhip64)\n"
         "  set_target_properties(\${t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"\" INTERFACE_SYSTEM_INCLUDE_DIRECTORIES \"\")\n"
         "endforeach()\n")
    set(CMAKE_HIP_COMPILER_ROCM_ROOT "${_gpuport_root}" CACHE PATH "ROCm root (gpuport)")
    # The packages HIP's files depend on (amd_comgr, hsa-runtime64) sit next to it, or, for an
    # unpacked HIP, in Debian's own folder.
    get_filename_component(_gpuport_cmake_dir "${_gpuport_hip_lang}" DIRECTORY)
    set(ENV{CMAKE_PREFIX_PATH} "${_gpuport_cmake_dir}:$ENV{CMAKE_PREFIX_PATH}")
    file(GLOB _gpuport_system_cmake /usr/lib/*/cmake/hsa-runtime64)
    foreach(_gpuport_dir IN LISTS _gpuport_system_cmake)
      get_filename_component(_gpuport_dir "${_gpuport_dir}" DIRECTORY)
      set(ENV{CMAKE_PREFIX_PATH} "$ENV{CMAKE_PREFIX_PATH}:${_gpuport_dir}")
    endforeach()
  endif()
endif()
# gfx1100's device libraries: Debian 12's rocm-device-libs lack its ISA version file; gpuport
# builds a folder that has it.
if(NOT DEFINED GPUPORT_ROCM_DEVICE_LIB_PATH)
  set(GPUPORT_ROCM_DEVICE_LIB_PATH "$ENV{GPUPORT_ROCM_DEVICE_LIB_PATH}")
endif()
)cmake";
  if (!options.device_lib_dir.empty())
    s += fmt::format(R"cmake(if(NOT GPUPORT_ROCM_DEVICE_LIB_PATH AND EXISTS "{0}/oclc_isa_version_1100.bc")
  set(GPUPORT_ROCM_DEVICE_LIB_PATH "{0}")
endif()
)cmake",
                     options.device_lib_dir);
  s += R"cmake(if(GPUPORT_ROCM_DEVICE_LIB_PATH AND NOT CMAKE_HIP_FLAGS MATCHES "rocm-device-lib-path")
  string(APPEND CMAKE_HIP_FLAGS_INIT " --rocm-device-lib-path=${GPUPORT_ROCM_DEVICE_LIB_PATH}")
endif()
# C and C++ host code may include the HIP runtime, as CUDA's host code includes CUDA's: it needs
# HIP's platform macro (what hip::host would give a target that links it), and the headers of the
# HIP the project was translated for (above).
add_compile_definitions("$<$<COMPILE_LANGUAGE:C,CXX>:__HIP_PLATFORM_AMD__=1>")
)cmake";
  return s;
}

}  // namespace gpuport::source
