// The lossless lexer. It never fails: input it cannot make sense of becomes `unknown` or
// `kUnterminated` tokens plus a problem report, so callers decide what is fatal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"
#include "lex/token.h"

namespace gpuport::lex {

struct LexProblem {
  std::uint32_t offset = 0;
  Severity severity = Severity::error;
  std::string code;
  std::string message;
};

class TokenStream {
 public:
  TokenStream(std::string_view text, std::vector<Token> tokens, std::vector<LexProblem> problems)
      : text_(text), tokens_(std::move(tokens)), problems_(std::move(problems)) {}

  std::string_view text() const { return text_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  const std::vector<LexProblem>& problems() const { return problems_; }
  std::string_view text_of(const Token& token) const { return text_.substr(token.offset, token.length); }
  std::string_view text_of(std::size_t index) const { return text_of(tokens_[index]); }
  std::size_t size() const { return tokens_.size(); }
  const Token& operator[](std::size_t index) const { return tokens_[index]; }

  // Re-prints the input from the tokens (the lossless property; used by tests).
  std::string reassemble() const;

  // Hands the token storage back for reuse by the next lex() call.
  std::vector<Token> take_tokens() && { return std::move(tokens_); }

 private:
  std::string_view text_;
  std::vector<Token> tokens_;
  std::vector<LexProblem> problems_;
};

// `storage` is reused for the tokens (its contents are discarded): translating many files
// with one buffer avoids allocating and faulting in fresh memory for each.
TokenStream lex(std::string_view text, std::vector<Token> storage = {});

// The header-name tokens of `text` alone (<x.h> and "x.h" after #include), lexed exactly as
// lex() does, so that comments, strings and #if 0 groups hide them alike, without storing the
// other tokens.
std::vector<Token> header_names(std::string_view text);

// Helpers for C-family identifier characters (bytes >= 0x80 count: UTF-8 identifiers).
bool is_identifier_start(unsigned char c);
bool is_identifier_char(unsigned char c);

}  // namespace gpuport::lex
