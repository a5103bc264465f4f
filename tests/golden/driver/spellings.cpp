// Other spellings of a mapped CUDA type (its struct or enum tag, a _vN typedef) map as the name
// they spell (data/maps/generated/spellings.tsv, from the typedef chains of the CUDA headers).
// A tag becomes the tag of the HIP type where HIP's typedef has one (hip-tags.tsv: typedef enum
// HIPaddress_mode_enum {...} HIPaddress_mode), so `enum`/`struct` before it stays; otherwise it
// becomes the HIP typedef and the keyword goes. A typedef that changes the type (typedef
// unsigned int CUdeviceptr_v1) is no spelling and is not mapped.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cuda.h>
CUDA_ARRAY3D_DESCRIPTOR_st a;
// CHECK: {{^}}HIP_ARRAY3D_DESCRIPTOR a;
enum CUaddress_mode_enum m;
// CHECK: {{^}}enum HIPaddress_mode_enum m;
CUaddress_mode_enum m2;
// CHECK: {{^}}HIPaddress_mode_enum m2;
struct cudaIpcEventHandle_st h;
// CHECK: {{^}}struct hipIpcEventHandle_st h;
struct CUuuid_st u;
// CHECK: {{^}}struct hipUUID_t u;
CUdeviceptr_v2 p;
// CHECK: {{^}}gpuport_hipDeviceptr_t p;
CUdeviceptr_v1 old;
// CHECK: {{^}}CUdeviceptr_v1 old;
// REPORT: 'CUdeviceptr_v1' looks like a CUDA API name but is not in the mapping tables
