#include <gtest/gtest.h>

#include <cmath>

#include "sass/parser.h"
#include "sass/printer.h"

namespace gpuport::sass {
namespace {

SassOperand op(std::string_view text) {
  SassOperand o = parse_operand(text);
  EXPECT_EQ(print_operand(o), text) << "round trip of " << text;
  return o;
}

TEST(SassOperand, Registers) {
  auto r = op("R12");
  EXPECT_EQ(r.kind, OperandKind::reg);
  EXPECT_EQ(r.index, 12);
  EXPECT_TRUE(op("RZ").is_zero_register());
  auto u = op("UR4");
  EXPECT_EQ(u.kind, OperandKind::uniform_reg);
  EXPECT_TRUE(op("URZ").is_zero_register());
  // Blackwell's uniform file goes past UR62 (CUDA 13 writes UR63..UR75 for sm_100 and sm_120):
  // ordinary registers, distinct from URZ.
  for (std::string_view name : {"UR63", "UR75", "UR254"}) {
    auto big = op(name);
    EXPECT_EQ(big.kind, OperandKind::uniform_reg) << name;
    EXPECT_FALSE(big.is_zero_register()) << name;
  }
  EXPECT_EQ(op("UR63").index, 63);
  EXPECT_EQ(op("UR255").kind, OperandKind::unknown);  // URZ has its own spelling
  auto reuse = op("R0.reuse");
  EXPECT_EQ(reuse.kind, OperandKind::reg);
  EXPECT_TRUE(reuse.has_suffix(".reuse"));
  auto h = op("-|R2|.H1");
  EXPECT_TRUE(h.negate);
  EXPECT_TRUE(h.absolute);
  EXPECT_EQ(h.suffix, ".H1");
  EXPECT_EQ(op("R3.H0_H1").suffix, ".H0_H1");
  EXPECT_TRUE(op("~R5").bitwise_not);
  EXPECT_EQ(op("R4.CC").suffix, ".CC");
  EXPECT_EQ(op("R256").kind, OperandKind::unknown);
}

TEST(SassOperand, Predicates) {
  auto p = op("!P0");
  EXPECT_EQ(p.kind, OperandKind::predicate);
  EXPECT_TRUE(p.logical_not);
  EXPECT_TRUE(op("PT").is_true_predicate());
  auto up = op("!UPT");
  EXPECT_EQ(up.kind, OperandKind::uniform_predicate);
  EXPECT_TRUE(up.is_true_predicate());
  EXPECT_EQ(op("UP1").index, 1);
  EXPECT_EQ(op("P7").kind, OperandKind::unknown);  // P7 is spelled PT
}

TEST(SassOperand, ConstantBank) {
  auto c = op("c[0x0][0x160]");
  EXPECT_EQ(c.kind, OperandKind::constant);
  EXPECT_EQ(c.bank, 0u);
  EXPECT_EQ(c.value, 0x160);
  auto pascal = op("c[0x0] [0x8].H1");
  EXPECT_EQ(pascal.kind, OperandKind::constant);
  EXPECT_EQ(pascal.value, 8);
  EXPECT_EQ(pascal.suffix, ".H1");
  auto indexed = op("c[0x3][R1+0x10]");
  EXPECT_EQ(indexed.bank, 3u);
  EXPECT_TRUE(indexed.address.base.present);
  EXPECT_EQ(indexed.address.base.index, 1);
  EXPECT_EQ(indexed.value, 0x10);
  EXPECT_TRUE(op("-c[0x0][0x20]").negate);
  EXPECT_EQ(op("cx[UR4][R0+0x8]").kind, OperandKind::constant);
}

TEST(SassOperand, Immediates) {
  auto h = op("0x1e");
  EXPECT_EQ(h.kind, OperandKind::immediate);
  EXPECT_EQ(h.value, 0x1e);
  EXPECT_EQ(op("-0xd000000").value, -0xd000000);
  EXPECT_EQ(op("12").value, 12);
  auto f = op("2.384185791015625e-07");
  EXPECT_TRUE(f.is_float);
  EXPECT_DOUBLE_EQ(f.float_value, 2.384185791015625e-07);
  auto inf = op("+INF");
  EXPECT_TRUE(inf.is_float);
  EXPECT_TRUE(std::isinf(inf.float_value));
  auto qnan = op("-QNAN");
  EXPECT_EQ(qnan.kind, OperandKind::immediate);
  EXPECT_TRUE(std::isnan(qnan.float_value));
  EXPECT_FALSE(qnan.negate);  // the sign belongs to the literal
  EXPECT_EQ(op("32@lo(__cudart_i2opi_f)").kind, OperandKind::immediate);
}

TEST(SassOperand, Memory) {
  auto m = op("[R2.64+0x10]");
  EXPECT_EQ(m.kind, OperandKind::memory);
  EXPECT_TRUE(m.address.wide);
  EXPECT_EQ(m.address.base.index, 2);
  EXPECT_EQ(m.address.offset, 0x10);
  auto u = op("[UR4+R1]");
  EXPECT_EQ(u.address.base.kind, OperandKind::uniform_reg);
  EXPECT_EQ(u.address.index.kind, OperandKind::reg);
  EXPECT_EQ(u.address.index.index, 1);
  auto neg = op("[R1+-0x4]");
  EXPECT_EQ(neg.address.offset, -4);
  auto d = op("desc[UR4][R2.64]");
  EXPECT_EQ(d.kind, OperandKind::memory);
  EXPECT_EQ(d.address.descriptor, "desc[UR4]");
  EXPECT_EQ(op("[R4]").address.base.index, 4);
  EXPECT_EQ(op("[0x10]").address.offset, 0x10);
}

TEST(SassOperand, SpecialLabelsBarriers) {
  auto s = op("SR_TID.X");
  EXPECT_EQ(s.kind, OperandKind::special_reg);
  EXPECT_EQ(s.text, "SR_TID.X");
  EXPECT_EQ(op("SR_LANEID").kind, OperandKind::special_reg);
  EXPECT_EQ(op("SR_CLOCKLO").kind, OperandKind::special_reg);
  auto l = op("`(.L_x_3)");
  EXPECT_EQ(l.kind, OperandKind::label);
  EXPECT_EQ(l.text, ".L_x_3");
  auto b = op("B15");
  EXPECT_EQ(b.kind, OperandKind::barrier);
  EXPECT_EQ(b.index, 15);
  EXPECT_EQ(op("SB5").kind, OperandKind::scoreboard);
  EXPECT_EQ(op("PR").kind, OperandKind::special_reg);
}

TEST(SassOperand, UnknownKeepsText) {
  for (std::string_view text : {"2D", "{1,2}", "R1+", "c[0x0", "|R1", "`(", "@@@", "0x"}) {
    auto o = op(text);
    EXPECT_EQ(o.kind, OperandKind::unknown) << text;
  }
}

TEST(SassInstructionText, GuardsModifiersAnnotations) {
  SassInstruction i;
  ASSERT_TRUE(parse_instruction_text("@!P0 LDG.E.64.SYNC R4, [R2.64+0x10] ;", i));
  ASSERT_TRUE(i.guard.has_value());
  EXPECT_TRUE(i.guard->negated);
  EXPECT_EQ(i.guard->index, 0);
  EXPECT_EQ(i.opcode, "LDG");
  EXPECT_EQ(i.modifiers, (ModifierList{"E", "64", "SYNC"}));
  ASSERT_EQ(i.modifiers.size(), 3u);
  EXPECT_EQ(i.modifiers[1], "64");
  EXPECT_EQ(std::vector<std::string>(i.modifiers.begin(), i.modifiers.end()),
            (std::vector<std::string>{"E", "64", "SYNC"}));
  EXPECT_EQ(i.operands.size(), 2u);
  EXPECT_EQ(print_instruction(i), "@!P0 LDG.E.64.SYNC R4, [R2.64+0x10] ;");

  SassInstruction u;
  ASSERT_TRUE(parse_instruction_text("@UP1 BRA `(.L_x_2) ;", u));
  EXPECT_TRUE(u.guard->uniform);
  EXPECT_EQ(u.operands.at(0).kind, OperandKind::label);

  SassInstruction sync;
  ASSERT_TRUE(parse_instruction_text("SYNC (*\"BRANCH_TARGETS .L_x_0\"*);", sync));
  EXPECT_EQ(sync.annotation, "(*\"BRANCH_TARGETS .L_x_0\"*)");
  EXPECT_TRUE(sync.operands.empty());
  EXPECT_EQ(print_instruction(sync), "SYNC (*\"BRANCH_TARGETS .L_x_0\"*);");

  SassInstruction ret;
  ASSERT_TRUE(parse_instruction_text("RET.REL.NODEC R2 `(if_else) ;", ret));
  ASSERT_EQ(ret.operands.size(), 2u);
  EXPECT_TRUE(ret.operands[1].follows_with_space);
  EXPECT_EQ(print_instruction(ret), "RET.REL.NODEC R2 `(if_else) ;");

  SassInstruction bad;
  EXPECT_FALSE(parse_instruction_text("@Q3 FOO ;", bad));
  EXPECT_FALSE(parse_instruction_text("", bad));
}

}  // namespace
}  // namespace gpuport::sass
