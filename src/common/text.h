// Text facts every stage needs: line/column lookup by byte offset, and the checks that tell
// source text from binary data or broken encodings before anything is lexed.
#pragma once

#include <cstdint>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

struct LineColumn {
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, in bytes
};

// Maps byte offsets to line/column in O(log lines). Line breaks are '\n' ('\r\n' counts once).
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  LineColumn locate(std::uint32_t offset) const;
  std::uint32_t line_count() const { return static_cast<std::uint32_t>(starts_.size()); }
  std::uint32_t line_start(std::uint32_t line) const { return starts_.at(line - 1); }

 private:
  std::vector<std::uint32_t> starts_;
};

enum class TextProblem : std::uint8_t { none, nul_byte, invalid_utf8 };

struct TextCheck {
  TextProblem problem = TextProblem::none;
  std::uint32_t offset = 0;  // first offending byte
};

// Source text must be UTF-8 without NUL bytes; anything else is treated as binary or foreign.
TextCheck check_text(std::string_view text);

// The length of the valid UTF-8 sequence that starts at byte `i` of `text`; 0 when the bytes
// there are not one (a stray continuation byte, an overlong form, a surrogate, a cut sequence).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// Whether `text` is valid UTF-8 (NUL bytes are valid; check_text, for source text, rejects them).
bool is_valid_utf8(std::string_view text);

// `text` as valid UTF-8, for JSON and SARIF (whose strings must be Unicode): each byte that is
// not part of a valid sequence becomes the four characters \xNN, as compilers print such bytes
// in file names. Valid text comes back unchanged.
std::string to_valid_utf8(std::string_view text);

// A path as a URI reference (RFC 3986), as SARIF's artifactLocation.uri wants it: every byte
// but the unreserved characters and '/' percent-encoded (spaces, '#', '%', non-UTF-8 bytes);
// an absolute path becomes a file:// URI. Lossless: each path has its own URI.
std::string path_to_uri(std::string_view path);

// The key=value fields of one line of a benchmark's output (`KEY=value KEY="quoted value"`),
// separated by spaces or tabs; words without '=' go to `bare` when it is given.
std::map<std::string, std::string> parse_key_value_fields(std::string_view line, std::vector<std::string>* bare = nullptr);

// `text` as a finite double, all of it; false otherwise.
bool parse_finite_double(const std::string& text, double& value);

}  // namespace gpuport
