// External memory and semaphores in the runtime's core (core/external.cc): imported, mapped, signalled and waited for, and destroyed, as the HIP functions of the same names do.
#pragma once

#include "emu/runtime/core/queues.h"

namespace gpuport::emu::hip {

hipError_t import_memory(hipExternalMemory_t* out, const hipExternalMemoryHandleDesc* desc);
hipError_t mapped_buffer(void** pointer, hipExternalMemory_t memory, const hipExternalMemoryBufferDesc* desc);
hipError_t destroy_external_memory(hipExternalMemory_t memory);
hipError_t import_semaphore(hipExternalSemaphore_t* out, const hipExternalSemaphoreHandleDesc* desc);
hipError_t destroy_semaphore(hipExternalSemaphore_t semaphore);
hipError_t signal_semaphores(const hipExternalSemaphore_t* array, const hipExternalSemaphoreSignalParams* params, unsigned int count, hipStream_t stream);
hipError_t wait_semaphores(const hipExternalSemaphore_t* array, const hipExternalSemaphoreWaitParams* params, unsigned int count, hipStream_t stream);

}  // namespace gpuport::emu::hip
