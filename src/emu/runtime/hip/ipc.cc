// Inter-process handles of the HIP runtime API (hipIpc*), over the core's (core/ipc.cc, which says
// what a handle names and why one from another process is refused).
#include "emu/runtime/core/ipc.h"

using namespace gpuport::emu::hip;

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* dev_ptr) { return export_memory(handle, dev_ptr); }
hipError_t hipIpcOpenMemHandle(void** dev_ptr, hipIpcMemHandle_t handle, unsigned int flags) {
  return open_memory(dev_ptr, handle, flags);
}
hipError_t hipIpcCloseMemHandle(void* dev_ptr) { return close_memory(dev_ptr); }
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t* handle, hipEvent_t event) { return export_event(handle, event); }
hipError_t hipIpcOpenEventHandle(hipEvent_t* event, hipIpcEventHandle_t handle) { return open_event(event, handle); }
