// Checks for the texture/surface/array golden programs: every HIP call must succeed, and each
// program counts the values that differ from its CPU reference and prints one PASS/FAIL line.
#pragma once
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define HIP_OK(call)                                                                                   \
  do {                                                                                                 \
    hipError_t e_ = (call);                                                                            \
    if (e_ != hipSuccess) {                                                                            \
      std::printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, hipGetErrorName(e_));                \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

static int g_mismatches = 0;

// Exact comparison of bit patterns (the float results are the same rounding of the same sums).
inline void expect_bits(const char* what, int index, float got, float want) {
  std::uint32_t a, b;
  std::memcpy(&a, &got, 4);
  std::memcpy(&b, &want, 4);
  if (a != b && !(std::isnan(got) && std::isnan(want))) {
    if (g_mismatches++ < 10) std::printf("%s[%d]: got %.9g (%#x), want %.9g (%#x)\n", what, index, got, a, want, b);
  }
}

// Within `ulps` units in the last place (for results the hardware rounds in its own order).
inline void expect_near(const char* what, int index, float got, float want, int ulps) {
  const float tolerance = ulps * std::fmax(std::fabs(want), 1e-30f) * 1.1920929e-7f;
  if (!(std::fabs(got - want) <= tolerance)) {
    if (g_mismatches++ < 10) std::printf("%s[%d]: got %.9g, want %.9g\n", what, index, got, want);
  }
}

// An array's shape and format: its members with HIP 5.2, hipArrayGetDescriptor with HIP 6 (whose
// hipArray is opaque).
inline HIP_ARRAY_DESCRIPTOR descriptor_of(hipArray_t a) {
#if HIP_VERSION_MAJOR >= 6
  HIP_ARRAY_DESCRIPTOR d{};
  if (hipArrayGetDescriptor(&d, a) != hipSuccess) std::printf("FAIL hipArrayGetDescriptor\n");
  return d;
#else
  return {a->width, a->height, a->Format, a->NumChannels};
#endif
}

inline void expect_int(const char* what, int index, long long got, long long want) {
  if (got != want && g_mismatches++ < 10) std::printf("%s[%d]: got %lld, want %lld\n", what, index, got, want);
}

inline int report(const char* name) {
  std::printf("%s: %s (%d mismatches)\n", name, g_mismatches ? "FAIL" : "PASS", g_mismatches);
  return g_mismatches ? 1 : 0;
}
