#include <gtest/gtest.h>

#include <string>

#include "lex/lexer.h"
#include "source/conditionals.h"

namespace gpuport::source {
namespace {

// The text of the live tokens, so a test reads which lines a compiler would keep.
std::string live_text(const std::string& text, const PreprocessorSettings& settings = {}) {
  const auto tokens = lex::lex(text);
  const auto excluded = excluded_tokens(tokens, settings);
  std::string out;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (!excluded[i]) out += tokens.text_of(i);
  return out;
}

TEST(Conditionals, IfdefFollowsDefinesOfTheFileAndTheCommandLine) {
  const std::string text = "#ifdef A\na\n#else\nnot_a\n#endif\n";
  EXPECT_EQ(live_text(text), "#ifdef A\n#else\nnot_a\n#endif\n");
  EXPECT_EQ(live_text(text, {.defines = {"A"}}), "#ifdef A\na\n#else\n#endif\n");
  EXPECT_EQ(live_text("#define A\n" + text), "#define A\n#ifdef A\na\n#else\n#endif\n");
  EXPECT_EQ(live_text("#define A\n#undef A\n" + text), "#define A\n#undef A\n#ifdef A\n#else\nnot_a\n#endif\n");
  // -U wins over -D.
  EXPECT_EQ(live_text(text, {.defines = {"A"}, .undefines = {"A"}}), "#ifdef A\n#else\nnot_a\n#endif\n");
}

TEST(Conditionals, ExpressionsAndElifChains) {
  const std::string text = "#if N > 2 && defined(B)\nbig\n#elif N == 2\ntwo\n#elif 1\nother\n#else\nnone\n#endif\n";
  EXPECT_EQ(live_text(text, {.defines = {"N=3", "B"}}), "#if N > 2 && defined(B)\nbig\n#elif N == 2\n#elif 1\n#else\n#endif\n");
  EXPECT_EQ(live_text(text, {.defines = {"N=2"}}), "#if N > 2 && defined(B)\n#elif N == 2\ntwo\n#elif 1\n#else\n#endif\n");
  EXPECT_EQ(live_text(text), "#if N > 2 && defined(B)\n#elif N == 2\n#elif 1\nother\n#else\n#endif\n");
  EXPECT_EQ(live_text("#if (0x10 >> 4) * 3 - 1 == 2 ? 1 : 0\nyes\n#endif\n"), "#if (0x10 >> 4) * 3 - 1 == 2 ? 1 : 0\nyes\n#endif\n");
  EXPECT_EQ(live_text("#define TWO (1 + 1)\n#if TWO * TWO != 4\nno\n#endif\n"), "#define TWO (1 + 1)\n#if TWO * TWO != 4\n#endif\n");
}

TEST(Conditionals, NestedGroupsOfAnExcludedGroupAreExcluded) {
  EXPECT_EQ(live_text("#if 0\n#ifdef X\nx\n#else\ny\n#endif\n#endif\nz\n"), "#if 0\n#endif\nz\n");
}

TEST(Conditionals, WhatTheFileCannotKnowKeepsEveryBranch) {
  // Toolchain and CUDA header macros, function-like macros, character literals.
  for (const std::string cond : {"CUDA_VERSION >= 11000", "defined(__CUDA_ARCH__)", "__CUDACC__", "F(1)", "'a' == 97"}) {
    const std::string text = "#define F(x) x\n#if " + cond + "\nyes\n#else\nno\n#endif\n";
    EXPECT_EQ(live_text(text), text) << cond;
  }
  // ... but a decided operand still decides && and ||.
  EXPECT_EQ(live_text("#if defined(NOPE) && CUDA_VERSION\nyes\n#endif\n"), "#if defined(NOPE) && CUDA_VERSION\n#endif\n");
  // After an include of the project's own header any macro may be defined.
  const std::string text = "#include \"config.h\"\n#ifdef FEATURE\nyes\n#endif\n";
  EXPECT_EQ(live_text(text), text);
  EXPECT_EQ(live_text("#include <cuda_runtime.h>\n#ifdef FEATURE\nyes\n#endif\n"), "#include <cuda_runtime.h>\n#ifdef FEATURE\n#endif\n");
  // A #define inside an undecided branch may or may not happen.
  const std::string maybe = "#ifdef __CUDACC__\n#define M\n#endif\n#ifdef M\nm\n#endif\n";
  EXPECT_EQ(live_text(maybe), maybe);
}

}  // namespace
}  // namespace gpuport::source
