// Helpers shared by the SASS tests: the committed listings and the instruction text of a
// listing line as nvdisasm printed it (padding collapsed to single spaces).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gpuport::sass::testing {

inline std::filesystem::path listings_root() {
  return std::filesystem::path(GPUPORT_SOURCE_DIR) / "tests" / "sass" / "listings";
}

inline std::vector<std::filesystem::path> all_listings() {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  if (!std::filesystem::exists(listings_root(), ec)) return out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(listings_root()))
    if (e.is_regular_file() && e.path().extension() == ".sass") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

// "        /*0058*/               @P0 EXIT ;      /* 0xe30000000000000f */" -> "@P0 EXIT ;"
inline std::string instruction_text_of_line(std::string line) {
  auto trim = [](std::string& s) {
    s.erase(0, s.find_first_not_of(" \t\r"));
    s.erase(s.find_last_not_of(" \t\r") + 1);
  };
  trim(line);
  std::size_t addr_end = line.find("*/");
  if (addr_end != std::string::npos) line = line.substr(addr_end + 2);
  trim(line);
  if (!line.empty() && line[0] == '{') line = line.substr(1);
  std::size_t word = line.rfind("/* 0x");
  if (word != std::string::npos) line = line.substr(0, word);
  trim(line);
  if (!line.empty() && line.back() == '}') line.pop_back();
  trim(line);
  std::string out;
  for (char c : line) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() == ' ') continue;
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace gpuport::sass::testing
