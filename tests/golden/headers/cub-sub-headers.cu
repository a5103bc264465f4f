// Several cub/ sub-headers all map to hipcub/hipcub.hpp; after the first, the copies are
// duplicates and are removed.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
// CHECK: {{^}}#include <hipcub/hipcub.hpp>
// CHECK-NOT: #include
int placeholder = 0;
// CHECK: {{^}}int placeholder = 0;
// CHECK-NOT: hipcub
// REPORT: 0 errors, 0 warnings
