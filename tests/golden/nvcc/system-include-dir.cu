// `-I/usr/include` on nvcc's command line (FindCUDA passes it where a project's Boost, glog or
// HDF5 lives: caffe's build does) names the system's own headers: GCC and clang search that
// folder as a system folder and ignore the -I. gpuport nvcc does too; searched first, the folder
// gave Debian's HIP 5.2 and CUDA's own Thrust in place of HIP 6.4 and rocThrust (caffe's
// math_functions.cu: `definition of type 'char1' conflicts with type alias`). Headers of packages
// installed after gpuport unpacked HIP 6.4 are still found (the view of /usr/include it searches
// is kept current).
// REQUIRES: hip-compilers, hip64
// RUN: rm -rf %t.run && mkdir %t.run && cd %t.run && %gpuport nvcc -I/usr/include -isystem /usr/include %s -o sum 2> %t.err
// RUN: %gpuport run %t.run/sum | FileCheck %s
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// CHECK: thrust sum of 1..1000 on the device: 500500: PASS
// ERR-NOT: error
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

int main() {
  thrust::device_vector<int> v(1000);
  thrust::sequence(v.begin(), v.end(), 1);
  const int sum = thrust::reduce(v.begin(), v.end());
  std::printf("thrust sum of 1..1000 on the device: %d: %s\n", sum, sum == 500500 ? "PASS" : "FAIL");
  return sum == 500500 ? 0 : 1;
}
