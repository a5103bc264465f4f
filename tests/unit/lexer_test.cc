#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "common/file_io.h"
#include "lex/lexer.h"

namespace gpuport::lex {
namespace {

std::vector<std::pair<TokenKind, std::string>> significant(std::string_view text) {
  auto ts = lex(text);
  std::vector<std::pair<TokenKind, std::string>> out;
  for (const auto& t : ts.tokens())
    if (!t.is_trivia()) out.emplace_back(t.kind, std::string(ts.text_of(t)));
  return out;
}

TEST(Lexer, ReassemblesTrickyInputByteForByte) {
  const std::string inputs[] = {
      "",
      "int x;",
      "a\r\nb\rc\n",
      "\xEF\xBB\xBFint bom;\n",
      "#define X(a) \\\n  a + 1\nint y = X(2);\n",
      "auto s = R\"delim(raw \" )\" text)delim\";\n",
      "auto u = u8R\"(x)\"; auto c = U'x'; auto w = L\"w\";\n",
      "int big = 1'000'000; float f = 1.5e-3f; int h = 0x1e+1;\n",
      "k<<<grid, block, 0, s>>>(a, b);\n",
      "std::vector<std::vector<int>>> v;\n",
      "// comment \\\n continued\nint z;\n",
      "/* multi\n line */ int q;\n",
      "#include <cuda_runtime.h>\n#include \"my-cuda.h\"\n",
      "x = a <=> b; y ->* z; p...;\n",
      "#error don't stop\n",
      "#if 0\nit's fine here\n#endif\n",
      "\"unterminated\n",
      "/* unterminated",
      "int \xC3\xA9t\xC3\xA9 = 1; // utf-8 identifier\n",
      "a @ b ` c \\ d\n",
  };
  for (const auto& in : inputs) EXPECT_EQ(lex(in).reassemble(), in) << in;
}

TEST(Lexer, TokenKinds) {
  auto t = significant("#include <cuda.h>\nx = \"s\" 'c' 3.5f R\"(r)\" <<< >>> ;");
  ASSERT_EQ(t.size(), 12u);
  EXPECT_EQ(t[0], std::pair(TokenKind::punctuator, std::string("#")));
  EXPECT_EQ(t[1], std::pair(TokenKind::identifier, std::string("include")));
  EXPECT_EQ(t[2], std::pair(TokenKind::header_name, std::string("<cuda.h>")));
  EXPECT_EQ(t[5].first, TokenKind::string_literal);
  EXPECT_EQ(t[6].first, TokenKind::char_literal);
  EXPECT_EQ(t[7], std::pair(TokenKind::number, std::string("3.5f")));
  EXPECT_EQ(t[8].first, TokenKind::raw_string_literal);
  EXPECT_EQ(t[9].second, "<<<");
  EXPECT_EQ(t[10].second, ">>>");
}

TEST(Lexer, QuotedIncludeIsAHeaderName) {
  auto t = significant("#include \"kernels.cuh\"\nconst char* s = \"kernels.cuh\";");
  EXPECT_EQ(t[2].first, TokenKind::header_name);
  EXPECT_EQ(t[8].first, TokenKind::string_literal);
}

TEST(Lexer, LessThanOutsideIncludeIsAnOperator) {
  auto t = significant("if (a < b && c > d) {}");
  EXPECT_EQ(t[3], std::pair(TokenKind::punctuator, std::string("<")));
}

TEST(Lexer, DirectiveFlagsEndAtNewlineButNotAtContinuation) {
  auto ts = lex("#define A \\\n  cudaMalloc\nint x;\n");
  bool saw_macro_body = false, saw_x = false;
  for (const auto& t : ts.tokens()) {
    if (ts.text_of(t) == "cudaMalloc") saw_macro_body = t.has(kInDirective);
    if (ts.text_of(t) == "x") saw_x = !t.has(kInDirective);
  }
  EXPECT_TRUE(saw_macro_body);
  EXPECT_TRUE(saw_x);
}

TEST(Lexer, DigitSeparatorsAndExponents) {
  auto t = significant("1'000 0x1p-3 1e+5 0x1e+1");
  ASSERT_EQ(t.size(), 6u);  // 0x1e+1 is 0x1e + 1
  EXPECT_EQ(t[0].second, "1'000");
  EXPECT_EQ(t[1].second, "0x1p-3");
  EXPECT_EQ(t[2].second, "1e+5");
  EXPECT_EQ(t[3].second, "0x1e");
}

TEST(Lexer, ReportsUnterminatedCommentWithItsStart) {
  auto ts = lex("int a;\n/* never closed\nint b;\n");
  ASSERT_EQ(ts.problems().size(), 1u);
  EXPECT_EQ(ts.problems()[0].code, "unterminated-comment");
  EXPECT_EQ(ts.problems()[0].offset, 7u);
}

TEST(Lexer, ReportsUnterminatedStringButNotInsideIfZeroOrError) {
  EXPECT_EQ(lex("const char* s = \"abc;\n").problems().size(), 1u);
  EXPECT_EQ(lex("char c = 'x;\n").problems().at(0).code, "unterminated-char");
  EXPECT_TRUE(lex("#if 0\ndon't care\n#endif\n").problems().empty());
  EXPECT_TRUE(lex("#error can't build\n").problems().empty());
  EXPECT_FALSE(lex("#if 0\n#else\ndon't\n#endif\n").problems().empty());
  EXPECT_EQ(lex("auto r = R\"x(never").problems().at(0).code, "unterminated-raw-string");
}

// The lossless property over every file of the test corpus and the examples.
TEST(Lexer, ReassemblesEveryCorpusFile) {
  namespace fs = std::filesystem;
  std::size_t files = 0;
  for (const char* dir : {"tests", "examples", "bench", "src"}) {
    const fs::path root = fs::path(GPUPORT_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_regular_file()) continue;
      auto content = read_file(e.path(), 64u << 20);
      ASSERT_TRUE(content.ok()) << e.path();
      EXPECT_EQ(lex(*content).reassemble(), *content) << e.path();
      ++files;
    }
  }
  EXPECT_GT(files, 20u);
}

// Random byte soup still reassembles exactly.
TEST(Lexer, ReassemblesRandomInput) {
  std::mt19937 rng(42);
  const std::string alphabet = "ab_1'\"\\/*\n\r#<>R(). \tu8x{}";
  for (int round = 0; round < 2000; ++round) {
    std::string s;
    const int len = static_cast<int>(rng() % 64);
    for (int i = 0; i < len; ++i) s += alphabet[rng() % alphabet.size()];
    ASSERT_EQ(lex(s).reassemble(), s) << s;
  }
}

// header_names() finds exactly the header-name tokens lex() finds.
std::vector<std::pair<std::uint32_t, std::uint32_t>> headers_of(std::string_view text) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const auto stream = lex(text);
  for (const auto& t : stream.tokens())
    if (t.kind == TokenKind::header_name) out.emplace_back(t.offset, t.length);
  return out;
}
std::vector<std::pair<std::uint32_t, std::uint32_t>> scanned_headers(std::string_view text) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const auto& t : header_names(text)) {
    EXPECT_EQ(t.kind, TokenKind::header_name);
    out.emplace_back(t.offset, t.length);
  }
  return out;
}

TEST(Lexer, HeaderNamesAgreeWithTheLexer) {
  const std::vector<std::string> cases = {
      "#include \"a.h\"\nint x;\n#include <b.h>\n",
      "/* start\n#include \"hidden.h\"\n*/\n#include \"seen.h\"\n",
      "// a comment \\\n#include \"continued.h\"\n#include \"next.h\"\n",
      "const char* s = R\"(\n#include \"raw.h\"\n)\";\n#include \"after.h\"\n",
      "int a = 1'000;\n#include \"sep.h\"\n",
      "#define X \\\n  #include \"not.h\"\n#include \"yes.h\"\n",
      "#if 0\n#include \"off.h\"\n#endif\n",
      "x\r\n#include \"crlf.h\"\r\n",
      "\n\n\n#  include   \"spaced.h\"",
      "char c = '\"'; \n#include \"q.h\"\n",
      "  #include \"indented.h\" // trailing\n",
      "a /* x */ #include \"not-at-start.h\"\n",
      "int v = x + 0x1e+1'0; s = u8R\"(\n#include \"raw8.h\"\n)\";\n#include \"after8.h\"\n",
      "auto f = a.b'c'; int g = .5'0;\n#include \"dots.h\"\n",
      "x = y # z\n#include \"hash-mid-line.h\"\n",
  };
  for (const auto& c : cases) {
    EXPECT_EQ(scanned_headers(c), headers_of(c)) << c;
  }
  // The cases are not vacuous: some headers are found, some are hidden.
  EXPECT_EQ(headers_of(cases[1]).size(), 1u);
  EXPECT_EQ(headers_of(cases[3]).size(), 1u);
  EXPECT_EQ(headers_of(cases[0]).size(), 2u);
}

TEST(Lexer, HeaderNamesAgreeOnRandomInput) {
  std::mt19937 rng(7);
  const std::vector<std::string> pieces = {"#", "include", " ", "\"h.h\"", "<s.h>", "\n", "\r\n", "/*", "*/", "//",
                                           "\\", "'", "\"", "R\"(", ")\"", "x", "1'2", "if 0", "endif", "\t",
                                           // code before a special character on the same line
                                           "int a = ", "R", "u8", "L", ".", "e+", "0x1", ";", "b2"};
  for (int round = 0; round < 5000; ++round) {
    std::string s;
    const int len = static_cast<int>(rng() % 40);
    for (int i = 0; i < len; ++i) s += pieces[rng() % pieces.size()];
    ASSERT_EQ(scanned_headers(s), headers_of(s)) << s;
  }
}

}  // namespace
}  // namespace gpuport::lex
