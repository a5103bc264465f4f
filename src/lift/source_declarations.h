// What a program's HIP source says that its SASS text does not: the __constant__ variables
// (constant bank 3: names, sizes, initial values) and the kernels' parameter layouts, structs
// passed by value included. `gpuport asm prog.sass --source prog.hip.cu` reads them from the
// HIP translation of the program (the same host code the translated device code is linked with):
// clang-19 compiles it for gfx1100 to LLVM IR, device code only, and the module's globals and
// kernel signatures are read back.
//
// Bank 3's layout is nvcc's: the __constant__ variables in the order of their definitions, each
// at its type's natural alignment (checked against the cubins of the corpus; see docs/asm.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "lift/sass_lift.h"

namespace gpuport::lift {

struct SourceDeclarations {
  std::filesystem::path file;
  // Bank 3 as nvcc lays it out; each variable's name is the one HIP's host code registers it by.
  std::vector<ModuleVariable> constants;
  std::vector<std::uint8_t> constant_bank;  // the initial bytes of the whole bank
  // Per kernel (by its HIP mangled name): each parameter's size and alignment, in order.
  std::map<std::string, std::vector<std::pair<std::uint32_t, std::uint32_t>>, std::less<>> kernel_parameters;
};

// Compiles `file` (HIP C++) for gfx1100 with clang-19 and reads its declarations. An error
// naming the file (and clang's first messages) when it does not compile.
Result<SourceDeclarations> read_source_declarations(const std::filesystem::path& file);

}  // namespace gpuport::lift
