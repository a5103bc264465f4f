// A quick deterministic fuzz loop over real listings: truncations, byte flips, inserted
// syntax characters, dropped and duplicated lines. The parser must not crash, must report
// every problem at a real line of the input, and printing whatever it parsed must not crash.
// (The long libFuzzer run of issue 4 is separate.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "sass/parser.h"
#include "sass/printer.h"
#include "sass_listing_util.h"

namespace gpuport::sass {
namespace {

struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

std::string mutate(std::string text, Random& rng) {
  static const char interesting[] = "[]|`()@!-+.,;{}/*\n\t 0x\0\xff";
  int edits = 1 + static_cast<int>(rng.below(8));
  for (int e = 0; e < edits && !text.empty(); ++e) {
    std::size_t at = rng.below(text.size());
    switch (rng.below(6)) {
      case 0: text.resize(at); break;  // truncation
      case 1: text[at] = static_cast<char>(rng.next() & 0xff); break;  // byte flip
      case 2: text.insert(at, 1, interesting[rng.below(sizeof interesting - 1)]); break;
      case 3: text.erase(at, rng.below(64)); break;
      case 4: {  // duplicate a line elsewhere
        std::size_t start = text.rfind('\n', at);
        start = start == std::string::npos ? 0 : start + 1;
        std::size_t end = text.find('\n', at);
        std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
        text.insert(rng.below(text.size()), line);
        break;
      }
      default: text[at] ^= static_cast<char>(1u << rng.below(8)); break;
    }
  }
  return text;
}

std::size_t count_lines(const std::string& text) {
  std::size_t n = 1;
  for (char c : text) n += c == '\n';
  return n;
}

void check_parse(const std::string& text) {
  SassParseOptions options;
  options.file_name = "fuzz.sass";
  auto result = parse_sass(text, options);
  std::size_t lines = count_lines(text);
  for (const auto& d : result.diagnostics) {
    EXPECT_EQ(d.location.file, "fuzz.sass");
    EXPECT_LE(d.location.line, lines);
    if (d.location.line > 0) {
      EXPECT_GE(d.location.column, 1u);
    }
  }
  EXPECT_LE(result.diagnostics.size(), options.max_diagnostics + 2);
  for (const auto& p : result.programs) {
    std::string printed = print_program(p, {.addresses = true, .encoding = true, .labels = true});
    (void)printed;
  }
}

TEST(SassFuzz, MutatedListingsNeverCrash) {
  auto listings = testing::all_listings();
  if (listings.empty()) GTEST_SKIP() << "no committed listings under tests/sass/listings";
  Random rng{0x9e3779b97f4a7c15ull};
  // A spread of archs and kernels; every 7th listing keeps the loop quick.
  for (std::size_t i = 0; i < listings.size(); i += 7) {
    std::string original = testing::read_text(listings[i]);
    for (int round = 0; round < 40; ++round) check_parse(mutate(original, rng));
  }
}

TEST(SassFuzz, MutatedListingsReportPositions) {
  std::string text =
      "\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
      "\t.section\t.text.k,\"ax\",@progbits\n"
      "k:\n"
      "        /*0000*/                   MOV R1, c[0x0][0x28] ;   /* 0x00000a0000017a02 */\n"
      "        /*0010*/                   @@ garbage here\n"
      "what is this line\n";
  SassParseOptions options;
  options.file_name = "k.sass";
  auto r = parse_sass(text, options);
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].location.line, 5u);
  EXPECT_EQ(r.diagnostics[0].location.column, 9u);
  EXPECT_EQ(r.diagnostics[0].code, "sass-bad-instruction");
  EXPECT_EQ(r.diagnostics[1].location.line, 6u);
  EXPECT_EQ(format_diagnostic(r.diagnostics[1]).rfind("k.sass:6:1:", 0), 0u);
  ASSERT_EQ(r.programs.size(), 1u);
  EXPECT_EQ(r.programs[0].instruction_count(), 1u);  // the good line is kept
}

TEST(SassFuzz, BinaryAndDegenerateInput) {
  Random rng{42};
  for (int round = 0; round < 50; ++round) {
    std::string junk(rng.below(4096), '\0');
    for (auto& c : junk) c = static_cast<char>(rng.next() & 0xff);
    check_parse(junk);
  }
  for (const char* s : {"", "\n", "/*", "/**/", "/*0000*/", "/*0000*/ {", "/*0000*/ @", "/*0000*/ @P0",
                        ".section", ".section .text.", "Function : ", "code for sm_", "/* 0x */",
                        "/* 0x0000000000000000 */", ":", "`(", "/*0010*/ BRA `(", "/*0010*/ X [[[[ ;",
                        "/*0010*/ X |||| ;", "/*0010*/ X (*\"a ;", "/*ffffffffffffffffff*/ NOP ;"}) {
    check_parse(s);
  }
}

TEST(SassFuzz, OperandFragments) {
  Random rng{7};
  const std::string alphabet = "RUPBSZTcx[]|`()@!-+.,0123456789abcdefINFQ_ ";
  for (int round = 0; round < 20000; ++round) {
    std::string s(rng.below(16), ' ');
    for (auto& c : s) c = alphabet[rng.below(alphabet.size())];
    SassOperand o = parse_operand(s);
    std::string printed = print_operand(o);
    // Whatever was classified prints back as the (trimmed) input.
    std::size_t b = s.find_first_not_of(' ');
    std::size_t e = s.find_last_not_of(' ');
    std::string trimmed = b == std::string::npos ? "" : s.substr(b, e - b + 1);
    EXPECT_EQ(printed, trimmed) << "'" << s << "'";
  }
}

}  // namespace
}  // namespace gpuport::sass
