// The runtime is compiled once per HIP ABI it implements: against HIP 5.2's headers into
// libamdhip64.so.5 and against HIP 6.4's into libamdhip64.so.6 (src/CMakeLists.txt). The headers
// fix every struct layout and enum value the API passes; the few declarations the two HIPs do not
// share are bridged here, so that the rest of the runtime is written once, against HIP's names.
#pragma once

#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>

namespace gpuport::emu::hip {

// The HIP whose ABI this build of the runtime exports (HIP_VERSION_MAJOR of its headers).
inline constexpr int kHipAbiMajor = HIP_VERSION_MAJOR;
// What hipRuntimeGetVersion and hipDriverGetVersion report: that HIP's major and minor version in
// HIP_VERSION's encoding (major * 10000000 + minor * 100000), without its build's patch number.
inline constexpr int kHipRuntimeVersion = HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000;

}  // namespace gpuport::emu::hip

#if HIP_VERSION_MAJOR >= 6
// HIP 6 keeps the 5.x hipDeviceProp_t as hipDeviceProp_tR0000 with its own entry points, declared
// in a header hip_runtime_api.h leaves out.
#include <hip/hip_deprecated.h>
// GL interop moved out of hip_runtime_api.h.
#include <hip/hip_gl_interop.h>

// HIP 6 makes hipArray opaque (a handle its runtime defines); HIP 5.2's headers define it with
// these members, which 5.2 programs may read. The runtime keeps the one definition for both.
struct hipArray {
  void* data;
  struct hipChannelFormatDesc desc;
  unsigned int type;
  unsigned int width;
  unsigned int height;
  unsigned int depth;
  enum hipArray_Format Format;
  unsigned int NumChannels;
  bool isDrv;
  unsigned int textureType;
};
#endif

namespace gpuport::emu::hip {

// hipPointerAttribute_t's memory type: `memoryType` in HIP 5, `type` in HIP 6 (whose
// hipMemoryType enumerators also have other values; the runtime only ever uses their names).
inline hipMemoryType& pointer_memory_type(hipPointerAttribute_t& attributes) {
#if HIP_VERSION_MAJOR >= 6
  return attributes.type;
#else
  return attributes.memoryType;
#endif
}

// The memory type a managed allocation reports: HIP 6 has hipMemoryTypeManaged and reports it
// (hipPointerGetAttributes: "device memory, host memory, managed memory, and others", HIP 6.4's
// reference), as CUDA does; HIP 5 has no such enumerator and reports device memory with isManaged.
inline constexpr hipMemoryType kManagedMemoryType =
#if HIP_VERSION_MAJOR >= 6
    hipMemoryTypeManaged;
#else
    hipMemoryTypeDevice;
#endif

// The node type of a 1-D copy: HIP 5 has hipGraphNodeTypeMemcpy1D; HIP 6 renumbered the node
// types and has none (a 1-D copy is a Memcpy node there).
inline constexpr hipGraphNodeType kCopy1DNodeType =
#if HIP_VERSION_MAJOR >= 6
    hipGraphNodeTypeMemcpy;
#else
    hipGraphNodeTypeMemcpy1D;
#endif

}  // namespace gpuport::emu::hip
