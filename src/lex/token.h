// Tokens of C, C++, CUDA and HIP source. Trivia (whitespace, newlines, comments, line
// continuations) are tokens too, so the token texts laid end to end give back the input
// byte for byte; rewriting replaces tokens and never re-prints anything it did not change.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpuport::lex {

enum class TokenKind : std::uint8_t {
  whitespace,          // spaces, tabs, \v, \f, a lone \r, a UTF-8 byte-order mark
  newline,             // \n or \r\n
  line_continuation,   // backslash + newline outside comments and literals
  line_comment,        // // ... (a backslash-newline continues it)
  block_comment,       // /* ... */
  identifier,
  number,              // a preprocessing number: 0x1F, 1'000, 1.5e-3f, 32u
  string_literal,      // "..." with an optional encoding prefix and UDL suffix
  char_literal,        // '...'
  raw_string_literal,  // R"delim(...)delim"
  header_name,         // <...> or "..." after #include / #include_next / #import
  punctuator,          // operators and punctuation, including <<< and >>>
  unknown,             // a byte that starts no token (stray backslash, @, `)
};

enum TokenFlag : std::uint8_t {
  kDirectiveHash = 1 << 0,   // the '#' that starts a preprocessor directive
  kInDirective = 1 << 1,     // part of a preprocessor directive (the '#' included)
  kLineStart = 1 << 2,       // first non-trivia token of its line
  kUnterminated = 1 << 3,    // literal or comment missing its end
  kInDisabledGroup = 1 << 4, // inside an #if 0 group
};

struct Token {
  std::uint32_t offset = 0;
  std::uint32_t length = 0;
  TokenKind kind = TokenKind::unknown;
  std::uint8_t flags = 0;

  std::uint32_t end() const { return offset + length; }
  bool is_trivia() const { return kind <= TokenKind::block_comment; }
  bool has(TokenFlag flag) const { return (flags & flag) != 0; }
};

}  // namespace gpuport::lex
