// The gfx1100 emulator against truth it did not produce: kernels compiled by clang-19 for gfx1100
// (tests/unit/emu/kernels.hip, wave32 and wave64) run on the emulator, and every result is
// checked against a reference computed here on the CPU. Skipped without clang-19 and the HIP
// headers.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "emu_tiers.h"
#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "common/process.h"
#include "emu/interpreter.h"
#include "emu_kernels.h"

namespace gpuport::emu {
namespace {
namespace fs = std::filesystem;

using Compiled = test::CompiledKernels;

Compiled& compiled(bool wave64) {
  static std::map<bool, Compiled> cache;
  if (auto it = cache.find(wave64); it != cache.end()) return it->second;
  Compiled& c = cache[wave64];
  // -ffp-contract=off: the CPU references compute products and sums apart.
  test::compile_emu_kernels(c, "kernels.hip", wave64, {"-ffp-contract=off"});
  return c;
}

class Emu : public ::testing::TestWithParam<testing::WaveAndTier> {
 protected:
  void SetUp() override {
    Compiled& c = compiled(GetParam());
    if (!c.skip_reason.empty()) GTEST_SKIP() << c.skip_reason;
    ASSERT_NE(c.code_object, nullptr) << c.errors;
    register_image();
  }
  // A device buffer: host memory registered with the emulator's address space.
  template <typename T>
  T* device(std::vector<T>& v) {
    memory.add(reinterpret_cast<std::uint64_t>(v.data()), v.size() * sizeof(T), AddressSpace::Kind::device, "test buffer");
    return v.data();
  }
  void register_image() {
    Compiled& c = compiled(GetParam());
    auto& m = c.code_object->memory;
    memory.add(reinterpret_cast<std::uint64_t>(m.data()), m.size(), AddressSpace::Kind::code_object, "code object image");
  }
  unsigned jobs = 2;
  template <typename... Args>
  Result<RunStats> launch(const std::string& name, std::array<std::uint32_t, 3> grid, std::array<std::uint32_t, 3> block,
                          Args... args) {
    Compiled& c = compiled(GetParam());
    auto it = c.kernels.find(name);
    if (it == c.kernels.end()) {
      Diagnostic d;
      d.message = "kernel " + name + " was not prepared: " + c.errors;
      return d;
    }
    const amdgpu::Kernel& k = *it->second->kernel;
    Launch L;
    L.grid = grid;
    L.block = block;
    L.jobs = jobs;
    L.timeout_seconds = 20;
    L.kernarg.assign(k.kernarg_segment_size, 0);
    std::size_t index = 0;
    auto put = [&](auto value) {
      while (index < k.arguments.size() && k.arguments[index].value_kind.starts_with("hidden_")) ++index;
      const auto& a = k.arguments.at(index++);
      std::memcpy(L.kernarg.data() + a.offset, &value, sizeof(value));
    };
    (put(args), ...);
    L.jit = GetParam().jit;
    return run_kernel(*it->second, std::move(L), memory, reinterpret_cast<std::uint64_t>(c.code_object->memory.data()));
  }
  AddressSpace memory;
};

#define RUN_OK(call)                                                         \
  do {                                                                       \
    auto r_ = (call);                                                        \
    ASSERT_TRUE(r_.ok()) << (r_.diagnostics().empty() ? "" : r_.diagnostics()[0].message); \
  } while (0)

TEST_P(Emu, EveryKernelIsPrepared) {
  Compiled& c = compiled(GetParam());
  EXPECT_EQ(c.errors, "");
  EXPECT_EQ(c.kernels.size(), c.code_object->kernels.size());
}

TEST_P(Emu, VectorAddWithAPartialLastBlock) {
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) a[i] = i * 0.5f, b[i] = 1000.0f - i;
  RUN_OK(launch("vadd", {4, 1, 1}, {256, 1, 1}, device(a), device(b), device(c), n));
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_P(Emu, TwoDimensionalGrid) {
  const int w = 37, h = 23;
  std::vector<float> x(w * h), y(w * h), expect(w * h);
  for (int i = 0; i < w * h; ++i) x[i] = std::sin(i * 1.0f), y[i] = i * 0.25f, expect[i] = 1.5f * x[i] + y[i];
  RUN_OK(launch("saxpy2d", {3, 3, 1}, {16, 8, 1}, 1.5f, device(x), device(y), w, h));
  for (int i = 0; i < w * h; ++i) ASSERT_EQ(y[i], expect[i]) << i;
}

TEST_P(Emu, SharedMemoryReductionAcrossBarriers) {
  const int n = 256 * 5 - 17;
  std::vector<int> in(n), out(5, 0);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
  RUN_OK(launch("block_sum", {5, 1, 1}, {256, 1, 1}, device(in), device(out), n));
  for (int blk = 0; blk < 5; ++blk) {
    int s = 0;
    for (int i = blk * 256; i < std::min(n, (blk + 1) * 256); ++i) s += in[i];
    EXPECT_EQ(out[blk], s) << blk;
  }
}

TEST_P(Emu, TheSameResultsAtAnyJobCount) {
  const int n = 256 * 37 - 5;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 2654435761u) % 2001 - 1000;
  std::vector<std::vector<int>> outs;
  for (unsigned j : {1u, 2u, 5u}) {
    jobs = j;
    std::vector<int> out(37, 0);
    RUN_OK(launch("block_sum", {37, 1, 1}, {256, 1, 1}, device(in), device(out), n));
    outs.push_back(out);
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_EQ(outs[0], outs[2]);
}

TEST_P(Emu, IntegerDivisionCarriesAndBitOperations) {
  const int n = 300;
  std::mt19937 rng(7);
  std::vector<unsigned> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = rng(), b[i] = i < 10 ? i : rng() >> (i % 31);
  std::vector<unsigned long long> out(5 * n, 0);
  RUN_OK(launch("int_ops", {2, 1, 1}, {192, 1, 1}, device(a), device(b), device(out), n));
  for (int i = 0; i < n; ++i) {
    const unsigned x = a[i], y = b[i] | 1u;
    const int sx = static_cast<int>(x), sy = static_cast<int>(y);
    ASSERT_EQ(out[5 * i + 0], (x / y) ^ (static_cast<unsigned long long>(x % y) << 32)) << i;
    ASSERT_EQ(out[5 * i + 1], static_cast<unsigned long long>(sx / sy) ^ (static_cast<unsigned long long>(sx % sy) << 40)) << i;
    ASSERT_EQ(out[5 * i + 2], static_cast<unsigned long long>(x) * y + (static_cast<unsigned long long>(x) << (y & 31))) << i;
    unsigned rev = 0;
    for (int k = 0; k < 32; ++k) rev |= ((x >> k) & 1u) << (31 - k);
    const unsigned long long bits = static_cast<unsigned long long>(__builtin_popcount(x)) + (static_cast<unsigned long long>(__builtin_clz(x | 1)) << 8) +
                                    (static_cast<unsigned long long>(__builtin_ffs(static_cast<int>(y))) << 16) +
                                    (static_cast<unsigned long long>(rev) << 24);
    ASSERT_EQ(out[5 * i + 3], bits) << i;
    ASSERT_EQ(out[5 * i + 4], static_cast<unsigned long long>(static_cast<long long>(sx) * sy) / (y + 3ull)) << i;
  }
}

TEST_P(Emu, ExactFloatArithmeticIsBitExact) {
  const int n = 257;
  std::vector<float> a(n), b(n), out(8 * n);
  std::vector<double> dout(2 * n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f);
  for (int i = 0; i < n; ++i) a[i] = u(rng), b[i] = i % 9 == 0 ? a[i] : u(rng);
  a[0] = 1e-40f;  // a denormal: kept, as the kernel's float mode asks
  b[1] = 0.0f;    // division by zero
  RUN_OK(launch("float_exact", {3, 1, 1}, {96, 1, 1}, device(a), device(b), device(out), device(dout), n));
  for (int i = 0; i < n; ++i) {
    const float x = a[i], y = b[i];
    const float expect[8] = {x + y * 3.0f, std::fma(x, y, -x), x / y, std::sqrt(std::fabs(x)), std::fmin(x, y) - std::fmax(x, y),
                             std::floor(x) + std::ceil(y) + std::trunc(x * y) + std::rint(y / 3.0f),
                             static_cast<float>(static_cast<int>(x * 1000.0f)) + static_cast<float>(static_cast<unsigned>(std::fabs(y) * 7.0f)),
                             x < y ? x : (x == y ? 0.0f : -y)};
    for (int k = 0; k < 8; ++k) {
      if (std::isnan(expect[k])) ASSERT_TRUE(std::isnan(out[8 * i + k])) << i << " " << k;
      else ASSERT_EQ(out[8 * i + k], expect[k]) << "element " << i << " result " << k;
    }
    const double dx = x, dy = y;
    ASSERT_EQ(dout[2 * i + 0], dx / (dy + 0.5) + std::fma(dx, dy, 1.0)) << i;
    ASSERT_EQ(dout[2 * i + 1], std::sqrt(std::fabs(dx * dy)) - static_cast<double>(static_cast<long long>(dx * 1e6))) << i;
  }
}

TEST_P(Emu, LibraryMathWithinFewUlp) {
  const int n = 200;
  std::vector<float> a(n), out(4 * n);
  for (int i = 0; i < n; ++i) a[i] = (i - 100) * 0.37f;
  RUN_OK(launch("float_math", {1, 1, 1}, {256, 1, 1}, device(a), device(out), n));
  auto ulps = [](float x, float y) {
    std::int32_t a_, b_;
    std::memcpy(&a_, &x, 4);
    std::memcpy(&b_, &y, 4);
    return std::abs(static_cast<long long>(a_) - b_);
  };
  for (int i = 0; i < n; ++i) {
    const float x = a[i];
    const float expect[4] = {std::exp(x * 0.1f), std::log(std::fabs(x) + 1.0f), std::sin(x), std::pow(std::fabs(x) + 0.5f, 1.5f)};
    for (int k = 0; k < 4; ++k) EXPECT_LE(ulps(out[4 * i + k], expect[k]), 4) << "element " << i << " function " << k << ": " << out[4 * i + k] << " vs " << expect[k];
  }
}

TEST_P(Emu, SharedMemoryAddressesWrapAtThirtyTwoBits) {
  std::vector<int> in(512), out(512, -1);
  for (int i = 0; i < 512; ++i) in[i] = i * 7 + 1;
  RUN_OK(launch("reverse_block", {2, 1, 1}, {256, 1, 1}, device(in), device(out)));
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 256; ++t) ASSERT_EQ(out[b * 256 + t], in[b * 256 + 255 - t]) << b << " " << t;
}

TEST_P(Emu, DoubleTrigonometryOfLargeArgumentsWithinTwoUlp) {
  std::vector<double> a;
  for (double m : {1.0, -3.7, 0.61803398875, 2.5e-3})
    for (int e : {-30, -1, 0, 3, 10, 22, 45, 80, 150, 300, 700, 1000}) a.push_back(std::ldexp(m, e));
  for (double x : {1e22, 5.3e22, 1e300, -1.7e308, 3.141592653589793, 6.283185307179586 * 1e15}) a.push_back(x);
  const int n = static_cast<int>(a.size());
  std::vector<double> out(3 * a.size());
  RUN_OK(launch("double_trig", {1, 1, 1}, {128, 1, 1}, device(a), device(out), n));
  auto ulps = [](double x, double y) {
    std::int64_t a_, b_;
    std::memcpy(&a_, &x, 8);
    std::memcpy(&b_, &y, 8);
    if ((a_ < 0) != (b_ < 0)) return x == y ? 0.0 : 1e18;
    return std::fabs(static_cast<double>(a_ - b_));
  };
  for (int i = 0; i < n; ++i) {
    const double x = a[i];
    const double expect[3] = {std::sin(x), std::cos(x), std::tan(x)};
    for (int k = 0; k < 3; ++k)
      EXPECT_LE(ulps(out[3 * i + k], expect[k]), 2) << "x = " << x << " function " << k << ": " << out[3 * i + k] << " vs " << expect[k];
  }
}

// HIP's __shfl and __shfl_down are ds_bpermute_b32 with a lane index; the hardware takes the
// index modulo 32 within the reading lane's half of a wave64 (RDNA3 guide, DS_BPERMUTE_B32: "MOD
// 32 regardless of wave size"; AMD's LLPC pairs it with v_permlane64 to reach the other half).
// So in wave64 a shuffle across the halves reads the lane's own half: the reference models that.
int bpermute_source(unsigned lane, int index, unsigned wave) {
  return static_cast<int>((wave == 64 ? (lane & 32) : 0) | (static_cast<unsigned>(index) & 31));
}

TEST_P(Emu, ShufflesAndBallotsFollowTheWaveSize) {
  const unsigned wave = GetParam() ? 64 : 32;
  const int threads = 128, blocks = 2, n = threads * blocks;
  std::vector<int> in(n), out(2 * n, -7);
  std::vector<unsigned long long> ballots(n / wave, 0);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101;
  RUN_OK(launch("warp_ops", {blocks, 1, 1}, {threads, 1, 1}, device(in), device(out), device(ballots)));
  for (int w = 0; w < n / static_cast<int>(wave); ++w) {
    unsigned long long odd = 0;
    std::vector<int> sum(in.begin() + w * wave, in.begin() + (w + 1) * wave);
    for (unsigned l = 0; l < wave; ++l)
      if (in[w * wave + l] & 1) odd |= 1ull << l;
    for (unsigned offset = wave / 2; offset > 0; offset /= 2) {  // __shfl_down(sum, offset), width = wave
      std::vector<int> next(wave);
      for (unsigned l = 0; l < wave; ++l) {
        const int index = l + offset >= wave ? static_cast<int>(l) : static_cast<int>(l + offset);
        next[l] = sum[l] + sum[bpermute_source(l, index, wave)];
      }
      sum = next;
    }
    EXPECT_EQ(out[2 * (w * wave)], sum[0]) << "wave " << w;  // lane 0 holds the reduction
    EXPECT_EQ(ballots[w], odd) << "wave " << w;
    for (unsigned l = 0; l < wave; ++l)
      EXPECT_EQ(out[2 * (w * wave + l) + 1], in[w * wave + bpermute_source(l, static_cast<int>((l + 1) % wave), wave)]) << w << " " << l;
  }
  if (wave == 32) {  // there the reduction is the plain sum of the wave's lanes
    int total = 0;
    for (int l = 0; l < 32; ++l) total += in[l];
    EXPECT_EQ(out[0], total);
  }
}

TEST_P(Emu, AtomicsInSharedAndGlobalMemoryAcrossParallelWorkgroups) {
  const int n = 5000;
  std::vector<unsigned> in(n), bins(64, 0), total(1, 0);
  for (int i = 0; i < n; ++i) in[i] = static_cast<unsigned>(i * i + 3 * i);
  RUN_OK(launch("histogram", {7, 1, 1}, {96, 1, 1}, device(in), device(bins), device(total), n));
  std::vector<unsigned> expect(64, 0);
  for (int i = 0; i < n; ++i) ++expect[in[i] % 64];
  EXPECT_EQ(bins, expect);
  EXPECT_EQ(total[0], 7u);
}

TEST_P(Emu, PrivateArraysLiveInScratch) {
  const int n = 100;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i * 13 + 5;
  RUN_OK(launch("private_array", {1, 1, 1}, {128, 1, 1}, device(in), device(out), n));
  for (int i = 0; i < n; ++i) {
    int local[17];
    for (int k = 0; k < 17; ++k) local[k] = in[i] * k + k * k;
    EXPECT_EQ(out[i], local[in[i] % 17] + local[(in[i] / 17) % 17]) << i;
  }
}

TEST_P(Emu, ConstantTablesInTheImage) {
  const int n = 100;
  std::vector<unsigned> in(n), out(n, 0);
  for (int i = 0; i < n; ++i) in[i] = static_cast<unsigned>(i * 7);
  RUN_OK(launch("table_lookup", {2, 1, 1}, {64, 1, 1}, device(in), device(out), n));
  const unsigned table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  for (int i = 0; i < n; ++i) EXPECT_EQ(out[i], table[in[i] % 8] * 10 + table[(in[i] / 8) % 8]) << i;
}

TEST_P(Emu, AnOutOfBoundsWriteIsReportedNotPerformed) {
  const int n = 100;
  std::vector<int> out(n + 16, -1);
  memory.add(reinterpret_cast<std::uint64_t>(out.data()), n * sizeof(int), AddressSpace::Kind::device, "out");
  auto r = launch("out_of_bounds", {1, 1, 1}, {128, 1, 1}, out.data(), n);
  ASSERT_FALSE(r.ok());
  const std::string& m = r.diagnostics()[0].message;
  EXPECT_NE(m.find("kernel out_of_bounds: invalid global write of 4 bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("0 bytes after the end of allocation of 400 bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("lane " + std::to_string(100 % (GetParam() ? 64 : 32))), std::string::npos) << m;
  EXPECT_EQ(out[n], -1);  // the write did not happen
}

TEST_P(Emu, UseAfterFreeIsReported) {
  std::vector<int> out(64, 0);
  int* p = device(out);
  memory.release(reinterpret_cast<std::uint64_t>(p));
  auto r = launch("out_of_bounds", {1, 1, 1}, {32, 1, 1}, p, 31);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics()[0].message.find("freed allocation"), std::string::npos) << r.diagnostics()[0].message;
}

TEST_P(Emu, AKernelThatNeverEndsTimesOut) {
  std::vector<int> flag(1, 0);
  Compiled& c = compiled(GetParam());
  auto it = c.kernels.find("forever");
  ASSERT_NE(it, c.kernels.end());
  Launch L;
  L.grid = {1, 1, 1};
  L.block = {32, 1, 1};
  L.timeout_seconds = 0.5;
  L.kernarg.assign(it->second->kernel->kernarg_segment_size, 0);
  int* p = device(flag);
  std::memcpy(L.kernarg.data(), &p, sizeof(p));
  L.jit = GetParam().jit;
  auto r = run_kernel(*it->second, std::move(L), memory, reinterpret_cast<std::uint64_t>(c.code_object->memory.data()));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics()[0].message.find("timeout"), std::string::npos) << r.diagnostics()[0].message;
}

INSTANTIATE_TEST_SUITE_P(Waves, Emu, testing::waves_and_tiers(), testing::wave_and_tier_name);

}  // namespace
}  // namespace gpuport::emu
