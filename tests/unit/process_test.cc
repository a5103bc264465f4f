#include <gtest/gtest.h>

#include "common/process.h"

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

}  // namespace
}  // namespace gpuport
