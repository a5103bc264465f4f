// A folder laid out as NVIDIA's CUDA toolkit whose compiler is `gpuport nvcc`, for builds that
// name a toolkit instead of a compiler: Makefiles with CUDA_DIR=..., CMake with
// -DCMAKE_CUDA_COMPILER=DIR/bin/nvcc (and FindCUDAToolkit), SCALE's validation recipes with
// PATH_TO_SCALE=DIR. What the build expects there, and what it gets:
//
//   bin/nvcc           a script running gpuport nvcc for one HIP version with --toolkit-root DIR
//   include/           for host code the build compiles without nvcc: each CUDA header the
//                      translation tables map (cuda_runtime.h, curand.h, ...) includes its HIP
//                      header and gpuport/cuda_names.h, which defines CUDA's names as HIP's;
//                      HIP's own include folders are linked beside them
//   lib64/, lib/       linker scripts named as CUDA's runtime libraries that link the
//                      emulator's libamdhip64 of the same ABI instead
//   nvvm/libdevice/    present because CMake requires it; device code links ROCm's libraries
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "common/diagnostic.h"
#include "maps/api_map.h"
#include "verify/hip_target.h"

namespace gpuport::verify {

struct CudaToolkitFolder {
  std::filesystem::path dir;
  std::string gpuport_command;      // "/path/gpuport nvcc --hip-version 6.4"
  std::filesystem::path hip_library;  // the libamdhip64.so.N that -lcudart links
  HipTarget hip;                    // whose headers include/ forwards to
};

// Writes (or refreshes) the folder. Files of its own are replaced atomically; nothing else in
// `dir` is touched, and nothing is written through the links to HIP's folders.
std::optional<Diagnostic> write_cuda_toolkit_folder(const CudaToolkitFolder& folder, const maps::ApiMap& map);

// gpuport/cuda_names.h: `#define cudaMalloc hipMalloc` for every CUDA function, type, constant
// and tag of `map` whose HIP twin is a plain rename. A function whose calls the translator
// rewrites by their arguments (call rules: cudaEventCreate with two becomes
// hipEventCreateWithFlags, cudaMallocHost gets hipHostMallocDefault) is a macro that counts
// them and expands to the same rewrite; where the rules say a call has no HIP form, to a name
// that says so and does not compile.
std::string cuda_names_header(const maps::ApiMap& map);

}  // namespace gpuport::verify
