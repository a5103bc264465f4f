#include "sass/program.h"

#include <algorithm>

namespace gpuport::sass {

int parse_arch(std::string_view text) {
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
