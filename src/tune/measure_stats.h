// What the measurement harness (tune/device/harness.cc) decides and reports, kept free of CUDA so
// it is tested here: robust statistics over timing samples, the output comparison that says
// whether a candidate computed what the original did, the deterministic visiting order of the
// timing rounds, and measurements.tsv, the harness's result that `gpuport tune --measure` reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"

namespace gpuport::tune {

// NaN for an empty sample. The median of an even count is the mean of the two middle values;
// the median absolute deviation is the median of |x - median|.
double median(std::vector<double> samples);
double minimum(const std::vector<double>& samples);
double median_absolute_deviation(const std::vector<double>& samples);

// Where two device states first differ. `expected_word`/`actual_word` are the little-endian
// 4-byte words that hold `offset` (aligned down to 4; bytes past an end read as 0).
struct OutputMismatch {
  std::uint64_t offset = 0;
  std::uint32_t expected_word = 0, actual_word = 0;
  bool size_differs = false;  // the two states have different lengths; offset = the shorter one
};

// rtol == 0: bit-equal, offset = the first differing byte. rtol > 0: 4-byte words are compared
// as 32-bit floats, equal when bit-equal or |a - b| <= rtol * max(|a|, |b|); a NaN matches only
// the same NaN bits, an infinity only itself; a tail shorter than a word is compared bitwise.
std::optional<OutputMismatch> compare_outputs(std::string_view expected, std::string_view actual, double rtol);
// "offset 0x40: expected 0x3f800000, got 0x3f800001 (1 vs 1.0000001)" and the like.
std::string describe_mismatch(const OutputMismatch& mismatch);

// The order in which timing round `round` visits `count` entries: a permutation of 0..count-1,
// shuffled (Fisher-Yates) with splitmix64 seeded from `seed` and `round`, so the same inputs
// give the same order on any machine and no entry always runs after the same neighbour.
std::vector<std::size_t> round_order(std::size_t count, std::uint64_t round, std::uint64_t seed = 0x6770707475756e65);

// The splitmix64 step: advances `state` and returns the next 64-bit value.
std::uint64_t splitmix64(std::uint64_t& state);

// One row of measurements.tsv. Statuses: ok, load-failed, fault, wrong-output, replay-mismatch,
// skipped. Times are NaN (written "-") where there is no measurement.
struct Measurement {
  std::string id, file, status, detail;
  double median_us = 0, min_us = 0, mad_us = 0;
  int runs = 0;
};

// Header `id file status median_us min_us mad_us runs detail` (tab-separated), then one row
// each; times with 3 decimals. Tabs and newlines in the text fields become spaces.
std::string write_measurements(const std::vector<Measurement>& rows);
// Parses what write_measurements makes; `file` names it in diagnostics (code "bad-measurements",
// with the line number).
Result<std::vector<Measurement>> read_measurements(std::string_view text, const std::string& file);

// How much faster `candidate_us` is than `original_us`, in percent of the original (positive:
// faster). NaN when either is not a positive number.
double gain_percent(double original_us, double candidate_us);

// The harness's closing table: one aligned line per row with the gain of each ok candidate
// against the row with id "original".
std::string format_measurement_table(const std::vector<Measurement>& rows);

}  // namespace gpuport::tune
