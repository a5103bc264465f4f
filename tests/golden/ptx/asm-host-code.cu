// PTX in host code is still reported: host asm in a .cu file is often a PTX snippet guarded
// by the wrong macro, and it cannot build with a HIP compiler either way.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

void host_only() {
  asm volatile("exit;");
}
// CHECK: asm volatile("exit;");
// REPORT: asm-host-code.cu:7:3: error: inline PTX (exit) does not compile for AMD GPUs [inline-ptx]
// REPORT-NEXT: fix: exit -> return from the kernel
// REPORT: 1 errors, 0 warnings
