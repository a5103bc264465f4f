// A function the file defines itself under a name the tables map (umin -> min) is the user's
// own: neither its definition nor its calls are renamed (renaming them gave a redefinition of
// min). Without such a definition umin is CUDA's and becomes min.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gpuport translate %t/own.cu | FileCheck --check-prefix=OWN %s
// RUN: %gpuport translate %t/cuda.cu | FileCheck --check-prefix=CUDA %s
// OWN: {{^}}unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
// OWN-NEXT: {{^}}__global__ void k(unsigned* p) { p[0] = umin(p[1], p[2]); }
// CUDA: {{^}}__global__ void k(unsigned* p) { p[0] = min(p[1], p[2]); }
//--- own.cu
unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__global__ void k(unsigned* p) { p[0] = umin(p[1], p[2]); }
//--- cuda.cu
__global__ void k(unsigned* p) { p[0] = umin(p[1], p[2]); }
