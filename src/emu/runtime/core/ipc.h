// Inter-process handles in the runtime's core (core/ipc.cc): made and opened within the process,
// refused with a message when they come from another.
#pragma once

#include "emu/runtime/core/queues.h"

namespace gpuport::emu::hip {

// A handle for the device allocation `dev_ptr` lies in (hipErrorInvalidHandle for other memory).
hipError_t export_memory(hipIpcMemHandle_t* handle, void* dev_ptr);
// The pointer a handle names, when it comes from this process and its allocation lives; counted
// until closed.
hipError_t open_memory(void** dev_ptr, hipIpcMemHandle_t handle, unsigned int flags);
// Closes what open_memory opened (the memory stays its owner's).
hipError_t close_memory(void* dev_ptr);
// A handle for an interprocess event without timing.
hipError_t export_event(hipIpcEventHandle_t* handle, hipEvent_t event);
// A new event sharing the state of the event a handle names (recording either is seen by both).
hipError_t open_event(hipEvent_t* event, hipIpcEventHandle_t handle);

}  // namespace gpuport::emu::hip
