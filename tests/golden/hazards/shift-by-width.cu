// A shift whose amount can reach the operand's width is reported in device code: nvcc's PTX
// shifts clamp the amount (0, or the sign), AMD's use its low bits. GPUJPEG's Huffman encoder
// shifts 0x80000000 by the leading zeros of a mask that is empty in lane 0 (__clz(0) = 32), and
// relies on getting 0. Bit counts (__clz, __ffs, __popc), variables assigned one, and `32 - n`
// are such amounts; a constant amount and host code are not reported. Nothing is rewritten.
// RUN: %gpuport translate %s 2> %t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err
// REPORT: shift-by-width.cu:[[@LINE+12]]:{{[0-9]+}}: warning: '>>' by an amount that can reach the operand's width: 'zeros' holds a bit count, which can be the width; nvcc's PTX shifts give 0 (or the sign) there, AMD's use the amount's low bits [shift-by-width]
// REPORT: shift-by-width.cu:[[@LINE+13]]:{{[0-9]+}}: warning: '<<' by an amount that can reach the operand's width: __ffs() can return the width
// REPORT: shift-by-width.cu:[[@LINE+13]]:{{[0-9]+}}: warning: '>>' by an amount that can reach the operand's width: '32 - ...' is the width
// REPORT-NOT: : warning: '{{[<>]+}}' by an amount
// CHECK: const unsigned first = 0x80000000u >> zeros;

__device__ unsigned host_side(unsigned x) { return x >> 4; }

unsigned on_host(unsigned x, unsigned m) { return x >> __clz(m); }

__global__ void pairs(const unsigned* mask, unsigned* out) {
  const int zeros = __clz(mask[threadIdx.x] & ((1u << threadIdx.x) - 1));
  const unsigned first = 0x80000000u >> zeros;
  out[threadIdx.x] = first;
  out[threadIdx.x] += 1u << __ffs(mask[0]);
  out[threadIdx.x] += mask[1] >> (32 - threadIdx.x);
}
