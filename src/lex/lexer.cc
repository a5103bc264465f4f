#include "lex/lexer.h"

#include <array>
#include <cstring>

#include "common/bytes16.h"
#include "common/memory.h"

namespace gpuport::lex {
namespace {

enum CharClass : std::uint8_t { kIdentStart = 1, kIdentChar = 2, kDigit = 4, kSpace = 8, kLineSpecial = 16 };

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kIdentStart | kIdentChar;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kIdentStart | kIdentChar;
  for (int c = '0'; c <= '9'; ++c) t[c] = kIdentChar | kDigit;
  t['_'] = kIdentStart | kIdentChar;
  t['$'] = kIdentStart | kIdentChar;
  for (int c = 0x80; c <= 0xFF; ++c) t[c] = kIdentStart | kIdentChar;
  t[' '] = t['\t'] = t['\v'] = t['\f'] = kSpace;
  for (unsigned char c : {'"', '\'', '/', '\\', '#'}) t[c] |= kLineSpecial;
  return t;
}
constexpr auto kClasses = make_classes();

// Conditional-group states used to recognise `#if 0` regions, where compilers accept stray
// quotes (only warn), so the lexer must not report them as errors.
enum class Group : std::uint8_t { live, disabled, disabled_else };

class Lexer {
 public:
  // headers_only: keep the header-name tokens alone (the #include scan of a file that is
  // translated later): the same state machine, no token storage to fill.
  Lexer(std::string_view text, std::vector<Token> storage, bool headers_only = false)
      : s_(text.data()), n_(static_cast<std::uint32_t>(text.size())), headers_only_(headers_only),
        tokens_(std::move(storage)) {
    tokens_.clear();
    if (!headers_only) reserve_fresh(tokens_, text.size() / 2 + 16);  // typical code: 0.3-0.4 tokens per byte
  }

  TokenStream run(std::string_view text) {
    if (n_ >= 3 && std::memcmp(s_, "\xEF\xBB\xBF", 3) == 0) emit(TokenKind::whitespace, 0, 3);
    while (i_ < n_) step();
    return TokenStream(text, std::move(tokens_), std::move(problems_));
  }

 private:
  unsigned char at(std::uint32_t k) const { return k < n_ ? static_cast<unsigned char>(s_[k]) : 0; }

  bool disabled() const { return disabled_depth_ > 0; }

  [[gnu::always_inline]] void emit(TokenKind kind, std::uint32_t begin, std::uint32_t end, std::uint8_t flags = 0) {
    Token t;
    t.offset = begin;
    t.length = end - begin;
    t.kind = kind;
    t.flags = flags;
    if (in_directive_) t.flags |= kInDirective;
    if (disabled()) t.flags |= kInDisabledGroup;
    if (!t.is_trivia()) {
      if (at_line_start_) t.flags |= kLineStart;
      at_line_start_ = false;
      if (in_directive_) on_directive_token(t);
    }
    if (!headers_only_ || kind == TokenKind::header_name) tokens_.push_back(t);
    i_ = end;
  }

  void problem(std::uint32_t offset, std::string code, std::string message, Severity severity = Severity::error) {
    problems_.push_back({offset, severity, std::move(code), std::move(message)});
  }

  // Tracks which directive we are in, for header names and #if 0 groups.
  void on_directive_token(const Token& t) {
    ++directive_token_index_;
    if (directive_token_index_ == 2 && t.kind == TokenKind::identifier) {
      std::string_view name(s_ + t.offset, t.length);
      directive_ = name;
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        groups_.push_back(Group::live);
      } else if ((name == "else" || name == "elif" || name == "elifdef" || name == "elifndef") && !groups_.empty()) {
        if (groups_.back() == Group::disabled) {
          groups_.back() = Group::disabled_else;
          --disabled_depth_;
        }
      } else if (name == "endif" && !groups_.empty()) {
        if (groups_.back() == Group::disabled) --disabled_depth_;
        groups_.pop_back();
      }
    } else if (directive_token_index_ == 3 && directive_ == "if" && !groups_.empty() &&
               t.kind == TokenKind::number && t.length == 1 && s_[t.offset] == '0') {
      if_zero_candidate_ = true;
    } else if (directive_token_index_ > 3) {
      if_zero_candidate_ = false;
    }
  }

  void end_directive() {
    if (if_zero_candidate_ && !groups_.empty() && groups_.back() == Group::live) {
      groups_.back() = Group::disabled;
      ++disabled_depth_;
    }
    if_zero_candidate_ = false;
    in_directive_ = false;
    directive_ = {};
    directive_token_index_ = 0;
  }

  bool directive_allows_stray_quotes() const {
    return directive_ == "error" || directive_ == "warning";
  }

  // The first offset from k holding one of " ' / \\ # or a newline (n_ if none): sixteen
  // bytes at a time.
  std::uint32_t next_special(std::uint32_t k) const {
    for (; k + 16 <= n_; k += 16) {
      const Bytes16 v = load16(s_ + k);
      const unsigned hit = first_set((v == '"') | (v == '\'') | (v == '/') | (v == '\\') | (v == '#') | (v == '\n'));
      if (hit < 16) return k + hit;
    }
    for (; k < n_; ++k)
      if (s_[k] == '\n' || (kClasses[static_cast<unsigned char>(s_[k])] & kLineSpecial)) break;
    return k;
  }

  // headers_only, outside a directive: the text up to the next " ' / \\ # or newline holds no
  // comment, literal, continuation or directive start (and so no header name), so it is passed
  // over; lexing resumes at that newline, or at the start of the name or number holding the
  // special character (R"( and 1'000 stay whole).
  [[gnu::always_inline]] void skip_to_special() {
    const std::uint32_t k = next_special(i_);
    std::uint32_t start = k;
    if (k < n_ && s_[k] != '\n')
      while (start > i_ && ((kClasses[static_cast<unsigned char>(s_[start - 1])] & kIdentChar) || s_[start - 1] == '.')) --start;
    if (start == i_) return;
    std::uint32_t code = i_;  // a '#' after code on its line starts no directive
    while (code < start && ((kClasses[static_cast<unsigned char>(s_[code])] & kSpace) || s_[code] == '\r')) ++code;
    if (code < start) at_line_start_ = false;
    i_ = start;
  }

  void step() {
    if (headers_only_ && !in_directive_) {
      skip_to_special();
      if (i_ >= n_) return;
    }
    const std::uint32_t b = i_;
    const unsigned char c = at(b);
    const std::uint8_t cls = kClasses[c];
    if (cls & kIdentStart) return identifier_or_prefixed_literal(b);
    if (cls & kDigit) return number(b);
    if (cls & kSpace) {
      std::uint32_t e = b + 1;
      while (e < n_ && (kClasses[static_cast<unsigned char>(s_[e])] & kSpace)) ++e;
      return emit(TokenKind::whitespace, b, e);
    }
    switch (c) {
      case '\n':
        emit(TokenKind::newline, b, b + 1);
        return newline_seen();
      case '\r':
        if (at(b + 1) == '\n') {
          emit(TokenKind::newline, b, b + 2);
          return newline_seen();
        }
        return emit(TokenKind::whitespace, b, b + 1);
      case '"': return quoted(b, b, '"', TokenKind::string_literal);
      case '\'': return quoted(b, b, '\'', TokenKind::char_literal);
      case '/':
        if (at(b + 1) == '/') return line_comment(b);
        if (at(b + 1) == '*') return block_comment(b);
        return punctuator(b);
      case '.':
        if (kClasses[at(b + 1)] & kDigit) return number(b);
        return punctuator(b);
      case '\\': {
        std::uint32_t e = b + 1;
        while (e < n_ && (at(e) == ' ' || at(e) == '\t')) ++e;  // gcc accepts "\   \n"
        if (at(e) == '\n') return emit(TokenKind::line_continuation, b, e + 1);
        if (at(e) == '\r' && at(e + 1) == '\n') return emit(TokenKind::line_continuation, b, e + 2);
        return emit(TokenKind::unknown, b, b + 1);
      }
      case '#':
        if (at_line_start_ && !in_directive_) {
          in_directive_ = true;
          emit(TokenKind::punctuator, b, b + 1, kDirectiveHash);
          return;
        }
        return punctuator(b);
      case '<':
        if (in_directive_ && directive_token_index_ == 2 && is_include_directive()) return angled_header(b);
        return punctuator(b);
      case '{': case '}': case '[': case ']': case '(': case ')': case ';': case ':': case '?': case '~':
      case '!': case '+': case '-': case '*': case '%': case '^': case '&': case '|': case '=': case '>':
      case ',':
        return punctuator(b);
      default:
        return emit(TokenKind::unknown, b, b + 1);
    }
  }

  void newline_seen() {
    if (in_directive_) end_directive();
    at_line_start_ = true;
  }

  bool is_include_directive() const {
    return directive_ == "include" || directive_ == "include_next" || directive_ == "import";
  }

  void identifier_or_prefixed_literal(std::uint32_t b) {
    std::uint32_t e = b + 1;
    while (e < n_ && (kClasses[static_cast<unsigned char>(s_[e])] & kIdentChar)) ++e;
    const unsigned char next = at(e);
    if (next == '"' || next == '\'') {
      std::string_view p(s_ + b, e - b);
      const bool encoding = p == "u8" || p == "u" || p == "U" || p == "L";
      const bool raw = p == "R" || p == "u8R" || p == "uR" || p == "UR" || p == "LR";
      if (next == '"' && raw) return raw_string(b, e);
      if (encoding) return quoted(b, e, static_cast<char>(next),
                                  next == '"' ? TokenKind::string_literal : TokenKind::char_literal);
    }
    emit(TokenKind::identifier, b, e);
  }

  void number(std::uint32_t b) {
    std::uint32_t e = b + 1;
    while (e < n_) {
      const unsigned char c = at(e);
      if ((c == '+' || c == '-') && (at(e - 1) == 'e' || at(e - 1) == 'E' || at(e - 1) == 'p' || at(e - 1) == 'P')) {
        // An exponent sign, unless this is hex where 'e' is a digit (0x1e+1 is 0x1e + 1).
        const bool hex = e - b >= 2 && at(b) == '0' && (at(b + 1) == 'x' || at(b + 1) == 'X');
        if (hex && (at(e - 1) == 'e' || at(e - 1) == 'E')) break;
        ++e;
      } else if ((kClasses[c] & kIdentChar) || c == '.') {
        ++e;
      } else if (c == '\'' && (kClasses[at(e + 1)] & kIdentChar)) {
        e += 2;  // digit separator
      } else {
        break;
      }
    }
    emit(TokenKind::number, b, e);
  }

  // A literal in `quote` whose opening quote is at `q` (after any prefix that starts at `b`).
  void quoted(std::uint32_t b, std::uint32_t q, char quote, TokenKind kind) {
    if (in_directive_ && directive_token_index_ == 2 && quote == '"' && is_include_directive() && b == q)
      kind = TokenKind::header_name;
    std::uint32_t e = q + 1;
    while (e < n_) {
      const char c = s_[e];
      if (c == quote) {
        ++e;
        while (e < n_ && (kClasses[at(e)] & kIdentChar)) ++e;  // user-defined literal suffix
        return emit(kind, b, e);
      }
      if (c == '\\') {
        e += (at(e + 1) == '\r' && at(e + 2) == '\n') ? 3 : 2;
        continue;
      }
      if (c == '\n' || (c == '\r' && at(e + 1) == '\n')) break;
      ++e;
    }
    if (e > n_) e = n_;
    if (!disabled() && !(in_directive_ && directive_allows_stray_quotes())) {
      problem(b, quote == '"' ? "unterminated-string" : "unterminated-char",
              quote == '"' ? "missing terminating \" character" : "missing terminating ' character");
    }
    emit(kind, b, e, kUnterminated);
  }

  void raw_string(std::uint32_t b, std::uint32_t quote) {
    std::uint32_t d = quote + 1;
    while (d < n_ && d - quote - 1 <= 16 && s_[d] != '(' && s_[d] != ')' && s_[d] != '\\' &&
           s_[d] != ' ' && s_[d] != '\n' && s_[d] != '"')
      ++d;
    if (at(d) != '(') {
      problem(b, "invalid-raw-string", "invalid raw string delimiter");
      return emit(TokenKind::unknown, b, quote + 1);
    }
    std::string closing = ")";
    closing.append(s_ + quote + 1, d - quote - 1);
    closing.push_back('"');
    std::string_view rest(s_ + d + 1, n_ - d - 1);
    auto pos = rest.find(closing);
    if (pos == std::string_view::npos) {
      problem(b, "unterminated-raw-string", "raw string is not terminated before the end of the file");
      return emit(TokenKind::raw_string_literal, b, n_, kUnterminated);
    }
    std::uint32_t e = d + 1 + static_cast<std::uint32_t>(pos + closing.size());
    while (e < n_ && (kClasses[at(e)] & kIdentChar)) ++e;
    emit(TokenKind::raw_string_literal, b, e);
  }

  void line_comment(std::uint32_t b) {
    std::uint32_t e = b + 2;
    while (true) {
      const void* nl = std::memchr(s_ + e, '\n', n_ - e);
      if (nl == nullptr) {
        e = n_;
        break;
      }
      std::uint32_t k = static_cast<std::uint32_t>(static_cast<const char*>(nl) - s_);
      std::uint32_t before = k;
      if (before > b && s_[before - 1] == '\r') --before;
      if (before > b + 2 && s_[before - 1] == '\\') {  // continued onto the next line
        e = k + 1;
        continue;
      }
      e = (k > b && s_[k - 1] == '\r') ? k - 1 : k;
      break;
    }
    emit(TokenKind::line_comment, b, e);
  }

  void block_comment(std::uint32_t b) {
    std::string_view rest(s_ + b + 2, n_ - b - 2);
    auto pos = rest.find("*/");
    if (pos == std::string_view::npos) {
      problem(b, "unterminated-comment", "comment is not terminated before the end of the file");
      return emit(TokenKind::block_comment, b, n_, kUnterminated);
    }
    emit(TokenKind::block_comment, b, b + 2 + static_cast<std::uint32_t>(pos) + 2);
  }

  void angled_header(std::uint32_t b) {
    std::uint32_t e = b + 1;
    while (e < n_ && s_[e] != '>' && s_[e] != '\n') ++e;
    if (at(e) != '>') return punctuator(b);
    emit(TokenKind::header_name, b, e + 1);
  }

  // Longest match among the C++ punctuators (plus CUDA's <<< and >>>), by first character.
  [[gnu::always_inline]] void punctuator(std::uint32_t b) {
    const char c0 = s_[b];
    const char c1 = static_cast<char>(at(b + 1));
    const char c2 = static_cast<char>(at(b + 2));
    std::uint32_t len = 1;
    switch (c0) {
      case '<':
        if (c1 == '<') len = (c2 == '<' || c2 == '=') ? 3 : 2;
        else if (c1 == '=') len = c2 == '>' ? 3 : 2;
        break;
      case '>':
        if (c1 == '>') len = (c2 == '>' || c2 == '=') ? 3 : 2;
        else if (c1 == '=') len = 2;
        break;
      case '-':
        if (c1 == '>') len = c2 == '*' ? 3 : 2;
        else if (c1 == '-' || c1 == '=') len = 2;
        break;
      case '.':
        if (c1 == '.' && c2 == '.') len = 3;
        else if (c1 == '*') len = 2;
        break;
      case ':': len = c1 == ':' ? 2 : 1; break;
      case '+': len = (c1 == '+' || c1 == '=') ? 2 : 1; break;
      case '&': len = (c1 == '&' || c1 == '=') ? 2 : 1; break;
      case '|': len = (c1 == '|' || c1 == '=') ? 2 : 1; break;
      case '#': len = c1 == '#' ? 2 : 1; break;
      case '=': case '!': case '*': case '/': case '%': case '^':
        len = c1 == '=' ? 2 : 1;
        break;
      default: break;
    }
    emit(TokenKind::punctuator, b, b + len);
  }

  const char* s_;
  std::uint32_t n_;
  bool headers_only_ = false;
  std::uint32_t i_ = 0;
  bool at_line_start_ = true;
  bool in_directive_ = false;
  int directive_token_index_ = 0;  // significant tokens seen in the directive, '#' is 1
  std::string_view directive_;
  bool if_zero_candidate_ = false;
  std::vector<Group> groups_;
  int disabled_depth_ = 0;
  std::vector<Token> tokens_;
  std::vector<LexProblem> problems_;
};

}  // namespace

bool is_identifier_start(unsigned char c) { return (kClasses[c] & kIdentStart) != 0; }
bool is_identifier_char(unsigned char c) { return (kClasses[c] & kIdentChar) != 0; }

std::string TokenStream::reassemble() const {
  std::string out;
  out.reserve(text_.size());
  for (const auto& t : tokens_) out.append(text_of(t));
  return out;
}

TokenStream lex(std::string_view text, std::vector<Token> storage) {
  return Lexer(text, std::move(storage)).run(text);
}

std::vector<Token> header_names(std::string_view text) {
  return std::move(Lexer(text, {}, true).run(text)).take_tokens();
}

}  // namespace gpuport::lex
