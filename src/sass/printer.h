// Prints the SASS model back as nvdisasm text. print_instruction gives nvdisasm's instruction
// text exactly (guard, opcode, modifiers, operands, annotation, the " ;"), with single spaces
// where nvdisasm pads to columns; print_program lays out a whole listing in nvdisasm's style.
#pragma once

#include <string>

#include "sass/program.h"

namespace gpuport::sass {

std::string print_operand(const SassOperand& operand);
void append_operand(std::string& out, const SassOperand& operand);

std::string print_instruction(const SassInstruction& instruction);
void append_instruction(std::string& out, const SassInstruction& instruction);

struct SassPrintOptions {
  bool addresses = true;   // the /*0040*/ column
  bool encoding = false;   // the /* 0x... */ words (and Maxwell/Pascal control words)
  bool labels = true;
};

std::string print_program(const SassProgram& program, const SassPrintOptions& options = {});

}  // namespace gpuport::sass
