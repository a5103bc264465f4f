// nvcc's option table (verify/nvcc_options.h) against the driver's reading of the command line:
// every row, in both spellings, does what the row says.
#include "verify/nvcc_options.h"

#include <gtest/gtest.h>

#include <fstream>

#include "common/temporary.h"
#include "verify/nvcc_driver.h"

namespace gpuport::verify {
namespace {

TEST(NvccOptions, EveryRowDoesWhatItSays) {
  TemporaryFolder tmp = TemporaryFolder::make("nvcc-options");
  ASSERT_FALSE(tmp.empty());
  std::ofstream(tmp.path() / "opts.txt") << "-DFROM_FILE\n";
  for (const auto& row : nvcc_options()) {
    for (std::string_view spelling : {row.long_name, row.short_name}) {
      std::vector<std::string> args = {std::string(spelling)};
      std::string value(row.sample);
      if (row.takes_value) args.push_back(spelling == "--options-file" || spelling == "-optf" ? (tmp.path() / "opts.txt").string() : value);
      args.push_back("a.cu");
      const auto r = parse_nvcc_command(args);
      SCOPED_TRACE(std::string(spelling));
      switch (row.action) {
        case NvccOptionAction::refused:
          ASSERT_FALSE(r.ok());
          EXPECT_NE(r.diagnostics()[0].message.find(std::string(spelling)), std::string::npos) << r.diagnostics()[0].message;
          EXPECT_NE(r.diagnostics()[0].message.find(std::string(row.text)), std::string::npos);
          break;
        case NvccOptionAction::dropped:
          ASSERT_TRUE(r.ok());
          ASSERT_EQ(r->notes.size(), 1u);
          EXPECT_NE(r->notes[0].find(std::string(row.text)), std::string::npos);
          EXPECT_EQ(r->inputs.size(), 1u);  // the value was not taken for an input
          break;
        case NvccOptionAction::clang: {
          ASSERT_TRUE(r.ok());
          const std::string flag = std::string(row.text) + (row.takes_value ? value : "");
          EXPECT_NE(std::find(r->compile_flags.begin(), r->compile_flags.end(), flag), r->compile_flags.end()) << flag;
          EXPECT_EQ(r->inputs.size(), 1u);
          break;
        }
        case NvccOptionAction::handled:
          ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.diagnostics()[0].message);
          EXPECT_EQ(r->inputs.size(), 1u);
          break;
      }
      // The `=value` form reads the same.
      if (row.takes_value && row.action != NvccOptionAction::refused && spelling.starts_with("--")) {
        const std::string joined = std::string(spelling) + "=" + (spelling == "--options-file" ? (tmp.path() / "opts.txt").string() : value);
        const auto j = parse_nvcc_command({joined, "a.cu"});
        EXPECT_TRUE(j.ok()) << joined;
      }
    }
  }
}

TEST(NvccOptions, NamesAreUnique) {
  for (const auto& row : nvcc_options()) {
    EXPECT_EQ(find_nvcc_option(row.long_name), &row) << row.long_name;
    EXPECT_TRUE(row.long_name.starts_with("--")) << row.long_name;
    EXPECT_TRUE(row.short_name.starts_with("-")) << row.short_name;
  }
}

}  // namespace
}  // namespace gpuport::verify
