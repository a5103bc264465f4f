// Compile checks of translated HIP units with the real compilers on both sides: clang-19 for
// AMD gfx1100, and nvcc 11.8 on HIP's NVIDIA platform. A missing tool gives a skipped check
// with the reason, never a pass.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "source/report.h"
#include "verify/hip_target.h"

namespace gpuport::verify {

struct CompileCheckOptions {
  std::string clang = "clang++-19";
  std::string nvcc = "/usr/bin/nvcc";  // Debian's CUDA 11.8; HIP 5.2 headers do not build with CUDA 13
  std::string nvcc_host_compiler = "clang-14";
  std::filesystem::path device_lib_dir;  // empty: GPUPORT_ROCM_DEVICE_LIB_PATH, then the build's folder
  std::string amd_arch = "gfx1100";
  // The HIP that gfx1100 builds compile and link against (--hip-version). The NVIDIA target is
  // always built on HIP 5.2's NVIDIA platform headers (Debian 12's): no Debian ships a newer one.
  HipTarget hip = *hip_target(kDefaultHipVersion);
  std::string nvidia_arch = "sm_90";
  std::vector<std::filesystem::path> include_dirs;
  // Headers of the libraries Debian 12 lacks (hipBLAS, hipCUB/rocPRIM, rocThrust, hipFFT,
  // hipSOLVER, roc*), from Debian 13 packages: a folder holding amd-libs/ and nvidia-libs/
  // (scripts/fetch-rocm-headers). Empty: GPUPORT_ROCM_LIBRARY_HEADERS, then the source tree's
  // build/rocm-headers; a folder that does not exist adds nothing.
  std::filesystem::path library_headers;
  std::chrono::seconds timeout{300};
  bool amd = true;
  bool nvidia = true;
  // The units are CUDA (a HIP -> CUDA translation): nvcc compiles them as CUDA (-x cu), without
  // HIP's NVIDIA platform; only the nvidia target applies.
  bool cuda_source = false;
  // More flags for both compilers: a unit's -D, -U and -include from a compilation database.
  std::vector<std::string> extra_flags;
  // A clang pass plugin for the gfx1100 compiles (gpuport nvcc's: nvcc's meaning of device code
  // that C++ leaves undefined, lib/libgpuport-nvcc-semantics.so); empty: none.
  std::filesystem::path device_pass_plugin;
};

// Why a target cannot be checked on this machine; std::nullopt when it can.
std::optional<std::string> amd_unavailable(const CompileCheckOptions& options);
// The NVIDIA check of HIP code also needs HIP's NVIDIA platform of the target version.
std::optional<std::string> nvidia_unavailable(const CompileCheckOptions& options);
// nvcc 11.8 and its host compiler alone (what building the CUDA original needs).
std::optional<std::string> nvcc_unavailable(const CompileCheckOptions& options);

// The device-library folder that will be used for gfx1100.
std::filesystem::path resolve_device_lib_dir(const CompileCheckOptions& options);

// The include folder of library headers for a target ("amd" or "nvidia"); empty when there is none.
std::filesystem::path library_include_dir(const CompileCheckOptions& options, std::string_view target);

// Units worth compiling on their own (.cu, .cpp, .hip, ...; not headers).
bool is_compile_unit(const std::filesystem::path& path);

// Compiles `file` for each enabled target.
std::vector<source::CheckOutcome> check_unit(const std::filesystem::path& file, const CompileCheckOptions& options);

// The clang command that compiles HIP for gfx1100 against options.hip (clang, -x hip, the arch,
// that HIP's flags, the device libraries), for the caller to add its flags and inputs.
std::vector<std::string> hip_clang_command(const CompileCheckOptions& options);

// The nvcc 11.8 command line for CUDA (without the input and output), with the host include
// path cleaned of CUDA headers from other toolkits. Run it with nvcc11_environment()
// (common/nvcc11.h).
std::vector<std::string> nvcc_command(const CompileCheckOptions& options);
// The same for HIP code on HIP's NVIDIA platform (-x cu -D__HIP_PLATFORM_NVIDIA__).
std::vector<std::string> nvcc_hip_command(const CompileCheckOptions& options);

}  // namespace gpuport::verify
