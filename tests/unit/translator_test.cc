#include <gtest/gtest.h>

#include "test_support.h"

namespace gpuport::source {
namespace {
using testing::has_finding;
using testing::translate;

TEST(Translator, RenamesApiCallsTypesAndConstants) {
  auto t = translate("#include <cuda_runtime.h>\nvoid f(float* p, cudaStream_t s) {\n"
                     "  cudaMalloc(&p, 4);\n  cudaMemcpy(p, p, 4, cudaMemcpyHostToDevice);\n}\n");
  EXPECT_EQ(t.output,
            "#include <hip/hip_runtime.h>\nvoid f(float* p, hipStream_t s) {\n"
            "  hipMalloc(&p, 4);\n  hipMemcpy(p, p, 4, hipMemcpyHostToDevice);\n}\n");
  EXPECT_EQ(t.rewrites, 5u);
}

TEST(Translator, LeavesCommentsStringsAndFormattingAlone) {
  const std::string in =
      "#include <cuda_runtime.h>\n/* cudaMalloc here */ // cudaFree there\n"
      "const char* s = \"cudaMalloc\";   auto r = R\"(cudaMemcpy)\";\n\tint   cudaMallocCount;\n";
  auto t = translate(in);
  EXPECT_EQ(t.output, "#include <hip/hip_runtime.h>\n" + in.substr(in.find('\n') + 1));
}

TEST(Translator, SkipsMembersAndForeignNamespaces) {
  auto t = translate("#include <cuda.h>\nvoid f() { obj.cudaMalloc(1); p->cudaFree(2); mine::cudaMalloc(3);"
                     " T<int>::cudaFree(4); ::cudaMalloc(5); }\n");
  EXPECT_NE(t.output.find("obj.cudaMalloc(1)"), std::string::npos);
  EXPECT_NE(t.output.find("p->cudaFree(2)"), std::string::npos);
  EXPECT_NE(t.output.find("mine::cudaMalloc(3)"), std::string::npos);
  EXPECT_NE(t.output.find("T<int>::cudaFree(4)"), std::string::npos);
  EXPECT_NE(t.output.find("::hipMalloc(5)"), std::string::npos);
}

TEST(Translator, TranslatesEveryPreprocessorBranchAndMacroBodies) {
  auto t = translate("#include <cuda.h>\n#if USE_A\n#define ALLOC(p) cudaMalloc(&p, 4)\n#else\n"
                     "#define ALLOC(p) cudaMalloc(&p, 8)\n#endif\n#if 0\nvoid g() { cudaFree(0); }\n#endif\n");
  EXPECT_EQ(t.output.find("cudaMalloc"), std::string::npos);
  EXPECT_EQ(t.output.find("cudaFree"), std::string::npos);
}

TEST(Translator, MacroNamesDefinedByTheUserAreKept) {
  auto t = translate("#include <cuda.h>\n#define cudaCheck(x) x\nvoid f() { cudaCheck(cudaFree(0)); }\n");
  EXPECT_NE(t.output.find("cudaCheck(hipFree(0))"), std::string::npos);
  EXPECT_FALSE(has_finding(t, "unknown-api"));
}

TEST(Translator, ReportsUnknownAndUnsupportedApis) {
  auto t = translate("#include <cuda.h>\nvoid f() { cudaBindTexture(0); cudaFancyNewThing(1); }\n");
  ASSERT_TRUE(has_finding(t, "unsupported-api"));
  ASSERT_TRUE(has_finding(t, "unknown-api"));
  for (const auto& d : t.findings) {
    if (d.code == "unsupported-api") {
      EXPECT_EQ(d.severity, Severity::error);
      EXPECT_EQ(d.location.line, 2u);
      EXPECT_EQ(d.location.column, 12u);
      EXPECT_EQ(d.fix, "use texture objects");
    }
  }
  EXPECT_NE(t.output.find("cudaBindTexture(0)"), std::string::npos);
}

TEST(Translator, DeprecatedApisAreTranslatedWithAWarning) {
  auto t = translate("#include <cuda.h>\nvoid f() { cudaThreadSynchronize(); }\n");
  EXPECT_NE(t.output.find("hipDeviceSynchronize()"), std::string::npos);
  EXPECT_TRUE(has_finding(t, "deprecated-api"));
}

TEST(Translator, ArgumentLevelRewrites) {
  auto t = translate("#include <cuda.h>\n__constant__ float c[4];\nvoid f(cudaEvent_t* e, float* p) {\n"
                     "  cudaEventCreate(e, 0); cudaEventCreate(e);\n  cudaMemcpyToSymbol(c, p, 16);\n}\n");
  EXPECT_NE(t.output.find("hipEventCreateWithFlags(e, 0); hipEventCreate(e);"), std::string::npos);
  EXPECT_NE(t.output.find("hipMemcpyToSymbol(HIP_SYMBOL(c), p, 16)"), std::string::npos);
}

TEST(Translator, DropsTheMaskOfSyncWarpFunctions) {
  auto t = translate("__global__ void k(float v, unsigned m) { v += __shfl_down_sync(0xffffffff, v, 1);"
                     " v += __shfl_down_sync(m, v, 2); }\n");
  EXPECT_NE(t.output.find("__shfl_down(v, 1)"), std::string::npos);
  EXPECT_NE(t.output.find("__shfl_down(v, 2)"), std::string::npos);
  // A partial mask is a warning: dropping it changes which lanes take part. The full mask
  // loses nothing, and its removal is a note.
  std::size_t warnings = 0, notes = 0;
  for (const auto& d : t.findings) {
    warnings += d.code == "warp-mask-dropped" && d.severity == Severity::warning;
    notes += d.code == "warp-mask-dropped" && d.severity == Severity::note;
  }
  EXPECT_EQ(warnings, 1u);
  EXPECT_EQ(notes, 1u);
}

TEST(Translator, NamespaceRenamesOnlyAsNamespace) {
  auto t = translate("#include <cuda.h>\nvoid f() { cub::DeviceReduce::Sum(0); int cub = 1; using namespace cub; }\n");
  EXPECT_NE(t.output.find("hipcub::DeviceReduce::Sum(0)"), std::string::npos);
  EXPECT_NE(t.output.find("int cub = 1"), std::string::npos);
  EXPECT_NE(t.output.find("using namespace hipcub;"), std::string::npos);
}

TEST(Translator, PpConditionsOnlyInDefinedTests) {
  auto t = translate("#ifdef __CUDA_ARCH__\n#endif\n#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700\n#endif\n");
  // On NVIDIA, __HIP_DEVICE_COMPILE__ comes from HIP's headers: one comes first.
  EXPECT_EQ(t.output,
            "#include <hip/hip_common.h>\n#ifdef __HIP_DEVICE_COMPILE__\n#endif\n#if defined(__HIP_DEVICE_COMPILE__) && __CUDA_ARCH__ >= 700\n#endif\n");
  EXPECT_TRUE(has_finding(t, "cuda-arch-value"));
}

TEST(Translator, ElaboratedTypeSpecifiersAreDropped) {
  auto t = translate("#include <cuda.h>\nstruct cudaExtent e;\n");
  EXPECT_NE(t.output.find("\nhipExtent e;"), std::string::npos);
}

TEST(Translator, OneRuntimeIncludeWhereTheCudaOneWas) {
  auto t = translate("// header\n#include <stdio.h>\n#include <cuda_runtime.h>\n#include <cuda.h>\n"
                     "#include \"my-cuda.h\"\n__global__ void k() {}\n");
  EXPECT_EQ(t.output, "// header\n#include <stdio.h>\n#include <hip/hip_runtime.h>\n#include \"my-cuda.h\"\n"
                      "__global__ void k() {}\n");
}

TEST(Translator, DuplicatesInDifferentBranchesAreKept) {
  auto t = translate("#ifdef A\n#include <cuda_runtime.h>\n#else\n#include <cuda.h>\n#endif\n");
  EXPECT_EQ(t.output, "#ifdef A\n#include <hip/hip_runtime.h>\n#else\n#include <hip/hip_runtime.h>\n#endif\n");
}

TEST(Translator, AddsRuntimeIncludeAfterPragmaOnceOrGuard) {
  auto a = translate("// c\n#pragma once\n__device__ int f() { return 1; }\n");
  EXPECT_EQ(a.output, "// c\n#pragma once\n#include <hip/hip_runtime.h>\n__device__ int f() { return 1; }\n");
  auto b = translate("#ifndef K_H\n#define K_H\n__device__ int f();\n#endif\n");
  EXPECT_EQ(b.output, "#ifndef K_H\n#define K_H\n#include <hip/hip_runtime.h>\n__device__ int f();\n#endif\n");
  auto c = translate("/* license */\n\n#include <vector>\n__global__ void k() {}\n");
  EXPECT_EQ(c.output, "/* license */\n\n#include <hip/hip_runtime.h>\n#include <vector>\n__global__ void k() {}\n");
  auto d = translate("int plain_host_code() { return 0; }\n");
  EXPECT_EQ(d.output, "int plain_host_code() { return 0; }\n");
  TranslateOptions no_include;
  no_include.add_runtime_include = false;
  EXPECT_EQ(translate("__global__ void k() {}\n", no_include).output, "__global__ void k() {}\n");
}

TEST(Translator, UnsupportedHeadersAreReported) {
  auto t = translate("#include <cuda/std/atomic>\n");
  EXPECT_TRUE(has_finding(t, "unsupported-header"));
  EXPECT_EQ(t.output, "#include <cuda/std/atomic>\n");
}

TEST(Translator, HipLaunchKernelGGL) {
  TranslateOptions o;
  o.launch_style = LaunchStyle::hip_launch_kernel_ggl;
  auto t = translate("__global__ void k(int);\nvoid f(cudaStream_t s) {\n  k<<<g, 256>>>(1);\n"
                     "  k<<<dim3(2), b, 64, s>>>(2);\n  ns::k2<float, 4><<<1, 2>>>();\n}\n", o);
  EXPECT_NE(t.output.find("hipLaunchKernelGGL(k, dim3(g), dim3(256), 0, 0, 1);"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("hipLaunchKernelGGL(k, dim3(2), dim3(b), 64, s, 2);"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::k2<float, 4>), dim3(1), dim3(2), 0, 0);"),
            std::string::npos) << t.output;
  auto kept = translate("__global__ void k(int);\nvoid f() { k<<<1, 2>>>(3); }\n");
  EXPECT_NE(kept.output.find("k<<<1, 2>>>(3)"), std::string::npos);
}

TEST(Translator, IsIdempotent) {
  const std::string in = "#include <cuda_runtime.h>\n__global__ void k(float* p) { p[0] = 1; }\n"
                         "int main() { float* p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaFree(p); }\n";
  auto once = translate(in);
  auto twice = translate(once.output);
  EXPECT_EQ(twice.output, once.output);
  EXPECT_EQ(twice.rewrites, 0u);
}

TEST(Translator, RejectsBinaryBadEncodingAndUnterminatedInput) {
  auto bin = translate(std::string("int x;\0\x01\x02", 9));
  EXPECT_FALSE(bin.ok);
  EXPECT_TRUE(has_finding(bin, "binary-file"));
  // Bytes that are not UTF-8 are kept, with a warning at the first one.
  auto latin = translate("void f(void* p) { cudaFree(p); }\n// caf\xE9\n");
  EXPECT_TRUE(latin.ok);
  ASSERT_TRUE(has_finding(latin, "invalid-utf8"));
  EXPECT_EQ(latin.findings[0].severity, Severity::warning);
  EXPECT_EQ(latin.findings[0].location.line, 2u);
  EXPECT_EQ(latin.findings[0].location.column, 7u);
  EXPECT_EQ(latin.output, "#include <hip/hip_runtime.h>\nvoid f(void* p) { hipFree(p); }\n// caf\xE9\n");
  auto open = translate("int x;\n/* never closed\n");
  EXPECT_FALSE(open.ok);
  EXPECT_TRUE(has_finding(open, "unterminated-comment"));
  EXPECT_TRUE(open.output.empty());
}

TEST(Translator, AByteOrderMarkStaysFirst) {
  const auto t = translate("\xEF\xBB\xBF__global__ void k() {}\n");
  ASSERT_TRUE(t.ok);
  EXPECT_EQ(t.output.substr(0, 3), "\xEF\xBB\xBF");
  EXPECT_EQ(t.output.substr(3, 28), "#include <hip/hip_runtime.h>");
}

TEST(Translator, TheVoteShimIsTranslatedOnlyOnce) {
  // The shim's own __ballot_sync must not be rewritten again, and no second shim added.
  for (const char* source : {"__global__ void k(unsigned* o) { o[0] = __ballot_sync(0xffffffffu, 1); }\n",
                             "#include <cuda_runtime.h>\n__global__ void k(unsigned* o) { o[0] = __ballot_sync(~0u, 1); }\n"}) {
    const auto once = translate(source);
    ASSERT_TRUE(once.ok);
    EXPECT_NE(once.output.find("GPUPORT_NVIDIA_WARP_VOTES"), std::string::npos);
    const auto twice = translate(once.output);
    EXPECT_EQ(twice.output, once.output) << "translating a translation must change nothing";
    EXPECT_EQ(twice.rewrites, 0u);
  }
}

}  // namespace
}  // namespace gpuport::source
