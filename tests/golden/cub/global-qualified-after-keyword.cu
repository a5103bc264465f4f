// `::cub::` after a declaration keyword (typedef, static, using) is the global cub, not a member
// of a class named `typedef`: it becomes ::hipcub:: like any other ::cub::.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
#include <cub/cub.cuh>
typedef ::cub::BlockLoad<int*, 128, 4> Load;
// CHECK: {{^}}typedef ::hipcub::BlockLoad<int*, 128, 4> Load;
static ::cub::WarpReduce<int> *reduce;
// CHECK: {{^}}static ::hipcub::WarpReduce<int> *reduce;
using Store = ::cub::BlockStore<int*, 128, 4>;
// CHECK: {{^}}using Store = ::hipcub::BlockStore<int*, 128, 4>;
