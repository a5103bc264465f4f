// DPP and the cross-lane instructions as clang-19 emits them: the builtins (update_dpp, mov_dpp,
// mov_dpp8, permlane16/x16/64, ds_swizzle), the DPP scans of LLVM's atomic optimizer
// (-amdgpu-atomic-optimizer-strategy=DPP) and rocPRIM's warp reduce and scans, compiled for
// gfx1100 in wave32 and wave64 (tests/unit/emu/dpp_kernels.hip, rocprim_kernels.hip), run on the
// emulator and checked against CPU references written from the ISA's definitions.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <numeric>

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

const fs::path kRocprimInclude = fs::path(GPUPORT_BINARY_DIR) / "rocm-headers/usr/include/rocprim";

// tests/unit/emu/<file> compiled once per wave size. rocPRIM comes from build/rocm-headers through
// a folder holding only rocprim/, so that hip/ stays the installed HIP 5.2 headers.
Compiled& compiled(const std::string& file, bool wave64) {
  static std::map<std::pair<std::string, bool>, Compiled> cache;
  if (auto it = cache.find({file, wave64}); it != cache.end()) return it->second;
  Compiled& c = cache[{file, wave64}];
  std::vector<std::string> flags = {"-mllvm", "-amdgpu-atomic-optimizer-strategy=DPP"};
  fs::path include;
  if (file.starts_with("rocprim")) {
    if (!fs::exists(kRocprimInclude / "rocprim.hpp")) {
      c.skip_reason = "needs the ROCm 5.7 rocPRIM headers in build/rocm-headers (make build prepares them)";
      return c;
    }
    include = fs::temp_directory_path() / fmt::format("gpuport-emu-dpp-{}-{}-include", ::getpid(), file);
    fs::create_directories(include);
    fs::create_directory_symlink(kRocprimInclude, include / "rocprim");
    flags.push_back("-I" + include.string());
  }
  test::compile_emu_kernels(c, file, wave64, flags);
  std::error_code ec;
  if (!include.empty()) fs::remove_all(include, ec);
  return c;
}

class EmuDppKernels : public ::testing::TestWithParam<testing::WaveAndTier> {
 protected:
  unsigned wave() const { return GetParam() ? 64 : 32; }
  Compiled& code(const std::string& file) {
    Compiled& c = compiled(file, GetParam());
    if (c.skip_reason.empty() && c.code_object && !registered_.count(file)) {
      memory.add(reinterpret_cast<std::uint64_t>(c.code_object->memory.data()), c.code_object->memory.size(), AddressSpace::Kind::code_object, file);
      registered_[file] = true;
    }
    return c;
  }
  template <typename T>
  T* device(std::vector<T>& v) {
    memory.add(reinterpret_cast<std::uint64_t>(v.data()), v.size() * sizeof(T), AddressSpace::Kind::device, "test buffer");
    return v.data();
  }
  template <typename... Args>
  std::string launch(const std::string& file, const std::string& name, unsigned grid, unsigned block, Args... args) {
    Compiled& c = code(file);
    auto it = c.kernels.find(name);
    if (it == c.kernels.end()) return "kernel " + name + " was not prepared: " + c.errors;
    const amdgpu::Kernel& k = *it->second->kernel;
    Launch L;
    L.grid = {grid, 1, 1};
    L.block = {block, 1, 1};
    L.jobs = 2;
    L.timeout_seconds = 30;
    L.kernarg.assign(k.kernarg_segment_size, 0);
    std::size_t index = 0;
    auto put = [&](auto value) {
      while (index < k.arguments.size() && k.arguments[index].value_kind.starts_with("hidden_")) ++index;
      const auto& a = k.arguments.at(index++);
      std::memcpy(L.kernarg.data() + a.offset, &value, sizeof(value));
    };
    (put(args), ...);
    L.jit = GetParam().jit;
    L.jit = GetParam().jit;
  auto r = run_kernel(*it->second, std::move(L), memory, reinterpret_cast<std::uint64_t>(c.code_object->memory.data()));
    return r.ok() ? std::string() : r.diagnostics()[0].message;
  }
  AddressSpace memory;

 private:
  std::map<std::string, bool> registered_;
};

#define SKIP_OR_PREPARED(file)                                         \
  do {                                                                 \
    Compiled& c_ = code(file);                                         \
    if (!c_.skip_reason.empty()) GTEST_SKIP() << c_.skip_reason;       \
    ASSERT_NE(c_.code_object, nullptr) << c_.errors;                   \
  } while (0)

TEST_P(EmuDppKernels, EveryKernelIsPrepared) {
  for (const char* file : {"dpp_kernels.hip", "rocprim_kernels.hip"}) {
    Compiled& c = code(file);
    if (!c.skip_reason.empty()) continue;
    ASSERT_NE(c.code_object, nullptr) << c.errors;
    EXPECT_EQ(c.errors, "") << file;
    EXPECT_EQ(c.kernels.size(), c.code_object->kernels.size()) << file;
  }
}

// The lane (within the wave) that lane l reads under a DPP16 control, or -1 past its row's edge.
int row_base(unsigned l) { return static_cast<int>(l / 16 * 16); }
int shifted(unsigned l, int by) {  // row_shl (by > 0) / row_shr (by < 0)
  const int i = static_cast<int>(l % 16) + by;
  return i >= 0 && i < 16 ? row_base(l) + i : -1;
}

TEST_P(EmuDppKernels, UpdateDppAndMovDpp) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 256;
  const unsigned w = wave();
  std::vector<int> in(n), out(13 * n, 0x7777);
  for (int t = 0; t < n; ++t) in[t] = t * 11 + 5;
  ASSERT_EQ(launch("dpp_kernels.hip", "update_dpp", 2, 128, device(in), device(out), n), "");
  struct Slice {
    std::function<int(unsigned)> source;
    bool bound_ctrl = false;
    unsigned row_mask = 0xf, bank_mask = 0xf;
  };
  const std::vector<Slice> slices = {
      {[](unsigned l) { return static_cast<int>(l / 4 * 4 + 3 - l % 4); }},
      {[](unsigned l) { return shifted(l, 1); }},
      {[](unsigned l) { return shifted(l, 5); }, true},
      {[](unsigned l) { return shifted(l, -3); }},
      {[](unsigned l) { return shifted(l, -8); }, true},
      {[](unsigned l) { return row_base(l) + static_cast<int>((l % 16 + 11) % 16); }},  // ror 5
      {[](unsigned l) { return row_base(l) + 15 - static_cast<int>(l % 16); }},
      {[](unsigned l) { return static_cast<int>(l / 8 * 8 + 7 - l % 8); }},
      {[](unsigned l) { return row_base(l) + 11; }},
      {[](unsigned l) { return row_base(l) + static_cast<int>((l % 16) ^ 10); }},
      {[](unsigned l) { return shifted(l, -1); }, false, 0xa},
      {[](unsigned l) { return row_base(l) + static_cast<int>((l % 16) ^ 1); }, true, 0xf, 0x9},
      {[](unsigned l) { return row_base(l) + static_cast<int>((l % 16 + 1) % 16); }, true},  // mov_dpp ror 15
  };
  for (std::size_t k = 0; k < slices.size(); ++k)
    for (int t = 0; t < n; ++t) {
      const unsigned lane = t % w;
      const int wave_start = t - static_cast<int>(lane);
      const Slice& s = slices[k];
      const bool writes = ((s.row_mask >> (lane / 16)) & 1) && ((s.bank_mask >> (lane % 16 / 4)) & 1);
      const int from = s.source(lane);
      int expect = -t - 1;
      if (writes && from >= 0) expect = in[wave_start + from];
      else if (writes && s.bound_ctrl) expect = 0;
      EXPECT_EQ(out[k * n + t], expect) << "slice " << k << " thread " << t;
    }
}

TEST_P(EmuDppKernels, UpdateDppInDivergentCodeTreatsInactiveLanesAsInvalid) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 256;
  const unsigned w = wave();
  std::vector<int> in(n), out(n, 0x7777);
  for (int t = 0; t < n; ++t) in[t] = (t * 7 + t / 5) % 23 + 1;
  ASSERT_EQ(launch("dpp_kernels.hip", "update_dpp_divergent", 2, 128, device(in), device(out)), "");
  auto active = [&](int t) { return in[t] % 3 != 0; };
  for (int t = 0; t < n; ++t) {
    const unsigned lane = t % w;
    int expect = 0x7777;
    if (active(t)) expect = lane % 16 >= 1 && active(t - 1) ? in[t - 1] : 0;
    EXPECT_EQ(out[t], expect) << t;
  }
}

TEST_P(EmuDppKernels, MovDpp8) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 256;
  std::vector<unsigned> in(n), out(n);
  for (int t = 0; t < n; ++t) in[t] = 0x1000u * t + 3;
  ASSERT_EQ(launch("dpp_kernels.hip", "dpp8", 2, 128, device(in), device(out)), "");
  const int sel[8] = {5, 7, 0, 0, 2, 6, 1, 3};
  for (int t = 0; t < n; ++t) EXPECT_EQ(out[t], in[t / 8 * 8 + sel[t % 8]]) << t;
}

TEST_P(EmuDppKernels, Permlanes) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 256;
  const unsigned w = wave();
  const unsigned lo = 0x9c0e4f21u, hi = 0x5a3b7d68u;
  std::vector<unsigned> in(n), out(6 * n, 0x7777u);
  for (int t = 0; t < n; ++t) in[t] = 0x10001u * t + 9;
  ASSERT_EQ(launch("dpp_kernels.hip", "permlanes", 2, 128, device(in), device(out), n, lo, hi), "");
  const std::uint64_t select = lo | static_cast<std::uint64_t>(hi) << 32;
  auto nibble = [&](std::uint64_t s, unsigned lane) { return static_cast<int>((s >> (4 * (lane % 16))) & 15); };
  for (int t = 0; t < n; ++t) {
    const unsigned lane = t % w;
    const int row = t / 16 * 16, other_row = (t / 16 ^ 1) * 16;
    EXPECT_EQ(out[0 * n + t], in[row + nibble(select, lane)]) << t;
    EXPECT_EQ(out[1 * n + t], in[other_row + nibble(select, lane)]) << t;
    EXPECT_EQ(out[2 * n + t], in[t ^ 16]) << t;
    EXPECT_EQ(out[3 * n + t], in[t / 8 * 8 + 7 - t % 8]) << t;
    EXPECT_EQ(out[4 * n + t], w == 64 ? in[t ^ 32] : in[t]) << t;
    // Odd lanes are off: an even lane reading an odd one gets 0 (fi:0, bound_ctrl:1).
    const int from = row + nibble(select, lane);
    const unsigned expect = t & 1 ? 0x7777u : from & 1 ? 0u : in[from];
    EXPECT_EQ(out[5 * n + t], expect) << t;
  }
}

TEST_P(EmuDppKernels, Swizzles) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 256;
  std::vector<int> in(n), out(5 * n);
  for (int t = 0; t < n; ++t) in[t] = 3 * t * t + 1;
  ASSERT_EQ(launch("dpp_kernels.hip", "swizzles", 2, 128, device(in), device(out), n), "");
  const int quad[4] = {2, 0, 3, 1};
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(out[0 * n + t], in[t / 4 * 4 + quad[t % 4]]) << t;
    EXPECT_EQ(out[1 * n + t], in[t ^ 1]) << t;
    EXPECT_EQ(out[2 * n + t], in[t ^ 16]) << t;
    EXPECT_EQ(out[3 * n + t], in[t / 8 * 8 + 5]) << t;
    EXPECT_EQ(out[4 * n + t], in[t / 8 * 8 + 7 - t % 8]) << t;
  }
}

// The atomic optimizer's DPP scans: the totals are exact whatever order the waves add in
// (integers; floats that are multiples of 0.25 far below 2^24).
TEST_P(EmuDppKernels, AtomicOptimizerDppScansSumExactly) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 1000;  // 4 blocks of 256: the last wave is partial
  std::vector<int> in(n), total(1, 0), uniform_total(1, 0);
  for (int t = 0; t < n; ++t) in[t] = (t * 37) % 1000 - 300;
  ASSERT_EQ(launch("dpp_kernels.hip", "atomic_sum_int", 4, 256, device(in), device(total), device(uniform_total), n), "");
  long expect = 0;
  for (int t = 0; t < n; ++t)
    if (in[t] % 4 != 1) expect += in[t];
  EXPECT_EQ(total[0], expect);
  EXPECT_EQ(uniform_total[0], 3 * n);

  std::vector<float> fin(n), ftotal(1, 0.0f), funiform(1, 0.0f);
  for (int t = 0; t < n; ++t) fin[t] = static_cast<float>(t % 17) * 0.25f - 2.0f;
  ASSERT_EQ(launch("dpp_kernels.hip", "atomic_sum_float", 4, 256, device(fin), device(ftotal), device(funiform), n), "");
  double fexpect = 0;
  for (int t = 0; t < n; ++t)
    if (t % 3 != 2) fexpect += fin[t];
  EXPECT_EQ(ftotal[0], static_cast<float>(fexpect));
  EXPECT_EQ(funiform[0], 0.5f * n);
}

// atomicAdd's return values: every participating lane gets a distinct old value, and sorted by it
// they chain (each old + its addend is the next old), from 0 to the final total.
TEST_P(EmuDppKernels, AtomicOptimizerReturnsAnExclusiveScan) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 1000;
  std::vector<int> in(n), counter(1, 0), old(n, -7);
  for (int t = 0; t < n; ++t) in[t] = t % 29 + 1;
  ASSERT_EQ(launch("dpp_kernels.hip", "atomic_fetch_add", 4, 256, device(in), device(counter), device(old), n), "");
  std::vector<std::pair<int, int>> taken;  // (old, addend)
  for (int t = 0; t < n; ++t) {
    if (t % 5 == 3) {
      EXPECT_EQ(old[t], -1) << t;
      continue;
    }
    taken.push_back({old[t], in[t]});
  }
  std::sort(taken.begin(), taken.end());
  int next = 0;
  for (const auto& [o, v] : taken) {
    ASSERT_EQ(o, next);
    next += v;
  }
  EXPECT_EQ(counter[0], next);
  // Within a wave the optimizer scans in lane order: a later lane's old value is larger.
  const unsigned w = wave();
  for (int t = 1; t < n; ++t)
    if (t % static_cast<int>(w) != 0 && t % 5 != 3 && (t - 1) % 5 != 3) {
      EXPECT_EQ(old[t], old[t - 1] + in[t - 1]) << t;
    }
}

// clang's v_movrels for a private array read at a uniform index (M0 = the index).
TEST_P(EmuDppKernels, PrivateArrayAtAUniformIndexThroughMovrels) {
  SKIP_OR_PREPARED("dpp_kernels.hip");
  const int n = 256;
  std::vector<int> in(8 * n), out(n);
  for (int i = 0; i < 8 * n; ++i) in[i] = (i * 7919) % 97;
  int* const device_in = device(in);
  int* const device_out = device(out);
  for (int k : {0, 5, 13}) {
    ASSERT_EQ(launch("dpp_kernels.hip", "private_array_uniform_index", 2, 128, device_in, device_out, k), "");
    for (int t = 0; t < n; ++t) EXPECT_EQ(out[t], in[t * 8 + (k & 7)] * 100 + in[t * 8 + ((k + 3) & 7)]) << "k " << k << " thread " << t;
  }
}

// rocPRIM's warp reduce and scans (DPP, ds_swizzle, ds_bpermute on gfx11), logical warps of 32
// and 16 lanes; in wave64 a 32-lane logical warp is one half of the wave.
TEST_P(EmuDppKernels, RocprimWarpReduceAndScans) {
  SKIP_OR_PREPARED("rocprim_kernels.hip");
  const int n = 256;
  std::vector<int> in(n), out(3 * n);
  for (int t = 0; t < n; ++t) in[t] = (t * 13) % 41 - 20;
  int* const device_in = device(in);
  int* const device_out = device(out);
  for (unsigned lanes : {32u, 16u}) {
    std::fill(out.begin(), out.end(), -5);
    ASSERT_EQ(launch("rocprim_kernels.hip", fmt::format("rocprim_warp_{}", lanes), 2, 128, device_in, device_out, n), "");
    for (int start = 0; start < n; start += static_cast<int>(lanes)) {
      int running = 0;
      for (unsigned l = 0; l < lanes; ++l) {
        const int t = start + static_cast<int>(l);
        EXPECT_EQ(out[2 * n + t], 100 + running) << "exclusive, warp of " << lanes << ", thread " << t;
        running += in[t];
        EXPECT_EQ(out[1 * n + t], running) << "inclusive, warp of " << lanes << ", thread " << t;
      }
      EXPECT_EQ(out[start], running) << "reduce, warp of " << lanes << " at " << start;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Waves, EmuDppKernels, testing::waves_and_tiers(), testing::wave_and_tier_name);

}  // namespace
}  // namespace gpuport::emu
