// CUDA -> HIP translation of CMake build files (CMakeLists.txt, *.cmake) for `translate --project`:
// the CUDA language becomes CMake's HIP language, CUDA::* imported targets their HIP and ROCm
// libraries, CUDA properties and variables their HIP twins, nvcc flags clang's, and .cu sources
// are marked LANGUAGE HIP. Every other byte is kept; what cannot be translated is a finding with
// file:line.
#pragma once

#include <string>
#include <string_view>

#include "source/translator.h"

namespace gpuport::source {

struct CMakeOptions {
  // Where clang-19 finds the gfx1100 device libraries (written into the prelude as the default of
  // GPUPORT_ROCM_DEVICE_LIB_PATH); empty: none.
  std::string device_lib_dir;
  // The unpacked HIP the project is translated for (--hip-version 6.4: build/rocm-6.4) and its
  // include list (clang-hip.rsp); empty: the system's HIP (Debian 12's 5.2).
  std::string hip_root;
  std::string hip_version;
  // HIP -> CUDA: CMake's HIP language back to CUDA (the lines a CUDA -> HIP translation added,
  // marked `# added by gpuport`, are removed).
  bool to_cuda = false;
};

// Translates one CMake file. The result's `needs_hip_prelude` says that the translation includes
// gpuport-hip.cmake from its own folder (before the first project() that enables HIP).
FileTranslation translate_cmake(std::string_view path, std::string_view text, const CMakeOptions& options);

// CMakeLists.txt or a *.cmake file.
bool is_build_file(std::string_view file_name);
// Makefile, makefile, GNUmakefile or *.mk.
bool is_makefile(std::string_view file_name);
// A Makefile with its nvcc replaced by `gpuport nvcc --hip-sources` ($(GPUPORT_NVCC), defined
// at the top); lines that link CUDA's libraries without nvcc get a warning with the change.
FileTranslation translate_makefile(std::string_view path, std::string_view text, const CMakeOptions& options);

// The text of gpuport-hip.cmake: how a translated tree finds clang and Debian's HIP with CMake's
// HIP language (CMake 3.21 on).
std::string hip_prelude_text(const CMakeOptions& options);

}  // namespace gpuport::source
