// How Debian's CUDA 11.8 nvcc must be run on machines that also carry CUDA 13: with its own
// PATH and no CUDA_HOME, and with a host include path cleaned of other toolkits' CUDA headers.
// Shared by the HIP compile checks (verify/) and the SASS toolchain (sass/).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpuport {

// The process environment nvcc 11.8 must run with (a value sets, std::nullopt removes).
std::map<std::string, std::optional<std::string>> nvcc11_environment();

// "-Xcompiler -nostdinc -Xcompiler -isystem,DIR ..." for `host_compiler`'s system include
// folders without folders that hold another CUDA's headers (some machines install CUDA 13
// headers into /usr/local/include, which would shadow Debian's CUDA 11.8 ones in
// /usr/include). Empty when the host compiler cannot be asked. Computed once per compiler.
std::vector<std::string> nvcc11_host_include_flags(const std::string& host_compiler);

}  // namespace gpuport
