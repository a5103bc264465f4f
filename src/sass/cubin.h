// Reads an NVIDIA cubin (64-bit little-endian ELF) without any tool: its sections, symbols, the
// kernels (.text.<name>) and the `.nv.info` / `.nv.info.<kernel>` attribute records (EIATTR_*)
// that carry what the disassembly lacks: parameter offsets and sizes, register counts, stack
// sizes, EXIT offsets, static shared memory. Promise: any bytes in, no crash; bad input (not
// ELF, wrong class or byte order, truncated tables) gives an error diagnostic and no cubin.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"

namespace gpuport::sass {

struct CubinSection {
  std::string name;
  std::uint32_t type = 0;  // SHT_*; SHT_CUDA_INFO is 0x70000000
  std::uint64_t flags = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
  std::uint32_t info = 0;
  std::uint64_t alignment = 0;
  std::uint64_t entry_size = 0;
};

struct CubinSymbol {
  std::string name;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
  std::uint8_t info = 0;   // binding << 4 | type
  std::uint8_t other = 0;  // STO_CUDA_ENTRY (0x10) marks a __global__ kernel
  std::uint16_t section = 0;
};

// One EIATTR record: format byte, attribute id, payload. NVAL records have no payload; BVAL and
// HVAL keep their 1- or 2-byte value as the payload; SVAL records their sized payload.
struct NvInfoAttribute {
  static constexpr std::uint8_t kNval = 1, kBval = 2, kHval = 3, kSval = 4;
  std::uint8_t format = 0;
  std::uint8_t id = 0;
  std::vector<std::uint8_t> payload;
  std::uint32_t offset = 0;  // of the record within its section

  std::string_view name() const;  // "EIATTR_REGCOUNT"; "EIATTR_0x5f" when the id is not known
  // Little-endian 32-bit word i of the payload; 0 past its end.
  std::uint32_t word(std::size_t i) const;
  // HVAL/BVAL value, or the first payload word of an SVAL record.
  std::uint32_t value() const;
};

// EIATTR_KPARAM_INFO: one kernel parameter.
struct KernelParameter {
  std::uint32_t index = 0;
  std::uint16_t ordinal = 0;
  std::uint16_t offset = 0;   // byte offset within the parameter constant bank
  std::uint32_t size = 0;     // bytes
  std::uint32_t log_alignment = 0;
  std::uint32_t space = 0;
  std::uint32_t cbank = 0;
  bool in_cbank = true;       // "Parameter Space: CBANK"
  std::uint32_t flags = 0;    // the raw word the four values above come from
};

// EIATTR_INDIRECT_BRANCH_TARGETS: one BRX/JMX and how many targets its jump table holds. The
// record's own target words are zero in the cubins nvcc writes; the table itself is in the
// function's .nv.constant2 section (see resolve_indirect_branches).
struct IndirectBranchRecord {
  std::uint32_t offset = 0;  // of the BRX/JMX within the function
  std::uint32_t count = 0;   // targets
  std::vector<std::uint32_t> targets;  // as recorded (often all zero)
};

struct CubinKernel {
  std::string name;
  std::string text_section;       // ".text.<name>"
  std::uint64_t code_size = 0;    // bytes of machine code
  bool is_entry = false;          // STO_CUDA_ENTRY
  bool is_local = false;          // STB_LOCAL: internal linkage (a static kernel)
  int register_count = -1;        // EIATTR_REGCOUNT in .nv.info
  std::optional<std::uint32_t> max_stack_size, min_stack_size, frame_size, crs_stack_size;
  std::optional<std::uint32_t> cuda_api_version;
  // EIATTR_PARAM_CBANK: the bank's section symbol, offset and size of the parameter block.
  std::optional<std::uint32_t> param_cbank_symbol;
  std::uint16_t param_cbank_offset = 0, param_cbank_size = 0;
  std::optional<std::uint32_t> cbank_param_size;  // EIATTR_CBANK_PARAM_SIZE
  std::optional<std::uint32_t> max_register_count;  // EIATTR_MAXREG_COUNT (0xff = no limit)
  std::vector<KernelParameter> parameters;          // sorted by ordinal
  std::vector<std::uint32_t> exit_offsets;          // EIATTR_EXIT_INSTR_OFFSETS
  std::vector<IndirectBranchRecord> indirect_branches;  // EIATTR_INDIRECT_BRANCH_TARGETS
  std::optional<std::array<std::uint32_t, 3>> max_threads;  // EIATTR_MAX_THREADS (x, y, z)
  std::optional<std::uint32_t> num_barriers;        // EIATTR_NUM_BARRIERS
  std::uint64_t shared_memory_size = 0;             // size of .nv.shared.<name>
  std::vector<std::uint8_t> sw_workarounds;         // ids of EIATTR_SW*_WAR records
  std::vector<std::uint32_t> sw_war_values;         // EIATTR_SW_WAR payload words
  std::vector<NvInfoAttribute> attributes;          // .nv.info.<name>, in section order
};

struct Cubin {
  int arch = 0;                  // 61, 80, 100 ...
  std::uint32_t elf_flags = 0;
  std::uint8_t abi_version = 0;  // EI_ABIVERSION: 7 for CUDA <= 12 cubins, 8 for CUDA 13
  std::vector<CubinSection> sections;
  std::vector<CubinSymbol> symbols;
  std::vector<NvInfoAttribute> global_attributes;  // .nv.info
  std::vector<CubinKernel> kernels;               // section order

  const CubinKernel* find_kernel(std::string_view name) const;
  const CubinSection* find_section(std::string_view name) const;
  // The bytes of a section within the file the cubin was read from; empty when out of range.
  static std::string_view section_bytes(std::string_view file, const CubinSection& section);
};

struct CubinReadResult {
  std::optional<Cubin> cubin;
  std::vector<Diagnostic> diagnostics;
  bool ok() const { return cubin.has_value() && !has_errors(diagnostics); }
};

CubinReadResult read_cubin(std::string_view bytes, const std::string& file_name = "<input>");

// Decodes one attribute section's records; problems (a record running past the end) become
// diagnostics and stop decoding there.
std::vector<NvInfoAttribute> decode_nv_info(std::string_view bytes, std::vector<Diagnostic>& diagnostics,
                                            const std::string& where);

std::string_view nvinfo_attribute_name(std::uint8_t id);

}  // namespace gpuport::sass
