// What HIP 6 adds to modules: a kernel's handle from its host stub, the C++-linkage forms of the
// extended launches, cooperative module launches. Compiled into libamdhip64.so.6 only; calls the
// core and, for the per-thread forms, the entry points of emu/runtime/hip/ they stand for.
#include "emu/runtime/core/queues.h"

#include <elf.h>
#include <hip/hip_ext.h>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace gpuport::emu::hip;

// ---- what HIP 6 adds: a kernel's handle from its host stub, cooperative module launches ------
hipError_t hipGetFuncBySymbol(hipFunction_t* function, const void* symbol) {
  if (!function) return ret(hipErrorInvalidValue);
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto it = rt.functions.find(symbol);
  if (it == rt.functions.end()) return ret(hipErrorInvalidDeviceFunction);
  Module* m = it->second.module;
  auto& f = m->functions[it->second.name];
  if (!f) f = std::make_unique<Function>(Function{m, it->second.name});
  rt.function_handles.insert(f.get());
  *function = reinterpret_cast<hipFunction_t>(f.get());
  return hipSuccess;
}
// HIP 6's library also exports C++-linkage forms of the two extended launches (the same
// arguments; programs built against older headers call them).
hipError_t ext_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz, size_t shared,
                                 hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop, uint32_t)
    __asm__("_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j");
hipError_t ext_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz, size_t shared,
                                 hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop, uint32_t) {
  return hipExtModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, shared, stream, params, extra, start, stop, 0);
}
hipError_t hcc_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz, size_t shared,
                                 hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop)
    __asm__("_Z24hipHccModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_");
hipError_t hcc_module_launch_cxx(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz, size_t shared,
                                 hipStream_t stream, void** params, void** extra, hipEvent_t start, hipEvent_t stop) {
  return hipHccModuleLaunchKernel(f, gx, gy, gz, lx, ly, lz, shared, stream, params, extra, start, stop);
}
// Every launch is cooperative on the emulator: all workgroups of a grid are resident.
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                                            unsigned int by, unsigned int bz, unsigned int shared, hipStream_t stream, void** params) {
  return launch_handle(f, dim3(gx, gy, gz), dim3(bx, by, bz), shared, stream, params, nullptr, nullptr, nullptr);
}
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hipFunctionLaunchParams* list, unsigned int devices, unsigned int flags) {
  if (!list || devices != 1) return ret(devices > 1 ? hipErrorInvalidDevice : hipErrorInvalidValue);
  if (flags & ~(hipCooperativeLaunchMultiDeviceNoPreSync | hipCooperativeLaunchMultiDeviceNoPostSync)) return ret(hipErrorInvalidValue);
  const hipFunctionLaunchParams& p = list[0];
  return launch_handle(p.function, dim3(p.gridDimX, p.gridDimY, p.gridDimZ), dim3(p.blockDimX, p.blockDimY, p.blockDimZ),
                       p.sharedMemBytes, p.hStream, p.kernelParams, nullptr, nullptr, nullptr);
}
