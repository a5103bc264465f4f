// The sm_70/sm_80 warp intrinsics: __match_any_sync and __match_all_sync become gpuport's
// mask-free shims (compat.cc; compiled by compile/match-any-all.cu), the mask dropped as for
// the other *_sync calls; __reduce_*_sync have no HIP equivalent: each is an unsupported-api
// error, left in place.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned group(unsigned key, unsigned v, unsigned full) {
  unsigned peers = __match_any_sync(full, key);
  // CHECK: unsigned peers = gpuport_match_any(key);
  int pred = 0;
  unsigned same = __match_all_sync(full, key, &pred);
  // CHECK: unsigned same = gpuport_match_all(key, &pred);
  unsigned sum = __reduce_add_sync(full, v);
  // CHECK: unsigned sum = __reduce_add_sync(full, v);
  unsigned mx = __reduce_max_sync(full, v);
  // CHECK: unsigned mx = __reduce_max_sync(full, v);
  return peers + same + sum + mx;
}
// REPORT: :9:37: note: full lane mask 'full' dropped: gpuport_match_any acts on all active lanes
// REPORT: :12:36: note: full lane mask 'full' dropped: gpuport_match_all acts on all active lanes
// REPORT: :14:18: error: '__reduce_add_sync' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}__shfl_xor
// REPORT: :16:17: error: '__reduce_max_sync' (device) has no HIP equivalent [unsupported-api]
// REPORT: 2 errors
