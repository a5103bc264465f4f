#include <csignal>
#include <fstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/process.h"
#include "test_support.h"

namespace gpuport {
namespace {

TEST(Process, CapturesOutputAndExitCode) {
  auto r = run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.outcome(), "exit 3");
}

TEST(Process, KillsTheWholeGroupOnTimeout) {
  ProcessOptions o;
  o.timeout = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  auto r = run_process({"sh", "-c", "sleep 30 & sleep 30"}, o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(Process, ReportsAMissingProgram) {
  auto r = run_process({"/nonexistent/program"});
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.succeeded());
}

TEST(Process, AppliesEnvironmentChanges) {
  ProcessOptions o;
  o.environment["GPUPORT_TEST_VAR"] = "hello";
  o.environment["HOME"] = std::nullopt;
  auto r = run_process({"sh", "-c", "echo \"$GPUPORT_TEST_VAR:${HOME:-unset}\""}, o);
  EXPECT_EQ(r.out, "hello:unset\n");
}

TEST(Process, QuotesCommandLines) {
  EXPECT_EQ(shell_quote("plain-arg"), "plain-arg");
  EXPECT_EQ(shell_quote("has space"), "'has space'");
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

// A process that no longer runs: gone, or a zombie waiting for a parent that is not this test.
bool process_ended(pid_t pid) {
  if (::kill(pid, 0) != 0) return true;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close == std::string::npos || (close + 2 < text.size() && (text[close + 2] == 'Z' || text[close + 2] == 'X'));
}

bool ends_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (process_ended(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return process_ended(pid);
}

// Forks a stand-in for gpuport that runs `sleep 60` through run_process (the sleep writes its
// pid to a file), waits until the sleep runs, and returns {stand-in, sleep}.
std::pair<pid_t, pid_t> start_gpuport_with_a_child(const std::filesystem::path& pid_file) {
  const pid_t gpuport = ::fork();
  if (gpuport == 0) {
    run_process({"sh", "-c", "echo $$ > '" + pid_file.string() + "'.tmp && mv '" + pid_file.string() + "'.tmp '" +
                                 pid_file.string() + "' && exec sleep 60"});
    ::_exit(0);
  }
  for (int i = 0; i < 500 && !std::filesystem::exists(pid_file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::ifstream in(pid_file);
  pid_t child = 0;
  in >> child;
  return {gpuport, child};
}

TEST(Process, ChildrenDieWhenGpuportIsEndedBySignal) {
  // The child runs in a process group of its own, so the terminal's SIGINT never reaches it:
  // gpuport's handler must kill it (before, nvdisasm kept spinning after gpuport died).
  for (int sig : {SIGTERM, SIGINT}) {
    // A shell starts background jobs with SIGINT ignored; gpuport then leaves it ignored too.
    struct sigaction current {};
    ::sigaction(sig, nullptr, &current);
    if (current.sa_handler == SIG_IGN) continue;
    testing::TempDir dir;
    auto [gpuport, child] = start_gpuport_with_a_child(dir.path() / "pid");
    ASSERT_GT(child, 0);
    ASSERT_FALSE(process_ended(child));
    ::kill(gpuport, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(gpuport, &status, 0), gpuport);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "gpuport ends by the signal it got";
    EXPECT_TRUE(ends_within(child, std::chrono::seconds(5))) << "signal " << sig << ": child " << child << " still runs";
    ::kill(child, SIGKILL);
  }
}

TEST(Process, ChildDiesWhenGpuportIsKilled) {
  testing::TempDir dir;
  auto [gpuport, child] = start_gpuport_with_a_child(dir.path() / "pid");
  ASSERT_GT(child, 0);
  ::kill(gpuport, SIGKILL);
  int status = 0;
  ::waitpid(gpuport, &status, 0);
  EXPECT_TRUE(ends_within(child, std::chrono::seconds(5))) << "child " << child << " outlived a SIGKILLed gpuport";
  ::kill(child, SIGKILL);
}

TEST(Process, APassThroughChildWritesToGpuportsOwnOutput) {
  // gpuport run's program: its output is not captured but goes where gpuport's goes.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t gpuport = ::fork();
  if (gpuport == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ProcessOptions o;
    o.pass_through = true;
    o.timeout = std::chrono::milliseconds(0);
    auto r = run_process({"sh", "-c", "echo through; exit 4"}, o);
    ::_exit(r.out.empty() && r.exit_code == 4 ? 0 : 1);
  }
  ::close(fds[1]);
  char buffer[64] = {};
  std::string got;
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) got.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(gpuport, &status, 0);
  EXPECT_EQ(got, "through\n");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the exit status passes, nothing is captured";
}

TEST(Process, APassThroughChildDiesWithGpuport) {
  // As gpuport run starts the emulated program: no timeout, output not captured, and still
  // killed when gpuport is ended by a signal or killed outright.
  for (int sig : {SIGTERM, SIGHUP, SIGKILL}) {
    testing::TempDir dir;
    const std::filesystem::path pid_file = dir.path() / "pid";
    const pid_t gpuport = ::fork();
    if (gpuport == 0) {
      ProcessOptions o;
      o.pass_through = true;
      o.timeout = std::chrono::milliseconds(0);
      run_process({"sh", "-c", "echo $$ > '" + pid_file.string() + "'.tmp && mv '" + pid_file.string() + "'.tmp '" + pid_file.string() +
                                   "' && exec sleep 60"},
                  o);
      ::_exit(0);
    }
    for (int i = 0; i < 500 && !std::filesystem::exists(pid_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream in(pid_file);
    pid_t child = 0;
    in >> child;
    ASSERT_GT(child, 0);
    ::kill(gpuport, sig);
    int status = 0;
    ASSERT_EQ(::waitpid(gpuport, &status, 0), gpuport);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig);
    EXPECT_TRUE(ends_within(child, std::chrono::seconds(5))) << "signal " << sig << ": child " << child << " still runs";
    ::kill(child, SIGKILL);
  }
}

TEST(Process, CapsTheChildsMemory) {
  ProcessOptions o;
  o.max_memory_bytes = 256ull << 20;
  // Allocating 1 GiB fails under a 256 MiB address-space limit; without one it succeeds.
  const std::vector<std::string> argv = {"python3", "-c", "import sys\ntry:\n  b = bytearray(1 << 30)\nexcept MemoryError:\n  sys.exit(3)"};
  if (find_program("python3").empty()) GTEST_SKIP() << "python3 not found";
  EXPECT_EQ(run_process(argv, o).exit_code, 3);
  EXPECT_EQ(run_process(argv).exit_code, 0);
}

TEST(Process, RunsInTheWorkingDirectory) {
  testing::TempDir dir;
  ProcessOptions o;
  o.working_directory = dir.path();
  auto r = run_process({"pwd"}, o);
  EXPECT_EQ(r.out, std::filesystem::canonical(dir.path()).string() + "\n");
  o.working_directory = dir.path() / "missing";
  EXPECT_FALSE(run_process({"pwd"}, o).started);
}

TEST(Process, PlainArgumentsNeedNoQuoting) {
  EXPECT_TRUE(is_plain_argument("/usr/include/c++/12"));
  EXPECT_TRUE(is_plain_argument("-isystem,/usr/include"));
  for (const char* bad : {"x$(touch pwned).cu", "a`id`.cu", "q'x'.cu", "a b.cu", "a;b", "~/x", "*.cu", ""})
    EXPECT_FALSE(is_plain_argument(bad)) << bad;
}

}  // namespace
}  // namespace gpuport
