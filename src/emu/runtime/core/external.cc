// External memory and semaphores in the runtime's core. Memory given as an opaque file
// descriptor (a memfd, a file, shared memory another part of the program made) is mapped into
// the process and registered with the emulator's address space, so kernels reach it through the
// pointers hipExternalMemoryGetMappedBuffer hands out and every access is checked; the runtime
// owns the descriptor from the import on and closes it when the memory is destroyed (as CUDA
// defines the import). An opaque-fd semaphore is a binary semaphore kept on the host: a signal
// issued on a stream adds one, a wait issued on a stream takes one, waiting for another host
// thread's signal when there is none (every operation runs when it is issued). HIP 5.2's graphs
// have no node for either, so they are not captured. Windows, KMT and Direct3D handles exist
// only with Windows' GPU drivers: refused with hipErrorNotSupported.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <condition_variable>

#include "emu/runtime/core/external.h"

namespace gpuport::emu::hip {
namespace {

struct ExternalMemory {
  void* base = nullptr;
  size_t size = 0;
  int fd = -1;
};

struct ExternalSemaphore {
  int fd = -1;
  std::mutex mutex;
  std::condition_variable signalled;
  std::uint64_t pending = 0;  // signals not yet taken by a wait
};

// Under the runtime's lock.
std::set<ExternalMemory*>& memories() {
  static auto* m = new std::set<ExternalMemory*>();
  return *m;
}
std::set<ExternalSemaphore*>& semaphores() {
  static auto* s = new std::set<ExternalSemaphore*>();
  return *s;
}

// hipErrorNotSupported for the handle types that need Windows' drivers, hipErrorInvalidValue
// for a value that is no handle type.
hipError_t refuse_handle_type(int type, int last, const char* call) {
  if (type < 2 || type > last) return ret(hipErrorInvalidValue);
  return refuse(call, "Windows, KMT and Direct3D handles need a GPU driver on Windows", hipErrorNotSupported);
}

bool live(ExternalSemaphore* s) {
  std::lock_guard lock(runtime().mutex);
  return semaphores().count(s) != 0;
}

// The semaphores of a signal or wait call, checked when the call is issued.
hipError_t semaphores_of(const hipExternalSemaphore_t* array, const void* params, unsigned int count,
                         std::vector<ExternalSemaphore*>& out) {
  if (!array || !params) return ret(hipErrorInvalidValue);
  for (unsigned int i = 0; i < count; ++i) {
    auto* s = static_cast<ExternalSemaphore*>(array[i]);
    if (!s || !live(s)) return ret(hipErrorInvalidValue);
    out.push_back(s);
  }
  return hipSuccess;
}

}  // namespace
hipError_t import_memory(hipExternalMemory_t* out, const hipExternalMemoryHandleDesc* desc) {
  if (!out || !desc) return ret(hipErrorInvalidValue);
  if (desc->type != hipExternalMemoryHandleTypeOpaqueFd)
    return refuse_handle_type(desc->type, hipExternalMemoryHandleTypeD3D11ResourceKmt, "hipImportExternalMemory");
  constexpr unsigned int kDedicated = 1;  // cudaExternalMemoryDedicated's value; meaningful for Direct3D only
  const int fd = desc->handle.fd;
  struct stat st;
  if (fd < 0 || desc->size == 0 || (desc->flags & ~kDedicated) || fstat(fd, &st) != 0) return ret(hipErrorInvalidValue);
  // Past the end of a file a mapping has no memory behind it (SIGBUS on access).
  if (S_ISREG(st.st_mode) && static_cast<unsigned long long>(st.st_size) < desc->size) return ret(hipErrorInvalidValue);
  void* base = mmap(nullptr, desc->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return ret(errno == ENOMEM ? hipErrorOutOfMemory : hipErrorInvalidValue);
  auto* m = new ExternalMemory{base, static_cast<size_t>(desc->size), fd};
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  rt.memory.add(reinterpret_cast<std::uint64_t>(base), m->size, AddressSpace::Kind::device, "hipImportExternalMemory");
  memories().insert(m);
  *out = m;
  return hipSuccess;
}

hipError_t mapped_buffer(void** pointer, hipExternalMemory_t memory, const hipExternalMemoryBufferDesc* desc) {
  if (!pointer || !desc) return ret(hipErrorInvalidValue);
  auto* m = static_cast<ExternalMemory*>(memory);
  std::lock_guard lock(runtime().mutex);
  if (!memories().count(m) || desc->flags != 0 || desc->size == 0 || desc->offset > m->size || desc->size > m->size - desc->offset)
    return ret(hipErrorInvalidValue);
  *pointer = static_cast<char*>(m->base) + desc->offset;
  return hipSuccess;
}

hipError_t destroy_external_memory(hipExternalMemory_t memory) {
  auto* m = static_cast<ExternalMemory*>(memory);
  auto& rt = runtime();
  {
    std::lock_guard lock(rt.mutex);
    if (!memories().erase(m)) return ret(hipErrorInvalidValue);
    rt.memory.release(reinterpret_cast<std::uint64_t>(m->base));  // later kernel accesses are reported
  }
  munmap(m->base, m->size);
  close(m->fd);
  delete m;
  return hipSuccess;
}

hipError_t import_semaphore(hipExternalSemaphore_t* out, const hipExternalSemaphoreHandleDesc* desc) {
  if (!out || !desc) return ret(hipErrorInvalidValue);
  if (desc->type != hipExternalSemaphoreHandleTypeOpaqueFd)
    return refuse_handle_type(desc->type, hipExternalSemaphoreHandleTypeD3D12Fence, "hipImportExternalSemaphore");
  struct stat st;
  if (desc->handle.fd < 0 || desc->flags != 0 || fstat(desc->handle.fd, &st) != 0) return ret(hipErrorInvalidValue);
  auto* s = new ExternalSemaphore;
  s->fd = desc->handle.fd;
  std::lock_guard lock(runtime().mutex);
  semaphores().insert(s);
  *out = s;
  return hipSuccess;
}

hipError_t destroy_semaphore(hipExternalSemaphore_t semaphore) {
  auto* s = static_cast<ExternalSemaphore*>(semaphore);
  {
    std::lock_guard lock(runtime().mutex);
    if (!semaphores().erase(s)) return ret(hipErrorInvalidValue);
  }
  close(s->fd);
  delete s;
  return hipSuccess;
}

hipError_t signal_semaphores(const hipExternalSemaphore_t* array, const hipExternalSemaphoreSignalParams* params, unsigned int count, hipStream_t stream) {
  std::vector<ExternalSemaphore*> list;
  if (hipError_t e = semaphores_of(array, params, count, list)) return e;
  return submit(stream, Uncapturable{[list] {
                  for (ExternalSemaphore* s : list) {
                    std::lock_guard lock(s->mutex);
                    ++s->pending;
                    s->signalled.notify_all();
                  }
                  return hipSuccess;
                }});
}

hipError_t wait_semaphores(const hipExternalSemaphore_t* array, const hipExternalSemaphoreWaitParams* params, unsigned int count, hipStream_t stream) {
  std::vector<ExternalSemaphore*> list;
  if (hipError_t e = semaphores_of(array, params, count, list)) return e;
  return submit(stream, Uncapturable{[list] {
                  auto& rt = runtime();
                  const double limit = rt.timeout > 0 ? rt.timeout : 10.0;
                  for (ExternalSemaphore* s : list) {
                    std::unique_lock lock(s->mutex);
                    if (!s->signalled.wait_for(lock, std::chrono::duration<double>(limit), [s] { return s->pending > 0; }))
                      rt.fail(fmt::format("hipWaitExternalSemaphoresAsync: the semaphore was not signalled within {} s (every "
                                          "operation runs when it is issued, so only another host thread could have signalled it)",
                                          limit));
                    --s->pending;
                  }
                  return hipSuccess;
                }});
}

}  // namespace gpuport::emu::hip
