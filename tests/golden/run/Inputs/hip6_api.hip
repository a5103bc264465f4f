// The entry points HIP 6.4's libamdhip64.so.6 exports that HIP 5.2's lacks, on the emulator's
// runtime: per-thread-stream (_spt) forms, a stream's device, event record flags, error names
// through the driver API, array copies to and from device memory and between arrays, array
// descriptors, a kernel's handle from its host stub, cooperative module launches, graph
// instantiation parameters, uploads, nodes switched off in an instantiated graph, user objects
// (destructor runs when the last reference goes), graph memory attributes, hipGetProcAddress.
// Built against HIP 6.4 only (run/hip64-abi.test).
#include <hip/hip_runtime.h>

#include <cstring>
#include <vector>

#include "hip_check.h"

__global__ void add(int* data, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += value;
}

static int destroyed = 0;
static void destroy_counter(void* p) { destroyed += *static_cast<int*>(p); }

int main() {
  constexpr int n = 64;
  int* d = nullptr;
  EXPECT_OK(hipMalloc(&d, n * sizeof(int)));

  // ---- streams and events ----
  hipStream_t s;
  EXPECT_OK(hipStreamCreate(&s));
  hipDevice_t device = -1;
  EXPECT_OK(hipStreamGetDevice(s, &device));
  EXPECT(device == 0);
  EXPECT_OK(hipStreamGetDevice(nullptr, &device));
  EXPECT_OK(hipMemsetAsync_spt(d, 0, n * sizeof(int), nullptr));
  hipEvent_t e;
  EXPECT_OK(hipEventCreate(&e));
  EXPECT_OK(hipEventRecordWithFlags(e, s, hipEventRecordDefault));
  EXPECT_ERROR(hipEventRecordWithFlags(e, s, 0x40), hipErrorInvalidValue);
  EXPECT_OK(hipEventRecord_spt(e, nullptr));
  EXPECT_OK(hipStreamSynchronize_spt(nullptr));
  hipStreamCaptureStatus status;
  EXPECT_OK(hipStreamIsCapturing_spt(s, &status));
  EXPECT(status == hipStreamCaptureStatusNone);

  // ---- errors and devices ----
  const char* text = nullptr;
  EXPECT_OK(hipDrvGetErrorName(hipErrorInvalidValue, &text));
  EXPECT(std::strcmp(text, "hipErrorInvalidValue") == 0);
  EXPECT_OK(hipDrvGetErrorString(hipErrorOutOfMemory, &text));
  EXPECT(std::strcmp(text, hipGetErrorString(hipErrorOutOfMemory)) == 0);
  EXPECT(std::strcmp(hipGetErrorName(hipErrorInvalidTexture), "hipErrorInvalidTexture") == 0);
  int valid[1] = {0}, invalid[1] = {3};
  EXPECT_OK(hipSetValidDevices(valid, 1));
  EXPECT_ERROR(hipSetValidDevices(invalid, 1), hipErrorInvalidDevice);
  (void)hipExtGetLastError();  // clears what the refusal left
  EXPECT_OK(hipExtGetLastError());
  unsigned sync = 1;
  EXPECT_OK(hipPointerSetAttribute(&sync, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));

  // ---- arrays: device memory in and out, array to array, descriptors ----
  std::vector<int> in(n), out(n, -1);
  for (int i = 0; i < n; ++i) in[i] = i * 3 - 7;
  EXPECT_OK(hipMemcpy(d, in.data(), n * sizeof(int), hipMemcpyHostToDevice));
  HIP_ARRAY_DESCRIPTOR desc{16, 4, HIP_AD_FORMAT_SIGNED_INT32, 1};
  hipArray_t a = nullptr, b = nullptr;
  EXPECT_OK(hipArrayCreate(&a, &desc));
  EXPECT_OK(hipArrayCreate(&b, &desc));
  EXPECT_OK(hipMemcpyDtoA(a, 0, d, n * sizeof(int)));
  EXPECT_OK(hipMemcpyAtoA(b, 4 * sizeof(int), a, 0, (n - 4) * sizeof(int)));
  EXPECT_OK(hipMemset(d, 0, n * sizeof(int)));
  EXPECT_OK(hipMemcpyAtoD(d, b, 4 * sizeof(int), (n - 4) * sizeof(int)));
  EXPECT_OK(hipMemcpy(out.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(std::memcmp(out.data(), in.data(), (n - 4) * sizeof(int)) == 0);
  EXPECT_OK(hipMemcpyAtoHAsync(out.data(), a, 0, n * sizeof(int), s));
  EXPECT(out == in);
  EXPECT_ERROR(hipMemcpyAtoD(d, a, 8, n * sizeof(int)), hipErrorInvalidValue);  // runs past the array
  HIP_ARRAY3D_DESCRIPTOR desc3{};
  EXPECT_OK(hipArray3DGetDescriptor(&desc3, a));
  EXPECT(desc3.Width == 16 && desc3.Height == 4 && desc3.Depth == 0 && desc3.NumChannels == 1);
  hipChannelFormatDesc channel{};
  hipExtent extent{};
  unsigned flags = 7;
  EXPECT_OK(hipArrayGetInfo(&channel, &extent, &flags, a));
  EXPECT(channel.x == 32 && channel.f == hipChannelFormatKindSigned && extent.width == 16 && extent.height == 4 && flags == 0);
  EXPECT_OK(hipArrayDestroy(a));
  EXPECT_ERROR(hipArrayGetInfo(&channel, &extent, &flags, a), hipErrorInvalidHandle);
  EXPECT_OK(hipArrayDestroy(b));

  // ---- kernels: a handle from the host stub, cooperative module launches ----
  hipFunction_t f = nullptr;
  EXPECT_OK(hipGetFuncBySymbol(&f, reinterpret_cast<const void*>(add)));
  EXPECT_ERROR(hipGetFuncBySymbol(&f, &n), hipErrorInvalidDeviceFunction);
  EXPECT_OK(hipMemset(d, 0, n * sizeof(int)));
  int value = 5, count = n;
  void* params[] = {&d, &value, &count};
  EXPECT_OK(hipModuleLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, s, params, nullptr));
  EXPECT_OK(hipModuleLaunchCooperativeKernel(f, 1, 1, 1, 64, 1, 1, 0, s, params));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT_OK(hipMemcpy(out.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[0] == 10 && out[n - 1] == 10);

  // ---- graphs ----
  hipGraph_t g;
  EXPECT_OK(hipGraphCreate(&g, 0));
  hipKernelNodeParams kp{};
  kp.func = reinterpret_cast<void*>(add);
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(n);
  kp.kernelParams = params;
  hipGraphNode_t k1, k2;
  EXPECT_OK(hipGraphAddKernelNode(&k1, g, nullptr, 0, &kp));
  EXPECT_OK(hipGraphAddKernelNode(&k2, g, &k1, 1, &kp));
  int* payload = new int(7);
  hipUserObject_t object = nullptr;
  EXPECT_OK(hipUserObjectCreate(&object, payload, destroy_counter, 1, hipUserObjectNoDestructorSync));
  EXPECT_OK(hipGraphRetainUserObject(g, object, 1, hipGraphUserObjectMove));  // the graph owns the reference
  hipGraphInstantiateParams ip{};
  ip.flags = hipGraphInstantiateFlagUpload;
  ip.uploadStream = s;
  hipGraphExec_t exec = nullptr;
  EXPECT_OK(hipGraphInstantiateWithParams(&exec, g, &ip));
  EXPECT(ip.result_out == hipGraphInstantiateSuccess && ip.errNode_out == nullptr);
  unsigned long long exec_flags = 0;
  EXPECT_OK(hipGraphExecGetFlags(exec, &exec_flags));
  EXPECT(exec_flags == hipGraphInstantiateFlagUpload);
  EXPECT_OK(hipGraphUpload(exec, s));
  unsigned enabled = 0;
  EXPECT_OK(hipGraphNodeGetEnabled(exec, k2, &enabled));
  EXPECT(enabled == 1);
  EXPECT_OK(hipGraphNodeSetEnabled(exec, k2, 0));  // this launch adds 5 once, not twice
  EXPECT_OK(hipMemset(d, 0, n * sizeof(int)));
  EXPECT_OK(hipGraphLaunch_spt(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT_OK(hipMemcpy(out.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[0] == 5 && out[n - 1] == 5);
  EXPECT_OK(hipGraphNodeSetEnabled(exec, k2, 1));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT_OK(hipMemcpy(out.data(), d, n * sizeof(int), hipMemcpyDeviceToHost));
  EXPECT(out[0] == 15);
  EXPECT_OK(hipGraphDestroy(g));
  EXPECT(destroyed == 0);  // the instantiated graph still holds a reference
  EXPECT_OK(hipGraphExecDestroy(exec));
  EXPECT(destroyed == 7);
  uint64_t used = 1;
  EXPECT_OK(hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, &used));
  EXPECT(used == 0);
  EXPECT_OK(hipDeviceGraphMemTrim(0));

  // ---- hipGetProcAddress ----
  void* fn = nullptr;
  hipDriverProcAddressQueryResult found = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  EXPECT_OK(hipGetProcAddress("hipMemset", &fn, HIP_VERSION, 0, &found));
  EXPECT(found == HIP_GET_PROC_ADDRESS_SUCCESS && fn != nullptr);
  EXPECT_OK(reinterpret_cast<hipError_t (*)(void*, int, size_t)>(fn)(d, 0, sizeof(int)));
  EXPECT_ERROR(hipGetProcAddress("cudaMemset", &fn, HIP_VERSION, 0, &found), hipErrorNotFound);
  EXPECT(found == HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);

  EXPECT_OK(hipEventDestroy(e));
  EXPECT_OK(hipStreamDestroy(s));
  EXPECT_OK(hipFree(d));
  return finish("hip6_api");
}
