// gpuport divergence-bench: the fits, the output parser, and the generated CUDA source (which
// is compiled with nvcc 11.8 for sm_90 when that is installed; it cannot run without a GPU).
#include "sass/divergence_bench.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace gpuport::sass {
namespace {

TEST(DivergenceBenchFit, ExactLineThroughOrigin) {
  std::vector<std::pair<double, double>> pts;
  for (int k = 1; k <= 32; ++k) pts.emplace_back(k, 100.0 * k);
  const FitResult f = fit_linear_through_origin(pts);
  EXPECT_EQ(f.points, 32u);
  EXPECT_NEAR(f.slope, 100.0, 1e-9);
  EXPECT_NEAR(f.r_squared, 1.0, 1e-12);
  ASSERT_EQ(f.residuals.size(), 32u);
  for (double e : f.residuals) EXPECT_NEAR(e, 0.0, 1e-9);
  EXPECT_NEAR(f.affine_intercept, 0.0, 1e-7);
  EXPECT_NEAR(f.affine_slope, 100.0, 1e-9);
  EXPECT_NEAR(f.affine_r_squared, 1.0, 1e-12);
}

TEST(DivergenceBenchFit, AffineLineHasAnInterceptTheOriginFitMisses) {
  std::vector<std::pair<double, double>> pts;
  for (int k = 1; k <= 32; ++k) pts.emplace_back(k, 50.0 + 10.0 * k);
  const FitResult f = fit_linear_through_origin(pts);
  EXPECT_NEAR(f.affine_intercept, 50.0, 1e-8);
  EXPECT_NEAR(f.affine_slope, 10.0, 1e-9);
  EXPECT_NEAR(f.affine_r_squared, 1.0, 1e-12);
  // Through the origin: s = sum(k*T)/sum(k^2), with a visible misfit.
  double sxy = 0, sxx = 0;
  for (const auto& [k, t] : pts) sxy += k * t, sxx += k * k;
  EXPECT_NEAR(f.slope, sxy / sxx, 1e-9);
  EXPECT_LT(f.r_squared, 0.99);
  EXPECT_GT(f.residuals.front(), 0.0);  // the small-k points lie above s*k
}

TEST(DivergenceBenchFit, NoisyLine) {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 5.0);
  std::vector<std::pair<double, double>> pts;
  for (int k = 1; k <= 32; ++k) pts.emplace_back(k, 40.0 * k + noise(rng));
  const FitResult f = fit_linear_through_origin(pts);
  EXPECT_NEAR(f.slope, 40.0, 0.5);
  EXPECT_GT(f.r_squared, 0.99);
  EXPECT_LT(f.r_squared, 1.0);
  double sum_k_e = 0;  // least squares: residuals orthogonal to k
  for (std::size_t i = 0; i < pts.size(); ++i) sum_k_e += pts[i].first * f.residuals[i];
  EXPECT_NEAR(sum_k_e, 0.0, 1e-6);
  EXPECT_NEAR(f.affine_slope, 40.0, 1.0);
  EXPECT_GE(f.affine_r_squared, f.r_squared);  // the affine fit has one more parameter
}

TEST(DivergenceBenchFit, DegenerateInputs) {
  EXPECT_EQ(fit_linear_through_origin({}).points, 0u);
  const FitResult one = fit_linear_through_origin({{4, 80}});
  EXPECT_NEAR(one.slope, 20.0, 1e-12);
  EXPECT_EQ(one.affine_slope, 0.0);  // needs two distinct k
}

TEST(DivergenceBenchParse, SampleOutput) {
  const std::string text =
      "DIVBENCH gpu=\"NVIDIA H200\" sm=90 sms=132 iterations=64 warps=132 reps=5\n"
      "DIVBENCH variant=branch k=1 cycles=2100\n"
      "some other line\n"
      "DIVBENCH variant=branch k=2 cycles=4150\r\n"
      "DIVBENCH variant=pred k=1 cycles=2300\n"
      "DIVBENCH variant=pred k=2 cycles=4500\n"
      "DIVBENCH variant=pred k=x cycles=1\n"
      "DIVBENCH error: cudaMalloc(&d_cases, 32 * sizeof(int)) failed: out of memory (x.cu:1)\n";
  const BenchmarkOutput out = parse_benchmark_output(text);
  EXPECT_EQ(out.gpu, "NVIDIA H200");
  EXPECT_EQ(out.sm, 90);
  ASSERT_EQ(out.points.size(), 2u);
  ASSERT_EQ(out.points.at("branch").size(), 2u);
  EXPECT_EQ(out.points.at("branch")[1], (std::pair<double, double>{2, 4150}));
  ASSERT_EQ(out.points.at("pred").size(), 2u);
  EXPECT_EQ(out.points.at("pred")[0], (std::pair<double, double>{1, 2300}));
  ASSERT_EQ(out.errors.size(), 2u);
  EXPECT_NE(out.errors[1].find("out of memory"), std::string::npos);

  const std::string table = format_fit_table(out);
  EXPECT_NE(table.find("GPU: NVIDIA H200 (sm_90)"), std::string::npos) << table;
  EXPECT_NE(table.find("cycles branch"), std::string::npos) << table;
  EXPECT_NE(table.find("branch"), std::string::npos) << table;
  EXPECT_NE(table.find("r^2"), std::string::npos) << table;
}

TEST(DivergenceBenchParse, NothingToFit) {
  const BenchmarkOutput out = parse_benchmark_output("no benchmark here\n");
  EXPECT_TRUE(out.points.empty());
  EXPECT_NE(format_fit_table(out).find("no DIVBENCH points"), std::string::npos);
}

TEST(DivergenceBenchSource, HasEveryKForBothVariants) {
  const std::string src = generate_divergence_benchmark({});
  for (int k = 1; k <= 32; ++k) {
    EXPECT_NE(src.find(fmt::format("branch_kernel<{}>()", k)), std::string::npos) << k;
    EXPECT_NE(src.find(fmt::format("pred_kernel<{}>()", k)), std::string::npos) << k;
  }
  for (int j = 0; j < 32; ++j) EXPECT_NE(src.find(fmt::format("case {}: if constexpr ({} < K)", j, j)), std::string::npos);
  EXPECT_NE(src.find("clock64()"), std::string::npos);
  EXPECT_NE(src.find("cases[lane]"), std::string::npos);  // the case index comes from memory
  EXPECT_NE(src.find("@p fma.rn.f32"), std::string::npos);
  EXPECT_NE(src.find("DIVBENCH variant=%s k=%d cycles=%lld"), std::string::npos);
  EXPECT_NE(src.find("CHECK(cudaDeviceSynchronize())"), std::string::npos);
  EXPECT_EQ(src.find("branch_kernel<33>"), std::string::npos);
}

TEST(DivergenceBenchSource, CompilesWithNvcc11ForSm90) {
  const Toolchain tc = detect_toolchain(ToolchainId::cuda11);
  if (auto why = tc.unavailable(Tool::nvcc)) GTEST_SKIP() << "nvcc 11.8 unavailable: " << *why;
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("gpuport-divbench-test-{}", ::getpid());
  fs::create_directories(dir);
  {
    std::ofstream(dir / "divergence_bench.cu") << generate_divergence_benchmark({});
  }
  const ToolRun r = build_divergence_benchmark(dir / "divergence_bench.cu", dir / "divergence_bench", 90);
  EXPECT_TRUE(r.ok) << r.message;
  EXPECT_TRUE(fs::exists(dir / "divergence_bench"));
  std::error_code ec;
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace gpuport::sass
