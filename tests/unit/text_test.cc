#include <gtest/gtest.h>

#include "common/text.h"

namespace gpuport {
namespace {

TEST(Text, LineIndexLocatesOffsets) {
  LineIndex idx("ab\ncd\r\nef");
  EXPECT_EQ(idx.locate(0).line, 1u);
  EXPECT_EQ(idx.locate(1).column, 2u);
  EXPECT_EQ(idx.locate(3).line, 2u);
  EXPECT_EQ(idx.locate(7).line, 3u);
  EXPECT_EQ(idx.locate(8).column, 2u);
}

TEST(Text, AcceptsAsciiAndUtf8) {
  EXPECT_EQ(check_text("plain ascii\n").problem, TextProblem::none);
  EXPECT_EQ(check_text("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80").problem, TextProblem::none);
}

TEST(Text, FindsNulBytesAndBadEncodings) {
  auto nul = check_text(std::string("abcdefghij\0k", 12));
  EXPECT_EQ(nul.problem, TextProblem::nul_byte);
  EXPECT_EQ(nul.offset, 10u);
  auto latin1 = check_text("abc \xE9t\xE9");
  EXPECT_EQ(latin1.problem, TextProblem::invalid_utf8);
  EXPECT_EQ(latin1.offset, 4u);
  EXPECT_EQ(check_text("\xC0\xAF").problem, TextProblem::invalid_utf8);          // overlong
  EXPECT_EQ(check_text("\xED\xA0\x80").problem, TextProblem::invalid_utf8);      // surrogate
  EXPECT_EQ(check_text("truncated \xE2\x82").problem, TextProblem::invalid_utf8);
}

}  // namespace
}  // namespace gpuport
