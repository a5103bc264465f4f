#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

TEST(FileIo, AFifoIsRefusedWithoutWaitingForAWriter) {
  testing::TempDir dir;
  const fs::path fifo = dir.path() / "pipe.cu";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = read_file(fifo, 100);  // before: blocked forever in open()
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics()[0].message.find("a FIFO, not a regular file"), std::string::npos)
      << r.diagnostics()[0].message;
}

TEST(FileIo, WritesThroughASymlinkAndKeepsIt) {
  testing::TempDir dir;
  const fs::path target = dir.path() / "real.txt", link = dir.path() / "link.txt";
  ASSERT_FALSE(write_file_atomic(target, "old").has_value());
  fs::create_symlink("real.txt", link);
  ASSERT_FALSE(write_file_atomic(link, "new").has_value());
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(*read_file(target, 100), "new");
}

TEST(FileIo, DevicesAreWrittenToNotReplaced) {
  EXPECT_FALSE(write_file_atomic("/dev/null", "anything").has_value());
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  if (fs::exists("/dev/full")) {
    auto err = write_file_atomic("/dev/full", "anything");
    ASSERT_TRUE(err.has_value());
    EXPECT_NE(err->message.find("No space left"), std::string::npos) << err->message;
  }
}

TEST(FileIo, AMissingFolderIsAnErrorWhenAsked) {
  testing::TempDir dir;
  auto err = write_file_atomic(dir.path() / "no" / "such" / "r.txt", "x", {.create_parents = false});
  ASSERT_TRUE(err.has_value());
  EXPECT_FALSE(fs::exists(dir.path() / "no"));
  EXPECT_FALSE(write_file_atomic(dir.path() / "made" / "r.txt", "x").has_value());
}

TEST(FileIo, TakesModeAndOwnerFromAModelFile) {
  testing::TempDir dir;
  const fs::path model = dir.path() / "model.cu", copy = dir.path() / "copy.cu";
  ASSERT_FALSE(write_file_atomic(model, "m").has_value());
  ::chmod(model.c_str(), 0600);
  const bool root = ::geteuid() == 0;
  if (root) {
    ASSERT_EQ(::chown(model.c_str(), 4321, 4321), 0);
  }
  ASSERT_FALSE(write_file_atomic(copy, "c", {.metadata_from = model}).has_value());
  struct stat st {};
  ::stat(copy.c_str(), &st);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  if (root) {
    EXPECT_EQ(st.st_uid, 4321u);
  }
  // Without keep_owner the mode still comes along, the owner does not.
  ASSERT_FALSE(write_file_atomic(dir.path() / "other.cu", "c", {.metadata_from = model, .keep_owner = false}).has_value());
  ::stat((dir.path() / "other.cu").c_str(), &st);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_uid, ::geteuid());
  // Replacing a file keeps its owner too.
  if (root) {
    ASSERT_FALSE(write_file_atomic(model, "m2").has_value());
    ::stat(model.c_str(), &st);
    EXPECT_EQ(st.st_uid, 4321u);
  }
}

TEST(FileIo, ALongFileNameFitsItsTemporaryName) {
  testing::TempDir dir;
  const fs::path f = dir.path() / (std::string(250, 'k') + ".cu");  // 253 bytes, legal
  ASSERT_FALSE(write_file_atomic(f, "x").has_value());
  EXPECT_EQ(*read_file(f, 100), "x");
}

TEST(FileIo, NoReplaceKeepsAnExistingFile) {
  testing::TempDir dir;
  const fs::path f = dir.path() / "backup";
  ASSERT_FALSE(write_file_atomic(f, "first", {.no_replace = true}).has_value());
  auto err = write_file_atomic(f, "second", {.no_replace = true});
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->code, "file-exists");
  EXPECT_EQ(*read_file(f, 100), "first");
  std::size_t entries = 0;
  for (auto& e : fs::directory_iterator(dir.path())) (void)e, ++entries;
  EXPECT_EQ(entries, 1u) << "no temporary file left";
}

TEST(FileIo, StaleTemporariesOfDeadWritersAreRemoved) {
  testing::TempDir dir;
  // A pid that surely ran and ended: a child of this test, reaped.
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  const fs::path stale = dir.path() / (".a.cu.gpuport-" + std::to_string(dead) + "-AbC123");
  const fs::path live = dir.path() / (".b.cu.gpuport-" + std::to_string(::getpid()) + "-XyZ789");
  const fs::path user = dir.path() / ".notes.gpuport-x";
  for (const auto& f : {stale, live, user}) ASSERT_FALSE(write_file_atomic(f, "x").has_value());
  EXPECT_TRUE(temporary_file_writer(stale.filename().native()).has_value());
  EXPECT_FALSE(temporary_file_writer(user.filename().native()).has_value());
  EXPECT_EQ(remove_stale_temporaries(dir.path()), 1u);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(live));
  EXPECT_TRUE(fs::exists(user));
}

}  // namespace
}  // namespace gpuport
