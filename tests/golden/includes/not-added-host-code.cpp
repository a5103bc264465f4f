// Plain host code with nothing from CUDA is left byte for byte: no runtime include is added.
// RUN: %gpuport translate %s > %t.out 2>%t.err
// RUN: cmp %s %t.out
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
#include <cstdio>
int main() { std::printf("hello\n"); return 0; }
// REPORT: 1 files translated (0 changed, 0 rewrites)
