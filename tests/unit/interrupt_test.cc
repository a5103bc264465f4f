// What gpuport leaves behind when it is ended by a signal (common/interrupt.h) or killed outright
// (common/temporary.h's stale folders): the tests fork a stand-in for gpuport that makes
// temporaries and waits, end it, and look at the file system.
#include <csignal>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file_io.h"
#include "common/interrupt.h"
#include "common/process.h"
#include "common/temporary.h"
#include "test_support.h"

namespace gpuport {
namespace {

namespace fs = std::filesystem;

// Waits until `file` exists and returns its first line.
std::string wait_for(const fs::path& file) {
  for (int i = 0; i < 1000 && !fs::exists(file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// A process id that no longer runs: a child that exited and was reaped.
pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

// Forks a stand-in for gpuport with TMPDIR = `tmp` that makes a temporary folder with a file
// in it, a registered temporary file in `tree`, and a child (sleep) through the process runner;
// it writes the folder's path to `ready` and waits.
pid_t start_stand_in(const fs::path& tmp, const fs::path& tree, const fs::path& ready) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv("TMPDIR", tmp.c_str(), 1);
    TemporaryFolder folder = TemporaryFolder::make("interrupt-test");
    std::ofstream(folder.path() / "half-written.o") << "partial";
    fs::create_directories(folder.path() / "nested" / "deeper");
    std::ofstream(folder.path() / "nested" / "deeper" / "x") << "x";
    const fs::path file = tree / (".out.cu.gpuport-" + std::to_string(::getpid()) + "-abcdef");
    std::ofstream(file) << "partial";
    TemporaryRegistration registration(file);
    std::thread([&] { run_process({"sleep", "60"}); }).detach();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::ofstream(ready.string() + ".tmp") << folder.path().string() << "\n";
    fs::rename(ready.string() + ".tmp", ready);
    ::pause();
    ::_exit(0);
  }
  return pid;
}

TEST(Interrupt, TemporariesGoWhenGpuportIsEndedBySignal) {
  for (int sig : {SIGTERM, SIGHUP, SIGQUIT, SIGINT}) {
    struct sigaction current {};
    ::sigaction(sig, nullptr, &current);
    if (current.sa_handler == SIG_IGN) continue;  // a background job's SIGINT: gpuport leaves it ignored
    testing::TempDir dir;
    fs::create_directories(dir.path() / "tmp");
    fs::create_directories(dir.path() / "tree");
    const pid_t gpuport = start_stand_in(dir.path() / "tmp", dir.path() / "tree", dir.path() / "ready");
    const std::string folder = wait_for(dir.path() / "ready");
    ASSERT_FALSE(folder.empty());
    ASSERT_TRUE(fs::exists(folder));
    ::kill(gpuport, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(gpuport, &status, 0), gpuport);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "signal " << sig << ": gpuport ends by the signal it got";
    EXPECT_FALSE(fs::exists(folder)) << "signal " << sig;
    EXPECT_TRUE(fs::is_empty(dir.path() / "tmp")) << "signal " << sig;
    EXPECT_TRUE(fs::is_empty(dir.path() / "tree")) << "signal " << sig;
  }
}

TEST(Interrupt, TheHandlerWaitsForATemporaryAnotherThreadIsMaking) {
  // The signal comes while a worker thread has made a temporary but not yet registered it; the
  // handler runs in another thread (the worker holds the signals back). Before, the handler
  // removed what was registered and gpuport died, leaving the worker's file (two interrupted
  // translate --in-place runs left three).
  testing::TempDir dir;
  const fs::path file = dir.path() / ".x.cu.gpuport-1-abcdef";
  const pid_t gpuport = ::fork();
  if (gpuport == 0) {
    install_ending_signal_handlers();
    std::thread worker([&] {
      TemporaryRegistration registration;
      {
        EndingSignalsBlocked making;
        std::ofstream(file) << "partial";
        std::ofstream(dir.path() / "ready") << "x";
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        registration = TemporaryRegistration(file);
      }
      std::this_thread::sleep_for(std::chrono::seconds(60));
    });
    worker.join();
    ::_exit(0);
  }
  wait_for(dir.path() / "ready");
  ::kill(gpuport, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(gpuport, &status, 0), gpuport);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_FALSE(fs::exists(file)) << "the worker's temporary was left";
}

TEST(Interrupt, StaleFoldersOfARunKilledOutrightGoWithTheNextRun) {
  testing::TempDir dir;
  const pid_t gpuport = start_stand_in(dir.path(), dir.path(), dir.path() / "ready");
  const std::string folder = wait_for(dir.path() / "ready");
  ASSERT_FALSE(folder.empty());
  ::kill(gpuport, SIGKILL);
  int status = 0;
  ::waitpid(gpuport, &status, 0);
  ASSERT_TRUE(fs::exists(folder)) << "SIGKILL cannot be handled: the folder stays until the next run";
  // A folder of a process that still runs (this one) stays; the dead one's goes.
  const fs::path mine = dir.path() / ("gpuport-x-" + std::to_string(::getpid()) + "-abcdef");
  fs::create_directories(mine);
  EXPECT_EQ(remove_stale_temporary_folders(dir.path()), 1u);
  EXPECT_FALSE(fs::exists(folder));
  EXPECT_TRUE(fs::exists(mine));
  // A staging folder beside a target (tune --prepare's) is a stale temporary of file_io's kind.
  const fs::path staging = dir.path() / (".work.gpuport-" + std::to_string(dead_pid()) + "-abcdef");
  fs::create_directories(staging / "candidates");
  std::ofstream(staging / "candidates" / "c01.cubin") << "x";
  EXPECT_EQ(remove_stale_temporaries(dir.path()), 2u);  // the staging folder and the stand-in's temporary file
  EXPECT_FALSE(fs::exists(staging));
}

TEST(Interrupt, FolderNamesSayTheirProcess) {
  EXPECT_EQ(temporary_folder_owner("gpuport-tool-1234-AbC123"), 1234);
  EXPECT_EQ(temporary_folder_owner("gpuport-asm-exe-77-xxxxxx"), 77);
  for (const char* other : {"gpuport-tool-AbC123", "gpuport-test-123456789", "gpuport--1-abcdef", "tool-1234-AbC123", "gpuport-x-12a-abcdef"})
    EXPECT_FALSE(temporary_folder_owner(other)) << other;
  TemporaryFolder folder = TemporaryFolder::make("names");
  ASSERT_FALSE(folder.empty());
  EXPECT_EQ(temporary_folder_owner(folder.path().filename().string()), ::getpid());
  const fs::path path = folder.path();
  folder.remove();
  EXPECT_FALSE(fs::exists(path));
}

TEST(Interrupt, TreeRemovalDoesNotFollowLinks) {
  testing::TempDir dir;
  const fs::path outside = dir.path() / "outside";
  fs::create_directories(outside);
  std::ofstream(outside / "keep") << "keep";
  const fs::path tree = dir.path() / "tree";
  // More entries than one getdents64 buffer holds, nested, and links to a folder and a file outside.
  for (int d = 0; d < 3; ++d) {
    fs::create_directories(tree / std::to_string(d));
    for (int i = 0; i < 100; ++i) std::ofstream(tree / std::to_string(d) / ("a-fairly-long-file-name-" + std::to_string(i))) << i;
  }
  fs::create_directory_symlink(outside, tree / "link-to-folder");
  fs::create_symlink(outside / "keep", tree / "0" / "link-to-file");
  EXPECT_TRUE(remove_tree_signal_safe(tree.c_str()));
  EXPECT_FALSE(fs::exists(fs::symlink_status(tree)));
  auto kept = read_file(outside / "keep", 100);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(*kept, "keep");
  EXPECT_TRUE(remove_tree_signal_safe((dir.path() / "never-was").c_str()));
}

}  // namespace
}  // namespace gpuport
