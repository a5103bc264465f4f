// Writes a candidate order into a cubin: the kernel's 128-bit instruction words are permuted in
// place inside its .text section (control fields travel with their instruction), every
// instruction offset in .nv.info.<kernel> that data/tune/nvinfo.tsv marks as such is mapped to
// where its instruction went, and relocations against the text section follow their instruction.
// Operand reuse flags are cleared on an instruction whose successor changed (they name the next
// instruction's operand slots; clearing one only costs a register-file read), and stall counts
// are written where the candidate raises them. Everything else in the file is copied byte for
// byte; tune/proof.h checks every written word against nvdisasm's reading of it.
// Promise: the output has the input's size and layout; a kernel whose listing does not match
// the cubin's bytes, or whose .nv.info holds offsets in a layout not known here, is refused with
// a diagnostic and no bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"
#include "sass/program.h"
#include "tune/schedule.h"

namespace gpuport::tune {

struct RewriteResult {
  std::string bytes;  // the whole new cubin
  std::vector<Diagnostic> diagnostics;
  std::size_t moved = 0;           // instructions not in their original slot
  std::size_t reuse_cleared = 0;   // instructions whose reuse flags were cleared
  std::size_t stalls_written = 0;  // instructions whose stall field was changed
  std::size_t nvinfo_offsets = 0;  // offsets rewritten in .nv.info.<kernel>
  std::size_t relocations = 0;     // relocation entries moved
  bool ok() const { return !has_errors(diagnostics) && !bytes.empty(); }
};

// `function` is the kernel's listing from nvdisasm -hex of `cubin` (its encodings are checked
// against the section's bytes); `order` as in schedule.h (it is not re-checked here: callers
// pass orders check_order accepted).
// `stalls` (by original instruction, empty: unchanged) are written into the stall field of
// each instruction whose stall they change.
RewriteResult rewrite_cubin(std::string_view cubin, const std::string& file, const sass::SassFunction& function,
                            const Order& order, const StallPlan& stalls = {},
                            const NvInfoTable& table = builtin_nvinfo_table());

// Bits 122..125 of a Volta+ instruction (the reuse flags), in its high 64-bit word.
inline constexpr std::uint64_t kReuseMask = 0xfULL << 58;
// Bits 105..108: the stall count.
inline constexpr int kStallShift = 41;
inline constexpr std::uint64_t kStallMask = 0xfULL << kStallShift;

}  // namespace gpuport::tune
