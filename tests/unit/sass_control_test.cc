// Control-code decoding checked against encodings from real `nvdisasm -hex` output (CUDA 11.8,
// tests/sass/kernels/if_else.cu), each field worked out by hand from the hex word.
#include <gtest/gtest.h>

#include "sass/control.h"
#include "sass/parser.h"
#include "sass_listing_util.h"

namespace gpuport::sass {
namespace {

ControlCode make(int stall, bool yield, int wbar, int rbar, int wait, int reuse) {
  ControlCode c;
  c.stall = static_cast<std::uint8_t>(stall);
  c.yield = yield;
  c.write_barrier = static_cast<std::uint8_t>(wbar);
  c.read_barrier = static_cast<std::uint8_t>(rbar);
  c.wait_mask = static_cast<std::uint8_t>(wait);
  c.reuse = static_cast<std::uint8_t>(reuse);
  return c;
}

void expect_fields(const ControlCode& got, const ControlCode& want) {
  EXPECT_EQ(got.stall, want.stall);
  EXPECT_EQ(got.yield, want.yield);
  EXPECT_EQ(got.write_barrier, want.write_barrier);
  EXPECT_EQ(got.read_barrier, want.read_barrier);
  EXPECT_EQ(got.wait_mask, want.wait_mask);
  EXPECT_EQ(got.reuse, want.reuse);
}

// sm_61 if_else, first bundle: MOV R1, c[0x0][0x20]; S2R R0, SR_CTAID.X; S2R R2, SR_TID.X.
// 0x001cfc00e22007f6: slot 0 = 0x7f6, slot 1 = 0x711, slot 2 = 0x73f.
TEST(SassControl, PascalControlWordSlots) {
  const std::uint64_t word = 0x001cfc00e22007f6ull;
  expect_fields(decode_maxwell_control(word, 0), make(6, true, 7, 7, 0, 0));
  expect_fields(decode_maxwell_control(word, 1), make(1, true, 0, 7, 0, 0));   // S2R sets SB0
  expect_fields(decode_maxwell_control(word, 2), make(15, true, 1, 7, 0, 0));  // S2R sets SB1
  EXPECT_EQ(decode_maxwell_control(word, 1).bits, 0x711u);
  // Next bundle 0x001fd842fec20ff1: XMAD.MRG R3, R0.reuse, ... waits on SB0 and reuses slot 0;
  // XMAD R2, R0.reuse, ..., R2 waits on SB1.
  const std::uint64_t next = 0x001fd842fec20ff1ull;
  expect_fields(decode_maxwell_control(next, 0), make(1, true, 7, 7, 1, 1));
  expect_fields(decode_maxwell_control(next, 1), make(6, true, 7, 7, 2, 1));
  expect_fields(decode_maxwell_control(next, 2), make(6, true, 7, 7, 0, 0));
  // Out-of-range slots give the neutral code rather than reading past the word.
  expect_fields(decode_maxwell_control(word, 3), ControlCode{});
}

// sm_80 if_else high words.
TEST(SassControl, AmpereHighWord) {
  expect_fields(decode_volta_control(0x000ea2000c1e1900ull), make(1, true, 2, 7, 0, 0));   // LDG.E sets SB2
  expect_fields(decode_volta_control(0x004fda0003f04000ull), make(13, false, 7, 7, 4, 0)); // FSETP waits SB2
  expect_fields(decode_volta_control(0x000e280000002500ull), make(4, true, 0, 7, 0, 0));   // S2R sets SB0
  expect_fields(decode_volta_control(0x001fca00078e0203ull), make(5, false, 7, 7, 1, 0));  // IMAD waits SB0
  expect_fields(decode_volta_control(0x040fe20007ffe0ffull), make(1, true, 7, 7, 0, 1));   // R11.reuse
  EXPECT_EQ(decode_volta_control(0x004fda0003f04000ull).bits, 0x27edu);
}

// The parser attaches the decoded code to the right instruction in both families.
TEST(SassControl, ParserAttachesControlCodes) {
  auto root = testing::listings_root();
  auto p61 = root / "sm_61" / "if_else.sass";
  auto p80 = root / "sm_80" / "if_else.sass";
  if (!std::filesystem::exists(p61) || !std::filesystem::exists(p80)) GTEST_SKIP() << "listings missing";
  {
    auto r = parse_sass(testing::read_text(p61));
    ASSERT_EQ(r.programs.size(), 1u);
    const auto* f = r.programs[0].find_function("if_else");
    ASSERT_NE(f, nullptr);
    ASSERT_GE(f->instructions.size(), 6u);
    EXPECT_EQ(f->instructions[0].address, 0x8u);
    EXPECT_EQ(f->instructions[0].encoding[0], 0x4c98078000870001ull);
    ASSERT_TRUE(f->instructions[1].control.has_value());
    expect_fields(*f->instructions[1].control, make(1, true, 0, 7, 0, 0));
    ASSERT_TRUE(f->instructions[3].control.has_value());  // XMAD.MRG at 0x28
    EXPECT_EQ(f->instructions[3].address, 0x28u);
    expect_fields(*f->instructions[3].control, make(1, true, 7, 7, 1, 1));
    ASSERT_FALSE(f->control_words.empty());
    EXPECT_EQ(f->control_words[0], std::make_pair(std::uint64_t{0}, std::uint64_t{0x001cfc00e22007f6ull}));
  }
  {
    auto r = parse_sass(testing::read_text(p80));
    const auto* f = r.programs.at(0).find_function("if_else");
    ASSERT_NE(f, nullptr);
    std::size_t ldg = f->find_instruction(0x90);
    ASSERT_NE(ldg, SassFunction::npos);
    const auto& inst = f->instructions[ldg];
    EXPECT_EQ(inst.opcode, "LDG");
    EXPECT_EQ(inst.encoding[0], 0x0000000404047981ull);
    EXPECT_EQ(inst.encoding[1], 0x000ea2000c1e1900ull);
    ASSERT_TRUE(inst.control.has_value());
    EXPECT_EQ(inst.control->write_barrier, 2);
    EXPECT_EQ(f->instructions[f->find_instruction(0xb0)].control->wait_mask, 4);
  }
}

}  // namespace
}  // namespace gpuport::sass
