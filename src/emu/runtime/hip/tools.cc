// What HIP 5.2 offers profilers, tracers and debuggers, as far as it means something for an
// emulated device: profiler start and stop (nothing to profile: they succeed), the names of API
// calls and command kinds (from HIP's own tables in its headers), the debugger's build queries
// (they say gpuport), and hipRTC's precompiled header (there is none). The callbacks through
// which roctracer follows every API call and device activity are refused: HIP 5.2 registers
// them for ids 1 to HIP_API_ID_LAST (hipErrorInvalidValue otherwise) and calls them around each
// call, which this runtime does not do, so accepting them would silently report nothing.
#include "emu/runtime/core/runtime.h"  // first: HIP's types, which the profiling tables use

#include <hip/amd_detail/hip_prof_str.h>

// The command kinds, without the header's C++-linkage declarations of the functions below.
namespace gpuport::emu::hip::prof {
#include <hip/amd_detail/hip_runtime_prof.h>
}

namespace gpuport::emu::hip {
namespace {

bool is_api_id(uint32_t id) { return id >= HIP_API_ID_FIRST && id <= HIP_API_ID_LAST; }

constexpr const char* kNoTracing = "gpuport's runtime does not trace its calls or the device's activity";

}  // namespace
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

// What Debian's libamdhip64 5.2 returns (it has no profiler control): a program that checks the
// result behaves here as it does on a GPU with that runtime.
hipError_t hipProfilerStart() { return ret(hipErrorNotSupported); }
hipError_t hipProfilerStop() { return ret(hipErrorNotSupported); }

const char* hipApiName(uint32_t id) { return hip_api_name(id); }

hipError_t hipRegisterApiCallback(uint32_t id, void*, void*) {
  if (!is_api_id(id)) return ret(hipErrorInvalidValue);
  return refuse("hipRegisterApiCallback", kNoTracing, hipErrorNotSupported);
}
hipError_t hipRemoveApiCallback(uint32_t id) { return is_api_id(id) ? hipSuccess : ret(hipErrorInvalidValue); }
hipError_t hipRegisterActivityCallback(uint32_t id, void*, void*) {
  if (!is_api_id(id)) return ret(hipErrorInvalidValue);
  return refuse("hipRegisterActivityCallback", kNoTracing, hipErrorNotSupported);
}
hipError_t hipRemoveActivityCallback(uint32_t id) { return is_api_id(id) ? hipSuccess : ret(hipErrorInvalidValue); }

extern "C" {

void hipInitActivityCallback(void*, void*, void*) { say_refused("hipInitActivityCallback", kNoTracing, "no callback will be called"); }

// False: no operation's activity is reported (HIP 5.2 answers true for the operations of HipVdiOpId).
bool hipEnableActivityCallback(uint32_t op, bool enable) {
  if (op < prof::kHipVdiOpIdNumber && enable) say_refused("hipEnableActivityCallback", kNoTracing, "returns false");
  return false;
}

// The names ROCclr gives its command kinds (HipVdiCommandKind).
const char* hipGetCmdName(uint32_t kind) {
  static constexpr struct {
    uint32_t kind;
    const char* name;
  } kNames[] = {
      {prof::kHipVdiCommandKernel, "KernelExecution"},
      {prof::kHipVdiMemcpyDeviceToHost, "CopyDeviceToHost"},
      {prof::kHipHipVdiMemcpyHostToDevice, "CopyHostToDevice"},
      {prof::kHipVdiMemcpyDeviceToDevice, "CopyDeviceToDevice"},
      {prof::kHipVidMemcpyDeviceToHostRect, "CopyDeviceToHost2D"},
      {prof::kHipVdiMemcpyHostToDeviceRect, "CopyHostToDevice2D"},
      {prof::kHipVdiMemcpyDeviceToDeviceRect, "CopyDeviceToDevice2D"},
      {prof::kHipVdiFillMemory, "FillBuffer"},
  };
  for (const auto& n : kNames)
    if (n.kind == kind) return n.name;
  return "Unknown command type";
}

const char* amd_dbgapi_get_build_name() { return "gpuport " GPUPORT_VERSION " (HIP 5.2 runtime over the gfx1100 emulator)"; }
const char* amd_dbgapi_get_git_hash() { return "gpuport-" GPUPORT_VERSION; }
size_t amd_dbgapi_get_build_id() { return 0; }

// hipRTC compiles with the installed headers (hiprtc.cc), not a precompiled header.
void __hipGetPCH(const char** pch, unsigned int* size) {
  if (pch) *pch = nullptr;
  if (size) *size = 0;
}

}  // extern "C"
