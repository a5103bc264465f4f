// Kernels for tests/unit/emu_dpp_kernels_test.cc: rocPRIM's warp reduce and scans (ROCm 5.7
// headers from build/rocm-headers, compiled against the installed HIP 5.2 headers), whose gfx11
// paths are DPP moves, ds_swizzle and ds_bpermute. Logical warps of 32 and 16 lanes.
#include <hip/hip_runtime.h>
#include <rocprim/warp/warp_reduce.hpp>
#include <rocprim/warp/warp_scan.hpp>

template <unsigned Lanes>
__device__ void warp_ops(const int* in, int* out, int n) {
  using Reduce = rocprim::warp_reduce<int, Lanes>;
  using Scan = rocprim::warp_scan<int, Lanes>;
  __shared__ typename Reduce::storage_type reduce_storage[1024 / Lanes];
  __shared__ typename Scan::storage_type scan_storage[1024 / Lanes];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned warp = threadIdx.x / Lanes;
  const int v = in[t];
  int sum, inclusive, exclusive;
  Reduce().reduce(v, sum, reduce_storage[warp]);
  Scan().inclusive_scan(v, inclusive, scan_storage[warp]);
  Scan().exclusive_scan(v, exclusive, 100, scan_storage[warp]);
  out[0 * n + t] = sum;  // valid in the logical warp's first lane
  out[1 * n + t] = inclusive;
  out[2 * n + t] = exclusive;
}

extern "C" __global__ void rocprim_warp_32(const int* in, int* out, int n) { warp_ops<32>(in, out, n); }
extern "C" __global__ void rocprim_warp_16(const int* in, int* out, int n) { warp_ops<16>(in, out, n); }
