#include <fstream>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "common/file_io.h"
#include "test_support.h"

namespace gpuport {
namespace {
namespace fs = std::filesystem;

TEST(FileIo, WritesAtomicallyAndKeepsMode) {
  testing::TempDir dir;
  const fs::path f = dir.path() / "sub" / "a.cu";
  ASSERT_FALSE(write_file_atomic(f, "one").has_value());
  ::chmod(f.c_str(), 0750);
  ASSERT_FALSE(write_file_atomic(f, "two").has_value());
  EXPECT_EQ(*read_file(f, 100), "two");
  struct stat st {};
  ::stat(f.c_str(), &st);
  EXPECT_EQ(st.st_mode & 0777, 0750u);
  // No temporary files are left behind.
  std::size_t entries = 0;
  for (auto& e : fs::directory_iterator(f.parent_path())) (void)e, ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(FileIo, FailedWriteLeavesTheOldFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permission checks do not apply";
  testing::TempDir dir;
  const fs::path f = dir.path() / "a.cu";
  ASSERT_FALSE(write_file_atomic(f, "old").has_value());
  fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
  auto err = write_file_atomic(f, "new");
  fs::permissions(dir.path(), fs::perms::owner_all);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->code, "io-error");
  EXPECT_EQ(*read_file(f, 100), "old");
}

TEST(FileIo, ReadReportsMissingAndTooLarge) {
  testing::TempDir dir;
  auto missing = read_file(dir.path() / "nope.cu", 100);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.diagnostics()[0].code, "io-error");
  EXPECT_NE(missing.diagnostics()[0].location.file.find("nope.cu"), std::string::npos);
  ASSERT_FALSE(write_file_atomic(dir.path() / "big.cu", std::string(1000, 'x')).has_value());
  auto big = read_file(dir.path() / "big.cu", 999);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.diagnostics()[0].code, "file-too-large");
}

}  // namespace
}  // namespace gpuport
