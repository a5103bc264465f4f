// Parses disassembler text into the SASS model: nvdisasm listings (default, -c, -hex) and
// cuobjdump -sass output, for Maxwell/Pascal and Volta+ encodings. Scans with string_view
// (no regex, few allocations) because listings of big binaries run to millions of lines.
// Promise: never throws or crashes on any input; every line it cannot read becomes a
// diagnostic with file:line:col, and parsing goes on with the next line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"
#include "sass/program.h"

namespace gpuport::sass {

struct SassParseOptions {
  std::string file_name = "<input>";  // for diagnostics
  int arch = 0;                       // forces the arch when the listing does not say (61, 80...)
  std::size_t max_diagnostics = 200;  // further problems are counted in one last note
};

struct SassParseResult {
  // One program per arch: nvdisasm prints one; cuobjdump one per "code for sm_XX" block.
  std::vector<SassProgram> programs;
  std::vector<Diagnostic> diagnostics;

  bool ok() const { return !has_errors(diagnostics); }
};

SassParseResult parse_sass(std::string_view text, const SassParseOptions& options = {});

// One operand as nvdisasm prints it ("-|R2|.reuse", "c[0x0][0x160]", "`(.L_x_3)"). Never fails:
// text it cannot classify becomes an `unknown` operand.
SassOperand parse_operand(std::string_view text);

// One instruction's text, from the guard to the terminating " ;" ("@!P0 BRA `(.L_x_1) ;").
// Returns false (and leaves `out` partly filled) when there is no opcode.
bool parse_instruction_text(std::string_view text, SassInstruction& out);

}  // namespace gpuport::sass
