// Modules loaded at run time (module_kernels.hip built as a code object, an offload bundle and a
// bundle for another GPU only; this program's own executable), launched through function
// handles with kernelParams and with the `extra` argument buffer, and the other launch forms of
// HIP 5.2; results against CPU references, errors against the HIP API's definition.
// Usage: modules CODE_OBJECT BUNDLE OTHER_GPU_BUNDLE
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "hip_check.h"

__global__ void own(int* p, int v) { p[threadIdx.x] = v + static_cast<int>(threadIdx.x); }

static std::string read(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

static bool saxpy_ok(const std::vector<float>& y, const std::vector<float>& x, const std::vector<float>& y0, float a) {
  for (size_t i = 0; i < y.size(); ++i)
    if (y[i] != a * x[i] + y0[i]) return false;
  return true;
}

static void module_kernels(const char* object, const char* bundle, const char* other_gpu, const char* self) {
  hipModule_t m, mb, mdata, mself;
  EXPECT_ERROR(hipModuleLoad(&m, "/nonexistent/k.hsaco"), hipErrorFileNotFound);
  EXPECT_ERROR(hipModuleLoad(nullptr, object), hipErrorInvalidValue);
  EXPECT_ERROR(hipModuleLoadData(&m, "this is not a code object, nor a bundle"), hipErrorInvalidImage);
  EXPECT_ERROR(hipModuleLoad(&m, other_gpu), hipErrorNoBinaryForGpu);
  EXPECT_OK(hipModuleLoad(&m, object));
  hipFunction_t saxpy, count, reverse, missing;
  EXPECT_OK(hipModuleGetFunction(&saxpy, m, "saxpy"));
  EXPECT_OK(hipModuleGetFunction(&count, m, "count"));
  EXPECT_OK(hipModuleGetFunction(&reverse, m, "rotate_block"));
  EXPECT_ERROR(hipModuleGetFunction(&missing, m, "no_such_kernel"), hipErrorNotFound);
  EXPECT_ERROR(hipModuleGetFunction(&missing, m, nullptr), hipErrorInvalidValue);
  EXPECT(std::strcmp(hipKernelNameRef(saxpy), "saxpy") == 0);

  hipDeviceptr_t counter;
  size_t bytes = 0;
  EXPECT_OK(hipModuleGetGlobal(&counter, &bytes, m, "module_counter"));
  EXPECT(bytes == sizeof(int));
  EXPECT_ERROR(hipModuleGetGlobal(&counter, &bytes, m, "no_such_global"), hipErrorNotFound);
  int value = 0;
  EXPECT_OK(hipMemcpy(&value, counter, sizeof value, hipMemcpyDeviceToHost));
  EXPECT(value == 42);

  const int n = 1000;
  std::vector<float> x(n), y0(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y0[i] = 1000.0f - i;
  float *dx, *dy;
  EXPECT_OK(hipMalloc(&dx, n * sizeof(float)));
  EXPECT_OK(hipMalloc(&dy, n * sizeof(float)));
  EXPECT_OK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  auto reset = [&] { (void)hipMemcpy(dy, y0.data(), n * sizeof(float), hipMemcpyHostToDevice); };

  // kernelParams: one pointer per argument.
  reset();
  float a = 3.0f;
  int count_n = n;
  void* params[] = {&a, &dx, &dy, &count_n};
  EXPECT_OK(hipModuleLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(saxpy_ok(y, x, y0, 3.0f));
  // extra: the arguments laid out as in the kernel's argument segment (natural alignment).
  struct {
    float a;
    const float* x;
    float* y;
    int n;
  } buffer = {-2.0f, dx, dy, n};
  size_t size = sizeof buffer;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  reset();
  EXPECT_OK(hipModuleLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, nullptr, extra));
  EXPECT_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(saxpy_ok(y, x, y0, -2.0f));
  EXPECT_ERROR(hipModuleLaunchKernel(saxpy, 1, 1, 1, 128, 1, 1, 0, nullptr, params, extra), hipErrorInvalidValue);
  EXPECT_ERROR(hipModuleLaunchKernel(saxpy, 0, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr), hipErrorInvalidConfiguration);
  EXPECT_ERROR(hipModuleLaunchKernel(saxpy, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr), hipErrorInvalidConfiguration);
  EXPECT_ERROR(hipModuleLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), hipErrorInvalidHandle);

  // A module's global, changed by its kernels: 42 + 3 launches of 5.
  int five = 5;
  void* count_params[] = {&five};
  for (int i = 0; i < 3; ++i) EXPECT_OK(hipModuleLaunchKernel(count, 1, 1, 1, 32, 1, 1, 0, nullptr, count_params, nullptr));
  EXPECT_OK(hipMemcpy(&value, counter, sizeof value, hipMemcpyDeviceToHost));
  EXPECT(value == 57);

  // Static LDS in the attributes; too much dynamic LDS refused.
  int attribute = -1;
  EXPECT_OK(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, reverse));
  EXPECT(attribute == 1024);
  EXPECT_OK(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, reverse));
  EXPECT(attribute == 65536 - 1024);
  EXPECT_OK(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, reverse));
  EXPECT(attribute == 1024);
  EXPECT_OK(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, saxpy));
  EXPECT(attribute == 0);
  EXPECT_OK(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, saxpy));
  EXPECT(attribute == 0);
  EXPECT_OK(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_NUM_REGS, saxpy));
  EXPECT(attribute > 0);
  for (auto which : {HIP_FUNC_ATTRIBUTE_PTX_VERSION, HIP_FUNC_ATTRIBUTE_BINARY_VERSION, HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA,
                     HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT})
    EXPECT_OK(hipFuncGetAttribute(&attribute, which, saxpy));
  EXPECT_ERROR(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_MAX, saxpy), hipErrorInvalidValue);
  EXPECT_ERROR(hipFuncGetAttribute(&attribute, HIP_FUNC_ATTRIBUTE_NUM_REGS, nullptr), hipErrorInvalidHandle);
  std::vector<float> blocks(512), reversed(512);
  for (int i = 0; i < 512; ++i) blocks[i] = static_cast<float>(i);
  float* db;
  EXPECT_OK(hipMalloc(&db, 512 * sizeof(float)));
  EXPECT_OK(hipMemcpy(db, blocks.data(), 512 * sizeof(float), hipMemcpyHostToDevice));
  void* reverse_params[] = {&db};
  EXPECT_OK(hipModuleLaunchKernel(reverse, 2, 1, 1, 256, 1, 1, 0, nullptr, reverse_params, nullptr));
  EXPECT_ERROR(hipModuleLaunchKernel(reverse, 2, 1, 1, 256, 1, 1, 65536, nullptr, reverse_params, nullptr), hipErrorInvalidValue);
  EXPECT_OK(hipMemcpy(reversed.data(), db, 512 * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(reversed[0] == 128.0f && reversed[127] == 255.0f && reversed[128] == 0.0f && reversed[256] == 384.0f && reversed[511] == 383.0f);

  // Occupancy of function handles.
  int per_cu = 0, grid = 0, block = 0, cus = 0;
  EXPECT_OK(hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, 0));
  EXPECT_OK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, reverse, 256, 0));
  EXPECT(per_cu >= 1 && per_cu <= 64);  // 64 KiB of LDS hold at most 64 blocks of 1 KiB
  EXPECT_OK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_cu, reverse, 256, 0, 0));
  EXPECT_ERROR(hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&per_cu, reverse, 256, 0, 2), hipErrorInvalidValue);
  EXPECT_OK(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, saxpy, 0, 0));
  EXPECT(block >= 32 && block <= 1024 && block % 32 == 0 && grid >= cus);
  EXPECT_OK(hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, saxpy, 0, 128, 0));
  EXPECT(block <= 128);
  EXPECT_ERROR(hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, nullptr, 0, 0), hipErrorInvalidHandle);

  // hipExtModuleLaunchKernel counts work-items; its events bracket the kernel.
  hipEvent_t start, stop;
  EXPECT_OK(hipEventCreate(&start));
  EXPECT_OK(hipEventCreate(&stop));
  reset();
  a = 0.5f;
  EXPECT_OK(hipExtModuleLaunchKernel(saxpy, 1024, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr, start, stop, 0));
  EXPECT_OK(hipEventSynchronize(stop));
  float ms = -1;
  EXPECT_OK(hipEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0);
  EXPECT_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(saxpy_ok(y, x, y0, 0.5f));
  EXPECT_ERROR(hipExtModuleLaunchKernel(saxpy, 1000, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr, nullptr, nullptr, 0),
               hipErrorNotSupported);
  EXPECT_ERROR(hipExtModuleLaunchKernel(saxpy, 1024, 1, 1, 0, 1, 1, 0, nullptr, params, nullptr, nullptr, nullptr, 0),
               hipErrorInvalidConfiguration);
  reset();
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_OK(hipHccModuleLaunchKernel(saxpy, 1024, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra, nullptr, nullptr));
#pragma clang diagnostic pop
  EXPECT_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(saxpy_ok(y, x, y0, -2.0f));

  // A module launch in a captured stream is a kernel node like any other.
  hipStream_t s;
  EXPECT_OK(hipStreamCreate(&s));
  hipGraph_t g;
  reset();
  a = 4.0f;
  EXPECT_OK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  EXPECT_OK(hipModuleLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, s, params, nullptr));
  EXPECT_OK(hipStreamEndCapture(s, &g));
  a = 7.0f;  // captured with the value it had
  hipGraphExec_t exec;
  EXPECT_OK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  EXPECT_OK(hipGraphLaunch(exec, s));
  EXPECT_OK(hipStreamSynchronize(s));
  EXPECT_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(saxpy_ok(y, x, y0, 4.0f));
  EXPECT_OK(hipGraphExecDestroy(exec));
  EXPECT_OK(hipGraphDestroy(g));
  EXPECT_OK(hipStreamDestroy(s));

  // The same kernels from memory, from the offload bundle, and from this very executable.
  const std::string image = read(object);
  EXPECT_OK(hipModuleLoadData(&mdata, image.data()));
  hipFunction_t saxpy2;
  EXPECT_OK(hipModuleGetFunction(&saxpy2, mdata, "saxpy"));
  reset();
  a = 1.5f;
  EXPECT_OK(hipModuleLaunchKernel(saxpy2, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_OK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(saxpy_ok(y, x, y0, 1.5f));
  EXPECT_OK(hipModuleUnload(mdata));
  const std::string bundled = read(bundle);
  EXPECT_OK(hipModuleLoadDataEx(&mdata, bundled.data(), 0, nullptr, nullptr));
  EXPECT_OK(hipModuleUnload(mdata));
  EXPECT_OK(hipModuleLoad(&mb, bundle));
  hipFunction_t count2;
  EXPECT_OK(hipModuleGetFunction(&count2, mb, "count"));
  hipDeviceptr_t counter2;
  EXPECT_OK(hipModuleGetGlobal(&counter2, nullptr, mb, "module_counter"));
  EXPECT(counter2 != counter);  // another module, its own globals
  EXPECT_OK(hipModuleLaunchKernel(count2, 1, 1, 1, 32, 1, 1, 0, nullptr, count_params, nullptr));
  EXPECT_OK(hipMemcpy(&value, counter2, sizeof value, hipMemcpyDeviceToHost));
  EXPECT(value == 47);
  EXPECT_OK(hipModuleLoad(&mself, self));
  hipFunction_t own_handle;
  const char* own_name = hipKernelNameRefByPtr(reinterpret_cast<const void*>(own), nullptr);
  EXPECT(own_name && std::strcmp(own_name, "_Z3ownPii") == 0);
  EXPECT_OK(hipModuleGetFunction(&own_handle, mself, own_name));
  int* dp;
  EXPECT_OK(hipMalloc(&dp, 64 * sizeof(int)));
  int seven = 7;
  void* own_params[] = {&dp, &seven};
  EXPECT_OK(hipModuleLaunchKernel(own_handle, 1, 1, 1, 64, 1, 1, 0, nullptr, own_params, nullptr));
  int got[64];
  EXPECT_OK(hipMemcpy(got, dp, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[0] == 7 && got[63] == 70);

  // Unloaded: the module and its functions are gone.
  EXPECT_OK(hipModuleUnload(m));
  EXPECT_ERROR(hipModuleUnload(m), hipErrorInvalidHandle);
  EXPECT_ERROR(hipModuleGetFunction(&missing, m, "saxpy"), hipErrorInvalidHandle);
  EXPECT_ERROR(hipModuleLaunchKernel(saxpy, 1, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr), hipErrorInvalidHandle);
  EXPECT(hipKernelNameRef(saxpy) == nullptr);
  EXPECT_OK(hipModuleUnload(mb));
  EXPECT_OK(hipModuleUnload(mself));
  for (void* p : {static_cast<void*>(dx), static_cast<void*>(dy), static_cast<void*>(db), static_cast<void*>(dp)}) EXPECT_OK(hipFree(p));
  for (hipEvent_t e : {start, stop}) EXPECT_OK(hipEventDestroy(e));
}

// The program's own kernel through HIP 5.2's other launch entry points.
static void launch_forms() {
  int* dp;
  EXPECT_OK(hipMalloc(&dp, 64 * sizeof(int)));
  int got[64];
  int v = 100;
  void* args[] = {&dp, &v};
  hipEvent_t start, stop;
  EXPECT_OK(hipEventCreate(&start));
  EXPECT_OK(hipEventCreate(&stop));
  EXPECT_OK(hipExtLaunchKernel(reinterpret_cast<const void*>(own), dim3(1), dim3(64), args, 0, nullptr, start, stop, 0));
  float ms = -1;
  EXPECT_OK(hipEventElapsedTime(&ms, start, stop));
  EXPECT_OK(hipMemcpy(got, dp, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[0] == 100 && got[63] == 163 && ms >= 0);

  EXPECT_ERROR(hipLaunchByPtr(reinterpret_cast<const void*>(own)), hipErrorInvalidConfiguration);
  v = 200;
  EXPECT_OK(hipConfigureCall(dim3(1), dim3(64), 0, nullptr));
  EXPECT_OK(hipSetupArgument(&dp, sizeof dp, 0));
  EXPECT_OK(hipSetupArgument(&v, sizeof v, 8));
  EXPECT_OK(hipLaunchByPtr(reinterpret_cast<const void*>(own)));
  EXPECT_OK(hipMemcpy(got, dp, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[0] == 200 && got[63] == 263);

  v = 300;
  EXPECT_OK(hipLaunchKernel_spt(reinterpret_cast<const void*>(own), dim3(1), dim3(64), args, 0, nullptr));
  EXPECT_OK(hipStreamSynchronize(hipStreamPerThread));
  EXPECT_OK(hipMemcpy(got, dp, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[5] == 305);

  v = 400;
  hipLaunchParams list[2] = {};
  list[0].func = reinterpret_cast<void*>(own);
  list[0].gridDim = dim3(1);
  list[0].blockDim = dim3(64);
  list[0].args = args;
  list[1] = list[0];
  EXPECT_OK(hipLaunchCooperativeKernelMultiDevice(list, 1, 0));
  EXPECT_OK(hipMemcpy(got, dp, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[5] == 405);
  v = 500;
  EXPECT_OK(hipExtLaunchMultiKernelMultiDevice(list, 1, 0));
  EXPECT_OK(hipMemcpy(got, dp, sizeof got, hipMemcpyDeviceToHost));
  EXPECT(got[5] == 505);
  EXPECT_ERROR(hipLaunchCooperativeKernelMultiDevice(list, 2, 0), hipErrorInvalidDevice);
  EXPECT_ERROR(hipExtLaunchMultiKernelMultiDevice(list, 0, 0), hipErrorInvalidValue);
  EXPECT_ERROR(hipLaunchKernel(reinterpret_cast<const void*>(read), dim3(1), dim3(1), args, 0, nullptr), hipErrorInvalidDeviceFunction);
  for (hipEvent_t e : {start, stop}) EXPECT_OK(hipEventDestroy(e));
  EXPECT_OK(hipFree(dp));
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s CODE_OBJECT BUNDLE OTHER_GPU_BUNDLE\n", argv[0]);
    return 2;
  }
  module_kernels(argv[1], argv[2], argv[3], argv[0]);
  launch_forms();
  return finish("modules");
}
