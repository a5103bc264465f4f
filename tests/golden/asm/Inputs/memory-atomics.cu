// Atomics on global and shared memory, as nvcc 11.8 compiles them for sm_80/sm_90 (ATOMG, RED,
// ATOMS incl. .POPC.INC, .CAS and the .CAST.SPIN loop of a shared float add): a histogram with
// shared and global counters, every integer operation with 32- and 64-bit forms, float and double
// adds (atom.add.f32 flushes subnormal inputs and results to zero, as the PTX ISA says), a CAS
// loop, system- and block-scoped adds. Each result is order-independent, so the CPU can check it.
#include <cstdio>
#include <cstring>
#define BINS 16
__global__ void histogram(const int* data, int n, unsigned* global_hist) {
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i]], 1);
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&global_hist[threadIdx.x], local[threadIdx.x]);
}
struct Results {
  int add, ticket, sub, min_s, max_s, and_, or_, xor_, exch, cas_counter, system_add, block_add;
  unsigned min_u, max_u, inc, dec;
  unsigned long long add64, min64, max64, and64, or64, xor64, cas64;
  float fadd, fdenormal;
  double dadd;
  int shared_add, shared_min, shared_max, shared_cas;
  float shared_fadd;
  unsigned long long shared_cas64;
};
// `slot` is all zeros: the addresses are not known to be the same in every thread, so nvcc does
// not combine a warp's atomics into one (that would need the warp family).
__global__ void every_op(Results* results, int* olds, const int* slot) {
  __shared__ int s_ints[4];
  __shared__ float s_floats[1];
  __shared__ unsigned long long s_longs[1];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int z = slot[t];
  Results* r = results + z;
  int &s_add = s_ints[z], &s_min = s_ints[z + 1], &s_max = s_ints[z + 2], &s_cas = s_ints[z + 3];
  float& s_fadd = s_floats[z];
  unsigned long long& s_cas64 = s_longs[z];
  if (threadIdx.x == 0) { s_add = 0; s_min = 1 << 30; s_max = -(1 << 30); s_cas = 0; s_fadd = 0; s_cas64 = 0; }
  __syncthreads();
  atomicAdd(&r->add, t);
  olds[t] = atomicAdd(&r->ticket, 1);
  atomicSub(&r->sub, t);
  atomicMin(&r->min_s, t - 100);
  atomicMax(&r->max_s, t - 100);
  atomicMin(&r->min_u, (unsigned)t + 5);
  atomicMax(&r->max_u, (unsigned)t * 3);
  atomicInc(&r->inc, 9u);
  atomicDec(&r->dec, 6u);
  atomicAnd(&r->and_, ~(1 << (t & 31)) | 1);
  atomicOr(&r->or_, 1 << (t & 15));
  atomicXor(&r->xor_, t);
  olds[2 * blockDim.x * gridDim.x + t] = atomicExch(&r->exch, t + 1000);
  for (int old = r->cas_counter;;) {  // a counter through CAS
    int seen = atomicCAS(&r->cas_counter, old, old + 2);
    if (seen == old) break;
    old = seen;
  }
  atomicAdd(&r->add64, 0x100000000ull + t);
  atomicMin(&r->min64, 0x500000000ull - t);
  atomicMax(&r->max64, 0x500000000ull + t);
  atomicAnd(&r->and64, ~(1ull << (t & 63)));
  atomicOr(&r->or64, 1ull << (t & 63));
  atomicXor(&r->xor64, (unsigned long long)t << 32);
  for (unsigned long long old = r->cas64;;) {
    unsigned long long seen = atomicCAS(&r->cas64, old, old + 0x100000001ull);
    if (seen == old) break;
    old = seen;
  }
  atomicAdd(&r->fadd, 0.5f);
  atomicAdd(&r->fdenormal, 1e-40f);
  atomicAdd(&r->dadd, 0.25);
  atomicAdd_system(&r->system_add, 3);
  atomicAdd_block(&r->block_add, 2);
  olds[blockDim.x * gridDim.x + t] = atomicAdd(&s_add, 1);
  atomicMin(&s_min, t);
  atomicMax(&s_max, t);
  for (int old = s_cas;;) {
    int seen = atomicCAS(&s_cas, old, old + 3);
    if (seen == old) break;
    old = seen;
  }
  atomicAdd(&s_fadd, 0.25f);
  for (unsigned long long old = s_cas64;;) {
    unsigned long long seen = atomicCAS(&s_cas64, old, old + 0x100000001ull);
    if (seen == old) break;
    old = seen;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&r->shared_add, s_add);
    atomicMin(&r->shared_min, s_min);
    atomicMax(&r->shared_max, s_max);
    atomicAdd(&r->shared_cas, s_cas);
    atomicAdd(&r->shared_fadd, s_fadd);
    atomicAdd(&r->shared_cas64, s_cas64);
  }
}
int main() {
  int bad = 0;
  const int n = 5000;
  int* h_data = new int[n];
  unsigned want_hist[BINS] = {0}, h_hist[BINS];
  for (int i = 0; i < n; ++i) { h_data[i] = (i * 37 + i / 7) % BINS; ++want_hist[h_data[i]]; }
  int* data; unsigned* hist;
  cudaMalloc(&data, n * 4); cudaMalloc(&hist, sizeof h_hist);
  cudaMemcpy(data, h_data, n * 4, cudaMemcpyHostToDevice);
  cudaMemset(hist, 0, sizeof h_hist);
  histogram<<<4, 128>>>(data, n, hist);
  cudaMemcpy(h_hist, hist, sizeof h_hist, cudaMemcpyDeviceToHost);
  for (int b = 0; b < BINS; ++b)
    if (h_hist[b] != want_hist[b]) { printf("bin %d: %u, want %u\n", b, h_hist[b], want_hist[b]); ++bad; }

  const int blocks = 2, threads = 96, total = blocks * threads;
  Results h, w;
  memset(&h, 0, sizeof h);
  h.min_s = 1 << 30; h.max_s = -(1 << 30); h.min_u = ~0u; h.and_ = -1; h.dec = 0;
  h.min64 = ~0ull; h.and64 = ~0ull;
  h.shared_min = 1 << 30; h.shared_max = -(1 << 30);
  Results* r; int *olds, *slot;
  cudaMalloc(&r, sizeof h); cudaMalloc(&olds, 3 * total * 4); cudaMalloc(&slot, total * 4);
  cudaMemcpy(r, &h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(slot, 0, total * 4);
  every_op<<<blocks, threads>>>(r, olds, slot);
  int h_olds[3 * total];
  cudaMemcpy(&h, r, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_olds, olds, sizeof h_olds, cudaMemcpyDeviceToHost);
  memset(&w, 0, sizeof w);
  w.min_s = -100; w.max_s = total - 101; w.min_u = 5; w.max_u = (total - 1) * 3;
  w.inc = total % 10;  // wraps to 0 after 9
  { unsigned d = 0; for (int t = 0; t < total; ++t) d = (d == 0 || d > 6) ? 6 : d - 1; w.dec = d; }
  w.and_ = 1; w.or_ = 0xffff; w.cas_counter = 2 * total;
  long long s = 0; int x = 0;
  for (int t = 0; t < total; ++t) { s += t; x ^= t; }
  w.ticket = total; w.add = (int)s; w.sub = -(int)s; w.xor_ = x;
  w.add64 = 0x100000000ull * total + s; w.min64 = 0x500000000ull - (total - 1); w.max64 = 0x500000000ull + total - 1;
  w.and64 = 0; w.or64 = ~0ull; { unsigned long long x64 = 0; for (int t = 0; t < total; ++t) x64 ^= (unsigned long long)t << 32; w.xor64 = x64; }
  w.cas64 = 0x100000001ull * total;
  w.fadd = 0.5f * total; w.fdenormal = 0.0f; w.dadd = 0.25 * total;
  w.system_add = 3 * total; w.block_add = 2 * total;
  w.shared_add = total; w.shared_min = 0; w.shared_max = total - 1; w.shared_cas = 3 * total; w.shared_fadd = 0.25f * total;
  w.shared_cas64 = 0x100000001ull * total;
#define CHECK(f, fmt) if (h.f != w.f) { printf(#f " = " fmt ", want " fmt "\n", h.f, w.f); ++bad; }
  CHECK(add, "%d") CHECK(ticket, "%d") CHECK(sub, "%d") CHECK(min_s, "%d") CHECK(max_s, "%d") CHECK(min_u, "%u") CHECK(max_u, "%u")
  CHECK(inc, "%u") CHECK(dec, "%u") CHECK(and_, "%d") CHECK(or_, "%d") CHECK(xor_, "%d") CHECK(cas_counter, "%d")
  CHECK(add64, "%llx") CHECK(min64, "%llx") CHECK(max64, "%llx") CHECK(and64, "%llx") CHECK(or64, "%llx") CHECK(xor64, "%llx")
   CHECK(cas64, "%llx") CHECK(fadd, "%g") CHECK(fdenormal, "%g") CHECK(dadd, "%g")
  CHECK(system_add, "%d") CHECK(block_add, "%d") CHECK(shared_add, "%d") CHECK(shared_min, "%d") CHECK(shared_max, "%d")
  CHECK(shared_cas, "%d") CHECK(shared_fadd, "%g") CHECK(shared_cas64, "%llx")
  // What the atomics returned: the tickets are 0..total-1 in some order, the shared ones
  // 0..threads-1 in each block; the values exchanged out and the final value are the initial 0
  // and every value exchanged in.
  int seen[3 * total + 1];
  memset(seen, 0, sizeof seen);
  for (int t = 0; t < total; ++t) {
    const int g = h_olds[t], sh = h_olds[total + t], ex = h_olds[2 * total + t];
    if (g >= 0 && g < total) ++seen[g];
    if (sh >= 0 && sh < threads) ++seen[total + (t / threads) * threads + sh];
    if (ex == 0) ++seen[3 * total];
    else if (ex >= 1000 && ex < 1000 + total) ++seen[2 * total + ex - 1000];
  }
  if (h.exch >= 1000 && h.exch < 1000 + total) ++seen[2 * total + h.exch - 1000];
  for (int k = 0; k <= 3 * total; ++k)
    if (seen[k] != 1) { printf("returned values: %d seen %d times\n", k, seen[k]); ++bad; break; }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
