#include "sass/printer.h"

#include <fmt/format.h>

namespace gpuport::sass {

namespace {

void append_number(std::string& out, unsigned v) {
  char buf[8];
  int n = 0;
  do {
    buf[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0 && n < 8);
  while (n > 0) out.push_back(buf[--n]);
}

void append_register(std::string& out, OperandKind kind, unsigned index) {
  switch (kind) {
    case OperandKind::reg:
      if (index == 255) { out += "RZ"; return; }
      out += 'R';
      break;
    case OperandKind::uniform_reg:
      if (index == kZeroRegister) { out += "URZ"; return; }
      out += "UR";
      break;
    case OperandKind::predicate:
      if (index == 7) { out += "PT"; return; }
      out += 'P';
      break;
    case OperandKind::uniform_predicate:
      if (index == 7) { out += "UPT"; return; }
      out += "UP";
      break;
    case OperandKind::barrier:
      out += 'B';
      break;
    case OperandKind::scoreboard:
      out += "SB";
      break;
    default:
      return;
  }
  append_number(out, index);
}

}  // namespace

void append_operand(std::string& out, const SassOperand& op) {
  if (op.kind == OperandKind::unknown) {
    out += op.text;
    return;
  }
  if (op.negate) out += '-';
  if (op.logical_not) out += '!';
  if (op.bitwise_not) out += '~';
  if (op.absolute) out += '|';
  switch (op.kind) {
    case OperandKind::reg:
    case OperandKind::uniform_reg:
    case OperandKind::predicate:
    case OperandKind::uniform_predicate:
    case OperandKind::barrier:
    case OperandKind::scoreboard:
      append_register(out, op.kind, op.index);
      break;
    case OperandKind::label:
      if (!op.text.empty() && op.text[0] >= '0' && op.text[0] <= '9') {
        out += op.text;  // absolute target (cuobjdump)
      } else {
        out += "`(";
        out += op.text;
        out += ')';
      }
      break;
    default:
      out += op.text;
      break;
  }
  if (op.absolute) out += '|';
  out += op.suffix;
}

std::string print_operand(const SassOperand& operand) {
  std::string out;
  append_operand(out, operand);
  return out;
}

void append_instruction(std::string& out, const SassInstruction& inst) {
  if (inst.undecoded) return;  // nvdisasm printed no text for it either
  if (inst.guard) {
    out += '@';
    if (inst.guard->negated) out += '!';
    append_register(out, inst.guard->uniform ? OperandKind::uniform_predicate : OperandKind::predicate,
                    inst.guard->index);
    out += ' ';
  }
  out += inst.opcode;
  out += inst.modifiers.dotted();
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    if (i == 0 || inst.operands[i].follows_with_space) out += ' ';
    else out += inst.operands[i - 1].space_before_comma ? " , " : ", ";
    append_operand(out, inst.operands[i]);
  }
  if (!inst.annotation.empty()) {
    out += ' ';
    out += inst.annotation;
    if (inst.terminated) out += ';';
  } else if (inst.terminated) {
    out += inst.tight_terminator ? ";" : " ;";
  }
}

std::string print_instruction(const SassInstruction& instruction) {
  std::string out;
  append_instruction(out, instruction);
  return out;
}

std::string print_program(const SassProgram& program, const SassPrintOptions& options) {
  std::string out;
  if (!program.header_flags.empty()) out += fmt::format("\t.headerflags\t{}\n", program.header_flags);
  for (const auto& f : program.functions) {
    out += '\n';
    if (!f.section.empty()) out += fmt::format("\t.section\t{}\n", f.section);
    else if (!f.name.empty()) out += fmt::format("\t\tFunction : {}\n", f.name);  // cuobjdump -sass listing
    if (f.register_count >= 0) out += fmt::format("\t.sectioninfo\t@\"SHI_REGISTERS={}\"\n", f.register_count);
    if (f.is_entry) out += fmt::format("        .other          {},@\"STO_CUDA_ENTRY STV_DEFAULT\"\n", f.name);
    std::size_t label = 0;
    std::size_t control = 0;
    for (std::size_t i = 0; i < f.instructions.size(); ++i) {
      const auto& inst = f.instructions[i];
      while (options.labels && label < f.labels.size() && f.labels[label].instruction_index <= i)
        out += fmt::format("{}:\n", f.labels[label++].name);
      while (options.encoding && control < f.control_words.size() &&
             f.control_words[control].first < inst.address) {
        out += fmt::format("{:>122}/* 0x{:016x} */\n", "", f.control_words[control++].second);
      }
      // A word pair the disassembler printed no text for (nvdisasm leaves it out, cuobjdump prints
      // only its encoding): shown only with the encodings.
      if (inst.undecoded && !options.encoding) continue;
      std::string text;
      if (inst.dual_issue_begin) text += "{ ";
      append_instruction(text, inst);
      if (inst.dual_issue_end) text += " }";
      if (options.addresses) out += fmt::format("        /*{:04x}*/ ", inst.address);
      out += fmt::format("{:>18}", "");
      out += text;
      if (options.encoding && inst.encoding_words > 0) {
        out += fmt::format("  /* 0x{:016x} */", inst.encoding[0]);
        if (inst.encoding_words > 1) out += fmt::format("\n{:>28}/* 0x{:016x} */", "", inst.encoding[1]);
      }
      out += '\n';
    }
    for (; options.labels && label < f.labels.size(); ++label) out += fmt::format("{}:\n", f.labels[label].name);
  }
  return out;
}

}  // namespace gpuport::sass
