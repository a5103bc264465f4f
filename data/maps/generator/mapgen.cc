// gpuport-mapgen: derives the generated CUDA -> HIP API tables (data/maps/generated/*.tsv) from
// the headers installed on this machine. HIP's NVIDIA platform headers state the mapping
// explicitly (hipX is defined as, or implemented by calling, cudaY); the CUDA headers list every
// API name, so names without a HIP twin are emitted as `unsupported`. Headers are read with the
// project's lossless lexer; nothing here is evaluated by the preprocessor, so both branches of
// every #if are seen (only `#if 0` groups are skipped).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/file_io.h"
#include "common/text.h"
#include "lex/lexer.h"
#include "maps/api_map.h"

namespace {

namespace fs = std::filesystem;
using gpuport::lex::Token;
using gpuport::lex::TokenKind;

// ------------------------------------------------------------------------------------------
// SHA-256 (FIPS 180-4), so the tables can record exactly which header versions they came from.

std::string sha256_hex(std::string_view data) {
  static constexpr std::array<std::uint32_t, 64> k = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  std::string msg(data);
  const std::uint64_t bit_length = static_cast<std::uint64_t>(data.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back('\0');
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bit_length >> (i * 8)) & 0xff));
  for (std::size_t chunk = 0; chunk < msg.size(); chunk += 64) {
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(msg.data() + chunk + i * 4);
      w[i] = (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
    }
    for (int i = 16; i < 64; ++i) {
      std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto v = h;
    for (int i = 0; i < 64; ++i) {
      std::uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      std::uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      std::uint32_t t1 = v[7] + s1 + ch + k[i] + w[i];
      std::uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      std::uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      std::uint32_t t2 = s0 + maj;
      v = {t1 + t2, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
    }
    for (int i = 0; i < 8; ++i) h[i] += v[i];
  }
  std::string out;
  for (auto x : h) out += fmt::format("{:08x}", x);
  return out;
}

// ------------------------------------------------------------------------------------------
// Header files as significant tokens: code outside directives, and #define directives.

struct Tok {
  std::string_view text;
  TokenKind kind = TokenKind::unknown;
  std::uint32_t offset = 0;
  bool spaced = false;  // trivia between this token and the previous one

  bool ident() const { return kind == TokenKind::identifier; }
  bool is(std::string_view p) const { return kind == TokenKind::punctuator && text == p; }
};

struct Macro {
  std::string name;
  bool function_like = false;
  std::vector<std::string> params;
  std::vector<Tok> body;
  std::uint32_t offset = 0;
};

struct HeaderFile {
  fs::path path;
  std::string text;
  std::string sha256;
  std::vector<Tok> code;
  std::vector<Macro> macros;
  std::unique_ptr<gpuport::LineIndex> lines;

  std::uint32_t line_of(std::uint32_t offset) const { return lines->locate(offset).line; }
};

std::unique_ptr<HeaderFile> read_header(const fs::path& path) {
  auto content = gpuport::read_file(path, 64u << 20);
  if (!content) return nullptr;
  auto file = std::make_unique<HeaderFile>();
  file->path = path;
  file->text = std::move(*content);
  file->sha256 = sha256_hex(file->text);
  file->lines = std::make_unique<gpuport::LineIndex>(file->text);
  const auto stream = gpuport::lex::lex(file->text);
  const auto& tokens = stream.tokens();
  bool spaced = false;
  std::vector<Tok> directive;
  auto finish_directive = [&] {
    // # define NAME [ ( params ) ] body
    if (directive.size() >= 3 && directive[1].text == "define" && directive[2].ident()) {
      Macro m;
      m.name = directive[2].text;
      m.offset = directive[2].offset;
      std::size_t i = 3;
      if (i < directive.size() && directive[i].is("(") && !directive[i].spaced) {
        m.function_like = true;
        for (++i; i < directive.size() && !directive[i].is(")"); ++i)
          if (directive[i].ident() || directive[i].is("...")) m.params.emplace_back(directive[i].text);
        ++i;
      }
      for (; i < directive.size(); ++i) m.body.push_back(directive[i]);
      file->macros.push_back(std::move(m));
    }
    directive.clear();
  };
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.is_trivia()) {
      spaced = true;
      continue;
    }
    if (t.has(gpuport::lex::kInDisabledGroup)) continue;
    Tok tok{stream.text_of(t), t.kind, t.offset, spaced};
    spaced = false;
    if (t.has(gpuport::lex::kDirectiveHash)) {
      finish_directive();
      directive.push_back(tok);
    } else if (t.has(gpuport::lex::kInDirective)) {
      directive.push_back(tok);
    } else {
      finish_directive();
      file->code.push_back(tok);
    }
  }
  finish_directive();
  return file;
}

// ------------------------------------------------------------------------------------------
// Declarations found in a header.

enum class DeclKind : std::uint8_t { function, type, enumerator, object_macro, function_macro };

struct Decl {
  std::string name;
  DeclKind kind = DeclKind::function;
  bool deprecated = false;
  std::uint32_t offset = 0;
};

struct TypedefInfo {
  std::size_t begin = 0, end = 0;  // code indexes [typedef, ;)
  std::vector<std::string_view> names;
  std::vector<std::string_view> source_identifiers;  // identifiers of the aliased type
  bool pointer_or_compound = false;                  // '*', '{', '(' or '[' present
};

bool starts_upper(std::string_view s, std::size_t at) {
  return s.size() > at && s[at] >= 'A' && s[at] <= 'Z';
}

const std::set<std::string_view>& non_declarator_words() {
  static const std::set<std::string_view> words = {
      "return", "case", "sizeof", "new", "delete", "throw", "else", "do", "typeof", "decltype",
      "alignof", "co_return", "co_yield", "goto", "operator", "defined", "struct", "enum", "union",
      "class", "typedef", "static_assert", "if", "while", "for", "switch", "using", "namespace"};
  return words;
}

bool has_deprecated_word(const std::vector<Tok>& code, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end && i < code.size(); ++i)
    if (code[i].ident() && code[i].text.find("DEPRECATED") != std::string_view::npos) return true;
  return false;
}

// Index of the token closing the group opened at `open` ('(', '{' or '['), or code.size().
std::size_t match_close(const std::vector<Tok>& code, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i].is("(") || code[i].is("{") || code[i].is("[")) ++depth;
    if (code[i].is(")") || code[i].is("}") || code[i].is("]"))
      if (--depth == 0) return i;
  }
  return code.size();
}

// An identifier followed by '(' declares a function when a type or specifier precedes it
// (`cudaError_t CUDARTAPI cudaMalloc(`), not an operator, `return` or a statement boundary.
bool in_declarator_position(const std::vector<Tok>& code, std::size_t i) {
  if (i == 0) return false;
  const Tok& p = code[i - 1];
  if (p.ident()) return !non_declarator_words().contains(p.text);
  if ((p.is("*") || p.is("&") || p.is("&&")) && i >= 2)
    return code[i - 2].ident() || code[i - 2].is("*") || code[i - 2].is("&");
  return false;
}

TypedefInfo parse_typedef(const std::vector<Tok>& code, std::size_t at) {
  TypedefInfo info;
  info.begin = at;
  std::size_t end = at;
  for (; end < code.size() && !code[end].is(";"); ++end)
    if (code[end].is("(") || code[end].is("{") || code[end].is("[")) end = match_close(code, end);
  info.end = end;
  std::vector<std::vector<std::string_view>> segments(1);
  for (std::size_t k = at + 1; k < end; ++k) {
    const Tok& t = code[k];
    if (t.is("{") || t.is("[")) {
      info.pointer_or_compound = true;
      k = match_close(code, k);
      continue;
    }
    if (t.is("(")) {
      info.pointer_or_compound = true;
      const std::size_t close = match_close(code, k);
      bool pointer = false;
      std::string_view last;
      for (std::size_t j = k + 1; j < close; ++j) {
        if (code[j].is("*") || code[j].is("^") || code[j].is("&")) pointer = true;
        if (code[j].ident()) last = code[j].text;
      }
      if (pointer && close + 1 < end && code[close + 1].is("(") && !last.empty()) {
        info.names = {last};  // function pointer typedef: typedef R (CB *name)(args);
        return info;
      }
      // An attribute or macro call (__align__(8)): drop the name that called it.
      if (k > at + 1 && code[k - 1].ident() && !segments.back().empty()) segments.back().pop_back();
      k = close;
      continue;
    }
    if (t.is("*") || t.is("&")) info.pointer_or_compound = true;
    if (t.is(",")) {
      segments.emplace_back();
      continue;
    }
    if (t.ident()) segments.back().push_back(t.text);
  }
  for (std::size_t s = 0; s < segments.size(); ++s) {
    if (segments[s].empty()) continue;
    info.names.push_back(segments[s].back());
    if (s == 0)
      for (std::size_t j = 0; j + 1 < segments[s].size(); ++j) info.source_identifiers.push_back(segments[s][j]);
  }
  return info;
}

// All declarations of a header: functions, types (typedef names, struct/union/enum tags),
// enumerators and macros, plus types declared through same-file macro invocations such as
// DEFINE_HIPRAND_STATE(hiprandState, curandState).
std::vector<Decl> scan_declarations(const HeaderFile& file) {
  std::vector<Decl> decls;
  const auto& c = file.code;
  std::map<std::string_view, const Macro*> function_macros;
  for (const auto& m : file.macros) {
    Decl d;
    d.name = m.name;
    d.kind = m.function_like ? DeclKind::function_macro : DeclKind::object_macro;
    d.offset = m.offset;
    decls.push_back(std::move(d));
    if (m.function_like) function_macros[m.name] = &m;
  }
  auto add = [&](std::string_view name, DeclKind kind, bool deprecated, std::uint32_t offset) -> Decl& {
    Decl d;
    d.name = name;
    d.kind = kind;
    d.deprecated = deprecated;
    d.offset = offset;
    decls.push_back(std::move(d));
    return decls.back();
  };
  int paren = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Tok& t = c[i];
    if (t.is("(")) ++paren;
    if (t.is(")")) paren = std::max(0, paren - 1);
    if (t.is("{") || t.is("}")) paren = 0;
    if (!t.ident()) continue;
    if (t.text == "typedef") {
      auto info = parse_typedef(c, i);
      const bool deprecated = has_deprecated_word(c, info.begin, info.end);
      for (auto name : info.names) add(name, DeclKind::type, deprecated, t.offset);
      continue;
    }
    if (t.text == "struct" || t.text == "union" || t.text == "class" || t.text == "enum") {
      std::vector<std::string_view> run;
      std::size_t k = i + 1;
      while (k < c.size() && c[k].ident()) {
        if (c[k].text == "class" || c[k].text == "struct") {
          ++k;
          continue;
        }
        if (k + 1 < c.size() && c[k + 1].is("(")) {  // attribute macro, or a function after the tag
          k = match_close(c, k + 1) + 1;
          continue;
        }
        run.push_back(c[k].text);
        ++k;
      }
      if (k >= c.size()) continue;
      const bool body = c[k].is("{") || c[k].is(":");
      if (run.empty() && !body) continue;
      std::string_view tag;
      if (run.empty()) {
        // typedef enum { NVRTC_SUCCESS, ... } nvrtcResult;
      } else if (body) {
        tag = run.back();
      } else {
        for (auto r : run)
          if (!r.starts_with("_")) {
            tag = r;
            break;
          }
      }
      if (!tag.empty()) add(tag, DeclKind::type, has_deprecated_word(c, i, k), c[i + 1].offset);
      if (t.text == "enum" && body) {
        std::size_t open = k;
        while (open < c.size() && !c[open].is("{") && !c[open].is(";")) ++open;
        if (open >= c.size() || !c[open].is("{")) continue;
        const std::size_t close = match_close(c, open);
        bool expect = true;
        for (std::size_t j = open + 1; j < close; ++j) {
          if (c[j].is("(") || c[j].is("[")) {
            j = match_close(c, j);
            continue;
          }
          if (c[j].is(",")) {
            expect = true;
            continue;
          }
          if (expect && c[j].ident()) {
            std::size_t e = j;
            while (e < close && !c[e].is(",")) ++e;
            add(c[j].text, DeclKind::enumerator, has_deprecated_word(c, j + 1, e), c[j].offset);
          }
          expect = false;
        }
      }
      continue;
    }
    if (i + 1 >= c.size() || !c[i + 1].is("(") || paren != 0) continue;
    if (in_declarator_position(c, i)) {
      std::size_t begin = i;
      while (begin > 0 && !c[begin - 1].is(";") && !c[begin - 1].is("}") && !c[begin - 1].is("{")) --begin;
      const std::size_t close = match_close(c, i + 1);
      std::size_t end = close;
      while (end < c.size() && !c[end].is(";") && !c[end].is("{")) ++end;
      add(t.text, DeclKind::function, has_deprecated_word(c, begin, end), t.offset);
      continue;
    }
    // A same-file macro whose body declares its parameters as types.
    if (auto it = function_macros.find(t.text); it != function_macros.end()) {
      const Macro& m = *it->second;
      const std::size_t close = match_close(c, i + 1);
      std::vector<std::string_view> args;
      bool simple = true;
      for (std::size_t j = i + 2; j < close; ++j) {
        if (c[j].is(",")) continue;
        if (c[j].ident() && (j + 1 == close || c[j + 1].is(","))) args.push_back(c[j].text);
        else simple = false;
      }
      if (!simple || args.size() != m.params.size()) continue;
      for (std::size_t p = 0; p < m.params.size(); ++p) {
        for (std::size_t b = 0; b < m.body.size(); ++b) {
          if (!m.body[b].ident() || m.body[b].text != m.params[p]) continue;
          const bool after_keyword = b > 0 && (m.body[b - 1].text == "struct" || m.body[b - 1].text == "class" ||
                                               m.body[b - 1].text == "union");
          if (after_keyword) add(args[p], DeclKind::type, false, c[i].offset);
          if (b + 2 < m.body.size() && m.body[b + 1].is("##") && m.body[b + 2].ident())
            add(std::string(args[p]) + std::string(m.body[b + 2].text), DeclKind::type, false, c[i].offset);
        }
      }
    }
  }
  return decls;
}

// ------------------------------------------------------------------------------------------
// Families and name rules.

struct FamilySpec {
  std::string family;
  std::vector<std::string> files;  // file names or "prefix*.h" patterns under each CUDA dir
  std::vector<std::string> device_files;  // functions declared here are device functions
  bool (*accepts)(std::string_view);
  std::vector<std::pair<std::string, std::string>> twin_prefixes;  // cuda prefix -> HIP prefix for stem matching
  std::string hip_group;  // which HIP headers the family is matched against
};

bool prefix_upper(std::string_view n, std::string_view prefix) {
  return n.starts_with(prefix) && starts_upper(n, prefix.size());
}

const std::vector<FamilySpec>& families() {
  static const std::vector<FamilySpec> specs = {
      {"library", {"library_types.h"}, {},
       [](std::string_view n) {
         return prefix_upper(n, "cuda") || n.starts_with("CUDA_") || n.starts_with("libraryPropertyType");
       },
       {{"cuda", "hip"}, {"CUDA_", "HIP_"}},
       "hip"},
      {"complex", {"cuComplex.h"}, {},
       [](std::string_view n) { return prefix_upper(n, "cu") || n.starts_with("make_cu"); },
       {{"make_cu", "make_hip"}, {"cu", "hip"}},
       "hip"},
      {"rtc", {"nvrtc.h"}, {},
       [](std::string_view n) { return n.starts_with("nvrtc") || n.starts_with("NVRTC_"); },
       {{"nvrtc", "hiprtc"}, {"NVRTC_", "HIPRTC_"}},
       "hip"},
      {"curand", {"curand.h", "curand_*.h"}, {"curand_*.h"},
       [](std::string_view n) {
         return n == "curand" || prefix_upper(n, "curand") ||
                (n.size() > 6 && n.starts_with("curand") && std::isdigit(static_cast<unsigned char>(n[6]))) || n.starts_with("curand_") || n.starts_with("CURAND_");
       },
       {{"curand", "hiprand"}, {"CURAND_", "HIPRAND_"}},
       "hiprand"},
      {"cusparse", {"cusparse.h"}, {},
       [](std::string_view n) { return prefix_upper(n, "cusparse") || n.starts_with("CUSPARSE_"); },
       {{"cusparse", "hipsparse"}, {"CUSPARSE_", "HIPSPARSE_"}},
       "hipsparse"},
      {"runtime",
       {"cuda_runtime_api.h", "driver_types.h", "vector_types.h", "surface_types.h", "texture_types.h",
        "channel_descriptor.h", "driver_functions.h", "cuda_profiler_api.h", "cuda_runtime.h", "cuda_device_runtime_api.h"},
       {},
       [](std::string_view n) {
         return prefix_upper(n, "cuda") || n.starts_with("CUDA_") || n.starts_with("CUDART_") ||
                prefix_upper(n, "make_cuda");
       },
       {{"make_cuda", "make_hip"}, {"cuda", "hip"}, {"CUDA_", "HIP_"}},
       "hip"},
      // math_constants.h: CUDART_INF_F -> HIP_INF_F (hip/hip_math_constants.h, ROCm 5.7 and later).
      {"math-constants", {"math_constants.h"}, {},
       [](std::string_view n) { return n.starts_with("CUDART_"); },
       {{"CUDART_", "HIP_"}},
       "hip"},
      // Driver API: no stem matching for cuX/CUx/CU_X (same names, different signatures);
      // CUDA_X structs and constants share HIP's HIP_X layout.
      {"driver", {"cuda.h", "cudaProfiler.h"}, {},
       [](std::string_view n) {
         return prefix_upper(n, "cu") || (n.starts_with("CU") && n.size() > 2 && (std::isalpha(static_cast<unsigned char>(n[2])) || n[2] == '_'));
       },
       {{"CUDA_", "HIP_"}},
       "hip"},
  };
  return specs;
}

bool glob_match(std::string_view pattern, std::string_view name) {
  auto star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == name;
  auto head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return name.size() >= head.size() + tail.size() && name.starts_with(head) && name.ends_with(tail);
}

bool is_hip_name(std::string_view n) {
  return n.starts_with("hip") || n.starts_with("HIP") || n.starts_with("make_hip");
}

bool is_cuda_prefixed(std::string_view n) {
  return n.starts_with("cuda") || n.starts_with("CUDA") || prefix_upper(n, "cu") || n.starts_with("CU") ||
         n.starts_with("curand") || n.starts_with("CURAND") || n.starts_with("cusparse") ||
         n.starts_with("CUSPARSE") || n.starts_with("nvrtc") || n.starts_with("NVRTC") || n.starts_with("make_cu") ||
         n.starts_with("libraryPropertyType");
}

std::string family_by_prefix(std::string_view n) {
  if (n.starts_with("curand") || n.starts_with("CURAND")) return "curand";
  if (n.starts_with("cusparse") || n.starts_with("CUSPARSE")) return "cusparse";
  if (n.starts_with("nvrtc") || n.starts_with("NVRTC")) return "rtc";
  if (n.starts_with("cuda") || n.starts_with("CUDA") || n.starts_with("make_cuda")) return "runtime";
  return "driver";
}

// Names that are part of the header's machinery rather than its API.
bool internal_name(std::string_view n) {
  return n.starts_with("_") || n.ends_with("_H") || n.ends_with("_H_") || n.ends_with("_HPP") ||
         n.ends_with("_INCLUDED") || n.ends_with("_ptds") || n.ends_with("_ptsz");
}

// cuMemAlloc_v2 when cuMemAlloc exists: the versioned spelling behind a user-facing name.
std::optional<std::string_view> versioned_base(std::string_view n) {
  auto pos = n.rfind("_v");
  if (pos == std::string_view::npos || pos + 2 >= n.size()) return std::nullopt;
  for (std::size_t i = pos + 2; i < n.size(); ++i)
    if (n[i] < '0' || n[i] > '9') return std::nullopt;
  return n.substr(0, pos);
}

int kind_rank(DeclKind k) {
  switch (k) {
    case DeclKind::function: return 0;
    case DeclKind::type: return 1;
    case DeclKind::enumerator: return 2;
    case DeclKind::object_macro: return 3;
    case DeclKind::function_macro: return 4;
  }
  return 5;
}

// ------------------------------------------------------------------------------------------
// The model: CUDA names, HIP names, explicit mappings.

struct CudaName {
  std::string name;
  std::string family;
  DeclKind kind = DeclKind::object_macro;
  bool deprecated = false;
  bool device = false;
  bool empty_macro = false;
  std::set<std::size_t> dirs;  // indexes of the CUDA include dirs declaring it
};

struct HipName {
  DeclKind kind = DeclKind::object_macro;
  bool deprecated = false;
  bool amd = false;       // declared for the AMD platform (not only in nvidia_detail / *_nvcc.h)
  std::string amd_file;   // first AMD-side file declaring it
};

struct Candidate {
  std::string hip;
  std::string source;  // "nvidia_hip_runtime_api.h define"
  std::size_t order = 0;
  bool weak = false;  // one of several case labels sharing a return
  std::optional<DeclKind> hip_form;
  bool device = false;
};

struct Row {
  std::string cuda, hip, kind, family, status, note;
};

std::string row_kind(DeclKind k, bool device) {
  switch (k) {
    case DeclKind::function: return device ? "device" : "function";
    case DeclKind::type: return "type";
    case DeclKind::enumerator:
    case DeclKind::object_macro: return "constant";
    case DeclKind::function_macro: return "macro";
  }
  return "constant";
}

class Generator {
 public:
  Generator(fs::path hip_include, std::vector<fs::path> cuda_includes)
      : hip_include_(std::move(hip_include)), cuda_includes_(std::move(cuda_includes)) {}

  bool run(const fs::path& out, const std::string& command);

  // A newer HIP's layer (data/maps/hip-<version>/generated): only the rows these headers map
  // that `base` (the tables for the default HIP) lacks or has as unsupported, each note saying
  // which HIP the name needs; no spellings file (the base one covers the same CUDA names).
  void keep_only_new_over(const gpuport::maps::ApiMap* base, std::string version) {
    base_ = base;
    version_ = std::move(version);
  }

 private:
  const gpuport::maps::ApiMap* base_ = nullptr;
  std::string version_;
  HeaderFile* load(const fs::path& path) {
    auto it = files_.find(path);
    if (it != files_.end()) return it->second.get();
    auto file = read_header(path);
    auto* raw = file.get();
    files_.emplace(path, std::move(file));
    return raw;
  }
  std::vector<fs::path> list(const fs::path& dir, const std::vector<std::string>& patterns) const;
  void collect_cuda();
  void collect_hip();
  void collect_spellings(const HeaderFile& file);
  void collect_explicit(const HeaderFile& file, std::string_view label);
  void add_candidate(std::string_view cuda, std::string_view hip, std::string source, bool weak,
                     std::optional<DeclKind> form, bool device);
  std::string twin(std::string_view cuda, std::string_view family, bool ranking) const;
  std::vector<Row> resolve();

  fs::path hip_include_;
  std::vector<fs::path> cuda_includes_;
  std::map<fs::path, std::unique_ptr<HeaderFile>> files_;
  std::map<std::string, std::vector<fs::path>> inputs_by_family_;
  std::map<std::string, std::vector<fs::path>> hip_inputs_by_group_;
  std::map<std::string, CudaName, std::less<>> cuda_;
  std::set<std::string, std::less<>> alias_targets_;
  // Spellings of one CUDA type or entry point: a typedef without a pointer
  // (typedef struct X_st {...} X_v2; typedef X_v2 X;) or a versioning macro (#define cuX cuX_v2).
  // Name -> the other names of its family, for the *_st/_enum/_union/_vN rows.
  std::map<std::string, std::set<std::string>, std::less<>> spellings_;
  std::vector<Row> spellings_out_;  // cuda = the spelling, hip = the name it spells, kind = family, family = "tag" for a tag
  // Handle typedefs to the struct they point to, on each side (CUstream -> CUstream_st).
  std::map<std::string, std::string> cuda_pointees_, hip_pointees_;
  // Typedef names to their struct/enum/union tag, on each side (HIPaddress_mode ->
  // HIPaddress_mode_enum): a CUDA tag maps to the tag of its HIP type where HIP has one.
  std::map<std::string, std::string> cuda_tags_, hip_tags_;
  bool write_hip_tags(const fs::path& out, const std::string& command);
  void add_spelling(std::string_view a, std::string_view b) {
    if (a == b) return;
    spellings_[std::string(a)].emplace(b);
    spellings_[std::string(b)].emplace(a);
  }
  std::map<std::string, HipName, std::less<>> hip_;
  std::map<std::string, std::vector<Candidate>, std::less<>> candidates_;
  std::size_t order_ = 0;
  std::string hip_version_ = "HIP";
  std::vector<std::string> warnings_;
};

std::vector<fs::path> Generator::list(const fs::path& dir, const std::vector<std::string>& patterns) const {
  std::vector<fs::path> out;
  std::error_code ec;
  std::vector<fs::path> entries;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    if (it->is_regular_file()) entries.push_back(it->path());
  std::sort(entries.begin(), entries.end());
  for (const auto& pattern : patterns)
    for (const auto& e : entries)
      if (glob_match(pattern, e.filename().string()) && std::find(out.begin(), out.end(), e) == out.end())
        out.push_back(e);
  return out;
}

// typedef [struct|enum|union] SOURCE [{...}] NAME;  -- one declarator, no pointer, no function:
// NAME and SOURCE spell the same type.
void Generator::collect_spellings(const HeaderFile& file) {
  const auto& c = file.code;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!c[i].ident() || c[i].text != "typedef") continue;
    std::vector<std::string_view> words;
    bool plain = true;
    std::size_t k = i + 1;
    for (; k < c.size() && !c[k].is(";"); ++k) {
      if (c[k].is("{")) {
        k = match_close(c, k);
        continue;
      }
      if (c[k].is("*") || c[k].is("&") || c[k].is("(") || c[k].is("[") || c[k].is(",")) plain = false;
      // Attribute macros (__device_builtin__, __align__) are no part of the type's name.
      if (c[k].ident() && !c[k].text.starts_with("__")) words.push_back(c[k].text);
    }
    i = k;
    if (!plain || words.size() < 2) continue;
    const std::string_view name = words.back();
    std::string_view source;
    for (std::size_t w = 0; w + 1 < words.size(); ++w)
      if (words[w] != "struct" && words[w] != "enum" && words[w] != "union" && words[w] != "const") source = words[w];
    // Only names of the API itself: `typedef unsigned int CUdeviceptr_v1` is another type.
    if (!source.empty() && words.size() <= 4 && source != "int" && source != "long" && source != "unsigned" &&
        source != "char" && source != "short")
      add_spelling(name, source);
  }
}

// `typedef struct TAG *NAME;`: NAME -> TAG (CUstream -> CUstream_st, hipStream_t -> ihipStream_t).
void collect_pointees(const HeaderFile& file, std::map<std::string, std::string>& out) {
  const auto& c = file.code;
  for (std::size_t i = 0; i + 5 < c.size(); ++i) {
    if (!(c[i].ident() && c[i].text == "typedef")) continue;
    std::size_t k = i + 1;
    while (k < c.size() && c[k].ident() && c[k].text.starts_with("__")) ++k;  // __device_builtin__
    if (!(k + 4 < c.size() && c[k].text == "struct" && c[k + 1].ident() && c[k + 2].is("*") && c[k + 3].ident() &&
          c[k + 4].is(";")))
      continue;
    out.try_emplace(std::string(c[k + 3].text), std::string(c[k + 1].text));
  }
}

// `typedef [struct|enum|union] TAG [{...}] NAME;` (one declarator, no pointer): NAME -> TAG, the
// tag a C declaration `struct TAG x;` needs (HIPaddress_mode -> HIPaddress_mode_enum).
void collect_tags(const HeaderFile& file, std::map<std::string, std::string>& out) {
  const auto& c = file.code;
  auto skip_attributes = [&](std::size_t k) {
    while (k < c.size() && c[k].ident() && c[k].text.starts_with("__")) {
      ++k;
      if (k < c.size() && c[k].is("(")) k = match_close(c, k) + 1;  // __align__(8)
    }
    return k;
  };
  for (std::size_t i = 0; i + 3 < c.size(); ++i) {
    if (!(c[i].ident() && c[i].text == "typedef")) continue;
    std::size_t k = skip_attributes(i + 1);
    if (!(k + 2 < c.size() && c[k].ident() && (c[k].text == "struct" || c[k].text == "enum" || c[k].text == "union")))
      continue;
    k = skip_attributes(k + 1);
    if (!(k + 2 < c.size() && c[k].ident())) continue;
    const std::string_view tag = c[k].text;
    ++k;
    if (k < c.size() && c[k].is("{")) k = match_close(c, k) + 1;
    k = skip_attributes(k);
    if (!(k + 1 < c.size() && c[k].ident() && c[k + 1].is(";")) || c[k].text == tag) continue;
    out.try_emplace(std::string(c[k].text), std::string(tag));
  }
}

void Generator::collect_cuda() {
  for (const auto& spec : families()) {
    for (std::size_t d = 0; d < cuda_includes_.size(); ++d) {
      for (const auto& path : list(cuda_includes_[d], spec.files)) {
        HeaderFile* file = load(path);
        if (!file) {
          warnings_.push_back(fmt::format("cannot read {}", path.string()));
          continue;
        }
        inputs_by_family_[spec.family].push_back(path);
        bool device_file = false;
        for (const auto& p : spec.device_files) device_file |= glob_match(p, path.filename().string());
        for (const auto& m : file->macros) {
          if (m.function_like || m.body.size() != 1 || !m.body[0].ident()) continue;
          std::string_view target = m.body[0].text;
          if (target != m.name && target.starts_with(m.name)) {
            alias_targets_.emplace(target);
            add_spelling(m.name, target);
          }
        }
        collect_spellings(*file);
        collect_tags(*file, cuda_tags_);
        collect_pointees(*file, cuda_pointees_);
        for (auto& decl : scan_declarations(*file)) {
          if (!spec.accepts(decl.name) || internal_name(decl.name)) continue;
          auto [it, inserted] = cuda_.try_emplace(decl.name);
          CudaName& n = it->second;
          if (inserted) {
            n.name = decl.name;
            n.family = spec.family;
            n.kind = decl.kind;
          } else if (n.family != spec.family) {
            continue;  // the first family that declares a name owns it
          }
          if (kind_rank(decl.kind) < kind_rank(n.kind)) n.kind = decl.kind;
          // The device runtime (cuda_device_runtime_api.h) deprecates device-side calls of host
          // APIs such as cudaDeviceSynchronize; that says nothing about the host API.
          if (path.filename() != "cuda_device_runtime_api.h") n.deprecated |= decl.deprecated;
          n.device |= device_file && decl.kind == DeclKind::function;
          n.dirs.insert(d);
          if (decl.kind == DeclKind::object_macro) {
            for (const auto& m : file->macros)
              if (m.name == decl.name && !m.function_like && m.body.empty()) n.empty_macro = true;
          }
        }
      }
    }
  }
}

void Generator::collect_hip() {
  struct Group {
    std::string name;
    fs::path dir;
    std::vector<std::string> patterns;
  };
  const std::vector<Group> groups = {
      {"hip", hip_include_ / "hip", {"*.h"}},
      {"hip", hip_include_ / "hip" / "amd_detail", {"*.h", "*.hpp"}},
      {"hip", hip_include_ / "hip" / "nvidia_detail", {"*.h"}},
      {"hiprand", hip_include_ / "hiprand", {"*.h"}},
      {"hipsparse", hip_include_ / "hipsparse", {"*.h"}},
  };
  for (const auto& g : groups) {
    for (const auto& path : list(g.dir, g.patterns)) {
      HeaderFile* file = load(path);
      if (!file) {
        warnings_.push_back(fmt::format("cannot read {}", path.string()));
        continue;
      }
      hip_inputs_by_group_[g.name].push_back(path);
      const bool nvidia = path.parent_path().filename() == "nvidia_detail" ||
                          path.filename().string().ends_with("_nvcc.h");
      if (!nvidia) {
        collect_pointees(*file, hip_pointees_);
        collect_tags(*file, hip_tags_);
      }
      for (auto& decl : scan_declarations(*file)) {
        if (decl.name.starts_with("_")) continue;
        auto [it, inserted] = hip_.try_emplace(decl.name);
        HipName& h = it->second;
        if (inserted || kind_rank(decl.kind) < kind_rank(h.kind)) h.kind = decl.kind;
        h.deprecated |= decl.deprecated;
        if (!nvidia && !h.amd) {
          h.amd = true;
          h.amd_file = path.filename().string();
        }
      }
      if (path.filename() == "hip_version.h") {
        std::string major, minor;
        for (const auto& m : file->macros) {
          if (m.body.size() != 1) continue;
          if (m.name == "HIP_VERSION_MAJOR") major = m.body[0].text;
          if (m.name == "HIP_VERSION_MINOR") minor = m.body[0].text;
        }
        if (!major.empty()) hip_version_ = fmt::format("HIP {}.{}", major, minor);
      }
      if (nvidia) collect_explicit(*file, path.filename().string());
    }
  }
}

void Generator::add_candidate(std::string_view cuda, std::string_view hip, std::string source, bool weak,
                              std::optional<DeclKind> form, bool device) {
  auto& list = candidates_[std::string(cuda)];
  for (const auto& c : list)
    if (c.hip == hip) return;
  list.push_back(Candidate{std::string(hip), std::move(source), order_++, weak, form, device});
}

// The explicit facts of HIP's NVIDIA platform headers: hipX is defined as, aliases, wraps or
// converts to its CUDA twin.
void Generator::collect_explicit(const HeaderFile& file, std::string_view label) {
  const auto& c = file.code;
  const bool device_file = label.find("kernel") != std::string_view::npos;
  // #define hipX cudaY
  for (const auto& m : file.macros) {
    if (!is_hip_name(m.name)) continue;
    if (!m.function_like && m.body.size() == 1 && m.body[0].ident() && is_cuda_prefixed(m.body[0].text)) {
      add_candidate(m.body[0].text, m.name, fmt::format("{} define", label), false, DeclKind::object_macro, false);
    } else if (m.function_like) {
      std::set<std::string_view> called;
      for (std::size_t b = 0; b + 1 < m.body.size(); ++b)
        if (m.body[b].ident() && is_cuda_prefixed(m.body[b].text) && m.body[b + 1].is("(")) called.insert(m.body[b].text);
      if (called.size() == 1)
        add_candidate(*called.begin(), m.name, fmt::format("{} macro", label), false, DeclKind::function_macro, false);
    }
  }
  std::map<std::string_view, const Macro*> function_macros;
  for (const auto& m : file.macros)
    if (m.function_like) function_macros[m.name] = &m;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Tok& t = c[i];
    if (!t.ident()) continue;
    // typedef cudaY hipX;  typedef enum cudaY hipX;
    if (t.text == "typedef") {
      auto info = parse_typedef(c, i);
      if (info.pointer_or_compound || info.names.size() != 1 || !is_hip_name(info.names[0])) continue;
      std::vector<std::string_view> sources;
      for (auto s : info.source_identifiers)
        if (s != "struct" && s != "enum" && s != "union" && s != "const") sources.push_back(s);
      if (sources.size() == 1 && is_cuda_prefixed(sources[0]))
        add_candidate(sources[0], info.names[0], fmt::format("{} typedef", label), false, DeclKind::type, false);
      continue;
    }
    // case cudaA: return hipB;   case hipB: return cudaA;
    if (t.text == "case") {
      if (i > 0 && c[i - 1].is(":")) continue;  // handled with the first label of the group
      std::vector<std::string_view> labels;
      std::size_t j = i;
      while (j + 2 < c.size() && c[j].text == "case" && c[j + 1].ident() && c[j + 2].is(":")) {
        labels.push_back(c[j + 1].text);
        j += 3;
      }
      // The group's value: `return X;` or `v = X; break;`.
      std::string_view result;
      if (labels.empty() || j + 4 >= c.size()) continue;
      if (c[j].text == "return" && c[j + 1].ident() && c[j + 2].is(";")) result = c[j + 1].text;
      else if (c[j].ident() && c[j + 1].is("=") && c[j + 2].ident() && c[j + 3].is(";") && c[j + 4].text == "break")
        result = c[j + 2].text;
      else continue;
      const std::string source = fmt::format("{} switch", label);
      if (is_hip_name(result)) {
        for (auto l : labels)
          if (is_cuda_prefixed(l)) add_candidate(l, result, source, labels.size() > 1, DeclKind::enumerator, false);
      } else if (is_cuda_prefixed(result)) {
        for (auto l : labels)
          if (is_hip_name(l)) add_candidate(result, l, source, false, DeclKind::enumerator, false);
      }
      continue;
    }
    if (i + 1 >= c.size() || !c[i + 1].is("(")) continue;
    // DEFINE_HIPRAND_STATE(hiprandState, curandState)
    if (auto it = function_macros.find(t.text); it != function_macros.end() && !in_declarator_position(c, i)) {
      const std::size_t close = match_close(c, i + 1);
      std::vector<std::string_view> hips, cudas;
      for (std::size_t j = i + 2; j < close; ++j) {
        if (!c[j].ident()) continue;
        if (is_hip_name(c[j].text)) hips.push_back(c[j].text);
        else if (is_cuda_prefixed(c[j].text)) cudas.push_back(c[j].text);
      }
      if (hips.size() == 1 && cudas.size() == 1)
        add_candidate(cudas[0], hips[0], fmt::format("{} {}", label, t.text), false, DeclKind::type, false);
      i = close;
      continue;
    }
    // hipX(...) { ... cudaY(...) ... }
    if (!is_hip_name(t.text) || !in_declarator_position(c, i)) continue;
    const std::size_t close = match_close(c, i + 1);
    std::size_t open = close;
    while (open < c.size() && !c[open].is(";") && !c[open].is("{")) ++open;
    if (open >= c.size() || !c[open].is("{")) continue;
    const std::size_t end = match_close(c, open);
    std::vector<std::string_view> called;
    for (std::size_t j = open + 1; j + 1 < end; ++j) {
      if (!c[j].ident() || !c[j + 1].is("(") || !is_cuda_prefixed(c[j].text)) continue;
      // Conversion helpers (nvrtcResultTohiprtcResult) belong to HIP, not to the CUDA API.
      if (c[j].text.find("hip") != std::string_view::npos) continue;
      if (j > 0 && (c[j - 1].is(".") || c[j - 1].is("->") || c[j - 1].is("::"))) continue;
      if (std::find(called.begin(), called.end(), c[j].text) == called.end()) called.push_back(c[j].text);
    }
    std::string_view pick;
    if (called.size() == 1) {
      pick = called[0];
    } else if (called.size() > 1) {
      for (auto name : called) {
        auto f = cuda_.find(name);
        const std::string family = f != cuda_.end() ? f->second.family : family_by_prefix(name);
        if (twin(name, family, true) == t.text) pick = name;
      }
      if (pick.empty())
        warnings_.push_back(fmt::format("{}:{}: {} calls {} CUDA functions ({}) and none matches its name; left out",
                                        file.path.string(), file.line_of(t.offset), t.text, called.size(),
                                        fmt::join(called, ", ")));
    }
    if (!pick.empty())
      add_candidate(pick, t.text, fmt::format("{} function body", label), false, DeclKind::function, device_file);
  }
}

// The HIP name a CUDA name would have by stem (cudaFoo -> hipFoo). With `ranking`, driver names
// get one too (cuFoo -> hipFoo), used only to choose among explicit candidates.
std::string Generator::twin(std::string_view cuda, std::string_view family, bool ranking) const {
  for (const auto& spec : families()) {
    if (spec.family != family) continue;
    auto prefixes = spec.twin_prefixes;
    if (ranking && family == "driver") prefixes = {{"CUDA_", "HIP_"}, {"CU_", "HIP_"}, {"cu", "hip"}, {"CU", "hip"}};
    for (const auto& [from, to] : prefixes)
      if (cuda.starts_with(from)) return to + std::string(cuda.substr(from.size()));
  }
  return {};
}

bool compatible(DeclKind cuda, DeclKind hip) {
  auto group = [](DeclKind k) {
    switch (k) {
      case DeclKind::function:
      case DeclKind::function_macro: return 0;
      case DeclKind::type: return 1;
      case DeclKind::enumerator: return 2;
      case DeclKind::object_macro: return 3;
    }
    return 3;
  };
  const int a = group(cuda), b = group(hip);
  return a == b || a == 3 || b == 3;
}

std::vector<Row> Generator::resolve() {
  std::vector<Row> rows;
  std::set<std::string, std::less<>> names;
  std::set<std::string, std::less<>> spelling_names;
  for (const auto& [name, n] : cuda_) {
    // Function-like macros are header machinery (CUSPARSE_DEPRECATED_REPLACE_WITH) unless HIP
    // maps them explicitly; empty macros are calling conventions or guards (CUDARTAPI).
    if (n.empty_macro || n.kind == DeclKind::function_macro) continue;
    if (name.find("DEPRECATED") != std::string::npos) continue;
    // Other spellings of a name (cuMemAlloc_v2, CUstream_st, CUaddress_mode_enum): rows of their
    // own only through the name they spell (below).
    if (alias_targets_.contains(name) || (versioned_base(name) && cuda_.contains(*versioned_base(name))) ||
        (n.kind == DeclKind::type && (name.ends_with("_st") || name.ends_with("_enum") || name.ends_with("_union")))) {
      spelling_names.insert(name);
      continue;
    }
    names.insert(name);
  }
  // Explicit mappings count even for names the CUDA scan filtered out, but an empty macro
  // (CUDART_CB, a calling convention) is no API name whatever HIP maps it to.
  for (const auto& [name, list] : candidates_) {
    auto it = cuda_.find(name);
    if (it == cuda_.end()) {
      warnings_.push_back(fmt::format("{} (HIP: {}) is not declared in the scanned CUDA headers; left out", name,
                                      list.front().hip));
      continue;
    }
    if (!it->second.empty_macro) names.insert(name);
  }

  for (const auto& name : names) {
    auto cn = cuda_.find(name);
    const CudaName* cuda = cn != cuda_.end() ? &cn->second : nullptr;
    const std::string family = cuda ? cuda->family : family_by_prefix(name);
    const std::string stem_twin = twin(name, family, true);
    Row row;
    row.cuda = name;
    row.family = family;
    std::vector<std::string> notes;

    const Candidate* best = nullptr;
    const HipName* best_hip = nullptr;
    if (auto it = candidates_.find(name); it != candidates_.end()) {
      auto key = [&](const Candidate& c) {
        const HipName& h = hip_.at(c.hip);
        const bool stem = c.hip == stem_twin || c.hip == stem_twin + "_t";
        return std::tuple(h.deprecated, !h.amd, !stem, c.weak, c.order);
      };
      for (const auto& c : it->second) {
        if (!hip_.contains(c.hip)) continue;
        if (c.weak && c.hip != stem_twin) continue;  // case A: case B: return hipC; only stems count
        if (!best || key(c) < key(*best)) best = &c;
      }
      if (best) best_hip = &hip_.at(best->hip);
    }
    // Stem twins declared for the AMD platform (never cuX/CUx/CU_X of the driver API).
    std::string stem_hip;
    const HipName* stem_decl = nullptr;
    // Version macros describe the library, not the API: CUDA_VERSION is no HIP_VERSION.
    if (cuda && !name.ends_with("VERSION")) {
      const std::string t = twin(name, family, false);
      for (const auto& option : {t, t + "_t"}) {
        if (t.empty()) break;
        if (option != t && cuda->kind != DeclKind::type) break;
        auto h = hip_.find(option);
        if (h == hip_.end() || !h->second.amd || !compatible(cuda->kind, h->second.kind)) continue;
        stem_hip = option;
        stem_decl = &h->second;
        break;
      }
    }

    if (best && best_hip->amd) {
      row.hip = best->hip;
      notes.push_back(best->source);
    } else if (stem_decl) {
      row.hip = stem_hip;
      notes.push_back(fmt::format("stem match ({})", stem_decl->amd_file));
      best_hip = stem_decl;
    } else if (best) {
      row.hip = "-";
      notes.push_back(fmt::format("{} maps it to {}, which {} declares only for the NVIDIA platform",
                                  best->source, best->hip, hip_version_));
      best_hip = nullptr;
    } else {
      row.hip = "-";
      notes.push_back(fmt::format("no HIP twin in {} headers", hip_version_));
    }

    if (cuda) row.kind = row_kind(cuda->kind, cuda->device);
    else if (best && best->hip_form) {
      DeclKind form = *best->hip_form;
      if (form == DeclKind::object_macro) {
        // #define hipX cudaY: a type when the HIP name is one
        auto h = hip_.find(best->hip);
        form = h != hip_.end() && h->second.kind == DeclKind::type ? DeclKind::type : DeclKind::enumerator;
      }
      row.kind = row_kind(form, best->device);
    } else {
      row.kind = "constant";
    }

    const bool deprecated = cuda && cuda->deprecated;
    if (row.hip == "-") row.status = "unsupported";
    else row.status = deprecated ? "deprecated" : "supported";
    if (deprecated) notes.push_back("deprecated in CUDA");
    if (best_hip && best_hip->deprecated) notes.push_back("HIP name deprecated");
    if (cuda && !cuda->dirs.contains(0) && !cuda->dirs.empty())
      notes.push_back(fmt::format("only in {}", cuda_includes_[*cuda->dirs.begin()].string()));
    if (!cuda) notes.push_back("not declared in the scanned CUDA headers");
    row.note = fmt::format("{}", fmt::join(notes, "; "));
    rows.push_back(std::move(row));
  }

  // A spelling maps as the nearest name it spells that has a row (typedef chain or versioning
  // macro, breadth first, ties by name). The row itself is resolved when the tables are loaded
  // (spellings.tsv), after curated rows have overridden generated ones.
  std::set<std::string, std::less<>> has_row;
  for (const auto& r : rows) has_row.insert(r.cuda);
  spellings_out_.clear();
  for (const auto& name : spelling_names) {
    if (has_row.contains(name)) continue;
    std::set<std::string, std::less<>> seen = {name};
    std::vector<std::string> frontier = {name};
    std::string base;
    while (!frontier.empty() && base.empty()) {
      std::vector<std::string> next;
      for (const auto& f : frontier) {
        auto it = spellings_.find(f);
        if (it == spellings_.end()) continue;
        for (const auto& other : it->second) {
          if (!seen.insert(other).second) continue;
          next.push_back(other);
          if (base.empty() && has_row.contains(other)) base = other;
        }
      }
      frontier = std::move(next);
    }
    if (base.empty()) continue;
    auto cn = cuda_.find(name);
    const bool tag = std::any_of(cuda_tags_.begin(), cuda_tags_.end(), [&](const auto& t) { return t.second == name; });
    spellings_out_.push_back({name, base, cn != cuda_.end() ? cn->second.family : family_by_prefix(name), tag ? "tag" : "", "", ""});
  }
  return rows;
}

bool Generator::run(const fs::path& out, const std::string& command) {
  collect_cuda();
  if (cuda_.empty()) {
    fmt::print(stderr, "gpuport-mapgen: error: no CUDA API names found under the CUDA include folders\n");
    return false;
  }
  collect_hip();
  if (hip_.empty()) {
    fmt::print(stderr, "gpuport-mapgen: error: no HIP headers found under {}\n", hip_include_.string());
    return false;
  }
  auto rows = resolve();
  // The structs behind handle typedefs: CUstream_st* is CUstream, so it becomes what hipStream_t
  // points to (ihipStream_t), not hipStream_t (which would make CUstream_st* a pointer to one).
  {
    std::set<std::string> named;
    for (const auto& r : rows) named.insert(r.cuda);
    std::vector<Row> tags;
    for (const auto& r : rows) {
      if (r.kind != "type" || r.status == "unsupported") continue;
      auto c = cuda_pointees_.find(r.cuda);
      auto h = hip_pointees_.find(r.hip);
      if (c == cuda_pointees_.end() || h == hip_pointees_.end() || named.count(c->second)) continue;
      tags.push_back({c->second, h->second, "tag", r.family, "supported",
                      fmt::format("the struct {} points to ({} points to {})", r.cuda, r.hip, h->second)});
      named.insert(c->second);
    }
    for (auto& t : tags) rows.push_back(std::move(t));
  }
  for (const auto& w : warnings_) fmt::print(stderr, "gpuport-mapgen: note: {}\n", w);
  if (base_) {
    std::erase_if(rows, [&](const Row& r) {
      if (r.status == "unsupported") return true;
      const auto* known = base_->find(r.cuda);
      return known && known->status != gpuport::maps::Status::unsupported;
    });
    for (auto& r : rows)
      r.note = fmt::format("in the HIP {} headers, not the default tables{}{}", version_, r.note.empty() ? "" : "; ", r.note);
  }

  std::map<std::string, std::vector<const Row*>> by_family;
  for (const auto& spec : families()) by_family[spec.family];
  for (const auto& r : rows) by_family[r.family].push_back(&r);
  bool ok = true;
  for (const auto& spec : families()) {
    auto& list = by_family[spec.family];
    std::sort(list.begin(), list.end(), [](const Row* a, const Row* b) { return a->cuda < b->cuda; });
    std::string text;
    text += fmt::format("# Generated by gpuport-mapgen from the installed CUDA and HIP headers; do not edit.\n");
    if (base_)
      text += fmt::format("# Only names the default tables lack: loaded with `translate --hip-version {}`.\n", version_);
    else
      text += "# Corrections belong in data/maps/curated/, which overrides these rows.\n";
    text += fmt::format("# Command: {}\n", command);
    text += "# Columns: cuda\thip\tkind\tfamily\tstatus\tnote\n";
    auto inputs = inputs_by_family_[spec.family];
    for (const auto& p : hip_inputs_by_group_[spec.hip_group]) inputs.push_back(p);
    if (spec.family == "curand" || spec.family == "cusparse")
      for (const auto& p : hip_inputs_by_group_["hip"])
        if (p.parent_path().filename() == "hip" && p.filename() == "hip_version.h") inputs.push_back(p);
    for (const auto& p : inputs) text += fmt::format("# Input: {} sha256={}\n", p.string(), files_.at(p)->sha256);
    std::size_t supported = 0, unsupported = 0, deprecated = 0;
    for (const Row* r : list) {
      text += fmt::format("{}\t{}\t{}\t{}\t{}", r->cuda, r->hip, r->kind, r->family, r->status);
      if (!r->note.empty()) text += fmt::format("\t{}", r->note);
      text += '\n';
      if (r->status == "supported") ++supported;
      else if (r->status == "deprecated") ++deprecated;
      else ++unsupported;
    }
    const fs::path path = out / (spec.family + ".tsv");
    if (auto error = gpuport::write_file_atomic(path, text)) {
      fmt::print(stderr, "gpuport-mapgen: error: {}: {}\n", path.string(), error->message);
      ok = false;
      continue;
    }
    fmt::print(stderr, "{:<9} {:>5} rows: {:>5} supported, {:>4} deprecated, {:>5} unsupported -> {}\n",
               spec.family, list.size(), supported, deprecated, unsupported, path.string());
  }
  ok &= write_hip_tags(out, command);
  if (base_) return ok;
  // Other spellings of mapped names (CUstream_st, CUaddress_mode_enum, cuMemAlloc_v2): each
  // maps as the name it spells, once the tables (curated rows included) are loaded.
  std::string text;
  text += "# Generated by gpuport-mapgen from the installed CUDA headers; do not edit.\n";
  text += "# Other spellings of one CUDA type or entry point: a typedef without a pointer (typedef struct X_st {...} X;)\n";
  text += "# or a versioning macro (#define cuX cuX_v2). Each maps as the name it spells; a row of its own wins.\n";
  text += fmt::format("# Command: {}\n", command);
  text += "# A fourth cell `tag`: the spelling is a struct/enum/union tag, which maps to the tag of the HIP type\n";
  text += "# (hip-tags.tsv) where HIP's has one.\n";
  text += "# Columns: cuda\tspells\tfamily[\ttag]\n";
  for (const auto& r : spellings_out_)
    text += r.family.empty() ? fmt::format("{}\t{}\t{}\n", r.cuda, r.hip, r.kind)
                             : fmt::format("{}\t{}\t{}\t{}\n", r.cuda, r.hip, r.kind, r.family);
  const fs::path path = out / "spellings.tsv";
  if (auto error = gpuport::write_file_atomic(path, text)) {
    fmt::print(stderr, "gpuport-mapgen: error: {}: {}\n", path.string(), error->message);
    ok = false;
  } else {
    fmt::print(stderr, "spellings {:>5} rows -> {}\n", spellings_out_.size(), path.string());
  }
  return ok;
}

// hip-tags.tsv: each HIP typedef of a struct, enum or union with its tag (the HIP side of the
// tag spellings). In a newer HIP's layer only the pairs the base tables lack.
bool Generator::write_hip_tags(const fs::path& out, const std::string& command) {
  std::string text;
  text += "# Generated by gpuport-mapgen from the installed HIP headers; do not edit.\n";
  text += "# HIP typedefs of a struct, enum or union and the tag (typedef enum HIPaddress_mode_enum {...} HIPaddress_mode;):\n";
  text += "# a CUDA tag that spells a type (spellings.tsv, cell `tag`) becomes the tag of that type's HIP twin.\n";
  text += fmt::format("# Command: {}\n", command);
  text += "# Columns: hip\ttag\n";
  std::size_t n = 0;
  for (const auto& [name, tag] : hip_tags_) {
    if (name.starts_with("_") || tag.starts_with("_")) continue;
    if (base_ && base_->hip_tag(name) == tag) continue;
    text += fmt::format("{}\t{}\n", name, tag);
    ++n;
  }
  const fs::path path = out / "hip-tags.tsv";
  if (auto error = gpuport::write_file_atomic(path, text)) {
    fmt::print(stderr, "gpuport-mapgen: error: {}: {}\n", path.string(), error->message);
    return false;
  }
  fmt::print(stderr, "hip-tags  {:>5} rows -> {}\n", n, path.string());
  return true;
}

std::string quote_argument(std::string_view arg) {
  if (!arg.empty() && arg.find_first_of(" \t\"'\\$") == std::string_view::npos) return std::string(arg);
  std::string q = "'";
  for (char ch : arg) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"gpuport-mapgen: derive the CUDA -> HIP API tables from installed CUDA and HIP headers"};
  std::string out = "data/maps/generated";
  std::string hip_include = "/usr/include";
  std::vector<std::string> cuda_includes;
  app.add_option("--out", out, "folder for the generated <family>.tsv tables")->capture_default_str();
  app.add_option("--hip-include", hip_include, "folder holding hip/, hiprand/ and hipsparse/")->capture_default_str();
  app.add_option("--cuda-include", cuda_includes,
                 "CUDA include folder (repeatable; default /usr/include, then /usr/local/cuda/include if present)");
  std::string base_maps, version;
  app.add_option("--only-new-over", base_maps,
                 "write only the rows that the tables in this folder (data/maps) lack or have as unsupported: "
                 "the layer of a newer HIP");
  app.add_option("--hip-version", version, "with --only-new-over: the HIP version the headers are (6.2)");
  CLI11_PARSE(app, argc, argv);
  if (base_maps.empty() != version.empty()) {
    fmt::print(stderr, "gpuport-mapgen: --only-new-over and --hip-version go together\n");
    return 2;
  }

  if (cuda_includes.empty()) {
    cuda_includes.push_back("/usr/include");
    std::error_code ec;
    if (fs::is_directory("/usr/local/cuda/include", ec)) cuda_includes.push_back("/usr/local/cuda/include");
  }
  std::string command = "gpuport-mapgen";
  for (int i = 1; i < argc; ++i) command += " " + quote_argument(argv[i]);

  std::vector<fs::path> cuda_paths(cuda_includes.begin(), cuda_includes.end());
  Generator generator(hip_include, cuda_paths);
  std::optional<gpuport::maps::ApiMap> base;
  if (!base_maps.empty()) {
    auto loaded = gpuport::maps::ApiMap::load_directory(base_maps);
    if (!loaded) {
      fmt::print(stderr, "gpuport-mapgen: cannot load {}\n", base_maps);
      return 2;
    }
    base = std::move(*loaded);
    generator.keep_only_new_over(&*base, version);
  }
  std::error_code ec;
  fs::create_directories(out, ec);
  return generator.run(out, command) ? 0 : 1;
}
