// The HIP targets and the libraries a CUDA program links (src/verify/hip_target.h).
#include "verify/hip_target.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace gpuport::verify {
namespace {

TEST(HipTarget, VersionsAndTheirBuilds) {
  EXPECT_EQ(hip_versions().front(), std::string(kDefaultHipVersion));
  const auto v52 = *hip_target("5.2"), v57 = *hip_target("5.7"), v64 = *hip_target("6.4");
  EXPECT_EQ(v52.map_layer(), "");
  EXPECT_EQ(v64.map_layer(), "6.4");
  EXPECT_EQ(v52.clang_flags(), std::vector<std::string>{"--rocm-path=/usr"});
  ASSERT_EQ(v64.clang_flags().size(), 1u);
  EXPECT_TRUE(v64.clang_flags()[0].starts_with("@") && v64.clang_flags()[0].ends_with("rocm-6.4/clang-hip.rsp"));
  EXPECT_TRUE(v57.root.string().ends_with("rocm-headers"));
  EXPECT_TRUE(v52.wave64_on_gfx11());
  EXPECT_FALSE(v64.wave64_on_gfx11());
  EXPECT_FALSE(hip_target("7.0").has_value());
  EXPECT_FALSE(v64.can_link("hipblas"));  // a -l flag, not a name
}

TEST(HipTarget, SystemViewFollowsTheSystemFolder) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / "gpuport-system-view";
  fs::remove_all(dir);
  const fs::path system = dir / "usr-include", root = dir / "root", view = root / "system-include";
  for (const auto& d : {system / "glog", system / "hip", system / "cuda", root / "usr/include/hip", view})
    fs::create_directories(d);
  std::ofstream(system / "zlib.h") << "";
  // The view as the unpacking left it, older than the packages installed since.
  fs::last_write_time(view, fs::last_write_time(system) - std::chrono::hours(1));
  refresh_system_view(root, system);
  EXPECT_TRUE(fs::is_symlink(view / "glog"));
  EXPECT_TRUE(fs::is_symlink(view / "zlib.h"));
  EXPECT_FALSE(fs::exists(view / "hip"));   // HIP's own
  EXPECT_FALSE(fs::exists(view / "cuda"));  // NVIDIA's libcu++
  // An entry removed from the system folder loses its link; one added gets its own.
  fs::remove_all(system / "glog");
  fs::create_directories(system / "boost");
  fs::last_write_time(view, fs::last_write_time(system) - std::chrono::hours(1));
  refresh_system_view(root, system);
  EXPECT_FALSE(fs::is_symlink(view / "glog"));
  EXPECT_TRUE(fs::is_symlink(view / "boost"));
  // A view newer than the folder is left as it is.
  fs::create_directories(system / "late");
  fs::last_write_time(view, fs::last_write_time(system) + std::chrono::hours(1));
  refresh_system_view(root, system);
  EXPECT_FALSE(fs::exists(view / "late"));
  fs::remove_all(dir);
}

TEST(HipTarget, LibrariesComeFromIncludeLines) {
  const auto links = library_links(
      "#include <cstdio>\n"
      "  #  include <cublas_v2.h>\n"
      "#include \"cufft.h\"\n"
      "// #include <cusparse.h>\n"
      "const char* s = \"#include <curand.h>\";\n"
      "#include <curand_kernel.h>\n"
      "#include <cub/cub.cuh>\n"
      "#include <cublas.h>\n");
  ASSERT_EQ(links.size(), 2u);
  EXPECT_EQ(links[0].label, "hipBLAS");
  EXPECT_EQ(links[0].cuda_lib, "-lcublas");
  EXPECT_EQ(links[0].hip_lib, "-lhipblas");
  EXPECT_EQ(links[1].label, "hipFFT");
  EXPECT_TRUE(library_links("#include <thrust/sort.h>\n").empty());
}

}  // namespace
}  // namespace gpuport::verify
