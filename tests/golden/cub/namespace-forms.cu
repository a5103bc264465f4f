// The cub namespace is renamed wherever it is used as a namespace: `using namespace cub;`,
// a namespace alias `namespace cb = cub;`, and a leading-:: qualification ::cub::.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cub/cub.cuh>

namespace cb = cub;
// CHECK: namespace cb = hipcub;
using namespace cub;
// CHECK-NEXT: using namespace hipcub;

void sort(int* keys, int* out, int n, void* temp, size_t& bytes) {
  ::cub::DeviceRadixSort::SortKeys(temp, bytes, keys, out, n);
  // CHECK: ::hipcub::DeviceRadixSort::SortKeys(temp, bytes, keys, out, n);
  cb::DeviceScan::InclusiveSum(temp, bytes, keys, out, n);
  // CHECK-NEXT: cb::DeviceScan::InclusiveSum(temp, bytes, keys, out, n);
}
// REPORT: 0 errors, 0 warnings
