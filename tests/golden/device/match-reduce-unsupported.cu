// The sm_70/sm_80 warp intrinsics __match_any_sync, __match_all_sync and __reduce_*_sync
// have no HIP 5.2 equivalent: each is an unsupported-api error, left in place.
// RUN: not %gpuport translate %s 2>%t.err | grep -v -e CHECK -e RUN -e REPORT | FileCheck %s
// RUN: FileCheck --check-prefix=REPORT %s < %t.err

__device__ unsigned group(unsigned key, unsigned v, unsigned full) {
  unsigned peers = __match_any_sync(full, key);
  // CHECK: unsigned peers = __match_any_sync(full, key);
  int pred = 0;
  unsigned same = __match_all_sync(full, key, &pred);
  // CHECK: unsigned same = __match_all_sync(full, key, &pred);
  unsigned sum = __reduce_add_sync(full, v);
  // CHECK: unsigned sum = __reduce_add_sync(full, v);
  unsigned mx = __reduce_max_sync(full, v);
  // CHECK: unsigned mx = __reduce_max_sync(full, v);
  return peers + same + sum + mx;
}
// REPORT: :7:20: error: '__match_any_sync' (device) has no HIP equivalent [unsupported-api]
// REPORT: :10:19: error: '__match_all_sync' (device) has no HIP equivalent [unsupported-api]
// REPORT: :12:18: error: '__reduce_add_sync' (device) has no HIP equivalent [unsupported-api]
// REPORT-NEXT: fix: {{.*}}__shfl_xor
// REPORT: :14:17: error: '__reduce_max_sync' (device) has no HIP equivalent [unsupported-api]
// REPORT: 4 errors
