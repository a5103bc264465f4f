// Stream-ordered allocation and memory pools: async allocations used by kernels in stream order,
// the pool's accounting (bytes in use, bytes held after frees until trimmed or released at a
// synchronization above the release threshold, high watermarks), pools made by the program,
// access descriptors, and sharing a pool and its pointers within the process.
// With the argument "use-after-free", a kernel writes memory freed by hipFreeAsync: the emulator
// must stop it (exit status 70) and name the freed hipMallocAsync block.
#include <hip/hip_runtime.h>

#include <unistd.h>

#include <cstring>
#include <vector>

#include "hip_check.h"

__global__ void iota(int* p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

static uint64_t attribute(hipMemPool_t pool, hipMemPoolAttr which) {
  uint64_t v = ~0ull;
  (void)hipMemPoolGetAttribute(pool, which, &v);
  return v;
}

int main(int argc, char** argv) {
  hipStream_t s;
  (void)hipStreamCreate(&s);
  if (argc > 1 && std::strcmp(argv[1], "use-after-free") == 0) {
    int* p;
    (void)hipMallocAsync(&p, 256 * sizeof(int), s);
    hipLaunchKernelGGL(iota, dim3(1), dim3(256), 0, s, p, 0, 256);
    (void)hipFreeAsync(p, s);
    hipLaunchKernelGGL(iota, dim3(1), dim3(256), 0, s, p, 0, 256);  // after the free, in stream order
    (void)hipStreamSynchronize(s);
    std::printf("not reached\n");
    return 0;
  }

  int supported = 0;
  EXPECT_OK(hipDeviceGetAttribute(&supported, hipDeviceAttributeMemoryPoolsSupported, 0));
  EXPECT(supported == 1);
  hipMemPool_t def, current;
  EXPECT_OK(hipDeviceGetDefaultMemPool(&def, 0));
  EXPECT_OK(hipDeviceGetMemPool(&current, 0));
  EXPECT(def != nullptr && current == def);
  EXPECT_ERROR(hipDeviceGetDefaultMemPool(&def, 1), hipErrorInvalidDevice);

  // Async allocations, used in stream order by kernels.
  const int n = 1000;
  int *a, *b;
  EXPECT_OK(hipMallocAsync(&a, n * sizeof(int), s));
  EXPECT_OK(hipMallocAsync(&b, 3 * n * sizeof(int), s));
  EXPECT(attribute(def, hipMemPoolAttrUsedMemCurrent) == 4 * n * sizeof(int));
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) >= 4 * n * sizeof(int));
  hipLaunchKernelGGL(iota, dim3((n + 255) / 256), dim3(256), 0, s, a, 7, n);
  EXPECT_OK(hipMemcpyAsync(b, a, n * sizeof(int), hipMemcpyDeviceToDevice, s));
  std::vector<int> got(n);
  EXPECT_OK(hipMemcpyAsync(got.data(), b, n * sizeof(int), hipMemcpyDeviceToHost, s));
  EXPECT_OK(hipStreamSynchronize(s));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && got[i] == 7 + i;
  EXPECT(ok);
  hipPointerAttribute_t where;
  EXPECT_OK(hipPointerGetAttributes(&where, b));
  EXPECT(memory_type(where) == hipMemoryTypeDevice);

  // Frees: the bytes leave "in use" and stay held by the pool until trimmed or released.
  EXPECT_OK(hipFreeAsync(a, s));
  EXPECT(attribute(def, hipMemPoolAttrUsedMemCurrent) == 3 * n * sizeof(int));
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) == 4 * n * sizeof(int));
  EXPECT(attribute(def, hipMemPoolAttrUsedMemHigh) == 4 * n * sizeof(int));
  uint64_t threshold = 1ull << 30;
  EXPECT_OK(hipMemPoolSetAttribute(def, hipMemPoolAttrReleaseThreshold, &threshold));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) == 4 * n * sizeof(int));  // under the threshold: kept
  EXPECT_OK(hipMemPoolTrimTo(def, 3 * n * sizeof(int) + 100));
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) == 3 * n * sizeof(int) + 100);
  EXPECT_OK(hipMemPoolTrimTo(def, 0));
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) == 3 * n * sizeof(int));  // what is in use stays
  EXPECT_OK(hipFreeAsync(b, s));
  threshold = 0;
  EXPECT_OK(hipMemPoolSetAttribute(def, hipMemPoolAttrReleaseThreshold, &threshold));
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) == 3 * n * sizeof(int));
  EXPECT_OK(hipDeviceSynchronize());  // a synchronization releases what is above the threshold
  EXPECT(attribute(def, hipMemPoolAttrReservedMemCurrent) == 0);
  EXPECT(attribute(def, hipMemPoolAttrUsedMemCurrent) == 0);
  EXPECT(attribute(def, hipMemPoolAttrReservedMemHigh) == 4 * n * sizeof(int));
  uint64_t zero = 0, nonzero = 5;
  EXPECT_OK(hipMemPoolSetAttribute(def, hipMemPoolAttrUsedMemHigh, &zero));
  EXPECT_OK(hipMemPoolSetAttribute(def, hipMemPoolAttrReservedMemHigh, &zero));
  EXPECT(attribute(def, hipMemPoolAttrUsedMemHigh) == 0 && attribute(def, hipMemPoolAttrReservedMemHigh) == 0);
  EXPECT_ERROR(hipMemPoolSetAttribute(def, hipMemPoolAttrUsedMemHigh, &nonzero), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemPoolSetAttribute(def, hipMemPoolAttrUsedMemCurrent, &zero), hipErrorInvalidValue);
  int reuse = -1, off = 0;
  EXPECT_OK(hipMemPoolGetAttribute(def, hipMemPoolReuseFollowEventDependencies, &reuse));
  EXPECT(reuse == 1);
  EXPECT_OK(hipMemPoolSetAttribute(def, hipMemPoolReuseAllowOpportunistic, &off));
  EXPECT_OK(hipMemPoolGetAttribute(def, hipMemPoolReuseAllowOpportunistic, &reuse));
  EXPECT(reuse == 0);
  EXPECT_OK(hipMemPoolGetAttribute(def, hipMemPoolReuseAllowInternalDependencies, &reuse));
  EXPECT(reuse == 1);

  EXPECT_ERROR(hipMallocAsync(nullptr, 16, s), hipErrorInvalidValue);
  EXPECT_ERROR(hipMallocAsync(reinterpret_cast<void**>(&a), 0, s), hipErrorInvalidValue);
  EXPECT_ERROR(hipFreeAsync(nullptr, s), hipErrorInvalidValue);
  int on_stack = 0;
  EXPECT_ERROR(hipFreeAsync(&on_stack, s), hipErrorInvalidValue);

  // A pool of the program's own, made the device's current pool.
  hipMemPoolProps props = {};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location.type = hipMemLocationTypeDevice;
  props.location.id = 0;
  hipMemPool_t pool;
  EXPECT_OK(hipMemPoolCreate(&pool, &props));
  hipMemPoolProps bad = props;
  bad.allocType = hipMemAllocationTypeInvalid;
  EXPECT_ERROR(hipMemPoolCreate(&pool, &bad), hipErrorInvalidValue);
  bad = props;
  bad.location.id = 3;
  EXPECT_ERROR(hipMemPoolCreate(&pool, &bad), hipErrorInvalidValue);
  bad = props;
  bad.handleTypes = hipMemHandleTypeWin32;
  EXPECT_ERROR(hipMemPoolCreate(&pool, &bad), hipErrorNotSupported);
  int* c;
  EXPECT_OK(hipMallocFromPoolAsync(&c, 4096, pool, s));
  EXPECT(attribute(pool, hipMemPoolAttrUsedMemCurrent) == 4096 && attribute(def, hipMemPoolAttrUsedMemCurrent) == 0);
  EXPECT_OK(hipDeviceSetMemPool(0, pool));
  EXPECT_OK(hipDeviceGetMemPool(&current, 0));
  EXPECT(current == pool);
  int* d;
  EXPECT_OK(hipMallocAsync(&d, 100, s));  // from the current pool
  EXPECT(attribute(pool, hipMemPoolAttrUsedMemCurrent) == 4196);
  EXPECT_ERROR(hipDeviceSetMemPool(1, pool), hipErrorInvalidDevice);

  // Access: read-write from the one device; no other location to grant.
  hipMemAccessDesc desc = {};
  desc.location.type = hipMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = hipMemAccessFlagsProtReadWrite;
  EXPECT_OK(hipMemPoolSetAccess(pool, &desc, 1));
  hipMemAccessFlags flags = hipMemAccessFlagsProtNone;
  EXPECT_OK(hipMemPoolGetAccess(&flags, pool, &desc.location));
  EXPECT(flags == hipMemAccessFlagsProtReadWrite);
  desc.location.id = 1;
  EXPECT_ERROR(hipMemPoolSetAccess(pool, &desc, 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemPoolGetAccess(&flags, pool, &desc.location), hipErrorInvalidValue);

  // Sharing within the process: the handle and the exported pointer lead back to the same.
  int fd = -1;
  EXPECT_OK(hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0));
  EXPECT(fd >= 0);
  hipMemPool_t imported = nullptr;
  EXPECT_OK(hipMemPoolImportFromShareableHandle(&imported, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                                hipMemHandleTypePosixFileDescriptor, 0));
  EXPECT(imported == pool);
  EXPECT_ERROR(hipMemPoolImportFromShareableHandle(&imported, reinterpret_cast<void*>(static_cast<intptr_t>(0)),
                                                   hipMemHandleTypePosixFileDescriptor, 0),
               hipErrorInvalidValue);  // stdin names no pool
  hipMemPoolPtrExportData data;
  EXPECT_OK(hipMemPoolExportPointer(&data, c));
  void* back = nullptr;
  EXPECT_OK(hipMemPoolImportPointer(&back, imported, &data));
  EXPECT(back == c);
  int* e;
  EXPECT_OK(hipMallocFromPoolAsync(&e, 64, def, s));
  EXPECT_ERROR(hipMemPoolExportPointer(&data, e), hipErrorInvalidValue);  // its pool allows no export
  EXPECT_ERROR(hipMemPoolExportToShareableHandle(&fd, def, hipMemHandleTypePosixFileDescriptor, 0), hipErrorInvalidValue);
  hipMemPoolPtrExportData foreign = data;
  const uint64_t other_pid = static_cast<uint64_t>(getpid()) + 1;
  std::memcpy(foreign.reserved + 8, &other_pid, sizeof other_pid);  // as if exported by another process
  EXPECT_ERROR(hipMemPoolImportPointer(&back, imported, &foreign), hipErrorNotSupported);
  close(fd);

  // Destroying pools: never the default; the current one falls back to the default.
  EXPECT_OK(hipFreeAsync(c, s));
  EXPECT_OK(hipFreeAsync(d, s));
  EXPECT_OK(hipFreeAsync(e, s));
  EXPECT_ERROR(hipMemPoolDestroy(def), hipErrorInvalidValue);
  EXPECT_OK(hipMemPoolDestroy(pool));
  EXPECT_ERROR(hipMemPoolDestroy(pool), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemPoolTrimTo(pool, 0), hipErrorInvalidValue);
  EXPECT_OK(hipDeviceGetMemPool(&current, 0));
  EXPECT(current == def);

  // Not capturable in HIP 5.2 (its graphs have no allocation node).
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_ERROR(hipMallocAsync(reinterpret_cast<void**>(&a), 64, s), hipErrorStreamCaptureUnsupported);
  hipGraph_t g = nullptr;
  EXPECT_ERROR(hipStreamEndCapture(s, &g), hipErrorStreamCaptureInvalidated);
  EXPECT_OK(hipStreamDestroy(s));
  return finish("pools");
}
