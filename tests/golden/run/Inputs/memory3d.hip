// Pitched 3D and 2D linear memory and the rest of memory management, checked against a CPU model
// of the same bytes: hipMalloc3D, 3D memsets and copies with positions (synchronous, on a stream,
// captured), the parameter-block copies, range attributes of managed memory, address ranges and
// pointer attributes, and the per-thread-stream forms of the copies.
#include <hip/hip_runtime.h>

#include <unistd.h>

#include <cstring>
#include <vector>

#include "hip_check.h"

__device__ int symbol[8];

// A host picture of a pitched volume: byte (x, y, z) at z * pitch * rows + y * pitch + x.
struct Volume {
  size_t pitch, rows, slices;
  std::vector<unsigned char> bytes;
  Volume(size_t p, size_t r, size_t s, unsigned char fill = 0) : pitch(p), rows(r), slices(s), bytes(p * r * s, fill) {}
  unsigned char& at(size_t x, size_t y, size_t z) { return bytes[z * pitch * rows + y * pitch + x]; }
  hipPitchedPtr pitched() { return make_hipPitchedPtr(bytes.data(), pitch, pitch, rows); }
};

// What a 3D copy or memset does, on the models.
static void model_copy(Volume& dst, hipPos dp, Volume& src, hipPos sp, hipExtent e) {
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y)
      for (size_t x = 0; x < e.width; ++x) dst.at(dp.x + x, dp.y + y, dp.z + z) = src.at(sp.x + x, sp.y + y, sp.z + z);
}
static void model_set(Volume& v, hipPos p, hipExtent e, unsigned char value) {
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y)
      for (size_t x = 0; x < e.width; ++x) v.at(p.x + x, p.y + y, p.z + z) = value;
}

// The device volume's used bytes (width x rows x slices) equal the model's.
static bool same(hipPitchedPtr device, Volume& model, size_t width) {
  Volume back(width, model.rows, model.slices, 0xee);
  hipMemcpy3DParms p = {};
  p.srcPtr = device;
  p.dstPtr = back.pitched();
  p.extent = make_hipExtent(width, model.rows, model.slices);
  p.kind = hipMemcpyDeviceToHost;
  if (hipMemcpy3D(&p) != hipSuccess) return false;
  for (size_t z = 0; z < model.slices; ++z)
    for (size_t y = 0; y < model.rows; ++y)
      for (size_t x = 0; x < width; ++x)
        if (back.at(x, y, z) != model.at(x, y, z)) return false;
  return true;
}

static void volumes() {
  const hipExtent whole = make_hipExtent(100, 7, 5);
  hipPitchedPtr dev;
  EXPECT_OK(hipMalloc3D(&dev, whole));
  EXPECT(dev.ptr != nullptr && dev.pitch >= 100 && dev.xsize == 100 && dev.ysize == 7);
  Volume model(dev.pitch, 7, 5);  // the device volume's bytes, as they should be

  EXPECT_OK(hipMemset3D(dev, 0x11, whole));
  model_set(model, make_hipPos(0, 0, 0), whole, 0x11);
  // A sub-volume: a pitched pointer into the middle, slices still dev.ysize rows apart.
  hipPitchedPtr middle = dev;
  middle.ptr = static_cast<char*>(dev.ptr) + 1 * dev.pitch * 7 + 2 * dev.pitch + 10;
  EXPECT_OK(hipMemset3D(middle, 0x22, make_hipExtent(30, 3, 2)));
  model_set(model, make_hipPos(10, 2, 1), make_hipExtent(30, 3, 2), 0x22);
  EXPECT(same(dev, model, 100));

  // A box of a host volume into the device volume, at positions in both.
  Volume host(40, 6, 4);
  for (size_t i = 0; i < host.bytes.size(); ++i) host.bytes[i] = static_cast<unsigned char>(i * 7 + 3);
  hipMemcpy3DParms up = {};
  up.srcPtr = host.pitched();
  up.srcPos = make_hipPos(4, 1, 1);
  up.dstPtr = dev;
  up.dstPos = make_hipPos(50, 3, 2);
  up.extent = make_hipExtent(20, 3, 2);
  up.kind = hipMemcpyHostToDevice;
  EXPECT_OK(hipMemcpy3D(&up));
  model_copy(model, up.dstPos, host, up.srcPos, up.extent);
  EXPECT(same(dev, model, 100));
  EXPECT_OK(hipMemcpy3D_spt(&up));

  // On a stream, and captured into a graph (a memset whose slices are apart is one node each).
  hipStream_t s;
  EXPECT_OK(hipStreamCreate(&s));
  EXPECT_OK(hipMemset3DAsync(middle, 0x33, make_hipExtent(5, 2, 3), s));
  model_set(model, make_hipPos(10, 2, 1), make_hipExtent(5, 2, 3), 0x33);
  up.srcPos = make_hipPos(0, 0, 0);
  up.dstPos = make_hipPos(0, 0, 0);
  EXPECT_OK(hipMemcpy3DAsync(&up, s));
  model_copy(model, up.dstPos, host, up.srcPos, up.extent);
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(same(dev, model, 100));
  hipGraph_t g;
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipMemset3DAsync(dev, 0x44, make_hipExtent(8, 2, 5), s));
  up.dstPos = make_hipPos(2, 0, 4);
  up.extent = make_hipExtent(6, 1, 1);
  EXPECT_OK(hipMemcpy3DAsync(&up, s));
  EXPECT_OK(hipStreamEndCapture(s, &g));
  size_t nodes = 0;
  EXPECT_OK(hipGraphGetNodes(g, nullptr, &nodes));
  EXPECT(nodes == 6);  // five slice memsets and a copy
  EXPECT(same(dev, model, 100));  // nothing ran yet
  hipGraphExec_t exec;
  EXPECT_OK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  model_set(model, make_hipPos(0, 0, 0), make_hipExtent(8, 2, 5), 0x44);
  model_copy(model, up.dstPos, host, up.srcPos, up.extent);
  EXPECT(same(dev, model, 100));
  EXPECT_OK(hipGraphExecDestroy(exec));
  EXPECT_OK(hipGraphDestroy(g));

  // Refusals: a handle that is no array, bad directions and pitches, null pointers.
  hipMemcpy3DParms bad = up;
  bad.dstArray = reinterpret_cast<hipArray*>(0x1000);
  EXPECT_ERROR(hipMemcpy3D(&bad), hipErrorInvalidValue);
  bad = up;
  bad.kind = static_cast<hipMemcpyKind>(7);
  EXPECT_ERROR(hipMemcpy3D(&bad), hipErrorInvalidMemcpyDirection);
  bad = up;
  bad.extent = make_hipExtent(41, 2, 1);  // wider than the host volume's 40-byte pitch
  EXPECT_ERROR(hipMemcpy3D(&bad), hipErrorInvalidPitchValue);
  bad = up;
  bad.srcPtr.ptr = nullptr;
  EXPECT_ERROR(hipMemcpy3D(&bad), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemcpy3D(nullptr), hipErrorInvalidValue);
  bad = up;
  bad.extent = make_hipExtent(4, 7, 2);  // more rows than a slice of the host volume has
  EXPECT_ERROR(hipMemcpy3D(&bad), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemset3D(make_hipPitchedPtr(nullptr, 128, 100, 7), 0, whole), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemset3D(dev, 0, make_hipExtent(dev.pitch + 1, 1, 1)), hipErrorInvalidPitchValue);

  // Parameter-block 2D copies: a 20 x 4 box from (5, 2) of slice 0 to (1, 0) of a host picture.
  Volume picture(64, 4, 1, 0xee), expected(64, 4, 1, 0xee);
  model_copy(expected, make_hipPos(1, 0, 0), model, make_hipPos(5, 2, 0), make_hipExtent(20, 4, 1));
  hip_Memcpy2D c = {};
  c.srcMemoryType = hipMemoryTypeDevice;
  c.srcDevice = dev.ptr;
  c.srcXInBytes = 5;
  c.srcY = 2;
  c.srcPitch = dev.pitch;
  c.dstMemoryType = hipMemoryTypeHost;
  c.dstHost = picture.bytes.data();
  c.dstXInBytes = 1;
  c.dstPitch = 64;
  c.WidthInBytes = 20;
  c.Height = 4;
  EXPECT_OK(hipMemcpyParam2D(&c));
  EXPECT(picture.bytes == expected.bytes);
  std::fill(picture.bytes.begin(), picture.bytes.end(), 0xee);
  EXPECT_OK(hipMemcpyParam2DAsync(&c, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(picture.bytes == expected.bytes);
  std::fill(picture.bytes.begin(), picture.bytes.end(), 0xee);
  EXPECT_OK(hipDrvMemcpy2DUnaligned(&c));
  EXPECT(picture.bytes == expected.bytes);
  hip_Memcpy2D bad2 = c;
  bad2.dstMemoryType = hipMemoryTypeArray;
  bad2.dstArray = reinterpret_cast<hipArray*>(0x1000);
  EXPECT_ERROR(hipMemcpyParam2D(&bad2), hipErrorInvalidValue);
  bad2 = c;
  bad2.srcMemoryType = static_cast<hipMemoryType>(9);
  EXPECT_ERROR(hipMemcpyParam2D(&bad2), hipErrorInvalidValue);

  // The driver's 3D copy: slices 3 and 4, rows 1..2, bytes 10..39 of the device volume into a
  // host volume of 32-byte rows, 2 rows a slice, at its origin.
  Volume out(32, 2, 2, 0xee), out_expected(32, 2, 2, 0xee);
  model_copy(out_expected, make_hipPos(0, 0, 0), model, make_hipPos(10, 1, 3), make_hipExtent(30, 2, 2));
  HIP_MEMCPY3D d3 = {};
  d3.srcMemoryType = hipMemoryTypeDevice;
  d3.srcDevice = dev.ptr;
  d3.srcXInBytes = 10;
  d3.srcY = 1;
  d3.srcZ = 3;
  d3.srcPitch = static_cast<unsigned>(dev.pitch);
  d3.srcHeight = 7;
  d3.dstMemoryType = hipMemoryTypeHost;
  d3.dstHost = out.bytes.data();
  d3.dstPitch = 32;
  d3.dstHeight = 2;
  d3.WidthInBytes = 30;
  d3.Height = 2;
  d3.Depth = 2;
  EXPECT_OK(hipDrvMemcpy3D(&d3));
  EXPECT(out.bytes == out_expected.bytes);
  std::fill(out.bytes.begin(), out.bytes.end(), 0xee);
  EXPECT_OK(hipDrvMemcpy3DAsync(&d3, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT(out.bytes == out_expected.bytes);
  d3.srcLOD = 1;
  EXPECT_ERROR(hipDrvMemcpy3D(&d3), hipErrorInvalidValue);

  hipDeviceptr_t pitched;
  size_t pitch = 0;
  EXPECT_OK(hipMemAllocPitch(&pitched, &pitch, 100, 3, 4));
  EXPECT(pitch >= 100);
  EXPECT_ERROR(hipMemAllocPitch(&pitched, &pitch, 100, 3, 3), hipErrorInvalidValue);
  EXPECT_OK(hipFree(pitched));
  EXPECT_OK(hipFree(dev.ptr));
  EXPECT_OK(hipStreamDestroy(s));
}

static void ranges_and_pointers() {
  const size_t page = 4096;
  char* m;
  EXPECT_OK(hipMallocManaged(reinterpret_cast<void**>(&m), 3 * page, hipMemAttachGlobal));
  EXPECT_ERROR(hipMallocManaged(reinterpret_cast<void**>(&m), 16, 9), hipErrorInvalidValue);
  int v = -9;
  int three[3];
  EXPECT_OK(hipMemAdvise(m, page, hipMemAdviseSetReadMostly, 0));
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, m, page));
  EXPECT(v == 1);
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, m, 3 * page));
  EXPECT(v == 0);  // not over all of it
  EXPECT_OK(hipMemAdvise(m, 3 * page, hipMemAdviseSetPreferredLocation, 0));
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributePreferredLocation, m, 3 * page));
  EXPECT(v == 0);
  EXPECT_OK(hipMemAdvise(m + 2 * page, 1, hipMemAdviseUnsetPreferredLocation, 0));
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributePreferredLocation, m, 3 * page));
  EXPECT(v == hipInvalidDeviceId);
  EXPECT_OK(hipMemAdvise(m, 3 * page, hipMemAdviseSetAccessedBy, hipCpuDeviceId));
  EXPECT_OK(hipMemAdvise(m + page, page, hipMemAdviseSetAccessedBy, 0));
  EXPECT_OK(hipMemRangeGetAttribute(three, sizeof three, hipMemRangeAttributeAccessedBy, m, 3 * page));
  EXPECT(three[0] == hipCpuDeviceId && three[1] == hipInvalidDeviceId && three[2] == hipInvalidDeviceId);
  EXPECT_OK(hipMemRangeGetAttribute(three, sizeof three, hipMemRangeAttributeAccessedBy, m + page, page));
  // Both locations, in either order, then the filler.
  EXPECT(((three[0] == 0 && three[1] == hipCpuDeviceId) || (three[0] == hipCpuDeviceId && three[1] == 0)) &&
         three[2] == hipInvalidDeviceId);
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeLastPrefetchLocation, m, page));
  EXPECT(v == hipInvalidDeviceId);  // never prefetched
  hipStream_t s;
  EXPECT_OK(hipStreamCreate(&s));
  EXPECT_OK(hipMemPrefetchAsync(m, 2 * page, 0, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeLastPrefetchLocation, m, 2 * page));
  EXPECT(v == 0);
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeLastPrefetchLocation, m, 3 * page));
  EXPECT(v == hipInvalidDeviceId);
  EXPECT_OK(hipMemAdvise(m, page, hipMemAdviseSetCoarseGrain, 0));
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeCoherencyMode, m, 3 * page));
  EXPECT(v == hipMemRangeCoherencyModeIndeterminate);
  EXPECT_OK(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeCoherencyMode, m, page));
  EXPECT(v == hipMemRangeCoherencyModeCoarseGrain);
  int read_mostly = -1, preferred = -1;
  void* data[2] = {&read_mostly, &preferred};
  size_t sizes[2] = {4, 4};
  hipMemRangeAttribute which[2] = {hipMemRangeAttributeReadMostly, hipMemRangeAttributePreferredLocation};
  EXPECT_OK(hipMemRangeGetAttributes(data, sizes, which, 2, m, page));
  EXPECT(read_mostly == 1 && preferred == 0);
  EXPECT_ERROR(hipMemRangeGetAttribute(&v, 3, hipMemRangeAttributeReadMostly, m, page), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemAdvise(m, page, hipMemAdviseSetPreferredLocation, 5), hipErrorInvalidDevice);
  EXPECT_ERROR(hipMemAdvise(m, 4 * page, hipMemAdviseSetReadMostly, 0), hipErrorInvalidValue);  // past its end
  void* plain;
  EXPECT_OK(hipMalloc(&plain, 64));
  EXPECT_ERROR(hipMemRangeGetAttribute(&v, 4, hipMemRangeAttributeReadMostly, plain, 64), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemPrefetchAsync(plain, 64, 0, s), hipErrorInvalidValue);
  EXPECT_OK(hipStreamAttachMemAsync(s, m, 0, hipMemAttachGlobal));
  EXPECT_ERROR(hipStreamAttachMemAsync(s, m, 0, 9), hipErrorInvalidValue);
  EXPECT_ERROR(hipStreamAttachMemAsync(s, m, page, hipMemAttachSingle), hipErrorInvalidValue);

  // Address ranges and pointer attributes.
  char* block;
  EXPECT_OK(hipMalloc(reinterpret_cast<void**>(&block), 1000));
  hipDeviceptr_t base = nullptr;
  size_t size = 0;
  EXPECT_OK(hipMemGetAddressRange(&base, &size, block + 123));
  EXPECT(base == block && size == 1000);
  int local = 0;
  EXPECT_ERROR(hipMemGetAddressRange(&base, &size, &local), hipErrorInvalidDevicePointer);
  EXPECT_OK(hipMemPtrGetInfo(block, &size));
  EXPECT(size == 1000);
  unsigned type = 99, managed = 99;
  void* device_pointer = nullptr;
  void* start = nullptr;
  size_t range = 0;
  int ordinal = -1;
  EXPECT_OK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, block + 10));
  EXPECT(type == hipMemoryTypeDevice);
  EXPECT_OK(hipPointerGetAttribute(&device_pointer, HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, block + 10));
  EXPECT(device_pointer == block + 10);
  EXPECT_OK(hipPointerGetAttribute(&start, HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR, block + 10));
  EXPECT_OK(hipPointerGetAttribute(&range, HIP_POINTER_ATTRIBUTE_RANGE_SIZE, block + 10));
  EXPECT(start == block && range == 1000);
  EXPECT_OK(hipPointerGetAttribute(&managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED, m));
  EXPECT(managed == 1);
  EXPECT_OK(hipPointerGetAttribute(&managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED, block));
  EXPECT(managed == 0);
  EXPECT_OK(hipPointerGetAttribute(&ordinal, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL, block));
  EXPECT(ordinal == 0);
  EXPECT_ERROR(hipPointerGetAttribute(&start, HIP_POINTER_ATTRIBUTE_HOST_POINTER, block), hipErrorInvalidValue);
  EXPECT_ERROR(hipPointerGetAttribute(&start, HIP_POINTER_ATTRIBUTE_CONTEXT, block), hipErrorInvalidValue);
  EXPECT_ERROR(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, &local), hipErrorInvalidValue);
  void* host;
  EXPECT_OK(hipMemAllocHost(&host, 256));
  EXPECT_OK(hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, host));
  EXPECT(type == hipMemoryTypeHost);
  hipPointer_attribute attributes[3] = {HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, HIP_POINTER_ATTRIBUTE_HOST_POINTER,
                                        HIP_POINTER_ATTRIBUTE_RANGE_SIZE};
  void* host_pointer = nullptr;
  void* results[3] = {&type, &host_pointer, &range};
  EXPECT_OK(hipDrvPointerGetAttributes(3, attributes, results, static_cast<char*>(host) + 8));
  EXPECT(type == hipMemoryTypeHost && host_pointer == static_cast<char*>(host) + 8 && range == 256);
  void* mapped;
  unsigned host_flags = 0;
  EXPECT_OK(hipHostMalloc(&mapped, 128, hipHostMallocMapped | hipHostMallocWriteCombined));
  EXPECT_OK(hipHostGetFlags(&host_flags, static_cast<char*>(mapped) + 100));
  EXPECT(host_flags == (hipHostMallocMapped | hipHostMallocWriteCombined));
  static char registered[256];
  EXPECT_OK(hipHostRegister(registered, sizeof registered, hipHostRegisterPortable));
  EXPECT_OK(hipHostGetFlags(&host_flags, registered));
  EXPECT(host_flags == hipHostRegisterPortable);
  EXPECT_OK(hipHostUnregister(registered));
  EXPECT_ERROR(hipHostGetFlags(&host_flags, registered), hipErrorInvalidValue);
  EXPECT_ERROR(hipHostGetFlags(&host_flags, block), hipErrorInvalidValue);  // device memory
  EXPECT_OK(hipHostFree(mapped));
  hipPointerAttribute_t all;
  EXPECT_OK(hipPointerGetAttributes(&all, m));
  EXPECT(all.isManaged == 1);
#if HIP_VERSION_MAJOR >= 6
  // HIP 6 reports managed memory as such (its hipMemoryType has the enumerator, as CUDA's does);
  // HIP 5 as device memory.
  EXPECT(all.type == hipMemoryTypeManaged);
  unsigned managed_type = 0;
  EXPECT_OK(hipPointerGetAttribute(&managed_type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<hipDeviceptr_t>(m)));
  EXPECT(managed_type == hipMemoryTypeManaged);
#else
  EXPECT(all.memoryType == hipMemoryTypeDevice);
#endif
  for (void* p : {static_cast<void*>(m), plain, static_cast<void*>(block)}) EXPECT_OK(hipFree(p));
  EXPECT_OK(hipHostFree(host));
  EXPECT_OK(hipStreamDestroy(s));
}

// The copies of programs built for the per-thread default stream.
static void per_thread_forms() {
  int h[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {};
  int* d;
  EXPECT_OK(hipMalloc(&d, sizeof h));
  EXPECT_OK(hipMemcpy_spt(d, h, sizeof h, hipMemcpyHostToDevice));
  EXPECT_OK(hipMemset_spt(d, 0, sizeof(int)));
  EXPECT_OK(hipMemcpyAsync_spt(back, d, sizeof h, hipMemcpyDeviceToHost, nullptr));
  EXPECT_OK(hipStreamSynchronize(hipStreamPerThread));
  EXPECT(back[0] == 0 && back[7] == 8);
  EXPECT_OK(hipMemcpyToSymbol_spt(HIP_SYMBOL(symbol), h, sizeof h, 0, hipMemcpyHostToDevice));
  EXPECT_OK(hipMemcpyFromSymbol_spt(back, HIP_SYMBOL(symbol), 2 * sizeof(int), 4 * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(back[0] == 5 && back[1] == 6);
  EXPECT_OK(hipMemset2D_spt(d, 4 * sizeof(int), 0xff, sizeof(int), 2));  // d[0] and d[4]
  EXPECT_OK(hipMemcpy2D_spt(back, sizeof(int), d, 4 * sizeof(int), sizeof(int), 2, hipMemcpyDeviceToHost));
  EXPECT(back[0] == -1 && back[1] == -1);
  EXPECT_ERROR(hipMemcpyToSymbol(HIP_SYMBOL(symbol), h, sizeof h, 4, hipMemcpyHostToDevice), hipErrorInvalidValue);
  EXPECT_ERROR(hipMemcpy2D(back, 2, d, 16, 4, 2, hipMemcpyDeviceToHost), hipErrorInvalidPitchValue);
  EXPECT_ERROR(hipMemcpy(d + 4, h, sizeof h, hipMemcpyHostToDevice), hipErrorInvalidValue);  // past the block's end
  EXPECT_ERROR(hipMemcpyAsync(back, d + 7, 2 * sizeof(int), hipMemcpyDeviceToHost, nullptr), hipErrorInvalidValue);
  EXPECT_OK(hipFree(d));
}

__global__ void fill(int* p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}

// Virtual memory management: physical allocations mapped into reserved address ranges; the same
// allocation, exported and imported, mapped at a second address shows the same bytes.
static void virtual_memory(bool write_after_unmap) {
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = 0;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  size_t gran = 0, recommended = 0;
  EXPECT_OK(hipMemGetAllocationGranularity(&gran, &prop, hipMemAllocationGranularityMinimum));
  EXPECT_OK(hipMemGetAllocationGranularity(&recommended, &prop, hipMemAllocationGranularityRecommended));
  EXPECT(gran > 0 && (gran & (gran - 1)) == 0 && recommended % gran == 0);
  hipMemGenericAllocationHandle_t handle, imported, retained;
  EXPECT_ERROR(hipMemCreate(&handle, gran + 1, &prop, 0), hipErrorInvalidValue);
  hipMemAllocationProp bad = prop;
  bad.location.id = 2;
  EXPECT_ERROR(hipMemCreate(&handle, gran, &bad, 0), hipErrorInvalidValue);
  EXPECT_OK(hipMemCreate(&handle, 2 * gran, &prop, 0));
  hipMemAllocationProp read_back = {};
  EXPECT_OK(hipMemGetAllocationPropertiesFromHandle(&read_back, handle));
  EXPECT(read_back.type == hipMemAllocationTypePinned && read_back.requestedHandleType == hipMemHandleTypePosixFileDescriptor);

  void* range = nullptr;
  const size_t align = 16 * gran;
  EXPECT_OK(hipMemAddressReserve(&range, 4 * gran, align, nullptr, 0));
  EXPECT(range != nullptr && reinterpret_cast<uintptr_t>(range) % align == 0);
  char* base = static_cast<char*>(range);
  EXPECT_OK(hipMemMap(base + gran, 2 * gran, 0, handle, 0));
  EXPECT_ERROR(hipMemMap(base + 2 * gran, gran, 0, handle, 0), hipErrorInvalidValue);  // overlaps the mapping
  EXPECT_ERROR(hipMemMap(base + 3 * gran, 2 * gran, 0, handle, 0), hipErrorInvalidValue);  // past the range
  EXPECT_ERROR(hipMemMap(base, gran, gran, handle, 0), hipErrorInvalidValue);  // offsets must be 0
  hipMemAccessDesc access = {};
  access.location.type = hipMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = hipMemAccessFlagsProtReadWrite;
  EXPECT_OK(hipMemSetAccess(base + gran, 2 * gran, &access, 1));
  EXPECT_ERROR(hipMemSetAccess(base, gran, &access, 1), hipErrorInvalidValue);  // nothing mapped there
  unsigned long long flags = 0;
  EXPECT_OK(hipMemGetAccess(&flags, &access.location, base + gran + 8));
  EXPECT(flags == hipMemAccessFlagsProtReadWrite);
  const int n = static_cast<int>(2 * gran / sizeof(int));
  int* mapped = reinterpret_cast<int*>(base + gran);
  hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, 0, mapped, 5, n);
  std::vector<int> got(n);
  EXPECT_OK(hipMemcpy(got.data(), mapped, n * sizeof(int), hipMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && got[i] == 5 + i;
  EXPECT(ok);
  EXPECT_OK(hipMemRetainAllocationHandle(&retained, base + gran + 100));
  EXPECT(retained == handle);
  EXPECT_OK(hipMemRelease(retained));

  // The same memory through an imported handle, mapped at the range's start.
  int fd = -1;
  EXPECT_OK(hipMemExportToShareableHandle(&fd, handle, hipMemHandleTypePosixFileDescriptor, 0));
  EXPECT_OK(hipMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                            hipMemHandleTypePosixFileDescriptor));
  EXPECT(imported != handle);
  EXPECT_OK(hipMemMap(base, gran, 0, imported, 0));
  EXPECT_OK(hipMemSetAccess(base, gran, &access, 1));
  int first[4] = {};
  EXPECT_OK(hipMemcpy(first, base, sizeof first, hipMemcpyDeviceToHost));
  EXPECT(first[0] == 5 && first[3] == 8);
  EXPECT_ERROR(hipMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(static_cast<intptr_t>(-1)),
                                               hipMemHandleTypePosixFileDescriptor),
               hipErrorInvalidValue);
  close(fd);

  // Unmapped memory is gone; the range is freed once nothing is mapped in it.
  EXPECT_ERROR(hipMemUnmap(base + gran, gran), hipErrorInvalidValue);  // not a whole mapping
  EXPECT_OK(hipMemUnmap(base + gran, 2 * gran));
  EXPECT_ERROR(hipMemGetAccess(&flags, &access.location, base + gran), hipErrorInvalidValue);
  if (write_after_unmap) {
    hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, 0, mapped, 0, 64);
    (void)hipDeviceSynchronize();
    std::printf("not reached\n");
  }
  EXPECT_ERROR(hipMemAddressFree(range, 4 * gran), hipErrorInvalidValue);  // base is still mapped
  EXPECT_OK(hipMemUnmap(base, gran));
  EXPECT_OK(hipMemAddressFree(range, 4 * gran));
  EXPECT_ERROR(hipMemAddressFree(range, 4 * gran), hipErrorInvalidValue);
  EXPECT_OK(hipMemRelease(imported));
  EXPECT_OK(hipMemRelease(handle));
  EXPECT_ERROR(hipMemRelease(handle), hipErrorInvalidValue);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "write-after-unmap") == 0) {
    virtual_memory(true);
    return 0;
  }
  volumes();
  ranges_and_pointers();
  per_thread_forms();
  virtual_memory(false);
  return finish("memory3d");
}
