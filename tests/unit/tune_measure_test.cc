// The GPU half of `gpuport tune` as far as it runs without a GPU: the capture format (and that
// tune/device/capture.cc's own encoder writes it), the harness's statistics, output comparison,
// round order and measurements.tsv, the harness binary's exits without a driver, and that the
// capture source builds into a CUDA program with nvcc 11.8.
#include <dlfcn.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/process.h"
#include "sass/toolchain.h"
#include "tune/capture_format.h"
#include "tune/measure_stats.h"

// The CUDA-free part of the capture source: its encoder and environment parsers.
#define GPUPORT_TUNE_CAPTURE_FORMAT_ONLY
#include "tune/device/capture.cc"

namespace gpuport::tune {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(std::initializer_list<unsigned> values) {
  std::string s;
  for (unsigned v : values) s.push_back(static_cast<char>(v));
  return s;
}

std::string float_bytes(const std::vector<float>& values) {
  std::string s(values.size() * 4, '\0');
  std::memcpy(s.data(), values.data(), s.size());
  return s;
}

std::string u64_bytes(std::uint64_t v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}

Capture sample_capture() {
  Capture c;
  c.kernel = "_Z11sgemm_tiledPKfS0_Pfiii";
  c.grid = {8, 8, 1};
  c.block = {16, 16, 1};
  c.shared_bytes = 65536;
  c.buffers.push_back(
      {.device_address = 0x7f0000000000, .before = float_bytes({1, 2, 3, 4}), .after = float_bytes({1, 2, 3, 4})});
  c.buffers.push_back({.device_address = 0x7f0000100000, .before = float_bytes({0, 0}), .after = float_bytes({5, 6})});
  c.params.push_back({.bytes = u64_bytes(0x7f0000000000), .is_pointer = true, .buffer = 0, .offset = 0});
  c.params.push_back({.bytes = u64_bytes(0x7f0000000008), .is_pointer = true, .buffer = 0, .offset = 8});
  c.params.push_back({.bytes = u64_bytes(0x7f0000100000), .is_pointer = true, .buffer = 1, .offset = 0});
  c.params.push_back({.bytes = bytes_of({4, 0, 0, 0})});
  c.params.push_back({.bytes = bytes_of({1, 2})});
  c.globals.push_back({.name = "_ZL7counter", .before = bytes_of({0, 0, 0, 0}), .after = bytes_of({7, 0, 0, 0})});
  return c;
}

// The byte offset a "bad-capture" message names ("at byte N: ...").
std::size_t reported_offset(const Diagnostic& d) {
  const std::string prefix = "at byte ";
  EXPECT_EQ(d.message.rfind(prefix, 0), 0u) << d.message;
  return std::stoul(d.message.substr(prefix.size()));
}

// --- The capture format -------------------------------------------------------------------

TEST(TuneCaptureFormat, RoundTrip) {
  const Capture c = sample_capture();
  const std::string bytes = write_capture(c);
  EXPECT_EQ(bytes.substr(0, 8), "GPTCAP01");
  Result<Capture> back = read_capture(bytes, "sample.bin");
  ASSERT_TRUE(back.ok()) << back.diagnostics().front().message;
  EXPECT_EQ(*back, c);
  EXPECT_EQ(back->state_bytes(), 16u + 8u + 4u);
  EXPECT_EQ(write_capture(*back), bytes);
}

TEST(TuneCaptureFormat, EmptyCaptureRoundTrips) {
  Capture c;
  c.kernel = "k";
  Result<Capture> back = read_capture(write_capture(c), "empty.bin");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, c);
}

TEST(TuneCaptureFormat, EveryTruncationIsRejectedWithItsPosition) {
  const std::string bytes = write_capture(sample_capture());
  for (std::size_t length = 0; length < bytes.size(); ++length) {
    Result<Capture> r = read_capture(std::string_view(bytes).substr(0, length), "cut.bin");
    ASSERT_FALSE(r.ok()) << "a capture cut to " << length << " bytes was accepted";
    ASSERT_EQ(r.diagnostics().size(), 1u);
    const Diagnostic& d = r.diagnostics().front();
    EXPECT_EQ(d.code, "bad-capture");
    EXPECT_EQ(d.location.file, "cut.bin");
    EXPECT_LE(reported_offset(d), length) << d.message;
    EXPECT_NE(d.message.find("truncated"), std::string::npos) << length << ": " << d.message;
  }
}

TEST(TuneCaptureFormat, RejectsCorruptInput) {
  const std::string good = write_capture(sample_capture());
  const auto message = [](const std::string& bytes) {
    Result<Capture> r = read_capture(bytes, "bad.bin");
    return r.ok() ? std::string("accepted") : r.diagnostics().front().message;
  };
  EXPECT_NE(message("ELF\x7f" + good.substr(4)).find("not a gpuport tune capture"), std::string::npos);
  EXPECT_NE(message("GPTCAP02" + good.substr(8)).find("version '02'"), std::string::npos);
  EXPECT_NE(message(good + "x").find("1 unexpected bytes"), std::string::npos);

  // A parameter count of 2^32-1: rejected at its own offset before anything is reserved.
  Capture c = sample_capture();
  std::string bytes = write_capture(c);
  const std::size_t params_at = 8 + 4 + c.kernel.size() + 24 + 8;
  bytes.replace(params_at, 4, bytes_of({0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(message(bytes).rfind("at byte " + std::to_string(params_at) + ": truncated", 0), 0u) << message(bytes);

  // A blob length of 2^64-1.
  bytes = write_capture(c);
  bytes.replace(params_at + 4, 8, u64_bytes(~0ull));
  EXPECT_NE(message(bytes).find("truncated: param 0 needs 18446744073709551615 bytes"), std::string::npos)
      << message(bytes);

  c = sample_capture();
  c.params[2].buffer = 9;
  EXPECT_NE(message(write_capture(c)).find("param 2 points into buffer 9 of 2"), std::string::npos);
  c = sample_capture();
  c.params[1].offset = 17;
  EXPECT_NE(message(write_capture(c)).find("param 1 points 17 bytes into buffer 0 of 16 bytes"), std::string::npos);
  c = sample_capture();
  c.buffers[1].after += "xx";
  EXPECT_NE(message(write_capture(c)).find("buffer 1 after is 10 bytes, before 8"), std::string::npos);
  c = sample_capture();
  c.params[3].is_pointer = true;  // 4 bytes: cannot be a pointer
  EXPECT_NE(message(write_capture(c)).find("param 3 is a pointer but 4 bytes long"), std::string::npos);
  c = sample_capture();
  c.grid.y = 0;
  EXPECT_NE(message(write_capture(c)).find("grid has a zero dimension"), std::string::npos);
}

TEST(TuneCaptureFormat, SurvivesEveryByteCorrupted) {
  // Not a proof, but every single-byte change of a small capture must parse or fail cleanly.
  const std::string good = write_capture(sample_capture());
  for (std::size_t i = 0; i < good.size(); ++i)
    for (unsigned char value : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string bytes = good;
      bytes[i] = static_cast<char>(value);
      Result<Capture> r = read_capture(bytes, "flip.bin");
      if (!r.ok()) {
        EXPECT_EQ(r.diagnostics().front().code, "bad-capture");
      }
    }
}

// --- The capture source's encoder and parsers (tune/device/capture.cc, format part) --------

TEST(TuneCaptureSource, EncoderWritesWhatTheReaderReads) {
  gpuport_tune_capture::Launch launch;
  launch.kernel = "_Z4axpyfPKfPfi";
  launch.grid[0] = 128;
  launch.block[0] = 256;
  launch.shared_bytes = 1024;
  gpuport_tune_capture::Param a;
  a.bytes = bytes_of({0, 0, 0x80, 0x3f});
  gpuport_tune_capture::Param x;
  x.bytes = u64_bytes(0x500000010);
  x.is_pointer = true;
  x.buffer = 0;
  x.offset = 0x10;
  launch.params = {a, x};
  gpuport_tune_capture::Buffer b;
  b.address = 0x500000000;
  b.before = std::string(64, '\1');
  b.after = std::string(64, '\2');
  launch.buffers = {b};
  gpuport_tune_capture::Global g;
  g.name = "flag";
  g.before = "a";
  g.after = "b";
  launch.globals = {g};

  Result<Capture> c = read_capture(gpuport_tune_capture::encode_capture(launch), "encoded.bin");
  ASSERT_TRUE(c.ok()) << c.diagnostics().front().message;
  EXPECT_EQ(c->kernel, launch.kernel);
  EXPECT_EQ(c->grid, (LaunchDim{128, 1, 1}));
  EXPECT_EQ(c->block, (LaunchDim{256, 1, 1}));
  EXPECT_EQ(c->shared_bytes, 1024u);
  ASSERT_EQ(c->params.size(), 2u);
  EXPECT_FALSE(c->params[0].is_pointer);
  EXPECT_EQ(c->params[0].bytes, a.bytes);
  EXPECT_TRUE(c->params[1].is_pointer);
  EXPECT_EQ(c->params[1].offset, 0x10u);
  ASSERT_EQ(c->buffers.size(), 1u);
  EXPECT_EQ(c->buffers[0].device_address, 0x500000000u);
  EXPECT_EQ(c->buffers[0].after, b.after);
  ASSERT_EQ(c->globals.size(), 1u);
  EXPECT_EQ(c->globals[0].name, "flag");
  EXPECT_EQ(c->globals[0].after, "b");

  // And byte for byte what write_capture makes of the same capture.
  EXPECT_EQ(write_capture(*c), gpuport_tune_capture::encode_capture(launch));
}

TEST(TuneCaptureSource, ParsesItsEnvironment) {
  std::vector<std::uint64_t> sizes;
  std::string error;
  EXPECT_TRUE(gpuport_tune_capture::parse_param_sizes("8,8,8,4,4,4", sizes, error));
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{8, 8, 8, 4, 4, 4}));
  EXPECT_TRUE(gpuport_tune_capture::parse_param_sizes("", sizes, error));
  EXPECT_TRUE(sizes.empty());
  EXPECT_FALSE(gpuport_tune_capture::parse_param_sizes("8,,4", sizes, error));
  EXPECT_FALSE(gpuport_tune_capture::parse_param_sizes("8,-4", sizes, error));
  EXPECT_FALSE(gpuport_tune_capture::parse_param_sizes("0", sizes, error));
  EXPECT_NE(error.find("GPUPORT_TUNE_PARAM_SIZES: '0'"), std::string::npos) << error;

  std::vector<gpuport_tune_capture::GlobalSpec> globals;
  EXPECT_TRUE(gpuport_tune_capture::parse_global_specs("_ZL5table:1024,counter", globals, error));
  ASSERT_EQ(globals.size(), 2u);
  EXPECT_EQ(globals[0].name, "_ZL5table");
  EXPECT_EQ(globals[0].size, 1024u);
  EXPECT_EQ(globals[1].name, "counter");
  EXPECT_EQ(globals[1].size, 0u);
  EXPECT_FALSE(gpuport_tune_capture::parse_global_specs("x:big", globals, error));
  EXPECT_FALSE(gpuport_tune_capture::parse_global_specs(":4", globals, error));
}

// --- Statistics ----------------------------------------------------------------------------

TEST(TuneMeasureStats, MedianMinimumAndDeviation) {
  EXPECT_DOUBLE_EQ(median({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_DOUBLE_EQ(minimum({5, 1.5, 3}), 1.5);
  // |x - 3| = 2, 1, 0, 1, 97 -> median 1.
  EXPECT_DOUBLE_EQ(median_absolute_deviation({1, 2, 3, 4, 100}), 1);
  EXPECT_DOUBLE_EQ(median_absolute_deviation({10, 10, 10}), 0);
  // |x - 2.5| = 1.5, 0.5, 0.5, 1.5 -> 1.
  EXPECT_DOUBLE_EQ(median_absolute_deviation({1, 2, 3, 4}), 1);
  EXPECT_TRUE(std::isnan(median({})));
  EXPECT_TRUE(std::isnan(minimum({})));
  EXPECT_TRUE(std::isnan(median_absolute_deviation({})));
}

TEST(TuneMeasureStats, GainIsRelativeToTheOriginal) {
  EXPECT_DOUBLE_EQ(gain_percent(10, 9), 10);
  EXPECT_DOUBLE_EQ(gain_percent(10, 12.5), -25);
  EXPECT_TRUE(std::isnan(gain_percent(0, 1)));
  EXPECT_TRUE(std::isnan(gain_percent(std::nan(""), 1)));
}

// --- Output comparison ---------------------------------------------------------------------

TEST(TuneMeasureCompare, BitEqualByDefault) {
  EXPECT_FALSE(compare_outputs("", "", 0));
  EXPECT_FALSE(compare_outputs("abcdefgh", "abcdefgh", 0));
  auto m = compare_outputs("abcdefgh", "abcdeXgh", 0);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->offset, 5u);
  EXPECT_FALSE(m->size_differs);
  // Bit-equal means bit-equal: 1.0 and 1.0000001 differ, and so do 0.0 and -0.0.
  EXPECT_TRUE(compare_outputs(float_bytes({1.0f}), float_bytes({std::nextafter(1.0f, 2.0f)}), 0));
  EXPECT_TRUE(compare_outputs(float_bytes({0.0f}), float_bytes({-0.0f}), 0));
  m = compare_outputs("abcd", "abcdef", 0);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->offset, 4u);
  EXPECT_TRUE(m->size_differs);
}

TEST(TuneMeasureCompare, RelativeToleranceOnFloats) {
  const std::string expected = float_bytes({1.0f, -2.0f, 1e30f, 0.0f});
  EXPECT_FALSE(compare_outputs(expected, float_bytes({1.000001f, -2.00001f, 1.000001e30f, -0.0f}), 1e-5));
  auto m = compare_outputs(expected, float_bytes({1.0f, -2.0f, 1.0001e30f, 0.0f}), 1e-5);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->offset, 8u);
  EXPECT_EQ(describe_mismatch(*m).rfind("offset 0x8: expected 0x", 0), 0u) << describe_mismatch(*m);
  // Zero against a tiny value is not relatively close.
  EXPECT_TRUE(compare_outputs(float_bytes({0.0f}), float_bytes({1e-30f}), 1e-5));

  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(compare_outputs(float_bytes({nan}), float_bytes({nan}), 1e-5));  // the same bits
  std::string other_nan = float_bytes({nan});
  other_nan[0] = 1;  // another payload
  EXPECT_TRUE(compare_outputs(float_bytes({nan}), other_nan, 1e-5));
  EXPECT_TRUE(compare_outputs(float_bytes({nan}), float_bytes({1.0f}), 1e-5));
  EXPECT_FALSE(compare_outputs(float_bytes({inf}), float_bytes({inf}), 1e-5));
  EXPECT_TRUE(compare_outputs(float_bytes({inf}), float_bytes({3e38f}), 1e-5));
  EXPECT_TRUE(compare_outputs(float_bytes({inf}), float_bytes({-inf}), 1e-5));

  // A tail shorter than a word is compared bitwise.
  EXPECT_FALSE(compare_outputs(float_bytes({1.0f}) + "ab", float_bytes({1.000001f}) + "ab", 1e-5));
  m = compare_outputs(float_bytes({1.0f}) + "ab", float_bytes({1.0f}) + "aX", 1e-5);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->offset, 5u);
}

// --- Round order ---------------------------------------------------------------------------

TEST(TuneMeasureRoundOrder, IsADeterministicPermutation) {
  for (std::size_t n = 0; n <= 20; ++n)
    for (std::uint64_t round = 0; round < 5; ++round) {
      const std::vector<std::size_t> order = round_order(n, round);
      std::set<std::size_t> seen(order.begin(), order.end());
      ASSERT_EQ(order.size(), n);
      ASSERT_EQ(seen.size(), n);
      if (n > 0) {
        EXPECT_EQ(*seen.rbegin(), n - 1);
      }
      EXPECT_EQ(order, round_order(n, round));
    }
  // Rounds differ, and over enough rounds every entry gets to go first.
  std::set<std::vector<std::size_t>> orders;
  std::set<std::size_t> firsts;
  for (std::uint64_t round = 0; round < 64; ++round) {
    orders.insert(round_order(6, round));
    firsts.insert(round_order(6, round).front());
  }
  EXPECT_GT(orders.size(), 32u);
  EXPECT_EQ(firsts.size(), 6u);
  EXPECT_NE(round_order(10, 0, 1), round_order(10, 0, 2));
}

TEST(TuneMeasureRoundOrder, Splitmix64ReferenceValues) {
  // The first outputs of splitmix64 from state 0, as published with the algorithm.
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
}

// --- measurements.tsv ----------------------------------------------------------------------

std::vector<Measurement> sample_rows() {
  const double nan = std::nan("");
  return {
      {.id = "original",
       .file = "original.cubin",
       .status = "ok",
       .detail = "",
       .median_us = 10.25,
       .min_us = 10,
       .mad_us = 0.125,
       .runs = 21},
      {.id = "m001",
       .file = "cands/m001.cubin",
       .status = "ok",
       .detail = "",
       .median_us = 9.5,
       .min_us = 9.25,
       .mad_us = 0.5,
       .runs = 21},
      {.id = "m002",
       .file = "cands/m002.cubin",
       .status = "wrong-output",
       .detail = "buffer 2 (param 2) offset 0x40: expected 0x3f800000, got 0x0",
       .median_us = nan,
       .min_us = nan,
       .mad_us = nan,
       .runs = 0},
  };
}

TEST(TuneMeasureTsv, RoundTrip) {
  const std::vector<Measurement> rows = sample_rows();
  const std::string text = write_measurements(rows);
  EXPECT_EQ(text.substr(0, text.find('\n')), "id\tfile\tstatus\tmedian_us\tmin_us\tmad_us\truns\tdetail");
  EXPECT_NE(text.find("original\toriginal.cubin\tok\t10.250\t10.000\t0.125\t21\t\n"), std::string::npos) << text;
  EXPECT_NE(text.find("m002\tcands/m002.cubin\twrong-output\t-\t-\t-\t0\tbuffer 2"), std::string::npos) << text;
  Result<std::vector<Measurement>> back = read_measurements(text, "measurements.tsv");
  ASSERT_TRUE(back.ok()) << back.diagnostics().front().message;
  ASSERT_EQ(back->size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Measurement &a = rows[i], &b = (*back)[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.file, b.file);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.detail, b.detail);
    EXPECT_EQ(a.runs, b.runs);
    for (auto [x, y] : {std::pair{a.median_us, b.median_us}, {a.min_us, b.min_us}, {a.mad_us, b.mad_us}}) {
      if (std::isnan(x)) {
        EXPECT_TRUE(std::isnan(y));
      } else {
        EXPECT_DOUBLE_EQ(x, y);
      }
    }
  }
  EXPECT_EQ(write_measurements(*back), text);
}

TEST(TuneMeasureTsv, TextFieldsStayOnOneLine) {
  std::vector<Measurement> rows = sample_rows();
  rows[2].detail = "line one\nline\ttwo";
  Result<std::vector<Measurement>> back = read_measurements(write_measurements(rows), "m.tsv");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ((*back)[2].detail, "line one line two");
}

TEST(TuneMeasureTsv, RejectsMalformedFiles) {
  const auto error = [](const std::string& text) {
    Result<std::vector<Measurement>> r = read_measurements(text, "m.tsv");
    if (r.ok()) return std::string("accepted");
    const Diagnostic& d = r.diagnostics().front();
    EXPECT_EQ(d.code, "bad-measurements");
    EXPECT_EQ(d.location.file, "m.tsv");
    return std::to_string(d.location.line) + ": " + d.message;
  };
  const std::string header = "id\tfile\tstatus\tmedian_us\tmin_us\tmad_us\truns\tdetail\n";
  EXPECT_EQ(error("").rfind("1: empty file", 0), 0u);
  EXPECT_EQ(error("id\tfile\n").rfind("1: not a measurements.tsv", 0), 0u);
  EXPECT_EQ(error(header + "a\tb\tok\t1\t1\t0\t3\t\nb\tc\tok\t1\t1\n")
                .rfind("3: expected 8 tab-separated fields, found 5", 0),
            0u);
  EXPECT_EQ(error(header + "a\tb\tok\tfast\t1\t0\t3\t\n").rfind("2: a time is neither", 0), 0u);
  EXPECT_EQ(error(header + "a\tb\tok\t-1\t1\t0\t3\t\n").rfind("2: a time is neither", 0), 0u);
  EXPECT_EQ(error(header + "a\tb\tok\t1\t1\t0\tmany\t\n").rfind("2: runs is not", 0), 0u);
  EXPECT_EQ(error(header + "\tb\tok\t1\t1\t0\t3\t\n").rfind("2: empty id", 0), 0u);
  EXPECT_EQ(error(header), "accepted");
  EXPECT_EQ(error(header + "a\tb\tok\t1\t1\t0\t3\tx\r\n"), "accepted");  // CRLF line ends
}

TEST(TuneMeasureTable, AlignedWithGain) {
  const std::string table = format_measurement_table(sample_rows());
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < table.size();) {
    const std::size_t end = table.find('\n', start);
    lines.push_back(table.substr(start, end - start));
    start = end + 1;
  }
  ASSERT_EQ(lines.size(), 4u) << table;
  EXPECT_EQ(lines[0].rfind("id        file", 0), 0u) << table;
  // (10.25 - 9.5) / 10.25 = 7.32%
  EXPECT_NE(lines[2].find("+7.32%"), std::string::npos) << table;
  EXPECT_NE(lines[3].find("wrong-output"), std::string::npos);
  EXPECT_NE(lines[3].find("buffer 2 (param 2)"), std::string::npos);
  // The numbers are right-aligned in one column: the median's last digit at the same place.
  EXPECT_EQ(lines[1].find("10.250") + 6, lines[2].find("9.500") + 5) << table;
}

// --- The harness binary without a GPU -------------------------------------------------------

class TempFolder {
 public:
  TempFolder() {
    path_ = fs::temp_directory_path() / ("gpuport-tune-measure-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  fs::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path_ / name, std::ios::binary) << bytes;
    return path_ / name;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

const fs::path kHarness = fs::path(GPUPORT_BINARY_DIR) / "bin" / "gpuport-tune-harness";

ProcessResult run_harness(const std::vector<std::string>& args,
                          std::map<std::string, std::optional<std::string>> environment = {}) {
  std::vector<std::string> argv = {kHarness.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.environment = std::move(environment);
  return run_process(argv, options);
}

bool driver_present() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library) dlclose(library);
  return library != nullptr;
}

// A capture, an original and a candidate that the harness reads before it looks for a driver.
struct HarnessInputs {
  TempFolder dir;
  std::vector<std::string> args;
  HarnessInputs() {
    const fs::path capture = dir.write("capture.bin", write_capture(sample_capture()));
    const fs::path original = dir.write("original.cubin", "not really a cubin: never loaded without a GPU");
    const fs::path candidate = dir.write("m001.cubin", "nor this");
    args = {"--capture",       capture.string(),  "--kernel", sample_capture().kernel,
            "--original",      original.string(), "--out",    (dir.path() / "m.tsv").string(),
            candidate.string()};
  }
};

TEST(TuneHarness, SaysNoCudaDriverAndExits3) {
  ASSERT_TRUE(fs::exists(kHarness)) << kHarness << " is not built (ninja gpuport-tune-harness)";
  HarnessInputs in;
  // Where libcuda.so.1 is absent this is what the plain run says; the override makes it so on
  // machines that have the driver's library too.
  const std::string absent = (in.dir.path() / "absent" / "libcuda.so.1").string();
  const ProcessResult r = run_harness(in.args, {{"GPUPORT_TUNE_LIBCUDA", absent}});
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("no CUDA driver: " + absent + " not found"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(in.dir.path() / "m.tsv"));  // nothing measured, nothing written
}

TEST(TuneHarness, WithoutAGpuExits3) {
  ASSERT_TRUE(fs::exists(kHarness)) << kHarness << " is not built (ninja gpuport-tune-harness)";
  HarnessInputs in;
  const ProcessResult r = run_harness(in.args, {{"GPUPORT_TUNE_LIBCUDA", std::nullopt}});
  // Past the driver check the harness names the device ("tune-harness: NVIDIA H200 (sm_90, ...").
  if (r.exit_code != 3 && r.err.find(" (sm_") != std::string::npos)
    GTEST_SKIP() << "this machine has a CUDA device: the no-GPU exit cannot be tested here";
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  if (!driver_present()) {
    EXPECT_NE(r.err.find("no CUDA driver: libcuda.so.1 not found"), std::string::npos) << r.err;
  } else {
    // The driver's library without a GPU (or its kernel module): cuInit fails.
    EXPECT_NE(r.err.find("cuInit failed: error "), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(in.dir.path() / "m.tsv"));
}

TEST(TuneHarness, BadUsageAndUnreadableFilesExit2NamingTheFile) {
  ASSERT_TRUE(fs::exists(kHarness)) << kHarness << " is not built (ninja gpuport-tune-harness)";
  TempFolder dir;
  const fs::path capture = dir.write("capture.bin", write_capture(sample_capture()));
  const fs::path original = dir.write("original.cubin", "x");
  const std::string kernel = sample_capture().kernel;

  ProcessResult r = run_harness({"--kernel", kernel, "--original", original.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--capture is required"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("usage: tune-harness"), std::string::npos) << r.err;

  r = run_harness(
      {"--capture", capture.string(), "--kernel", kernel, "--original", original.string(), "--repeat", "0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--repeat: '0'"), std::string::npos) << r.err;

  const std::string missing = (dir.path() / "missing.bin").string();
  r = run_harness({"--capture", missing, "--kernel", kernel, "--original", original.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(missing + ": no such file"), std::string::npos) << r.err;

  const std::string missing_candidate = (dir.path() / "m404.cubin").string();
  r = run_harness(
      {"--capture", capture.string(), "--kernel", kernel, "--original", original.string(), missing_candidate});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(missing_candidate + ": no such file"), std::string::npos) << r.err;

  const std::string whole = write_capture(sample_capture());
  const fs::path cut = dir.write("cut.bin", whole.substr(0, 30));
  r = run_harness({"--capture", cut.string(), "--kernel", kernel, "--original", original.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(cut.string() + ": at byte "), std::string::npos) << r.err;

  r = run_harness({"--capture", capture.string(), "--kernel", "_Z5otherv", "--original", original.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("captured kernel " + kernel + ", not _Z5otherv"), std::string::npos) << r.err;

  r = run_harness({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: tune-harness"), std::string::npos);
}

TEST(TuneHarness, NeedsOnlyLibcAtRunTime) {
  // The GPU machine has the driver and libc, not this machine's libfmt or (necessarily) libstdc++.
  ASSERT_TRUE(fs::exists(kHarness)) << kHarness << " is not built (ninja gpuport-tune-harness)";
  const fs::path readelf = find_program("readelf");
  if (readelf.empty()) GTEST_SKIP() << "readelf (binutils) not found";
  const ProcessResult r = run_process({readelf.string(), "-d", kHarness.string()});
  ASSERT_TRUE(r.succeeded()) << r.err;
  for (std::size_t at = r.out.find("(NEEDED)"); at != std::string::npos; at = r.out.find("(NEEDED)", at + 1)) {
    const std::size_t open = r.out.find('[', at), close = r.out.find(']', at);
    const std::string library = r.out.substr(open + 1, close - open - 1);
    const bool allowed = library.starts_with("libc.so") || library.starts_with("libm.so") ||
                         library.starts_with("libdl.so") || library.starts_with("ld-linux") ||
                         library.starts_with("libpthread.so");
    // Sanitizer builds link the sanitizer runtimes and the shared libstdc++ on purpose.
    const bool sanitizer = r.out.find("libasan") != std::string::npos;
    EXPECT_TRUE(allowed || sanitizer) << "the harness needs " << library;
  }
}

// --- The harness end to end, over a fake driver ------------------------------------------------

const fs::path kFakeDriver = fs::path(GPUPORT_BINARY_DIR) / "tests" / "tune-fake-cuda" / "libgpuport_tune_fake_cuda.so";

// What the fake driver's kernel (tests/unit/tune_fake_cuda_driver.cc) does: y[i] += a * x[i],
// counter += 1; the values are exact in floats.
Capture fake_capture() {
  constexpr int n = 256;
  std::vector<float> x(n), y(n), y_after(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = 1.0f + static_cast<float>(i);
    y_after[i] = y[i] + 2.0f * x[i];
  }
  Capture c;
  c.kernel = "_Z4axpyfPKfPfi";
  c.grid = {1, 1, 1};
  c.block = {256, 1, 1};
  c.buffers.push_back({.device_address = 0x7f0000000000, .before = float_bytes(x), .after = float_bytes(x)});
  c.buffers.push_back({.device_address = 0x7f0000100000, .before = float_bytes(y), .after = float_bytes(y_after)});
  c.params.push_back({.bytes = float_bytes({2.0f})});
  c.params.push_back({.bytes = u64_bytes(0x7f0000000000), .is_pointer = true, .buffer = 0, .offset = 0});
  c.params.push_back({.bytes = u64_bytes(0x7f0000100000), .is_pointer = true, .buffer = 1, .offset = 0});
  c.params.push_back({.bytes = bytes_of({n & 0xff, n >> 8, 0, 0})});
  c.globals.push_back({.name = "counter", .before = bytes_of({0, 0, 0, 0}), .after = bytes_of({1, 0, 0, 0})});
  return c;
}

struct FakeRun {
  ProcessResult process;
  std::vector<Measurement> rows;
  std::string log;
};

// Runs the harness over the fake driver with an original and candidates of the given behaviours
// (name -> "FAKECUBIN ..." contents).
FakeRun run_fake(const TempFolder& dir, const Capture& capture, const std::string& original,
                 const std::vector<std::pair<std::string, std::string>>& candidates,
                 std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--capture",  dir.write("capture.bin", write_capture(capture)).string(),
                                   "--kernel",   capture.kernel,
                                   "--original", dir.write("original.cubin", original).string(),
                                   "--repeat",   "5",
                                   "--warmup",   "1",
                                   "--out",      (dir.path() / "m.tsv").string(),
                                   "--log",      (dir.path() / "harness.log").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const auto& [name, contents] : candidates) args.push_back(dir.write(name, contents).string());
  FakeRun run;
  run.process = run_harness(args, {{"GPUPORT_TUNE_LIBCUDA", kFakeDriver.string()}});
  std::ifstream tsv(dir.path() / "m.tsv");
  const std::string text((std::istreambuf_iterator<char>(tsv)), std::istreambuf_iterator<char>());
  if (!text.empty()) {
    Result<std::vector<Measurement>> rows = read_measurements(text, "m.tsv");
    EXPECT_TRUE(rows.ok()) << text;
    if (rows.ok()) run.rows = *rows;
  }
  std::ifstream log(dir.path() / "harness.log");
  run.log.assign(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>());
  return run;
}

const Measurement* row(const FakeRun& run, const std::string& id) {
  for (const Measurement& m : run.rows)
    if (m.id == id) return &m;
  ADD_FAILURE() << "no row " << id;
  static const Measurement none;
  return &none;
}

std::string fake_cubin(const std::string& behaviour, const std::string& kernel = "_Z4axpyfPKfPfi") {
  return "FAKECUBIN " + kernel + " " + behaviour + "\n";
}

TEST(TuneHarnessFakeDriver, ValidatesTimesAndReportsEveryCandidate) {
  ASSERT_TRUE(fs::exists(kHarness)) << kHarness << " is not built (ninja gpuport-tune-harness)";
  ASSERT_TRUE(fs::exists(kFakeDriver)) << kFakeDriver << " is not built (ninja gpuport_tune_fake_cuda)";
  TempFolder dir;
  const FakeRun run = run_fake(dir, fake_capture(), fake_cubin("good"),
                               {{"same.cubin", fake_cubin("good")},
                                {"slow.cubin", fake_cubin("slow")},
                                {"wrong.cubin", fake_cubin("wrong")},
                                {"fault.cubin", fake_cubin("fault")},
                                {"crash.cubin", fake_cubin("crash")},
                                {"hang.cubin", fake_cubin("hang")},
                                {"junk.cubin",
                                 "\x7f"
                                 "ELF not a cubin"},
                                {"other.cubin", fake_cubin("good", "_Z5otherv")}},
                               {"--child-timeout", "3"});
  EXPECT_EQ(run.process.exit_code, 0) << run.process.out << run.process.err << run.log;
  ASSERT_EQ(run.rows.size(), 9u) << run.process.out;
  EXPECT_EQ(run.rows[0].id, "original");
  EXPECT_EQ(run.rows[1].id, "same");  // command-line order
  EXPECT_EQ(run.rows[8].id, "other");

  const Measurement* original = row(run, "original");
  EXPECT_EQ(original->status, "ok");
  EXPECT_EQ(original->detail, "");
  EXPECT_EQ(original->runs, 5);
  EXPECT_GT(original->median_us, 50);  // the fake kernel burns 100 us
  EXPECT_LE(original->min_us, original->median_us);
  EXPECT_EQ(row(run, "same")->status, "ok");
  EXPECT_EQ(row(run, "same")->runs, 5);
  EXPECT_EQ(row(run, "slow")->status, "ok");
  // 400 us against 100 us; the minimum is what a busy machine disturbs least.
  EXPECT_GT(row(run, "slow")->min_us, original->min_us + 150);
  EXPECT_GT(row(run, "slow")->median_us, original->median_us);

  EXPECT_EQ(row(run, "wrong")->status, "wrong-output");
  EXPECT_EQ(row(run, "wrong")->detail.rfind("buffer 1 (param 2) offset 0x2: expected 0x3f800000, got 0x40000000", 0),
            0u)
      << row(run, "wrong")->detail;
  EXPECT_EQ(row(run, "fault")->status, "fault");
  EXPECT_NE(row(run, "fault")->detail.find("error 700: an illegal memory access was encountered"), std::string::npos)
      << row(run, "fault")->detail;
  EXPECT_EQ(row(run, "crash")->status, "fault");
  EXPECT_NE(row(run, "crash")->detail.find("killed by signal 6"), std::string::npos) << row(run, "crash")->detail;
  EXPECT_EQ(row(run, "hang")->status, "fault");
  EXPECT_EQ(row(run, "hang")->detail, "timed out after 3 s");
  EXPECT_EQ(row(run, "junk")->status, "load-failed");
  EXPECT_NE(row(run, "junk")->detail.find("cuModuleLoadData: error 200"), std::string::npos)
      << row(run, "junk")->detail;
  EXPECT_EQ(row(run, "other")->status, "load-failed");
  EXPECT_NE(row(run, "other")->detail.find("cuModuleGetFunction(_Z4axpyfPKfPfi): error 500"), std::string::npos);
  for (const char* id : {"wrong", "fault", "crash", "hang", "junk", "other"}) {
    EXPECT_EQ(row(run, id)->runs, 0) << id;
    EXPECT_TRUE(std::isnan(row(run, id)->median_us)) << id;
  }

  // The table comes last on stdout, with a gain for each ok candidate.
  const std::string& out = run.process.out;
  EXPECT_EQ(out.rfind("id ", 0), 0u) << out;
  EXPECT_NE(out.find("%"), std::string::npos) << out;
  // The log has the progress and every child's output.
  EXPECT_NE(run.log.find("tune-harness: Fake GPU (sm_90"), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("--- crash ---"), std::string::npos) << run.log;
  EXPECT_NE(run.log.find("GPUPORT_TUNE_RESULT\twrong-output"), std::string::npos) << run.log;
}

TEST(TuneHarnessFakeDriver, ReplayMismatchStopsWithExit4) {
  ASSERT_TRUE(fs::exists(kFakeDriver)) << kFakeDriver << " is not built (ninja gpuport_tune_fake_cuda)";
  TempFolder dir;
  Capture capture = fake_capture();
  capture.buffers[1].after[4 * 7] ^= 1;  // the program's own run left y[7] otherwise
  const FakeRun run = run_fake(dir, capture, fake_cubin("good"), {{"m001.cubin", fake_cubin("good")}});
  EXPECT_EQ(run.process.exit_code, 4) << run.process.err;
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[0].status, "replay-mismatch");
  EXPECT_NE(run.rows[0].detail.find("buffer 1 (param 2) offset 0x1c"), std::string::npos) << run.rows[0].detail;
  EXPECT_EQ(run.rows[1].status, "skipped");
  EXPECT_NE(run.process.err.find("replay-mismatch"), std::string::npos);
}

TEST(TuneHarnessFakeDriver, AMissingGlobalIsAReplayFailure) {
  ASSERT_TRUE(fs::exists(kFakeDriver)) << kFakeDriver << " is not built (ninja gpuport_tune_fake_cuda)";
  TempFolder dir;
  Capture capture = fake_capture();
  capture.globals[0].name = "elsewhere";
  const FakeRun run = run_fake(dir, capture, fake_cubin("good"), {});
  EXPECT_EQ(run.process.exit_code, 4) << run.process.err;
  ASSERT_EQ(run.rows.size(), 1u);
  EXPECT_NE(run.rows[0].detail.find("cuModuleGetGlobal(elsewhere)"), std::string::npos) << run.rows[0].detail;
}

TEST(TuneHarnessFakeDriver, NondeterministicOriginalSwitchesToATolerance) {
  ASSERT_TRUE(fs::exists(kFakeDriver)) << kFakeDriver << " is not built (ninja gpuport_tune_fake_cuda)";
  TempFolder dir;
  const FakeRun run = run_fake(dir, fake_capture(), fake_cubin("noisy"),
                               {{"exact.cubin", fake_cubin("good")}, {"wrong.cubin", fake_cubin("wrong")}});
  EXPECT_EQ(run.process.exit_code, 0) << run.process.err << run.log;
  ASSERT_EQ(run.rows.size(), 3u);
  EXPECT_EQ(run.rows[0].status, "ok");
  EXPECT_NE(run.rows[0].detail.find("nondeterministic"), std::string::npos) << run.rows[0].detail;
  EXPECT_NE(run.rows[0].detail.find("rtol 1e-05"), std::string::npos) << run.rows[0].detail;
  EXPECT_EQ(run.rows[1].status, "ok") << run.rows[1].detail;
  EXPECT_EQ(run.rows[2].status, "wrong-output");
}

TEST(TuneHarnessFakeDriver, ExplicitToleranceAcceptsCloseResults) {
  ASSERT_TRUE(fs::exists(kFakeDriver)) << kFakeDriver << " is not built (ninja gpuport_tune_fake_cuda)";
  TempFolder dir;
  // Bit-exact by default: the noisy candidate is wrong against a deterministic original ...
  FakeRun run = run_fake(dir, fake_capture(), fake_cubin("good"), {{"noisy.cubin", fake_cubin("noisy")}});
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[1].status, "wrong-output");
  // ... and ok within --rtol.
  run = run_fake(dir, fake_capture(), fake_cubin("good"), {{"noisy.cubin", fake_cubin("noisy")}}, {"--rtol", "1e-4"});
  ASSERT_EQ(run.rows.size(), 2u);
  EXPECT_EQ(run.rows[1].status, "ok") << run.rows[1].detail;
}

// --- The capture source in a CUDA program ---------------------------------------------------

TEST(TuneCaptureSource, CompilesIntoACudaProgramWithNvcc11) {
  using namespace sass;
  const Toolchain tc = detect_toolchain(ToolchainId::cuda11);
  if (auto why = tc.unavailable(Tool::nvcc)) GTEST_SKIP() << "nvcc 11.8 unavailable: " << *why;
  TempFolder dir;
  const fs::path program = dir.write("axpy.cu", R"(#include <cstdio>
__device__ int launches;
__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
  if (i == 0) ++launches;
}
int main() {
  const int n = 1000;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  axpy<<<(n + 255) / 256, 256>>>(2.0f, x, y, n);
  std::printf("%s\n", cudaDeviceSynchronize() == cudaSuccess ? "PASS" : "FAIL");
}
)");
  const fs::path capture_source = fs::path(GPUPORT_SOURCE_DIR) / "src" / "tune" / "device" / "capture.cc";
  const fs::path executable = dir.path() / "axpy";
  const ToolRun r = build_executable(
      tc, program, executable,
      {capture_source.string(), "-arch=sm_90", "-Xcompiler", "-Wall,-Wextra,-Werror,-Wno-unused-command-line-argument",
       "-Xlinker", "--wrap=cudaLaunchKernel", "-Xlinker", "--export-dynamic", "-ldl"});
  ASSERT_TRUE(r.ok) << r.message;
  const fs::path nm = find_program("nm");
  if (nm.empty()) GTEST_SKIP() << "nm (binutils) not found";
  const ProcessResult all = run_process({nm.string(), executable.string()});
  ASSERT_TRUE(all.succeeded()) << all.err;
  EXPECT_NE(all.out.find(" T __wrap_cudaLaunchKernel"), std::string::npos);
  // --export-dynamic: the kernel's host stub is in the dynamic symbol table, where dladdr finds
  // its mangled name. (The global's host shadow is not: nvcc 11.8 makes it a local symbol,
  // _ZL8launches, which is why capture.cc looks globals up in the kernel's module instead.)
  const ProcessResult dynamic = run_process({nm.string(), "-D", "--defined-only", executable.string()});
  ASSERT_TRUE(dynamic.succeeded()) << dynamic.err;
  EXPECT_NE(dynamic.out.find(" _Z4axpyfPKfPfi\n"), std::string::npos) << dynamic.out;
  EXPECT_EQ(dynamic.out.find("launches"), std::string::npos) << dynamic.out;
  EXPECT_NE(all.out.find(" _ZL8launches\n"), std::string::npos);
}

}  // namespace
}  // namespace gpuport::tune
