// NVML's device queries (cuSZ prints the driver's version with them; tools list the GPUs, their
// memory and PCI location). On AMD gpuport's NVML shim answers them from HIP's runtime, in
// NVML's types and return codes: the count, name and memory agree with the runtime's, the
// compute capability with the one cudaGetDeviceProperties reports (the level the device code is
// compiled as), the sensors are NVML_ERROR_NOT_SUPPORTED (ROCm SMI's on AMD, not read), and a
// query before nvmlInit or after the last nvmlShutdown is NVML_ERROR_UNINITIALIZED, as NVML's.
// `-lnvidia-ml` links nothing more. The program builds with gpuport nvcc and runs on the emulator.
// REQUIRES: hip-compilers, hip64
// RUN: %gpuport translate %s > %t.cu 2> %t.err
// RUN: FileCheck --check-prefix=REPORT --allow-empty %s < %t.err
// REPORT-NOT: nvml
// RUN: FileCheck %s < %t.cu
// CHECK: #include <hip/hip_runtime.h>
// CHECK: #define GPUPORT_NVML
// A file that calls nothing but NVML (cuSZ's verinfo.cu) gets the shim too.
// RUN: printf '#include <nvml.h>\nint driver(char* v) {\n  nvmlInit();\n  return nvmlSystemGetDriverVersion(v, NVML_DEVICE_PART_NUMBER_BUFFER_SIZE);\n}\n' > %t.only.cu
// RUN: %gpuport translate %t.only.cu | FileCheck --check-prefix=ONLY %s
// ONLY: #include <hip/hip_runtime.h>
// ONLY: #define GPUPORT_NVML
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc %s -o nvml -lnvidia-ml
// RUN: %gpuport run %t.run/nvml | FileCheck --check-prefix=EMU %s
// EMU: before init: Uninitialized
// EMU: driver {{[0-9]+\.[0-9]+\.[0-9]+}}, CUDA 12.6
// EMU: device 0: {{.+}}, compute capability 6.1 (runtime 6.1)
// EMU: memory: total = runtime's, free <= total
// EMU: pci: {{[0-9a-f]{8}:[0-9a-f]{2}:[0-9a-f]{2}\.0}}, found again by its bus id
// EMU: uuid: GPU-{{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]+}}
// EMU: temperature: Not Supported
// EMU: after shutdown: Uninitialized
// EMU: nvml: PASS
#include <cuda_runtime.h>
#include <nvml.h>
#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                  \
  do {                                                               \
    nvmlReturn_t r_ = (call);                                        \
    if (r_ != NVML_SUCCESS) {                                        \
      printf("%s: %s: FAIL\n", #call, nvmlErrorString(r_));          \
      return 1;                                                      \
    }                                                                \
  } while (0)

int main() {
  unsigned int count = 0;
  printf("before init: %s\n", nvmlErrorString(nvmlDeviceGetCount(&count)));
  CHECK(nvmlInit());
  char driver[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE];
  int cuda = 0;
  CHECK(nvmlSystemGetDriverVersion(driver, sizeof driver));
  CHECK(nvmlSystemGetCudaDriverVersion(&cuda));
  printf("driver %s, CUDA %d.%d\n", driver, NVML_CUDA_DRIVER_VERSION_MAJOR(cuda), NVML_CUDA_DRIVER_VERSION_MINOR(cuda));

  int runtime_count = 0;
  cudaGetDeviceCount(&runtime_count);
  CHECK(nvmlDeviceGetCount(&count));
  if ((int)count != runtime_count || count == 0) { printf("count %u, runtime %d: FAIL\n", count, runtime_count); return 1; }
  nvmlDevice_t device;
  CHECK(nvmlDeviceGetHandleByIndex(0, &device));
  char name[NVML_DEVICE_NAME_BUFFER_SIZE];
  int major = 0, minor = 0;
  CHECK(nvmlDeviceGetName(device, name, sizeof name));
  CHECK(nvmlDeviceGetCudaComputeCapability(device, &major, &minor));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("device 0: %s, compute capability %d.%d (runtime %d.%d)\n", name, major, minor, prop.major, prop.minor);
  if (strcmp(name, prop.name) != 0 || major != prop.major || minor != prop.minor) { printf("differs from the runtime: FAIL\n"); return 1; }

  nvmlMemory_t memory;
  size_t free_bytes = 0, total = 0;
  CHECK(nvmlDeviceGetMemoryInfo(device, &memory));
  cudaMemGetInfo(&free_bytes, &total);
  const int memory_ok = memory.total == total && memory.free <= memory.total && memory.used == memory.total - memory.free;
  printf("memory: total %s runtime's, free %s total\n", memory.total == total ? "=" : "!=", memory.free <= memory.total ? "<=" : ">");
  if (!memory_ok) return 1;

  nvmlPciInfo_t pci;
  nvmlDevice_t again;
  CHECK(nvmlDeviceGetPciInfo(device, &pci));
  CHECK(nvmlDeviceGetHandleByPciBusId(pci.busId, &again));
  printf("pci: %s, %s\n", pci.busId, again == device ? "found again by its bus id" : "another device: FAIL");
  char uuid[NVML_DEVICE_UUID_BUFFER_SIZE];
  CHECK(nvmlDeviceGetUUID(device, uuid, sizeof uuid));
  printf("uuid: %s\n", uuid);
  char small[4];
  if (nvmlDeviceGetName(device, small, sizeof small) != NVML_ERROR_INSUFFICIENT_SIZE) { printf("short buffer: FAIL\n"); return 1; }

  unsigned int temperature = 0;
  printf("temperature: %s\n", nvmlErrorString(nvmlDeviceGetTemperature(device, NVML_TEMPERATURE_GPU, &temperature)));
  CHECK(nvmlShutdown());
  printf("after shutdown: %s\n", nvmlErrorString(nvmlDeviceGetName(device, name, sizeof name)));
  printf("nvml: PASS\n");
  return 0;
}
