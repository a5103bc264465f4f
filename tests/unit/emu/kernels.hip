// Kernels the emulator's unit tests run; each test checks the results against a CPU reference.
// Compiled by the test with clang-19 for gfx1100, wave32 and wave64, with -ffp-contract=off so that
// a * b + c is not fused (the CPU reference computes it unfused).
#include <hip/hip_runtime.h>

extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy2d(float alpha, const float* x, float* y, int width, int height) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < width && j < height) y[j * width + i] = alpha * x[j * width + i] + y[j * width + i];
}

extern "C" __global__ void block_sum(const int* in, int* out, int n) {
  __shared__ int tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) tile[threadIdx.x] += tile[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = tile[0];
}

// Integer division and remainder by a runtime value, 64-bit products, shifts, bit tricks.
extern "C" __global__ void int_ops(const unsigned* a, const unsigned* b, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i] | 1u;
  int sx = static_cast<int>(x), sy = static_cast<int>(y);
  out[5 * i + 0] = (x / y) ^ (static_cast<unsigned long long>(x % y) << 32);
  out[5 * i + 1] = static_cast<unsigned long long>(sx / sy) ^ (static_cast<unsigned long long>(sx % sy) << 40);
  out[5 * i + 2] = static_cast<unsigned long long>(x) * y + (static_cast<unsigned long long>(x) << (y & 31));
  out[5 * i + 3] = __popc(x) + (__clz(x | 1) << 8) + (__ffs(y) << 16) + (static_cast<unsigned long long>(__brev(x)) << 24);
  out[5 * i + 4] = static_cast<unsigned long long>(static_cast<long long>(sx) * sy) / (y + 3ull);
}

// Float arithmetic that is exact in IEEE binary32/64 (so the emulator must match bit for bit):
// +, -, *, fma, division, sqrt, conversions, min/max, floor/ceil/trunc/rint.
extern "C" __global__ void float_exact(const float* a, const float* b, float* out, double* dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  out[8 * i + 0] = x + y * 3.0f;
  out[8 * i + 1] = __fmaf_rn(x, y, -x);
  out[8 * i + 2] = x / y;
  out[8 * i + 3] = sqrtf(fabsf(x));
  out[8 * i + 4] = fminf(x, y) - fmaxf(x, y);
  out[8 * i + 5] = floorf(x) + ceilf(y) + truncf(x * y) + rintf(y / 3.0f);
  out[8 * i + 6] = static_cast<float>(static_cast<int>(x * 1000.0f)) + static_cast<float>(static_cast<unsigned>(fabsf(y) * 7.0f));
  out[8 * i + 7] = x < y ? x : (x == y ? 0.0f : -y);
  double dx = x, dy = y;
  dout[2 * i + 0] = dx / (dy + 0.5) + fma(dx, dy, 1.0);
  dout[2 * i + 1] = sqrt(fabs(dx * dy)) - static_cast<double>(static_cast<long long>(dx * 1e6));
}

// Library math (ocml): results within a few ulp of the CPU's.
extern "C" __global__ void float_math(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  out[4 * i + 0] = expf(x * 0.1f);
  out[4 * i + 1] = logf(fabsf(x) + 1.0f);
  out[4 * i + 2] = sinf(x);
  out[4 * i + 3] = powf(fabsf(x) + 0.5f, 1.5f);
}

// Cross-lane: shuffles, ballots and a warp reduction, whatever the wave size.
extern "C" __global__ void warp_ops(const int* in, int* out, unsigned long long* ballots) {
  int lane = threadIdx.x % warpSize;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int sum = v;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  int from_left = __shfl(v, (lane + 1) % warpSize);
  unsigned long long odd = __ballot(v & 1);
  out[2 * (blockIdx.x * blockDim.x + threadIdx.x) + 0] = sum;
  out[2 * (blockIdx.x * blockDim.x + threadIdx.x) + 1] = from_left;
  if (lane == 0) ballots[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = odd;
}

// Atomics: a global histogram through shared-memory atomics, and a global counter.
extern "C" __global__ void histogram(const unsigned* in, unsigned* bins, unsigned* total, int n) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[in[i] % 64], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x) atomicAdd(&bins[b], local[b]);
  if (threadIdx.x == 0) atomicAdd(total, 1u);
}

// A private array indexed at run time (scratch memory).
extern "C" __global__ void private_array(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int local[17];
  for (int k = 0; k < 17; ++k) local[k] = in[i] * k + k * k;
  out[i] = local[in[i] % 17] + local[(in[i] / 17) % 17];
}

// Writes one element past the end of `out` from the last thread (memcheck test).
extern "C" __global__ void out_of_bounds(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = i;
}

// Never finishes (timeout test).
extern "C" __global__ void forever(volatile int* flag) {
  while (*flag == 0) {
  }
}

// A constant table in the code object's data, reached PC-relative (s_getpc_b64): the image must
// be registered memory. (A table the host fills in goes through a relocated GOT entry instead:
// tests/golden/run/program.test.)
namespace {
__constant__ unsigned kTable[8] = {3, 1, 4, 1, 5, 9, 2, 6};
}
extern "C" __global__ void table_lookup(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = kTable[in[i] % 8] * 10 + kTable[(in[i] / 8) % 8];
}

// Double-precision sin, cos and tan: large arguments take the Payne-Hanek reduction, which reads
// 2/pi through v_trig_preop_f64.
extern "C" __global__ void double_trig(const double* a, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i];
  out[3 * i + 0] = sin(x);
  out[3 * i + 1] = cos(x);
  out[3 * i + 2] = tan(x);
}

// Reversal through shared memory: clang-19 addresses tile[255 - threadIdx.x] with a negative
// register (-4 * tid) and offset:1020, which only works because LDS addresses wrap at 32 bits.
extern "C" __global__ void reverse_block(const int* in, int* out) {
  __shared__ int tile[256];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
