// __popc/__ffs/__clz applied directly to a ballot look at 32 lanes only: warp-ballot-32bit
// at the intrinsic, fix the 64-bit intrinsic (__popcll, __ffsll); with --fix-warp-size the
// intrinsic is replaced.
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck --check-prefix=KEEP %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// RUN: %gpuport translate --fix-warp-size %s 2>%t.fix.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck --check-prefix=FIX %s
// RUN: FileCheck --check-prefix=FIXREPORT %s < %t.fix.err

__global__ void count(const int* x, int* out) {
  int n = __popc(__ballot_sync(0xffffffff, x[threadIdx.x] > 0));
  int first = __ffs(__ballot_sync(0xffffffff, x[threadIdx.x] < 0));
  out[threadIdx.x] = n + first;
}
// KEEP: int n = __popc(__ballot(x[threadIdx.x] > 0));
// KEEP-NEXT: int first = __ffs(__ballot(x[threadIdx.x] < 0));
// FIX: int n = __popcll(__ballot(x[threadIdx.x] > 0));
// FIX-NEXT: int first = __ffsll(__ballot(x[threadIdx.x] < 0));
// REPORT: ballot-popc.cu:10:11: warning: __popc of a ballot looks at 32 lanes; AMD ballots are 64-bit [warp-ballot-32bit]
// REPORT-NEXT: {{^    fix: __popcll$}}
// REPORT: ballot-popc.cu:11:15: warning: __ffs of a ballot {{.*}}[warp-ballot-32bit]
// REPORT-NEXT: {{^    fix: __ffsll$}}
// REPORT: 0 errors, 2 warnings
// FIXREPORT: fixed: __popcll
// FIXREPORT: fixed: __ffsll
