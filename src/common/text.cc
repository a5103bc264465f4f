#include "common/text.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "common/bytes16.h"

namespace gpuport {

LineIndex::LineIndex(std::string_view text) {
  starts_.push_back(0);
  const char* base = text.data();
  const char* p = base;
  const char* end = base + text.size();
  while (p < end) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (nl == nullptr) break;
    p = static_cast<const char*>(nl) + 1;
    starts_.push_back(static_cast<std::uint32_t>(p - base));
  }
}

LineColumn LineIndex::locate(std::uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  auto line = static_cast<std::uint32_t>(it - starts_.begin());
  return {line, offset - starts_[line - 1] + 1};
}

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  if (i >= n) return 0;
  const unsigned char c = s[i];
  if (c < 0x80) return 1;
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > n) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((s[i + k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i + k] & 0x3F);
  }
  const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  if (overlong || surrogate || cp > 0x10FFFF) return 0;
  return len;
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string to_valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size();) {
    if (const std::size_t len = utf8_sequence_length(text, i); len > 0) {
      out.append(text, i, len);
      i += len;
      continue;
    }
    const auto byte = static_cast<unsigned char>(text[i++]);
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 15];
  }
  return out;
}

std::string path_to_uri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = path.starts_with('/') ? "file://" : "";
  for (unsigned char c : path) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                            c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

TextCheck check_text(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    // Fast path over ASCII: sixteen bytes at a time (as signed bytes, one with the high bit
    // set is negative, so `<= 0` finds it and a NUL alike), then eight.
    while (i + 16 <= n && first_set(load16(text.data() + i) <= 0) == 16) i += 16;
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, s + i, 8);
      // A zero byte or a byte with the high bit set stops the fast path.
      const std::uint64_t has_zero = (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
      if ((w & 0x8080808080808080ULL) != 0 || has_zero != 0) break;
      i += 8;
    }
    if (i >= n) break;
    const unsigned char c = s[i];
    if (c == 0) return {TextProblem::nul_byte, static_cast<std::uint32_t>(i)};
    if (c < 0x80) {
      ++i;
      continue;
    }
    const std::size_t len = utf8_sequence_length(text, i);
    if (len == 0) return {TextProblem::invalid_utf8, static_cast<std::uint32_t>(i)};
    i += len;
  }
  return {};
}

std::map<std::string, std::string> parse_key_value_fields(std::string_view line, std::vector<std::string>* bare) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  auto space = [&](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (i < line.size()) {
    while (i < line.size() && space(line[i])) ++i;
    if (i >= line.size()) break;
    const std::size_t key_start = i;
    while (i < line.size() && line[i] != '=' && !space(line[i])) ++i;
    if (i >= line.size() || line[i] != '=') {
      if (bare) bare->emplace_back(line.substr(key_start, i - key_start));
      continue;
    }
    std::string key(line.substr(key_start, i - key_start));
    ++i;
    std::string value;
    if (i < line.size() && line[i] == '"') {
      const std::size_t end = line.find('"', i + 1);
      value = std::string(line.substr(i + 1, end == std::string_view::npos ? std::string_view::npos : end - i - 1));
      i = end == std::string_view::npos ? line.size() : end + 1;
    } else {
      const std::size_t start = i;
      while (i < line.size() && !space(line[i])) ++i;
      value = std::string(line.substr(start, i - start));
    }
    out[key] = value;
  }
  return out;
}

bool parse_finite_double(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(value);
}

}  // namespace gpuport
