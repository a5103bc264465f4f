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
