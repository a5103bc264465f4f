// gpuport nvcc's reading of nvcc's command line (verify/nvcc_driver.h).
#include "verify/nvcc_driver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "common/temporary.h"
#include "source/compat.h"

namespace gpuport::verify {
namespace {

NvccCommand parse(std::vector<std::string> args) {
  auto r = parse_nvcc_command(args);
  EXPECT_TRUE(r.ok()) << (r.diagnostics().empty() ? "" : r.diagnostics()[0].message);
  return r.ok() ? *r : NvccCommand{};
}

bool has(const std::vector<std::string>& flags, const std::string& flag) {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

TEST(NvccDriver, ReadsInputsByExtensionAndByDashX) {
  const auto c = parse({"a.cu", "b.c", "c.cpp", "d.o", "-x", "cu", "e.cpp", "-x", "none", "f.cc"});
  ASSERT_EQ(c.inputs.size(), 6u);
  EXPECT_EQ(c.inputs[0].language, NvccLanguage::cuda);
  EXPECT_EQ(c.inputs[1].language, NvccLanguage::c);
  EXPECT_EQ(c.inputs[2].language, NvccLanguage::cxx);
  EXPECT_EQ(c.inputs[3].language, NvccLanguage::object);
  EXPECT_EQ(c.inputs[4].language, NvccLanguage::cuda);  // -x cu
  EXPECT_EQ(c.inputs[5].language, NvccLanguage::cxx);   // -x none: by extension again
  EXPECT_EQ(c.phase, NvccPhase::link);
}

TEST(NvccDriver, MapsOptionsToClangsAndDropsNvidiaOnesWithWhy) {
  const auto c = parse({"-c", "-O3", "-lineinfo", "--use_fast_math", "-G", "-std=c++17", "-Iinc", "-I", "other", "-DN=4",
                        "-arch=sm_80", "-gencode", "arch=compute_80,code=sm_80", "-Xcompiler", "-fPIC,-Wall", "-ccbin", "g++",
                        "--expt-relaxed-constexpr", "k.cu", "-o", "k.o"});
  EXPECT_EQ(c.phase, NvccPhase::compile);
  EXPECT_EQ(c.output, "k.o");
  for (const char* f : {"-O3", "-gline-tables-only", "-ffast-math", "-g", "-std=c++17", "-DN=4"}) EXPECT_TRUE(has(c.compile_flags, f)) << f;
  EXPECT_EQ(c.include_dirs, (std::vector<std::filesystem::path>{"inc", "other"}));
  EXPECT_EQ(c.host_flags, (std::vector<std::string>{"-fPIC", "-Wall"}));
  ASSERT_EQ(c.notes.size(), 4u);  // -arch, -gencode, -ccbin, --expt-relaxed-constexpr
  EXPECT_NE(c.notes[0].find("gfx1100"), std::string::npos);
}

TEST(NvccDriver, SystemFolderAsIncludePathIsTheSystemsOwn) {
  // FindCUDA passes -I/usr/include where a project's Boost lives: GCC and clang search it as a
  // system folder and ignore the -I; so does gpuport nvcc, whose clang searches a view of it
  // after HIP's headers (searched first, it would give Debian's HIP 5.2 and CUDA's own Thrust).
  const auto c = parse({"-c", "-I/usr/include", "-Iinc", "-I", "/usr/include/", "-isystem", "/usr/include", "-isystem=/opt/x/include",
                        "k.cu"});
  EXPECT_EQ(c.include_dirs, (std::vector<std::filesystem::path>{"inc"}));
  EXPECT_FALSE(has(c.compile_flags, "/usr/include"));
  EXPECT_TRUE(has(c.compile_flags, "/opt/x/include"));
}

TEST(NvccDriver, CudaccDefinedOnTheCommandLineIsNvccsOwn) {
  // FindCUDA's dependency scan: nvcc -M -D__CUDACC__ k.cu -o k.dep -DNVCC
  const auto c = parse({"-M", "-D__CUDACC__", "k.cu", "-o", "k.dep", "-DNVCC", "-D__CUDACC__=1"});
  EXPECT_FALSE(has(c.compile_flags, "-D__CUDACC__"));
  EXPECT_FALSE(has(c.compile_flags, "-D__CUDACC__=1"));
  EXPECT_TRUE(has(c.compile_flags, "-DNVCC"));
  EXPECT_EQ(c.notes.size(), 2u);
}

TEST(NvccDriver, ReadsTheArchitectureTheDeviceCodeStandsFor) {
  EXPECT_EQ(parse({"-arch=sm_61", "a.cu"}).cuda_arch, 610);
  EXPECT_EQ(parse({"--generate-code=arch=compute_80,code=[compute_80,sm_86]", "-gencode", "arch=compute_70,code=sm_70", "a.cu"}).cuda_arch,
            860);
  EXPECT_EQ(parse({"-arch", "sm_90a", "a.cu"}).cuda_arch, 900);
  EXPECT_EQ(parse({"-arch=native", "a.cu"}).cuda_arch, 0);  // gfx1100's own level
  EXPECT_EQ(parse({"a.cu"}).cuda_arch, 0);
}

TEST(NvccDriver, LinksHipsLibrariesForCudas) {
  const auto c = parse({"a.o", "-lcudart", "-lcublas", "-lcurand", "-lm", "-L/opt/lib", "-o", "app"});
  // cuBLAS: hipBLAS, and rocBLAS under it, which a project's own AMD code may call.
  EXPECT_EQ(c.link_flags, (std::vector<std::string>{"-lhipblas", "-lrocblas", "-lhiprand", "-lm", "-L/opt/lib"}));
}

TEST(NvccDriver, SeparableCompilationAndDeviceLink) {
  EXPECT_TRUE(parse({"-dc", "a.cu"}).relocatable_device_code);
  EXPECT_EQ(parse({"-dc", "a.cu"}).phase, NvccPhase::compile);
  EXPECT_TRUE(parse({"-rdc=true", "-c", "a.cu"}).relocatable_device_code);
  EXPECT_TRUE(parse({"-rdc", "true", "-c", "a.cu"}).relocatable_device_code);  // the value as the next word
  EXPECT_EQ(parse({"-rdc", "true", "-c", "a.cu"}).inputs.size(), 1u);
  EXPECT_FALSE(parse({"--relocatable-device-code=false", "-c", "a.cu"}).relocatable_device_code);
  EXPECT_EQ(parse({"-dlink", "a.o", "-o", "link.o"}).phase, NvccPhase::device_link);
}

TEST(NvccDriver, RefusesWhatItDoesNotKnow) {
  for (std::vector<std::string> args : {std::vector<std::string>{"--frobnicate", "a.cu"}, {"-x", "fortran", "a.f"}, {"-c"}}) {
    const auto r = parse_nvcc_command(args);
    EXPECT_FALSE(r.ok()) << args[0];
    ASSERT_FALSE(r.diagnostics().empty());
    EXPECT_EQ(r.diagnostics()[0].code, "nvcc-option");
  }
}

// CMake's command lines for nvcc: unknown options forwarded to the host compiler, -isystem=,
// the include folders in a response file, -M for the dependency scan.
TEST(NvccDriver, TakesCMakesCommandLines) {
  TemporaryFolder tmp = TemporaryFolder::make("nvcc-test");
  ASSERT_FALSE(tmp.empty());
  const auto rsp = tmp.path() / "includes_CUDA.rsp";
  std::ofstream(rsp) << "-I/src/include \"-I/src/with space\"\n-isystem=/opt/sys\n";
  const auto c = parse({"-forward-unknown-to-host-compiler", "-DK=1", "--options-file", rsp.string(), "-fvisibility=hidden",
                        "-x", "cu", "-c", "/src/a.cu", "-o", "a.o", "-Xcompiler=-fPIC", "--keep-dir", "tmp"});
  EXPECT_EQ(c.include_dirs, (std::vector<std::filesystem::path>{"/src/include", "/src/with space"}));
  EXPECT_TRUE(has(c.compile_flags, "/opt/sys"));
  EXPECT_EQ(c.host_flags, (std::vector<std::string>{"-fvisibility=hidden", "-fPIC"}));
  // FindCUDA quotes each host flag after a leading comma.
  EXPECT_EQ(parse({"-Xcompiler", ",\"-O3\",\"-fno-builtin\"", "a.cu"}).host_flags, (std::vector<std::string>{"-O3", "-fno-builtin"}));
  // A value with spaces is several options: nvcc hands it to the host compiler on a shell line.
  EXPECT_EQ(parse({"-Xcompiler", "-Wextra-semi  -mavx2,-fPIC", "a.cu"}).host_flags,
            (std::vector<std::string>{"-Wextra-semi", "-mavx2", "-fPIC"}));
  EXPECT_EQ(parse({"-Xlinker", "-rpath /opt/x", "a.cu"}).link_flags, (std::vector<std::string>{"-Wl,-rpath", "-Wl,/opt/x"}));
  EXPECT_EQ(c.phase, NvccPhase::compile);
  EXPECT_FALSE(parse_nvcc_command({"-fvisibility=hidden", "a.cu"}).ok());  // not forwarded without the option
  EXPECT_EQ(parse({"-M", "a.cu", "-MT", "a.o", "-o", "a.d"}).phase, NvccPhase::preprocess);
  EXPECT_FALSE(parse_nvcc_command({"--options-file", (tmp.path() / "missing.rsp").string(), "a.cu"}).ok());
  // Warning options reach the compilers; nvcc's -Werror takes a kind.
  const auto w = parse({"-Wno-unused-result", "-Werror", "all-warnings", "-Werror=reorder", "a.cu"});
  EXPECT_TRUE(has(w.compile_flags, "-Wno-unused-result"));
  EXPECT_TRUE(has(w.compile_flags, "-Werror"));
  EXPECT_EQ(w.notes.size(), 1u);
}

// One CUDA release: what gpuport nvcc --version reports (CMake's CMAKE_CUDA_COMPILER_VERSION) and
// what CUDART_VERSION reads as in translated code.
TEST(NvccDriver, ReportsTheReleaseTheTranslationDefines) {
  EXPECT_EQ(kNvccCudaMajor * 1000 + kNvccCudaMinor * 10, source::kMappedCudaRelease);
  const std::uint32_t bit = source::shim_for_guard("GPUPORT_CUDART_VERSION");
  ASSERT_NE(bit, 0u);
  std::string text;
  for (std::size_t i = 0; i < source::shims().size(); ++i)
    if (bit & (1u << i)) text = std::string(source::shims()[i].text);
  EXPECT_NE(text.find("#define CUDART_VERSION " + std::to_string(source::kMappedCudaRelease) + "\n"), std::string::npos);
  EXPECT_NE(text.find("#define CUDA_VERSION " + std::to_string(source::kMappedCudaRelease) + "\n"), std::string::npos);
}

}  // namespace
}  // namespace gpuport::verify
