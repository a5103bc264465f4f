// The proof that a rewritten cubin is the original program reordered, from the disassembler's
// view of the new bytes rather than from the order that made them: the new listing is matched
// to the old one block by block (same labels at the same addresses, the same multiset of
// instructions per block, control fields included, reuse flags aside), the order is recovered
// from it, and then
//   - per block and register, the definitions come in the same order with the same reads between
//     them; per block and scoreboard, its setters and waiters come in the same order;
//   - the recovered order passes check_order (dependences, memory, fences, issue distances)
//     with the stalls as decoded, and each decoded stall is the one the candidate planned;
//   - each instruction-offset list of .nv.info (read from `cuobjdump -elf` of both cubins) names
//     the same instructions as before.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sass/program.h"
#include "tune/schedule.h"

namespace gpuport::tune {

// An instruction as the proof compares it: its text without .reuse flags, then its control
// fields (stall, yield, scoreboards, wait mask) without the reuse bits; the stall left out when
// `with_stall` is false (a candidate that raises stalls).
std::string normalized_instruction(const sass::SassInstruction& instruction, bool with_stall = true);

struct ReorderProof {
  std::vector<std::string> problems;  // empty: proved
  Order recovered;                    // order[slot] = original index, from the new listing
  std::size_t blocks = 0, moved = 0;
  bool proved() const { return problems.empty(); }
};

// `schedule` is the analysis of `original` (analyse_schedule). With `stalls` (the plan the
// cubin was written with), every instruction's stall as nvdisasm decodes it must be the planned
// one, never below the compiled one, and the distances must hold with the decoded stalls.
ReorderProof prove_reordering(const KernelSchedule& schedule, const sass::SassFunction& rewritten,
                              const StallPlan& stalls = {});

// The instruction-offset attributes of `.nv.info.<kernel>` as cuobjdump -elf prints them
// ("Attribute: EIATTR_EXIT_INSTR_OFFSETS" then "Value: 0x2490 0x24a0").
std::map<std::string, std::vector<std::uint32_t>> offset_lists_from_cuobjdump(std::string_view elf_text,
                                                                                const std::string& kernel);

// Every list of the original names, through `recovered`, the offsets of the rewritten one, and
// each offset still points at the same instruction text. `names`: the attributes to check.
std::vector<std::string> check_offset_lists(const std::map<std::string, std::vector<std::uint32_t>>& original,
                                            const std::map<std::string, std::vector<std::uint32_t>>& rewritten,
                                            const sass::SassFunction& original_function,
                                            const sass::SassFunction& rewritten_function, const Order& recovered);

}  // namespace gpuport::tune
