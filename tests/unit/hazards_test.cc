#include <gtest/gtest.h>

#include "test_support.h"

namespace gpuport::source {
namespace {
using testing::has_finding;
using testing::translate;

TranslateOptions fixing() {
  TranslateOptions o;
  o.fix_warp_size = true;
  return o;
}

const Diagnostic* find(const FileTranslation& t, std::string_view code) {
  for (const auto& d : t.findings)
    if (d.code == code) return &d;
  return nullptr;
}

TEST(Hazards, WarpSizeConstantsAreReportedNotRewritten) {
  const std::string in = "#define WARP_SIZE 32\nconstexpr int kWarpSize = 32;\nenum { THREADS_PER_WARP = 32 };\n"
                         "#define BLOCK 32\n";
  auto t = translate(in, fixing());
  std::size_t n = 0;
  for (const auto& d : t.findings) n += d.code == "warp-size-constant";
  EXPECT_EQ(n, 3u);  // BLOCK is not a warp size
  EXPECT_EQ(t.output, in);
}

TEST(Hazards, LaneArithmeticIsFixedOnlyInDeviceCodeWhenAsked) {
  const std::string in = "__global__ void k(int* o) {\n  int lane = threadIdx.x & 31;\n  int l2 = threadIdx.x % 32;\n"
                         "  int w = threadIdx.x / 32;\n  int q = n / 32;\n  o[0] = lane + l2 + w + q;\n}\n"
                         "int host(int i) { return i % 32; }\n";
  auto plain = translate(in);
  EXPECT_TRUE(has_finding(plain, "warp-lane-arithmetic"));
  EXPECT_TRUE(has_finding(plain, "warp-size-literal"));
  EXPECT_EQ(plain.output.find("warpSize"), std::string::npos);
  auto fixed = translate(in, fixing());
  EXPECT_NE(fixed.output.find("threadIdx.x & (warpSize - 1)"), std::string::npos);
  EXPECT_NE(fixed.output.find("threadIdx.x % warpSize"), std::string::npos);
  EXPECT_NE(fixed.output.find("threadIdx.x / warpSize"), std::string::npos);
  EXPECT_NE(fixed.output.find("n / 32"), std::string::npos);      // not a lane index
  EXPECT_NE(fixed.output.find("return i % 32"), std::string::npos);  // host code
  EXPECT_TRUE(find(fixed, "warp-lane-arithmetic")->fixed);
}

TEST(Hazards, HostDeviceFunctionsAreReportedButNotFixed) {
  auto t = translate("__host__ __device__ int lane_of(int tid) { return tid % 32; }\n", fixing());
  ASSERT_NE(find(t, "warp-lane-arithmetic"), nullptr);
  EXPECT_FALSE(find(t, "warp-lane-arithmetic")->fixed);
  EXPECT_NE(t.output.find("tid % 32"), std::string::npos);
}

TEST(Hazards, BallotStoredIn32Bits) {
  const std::string in = "__global__ void k(int p, int* o) {\n  unsigned int b = __ballot_sync(0xffffffff, p);\n"
                         "  o[0] = __popc(__ballot_sync(0xffffffff, p));\n  unsigned long long ok = __ballot_sync(0xffffffff, p);\n}\n";
  auto t = translate(in, fixing());
  std::size_t n = 0;
  for (const auto& d : t.findings) n += d.code == "warp-ballot-32bit";
  EXPECT_EQ(n, 2u);
  EXPECT_NE(t.output.find("unsigned long long b = __ballot(p);"), std::string::npos) << t.output;
  EXPECT_NE(t.output.find("__popcll(__ballot(p))"), std::string::npos) << t.output;
}

TEST(Hazards, NamedFullMasksBecome64Bit) {
  auto t = translate("__global__ void k() { const unsigned FULL_MASK = 0xffffffff; }\n", fixing());
  ASSERT_NE(find(t, "warp-mask-32bit"), nullptr);
  EXPECT_NE(t.output.find("0xffffffffffffffffull"), std::string::npos);
  // Masks handed to *_sync functions are dropped with the argument, not reported twice.
  auto dropped = translate("__global__ void k(float v) { v = __shfl_down_sync(0xffffffff, v, 1); }\n");
  EXPECT_EQ(find(dropped, "warp-mask-32bit"), nullptr);
}

TEST(Hazards, ReductionLoopsStartingAt16) {
  const std::string in = "__global__ void k(float v, float* o) {\n"
                         "  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);\n"
                         "  for (int i = 16; i > 0; i--) o[i] = 0;\n  o[0] = v;\n}\n";
  auto t = translate(in, fixing());
  std::size_t n = 0;
  for (const auto& d : t.findings) n += d.code == "warp-size-literal";
  EXPECT_EQ(n, 1u);
  EXPECT_NE(t.output.find("int offset = warpSize / 2;"), std::string::npos);
  EXPECT_NE(t.output.find("int i = 16;"), std::string::npos);
}

TEST(Hazards, ShuffleWidth32) {
  auto t = translate("__global__ void k(float v) { v = __shfl_xor(v, 1, 32); }\n", fixing());
  ASSERT_NE(find(t, "warp-size-literal"), nullptr);
  EXPECT_NE(t.output.find("__shfl_xor(v, 1, warpSize)"), std::string::npos);
}

TEST(Hazards, SharedArraysSizedPerWarp) {
  auto t = translate("__global__ void k() { __shared__ float partial[32]; __shared__ float tile[16][17]; }\n");
  std::size_t n = 0;
  for (const auto& d : t.findings) n += d.code == "warp-shared-array";
  EXPECT_EQ(n, 1u);
}

TEST(Hazards, InlinePtxIsAnErrorWithAReplacement) {
  auto t = translate("__device__ unsigned lane() { unsigned r;\n  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));\n"
                     "  asm(\"brev.b32 %0, %1;\" : \"=r\"(r) : \"r\"(r));\n  return r; }\n");
  std::vector<const Diagnostic*> ptx;
  for (const auto& d : t.findings)
    if (d.code == "inline-ptx") ptx.push_back(&d);
  ASSERT_EQ(ptx.size(), 2u);
  EXPECT_EQ(ptx[0]->severity, Severity::error);
  EXPECT_EQ(ptx[0]->location.line, 2u);
  EXPECT_NE(ptx[0]->message.find("mov.u32"), std::string::npos);
  EXPECT_NE(ptx[0]->fix.find("__lane_id()"), std::string::npos);
  EXPECT_NE(ptx[1]->fix.find("__brev"), std::string::npos);
}

}  // namespace
}  // namespace gpuport::source
