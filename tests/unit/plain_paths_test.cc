#include <gtest/gtest.h>

#include "common/file_io.h"
#include "common/plain_paths.h"
#include "common/process.h"
#include "test_support.h"

namespace gpuport {
namespace {
namespace fs = std::filesystem;

TEST(PlainPaths, PlainPathsStayAsTheyAre) {
  PlainPaths plain;
  testing::TempDir dir;
  ASSERT_FALSE(write_file_atomic(dir.path() / "k.cu", "x").has_value());
  auto alias = plain.input(dir.path() / "k.cu");
  ASSERT_TRUE(alias.ok());
  EXPECT_EQ(*alias, dir.path() / "k.cu");
}

TEST(PlainPaths, AShellGivenTheAliasRunsNothing) {
  testing::TempDir dir;
  const fs::path marker = dir.path() / "pwned";
  // The name nvcc would put, unquoted, into its `sh -c` commands.
  const fs::path hostile = dir.path() / ("x$(touch " + marker.string() + ")`touch " + marker.string() + "`.cu");
  ASSERT_FALSE(write_file_atomic(hostile, "int x;\n").has_value());
  fs::path folder;
  {
    PlainPaths plain;
    auto alias = plain.input(hostile);
    ASSERT_TRUE(alias.ok()) << format_diagnostic(alias.diagnostics().front());
    EXPECT_TRUE(is_plain_argument(alias->native())) << *alias;
    EXPECT_EQ(alias->extension(), ".cu");
    EXPECT_EQ(*read_file(*alias, 100), "int x;\n");
    auto r = run_process({"sh", "-c", "cat " + alias->string()});
    EXPECT_EQ(r.out, "int x;\n");
    EXPECT_FALSE(fs::exists(marker));
    // Messages name the user's file again; commands shown are safe to paste.
    EXPECT_EQ(plain.restore("error in " + alias->string()), "error in " + hostile.string());
    EXPECT_EQ(plain.restore_command("cc " + alias->string()), "cc " + shell_quote(hostile.string()));
    folder = alias->parent_path();
  }
  EXPECT_FALSE(fs::exists(folder)) << "the private folder goes with the object";
  EXPECT_TRUE(fs::exists(hostile));
}

TEST(PlainPaths, FoldersAndOutputs) {
  testing::TempDir dir;
  const fs::path inc = dir.path() / "inc $(x)";
  ASSERT_FALSE(write_file_atomic(inc / "h.h", "#define V 1\n").has_value());
  PlainPaths plain;
  auto flags = plain.include_flags({inc});
  ASSERT_TRUE(flags.ok());
  ASSERT_EQ(flags->size(), 1u);
  EXPECT_TRUE(is_plain_argument((*flags)[0]));
  EXPECT_TRUE(fs::exists(fs::path((*flags)[0].substr(2)) / "h.h"));

  const fs::path target = dir.path() / "out;dir" / "a b.o";
  fs::create_directories(target.parent_path());
  auto out = plain.output(target);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(is_plain_argument(out->native()));
  ASSERT_FALSE(write_file_atomic(*out, "object").has_value());
  EXPECT_FALSE(plain.commit_outputs().has_value());
  EXPECT_EQ(*read_file(target, 100), "object");
}

}  // namespace
}  // namespace gpuport
