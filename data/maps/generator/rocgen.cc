// gpuport-rocgen: derives data/maps/roc/generated/*.tsv, the tables `gpuport translate --roc`
// uses to translate cuBLAS, cuSPARSE, cuRAND and cuSOLVER straight to rocBLAS, rocSPARSE,
// rocRAND and rocSOLVER instead of to their hip* wrappers.
//
// The chain is CUDA name -> hip* name (gpuport's own tables, as embedded in the binary) -> roc*
// name, looked up in the roc* headers:
// - functions and types by each library's naming convention (hipblasSgemmBatched ->
//   rocblas_sgemm_batched, hipsparseXcsrsort -> rocsparse_csrsort, hipblasCreate ->
//   rocblas_create_handle, hiprand_uniform -> rocrand_uniform); a function is taken only when
//   the hip* and roc* declarations have the same number of parameters, else the row says how
//   they differ;
// - an enum type by name, or else by an equal set of enumerator values found in no other enum;
// - enumerators by value where the hip* and roc* enums have equal value sets, for hipBLAS only:
//   it copies rocBLAS's values (HIPBLAS_OP_N = rocblas_operation_none = 111), while hipSOLVER,
//   hipSPARSE and hipRAND number their enums their own way (HIPSOLVER_EIG_TYPE_1 = 211 is
//   rocblas_evect_original's value, not rocblas_eform_ax's); else by name
//   (HIPBLAS_STATUS_SUCCESS -> rocblas_status_success, HIPRAND_STATUS_SUCCESS ->
//   ROCRAND_STATUS_SUCCESS).
// Names found no way are written as unsupported.
//
// It also writes data/maps/generated/calls.tsv (--legacy-calls), which needs the same header
// reading: the legacy cuBLAS API of cublas.h has handle-less functions (cublasSscal(n, alpha,
// x, incx)) under the names that cublas_v2.h maps to the handle API (cublasSscal_v2(handle, n,
// ...)); hipBLAS has only the latter, so a call with the legacy argument count is left as
// written and reported (call action `unsupported`). Deprecated alias headers (rocsolver-aliases.h:
// rocsolver_handle for rocblas_handle) are not read, so the names they alias are found instead. Headers are read with the project's lossless
// lexer; nothing is preprocessed, so every #if branch of the headers is seen.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/file_io.h"
#include "lex/lexer.h"
#include "maps/api_map.h"

namespace {

namespace fs = std::filesystem;
using gpuport::lex::TokenKind;

struct Enum {
  std::vector<std::string> names;  // tag and typedef name
  std::vector<std::pair<std::string, std::optional<long long>>> enumerators;
  std::set<long long> values() const {
    std::set<long long> v;
    for (const auto& e : enumerators)
      if (e.second) v.insert(*e.second);
    return v;
  }
  bool all_valued() const {
    return std::all_of(enumerators.begin(), enumerators.end(), [](const auto& e) { return e.second.has_value(); });
  }
};

// What a set of headers declares, as far as this generator needs it.
struct Declarations {
  std::set<std::string> identifiers;            // every identifier in code (not comments)
  std::map<std::string, std::set<int>> function_params;  // name -> parameter counts of its declarations (overloads)
  std::vector<Enum> enums;
  std::map<std::string, std::size_t> enum_of;   // enum name or enumerator -> index in enums
  std::vector<std::string> inputs;

  const Enum* find_enum(const std::string& name) const {
    auto it = enum_of.find(name);
    return it == enum_of.end() ? nullptr : &enums[it->second];
  }
};

std::optional<long long> parse_number(std::string_view t) {
  while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L')) t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  try {
    std::size_t used = 0;
    const long long v = std::stoll(std::string(t), &used, 0);
    if (used != t.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

// Evaluates an enumerator's initializer: integers, earlier enumerators, unary -, ~, ( ), <<, |, +.
class ValueParser {
 public:
  ValueParser(const std::vector<std::string_view>& toks, const std::map<std::string, long long>& known)
      : t_(toks), known_(known) {}
  std::optional<long long> parse() {
    auto v = bit_or();
    if (!v || i_ != t_.size()) return std::nullopt;
    return v;
  }

 private:
  std::optional<long long> bit_or() {
    auto v = shift();
    while (v && i_ < t_.size() && t_[i_] == "|") {
      ++i_;
      auto r = shift();
      if (!r) return std::nullopt;
      *v |= *r;
    }
    return v;
  }
  std::optional<long long> shift() {
    auto v = sum();
    while (v && i_ < t_.size() && t_[i_] == "<<") {
      ++i_;
      auto r = sum();
      if (!r || *r < 0 || *r > 62) return std::nullopt;
      *v <<= *r;
    }
    return v;
  }
  std::optional<long long> sum() {
    auto v = unary();
    while (v && i_ < t_.size() && (t_[i_] == "+" || t_[i_] == "-")) {
      const bool plus = t_[i_++] == "+";
      auto r = unary();
      if (!r) return std::nullopt;
      *v = plus ? *v + *r : *v - *r;
    }
    return v;
  }
  std::optional<long long> unary() {
    if (i_ >= t_.size()) return std::nullopt;
    const auto t = t_[i_++];
    if (t == "-") {
      auto v = unary();
      return v ? std::optional<long long>(-*v) : std::nullopt;
    }
    if (t == "~") {
      auto v = unary();
      return v ? std::optional<long long>(~*v) : std::nullopt;
    }
    if (t == "(") {
      // A cast such as (int)0x80000000: skip a parenthesised type name.
      if (i_ + 1 < t_.size() && t_[i_ + 1] == ")" && !std::isdigit(static_cast<unsigned char>(t_[i_][0])) &&
          !known_.count(std::string(t_[i_]))) {
        i_ += 2;
        return unary();
      }
      auto v = bit_or();
      if (!v || i_ >= t_.size() || t_[i_] != ")") return std::nullopt;
      ++i_;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(t[0]))) return parse_number(t);
    auto it = known_.find(std::string(t));
    if (it != known_.end()) return it->second;
    return std::nullopt;
  }
  const std::vector<std::string_view>& t_;
  const std::map<std::string, long long>& known_;
  std::size_t i_ = 0;
};

void scan_header(const fs::path& path, Declarations& d, std::map<std::string, long long>& known_values) {
  auto content = gpuport::read_file(path, 64u << 20);
  if (!content) throw std::runtime_error("cannot read " + path.string());
  d.inputs.push_back(path.string());
  auto ts = gpuport::lex::lex(*content);
  // Code tokens only: no trivia, no preprocessor directives (but macro names defined there
  // count as identifiers the header declares).
  std::vector<std::string_view> code;
  for (const auto& tok : ts.tokens()) {
    if (tok.is_trivia()) continue;
    const auto text = ts.text_of(tok);
    if (tok.kind == TokenKind::identifier) d.identifiers.insert(std::string(text));
    if (tok.has(gpuport::lex::kInDirective)) continue;
    code.push_back(text);
  }
  auto is_ident = [](std::string_view t) {
    return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_');
  };
  for (std::size_t i = 0; i < code.size(); ++i) {
    // Function declarations: NAME ( params ) followed by ; or an attribute, at any depth, when
    // the token before NAME is a type word or '*' (not '=', ',', '(' of a call in an inline body).
    if (is_ident(code[i]) && i + 1 < code.size() && code[i + 1] == "(" && i > 0 &&
        (is_ident(code[i - 1]) || code[i - 1] == "*" || code[i - 1] == "&")) {
      int depth = 0, commas = 0;
      bool any = false, only_void = false;
      std::size_t j = i + 1;
      for (; j < code.size(); ++j) {
        if (code[j] == "(") ++depth;
        else if (code[j] == ")") {
          if (--depth == 0) break;
        } else if (depth == 1 && code[j] == ",") ++commas;
        else if (depth == 1) {
          only_void = !any && code[j] == "void";
          any = true;
        }
      }
      if (j < code.size()) {
        const int params = !any || (only_void && commas == 0 && code[j - 1] == "void") ? 0 : commas + 1;
        d.function_params[std::string(code[i])].insert(params);
      }
    }
    if (code[i] != "enum") continue;
    const bool typedef_enum = i > 0 && code[i - 1] == "typedef";
    std::size_t j = i + 1;
    if (j < code.size() && (code[j] == "class" || code[j] == "struct")) ++j;
    Enum e;
    if (j < code.size() && is_ident(code[j])) e.names.emplace_back(code[j++]);
    while (j < code.size() && code[j] != "{" && code[j] != ";" && code[j] != ")") ++j;  // `: int`
    if (j >= code.size() || code[j] != "{") continue;
    ++j;
    std::optional<long long> next = 0;
    while (j < code.size() && code[j] != "}") {
      if (!is_ident(code[j])) {
        ++j;
        continue;
      }
      std::string name(code[j++]);
      // Skip attributes such as ROCBLAS_DEPRECATED_MSG("...") between the name and '='.
      std::optional<long long> value = next;
      if (j < code.size() && code[j] == "=") {
        std::vector<std::string_view> expr;
        int depth = 0;
        for (++j; j < code.size(); ++j) {
          if (depth == 0 && (code[j] == "," || code[j] == "}")) break;
          if (code[j] == "(") ++depth;
          if (code[j] == ")") --depth;
          expr.push_back(code[j]);
        }
        value = ValueParser(expr, known_values).parse();
      } else {
        while (j < code.size() && code[j] != "," && code[j] != "}") ++j;
      }
      if (value) known_values[name] = *value;
      e.enumerators.emplace_back(name, value);
      next = value ? std::optional<long long>(*value + 1) : std::nullopt;
      if (j < code.size() && code[j] == ",") ++j;
    }
    if (j + 1 < code.size() && typedef_enum && is_ident(code[j + 1])) e.names.emplace_back(code[j + 1]);
    const std::size_t index = d.enums.size();
    for (const auto& n : e.names) d.enum_of.emplace(n, index);
    for (const auto& en : e.enumerators) d.enum_of.emplace(en.first, index);
    d.enums.push_back(std::move(e));
  }
}

// The CUDA headers of one library: every <prefix>*.h directly in the folder.
Declarations scan_cuda(const fs::path& include, const std::string& prefix) {
  Declarations d;
  std::map<std::string, long long> known;
  std::vector<fs::path> files;
  for (const auto& f : fs::directory_iterator(include))
    if (f.is_regular_file() && f.path().extension() == ".h" && f.path().filename().string().starts_with(prefix))
      files.push_back(f.path());
  if (files.empty()) throw std::runtime_error("no " + prefix + "*.h in " + include.string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) scan_header(f, d, known);
  return d;
}

Declarations scan_folders(const fs::path& include, const std::vector<std::string>& folders) {
  Declarations d;
  std::map<std::string, long long> known;
  for (const auto& folder : folders) {
    std::vector<fs::path> files;
    const fs::path dir = include / folder;
    if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + " missing (tools/fetch-rocm-headers.sh fetches it)");
    for (const auto& f : fs::recursive_directory_iterator(dir))
      if (f.is_regular_file() && (f.path().extension() == ".h" || f.path().extension() == ".hpp") &&
          f.path().filename().string().find("aliases") == std::string::npos)
        files.push_back(f.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) scan_header(f, d, known);
  }
  return d;
}

// CamelCase -> snake_case: a '_' before an upper-case letter that follows a lower-case letter
// or digit (SgemmStridedBatched -> sgemm_strided_batched, StateXORWOW -> state_xorwow,
// Zgemvi_bufferSize -> zgemvi_buffer_size).
std::string snake(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isupper(c) && i > 0 && (std::islower(static_cast<unsigned char>(s[i - 1])) ||
                                     std::isdigit(static_cast<unsigned char>(s[i - 1]))) && out.back() != '_')
      out.push_back('_');
    out.push_back(static_cast<char>(std::tolower(c)));
  }
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
std::string upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

struct Library {
  std::string family;                  // gpuport's family of the CUDA rows: cublas, ...
  std::string title;                   // rocBLAS
  std::string hip_prefix;              // hipblas
  std::string cuda_prefix;             // cublas
  std::vector<std::string> roc_prefixes;  // rocblas (rocsolver also takes rocBLAS's types)
  std::vector<std::string> hip_folders, roc_folders;
  bool values_mirror = false;          // the hip* enums copy the roc* enums' values
};

struct Row {
  std::string cuda, roc, kind, status, note;
};

class Generator {
 public:
  Generator(const Library& lib, const Declarations& cuda, const Declarations& hip, const Declarations& roc)
      : lib_(lib), cuda_(cuda), hip_(hip), roc_(roc) {}

  // Tries the hip* name of the row first (the tables' knowledge of which hip* API stands for the
  // CUDA one), then the CUDA name itself (names the hip* tables lack, such as HIP 5.2's missing
  // hipRAND orderings, may still have a roc* twin).
  Row derive(const gpuport::maps::ApiEntry& e) {
    Row r{e.cuda, "-", std::string(gpuport::maps::kind_name(e.kind)), "unsupported", ""};
    std::vector<std::pair<std::string, std::string>> names;  // (name, its library prefix)
    if (e.hip != "-") names.emplace_back(e.hip, lib_.hip_prefix);
    names.emplace_back(e.cuda, lib_.cuda_prefix);
    for (const auto& [name, prefix] : names) {
      const bool ok = e.kind == gpuport::maps::Kind::constant ? constant(r, name, prefix)
                      : e.kind == gpuport::maps::Kind::type   ? type(r, name, prefix)
                      : e.kind == gpuport::maps::Kind::function || e.kind == gpuport::maps::Kind::device
                          ? function(r, e.cuda, name, prefix)
                          : false;
      if (ok || !r.note.empty()) return r;
    }
    r.note = fmt::format("{} declares no such name (Debian 13 headers): port by hand", lib_.title);
    return r;
  }

 private:
  // The part of a name after its library prefix: hipblasSgemm -> Sgemm, hiprand_init -> init,
  // cublasSgemm_v2 -> Sgemm, cusolverDnSgetrf -> Sgetrf, CURAND_STATUS_SUCCESS -> STATUS_SUCCESS.
  std::optional<std::string> stem(const std::string& n, const std::string& prefix) const {
    std::string s;
    if (n.starts_with(prefix)) s = n.substr(prefix.size());
    else if (n.starts_with(upper(prefix))) s = n.substr(prefix.size());
    else return std::nullopt;
    if (!s.empty() && s[0] == '_') s.erase(0, 1);
    if (lib_.family == "cusolver" && s.starts_with("Dn")) s.erase(0, 2);
    if (s.ends_with("_v2")) s.resize(s.size() - 3);
    return s.empty() ? std::nullopt : std::optional<std::string>(s);
  }
  bool declared(const std::string& n) const { return roc_.identifiers.count(n) != 0; }

  bool found(Row& r, std::string roc, std::string how) {
    r.roc = std::move(roc);
    r.status = "supported";
    r.note = std::move(how);
    return true;
  }

  // Parameter count of the CUDA function (its _v2 entry point where the name is a macro), else
  // of the hip* function it maps to.
  const std::set<int>* source_params(const std::string& cuda, const std::string& name) const {
    for (const auto& n : {cuda + "_v2", cuda})
      if (auto it = cuda_.function_params.find(n); it != cuda_.function_params.end()) return &it->second;
    if (auto it = hip_.function_params.find(name); it != hip_.function_params.end()) return &it->second;
    return nullptr;
  }
  static std::string counts(const std::set<int>& s) {
    std::string out;
    for (int n : s) out += (out.empty() ? "" : " or ") + std::to_string(n);
    return out;
  }

  bool function(Row& r, const std::string& cuda, const std::string& name, const std::string& prefix) {
    auto s = stem(name, prefix);
    if (!s) return false;
    std::vector<std::string> candidates;
    for (const auto& p : lib_.roc_prefixes) {
      const std::string base = p + "_" + snake(*s);
      candidates.push_back(base);
      candidates.push_back(base + "_handle");  // hipblasCreate -> rocblas_create_handle
      candidates.push_back(base + "_descr");   // hipsparseCreateCsr -> rocsparse_create_csr_descr
      // hipsparseXcsrsort -> rocsparse_csrsort: the X of index-only routines is dropped.
      if (s->size() > 1 && (*s)[0] == 'X' && std::islower(static_cast<unsigned char>((*s)[1])))
        candidates.push_back(p + "_" + snake(s->substr(1)));
    }
    for (const auto& c : candidates) {
      if (!declared(c)) continue;
      // Every arity the CUDA function has (its overloads) must be one the roc* one has.
      const std::set<int>* want = source_params(cuda, name);
      auto rp = roc_.function_params.find(c);
      if (want && rp != roc_.function_params.end() &&
          !std::includes(rp->second.begin(), rp->second.end(), want->begin(), want->end())) {
        r.note = fmt::format("{} takes {} arguments, {} {}: port by hand", c, counts(rp->second), cuda, counts(*want));
        return false;
      }
      return found(r, c, fmt::format("{} header name match", lib_.title));
    }
    return false;
  }

  // The roc* enum a hip* enum becomes: by name, else the one enum whose values are the same.
  const Enum* roc_enum_for(const Enum& hip_enum) const {
    for (const auto& n : hip_enum.names) {
      auto s = stem(n, lib_.hip_prefix);
      if (!s) continue;
      std::string t = *s;
      if (t.ends_with("_t")) t.resize(t.size() - 2);
      for (const auto& p : lib_.roc_prefixes)
        if (const Enum* e = roc_.find_enum(p + "_" + snake(t)); e && !e->names.empty()) return e;
    }
    if (!lib_.values_mirror || !hip_enum.all_valued() || hip_enum.enumerators.size() < 2) return nullptr;
    const auto values = hip_enum.values();
    const Enum* match = nullptr;
    for (const auto& e : roc_.enums) {
      if (e.values() != values || !e.all_valued() || e.names.empty()) continue;
      if (match) return nullptr;  // not unique
      match = &e;
    }
    return match;
  }
  static std::string enum_name(const Enum& e) { return e.names.back(); }  // the typedef name if any

  bool type(Row& r, const std::string& name, const std::string& prefix) {
    if (prefix == lib_.hip_prefix) {
      if (const Enum* he = hip_.find_enum(name); he && std::find(he->names.begin(), he->names.end(), name) != he->names.end()) {
        if (const Enum* re = roc_enum_for(*he)) {
          const bool by_values = lib_.values_mirror && re->values() == he->values() && he->all_valued();
          return found(r, enum_name(*re), by_values ? fmt::format("{} enum with the same values", lib_.title)
                                                    : fmt::format("{} header name match", lib_.title));
        }
      }
    }
    auto s = stem(name, prefix);
    if (!s) return false;
    std::string t = *s;
    if (t.ends_with("_t")) t.resize(t.size() - 2);
    for (const auto& p : lib_.roc_prefixes)
      if (declared(p + "_" + snake(t))) return found(r, p + "_" + snake(t), fmt::format("{} header name match", lib_.title));
    return false;
  }

  bool constant(Row& r, const std::string& name, const std::string& prefix) {
    if (prefix == lib_.hip_prefix && lib_.values_mirror) {
      if (const Enum* he = hip_.find_enum(name)) {
        if (const Enum* re = roc_enum_for(*he); re && he->all_valued() && re->values() == he->values()) {
          std::optional<long long> v;
          for (const auto& en : he->enumerators)
            if (en.first == name) v = en.second;
          for (const auto& en : re->enumerators)
            if (v && en.second == v && declared(en.first))
              return found(r, en.first, fmt::format("{} enumerator of the same value ({})", lib_.title, *v));
        }
      }
    }
    const std::string up = upper(prefix);
    if (!name.starts_with(up)) return false;
    const std::string rest = name.substr(up.size());
    for (const auto& p : lib_.roc_prefixes)
      for (const auto& c : {lower(p) + lower(rest), upper(p) + rest})
        if (declared(c)) return found(r, c, fmt::format("{} header name match", lib_.title));
    return false;
  }

  const Library& lib_;
  const Declarations& cuda_;
  const Declarations& hip_;
  const Declarations& roc_;
};

std::string input_lines(const Declarations& d) {
  // Each input with its size: enough to tell header versions apart in a review.
  std::string out;
  for (const auto& f : d.inputs) out += fmt::format("# Input: {} ({} bytes)\n", f, fs::file_size(f));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Derives the CUDA -> roc* library tables (data/maps/roc/generated) from rocBLAS, rocSPARSE, "
               "rocRAND and rocSOLVER headers"};
  std::string include = "build/rocm-headers/usr/include";
  std::string out = "data/maps/roc/generated";
  app.add_option("--include", include, "folder holding rocblas/, hipblas/, rocsparse/, ... (Debian 13 packages)")
      ->capture_default_str();
  std::string cuda_include = "/usr/include";
  app.add_option("--cuda-include", cuda_include, "folder holding cublas_api.h, curand.h, ... (CUDA 11.8)")
      ->capture_default_str();
  app.add_option("--out", out, "folder for the generated <family>.tsv tables")->capture_default_str();
  std::string legacy_calls = "data/maps/generated/calls.tsv";
  app.add_option("--legacy-calls", legacy_calls, "where to write the legacy cuBLAS call rules")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  auto map = gpuport::maps::ApiMap::load_embedded();
  if (!map) {
    fmt::print(stderr, "gpuport-rocgen: cannot load the embedded tables\n");
    return 2;
  }
  const std::vector<Library> libraries = {
      {"cublas", "rocBLAS", "hipblas", "cublas", {"rocblas"}, {"hipblas"}, {"rocblas"}, true},
      {"cusparse", "rocSPARSE", "hipsparse", "cusparse", {"rocsparse"}, {"hipsparse"}, {"rocsparse"}},
      {"curand", "rocRAND", "hiprand", "curand", {"rocrand"}, {"hiprand"}, {"rocrand"}},
      {"cusolver", "rocSOLVER", "hipsolver", "cusolver", {"rocsolver", "rocblas"}, {"hipsolver"}, {"rocsolver", "rocblas"}},
  };
  try {
    fs::create_directories(out);
    for (const auto& lib : libraries) {
      const Declarations cuda = scan_cuda(cuda_include, lib.cuda_prefix);
      const Declarations hip = scan_folders(include, lib.hip_folders);
      const Declarations roc = scan_folders(include, lib.roc_folders);
      Generator g(lib, cuda, hip, roc);
      std::vector<Row> rows;
      std::size_t supported = 0;
      for (const auto& e : map->entries()) {
        if (e.family != lib.family) continue;
        if (e.kind == gpuport::maps::Kind::header || e.kind == gpuport::maps::Kind::member) continue;
        rows.push_back(g.derive(e));
        supported += rows.back().status == "supported";
      }
      std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.cuda < b.cuda; });
      std::string text = fmt::format(
          "# Generated by gpuport-rocgen from the CUDA, {} and {} headers; do not edit.\n"
          "# Used by `gpuport translate --roc` only. Corrections belong in data/maps/roc/curated/.\n"
          "# Command: gpuport-rocgen --include {} --cuda-include {}\n"
          "# Columns: cuda\troc\tkind\tfamily\tstatus\tnote\n",
          lib.title, lib.hip_prefix, include, cuda_include);
      for (const Declarations* d : {&cuda, &hip, &roc}) text += input_lines(*d);
      for (const auto& r : rows)
        text += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\n", r.cuda, r.roc, r.kind, lib.family, r.status, r.note);
      const fs::path path = fs::path(out) / (lib.family + ".tsv");
      if (auto error = gpuport::write_file_atomic(path, text)) {
        fmt::print(stderr, "gpuport-rocgen: cannot write {}\n", path.string());
        return 2;
      }
      fmt::print("{}: {} rows, {} with a {} counterpart\n", path.string(), rows.size(), supported, lib.title);
    }
    // Legacy cuBLAS: argument counts of cublas.h's handle-less functions that their _v2
    // namesakes in cublas_api.h do not have.
    Declarations legacy, v2;
    std::map<std::string, long long> known;
    scan_header(fs::path(cuda_include) / "cublas.h", legacy, known);
    scan_header(fs::path(cuda_include) / "cublas_api.h", v2, known);
    std::string text =
        "# Generated by gpuport-rocgen from the CUDA cuBLAS headers; do not edit.\n"
        "# Call rules: the legacy handle-less cuBLAS API (cublas.h) shares names with the handle API\n"
        "# that cublas_v2.h maps them to; a call with the legacy argument count has no hipBLAS form.\n";
    text += fmt::format("# Command: gpuport-rocgen --cuda-include {}\n", cuda_include);
    text += input_lines(legacy) + input_lines(v2);
    std::size_t rules = 0;
    for (const auto& [name, counts] : legacy.function_params) {
      auto twin = v2.function_params.find(name + "_v2");
      const auto* row = map->find(name);
      // Only names the tables translate need protecting: an unsupported one is reported anyway.
      if (!name.starts_with("cublas") || twin == v2.function_params.end() || !row ||
          row->status == gpuport::maps::Status::unsupported)
        continue;
      for (int n : counts) {
        if (twin->second.count(n)) continue;
        const std::string& hip = row->hip;
        text += fmt::format("{}\t{}\tunsupported\t-\t-\tthe legacy handle-less cuBLAS API (cublas.h): hipBLAS and rocBLAS "
                            "take a handle first: create one and call {}(handle, ...)\n",
                            name, n, hip);
        ++rules;
      }
    }
    if (auto error = gpuport::write_file_atomic(legacy_calls, text)) {
      fmt::print(stderr, "gpuport-rocgen: cannot write {}\n", legacy_calls);
      return 2;
    }
    fmt::print("{}: {} legacy cuBLAS call rules\n", legacy_calls, rules);
  } catch (const std::exception& ex) {
    fmt::print(stderr, "gpuport-rocgen: {}\n", ex.what());
    return 2;
  }
  return 0;
}
