#include "source/conditionals.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "source/translator.h"

namespace gpuport::source {
namespace {

using lex::TokenKind;

// A macro's state as far as this file can tell.
struct Macro {
  enum class State : std::uint8_t { defined, undefined, unknown } state = State::unknown;
  bool function_like = false;
  std::vector<std::string> body;  // the replacement's tokens (object-like macros)
};

// Names the toolchain or an included library header may define: the file cannot know them.
bool toolchain_name(std::string_view name) {
  if (name.size() >= 2 && name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z'))) return true;
  if (looks_like_cuda_api(name)) return true;
  for (std::string_view p : {"CUDA", "CU_", "NV", "THRUST_", "CUB_", "HIP", "ROCM", "CUTLASS"})
    if (name.starts_with(p)) return true;
  return false;
}

// A value of an #if expression: known, or not decidable here.
using Value = std::optional<std::int64_t>;

std::vector<std::string> significant_texts(std::string_view text) {
  const auto tokens = lex::lex(text);
  std::vector<std::string> out;
  for (const auto& t : tokens.tokens())
    if (!t.is_trivia()) out.emplace_back(tokens.text_of(t));
  return out;
}

bool is_identifier_text(std::string_view s) {
  return !s.empty() && lex::is_identifier_start(static_cast<unsigned char>(s[0]));
}

Value parse_number(std::string_view s) {
  std::string digits;
  for (char c : s)
    if (c != '\'') digits += c;
  while (!digits.empty() && (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L'))
    digits.pop_back();
  if (digits.empty()) return std::nullopt;
  int base = 10;
  std::size_t at = 0;
  if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16, at = 2;
  else if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2, at = 2;
  else if (digits.size() > 1 && digits[0] == '0') base = 8, at = 1;
  if (at >= digits.size()) return std::nullopt;
  std::uint64_t v = 0;
  for (; at < digits.size(); ++at) {
    const char c = digits[at];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
    if (d >= base) return std::nullopt;  // a floating literal, a suffix we do not know
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  return static_cast<std::int64_t>(v);
}

// Recursive descent over an #if expression whose macros are already expanded.
class Expression {
 public:
  explicit Expression(const std::vector<std::string>& t) : t_(t) {}

  Value evaluate() {
    Value v = conditional();
    if (i_ != t_.size()) return std::nullopt;  // trailing tokens: not an expression we read
    return v;
  }

 private:
  std::string_view peek() const { return i_ < t_.size() ? std::string_view(t_[i_]) : std::string_view(); }
  bool take(std::string_view s) {
    if (peek() != s) return false;
    ++i_;
    return true;
  }

  Value conditional() {
    Value c = logical_or();
    if (!take("?")) return c;
    Value a = conditional();
    if (!take(":")) return fail();
    Value b = conditional();
    if (!c) return std::nullopt;
    return *c ? a : b;
  }
  Value logical_or() {
    Value v = logical_and();
    while (take("||")) {
      Value r = logical_and();
      if ((v && *v) || (r && *r)) v = 1;
      else if (v && r) v = 0;
      else v = std::nullopt;
    }
    return v;
  }
  Value logical_and() {
    Value v = binary(0);
    while (take("&&")) {
      Value r = binary(0);
      if ((v && !*v) || (r && !*r)) v = 0;
      else if (v && r) v = 1;
      else v = std::nullopt;
    }
    return v;
  }
  // Binary operators by precedence level, lowest first.
  Value binary(int level) {
    static const std::vector<std::vector<std::string_view>> levels = {
        {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    Value v = binary(level + 1);
    while (true) {
      std::string_view op;
      for (auto o : levels[static_cast<std::size_t>(level)])
        if (peek() == o) op = o;
      if (op.empty()) return v;
      ++i_;
      Value r = binary(level + 1);
      if (!v || !r) {
        v = std::nullopt;
        continue;
      }
      const std::int64_t a = *v, b = *r;
      if (op == "|") v = a | b;
      else if (op == "^") v = a ^ b;
      else if (op == "&") v = a & b;
      else if (op == "==") v = a == b;
      else if (op == "!=") v = a != b;
      else if (op == "<") v = a < b;
      else if (op == ">") v = a > b;
      else if (op == "<=") v = a <= b;
      else if (op == ">=") v = a >= b;
      else if (op == "<<") v = b >= 0 && b < 63 ? Value(a << b) : std::nullopt;
      else if (op == ">>") v = b >= 0 && b < 63 ? Value(a >> b) : std::nullopt;
      else if (op == "+") v = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
      else if (op == "-") v = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
      else if (op == "*") v = static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
      else if (op == "/") v = b != 0 ? Value(a / b) : std::nullopt;
      else if (op == "%") v = b != 0 ? Value(a % b) : std::nullopt;
    }
  }
  Value unary() {
    if (take("!")) {
      Value v = unary();
      return v ? Value(!*v) : std::nullopt;
    }
    if (take("~")) {
      Value v = unary();
      return v ? Value(~*v) : std::nullopt;
    }
    if (take("-")) {
      Value v = unary();
      return v ? Value(-*v) : std::nullopt;
    }
    if (take("+")) return unary();
    return primary();
  }
  Value primary() {
    if (take("(")) {
      Value v = conditional();
      if (!take(")")) return fail();
      return v;
    }
    if (i_ >= t_.size()) return fail();
    const std::string& s = t_[i_++];
    if (s == "\x01") return 1;  // defined(): true
    if (s == "\x02") return 0;  // defined(): false
    if (s == "\x03") return std::nullopt;  // defined(): not known, or a macro not known
    if (!s.empty() && s[0] >= '0' && s[0] <= '9') return parse_number(s);
    if (s == "true") return 1;
    if (s == "false") return 0;
    if (is_identifier_text(s)) return 0;  // an identifier left after expansion is 0
    return fail();                        // character literals and the rest: not read here
  }
  Value fail() {
    i_ = t_.size() + 1;  // evaluate() sees trailing garbage
    return std::nullopt;
  }

  const std::vector<std::string>& t_;
  std::size_t i_ = 0;
};

class Evaluator {
 public:
  explicit Evaluator(const PreprocessorSettings& settings) {
    for (const auto& d : settings.defines) {
      const auto eq = d.find('=');
      Macro m;
      m.state = Macro::State::defined;
      m.body = significant_texts(eq == std::string::npos ? std::string_view("1") : std::string_view(d).substr(eq + 1));
      const std::string name = d.substr(0, eq);
      if (name.find('(') != std::string::npos) {
        m.function_like = true;
        macros_[name.substr(0, name.find('('))] = m;
      } else {
        macros_[name] = m;
      }
    }
    for (const auto& u : settings.undefines) macros_[u] = Macro{Macro::State::undefined, false, {}};
  }

  Macro::State state(std::string_view name) const {
    if (auto it = macros_.find(name); it != macros_.end()) return it->second.state;
    return toolchain_name(name) || opaque_ ? Macro::State::unknown : Macro::State::undefined;
  }

  // After an include of the project's own header, any macro may be defined.
  void include_seen() { opaque_ = true; }

  void define(const std::string& name, Macro m) { macros_[name] = std::move(m); }
  void forget(const std::string& name) { macros_[name] = Macro{}; }  // state unknown

  // Expands the condition's tokens: defined X / defined(X) become markers, object-like
  // macros their bodies (to a depth of 32), unknown macros the "not known" marker.
  std::optional<std::vector<std::string>> expand(const std::vector<std::string>& in, int depth = 0) const {
    if (depth > 32) return std::nullopt;
    std::vector<std::string> out;
    for (std::size_t k = 0; k < in.size(); ++k) {
      const std::string& s = in[k];
      if (s == "defined") {
        std::size_t n = k + 1;
        const bool paren = n < in.size() && in[n] == "(";
        if (paren) ++n;
        if (n >= in.size() || !is_identifier_text(in[n])) return std::nullopt;
        const auto st = state(in[n]);
        out.emplace_back(st == Macro::State::defined ? "\x01" : st == Macro::State::undefined ? "\x02" : "\x03");
        if (paren && (n + 1 >= in.size() || in[n + 1] != ")")) return std::nullopt;
        k = paren ? n + 1 : n;
        continue;
      }
      if (is_identifier_text(s) && s != "true" && s != "false") {
        auto it = macros_.find(s);
        const auto st = state(s);
        if (st == Macro::State::unknown || (it != macros_.end() && it->second.function_like)) {
          out.emplace_back("\x03");
          // A function-like use takes its argument list with it.
          if (k + 1 < in.size() && in[k + 1] == "(") {
            int d = 0;
            for (++k; k < in.size(); ++k) {
              if (in[k] == "(") ++d;
              else if (in[k] == ")" && --d == 0) break;
            }
          }
          continue;
        }
        if (st == Macro::State::defined) {
          auto body = expand(it->second.body, depth + 1);
          if (!body) return std::nullopt;
          out.emplace_back("(");
          out.insert(out.end(), body->begin(), body->end());
          out.emplace_back(")");
          continue;
        }
        out.emplace_back("0");  // undefined
        continue;
      }
      out.push_back(s);
    }
    return out;
  }

  Value evaluate(const std::vector<std::string>& condition) const {
    auto expanded = expand(condition);
    if (!expanded || expanded->empty()) return std::nullopt;
    return Expression(*expanded).evaluate();
  }

 private:
  std::map<std::string, Macro, std::less<>> macros_;
  bool opaque_ = false;
};

// A quoted include of a header that is not a GPU library's or the system's: the project's own,
// which this file cannot see into. (Angled system and CUDA headers define reserved or
// library-prefixed names only, which are unknown anyway.)
bool project_header(std::string_view header_name) {
  if (header_name.size() < 2 || header_name.front() != '"') return false;
  const auto path = header_name.substr(1, header_name.size() - 2);
  for (std::string_view p : {"cuda", "cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn", "cub/",
                             "thrust/", "nvrtc", "nvToolsExt", "nvtx", "hip", "roc", "device_", "math_", "vector_",
                             "driver_", "builtin_", "channel_", "surface_", "texture_", "sm_", "crt/", "host_"})
    if (path.starts_with(p)) return false;
  return true;
}

// One #if chain being read.
struct Frame {
  bool parent_live = true;  // the chain itself is in live code
  bool taken = false;       // a branch of the chain was taken
  bool undecided = false;   // a condition of the chain could not be decided: all branches live
  bool live = true;         // the current branch is live
};

}  // namespace

std::vector<bool> excluded_tokens(const lex::TokenStream& tokens, const PreprocessorSettings& settings) {
  std::vector<bool> excluded(tokens.size(), false);
  Evaluator macros(settings);
  std::vector<Frame> frames;
  auto live = [&] { return frames.empty() || frames.back().live; };
  // Inside a branch that is live only because its chain is undecided, #define and #undef may
  // or may not happen: the macro's state becomes unknown.
  auto certain = [&] {
    for (const auto& f : frames)
      if (f.undecided) return false;
    return true;
  };

  // The value of an #if/#elif expression, or of #ifdef/#ifndef/#elifdef/#elifndef NAME.
  auto decide = [&](std::string_view directive, const std::vector<std::string>& rest) -> Value {
    if (directive == "if" || directive == "elif") return macros.evaluate(rest);
    if (rest.empty() || !is_identifier_text(rest[0])) return std::nullopt;
    const auto st = macros.state(rest[0]);
    if (st == Macro::State::unknown) return std::nullopt;
    return (st == Macro::State::defined) == (directive == "ifdef" || directive == "elifdef");
  };
  // A branch whose condition is decided is live when true; an undecided one makes the whole
  // chain live.
  auto take_branch = [](Frame& f, Value v) {
    if (!v) f.undecided = true, f.live = true;
    else f.live = *v != 0, f.taken = f.live;
  };

  std::size_t i = 0;
  const std::size_t n = tokens.size();
  while (i < n) {
    const auto& t = tokens[i];
    if (!t.has(lex::kDirectiveHash)) {
      if (!live()) excluded[i] = true;
      ++i;
      continue;
    }
    // One directive line: its significant tokens after '#'.
    std::size_t end = i + 1;
    std::vector<std::string> words;
    bool function_like = false;
    while (end < n && tokens[end].has(lex::kInDirective) && !tokens[end].has(lex::kDirectiveHash)) {
      const auto& d = tokens[end];
      if (!d.is_trivia()) {
        // `#define F(x)`: '(' right after the name, no space between.
        if (words.size() == 2 && words[0] == "define" && tokens.text_of(d) == "(" && tokens[end - 1].kind == TokenKind::identifier)
          function_like = true;
        words.emplace_back(tokens.text_of(d));
      }
      ++end;
    }
    const std::string_view name = words.empty() ? std::string_view() : std::string_view(words[0]);
    const std::vector<std::string> rest(words.begin() + (words.empty() ? 0 : 1), words.end());
    bool line_live = live();
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      Frame f;
      f.parent_live = live();
      if (f.parent_live) {
        take_branch(f, decide(name, rest));
      } else {
        f.live = false;
      }
      frames.push_back(f);
    } else if ((name == "elif" || name == "elifdef" || name == "elifndef" || name == "else") && !frames.empty()) {
      auto& f = frames.back();
      line_live = f.parent_live;
      if (!f.parent_live) f.live = false;
      else if (f.undecided) f.live = true;
      else if (f.taken) f.live = false;
      else if (name == "else") f.live = f.taken = true;
      else take_branch(f, decide(name, rest));
    } else if (name == "endif" && !frames.empty()) {
      line_live = frames.back().parent_live;
      frames.pop_back();
    } else if (line_live && (name == "include" || name == "include_next") && rest.size() == 1 && project_header(rest[0])) {
      macros.include_seen();
    } else if (line_live && name == "define" && !rest.empty() && is_identifier_text(rest[0])) {
      if (!certain()) {
        macros.forget(rest[0]);
      } else {
        Macro m;
        m.state = Macro::State::defined;
        m.function_like = function_like;
        if (!function_like) m.body.assign(rest.begin() + 1, rest.end());
        macros.define(rest[0], std::move(m));
      }
    } else if (line_live && name == "undef" && !rest.empty() && is_identifier_text(rest[0])) {
      if (!certain()) macros.forget(rest[0]);
      else macros.define(rest[0], Macro{Macro::State::undefined, false, {}});
    }
    for (std::size_t k = i; k < end; ++k) excluded[k] = !line_live;
    i = end;
  }
  return excluded;
}

}  // namespace gpuport::source
