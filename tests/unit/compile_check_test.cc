#include <gtest/gtest.h>
#include <unistd.h>

#include "common/file_io.h"
#include "test_support.h"
#include "verify/compile_check.h"

namespace gpuport::verify {
namespace {
namespace fs = std::filesystem;

CompileCheckOptions options() {
  CompileCheckOptions o;
  o.device_lib_dir = fs::path(GPUPORT_BINARY_DIR) / "rocm-device-libs";
  return o;
}

TEST(CompileCheck, ValidHipCompilesForBothVendors) {
  auto o = options();
  o.hip = *hip_target("5.2");  // the one HIP whose NVIDIA platform headers are packaged
  if (auto why = amd_unavailable(o)) GTEST_SKIP() << *why;
  if (auto why = nvidia_unavailable(o)) GTEST_SKIP() << *why;
  testing::TempDir dir;
  const fs::path f = dir.path() / "ok.cu";
  ASSERT_FALSE(write_file_atomic(f, "#include <hip/hip_runtime.h>\n__global__ void k(float* p) { p[threadIdx.x] *= 2; }\n"
                                    "int main() { float* p; (void)hipMalloc(&p, 4); k<<<1, 1>>>(p); return 0; }\n")
                   .has_value());
  auto outcomes = check_unit(f, o);
  ASSERT_EQ(outcomes.size(), 2u);
  for (const auto& c : outcomes) {
    EXPECT_FALSE(c.skipped) << c.target;
    EXPECT_TRUE(c.passed) << c.target << ": " << c.command << "\n" << c.message;
  }
}

// The default target, HIP 6.4, compiles against sid's headers alone (its clang-hip.rsp): code
// that only HIP 6 declares (hip_bf16.h) compiles for gfx1100, and the NVIDIA check says why it
// cannot run rather than failing on HIP 5.2's NVIDIA platform.
TEST(CompileCheck, Hip64CompilesForGfx1100AndSaysWhyNotNvidia) {
  auto o = options();
  ASSERT_EQ(o.hip.version, "6.4");
  if (auto why = amd_unavailable(o)) GTEST_SKIP() << *why;
  testing::TempDir dir;
  const fs::path f = dir.path() / "bf16.cu";
  ASSERT_FALSE(write_file_atomic(f, "#include <hip/hip_runtime.h>\n#include <hip/hip_bf16.h>\n"
                                    "__global__ void k(__hip_bfloat16* p) { p[0] = __float2bfloat16(__bfloat162float(p[0]) * 2); }\n")
                   .has_value());
  auto outcomes = check_unit(f, o);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].passed) << outcomes[0].message;
  EXPECT_NE(outcomes[0].command.find("clang-hip.rsp"), std::string::npos) << outcomes[0].command;
  EXPECT_TRUE(outcomes[1].skipped);
  EXPECT_NE(outcomes[1].message.find("--hip-version 5.2"), std::string::npos) << outcomes[1].message;
  // HIP 5.2 has no hip_bf16.h: the same unit fails there.
  o.hip = *hip_target("5.2");
  o.nvidia = false;
  auto old = check_unit(f, o);
  ASSERT_EQ(old.size(), 1u);
  EXPECT_FALSE(old[0].passed);
  EXPECT_NE(old[0].message.find("hip_bf16.h"), std::string::npos) << old[0].message;
}

TEST(CompileCheck, UnknownOrMissingHipIsSaid) {
  EXPECT_FALSE(hip_target("6.1").has_value());
  auto t = *hip_target("6.4");
  t.root = "/nonexistent/rocm-6.4";
  ASSERT_TRUE(t.unavailable().has_value());
  EXPECT_NE(t.unavailable()->find("scripts/fetch-rocm-6.4"), std::string::npos);
}

TEST(CompileCheck, BrokenCodeFailsWithTheCompilerMessage) {
  auto o = options();
  if (auto why = amd_unavailable(o)) GTEST_SKIP() << *why;
  o.nvidia = false;
  testing::TempDir dir;
  const fs::path f = dir.path() / "bad.cu";
  ASSERT_FALSE(write_file_atomic(f, "#include <hip/hip_runtime.h>\nvoid f() { cudaMalloc(0, 0); }\n").has_value());
  auto outcomes = check_unit(f, o);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].passed);
  EXPECT_NE(outcomes[0].message.find("cudaMalloc"), std::string::npos) << outcomes[0].message;
  EXPECT_NE(outcomes[0].command.find("--offload-arch=gfx1100"), std::string::npos);
}

TEST(CompileCheck, MissingToolsAreSkippedWithAReason) {
  auto o = options();
  o.clang = "/nonexistent/clang++-19";
  o.nvcc = "/nonexistent/nvcc";
  testing::TempDir dir;
  auto outcomes = check_unit(dir.path() / "x.cu", o);
  ASSERT_EQ(outcomes.size(), 2u);
  for (const auto& c : outcomes) {
    EXPECT_TRUE(c.skipped);
    EXPECT_FALSE(c.passed);
    EXPECT_NE(c.message.find("not found"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpuport::verify

namespace gpuport::verify {
namespace {

// The library-header folders --check adds: <root>/amd-libs for gfx1100, <root>/nvidia-libs for
// NVIDIA, and nothing where the folder is missing (the check then reports the missing header).
TEST(CompileCheck, LibraryHeaderFoldersPerTarget) {
  const auto root = std::filesystem::temp_directory_path() / ("gpuport-libs-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "amd-libs");
  CompileCheckOptions options;
  options.library_headers = root;
  EXPECT_EQ(library_include_dir(options, "amd"), root / "amd-libs");
  EXPECT_TRUE(library_include_dir(options, "nvidia").empty());
  options.library_headers = root / "missing";
  EXPECT_TRUE(library_include_dir(options, "amd").empty());
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace gpuport::verify
