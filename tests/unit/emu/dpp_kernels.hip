// Kernels for tests/unit/emu_dpp_kernels_test.cc: the cross-lane builtins clang lowers to DPP,
// DPP8, v_permlane*, ds_swizzle, and atomics that LLVM's atomic optimizer turns into DPP scans
// (compiled with -mllvm -amdgpu-atomic-optimizer-strategy=DPP). Each kernel writes one result per
// thread (or per slice of threads) for a CPU reference to check.
#include <hip/hip_runtime.h>

// DPP16 controls (the RDNA3 guide's DPP_CTRL encoding).
#define QUAD_PERM(a, b, c, d) ((a) | (b) << 2 | (c) << 4 | (d) << 6)
#define ROW_SHL(n) (0x100 | (n))
#define ROW_SHR(n) (0x110 | (n))
#define ROW_ROR(n) (0x120 | (n))
#define ROW_MIRROR 0x140
#define ROW_HALF_MIRROR 0x141
#define ROW_SHARE(n) (0x150 | (n))
#define ROW_XMASK(n) (0x160 | (n))

// out[k * n + t]: slice k is one update_dpp; `old` is -t - 1, so a lane that does not write shows.
extern "C" __global__ void update_dpp(const int* in, int* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t], old = -t - 1;
  int k = 0;
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, QUAD_PERM(3, 2, 1, 0), 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_SHL(1), 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_SHL(5), 0xf, 0xf, true);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_SHR(3), 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_SHR(8), 0xf, 0xf, true);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_ROR(5), 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_MIRROR, 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_HALF_MIRROR, 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_SHARE(11), 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_XMASK(10), 0xf, 0xf, false);
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_SHR(1), 0xa, 0xf, false);  // rows 1 and 3 only
  out[k++ * n + t] = __builtin_amdgcn_update_dpp(old, v, ROW_XMASK(1), 0xf, 0x9, true);  // banks 0 and 3 only
  out[k++ * n + t] = __builtin_amdgcn_mov_dpp(v, ROW_ROR(15), 0xf, 0xf, true);
}
constexpr int kUpdateDppSlices = 13;

// A DPP move inside divergent code: lanes outside EXEC are invalid sources (no fi from the
// builtins), so with bound_ctrl a lane whose source is inactive reads 0.
extern "C" __global__ void update_dpp_divergent(const int* in, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[t] % 3 != 0) out[t] = __builtin_amdgcn_update_dpp(-1, in[t], ROW_SHR(1), 0xf, 0xf, true);
}

// DPP8: lane i of each group of 8 reads lane sel[i]; the selector packs 3 bits per lane.
extern "C" __global__ void dpp8(const unsigned* in, unsigned* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  constexpr unsigned sel = 5 | 7 << 3 | 0 << 6 | 0 << 9 | 2 << 12 | 6 << 15 | 1 << 18 | 3 << 21;
  out[t] = __builtin_amdgcn_mov_dpp8(in[t], sel);
}

// v_permlane16/x16 with selects from kernel arguments (SGPRs) and the fi/bound_ctrl bits;
// v_permlane64. out[k * n + t].
extern "C" __global__ void permlanes(const unsigned* in, unsigned* out, int n, unsigned lo, unsigned hi) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned v = in[t], old = 0x55550000u + t;
  out[0 * n + t] = __builtin_amdgcn_permlane16(old, v, lo, hi, false, false);
  out[1 * n + t] = __builtin_amdgcn_permlanex16(old, v, lo, hi, false, false);
  out[2 * n + t] = __builtin_amdgcn_permlanex16(old, v, 0x76543210u, 0xfedcba98u, true, false);  // lane ^ 16
  out[3 * n + t] = __builtin_amdgcn_permlane16(old, v, 0x01234567u, 0x89abcdefu, true, true);     // reverse half rows
#if __AMDGCN_WAVEFRONT_SIZE == 64
  out[4 * n + t] = __builtin_amdgcn_permlane64(v);
#else
  out[4 * n + t] = v;  // v_permlane64_b32 is a NOP in wave32 (the guide): it would leave its VGPR unwritten
#endif
  // Divergent: the odd lanes are off, so they are invalid sources (fi:0); bound_ctrl:1 reads 0.
  if (t & 1) return;
  out[5 * n + t] = __builtin_amdgcn_permlane16(old, v, lo, hi, false, true);
}

// ds_swizzle_b32 with a pattern per slice: quad permute, bit-mask swaps and broadcasts.
#define SWIZZLE_BITMASK(and_mask, or_mask, xor_mask) ((and_mask) | (or_mask) << 5 | (xor_mask) << 10)
extern "C" __global__ void swizzles(const int* in, int* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = in[t];
  out[0 * n + t] = __builtin_amdgcn_ds_swizzle(v, 0x8000 | QUAD_PERM(2, 0, 3, 1));
  out[1 * n + t] = __builtin_amdgcn_ds_swizzle(v, SWIZZLE_BITMASK(0x1f, 0, 0x01));  // swap neighbours
  out[2 * n + t] = __builtin_amdgcn_ds_swizzle(v, SWIZZLE_BITMASK(0x1f, 0, 0x10));  // swap 16-lane halves
  out[3 * n + t] = __builtin_amdgcn_ds_swizzle(v, SWIZZLE_BITMASK(0x18, 0x05, 0));  // lane 5 of each group of 8
  out[4 * n + t] = __builtin_amdgcn_ds_swizzle(v, SWIZZLE_BITMASK(0x1f, 0, 0x07));  // reverse groups of 8
}

// Atomics LLVM's atomic optimizer turns into a wave-wide DPP scan and one atomic per wave.
extern "C" __global__ void atomic_sum_int(const int* in, int* total, int* uniform_total, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  atomicAdd(uniform_total, 3);
  if (in[t] % 4 != 1) atomicAdd(total, in[t]);
}
extern "C" __global__ void atomic_sum_float(const float* in, float* total, float* uniform_total, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  atomicAdd(uniform_total, 0.5f);
  if (t % 3 != 2) atomicAdd(total, in[t]);
}
// The returned old values: the optimizer hands each lane the wave's base plus its exclusive scan.
extern "C" __global__ void atomic_fetch_add(const int* in, int* counter, int* old, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  old[t] = -1;
  if (t % 5 != 3) old[t] = atomicAdd(counter, in[t]);
}

// A private array indexed by a uniform value: clang keeps it in VGPRs and reads it with
// s_mov_b32 m0, index + v_movrels_b32; a divergent index becomes a chain of v_cndmask.
extern "C" __global__ void private_array_uniform_index(const int* in, int* out, int k) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int a[8];
  for (int i = 0; i < 8; ++i) a[i] = in[t * 8 + i];
  out[t] = a[k & 7] * 100 + a[(k + 3) & 7];
}
