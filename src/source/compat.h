// Compatibility shims: what the target HIP lacks, added to a translated file right after its
// HIP runtime include, only when the file uses it. Each shim is an `#if` block on the platform
// and on HIP_VERSION (so a HIP that has the API uses its own) and on a guard macro of its own
// (so a unit that includes several translated files defines it once). Shims are written inline
// rather than as a header beside the translation: every translated file stays self-contained
// (stdout, --in-place, a single header copied elsewhere), and translating a translation again
// finds the block, leaves it alone and adds no second one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gpuport::source {

struct Shim {
  std::string_view guard;  // the macro the block defines and tests
  std::string_view text;   // the whole block, '\n' line ends
  std::span<const std::string_view> triggers;  // HIP names (called) that need it
  std::span<const std::string_view> headers = {};  // CUDA include paths that need it
  // HIP names that the shim's triggers (in the same places) stand for in translations from
  // CUDA, where HIP's own would not keep CUDA's meaning: a type code uses in ways HIP's does not
  // allow (hipDeviceptr_t), a call whose answers must agree with the device code's level
  // (hipGetDeviceProperties' compute capability).
  std::span<const std::string_view> stands_for = {};
  // Prefixes of a ROCm library's own names (rocblas_) that code written for AMD in the file
  // calls: a project's HIP path, live once the file is HIP, needs that library's header.
  std::span<const std::string_view> prefixes = {};
};

// The CUDA release whose runtime API the translation tables cover, as CUDART_VERSION spells it
// (12.6): what CUDART_VERSION and CUDA_VERSION read as in translated code on AMD, and the
// release `gpuport nvcc --version` reports.
inline constexpr int kMappedCudaRelease = 12060;

// In the order they are written into a file.
std::span<const Shim> shims();

// Bit of the shim a call of this HIP name needs, or 0.
std::uint32_t shim_for_call(std::string_view hip_name);

// The shim function for CUDA's value-returning form of a surface read (`surf2Dread<T>(...)`,
// told by its template argument): gpuport_surf2Dread; empty for other names.
std::string_view value_surface_read(std::string_view cuda_name);

// The level of CUDA's features gfx1100's device code is read as by default (__CUDA_ARCH__ 610):
// what HIP and gpuport's shims provide for CUDA code (shuffles, __ldg, half arithmetic, double
// atomicAdd, sm_61's __dp4a by GPUPORT_SIMD_VIDEO), not sm_70's independent threads and tensor
// cores. The compute capability translated programs are told is the same (GPUPORT_CUDA_LEVEL in
// the shims), so host code that picks a kernel by it picks one its device code holds. A build
// that names its architecture (gpuport nvcc -arch=sm_86) is translated for that one instead
// (TranslateOptions::cuda_arch).
inline constexpr int kDeviceCudaArch = 610;

// The shim's name that stands for this HIP name in translations from CUDA (hipDeviceptr_t ->
// gpuport_hipDeviceptr_t, which keeps CUdeviceptr's integer meaning), or empty.
std::string_view shim_name_for(std::string_view hip_name);

// The block that sets the level the GPUPORT_CUDA_ARCH and GPUPORT_DEVICE_CC shims read, written
// before them when the translation's is not the default they assume.
std::string cuda_level_definition(int level);

// Bit of the shim for the ROCm library this name of the file's own AMD code belongs to
// (rocblas_initialize -> the rocBLAS header), or 0.
std::uint32_t shim_for_library_name(std::string_view name);

// Bits of the shims an include of this CUDA header needs, or 0.
std::uint32_t shim_for_header(std::string_view cuda_path);

// Bit of the shim this guard macro names, or 0.
std::uint32_t shim_for_guard(std::string_view macro);

}  // namespace gpuport::source
