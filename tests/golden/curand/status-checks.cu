// A user's error-check macro around cuRAND calls: the status type and enumerators become
// hipRAND's; the user's own macro name CURAND_CHECK is left alone.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
#include <curand.h>

#define CURAND_CALL(x) do { curandStatus_t s_ = (x); if (s_ != CURAND_STATUS_SUCCESS) { \
    std::printf("curand error %d at %s:%d\n", (int)s_, __FILE__, __LINE__); return 1; } } while (0)
// CHECK: #define CURAND_CALL(x) do { hiprandStatus_t s_ = (x); if (s_ != HIPRAND_STATUS_SUCCESS) { \
// CHECK-NEXT: std::printf("curand error %d at %s:%d\n", (int)s_, __FILE__, __LINE__); return 1; } } while (0)

int run(curandGenerator_t g) {
  CURAND_CALL(curandSetPseudoRandomGeneratorSeed(g, 42ull));
  // CHECK: CURAND_CALL(hiprandSetPseudoRandomGeneratorSeed(g, 42ull));
  if (curandDestroyGenerator(g) == CURAND_STATUS_NOT_INITIALIZED) return 2;
  // CHECK-NEXT: if (hiprandDestroyGenerator(g) == HIPRAND_STATUS_NOT_INITIALIZED) return 2;
  return 0;
}
// REPORT: 0 errors, 0 warnings
