// cuRAND headers: curand.h -> hiprand/hiprand.h; curand_kernel.h and the device-API
// sub-headers (curand_philox4x32_x.h, curand_normal.h, ...) -> hiprand/hiprand_kernel.h;
// curand_mtgp32_host.h -> hiprand/hiprand_mtgp32_host.h. Includes that land on the same HIP
// header are kept once.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <curand.h>
#include <curand_kernel.h>
#include <curand_philox4x32_x.h>
#include <curand_normal.h>
#include <curand_mtgp32_host.h>
// CHECK: #include <hiprand/hiprand.h>
// CHECK-NEXT: #include <hiprand/hiprand_kernel.h>
// CHECK-NEXT: #include <hiprand/hiprand_mtgp32_host.h>
// CHECK-NOT: #include <curand
// REPORT: 0 errors, 0 warnings
