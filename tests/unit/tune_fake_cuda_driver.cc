// A stand-in for libcuda.so.1 that lets the unit tests run gpuport-tune-harness end to end on a
// machine without a GPU (GPUPORT_TUNE_LIBCUDA=<this library>): "device" memory is host memory,
// and a "cubin" is a text file whose first line says how its one kernel behaves:
//   FAKECUBIN <kernel name> <behaviour>
// The kernel is y[i] += a * x[i] for i < n with parameters (float a, float* x, float* y, int n),
// and it adds 1 to the module's 4-byte global `counter`. Behaviours: good; slow (the same, but
// takes longer); wrong (y[0] off by one); noisy (results vary a little from run to run); fault
// (the launch "faults": the next synchronisation reports error 700); crash (aborts the process);
// hang (never returns). Events read the host clock, and launches are synchronous.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace {

using CUresult = int;
constexpr CUresult kSuccess = 0, kInvalidValue = 1, kInvalidImage = 200, kNotFound = 500, kIllegalAddress = 700;

struct FakeModule {
  std::string kernel, behaviour;
  std::int32_t counter = 0;
};

struct FakeEvent {
  std::chrono::steady_clock::time_point at;
};

// Set by a faulting launch; every later call reports it (sticky, as a real fault is).
CUresult pending_error = kSuccess;

void burn(std::chrono::microseconds duration) {
  const auto until = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < until) {
  }
}

}  // namespace

extern "C" {

CUresult cuInit(unsigned) { return kSuccess; }
CUresult cuDeviceGet(int* device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? kSuccess : kInvalidValue;
}
CUresult cuDeviceGetAttribute(int* value, int attribute, int) {
  switch (attribute) {
    case 38:
      *value = 1 << 20;
      break;  // L2 cache size
    case 75:
      *value = 9;
      break;  // compute capability major
    case 76:
      *value = 0;
      break;  // minor
    default:
      *value = 0;
  }
  return kSuccess;
}
CUresult cuDeviceGetName(char* name, int length, int) {
  std::strncpy(name, "Fake GPU", static_cast<std::size_t>(length));
  return kSuccess;
}
CUresult cuCtxCreate_v2(void** context, unsigned, int) {
  static int token;
  *context = &token;
  return kSuccess;
}
CUresult cuCtxDestroy_v2(void*) { return kSuccess; }
CUresult cuCtxSynchronize() { return pending_error; }

CUresult cuModuleLoadData(FakeModule** module, const void* image) {
  const char* text = static_cast<const char*>(image);
  if (std::strncmp(text, "FAKECUBIN ", 10) != 0) return kInvalidImage;
  std::string line(text + 10, std::strcspn(text + 10, "\n"));
  const std::size_t space = line.find(' ');
  if (space == std::string::npos) return kInvalidImage;
  *module = new FakeModule{line.substr(0, space), line.substr(space + 1)};
  return kSuccess;
}
CUresult cuModuleUnload(FakeModule* module) {
  delete module;
  return kSuccess;
}
CUresult cuModuleGetFunction(FakeModule** function, FakeModule* module, const char* name) {
  if (module->kernel != name) return kNotFound;
  *function = module;  // the module is the function: one kernel per fake cubin
  return kSuccess;
}
CUresult cuModuleGetGlobal_v2(unsigned long long* address, std::size_t* bytes, FakeModule* module, const char* name) {
  if (std::strcmp(name, "counter") != 0) return kNotFound;
  *address = reinterpret_cast<unsigned long long>(&module->counter);
  *bytes = sizeof module->counter;
  return kSuccess;
}

CUresult cuMemAlloc_v2(unsigned long long* address, std::size_t bytes) {
  *address = reinterpret_cast<unsigned long long>(std::calloc(bytes, 1));
  return *address ? kSuccess : 2;
}
CUresult cuMemFree_v2(unsigned long long address) {
  std::free(reinterpret_cast<void*>(address));
  return kSuccess;
}
CUresult cuMemcpyHtoD_v2(unsigned long long to, const void* from, std::size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(to), from, bytes);
  return pending_error;
}
CUresult cuMemcpyDtoH_v2(void* to, unsigned long long from, std::size_t bytes) {
  std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
  return pending_error;
}
CUresult cuMemcpyDtoD_v2(unsigned long long to, unsigned long long from, std::size_t bytes) {
  std::memcpy(reinterpret_cast<void*>(to), reinterpret_cast<const void*>(from), bytes);
  return pending_error;
}
CUresult cuMemsetD8_v2(unsigned long long to, unsigned char value, std::size_t bytes) {
  std::memset(reinterpret_cast<void*>(to), value, bytes);
  return pending_error;
}

CUresult cuLaunchKernel(FakeModule* f, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*,
                        void** params, void**) {
  if (pending_error != kSuccess) return pending_error;
  if (f->behaviour == "crash") std::abort();
  if (f->behaviour == "hang")
    for (;;) ::pause();
  if (f->behaviour == "fault") {
    pending_error = kIllegalAddress;
    return kSuccess;
  }
  const float a = *static_cast<const float*>(params[0]);
  const float* x = *static_cast<float* const*>(params[1]);
  float* y = *static_cast<float* const*>(params[2]);
  const int n = *static_cast<const int*>(params[3]);
  // Seeded per process: two runs of a noisy kernel (two validation processes) differ.
  static std::mt19937 noise(static_cast<unsigned>(::getpid()));
  for (int i = 0; i < n; ++i) {
    y[i] += a * x[i];
    if (f->behaviour == "noisy") y[i] *= 1.0f + 1e-7f * static_cast<float>(noise() % 3);
  }
  if (f->behaviour == "wrong") y[0] += 1;
  f->counter += 1;
  burn(std::chrono::microseconds(f->behaviour == "slow" ? 400 : 100));
  return kSuccess;
}
CUresult cuFuncSetAttribute(FakeModule*, int, int) { return kSuccess; }

CUresult cuEventCreate(FakeEvent** event, unsigned) {
  *event = new FakeEvent;
  return kSuccess;
}
CUresult cuEventRecord(FakeEvent* event, void*) {
  event->at = std::chrono::steady_clock::now();
  return pending_error;
}
CUresult cuEventSynchronize(FakeEvent*) { return pending_error; }
CUresult cuEventElapsedTime(float* milliseconds, FakeEvent* start, FakeEvent* end) {
  *milliseconds = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return kSuccess;
}
CUresult cuEventDestroy_v2(FakeEvent* event) {
  delete event;
  return kSuccess;
}
CUresult cuGetErrorString(CUresult error, const char** text) {
  switch (error) {
    case kIllegalAddress:
      *text = "an illegal memory access was encountered";
      break;
    case kInvalidImage:
      *text = "device kernel image is invalid";
      break;
    case kNotFound:
      *text = "named symbol not found";
      break;
    default:
      *text = "fake error";
  }
  return kSuccess;
}

}  // extern "C"
