// Checks for the self-checking HIP programs of the runtime's golden tests: each check prints
// what it checked ("ok" or "FAIL" with the line), finish() prints the verdict and gives the exit
// status. Expected values come from the HIP API's definition or a CPU computation in the test.
#pragma once
#include <hip/hip_runtime.h>

#include <cstdio>

static int check_failures = 0;

// Line-buffered, so that the runtime's messages on stderr fall between whole lines of checks.
[[maybe_unused]] static const int check_line_buffered = std::setvbuf(stdout, nullptr, _IOLBF, 0);

static inline bool check(bool ok, const char* what, int line) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok) {
    std::printf("     (line %d)\n", line);
    ++check_failures;
  }
  return ok;
}

static inline bool check_error(hipError_t got, hipError_t want, const char* call, int line) {
  const bool ok = got == want;
  std::printf("%s %s -> %s", ok ? "ok  " : "FAIL", call, hipGetErrorName(want));
  if (!ok) {
    std::printf(" (got %s, line %d)", hipGetErrorName(got), line);
    ++check_failures;
  }
  std::printf("\n");
  return ok;
}

// EXPECT(condition): the condition holds. EXPECT_ERROR(call, error): the call returns `error`.
#define EXPECT(condition) check((condition), #condition, __LINE__)
#define EXPECT_ERROR(call, error) check_error((call), (error), #call, __LINE__)
#define EXPECT_OK(call) EXPECT_ERROR(call, hipSuccess)

// The same programs are built against HIP 5.2 and HIP 6.4 (run/hip64-abi.test): where the two
// HIPs' declarations differ, the checks go through these.
struct ArrayShape {
  size_t width, height, depth;
  unsigned channels;
  hipArray_Format format;
};
#if HIP_VERSION_MAJOR >= 6
static inline hipMemoryType memory_type(const hipPointerAttribute_t& a) { return a.type; }
#define GRAPH_NODE_TYPE_COPY_1D hipGraphNodeTypeMemcpy  // HIP 6 has no Memcpy1D node type
static inline ArrayShape array_shape(hipArray_t a) {  // HIP 6's hipArray is opaque
  HIP_ARRAY3D_DESCRIPTOR d{};
  if (hipArray3DGetDescriptor(&d, a) != hipSuccess) return {};
  return {d.Width, d.Height, d.Depth, d.NumChannels, d.Format};
}
#else
static inline hipMemoryType memory_type(const hipPointerAttribute_t& a) { return a.memoryType; }
#define GRAPH_NODE_TYPE_COPY_1D hipGraphNodeTypeMemcpy1D
static inline ArrayShape array_shape(hipArray_t a) { return {a->width, a->height, a->depth, a->NumChannels, a->Format}; }
#endif

static inline int finish(const char* name) {
  std::printf("%s: %s (%d failed)\n", name, check_failures ? "FAIL" : "PASS", check_failures);
  return check_failures ? 1 : 0;
}
