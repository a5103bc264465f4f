// Driver API memory operations mixed with runtime kernels. The driver entry
// points are fetched through cudaGetDriverEntryPoint (as frameworks do to
// avoid linking libcuda), using the PFN_ typedefs from cudaTypedefs.h. The
// driver's current context must be the runtime's primary context.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "../include/heldout.cuh"

#define CU_CHECK(call)                                                                  \
  do {                                                                                  \
    CUresult r_ = (call);                                                               \
    if (r_ != CUDA_SUCCESS) {                                                           \
      std::fprintf(stderr, "driver error %d at %s:%d\n", int(r_), __FILE__, __LINE__); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

struct Driver {
  PFN_cuInit init;
  PFN_cuDriverGetVersion driver_get_version;
  PFN_cuCtxGetCurrent ctx_get_current;
  PFN_cuCtxGetDevice ctx_get_device;
  PFN_cuDeviceGetAttribute device_get_attribute;
  PFN_cuMemGetInfo mem_get_info;
  PFN_cuMemAlloc mem_alloc;
  PFN_cuMemFree mem_free;
  PFN_cuMemcpyHtoD memcpy_htod;
  PFN_cuMemcpyDtoH memcpy_dtoh;
  PFN_cuMemsetD32 memset_d32;
  PFN_cuPointerGetAttribute pointer_get_attribute;
};

template <typename T>
static void load(const char* name, T& fn) {
  void* p = nullptr;
  CUDA_CHECK(cudaGetDriverEntryPoint(name, &p, cudaEnableDefault));
  if (!p) {
    std::fprintf(stderr, "missing driver entry point %s\n", name);
    std::exit(1);
  }
  fn = reinterpret_cast<T>(p);
}

__global__ void accumulate(float* acc, const float* __restrict__ x, int n, float w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) acc[i] += w * x[i];
}

int main() {
  CUDA_CHECK(cudaFree(nullptr));  // create the runtime's primary context
  Driver d;
  load("cuInit", d.init);
  load("cuDriverGetVersion", d.driver_get_version);
  load("cuCtxGetCurrent", d.ctx_get_current);
  load("cuCtxGetDevice", d.ctx_get_device);
  load("cuDeviceGetAttribute", d.device_get_attribute);
  load("cuMemGetInfo", d.mem_get_info);
  load("cuMemAlloc", d.mem_alloc);
  load("cuMemFree", d.mem_free);
  load("cuMemcpyHtoD", d.memcpy_htod);
  load("cuMemcpyDtoH", d.memcpy_dtoh);
  load("cuMemsetD32", d.memset_d32);
  load("cuPointerGetAttribute", d.pointer_get_attribute);

  CU_CHECK(d.init(0));
  int drv_version = 0;
  CU_CHECK(d.driver_get_version(&drv_version));
  CUcontext ctx = nullptr;
  CU_CHECK(d.ctx_get_current(&ctx));
  CUdevice cu_dev = -1;
  CU_CHECK(d.ctx_get_device(&cu_dev));
  int rt_dev = 0, rt_sms = 0, cu_sms = 0;
  CUDA_CHECK(cudaGetDevice(&rt_dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&rt_sms, cudaDevAttrMultiProcessorCount, rt_dev));
  CU_CHECK(d.device_get_attribute(&cu_sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, cu_dev));
  size_t free_b = 0, total_b = 0;
  CU_CHECK(d.mem_get_info(&free_b, &total_b));
  bool ok = ctx != nullptr && int(cu_dev) == rt_dev && cu_sms == rt_sms && drv_version >= 11000 && free_b > 0;

  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  std::vector<float> x(n);
  heldout::Lcg rng(4242);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);

  CUdeviceptr d_x = 0, d_acc = 0;
  CU_CHECK(d.mem_alloc(&d_x, bytes));
  CU_CHECK(d.mem_alloc(&d_acc, bytes));
  unsigned int mem_type = 0;
  CU_CHECK(d.pointer_get_attribute(&mem_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d_acc));
  ok = ok && mem_type == CU_MEMORYTYPE_DEVICE;

  const float init_value = 0.5f;
  unsigned int bits;
  std::memcpy(&bits, &init_value, sizeof(bits));

  heldout::GpuTimer timer;
  timer.start();
  CU_CHECK(d.memcpy_htod(d_x, x.data(), bytes));
  CU_CHECK(d.memset_d32(d_acc, bits, n));  // fill with 0.5f bit pattern
  float* acc = reinterpret_cast<float*>(d_acc);
  const float* px = reinterpret_cast<const float*>(d_x);
  for (int k = 1; k <= 4; ++k) {
    accumulate<<<(n + 255) / 256, 256>>>(acc, px, n, float(k));
    CUDA_CHECK_LAUNCH();
  }
  timer.stop();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> out(n);
  CU_CHECK(d.memcpy_dtoh(out.data(), d_acc, bytes));

  heldout::ErrTracker err;
  for (int i = 0; i < n; ++i) err.add(out[i], init_value + 10.0 * x[i], 1e-5, 1.0);

  CU_CHECK(d.mem_free(d_x));
  CU_CHECK(d.mem_free(d_acc));
  if (!ok) std::fprintf(stderr, "driver/runtime state disagrees\n");
  return heldout::report("driver_memops", err.ok() && ok, err.max_rel, timer.ms());
}
