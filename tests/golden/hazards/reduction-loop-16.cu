// A shuffle reduction starting at offset 16 covers only 32 lanes: warp-size-literal at the
// 16, fix "warpSize / 2"; with --fix-warp-size the start becomes warpSize / 2.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck --check-prefix=KEEP %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %gpuport translate --fix-warp-size %s 2>%t.fix.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck --check-prefix=FIX %s
// RUN: FileCheck --check-prefix=FIXREPORT %s < %t.fix.err

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}
// KEEP: for (int offset = 16; offset > 0; offset >>= 1)
// KEEP-NEXT: v += __shfl_xor(v, offset);
// FIX: for (int offset = warpSize / 2; offset > 0; offset >>= 1)
// FIX-NEXT: v += __shfl_xor(v, offset);
// REPORT: reduction-loop-16.cu:9:21: warning: shuffle reduction starts at 16, which covers 32 lanes only [warp-size-literal]
// REPORT-NEXT: {{^    fix: warpSize / 2$}}
// FIXREPORT: reduction-loop-16.cu:9:21: warning: shuffle reduction starts at 16{{.*}}[warp-size-literal]
// FIXREPORT-NEXT: {{^    fixed: warpSize / 2$}}
