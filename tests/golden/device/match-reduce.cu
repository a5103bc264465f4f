// The sm_70/sm_80 warp intrinsics __match_any_sync, __match_all_sync and __reduce_*_sync
// become gpuport's mask-free shims (compat.cc; compiled for both vendors by
// compile/match-any-all.cu and compile/warp-reduce.cu), the mask dropped as for the other
// *_sync calls, with a note when it is a full one (a name such as 'full' included).
// RUN: %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned group(unsigned key, unsigned v, unsigned full, unsigned some) {
  unsigned peers = __match_any_sync(full, key);
  // CHECK: unsigned peers = gpuport_match_any(key);
  int pred = 0;
  unsigned same = __match_all_sync(full, key, &pred);
  // CHECK: unsigned same = gpuport_match_all(key, &pred);
  unsigned sum = __reduce_add_sync(full, v);
  // CHECK: unsigned sum = gpuport_reduce_add(v);
  unsigned mx = __reduce_max_sync(some, v);
  // CHECK: unsigned mx = gpuport_reduce_max(v);
  return peers + same + sum + mx;
}
// REPORT: :9:37: note: full lane mask 'full' dropped: gpuport_match_any acts on all active lanes
// REPORT: :12:36: note: full lane mask 'full' dropped: gpuport_match_all acts on all active lanes
// REPORT: :14:36: note: full lane mask 'full' dropped: gpuport_reduce_add
// REPORT: :16:35: warning: lane mask 'some' dropped: gpuport_reduce_max acts on all active lanes
// REPORT: 0 errors, 1 warnings, 3 notes
