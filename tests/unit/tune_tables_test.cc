// The data tables of `gpuport tune` parse cleanly and say what the rewriter relies on.
#include <gtest/gtest.h>

#include "sass/cubin.h"
#include "sass/parser.h"
#include "tune/tables.h"

namespace gpuport::tune {
namespace {

TEST(TuneTables, BuiltinTablesParseWithoutErrors) {
  EXPECT_TRUE(builtin_tune_opcode_table().errors.empty()) << builtin_tune_opcode_table().errors.front();
  EXPECT_TRUE(builtin_nvinfo_table().errors.empty()) << builtin_nvinfo_table().errors.front();
  EXPECT_GT(builtin_tune_opcode_table().rows.size(), 100u);
}

TEST(TuneTables, BadRowsAreReportedWithTheirLine) {
  TuneOpcodeTable t = parse_tune_opcode_table("# c\nLDG\tload\t-\t500\nFOO\tweird\t-\t1\nBAR\talu\t-\tx\n");
  ASSERT_EQ(t.errors.size(), 3u);
  EXPECT_NE(t.errors[0].find("line 2"), std::string::npos);
  EXPECT_NE(t.errors[1].find("unknown class"), std::string::npos);
  EXPECT_NE(t.errors[2].find("latency"), std::string::npos);
}

TEST(TuneTables, EveryKnownAttributeIsClassified) {
  // A new EIATTR name in the cubin reader must get a row: the rewriter refuses unknown ones.
  for (int id = 0; id < 256; ++id) {
    std::string_view name = sass::nvinfo_attribute_name(static_cast<std::uint8_t>(id));
    if (name.starts_with("EIATTR_0x") || name == "EIATTR_ERROR") continue;
    bool listed = false;
    for (const auto& row : builtin_nvinfo_table().rows) listed |= row.first == name;
    EXPECT_TRUE(listed) << name;
  }
  EXPECT_EQ(builtin_nvinfo_table().find("EIATTR_EXIT_INSTR_OFFSETS"), NvInfoKind::offsets);
  EXPECT_EQ(builtin_nvinfo_table().find("EIATTR_NOT_A_THING"), NvInfoKind::refuse);
}

TEST(TuneTables, ClocksUnknownOpcodesAndPredicateFilesAreFences) {
  auto cls = [](std::string_view text) {
    sass::SassInstruction inst;
    EXPECT_TRUE(sass::parse_instruction_text(text, inst)) << text;
    return classify_instruction(inst).cls;
  };
  EXPECT_EQ(cls("CS2R R4, SR_CLOCKLO ;"), OpcodeClass::fence);
  EXPECT_EQ(cls("CS2R R4, SRZ ;"), OpcodeClass::fence);  // a pair the def-use table does not see
  EXPECT_EQ(cls("S2R R0, SR_TID.X ;"), OpcodeClass::alu);
  EXPECT_EQ(cls("P2R R2, PR, RZ, 0x1 ;"), OpcodeClass::fence);
  EXPECT_EQ(cls("FOOBAR R1, R2 ;"), OpcodeClass::fence);
  EXPECT_EQ(cls("BAR.SYNC.DEFER_BLOCKING 0x0 ;"), OpcodeClass::fence);
  EXPECT_EQ(cls("LDG.E R4, [R2.64] ;"), OpcodeClass::load);
}

}  // namespace
}  // namespace gpuport::tune
