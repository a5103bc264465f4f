// The name a HIP program registers for a kernel (or a device variable) that nvcc mangled: the
// host code of the source translation finds its kernels by clang's mangled names, and these
// differ from nvcc's where the C++ differs between the two: CUDA's vector types are structs
// (`5uint4`) but HIP's are HIP_vector_type<T, N> (`15HIP_vector_typeIjLj4EE`), nvcc names the
// anonymous namespace after the file (`_GLOBAL__N__da4bbd6e_14_crc32_table_cu_main`) where
// clang writes `_GLOBAL__N_1`, and library types have HIP names (curandStateXORWOW ->
// hiprandState). The name is parsed with LLVM's Itanium demangler and mangled again by the
// Itanium C++ ABI's rules (substitutions, template parameters) with those types renamed.
// Promise: a name that needs no change is returned as it is; one the re-mangler does not
// understand is returned with the reason, never guessed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuport::lift {

struct HipName {
  std::string name;    // the HIP program's mangled name (== the input when nothing changes)
  std::string reason;  // empty, or why the name could not be re-mangled (then name is the input)
};

// `internal_linkage`: the function is static (its cubin symbol is STB_LOCAL). nvcc's mangling
// leaves that out; clang's marks such a name outside the anonymous namespace with L (`_ZL2skPf`).
HipName hip_mangled_name(std::string_view nvcc_mangled, bool internal_linkage = false);

}  // namespace gpuport::lift
