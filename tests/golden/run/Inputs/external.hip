// External memory and semaphores in the emulator's HIP runtime: memory the host writes through
// its own mapping of a memfd is imported with hipImportExternalMemory, mapped as buffers at
// offsets and read and written by a kernel (results against a CPU reference, seen again through
// the host's mapping); opaque-fd semaphores signalled and waited on through streams, a wait
// released by another host thread's signal, capture refused; unsupported handle types and
// misuse refused with HIP's errors.
// Usage: external [use-after-destroy | wait-forever]
#include <hip/hip_runtime.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "hip_check.h"

__global__ void transform(const int* in, int* out, int* in_place, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = 2 * in[i] + 1;
    in_place[i] += 100;
  }
}

__global__ void touch(int* p) { p[threadIdx.x] = 1; }

static int memory_file(size_t bytes) {
  const int fd = memfd_create("external-test", 0);
  if (fd >= 0 && ftruncate(fd, static_cast<off_t>(bytes)) != 0) return -1;
  return fd;
}

static hipExternalMemoryHandleDesc fd_desc(int fd, unsigned long long size) {
  hipExternalMemoryHandleDesc d;
  std::memset(&d, 0, sizeof d);
  d.type = hipExternalMemoryHandleTypeOpaqueFd;
  d.handle.fd = fd;
  d.size = size;
  return d;
}

static hipExternalSemaphore_t import_semaphore() {
  hipExternalSemaphoreHandleDesc d;
  std::memset(&d, 0, sizeof d);
  d.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  d.handle.fd = memory_file(4096);
  hipExternalSemaphore_t s = nullptr;
  EXPECT_OK(hipImportExternalSemaphore(&s, &d));
  return s;
}

int main(int argc, char** argv) {
  const bool use_after_destroy = argc > 1 && std::strcmp(argv[1], "use-after-destroy") == 0;
  const bool wait_forever = argc > 1 && std::strcmp(argv[1], "wait-forever") == 0;

  // ---- memory: the host writes a memfd, a kernel reads and writes it through the import ----
  constexpr size_t kPage = 4096, kBytes = 4 * kPage;
  const int fd = memory_file(kBytes);
  EXPECT(fd >= 0);
  int* host = static_cast<int*>(mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  EXPECT(host != reinterpret_cast<int*>(-1));  // MAP_FAILED
  const int n = static_cast<int>(kPage / sizeof(int));  // one page of ints per buffer
  for (int i = 0; i < static_cast<int>(kBytes / sizeof(int)); ++i) host[i] = 7 * i - 300;
  const std::vector<int> before(host, host + kBytes / sizeof(int));

  hipExternalMemory_t memory = nullptr;
  hipExternalMemoryHandleDesc desc = fd_desc(fd, kBytes);
  EXPECT_OK(hipImportExternalMemory(&memory, &desc));
  hipExternalMemoryBufferDesc buffer;
  std::memset(&buffer, 0, sizeof buffer);
  buffer.offset = kPage;  // the second page, read
  buffer.size = kPage;
  int* input = nullptr;
  EXPECT_OK(hipExternalMemoryGetMappedBuffer(reinterpret_cast<void**>(&input), memory, &buffer));
  buffer.offset = 3 * kPage;  // the fourth page, updated in place
  int* in_place = nullptr;
  EXPECT_OK(hipExternalMemoryGetMappedBuffer(reinterpret_cast<void**>(&in_place), memory, &buffer));
  hipPointerAttribute_t attributes;
  EXPECT_OK(hipPointerGetAttributes(&attributes, input));
  EXPECT(memory_type(attributes) == hipMemoryTypeDevice);

  if (use_after_destroy) {
    EXPECT_OK(hipDestroyExternalMemory(memory));
    touch<<<1, 32>>>(input);  // stopped: the memory is gone
    EXPECT_OK(hipDeviceSynchronize());
    std::printf("not reached\n");
    return 1;
  }

  int* output = nullptr;
  EXPECT_OK(hipMalloc(&output, n * sizeof(int)));
  transform<<<(n + 255) / 256, 256>>>(input, output, in_place, n);
  std::vector<int> got(n);
  EXPECT_OK(hipMemcpy(got.data(), output, n * sizeof(int), hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != 2 * before[n + i] + 1;
  EXPECT(wrong == 0);
  int changed = 0, kept = 0;
  for (int i = 0; i < static_cast<int>(kBytes / sizeof(int)); ++i) {
    if (i >= 3 * n) changed += host[i] != before[i] + 100;  // the host's own mapping sees the kernel's writes
    else kept += host[i] != before[i];
  }
  EXPECT(changed == 0);
  EXPECT(kept == 0);
  // hipMemcpy to and from the mapped buffer.
  std::vector<int> ones(n, 1);
  EXPECT_OK(hipMemcpy(input, ones.data(), n * sizeof(int), hipMemcpyHostToDevice));
  EXPECT(host[n] == 1 && host[2 * n - 1] == 1);

  // Buffers must lie inside the memory; only flags 0.
  void* p = nullptr;
  buffer.offset = 3 * kPage + 4;
  EXPECT_ERROR(hipExternalMemoryGetMappedBuffer(&p, memory, &buffer), hipErrorInvalidValue);
  buffer.offset = 0;
  buffer.size = 0;
  EXPECT_ERROR(hipExternalMemoryGetMappedBuffer(&p, memory, &buffer), hipErrorInvalidValue);
  buffer.size = kBytes;
  buffer.flags = 1;
  EXPECT_ERROR(hipExternalMemoryGetMappedBuffer(&p, memory, &buffer), hipErrorInvalidValue);
  buffer.flags = 0;
  EXPECT_OK(hipExternalMemoryGetMappedBuffer(&p, memory, &buffer));
  EXPECT(p == input - n);
  EXPECT_OK(hipDestroyExternalMemory(memory));
  EXPECT_ERROR(hipDestroyExternalMemory(memory), hipErrorInvalidValue);
  EXPECT_ERROR(hipExternalMemoryGetMappedBuffer(&p, memory, &buffer), hipErrorInvalidValue);
  EXPECT(host[3 * n] == before[3 * n] + 100);  // the host's mapping outlives the import

  // Imports that cannot be: a size past the file's end, no size, a bad descriptor, other handle types.
  hipExternalMemory_t other = nullptr;
  const int small = memory_file(kPage);
  desc = fd_desc(small, 2 * kPage);
  EXPECT_ERROR(hipImportExternalMemory(&other, &desc), hipErrorInvalidValue);
  desc = fd_desc(small, 0);
  EXPECT_ERROR(hipImportExternalMemory(&other, &desc), hipErrorInvalidValue);
  desc = fd_desc(-1, kPage);
  EXPECT_ERROR(hipImportExternalMemory(&other, &desc), hipErrorInvalidValue);
  desc = fd_desc(small, kPage);
  desc.type = hipExternalMemoryHandleTypeOpaqueWin32;
  EXPECT_ERROR(hipImportExternalMemory(&other, &desc), hipErrorNotSupported);
  desc.type = hipExternalMemoryHandleTypeD3D12Resource;
  EXPECT_ERROR(hipImportExternalMemory(&other, &desc), hipErrorNotSupported);
  desc.type = static_cast<hipExternalMemoryHandleType>(42);
  EXPECT_ERROR(hipImportExternalMemory(&other, &desc), hipErrorInvalidValue);
  EXPECT_ERROR(hipImportExternalMemory(nullptr, &desc), hipErrorInvalidValue);

  // ---- semaphores ----
  hipExternalSemaphore_t a = import_semaphore(), b = import_semaphore();
  hipStream_t s1, s2;
  EXPECT_OK(hipStreamCreate(&s1));
  EXPECT_OK(hipStreamCreate(&s2));
  hipExternalSemaphoreSignalParams signal;
  hipExternalSemaphoreWaitParams wait;
  std::memset(&signal, 0, sizeof signal);
  std::memset(&wait, 0, sizeof wait);
  hipExternalSemaphore_t both[] = {a, b};
  hipExternalSemaphoreSignalParams signals[] = {signal, signal};
  hipExternalSemaphoreWaitParams waits[] = {wait, wait};
  EXPECT_OK(hipSignalExternalSemaphoresAsync(both, signals, 2, s1));
  EXPECT_OK(hipWaitExternalSemaphoresAsync(both, waits, 2, s2));
  EXPECT_OK(hipSignalExternalSemaphoresAsync(&a, &signal, 1, s1));
  EXPECT_OK(hipSignalExternalSemaphoresAsync(&a, &signal, 1, nullptr));
  EXPECT_OK(hipWaitExternalSemaphoresAsync(&a, &wait, 1, s2));  // two signals, two waits
  EXPECT_OK(hipWaitExternalSemaphoresAsync(&a, &wait, 1, s2));
  // A wait with nothing signalled is released by another host thread's signal.
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_OK(hipSignalExternalSemaphoresAsync(&b, &signal, 1, s1));
  });
  const auto start = std::chrono::steady_clock::now();
  EXPECT_OK(hipWaitExternalSemaphoresAsync(&b, &wait, 1, s2));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  late.join();
  EXPECT(waited >= 0.15);
  if (wait_forever) {
    EXPECT_OK(hipWaitExternalSemaphoresAsync(&a, &wait, 1, s2));  // nothing will signal it
    std::printf("not reached\n");
    return 1;
  }
  // HIP 5.2's graphs have no semaphore nodes: a capturing stream refuses them.
  hipGraph_t graph = nullptr;
  EXPECT_OK(hipStreamBeginCapture(s1, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipSignalExternalSemaphoresAsync(&a, &signal, 1, s1), hipErrorStreamCaptureUnsupported);
  EXPECT_ERROR(hipStreamEndCapture(s1, &graph), hipErrorStreamCaptureInvalidated);
  // Misuse and other handle types.
  EXPECT_ERROR(hipSignalExternalSemaphoresAsync(nullptr, &signal, 1, s1), hipErrorInvalidValue);
  EXPECT_ERROR(hipWaitExternalSemaphoresAsync(&a, nullptr, 1, s1), hipErrorInvalidValue);
  hipExternalSemaphore_t bogus = reinterpret_cast<hipExternalSemaphore_t>(&wrong);
  EXPECT_ERROR(hipSignalExternalSemaphoresAsync(&bogus, &signal, 1, s1), hipErrorInvalidValue);
  hipExternalSemaphoreHandleDesc sd;
  std::memset(&sd, 0, sizeof sd);
  hipExternalSemaphore_t c = nullptr;
  sd.type = hipExternalSemaphoreHandleTypeD3D12Fence;
  EXPECT_ERROR(hipImportExternalSemaphore(&c, &sd), hipErrorNotSupported);
  sd.type = hipExternalSemaphoreHandleTypeOpaqueWin32Kmt;
  EXPECT_ERROR(hipImportExternalSemaphore(&c, &sd), hipErrorNotSupported);
  sd.type = static_cast<hipExternalSemaphoreHandleType>(0);
  EXPECT_ERROR(hipImportExternalSemaphore(&c, &sd), hipErrorInvalidValue);
  sd.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  sd.handle.fd = -1;
  EXPECT_ERROR(hipImportExternalSemaphore(&c, &sd), hipErrorInvalidValue);
  EXPECT_OK(hipDestroyExternalSemaphore(a));
  EXPECT_OK(hipDestroyExternalSemaphore(b));
  EXPECT_ERROR(hipDestroyExternalSemaphore(a), hipErrorInvalidValue);
  EXPECT_ERROR(hipSignalExternalSemaphoresAsync(&a, &signal, 1, s1), hipErrorInvalidValue);
  return finish("external");
}
