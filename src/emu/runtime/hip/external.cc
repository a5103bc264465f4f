// External memory and semaphores of the HIP runtime API, over the core's (core/external.cc, which
// says what importing, mapping, signalling and waiting do here).
#include "emu/runtime/core/external.h"

using namespace gpuport::emu::hip;

hipError_t hipImportExternalMemory(hipExternalMemory_t* out, const hipExternalMemoryHandleDesc* desc) {
  return import_memory(out, desc);
}

hipError_t hipExternalMemoryGetMappedBuffer(void** pointer, hipExternalMemory_t memory, const hipExternalMemoryBufferDesc* desc) {
  return mapped_buffer(pointer, memory, desc);
}

hipError_t hipDestroyExternalMemory(hipExternalMemory_t memory) { return destroy_external_memory(memory); }

hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t* out, const hipExternalSemaphoreHandleDesc* desc) {
  return import_semaphore(out, desc);
}

hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t semaphore) { return destroy_semaphore(semaphore); }

// A binary semaphore's signal has no value: params.fence.value counts only for fences, which
// HIP 5.2 cannot import here.
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t* array, const hipExternalSemaphoreSignalParams* params,
                                            unsigned int count, hipStream_t stream) {
  return signal_semaphores(array, params, count, stream);
}

hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t* array, const hipExternalSemaphoreWaitParams* params,
                                          unsigned int count, hipStream_t stream) {
  return wait_semaphores(array, params, count, stream);
}
