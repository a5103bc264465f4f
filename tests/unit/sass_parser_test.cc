#include <gtest/gtest.h>

#include "sass/parser.h"
#include "sass/printer.h"
#include "sass_listing_util.h"

namespace gpuport::sass {
namespace {

using testing::all_listings;
using testing::instruction_text_of_line;
using testing::read_text;
using testing::split_lines;

TEST(SassListings, EveryDefaultArchHasListings) {
  auto listings = all_listings();
  if (listings.empty()) GTEST_SKIP() << "no committed listings under tests/sass/listings";
  for (const char* arch : {"sm_61", "sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"}) {
    EXPECT_TRUE(std::filesystem::exists(testing::listings_root() / arch)) << arch;
  }
}

TEST(SassListings, ParseWithoutDiagnostics) {
  auto listings = all_listings();
  if (listings.empty()) GTEST_SKIP() << "no committed listings under tests/sass/listings";
  for (const auto& path : listings) {
    std::string text = read_text(path);
    SassParseOptions options;
    options.file_name = path.string();
    auto result = parse_sass(text, options);
    for (const auto& d : result.diagnostics) ADD_FAILURE() << format_diagnostic(d);
    ASSERT_EQ(result.programs.size(), 1u) << path;
    const auto& program = result.programs[0];
    EXPECT_EQ(path.parent_path().filename().string(), "sm_" + std::to_string(program.arch)) << path;
    EXPECT_FALSE(program.functions.empty()) << path;
    EXPECT_GT(program.instruction_count(), 0u) << path;
    bool any_entry = false;
    for (const auto& f : program.functions) {
      any_entry = any_entry || f.is_entry;
      EXPECT_FALSE(f.instructions.empty()) << path << " " << f.name;
      for (const auto& inst : f.instructions) {
        // -hex listings give every instruction its full encoding and decoded control bits.
        EXPECT_EQ(inst.encoding_words, program.arch < 70 ? 1 : 2) << path << ":" << inst.line;
        EXPECT_TRUE(inst.control.has_value()) << path << ":" << inst.line;
      }
    }
    EXPECT_TRUE(any_entry) << path;
  }
}

TEST(SassListings, PrintReproducesEveryInstructionLine) {
  auto listings = all_listings();
  if (listings.empty()) GTEST_SKIP() << "no committed listings under tests/sass/listings";
  std::size_t checked = 0;
  for (const auto& path : listings) {
    std::string text = read_text(path);
    auto lines = split_lines(text);
    auto result = parse_sass(text);
    for (const auto& program : result.programs)
      for (const auto& f : program.functions)
        for (const auto& inst : f.instructions) {
          ASSERT_GE(inst.line, 1u);
          ASSERT_LE(inst.line, lines.size());
          std::string expected = instruction_text_of_line(lines[inst.line - 1]);
          EXPECT_EQ(print_instruction(inst), expected) << path << ":" << inst.line;
          for (const auto& op : inst.operands)
            EXPECT_NE(op.kind, OperandKind::unknown) << path << ":" << inst.line << " operand '" << op.text << "'";
          ++checked;
        }
  }
  EXPECT_GT(checked, 1000u);
}

TEST(SassListingChecks, AddressesOnlyGrowAndBranchesLandOnInstructions) {
  // cuobjdump -sass text as a hostile user might hand it over: the intact listing parses clean;
  // an address that repeats or goes back, and a branch to an address no instruction has, are
  // errors with the line (before, all three were accepted and translated).
  const std::string intact =
      "\tcode for sm_80\n\t\tFunction : k\n"
      "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
      "        /*0010*/                   ISETP.GE.AND P0, PT, R1, 0x1, PT ;\n"
      "        /*0020*/               @P0 BRA 0x40 ;\n"
      "        /*0030*/                   NOP ;\n"
      "        /*0040*/                   EXIT ;\n";
  EXPECT_TRUE(parse_sass(intact).diagnostics.empty());
  auto codes = [](const std::string& text) {
    std::vector<std::pair<std::string, std::uint32_t>> out;
    for (const auto& d : parse_sass(text).diagnostics) out.emplace_back(d.code, d.location.line);
    return out;
  };
  std::string repeat = intact;
  repeat.replace(repeat.find("/*0030*/"), 8, "/*0020*/");
  EXPECT_EQ(codes(repeat), (std::vector<std::pair<std::string, std::uint32_t>>{{"bad-instruction-address", 6}}));
  std::string back = intact;
  back.replace(back.find("/*0010*/"), 8, "/*0000*/");
  EXPECT_EQ(codes(back), (std::vector<std::pair<std::string, std::uint32_t>>{{"bad-instruction-address", 4}}));
  std::string stray = intact;
  stray.replace(stray.find("BRA 0x40"), 8, "BRA 0x48");
  EXPECT_EQ(codes(stray), (std::vector<std::pair<std::string, std::uint32_t>>{{"bad-branch-target", 5}}));
}

TEST(SassArch, NamesAreReadWhole) {
  EXPECT_EQ(parse_arch("sm_80"), 80);
  EXPECT_EQ(parse_arch("sm_90a"), 90);
  EXPECT_EQ(parse_arch("sm_100f"), 100);
  EXPECT_EQ(parse_arch("SM75"), 75);
  for (const char* bad : {"sm_80;x", "sm_12x", "sm_8", "sm_1000", "sm_080", "sm_90ab", "sm_", "80", "sm_80 ", ""})
    EXPECT_EQ(parse_arch(bad), 0) << bad;
  EXPECT_EQ(parse_arch_prefix("sm_90a, texmode_unified"), 90);
  std::string problem;
  EXPECT_EQ(parse_arch_list("sm_80, sm_90,sm_80", problem), (std::vector<int>{80, 90}));
  EXPECT_FALSE(parse_arch_list("sm_80;x", problem));
  EXPECT_EQ(problem, "'sm_80;x' is not an architecture (sm_80, sm_90a, ...)");
  EXPECT_FALSE(parse_arch_list("sm_80,", problem));
  EXPECT_EQ(problem, "an empty item in the list");
}

}  // namespace
}  // namespace gpuport::sass

namespace gpuport::sass {
namespace {

// cuobjdump -sass of the sm_61 and sm_80 if_else cubins (CUDA 11.8), concatenated: one program
// per "code for sm_XX" block, branch targets as absolute addresses.
TEST(SassCuobjdump, OneProgramPerArchAndRoundTrip) {
  auto path = std::filesystem::path(GPUPORT_SOURCE_DIR) / "tests/sass/cuobjdump/if_else.sm_61.sm_80.txt";
  std::string text = testing::read_text(path);
  if (text.empty()) GTEST_SKIP() << "missing " << path;
  auto lines = testing::split_lines(text);
  auto r = parse_sass(text);
  EXPECT_TRUE(r.diagnostics.empty());
  ASSERT_EQ(r.programs.size(), 2u);
  EXPECT_EQ(r.programs[0].arch, 61);
  EXPECT_EQ(r.programs[1].arch, 80);
  for (const auto& p : r.programs) {
    ASSERT_EQ(p.functions.size(), 1u);
    EXPECT_EQ(p.functions[0].name, "if_else");
    for (const auto& inst : p.functions[0].instructions) {
      EXPECT_EQ(print_instruction(inst), testing::instruction_text_of_line(lines[inst.line - 1])) << inst.line;
      EXPECT_TRUE(inst.control.has_value()) << inst.line;
      if (inst.opcode == "BRA" || inst.opcode == "SSY") {
        ASSERT_FALSE(inst.operands.empty());
        EXPECT_EQ(inst.operands.back().kind, OperandKind::label) << inst.line;
      }
    }
  }
}

}  // namespace
}  // namespace gpuport::sass
