#include <fstream>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "common/file_io.h"
#include "test_support.h"
#include "verify/harness.h"

namespace gpuport::verify {
namespace {
namespace fs = std::filesystem;

TEST(VerifyResultLine, ParsesPassAndFail) {
  auto p = parse_result_line("noise\nRESULT gemm PASS max_rel_err=1.5e-06 gpu_ms=12.250\n");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->name, "gemm");
  EXPECT_TRUE(p->pass);
  EXPECT_DOUBLE_EQ(p->max_rel_err, 1.5e-06);
  EXPECT_DOUBLE_EQ(p->gpu_ms, 12.25);
  auto f = parse_result_line("RESULT x FAIL max_rel_err=inf gpu_ms=0.5");
  ASSERT_TRUE(f.has_value());
  EXPECT_FALSE(f->pass);
  EXPECT_FALSE(parse_result_line("RESULT x MAYBE max_rel_err=0 gpu_ms=0").has_value());
  EXPECT_FALSE(parse_result_line("RESULT x PASS").has_value());
  EXPECT_FALSE(parse_result_line("all good").has_value());
}

fs::path script(const fs::path& dir, const std::string& name, const std::string& body) {
  const fs::path p = dir / name;
  EXPECT_FALSE(write_file_atomic(p, "#!/bin/sh\n" + body).has_value());
  ::chmod(p.c_str(), 0755);
  return p;
}

TEST(VerifyRun, ClassifiesHowAProgramEnds) {
  testing::TempDir dir;
  const auto t = std::chrono::milliseconds(3000);
  auto pass = run_program(script(dir.path(), "pass", "echo 'RESULT p PASS max_rel_err=1e-7 gpu_ms=1.5'\n"), t);
  EXPECT_EQ(pass.outcome, RunOutcome::passed);
  ASSERT_TRUE(pass.result.has_value());
  EXPECT_DOUBLE_EQ(pass.result->gpu_ms, 1.5);
  EXPECT_EQ(run_program(script(dir.path(), "fail", "echo 'RESULT p FAIL max_rel_err=1 gpu_ms=1'\nexit 1\n"), t).outcome,
            RunOutcome::failed);
  auto liar = run_program(script(dir.path(), "liar", "echo 'RESULT p PASS max_rel_err=0 gpu_ms=1'\nexit 3\n"), t);
  EXPECT_EQ(liar.outcome, RunOutcome::failed);
  EXPECT_NE(liar.detail.find("exited 3"), std::string::npos);
  auto crash = run_program(script(dir.path(), "crash", "echo started\nkill -SEGV $$\n"), t);
  EXPECT_EQ(crash.outcome, RunOutcome::crashed);
  EXPECT_NE(crash.output_tail.find("started"), std::string::npos);
  auto hang = run_program(script(dir.path(), "hang", "sleep 30\n"), std::chrono::milliseconds(300));
  EXPECT_EQ(hang.outcome, RunOutcome::timed_out);
  EXPECT_LT(hang.seconds, 10.0);
  EXPECT_EQ(run_program(script(dir.path(), "silent", "exit 0\n"), t).outcome, RunOutcome::no_result);
  EXPECT_EQ(run_program(dir.path() / "missing", t).outcome, RunOutcome::not_started);
}

// End to end through the real compilers: each fixture is built, translated, compiled for
// gfx1100 and for HIP's NVIDIA platform, then "run" (the fixtures need no GPU).
class VerifyHarness : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.compilers.hip = *hip_target("5.2");  // both vendors: HIP 5.2 has NVIDIA platform headers here
    if (auto why = amd_unavailable(options_.compilers)) GTEST_SKIP() << *why;
    if (auto why = nvidia_unavailable(options_.compilers)) GTEST_SKIP() << *why;
    options_.compilers.device_lib_dir = fs::path(GPUPORT_BINARY_DIR) / "rocm-device-libs";
    options_.work_dir = work_.path();
    options_.jobs = 2;
    options_.gpu_present = true;  // the fixtures run anywhere
    options_.run_timeout = std::chrono::milliseconds(2000);
  }
  VerifyReport verify(const std::vector<std::string>& names) {
    std::vector<fs::path> inputs;
    for (const auto& n : names) inputs.push_back(fs::path(GPUPORT_SOURCE_DIR) / "tests/unit/verify_fixtures" / (n + ".cu"));
    return verify_programs(inputs, testing::small_map(), options_);
  }
  testing::TempDir work_;
  VerifyOptions options_;
};

TEST_F(VerifyHarness, ReportsFailCrashHangAndCompileErrors) {
  auto r = verify({"passes", "prints_fail", "crashes", "hangs", "ptx_does_not_compile"});
  ASSERT_EQ(r.programs.size(), 5u);
  std::map<std::string, const ProgramReport*> by;
  for (const auto& p : r.programs) by[p.name] = &p;
  EXPECT_EQ(by["passes"]->verdict, "passed");
  ASSERT_TRUE(by["passes"]->runtime_ratio.has_value());
  EXPECT_DOUBLE_EQ(*by["passes"]->runtime_ratio, 1.0);
  EXPECT_EQ(by["prints_fail"]->verdict, "failed: original FAIL");
  EXPECT_EQ(by["crashes"]->verdict, "failed: original crashed");
  EXPECT_EQ(by["hangs"]->verdict, "failed: original timed out");
  const auto* ptx = by["ptx_does_not_compile"];
  EXPECT_EQ(ptx->verdict, "failed: translation");  // the translator reports inline PTX as an error
  EXPECT_EQ(ptx->compile_amd.status, StepStatus::failed);
  EXPECT_NE(ptx->compile_amd.message.find("error"), std::string::npos) << ptx->compile_amd.message;
  EXPECT_NE(ptx->translate.message.find("inline-ptx"), std::string::npos);
  EXPECT_EQ(ptx->build_original.status, StepStatus::ok);
  EXPECT_FALSE(r.all_ok());

  const std::string table = format_table(r);
  EXPECT_NE(table.find("hangs"), std::string::npos);
  EXPECT_NE(table.find("failed: translation"), std::string::npos);
  const auto json = to_json(r);
  EXPECT_EQ(json["programs"].size(), 5u);
  EXPECT_EQ(json["domains"]["verify_fixtures"]["passed"], 1);
  const std::string html = to_html(r);
  EXPECT_NE(html.find("<svg"), std::string::npos);  // runtime ratio plot
  EXPECT_NE(html.find("verify_fixtures"), std::string::npos);

  // A second run takes the builds from the cache and gives the same verdicts.
  auto again = verify({"passes"});
  EXPECT_TRUE(again.programs[0].build_original.cached);
  EXPECT_TRUE(again.programs[0].compile_amd.cached);
  EXPECT_EQ(again.programs[0].verdict, "passed");
}

TEST_F(VerifyHarness, WithoutAGpuNothingIsReportedAsPassed) {
  options_.gpu_present = false;
  auto r = verify({"passes"});
  ASSERT_EQ(r.programs.size(), 1u);
  EXPECT_EQ(r.programs[0].verdict, "not run: no GPU");
  EXPECT_EQ(r.programs[0].run_original.outcome, RunOutcome::not_run);
  EXPECT_TRUE(r.programs[0].built());
  EXPECT_NE(format_table(r).find("not run (no GPU)"), std::string::npos);
  EXPECT_NE(to_html(r).find("not run: no GPU"), std::string::npos);
}

}  // namespace
}  // namespace gpuport::verify
