#include "tune/measure_stats.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace gpuport::tune {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kHeader = "id\tfile\tstatus\tmedian_us\tmin_us\tmad_us\truns\tdetail";

std::uint32_t word_at(std::string_view bytes, std::uint64_t offset) {
  std::uint32_t w = 0;
  for (std::uint64_t i = 0; i < 4 && offset + i < bytes.size(); ++i)
    w |= std::uint32_t(static_cast<unsigned char>(bytes[offset + i])) << (8 * i);
  return w;
}

bool floats_close(std::uint32_t a_bits, std::uint32_t b_bits, double rtol) {
  if (a_bits == b_bits) return true;
  const double a = std::bit_cast<float>(a_bits), b = std::bit_cast<float>(b_bits);
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(a - b) <= rtol * std::max(std::fabs(a), std::fabs(b));
}

std::string format_number(double v, int decimals) {
  if (!std::isfinite(v)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string one_line(std::string_view text) {
  std::string s(text);
  std::replace_if(
      s.begin(), s.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return s;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  for (;;) {
    const std::size_t tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return fields;
    line.remove_prefix(tab + 1);
  }
}

std::optional<double> parse_time(std::string_view text) {
  if (text == "-") return kNaN;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

}  // namespace

double median(std::vector<double> samples) {
  if (samples.empty()) return kNaN;
  const std::size_t mid = samples.size() / 2;
  std::nth_element(samples.begin(), samples.begin() + mid, samples.end());
  const double upper = samples[mid];
  if (samples.size() % 2 == 1) return upper;
  const double lower = *std::max_element(samples.begin(), samples.begin() + mid);
  return (lower + upper) / 2;
}

double minimum(const std::vector<double>& samples) {
  if (samples.empty()) return kNaN;
  return *std::min_element(samples.begin(), samples.end());
}

double median_absolute_deviation(const std::vector<double>& samples) {
  const double m = median(samples);
  std::vector<double> deviations;
  deviations.reserve(samples.size());
  for (double s : samples) deviations.push_back(std::fabs(s - m));
  return median(std::move(deviations));
}

std::optional<OutputMismatch> compare_outputs(std::string_view expected, std::string_view actual, double rtol) {
  const std::uint64_t common = std::min(expected.size(), actual.size());
  const auto mismatch_at = [&](std::uint64_t offset) {
    return OutputMismatch{.offset = offset,
                          .expected_word = word_at(expected, offset / 4 * 4),
                          .actual_word = word_at(actual, offset / 4 * 4),
                          .size_differs = expected.size() != actual.size()};
  };
  if (rtol > 0) {
    const std::uint64_t whole_words = common / 4 * 4;
    for (std::uint64_t at = 0; at < whole_words; at += 4)
      if (!floats_close(word_at(expected, at), word_at(actual, at), rtol)) return mismatch_at(at);
    for (std::uint64_t at = whole_words; at < common; ++at)
      if (expected[at] != actual[at]) return mismatch_at(at);
  } else {
    const auto [e, a] = std::mismatch(expected.begin(), expected.begin() + common, actual.begin());
    if (e != expected.begin() + common) return mismatch_at(static_cast<std::uint64_t>(e - expected.begin()));
  }
  if (expected.size() != actual.size()) return mismatch_at(common);
  return std::nullopt;
}

std::string describe_mismatch(const OutputMismatch& m) {
  char text[160];
  if (m.size_differs && m.expected_word == m.actual_word) {
    std::snprintf(text, sizeof text, "sizes differ (one ends at offset 0x%llx)",
                  static_cast<unsigned long long>(m.offset));
    return text;
  }
  std::snprintf(text, sizeof text, "offset 0x%llx: expected 0x%08x, got 0x%08x (as floats %.9g vs %.9g)",
                static_cast<unsigned long long>(m.offset), m.expected_word, m.actual_word,
                static_cast<double>(std::bit_cast<float>(m.expected_word)),
                static_cast<double>(std::bit_cast<float>(m.actual_word)));
  return text;
}

std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<std::size_t> round_order(std::size_t count, std::uint64_t round, std::uint64_t seed) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  // A distinct stream per round: the round number is mixed into the seed before the first step.
  std::uint64_t mixed = seed ^ (round * 0xd1b54a32d192ed03ULL);
  std::uint64_t state = splitmix64(mixed);
  for (std::size_t i = count; i > 1; --i) {
    // A uniform j in [0, i): values from the incomplete last block of 2^64 are drawn again, so
    // that no position is favoured.
    const std::uint64_t bound = i;
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t r;
    do r = splitmix64(state);
    while (r >= limit);
    std::swap(order[i - 1], order[static_cast<std::size_t>(r % bound)]);
  }
  return order;
}

std::string write_measurements(const std::vector<Measurement>& rows) {
  std::string out(kHeader);
  out += '\n';
  for (const Measurement& m : rows) {
    for (const std::string& field :
         {one_line(m.id), one_line(m.file), one_line(m.status), format_number(m.median_us, 3),
          format_number(m.min_us, 3), format_number(m.mad_us, 3), std::to_string(m.runs)}) {
      out += field;
      out += '\t';
    }
    out += one_line(m.detail);
    out += '\n';
  }
  return out;
}

Result<std::vector<Measurement>> read_measurements(std::string_view text, const std::string& file) {
  const auto error = [&](std::uint32_t line, const std::string& message) {
    return Diagnostic{.severity = Severity::error,
                      .code = "bad-measurements",
                      .message = message,
                      .location = {.file = file, .line = line, .column = 1}};
  };
  std::vector<Measurement> rows;
  std::uint32_t line_number = 0;
  bool saw_header = false;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!saw_header) {
      if (line != kHeader)
        return error(line_number,
                     "not a measurements.tsv: the first line is not the header '" + std::string(kHeader) + "'");
      saw_header = true;
      continue;
    }
    if (line.empty()) continue;
    const std::vector<std::string_view> f = split_tabs(line);
    if (f.size() != 8) return error(line_number, "expected 8 tab-separated fields, found " + std::to_string(f.size()));
    Measurement m;
    m.id = f[0];
    m.file = f[1];
    m.status = f[2];
    m.detail = f[7];
    if (m.id.empty() || m.status.empty()) return error(line_number, "empty id or status");
    const std::optional<double> med = parse_time(f[3]), min = parse_time(f[4]), mad = parse_time(f[5]);
    if (!med || !min || !mad)
      return error(line_number, "a time is neither a non-negative number nor '-': '" + std::string(f[3]) + "', '" +
                                    std::string(f[4]) + "', '" + std::string(f[5]) + "'");
    m.median_us = *med;
    m.min_us = *min;
    m.mad_us = *mad;
    const auto [end, ec] = std::from_chars(f[6].data(), f[6].data() + f[6].size(), m.runs);
    if (ec != std::errc() || end != f[6].data() + f[6].size() || m.runs < 0)
      return error(line_number, "runs is not a non-negative integer: '" + std::string(f[6]) + "'");
    rows.push_back(std::move(m));
  }
  if (!saw_header) return error(1, "empty file (no header)");
  return rows;
}

double gain_percent(double original_us, double candidate_us) {
  if (!(original_us > 0) || !(candidate_us > 0) || !std::isfinite(original_us) || !std::isfinite(candidate_us))
    return kNaN;
  return (original_us - candidate_us) / original_us * 100.0;
}

std::string format_measurement_table(const std::vector<Measurement>& rows) {
  double original = kNaN;
  for (const Measurement& m : rows)
    if (m.id == "original" && m.status == "ok") original = m.median_us;
  std::vector<std::vector<std::string>> cells = {
      {"id", "file", "status", "median_us", "min_us", "mad_us", "runs", "gain", "detail"}};
  for (const Measurement& m : rows) {
    std::string gain = "-";
    const double g = m.status == "ok" && m.id != "original" ? gain_percent(original, m.median_us) : kNaN;
    if (std::isfinite(g)) {
      char text[32];
      std::snprintf(text, sizeof text, "%+.2f%%", g);
      gain = text;
    }
    cells.push_back({one_line(m.id), one_line(m.file), one_line(m.status), format_number(m.median_us, 3),
                     format_number(m.min_us, 3), format_number(m.mad_us, 3), std::to_string(m.runs), gain,
                     one_line(m.detail)});
  }
  constexpr std::size_t kColumns = 9;
  std::size_t width[kColumns] = {};
  for (const auto& row : cells)
    for (std::size_t c = 0; c < kColumns; ++c) width[c] = std::max(width[c], row[c].size());
  // Text columns are left-aligned, numbers right-aligned; the detail column is not padded.
  constexpr bool kRight[kColumns] = {false, false, false, true, true, true, true, true, false};
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t c = 0; c < kColumns; ++c) {
      const std::string& cell = row[c];
      const std::string pad(c + 1 == kColumns ? 0 : width[c] - cell.size(), ' ');
      if (c > 0) line += "  ";
      line += kRight[c] ? pad + cell : cell + pad;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace gpuport::tune
