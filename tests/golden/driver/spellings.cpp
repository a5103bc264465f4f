// Other spellings of a mapped CUDA type (its struct or enum tag, a _vN typedef) map as the name
// they spell (data/maps/generated/spellings.tsv, from the typedef chains of the CUDA headers);
// a `struct`/`enum` keyword before them goes, as for the plain names. A typedef that changes the
// type (typedef unsigned int CUdeviceptr_v1) is no spelling and is not mapped.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
CUDA_ARRAY3D_DESCRIPTOR_st a;
// CHECK: {{^}}HIP_ARRAY3D_DESCRIPTOR a;
enum CUaddress_mode_enum m;
// CHECK: {{^}}HIPaddress_mode m;
struct cudaIpcEventHandle_st h;
// CHECK: {{^}}hipIpcEventHandle_t h;
CUdeviceptr_v2 p;
// CHECK: {{^}}hipDeviceptr_t p;
CUdeviceptr_v1 old;
// CHECK: {{^}}CUdeviceptr_v1 old;
// REPORT: 'CUdeviceptr_v1' looks like a CUDA API name but is not in the mapping tables
