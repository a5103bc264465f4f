// Every row of the mapping tables has a test: each name is translated in context and must come
// out as its HIP name (or be reported when unsupported), and each HIP name must exist in the
// installed HIP headers for the families Debian packages.
#include <algorithm>
#include <filesystem>
#include <map>
#include <functional>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/file_io.h"
#include "lex/lexer.h"
#include "maps/api_map.h"
#include "source/compat.h"
#include "source/translator.h"

namespace gpuport::maps {
namespace {
namespace fs = std::filesystem;

// The embedded tables with these options, loaded once per option set.
const ApiMap& loaded(const LoadOptions& options) {
  static std::map<std::pair<bool, std::string>, ApiMap> cache;
  const auto key = std::pair(options.roc, options.hip_version);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto r = ApiMap::load_embedded(options);
  if (!r) throw std::runtime_error(format_diagnostic(r.diagnostics().front()));
  return cache.emplace(key, std::move(*r)).first->second;
}

const ApiMap& table() { return loaded({}); }

const ApiMap& roc_table() { return loaded({.roc = true}); }

// With --hip-version V: the default tables and the layers of newer HIPs up to V.
const ApiMap& hip_table(const char* version) { return loaded({.hip_version = version}); }

bool has_code(const source::FileTranslation& t, std::string_view code) {
  for (const auto& d : t.findings)
    if (d.code == code) return true;
  return false;
}

// Identifiers of the translated output (so "hipMalloc" is not found inside "hipMallocPitch").
std::multiset<std::string> identifiers(std::string_view text) {
  std::multiset<std::string> out;
  auto ts = lex::lex(text);
  for (const auto& t : ts.tokens())
    if (t.kind == lex::TokenKind::identifier) out.insert(std::string(ts.text_of(t)));
  return out;
}

// Translates each row's name in context with `map` and returns the rows that came out wrong.
// Only rows for which `take` holds are checked; `checked` counts them.
template <typename Take>
std::vector<std::string> translate_rows(const ApiMap& map, Take take, std::size_t& checked) {
  source::TranslateOptions options;
  options.add_runtime_include = false;
  std::vector<std::string> failures;
  for (const auto& e : map.entries()) {
    if (!take(e)) continue;
    std::string in, expect;
    switch (e.kind) {
      case Kind::header:
        in = fmt::format("#include <{}>\n", e.cuda);
        expect = fmt::format("#include <{}>\n", e.hip);
        break;
      case Kind::namespace_:
        in = fmt::format("void probe() {{ {}::member(); }}\n", e.cuda);
        expect = fmt::format("void probe() {{ {}::member(); }}\n", e.hip);
        break;
      case Kind::member: {
        // The first of the struct's spellings; a template row wraps the member access.
        const std::string type = e.family.substr(0, e.family.find('|'));
        const std::string access = fmt::format("p->{}", e.cuda);
        const auto hole = e.hip.find('$');
        // The struct's own name is translated too (cudaPointerAttributes -> hipPointerAttribute_t).
        const auto* struct_row = map.find(type);
        const std::string hip_type = struct_row && struct_row->status != Status::unsupported ? struct_row->hip : type;
        in = fmt::format("void probe({0}* p) {{ auto v = {1}; }}\n", type, access);
        expect = fmt::format("void probe({0}* p) {{ auto v = {1}; }}\n", hip_type,
                             hole == std::string::npos ? "p->" + e.hip : e.hip.substr(0, hole) + access + e.hip.substr(hole + 1));
        break;
      }
      case Kind::pp_condition:
        in = fmt::format("#ifdef {}\n#endif\n", e.cuda);
        expect = fmt::format("#ifdef {}\n#endif\n", e.hip);
        break;
      default: {
        // A type or call that a shim's stands for (hipDeviceptr_t -> gpuport_hipDeviceptr_t,
        // hipGetDeviceProperties -> gpuport_hipGetDeviceProperties).
        const auto shim_type =
            e.kind == Kind::type || e.kind == Kind::function ? source::shim_name_for(e.hip) : std::string_view();
        in = fmt::format("void probe() {{ auto x = {}; }}\n", e.cuda);
        expect = fmt::format("void probe() {{ auto x = {}; }}\n", shim_type.empty() ? std::string_view(e.hip) : shim_type);
        break;
      }
    }
    auto t = source::translate_text("row.cu", in, map, options);
    ++checked;
    if (e.status == Status::unsupported) {
      const char* code = e.kind == Kind::header   ? "unsupported-header"
                         : e.kind == Kind::member ? "unsupported-member"
                                                  : "unsupported-api";
      // A member's struct is translated around it (cudaDeviceProp -> hipDeviceProp_t).
      const bool unchanged = e.kind == Kind::member ? t.output.find("->" + e.cuda + "; }") != std::string::npos : t.output == in;
      if (!has_code(t, code) || !unchanged) failures.push_back(fmt::format("{} ({}): not reported as unsupported", e.cuda, e.origin));
      continue;
    }
    // A header HIP 5.2 needs hip_runtime.h before (hip_cooperative_groups.h) gets it first.
    std::string got = t.output;
    if (e.kind == Kind::header && e.hip == "hip/hip_cooperative_groups.h" && got.starts_with("#include <hip/hip_runtime.h>\n"))
      got.erase(0, std::string_view("#include <hip/hip_runtime.h>\n").size());
    if (got != expect) failures.push_back(fmt::format("{} ({}): got '{}'", e.cuda, e.origin, t.output));
    if (e.status == Status::deprecated && !has_code(t, "deprecated-api"))
      failures.push_back(fmt::format("{} ({}): deprecated but not reported", e.cuda, e.origin));
  }
  return failures;
}

TEST(MapRows, EveryRowTranslatesInContext) {
  std::size_t checked = 0;
  auto failures = translate_rows(table(), [](const ApiEntry&) { return true; }, checked);
  EXPECT_GT(checked, 1000u);
  for (std::size_t i = 0; i < failures.size() && i < 50; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " rows failed";
}

// With --hip-version 6.2, every row of that layer translates to its HIP 6.2 name.
TEST(MapRows, EveryHip62RowTranslatesInContextWithHipVersion) {
  const ApiMap& map = hip_table("6.2");
  std::size_t checked = 0;
  auto failures = translate_rows(map, [](const ApiEntry& e) { return e.origin.starts_with("hip-6.2/"); }, checked);
  EXPECT_GT(checked, 200u);
  for (std::size_t i = 0; i < failures.size() && i < 50; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " rows failed";
}

// With --hip-version 6.4, every row of the 6.4 layer translates to its HIP 6.4 name.
TEST(MapRows, EveryHip64RowTranslatesInContextWithHipVersion) {
  const ApiMap& map = hip_table("6.4");
  std::size_t checked = 0;
  auto failures = translate_rows(map, [](const ApiEntry& e) { return e.origin.starts_with("hip-6.4/"); }, checked);
  EXPECT_GT(checked, 300u);
  for (std::size_t i = 0; i < failures.size() && i < 50; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " rows failed";
}

// With --roc, every roc* row wins over the hip* row of the same name and translates to its roc*
// name (or is reported when rocBLAS, rocSPARSE, rocRAND or rocSOLVER lack it).
TEST(MapRows, EveryRocRowTranslatesInContextWithRoc) {
  std::size_t checked = 0;
  auto failures = translate_rows(roc_table(), [](const ApiEntry& e) { return e.origin.starts_with("roc/"); }, checked);
  EXPECT_GT(checked, 2000u);
  for (std::size_t i = 0; i < failures.size() && i < 50; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " rows failed";
}

// Families whose HIP headers Debian packages (libamdhip64-dev, libhiprand-dev, libhipsparse-dev).
bool installable_family(const std::string& family) {
  static const std::set<std::string> kFamilies = {"runtime", "driver",  "device",  "math",   "fp16",
                                                  "bf16",    "launch",  "curand",  "cusparse", "complex",
                                                  "library", "rtc",     "cooperative-groups", "preprocessor"};
  return kFamilies.count(family) != 0;
}

// The HIP names of `map`'s rows that `select` picks and that no header under `include`'s hip/,
// hiprand/ and hipsparse/ (nor clang's HIP wrappers, nor gpuport's shims) declares.
std::vector<std::string> undeclared_hip_names(const ApiMap& map, const fs::path& include,
                                              const std::function<bool(const ApiEntry&)>& select, std::size_t& checked,
                                              const std::vector<std::string>& more_libraries = {}) {
  std::vector<fs::path> roots = {include / "hip", include / "hiprand", include / "hipsparse"};
  for (const auto& lib : more_libraries) roots.push_back(include / lib);
  // clang's own HIP wrapper headers declare a few names (__managed__, ...).
  if (fs::exists("/usr/lib/llvm-19/lib/clang/19/include")) roots.push_back("/usr/lib/llvm-19/lib/clang/19/include");
  std::vector<std::string> missing;
  std::set<std::string> declared;
  std::vector<std::string> pasted_prefixes;  // make_##type declares make_int2, make_float4, ...
  for (const auto& root : roots) {
    for (const auto& f : fs::recursive_directory_iterator(root)) {
      if (!f.is_regular_file()) continue;
      if (root.filename() == "include" && !f.path().filename().string().starts_with("__clang_")) continue;
      // The names must be declared for AMD: HIP's NVIDIA platform headers do not count.
      if (f.path().string().find("/nvidia_detail/") != std::string::npos) continue;
      auto content = read_file(f.path(), 64u << 20);
      if (!content.ok()) {
        missing.push_back(fmt::format("{}: cannot read", f.path().string()));
        continue;
      }
      auto ts = lex::lex(*content);
      const auto& toks = ts.tokens();
      for (std::size_t i = 0; i < toks.size(); ++i) {
        if (toks[i].kind != lex::TokenKind::identifier) continue;
        declared.insert(std::string(ts.text_of(toks[i])));
        if (i + 1 < toks.size() && ts.text_of(toks[i + 1]) == "##" && toks[i].length >= 4)
          pasted_prefixes.emplace_back(ts.text_of(toks[i]));
      }
    }
  }
  // gpuport's compatibility shims (source/compat.cc) declare the names HIP lacks.
  for (const auto& shim : source::shims()) {
    const std::string text(shim.text);
    auto ts = lex::lex(text);
    for (const auto& t : ts.tokens())
      if (t.kind == lex::TokenKind::identifier) declared.insert(std::string(ts.text_of(t)));
  }
  auto is_declared = [&](const std::string& id) {
    if (declared.count(id)) return true;
    for (const auto& p : pasted_prefixes)
      if (id.starts_with(p)) return true;
    return false;
  };
  // Language keywords and builtins that HIP code may name without a header declaring them.
  for (const char* k : {"float", "double", "int", "unsigned", "long", "short", "char", "void", "sizeof", "const",
                        "static_cast", "reinterpret_cast", "max", "min", "abort", "assert", "printf", "malloc", "free",
                        "__restrict__"})
    declared.insert(k);
  for (const auto& e : map.entries()) {
    const bool library = std::find(more_libraries.begin(), more_libraries.end(), "hip" + e.family.substr(2)) != more_libraries.end();
    if (e.status == Status::unsupported || (!installable_family(e.family) && !library && e.kind != Kind::header) || !select(e)) continue;
    if (e.kind == Kind::header) {
      if (!(e.hip.starts_with("hip/") || e.hip.starts_with("hiprand/") || e.hip.starts_with("hipsparse/"))) continue;
      ++checked;
      if (!fs::exists(include / e.hip)) missing.push_back(fmt::format("{} -> {} ({})", e.cuda, e.hip, e.origin));
      continue;
    }
    ++checked;
    for (const auto& id : identifiers(e.hip))
      if (!is_declared(id)) missing.push_back(fmt::format("{} -> {} ({}): '{}' not declared", e.cuda, e.hip, e.origin, id));
  }
  return missing;
}

TEST(MapRows, HipNamesExistInTheInstalledHeaders) {
  for (const char* r : {"/usr/include/hip", "/usr/include/hiprand", "/usr/include/hipsparse"})
    if (!fs::exists(r)) GTEST_SKIP() << r << " missing: install libamdhip64-dev, libhiprand-dev, libhipsparse-dev";
  std::size_t checked = 0;
  auto missing = undeclared_hip_names(table(), "/usr/include", [](const ApiEntry&) { return true; }, checked);
  EXPECT_GT(checked, 500u);
  for (std::size_t i = 0; i < missing.size() && i < 50; ++i) ADD_FAILURE() << missing[i];
  EXPECT_TRUE(missing.empty()) << missing.size() << " HIP names not found";
}

// The rows HIP 6.2's and 6.4's layers add name what HIP 6.4's headers (sid's, unpacked by
// scripts/fetch-rocm-6.4) declare, hipBLAS 2.4's (ROCm 6.4) for the cuBLAS rows.
TEST(MapRows, Hip64LayerNamesExistInHip64Headers) {
  const fs::path include = fs::path(GPUPORT_SOURCE_DIR) / "build/rocm-6.4/usr/include";
  if (!fs::exists(include / "hip/hip_bf16.h")) GTEST_SKIP() << include << " missing: run scripts/fetch-rocm-6.4";
  const ApiMap& map = hip_table("6.4");
  std::size_t checked = 0;
  auto missing = undeclared_hip_names(
      map, include,
      [](const ApiEntry& e) {
        return e.origin.starts_with("hip-5.7/") || e.origin.starts_with("hip-6.2/") || e.origin.starts_with("hip-6.4/");
      },
      checked, {"hipblas", "hipblas-common"});
  EXPECT_GT(checked, 700u);
  for (std::size_t i = 0; i < missing.size() && i < 50; ++i) ADD_FAILURE() << missing[i];
  EXPECT_TRUE(missing.empty()) << missing.size() << " HIP names not found";
}

// The HIP 5.7 layer names what Debian 13's HIP 5.7 headers (scripts/fetch-rocm-headers) declare.
TEST(MapRows, Hip57LayerNamesExistInHip57Headers) {
  const fs::path include = fs::path(GPUPORT_SOURCE_DIR) / "build/rocm-headers/usr/include";
  if (!fs::exists(include / "hip/hip_version.h")) GTEST_SKIP() << include << " missing: run scripts/fetch-rocm-headers";
  const ApiMap& map = hip_table("5.7");
  std::size_t checked = 0;
  auto missing = undeclared_hip_names(map, include, [](const ApiEntry& e) { return e.origin.starts_with("hip-5.7/"); }, checked);
  EXPECT_GT(checked, 100u);
  for (std::size_t i = 0; i < missing.size() && i < 50; ++i) ADD_FAILURE() << missing[i];
  EXPECT_TRUE(missing.empty()) << missing.size() << " HIP names not found";
}


TEST(MapRows, CallRulesNameKnownFunctions) {
  for (const auto& rule : table().rules()) {
    const auto* e = table().find(rule.cuda);
    ASSERT_NE(e, nullptr) << rule.cuda << " (" << rule.origin << ") has call rules but no table row";
    EXPECT_NE(e->status, Status::unsupported) << rule.cuda;
  }
}

}  // namespace
}  // namespace gpuport::maps

namespace gpuport::maps {
namespace {

// Every roc* name the --roc tables use is declared in the roc* library headers of Debian 13
// (scripts/fetch-rocm-headers unpacks them into build/rocm-headers; scripts/bootstrap runs it),
// and every roc* header they name exists there.
TEST(MapRows, RocNamesExistInTheDebian13Headers) {
  const fs::path include = fs::path(GPUPORT_SOURCE_DIR) / "build/rocm-headers/usr/include";
  for (const char* lib : {"rocblas", "rocsparse", "rocrand", "rocsolver"})
    if (!fs::exists(include / lib)) GTEST_SKIP() << include / lib << " missing: run scripts/fetch-rocm-headers";
  std::set<std::string> declared;
  for (const char* lib : {"rocblas", "rocsparse", "rocrand", "rocsolver"}) {
    for (const auto& f : fs::recursive_directory_iterator(include / lib)) {
      if (!f.is_regular_file()) continue;
      auto content = read_file(f.path(), 64u << 20);
      ASSERT_TRUE(content.ok());
      auto ts = lex::lex(*content);
      for (const auto& t : ts.tokens())
        if (t.kind == lex::TokenKind::identifier) declared.insert(std::string(ts.text_of(t)));
    }
  }
  std::size_t checked = 0;
  std::vector<std::string> missing;
  for (const auto& e : roc_table().entries()) {
    if (!e.origin.starts_with("roc/") || e.status == Status::unsupported) continue;
    ++checked;
    if (e.kind == Kind::header) {
      if (!fs::exists(include / e.hip)) missing.push_back(fmt::format("{} -> {} ({})", e.cuda, e.hip, e.origin));
      continue;
    }
    for (const auto& id : identifiers(e.hip))
      if (!declared.count(id) && id != "float" && id != "double")
        missing.push_back(fmt::format("{} -> {} ({}): '{}' not declared", e.cuda, e.hip, e.origin, id));
  }
  EXPECT_GT(checked, 700u);
  for (std::size_t i = 0; i < missing.size() && i < 50; ++i) ADD_FAILURE() << missing[i];
  EXPECT_TRUE(missing.empty()) << missing.size() << " roc* names not found";
}

}  // namespace
}  // namespace gpuport::maps
