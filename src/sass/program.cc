#include "sass/program.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace gpuport::sass {

int parse_arch_prefix(std::string_view text) {
  if (text.starts_with("sm_")) text.remove_prefix(3);
  else if (text.starts_with("SM")) text.remove_prefix(2);
  else return 0;
  int arch = 0;
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9' && digits < 4)
    arch = arch * 10 + (text[digits++] - '0');
  if (digits == 0) return 0;
  // Suffixes such as sm_90a / sm_100f name the same encoding.
  return arch;
}

int parse_arch(std::string_view text) {
  const std::size_t prefix = text.starts_with("sm_") ? 3 : text.starts_with("SM") ? 2 : 0;
  if (prefix == 0) return 0;
  std::string_view rest = text.substr(prefix);
  std::size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  // Two or three digits, then at most one of the suffixes NVIDIA uses (sm_90a, sm_100f).
  if (digits < 2 || digits > 3 || rest[0] == '0') return 0;
  const std::string_view suffix = rest.substr(digits);
  if (!suffix.empty() && suffix != "a" && suffix != "f") return 0;
  return parse_arch_prefix(text);
}

std::optional<std::vector<int>> parse_arch_list(std::string_view text, std::string& problem) {
  std::vector<int> archs;
  while (true) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    const int arch = parse_arch(item);
    if (arch == 0) {
      problem = item.empty() ? "an empty item in the list" : "'" + std::string(item) + "' is not an architecture (sm_80, sm_90a, ...)";
      return std::nullopt;
    }
    if (std::find(archs.begin(), archs.end(), arch) == archs.end()) archs.push_back(arch);
    if (comma == std::string_view::npos) return archs;
    text.remove_prefix(comma + 1);
  }
}

EncodingFamily encoding_family(int arch) {
  if (arch <= 0) return EncodingFamily::unknown;
  return arch < 70 ? EncodingFamily::maxwell : EncodingFamily::volta;
}

std::string_view operand_kind_name(OperandKind kind) {
  switch (kind) {
    case OperandKind::reg: return "register";
    case OperandKind::uniform_reg: return "uniform-register";
    case OperandKind::predicate: return "predicate";
    case OperandKind::uniform_predicate: return "uniform-predicate";
    case OperandKind::constant: return "constant";
    case OperandKind::immediate: return "immediate";
    case OperandKind::memory: return "memory";
    case OperandKind::special_reg: return "special-register";
    case OperandKind::label: return "label";
    case OperandKind::barrier: return "barrier";
    case OperandKind::scoreboard: return "scoreboard";
    case OperandKind::unknown: return "unknown";
  }
  return "unknown";
}

bool SassOperand::has_suffix(std::string_view s) const {
  std::string_view rest = suffix;
  while (!rest.empty()) {
    std::size_t next = rest.find('.', 1);
    std::string_view piece = rest.substr(0, next);
    if (piece == s) return true;
    if (next == std::string_view::npos) break;
    rest = rest.substr(next);
  }
  return false;
}

bool SassInstruction::has_modifier(std::string_view modifier) const {
  for (std::string_view m : modifiers)
    if (m == modifier) return true;
  return false;
}

std::size_t SassFunction::find_instruction(std::uint64_t address) const {
  auto it = std::lower_bound(instructions.begin(), instructions.end(), address,
                             [](const SassInstruction& i, std::uint64_t a) { return i.address < a; });
  if (it == instructions.end() || it->address != address) return npos;
  return static_cast<std::size_t>(it - instructions.begin());
}

const SassFunction* SassProgram::find_function(std::string_view name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

std::size_t SassProgram::instruction_count() const {
  std::size_t n = 0;
  for (const auto& f : functions) n += f.instructions.size();
  return n;
}

}  // namespace gpuport::sass
