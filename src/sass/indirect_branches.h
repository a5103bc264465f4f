// Targets of indirect branches (BRX, JMX) from the cubin a listing was made from.
//
// nvcc compiles a dense switch into a jump table: `LDC Rn, c[0x2][Rk+off]` loads an entry of the
// function's .nv.constant2.<function> section and `BRX Rn imm` jumps to entry + (address of the
// next instruction) + imm. EIATTR_INDIRECT_BRANCH_TARGETS in .nv.info.<function> names each BRX
// and its number of entries (the record's target words themselves are left zero). nvdisasm 13
// prints the targets as labels; nvdisasm 11.8 prints only the section, so without this the CFG of
// a CUDA 11.8 listing has no edges out of a BRX.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sass/cubin.h"
#include "sass/program.h"

namespace gpuport::sass {

// Fills SassFunction::indirect_targets for every function of `program` that the cubin describes.
// `file` is the cubin's bytes (read_cubin's input). Returns one line per branch it could not
// resolve (no table, a table shorter than the record says, no defining LDC).
std::vector<std::string> resolve_indirect_branches(SassProgram& program, const Cubin& cubin, std::string_view file);

}  // namespace gpuport::sass
