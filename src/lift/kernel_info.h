// What the lifter needs to know about a kernel beyond its SASS text: the parameter layout, the
// static shared and local memory sizes, and the constant banks. From a cubin (its .nv.info
// records and sections), or, for text alone, from the kernel's mangled name (its demangled
// parameter types in natural C layout) and the listing itself.
// Promise: what cannot be known is said as a finding, not guessed silently.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "lift/sass_lift.h"
#include "lift/source_declarations.h"
#include "sass/cubin.h"
#include "sass/program.h"

namespace gpuport::lift {

// From the cubin that `program` was disassembled from. `file` is the cubin's bytes.
KernelInfo kernel_info_from_cubin(const sass::Cubin& cubin, std::string_view file, const sass::CubinKernel& kernel);

// What the user says about a kernel that its listing does not (`gpuport asm --shared-bytes`).
struct TextLayoutHints {
  std::optional<std::uint64_t> static_shared_bytes;
  std::optional<std::uint32_t> local_bytes;
  // The program's HIP source (--source): bank 3's variables and the parameter layouts, structs
  // by value included.
  const SourceDeclarations* declarations = nullptr;
};

// From the listing alone: the parameters from the demangled signature (natural alignment, CUDA's
// vector types; a finding when the name does not demangle to a function or names a type whose
// size is unknown, such as a struct passed by value); the local size from the stack frames and
// local accesses; the static shared size from the shared accesses when all are at constant
// offsets, else NVIDIA's static limit (48 KiB) reserved with a note. With the program's source
// (hints.declarations): its parameter sizes where the name does not give them, and bank 3.
KernelInfo kernel_info_from_text(const sass::SassProgram& program, const sass::SassFunction& kernel, int arch,
                                 const TextLayoutHints& hints, std::vector<Diagnostic>& findings);

// The parameter types of a mangled C++ function name ("float const*", "int", ...); empty when the
// name is not a mangled function (extern "C" kernels) or has no parameters.
std::vector<std::string> demangled_parameter_types(const std::string& mangled, bool& is_function);

}  // namespace gpuport::lift
