// The runtime's state and how it reports: the one Runtime (registries of code objects, kernels,
// variables, allocations, streams and events; the emulator's address space; the options `gpuport
// run` passes), the thread's last error, refusals said once, and at exit --memcheck's leak report
// and the per-kernel statistics. Every other part of the core, and every HIP entry point, starts
// here.
#include "emu/runtime/core/runtime.h"

namespace gpuport::emu::hip {

Runtime& runtime() {
  static Runtime* r = new Runtime();  // never destroyed before the program's own static destructors
  return *r;
}

// --memcheck's leak check: blocks the program allocated and never freed, at exit (the runtime's
// own blocks, for hostcalls and the device heap, are not the program's).
void report_leaks() {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  std::size_t blocks = 0, bytes = 0;
  std::string first;
  for (const auto& [p, what] : rt.origin) {
    const std::string_view w = what;
    if (w == "hostcall buffer" || w == "hostcall doorbell" || w == "device heap") continue;
    const std::size_t size = rt.allocations.count(p) ? rt.allocations.at(p) : 0;
    if (blocks++ == 0) first = fmt::format("{} bytes at {:#x} ({})", size, p, what);
    bytes += size;
  }
  if (blocks)
    rt.report_finding(fmt::format("memcheck: {} bytes in {} block{} never freed (leaked); the first: {}", bytes, blocks,
                                  blocks == 1 ? "" : "s", first));
}

struct Stats {
  ~Stats() {
    if (runtime().check_leaks) report_leaks();
    runtime().write_stats();
  }
} stats_at_exit;

thread_local hipError_t last_error = hipSuccess;

hipError_t ret(hipError_t e) {
  if (e != hipSuccess) last_error = e;
  return e;
}

void say_refused(const std::string& call, const std::string& reason, const std::string& outcome) {
  auto& rt = runtime();
  const std::string message = fmt::format("{}: {} ({})", call, reason, outcome);
  std::lock_guard lock(rt.mutex);
  if (rt.unsupported_said.insert(message).second) std::fprintf(stderr, "gpuport run: %s\n", message.c_str());
}

hipError_t refuse(const std::string& call, const std::string& reason, hipError_t e) {
  say_refused(call, reason, fmt::format("returns {}", error_name(e)));
  return ret(e);
}

const char* error_name(hipError_t e) {
  switch (e) {
#define NAME(x) \
  case x: return #x;
    NAME(hipSuccess) NAME(hipErrorInvalidValue) NAME(hipErrorOutOfMemory) NAME(hipErrorNotInitialized)
    NAME(hipErrorDeinitialized) NAME(hipErrorInvalidConfiguration) NAME(hipErrorInvalidPitchValue)
    NAME(hipErrorInvalidSymbol) NAME(hipErrorInvalidDevicePointer) NAME(hipErrorInvalidMemcpyDirection)
    NAME(hipErrorInsufficientDriver) NAME(hipErrorMissingConfiguration) NAME(hipErrorPriorLaunchFailure)
    NAME(hipErrorInvalidDeviceFunction) NAME(hipErrorNoDevice) NAME(hipErrorInvalidDevice) NAME(hipErrorInvalidImage)
    NAME(hipErrorInvalidContext) NAME(hipErrorInvalidHandle) NAME(hipErrorNotFound) NAME(hipErrorNotReady)
    NAME(hipErrorIllegalAddress) NAME(hipErrorLaunchOutOfResources) NAME(hipErrorLaunchTimeOut)
    NAME(hipErrorPeerAccessAlreadyEnabled) NAME(hipErrorPeerAccessNotEnabled) NAME(hipErrorLaunchFailure)
    NAME(hipErrorNotSupported) NAME(hipErrorUnsupportedLimit) NAME(hipErrorUnknown)
    NAME(hipErrorIllegalState) NAME(hipErrorNoBinaryForGpu) NAME(hipErrorFileNotFound) NAME(hipErrorMapFailed)
    NAME(hipErrorStreamCaptureUnsupported) NAME(hipErrorStreamCaptureInvalidated) NAME(hipErrorStreamCaptureMerge)
    NAME(hipErrorStreamCaptureUnmatched) NAME(hipErrorStreamCaptureUnjoined) NAME(hipErrorStreamCaptureIsolation)
    NAME(hipErrorStreamCaptureImplicit) NAME(hipErrorCapturedEvent) NAME(hipErrorStreamCaptureWrongThread)
    NAME(hipErrorGraphExecUpdateFailure)
    NAME(hipErrorProfilerDisabled) NAME(hipErrorProfilerNotInitialized) NAME(hipErrorProfilerAlreadyStarted)
    NAME(hipErrorProfilerAlreadyStopped) NAME(hipErrorContextAlreadyCurrent) NAME(hipErrorUnmapFailed)
    NAME(hipErrorArrayIsMapped) NAME(hipErrorAlreadyMapped) NAME(hipErrorAlreadyAcquired) NAME(hipErrorNotMapped)
    NAME(hipErrorNotMappedAsArray) NAME(hipErrorNotMappedAsPointer) NAME(hipErrorECCNotCorrectable)
    NAME(hipErrorContextAlreadyInUse) NAME(hipErrorPeerAccessUnsupported) NAME(hipErrorInvalidKernelFile)
    NAME(hipErrorInvalidGraphicsContext) NAME(hipErrorInvalidSource) NAME(hipErrorSharedObjectSymbolNotFound)
    NAME(hipErrorSharedObjectInitFailed) NAME(hipErrorOperatingSystem) NAME(hipErrorSetOnActiveProcess)
    NAME(hipErrorContextIsDestroyed) NAME(hipErrorAssert) NAME(hipErrorRuntimeMemory) NAME(hipErrorRuntimeOther)
#if HIP_VERSION_MAJOR >= 6
    NAME(hipErrorInvalidChannelDescriptor) NAME(hipErrorInvalidTexture)
#endif
#undef NAME
    default: return "hipErrorUnknown";
  }
}

const char* error_string(hipError_t e) {
  switch (e) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidDeviceFunction: return "invalid device function";
    case hipErrorInvalidSymbol: return "invalid device symbol";
    case hipErrorInvalidConfiguration: return "invalid configuration argument";
    case hipErrorNotSupported: return "operation not supported (gpuport's emulated runtime)";
    case hipErrorNotReady: return "device not ready";
    case hipErrorInvalidHandle: return "invalid resource handle";
    default: return error_name(e);
  }
}

}  // namespace gpuport::emu::hip
