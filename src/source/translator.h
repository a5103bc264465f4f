// CUDA -> HIP source translation of one file's text. Rewrites only real identifiers and
// include paths (never strings or comments), keeps every other byte, and reports findings a
// compiler would give: unsupported APIs, inline PTX and warp-size hazards.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/diagnostic.h"
#include "maps/api_map.h"
#include "source/compat.h"
#include "source/conditionals.h"

namespace gpuport::source {

enum class LaunchStyle : std::uint8_t {
  keep,                   // keep kernel<<<grid, block, shared, stream>>>(args): HIP accepts it
  hip_launch_kernel_ggl,  // rewrite to hipLaunchKernelGGL(kernel, dim3(grid), dim3(block), shared, stream, args)
};

struct TranslateOptions {
  bool fix_warp_size = false;     // apply the safe warp-size hazard fixes
  LaunchStyle launch_style = LaunchStyle::keep;
  bool add_runtime_include = true;  // add <hip/hip_runtime.h> where device code needs it
  // hipify-clang's output conventions where gpuport's differ by choice: library headers by their
  // flat names (<hipblas.h>, as ROCm before 5.7 installed them), and the runtime include in
  // every translated file that includes a CUDA header.
  bool hipify_style = false;
  // Leave the groups a compiler would skip (#if with -D/-U and the file's own #defines decided
  // false) as written: hipify-clang's --skip-excluded-preprocessor-conditional-blocks. By
  // default every branch is translated.
  bool skip_excluded_groups = false;
  PreprocessorSettings preprocessor;
  // HIP -> CUDA (`translate --to cuda`): the map is the reversed one (ApiMap::reversed), launches
  // become <<<>>>, no runtime include is added (nvcc has its own), and the hazards reported are
  // the 64-lane ones.
  bool to_cuda = false;
  // With to_cuda: leave __HIP_PLATFORM_NVIDIA__ / __HIP_PLATFORM_NVCC__ as written (the build
  // defines them itself) instead of reading them as __CUDACC__.
  bool keep_platform_macros = false;
  // For a compiler that reads the translation in the original's place (gpuport nvcc): after each
  // whole lines gpuport adds (the runtime include, shims), a `#line` naming the original file and
  // its line, so that messages and __FILE__/__LINE__ are the original's.
  bool line_markers = false;
  // The CUDA architecture gfx1100's device code stands in for (__CUDA_ARCH__ in device passes,
  // the compute capability the program is told): kDeviceCudaArch (610), what gpuport provides,
  // unless the build names one (gpuport nvcc -arch=sm_86: 860).
  int cuda_arch = kDeviceCudaArch;
};

// A use of a CUDA-looking name that no table knows. Whether it is reported depends on the
// whole set of files: a name the project declares itself is not an API.
struct UnknownApiUse {
  std::string name;
  std::uint32_t line = 0, column = 0;
};

struct FileTranslation {
  std::string path;
  bool ok = true;              // false: the input was rejected (binary, bad encoding, lexer errors)
  std::string output;          // the translated text when ok
  std::vector<Diagnostic> findings;
  std::size_t rewrites = 0;    // identifiers, include paths and arguments changed
  std::vector<UnknownApiUse> unknown_uses;
  std::vector<std::string> declared_names;  // API-looking names this file declares itself
  bool to_cuda = false;                     // translated HIP -> CUDA (the names looked at are HIP's)
  bool needs_hip_prelude = false;           // a CMake file that includes gpuport-hip.cmake (cmake.h)
};

FileTranslation translate_text(std::string_view path, std::string_view text, const maps::ApiMap& map,
                               const TranslateOptions& options);

// Gives a translation's text storage back to this thread for the next translate_text() call
// (for callers that translate many files; optional).
void recycle_output(std::string&& text);

// Turns the unknown-API candidates of a set of files into findings, dropping names any file
// of the set declares. Findings are appended to each file's list in source order.
void resolve_unknown_apis(std::vector<FileTranslation*> files);

// True for names that follow the CUDA API naming conventions (cudaX, cuX, CUDA_X, cublasX...).
bool looks_like_cuda_api(std::string_view name);
// True for names that follow HIP's and ROCm's (hipX, HIP_X, hipblasX, rocblas_x, roctxX...).
bool looks_like_hip_api(std::string_view name);

}  // namespace gpuport::source
