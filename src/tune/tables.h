// The facts `gpuport tune` reads from data/tune/ (compiled in): how each SASS opcode may move and
// what it costs (opcodes.tsv), and which .nv.info attributes hold instruction offsets
// (nvinfo.tsv). Promise: a missing row means "do not move across it" / "do not rewrite", never a
// guess; rows that cannot be read are listed in `errors` (a test keeps the tables clean).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sass/program.h"

namespace gpuport::tune {

enum class OpcodeClass : std::uint8_t { alu, load, store, atomic, fence, nop };
enum class MemorySpace : std::uint8_t { none, global, shared, local, generic, constant, texture };

std::string_view opcode_class_name(OpcodeClass c);
std::string_view memory_space_name(MemorySpace s);

struct TuneOpcodeInfo {
  std::string opcode;
  OpcodeClass cls = OpcodeClass::fence;
  MemorySpace space = MemorySpace::none;
  int latency = 32;
};

struct TuneOpcodeTable {
  std::vector<TuneOpcodeInfo> rows;  // sorted by opcode
  std::vector<std::string> errors;
  const TuneOpcodeInfo* find(std::string_view opcode) const;
};

TuneOpcodeTable parse_tune_opcode_table(std::string_view text);
const TuneOpcodeTable& builtin_tune_opcode_table();

// The table with measured latencies (gpuport latency-bench --write-overrides) in place of the
// guessed ones; opcodes the table lacks are returned in `unknown` and not added (their class
// would be a guess).
TuneOpcodeTable with_latencies(const TuneOpcodeTable& table, const std::vector<std::pair<std::string, int>>& latencies,
                               std::vector<std::string>* unknown = nullptr);

// The class of one instruction: the table's row, made a fence for what the row cannot show
// (clock reads, undecoded words, unknown opcodes).
TuneOpcodeInfo classify_instruction(const sass::SassInstruction& instruction,
                                    const TuneOpcodeTable& table = builtin_tune_opcode_table());

enum class NvInfoKind : std::uint8_t { none, offsets, records16, fixed, refuse };
std::string_view nvinfo_kind_name(NvInfoKind kind);

struct NvInfoTable {
  std::vector<std::pair<std::string, NvInfoKind>> rows;  // sorted by name
  std::vector<std::string> errors;
  NvInfoKind find(std::string_view attribute_name) const;  // refuse when missing
};

NvInfoTable parse_nvinfo_table(std::string_view text);
const NvInfoTable& builtin_nvinfo_table();

}  // namespace gpuport::tune
