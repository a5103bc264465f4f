// libFuzzer target for the SASS parser: any bytes in, no crash, no sanitizer report, and every
// parsed instruction whose operands are all classified prints back and reparses to the same text.
// The parsed functions also go through the CFG and divergence analysis, and ELF input through the
// cubin reader (sections, .nv.info, jump tables against a listing of the same bytes' functions).
// Built with -DGPUPORT_FUZZ=ON and clang (see tests/fuzz/CMakeLists.txt); seed corpus: the
// committed listings under tests/sass/listings.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "sass/cubin.h"
#include "sass/divergence.h"
#include "sass/indirect_branches.h"
#include "sass/parser.h"
#include "sass/printer.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "sass_parser_fuzz: %s\n  first:  '%s'\n  second: '%s'\n", what, a.c_str(), b.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  gpuport::sass::SassParseOptions options;
  options.file_name = "fuzz";
  auto result = gpuport::sass::parse_sass(text, options);
  for (const auto& program : result.programs) {
    for (const auto& function : program.functions) {
      for (const auto& inst : function.instructions) {
        std::string printed = gpuport::sass::print_instruction(inst);
        // A printed instruction whose operands were all classified must parse again and print
        // the same way. (Unclassified text is kept verbatim, and garbage such as empty operand
        // slots need not survive a second trip; nvdisasm never prints it.)
        bool classified = !inst.undecoded;
        for (const auto& op : inst.operands) classified = classified && op.kind != gpuport::sass::OperandKind::unknown;
        if (!classified) continue;
        gpuport::sass::SassInstruction again;
        if (!gpuport::sass::parse_instruction_text(printed, again)) fail("printed instruction does not parse", printed, "");
        if (gpuport::sass::print_instruction(again) != printed)
          fail("instruction round trip differs", printed, gpuport::sass::print_instruction(again));
        for (const auto& op : inst.operands) {
          std::string o = gpuport::sass::print_operand(op);
          std::string o2 = gpuport::sass::print_operand(gpuport::sass::parse_operand(o));
          if (o2 != o) fail("operand round trip differs", o, o2);
        }
      }
    }
  }
  (void)gpuport::sass::print_program(result.programs.empty() ? gpuport::sass::SassProgram{} : result.programs[0]);
  for (const auto& program : result.programs)
    for (const auto& function : program.functions)
      if (function.instructions.size() <= 4096) (void)gpuport::sass::analyze_divergence(function, program.arch);

  if (size >= 4 && text.substr(0, 4) == "\x7f" "ELF") {
    auto cubin = gpuport::sass::read_cubin(text, "fuzz");
    if (cubin.cubin) {
      std::size_t bytes = 0;
      for (const auto& section : cubin.cubin->sections) bytes += gpuport::sass::Cubin::section_bytes(text, section).size();
      (void)bytes;
      // Jump tables for made-up functions: one per kernel, a BRX at each recorded offset.
      gpuport::sass::SassProgram program;
      program.arch = cubin.cubin->arch;
      for (const auto& k : cubin.cubin->kernels) {
        gpuport::sass::SassFunction f;
        f.name = k.name;
        for (const auto& r : k.indirect_branches) {
          gpuport::sass::SassInstruction brx;
          if (!gpuport::sass::parse_instruction_text("BRX R8 -0x10 ;", brx)) std::abort();
          brx.address = r.offset;
          f.instructions.push_back(brx);
        }
        program.functions.push_back(std::move(f));
      }
      (void)gpuport::sass::resolve_indirect_branches(program, *cubin.cubin, text);
    }
  }
  return 0;
}
