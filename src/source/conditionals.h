// Which preprocessor groups of a file a compiler would skip, for hipify-clang's
// --skip-excluded-preprocessor-conditional-blocks: #if/#ifdef/#ifndef/#elif/#else evaluated
// with the -D/-U settings and the file's own #define/#undef lines, in order.
// Promise: a group is excluded only when its condition is decided. A condition that reads a
// macro whose value the file cannot know (the toolchain's and the CUDA headers' macros, a
// function-like macro, a character literal) is undecided, and every branch of its chain stays
// live, so nothing is skipped on a guess. A plain user macro that nothing defines is undefined,
// as for the compiler.
#pragma once

#include <string>
#include <vector>

#include "lex/lexer.h"

namespace gpuport::source {

struct PreprocessorSettings {
  std::vector<std::string> defines;  // -D NAME or -D NAME=VALUE, in command-line order
  std::vector<std::string> undefines;  // -U NAME (wins over a -D of the same name)
};

// One flag per token of `tokens`: true for the tokens of excluded groups (their directive
// lines included; the #if/#elif/#else/#endif lines of the chain itself stay live).
std::vector<bool> excluded_tokens(const lex::TokenStream& tokens, const PreprocessorSettings& settings);

}  // namespace gpuport::source
