// Warp votes checked against the CPU: stream compaction with __ballot_sync + __popc and the
// lanes-below mask (%lanemask_lt), __all_sync / __any_sync / __activemask, __match_any_sync, the
// sm_80 warp reductions (__reduce_add/min/max/and/or/xor_sync) and __syncthreads_count / _and /
// _or, and a ballot inside a branch that every third lane takes. Blocks of 48 threads: each block's second warp has 16 active lanes, and its votes, masks
// and reductions must cover those lanes only.
#include <cstdio>

constexpr int kBlock = 48, kBlocks = 4, kN = kBlock * kBlocks;

struct Votes {
  unsigned ballot, active, lt;
  int all, any, match, rsum, rmin, rmax, rand, ror, rxor, count, band, bor;
  unsigned divergent_active, divergent_ballot;  // inside a branch every third lane takes
};

__global__ void compact(const int* in, int* out, int* out_count, Votes* votes) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[i];
  const bool keep = v % 3 == 0;
  const unsigned active = __activemask();
  const unsigned ballot = __ballot_sync(active, keep);
  const unsigned lt = (1u << (threadIdx.x & 31)) - 1u;  // nvcc reads this from SR_LTMASK
  // Each warp compacts into its own 32-slot segment: a kept element goes to its rank among the
  // warp's kept elements; the warp's first active lane records how many there are.
  const int segment = i - (threadIdx.x & 31);
  if ((threadIdx.x & 31) == __ffs(active) - 1) out_count[segment] = __popc(ballot);
  if (keep) out[segment + __popc(ballot & lt)] = v;
  Votes r;
  r.ballot = ballot;
  r.active = active;
  r.lt = lt;
  r.all = __all_sync(active, v > -1000);
  r.any = __any_sync(active, v == 7);
  r.match = __match_any_sync(active, v % 4);
  r.rsum = __reduce_add_sync(active, v);
  r.rmin = __reduce_min_sync(active, v);
  r.rmax = __reduce_max_sync(active, v);
  r.rand = __reduce_and_sync(active, (unsigned)v);
  r.ror = __reduce_or_sync(active, (unsigned)v);
  r.rxor = __reduce_xor_sync(active, (unsigned)v);
  r.divergent_active = r.divergent_ballot = 0;
  if (threadIdx.x % 3 == 0) {
    r.divergent_active = __activemask();
    r.divergent_ballot = __ballot_sync(r.divergent_active, v > 0);
  }
  r.count = __syncthreads_count(keep);
  r.band = __syncthreads_and(v > -40);
  r.bor = __syncthreads_or(v == 7);
  votes[i] = r;
}

int main() {
  static int h_in[kN], h_out[kN];
  static Votes h_votes[kN];
  for (int i = 0; i < kN; ++i) h_in[i] = (i * 29 + 5) % 83 - 41;
  h_in[50] = 7;
  static int h_counts[kN];
  int *in, *out, *count;
  Votes* votes;
  cudaMalloc(&in, sizeof h_in);
  cudaMalloc(&out, sizeof h_out);
  cudaMalloc(&count, sizeof h_counts);
  cudaMalloc(&votes, sizeof h_votes);
  cudaMemcpy(in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  compact<<<kBlocks, kBlock>>>(in, out, count, votes);
  cudaMemcpy(h_counts, count, sizeof h_counts, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_out, out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_votes, votes, sizeof h_votes, cudaMemcpyDeviceToHost);
  int bad = 0;
  // Compaction: each warp's segment holds its kept values in order, and their count.
  for (int b = 0; b < kBlocks; ++b)
    for (int w = 0; w < 2; ++w) {
      const int first = b * kBlock + w * 32, lanes = w == 0 ? 32 : kBlock - 32;
      int n = 0;
      for (int l = 0; l < lanes; ++l)
        if (h_in[first + l] % 3 == 0) {
          if (h_out[first + n] != h_in[first + l]) ++bad, printf("compaction: slot %d holds %d, want %d\n", first + n, h_out[first + n], h_in[first + l]);
          ++n;
        }
      if (h_counts[first] != n) ++bad, printf("compaction: warp at %d kept %d, want %d\n", first, h_counts[first], n);
    }
  for (int b = 0; b < kBlocks; ++b) {
    int block_count = 0, block_and = 1, block_or = 0;
    for (int t = 0; t < kBlock; ++t) {
      const int v = h_in[b * kBlock + t];
      block_count += v % 3 == 0;
      block_and = block_and && v > -40;
      block_or = block_or || v == 7;
    }
    for (int w = 0; w < 2; ++w) {
      const int first = b * kBlock + w * 32, lanes = w == 0 ? 32 : kBlock - 32;
      const unsigned active = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
      unsigned ballot = 0;
      int all = 1, any = 0, sum = 0, mn = 1 << 30, mx = -(1 << 30);
      unsigned a = ~0u, o = 0, x = 0;
      for (int l = 0; l < lanes; ++l) {
        const int v = h_in[first + l];
        if (v % 3 == 0) ballot |= 1u << l;
        all = all && v > -1000;
        any = any || v == 7;
        sum += v;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        a &= (unsigned)v, o |= (unsigned)v, x ^= (unsigned)v;
      }
      for (int l = 0; l < lanes; ++l) {
        const Votes& r = h_votes[first + l];
        unsigned match = 0, divergent_active = 0, divergent_ballot = 0;
        for (int k = 0; k < lanes; ++k)
          if ((w * 32 + k) % 3 == 0) {
            divergent_active |= 1u << k;
            if (h_in[first + k] > 0) divergent_ballot |= 1u << k;
          }
        const bool taken = (w * 32 + l) % 3 == 0;
        for (int k = 0; k < lanes; ++k)
          if (h_in[first + k] % 4 == h_in[first + l] % 4) match |= 1u << k;
        const bool ok = r.ballot == ballot && r.active == active && r.lt == (1u << l) - 1 && r.all == all && r.any == any &&
                        (unsigned)r.match == match && r.rsum == sum && r.rmin == mn && r.rmax == mx && (unsigned)r.rand == a &&
                        (unsigned)r.ror == o && (unsigned)r.rxor == x && r.count == block_count && (r.band != 0) == block_and &&
                        (r.bor != 0) == block_or && r.divergent_active == (taken ? divergent_active : 0u) &&
                        r.divergent_ballot == (taken ? divergent_ballot : 0u);
        if (!ok) {
          ++bad;
          if (bad < 5)
            printf("thread %d: ballot %x/%x active %x/%x lt %x all %d/%d any %d/%d match %x/%x sum %d/%d min %d/%d max %d/%d "
                   "and %x/%x or %x/%x xor %x/%x count %d/%d and %d/%d or %d/%d divergent %x/%x %x/%x\n",
                   first + l, r.ballot, ballot, r.active, active, r.lt, r.all, all, r.any, any, r.match, match, r.rsum, sum,
                   r.rmin, mn, r.rmax, mx, r.rand, a, r.ror, o, r.rxor, x, r.count, block_count, r.band, block_and, r.bor, block_or, r.divergent_active,
                   taken ? divergent_active : 0u, r.divergent_ballot, taken ? divergent_ballot : 0u);
        }
      }
    }
  }
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return bad == 0 ? 0 : 1;
}
