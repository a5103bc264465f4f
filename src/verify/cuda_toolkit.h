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
//   bin/gpuportenv     for `. DIR/bin/gpuportenv`: the variables that point builds at the folder
//                      (CUDA_HOME, CUDACXX, PATH, ...), and LDFLAGS with the link options that
//                      let the programs they link run on the emulator when started directly
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "maps/api_map.h"
#include "verify/hip_target.h"

namespace gpuport::verify {

struct CudaToolkitFolder {
  std::filesystem::path dir;
  std::string gpuport_command;      // "/path/gpuport nvcc --hip-version 6.4"
  std::filesystem::path hip_library;  // the libamdhip64.so.N that -lcudart links
  HipTarget hip;                    // whose headers include/ forwards to
  std::vector<std::string> run_link_flags;  // toolkit_run_link_flags(...)
};

// Link options for programs that must run on the emulator when started directly (`./test`, as
// build recipes run them) although they link ROCm 6.4's libraries from Debian sid, which need
// sid's glibc: sid's loader as the program's interpreter, and an RPATH (DT_RPATH, which the
// libraries' own dependencies are looked up by too) to the emulator's runtime first, then to sid's
// libraries and glibc; every library named on the line is kept (sid's hipBLAS finds its own
// dependencies by a RUNPATH of its own, not by the program's RPATH, so the program loads them
// first). Their own undefined symbols are left to run time, as gpuport nvcc's links
// leave them. Empty for HIP 5 (Debian 12's own libraries) or where sid's libraries are not unpacked.
std::vector<std::string> toolkit_run_link_flags(const HipTarget& hip, const std::filesystem::path& runtime_dir,
                                                const std::filesystem::path& rocm_library_dir);

// What every program and library linked through the toolkit gets: a DT_RPATH to the emulator's
// runtime. The rest of toolkit_run_link_flags goes only where link_needs_rocm_libraries says,
// so that a library needing nothing of sid's links into programs that the system's compiler
// links without gpuport (GPUJPEG's unit test: `cc run_tests.c -lgpujpeg -lcudart`).
std::vector<std::string> toolkit_base_link_flags(const std::filesystem::path& runtime_dir);

// Whether a link (a compiler's or ld's arguments) reaches ROCm's libraries from Debian sid: it
// names one of the HIP libraries (-lhipblas), or an input or -l library found in its -L folders
// and LIBRARY_PATH is a shared library or linker script that refers to one of `rocm_folders`
// (sid's library folder, the HIP target's: the toolkit's libcublas.so, a project library
// linked with sid's RPATH).
bool link_needs_rocm_libraries(const std::vector<std::string>& args, const std::vector<std::filesystem::path>& rocm_folders);

// ld's own spelling of the link options above (-Wl, removed), for the toolkit's ld wrapper.
std::vector<std::string> as_ld_options(const std::vector<std::string>& compiler_flags);

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

// gpuport/cuda_tags.h, included before HIP's headers: in C, HIP's opaque handle structs take
// CUDA's tags (`#define ihipStream_t CUstream_st`), so that a header which declared
// `struct CUstream_st; typedef struct CUstream_st* cudaStream_t;` before the runtime (GPUJPEG's
// public header) agrees with the runtime's stream type. C links no name by its tag; C++ keeps
// HIP's tags, which its mangled names and the translated sources use.
std::string cuda_tags_header(const maps::ApiMap& map);

}  // namespace gpuport::verify
