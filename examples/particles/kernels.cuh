// Device code of the particles example: the integrator, a kinetic-energy reduction and a
// speed histogram. Included by main.cu only (the parameter block is internal to that unit).
#ifndef PARTICLES_KERNELS_CUH
#define PARTICLES_KERNELS_CUH

#include <cuda_runtime.h>

// Everything the kernels read but never write; uploaded once with cudaMemcpyToSymbol.
struct SimParams {
  float dt;         // time step
  float spring;     // pull toward the origin, per unit mass
  float attractor;  // strength of the soft point attractor at `center`
  float softening;  // added to r^2 so the attractor stays finite
  float drag;       // exponential velocity decay per unit time
  float max_speed;  // speeds are clamped to this (and it is the histogram's top edge)
  float3 center;    // position of the attractor
  int num_bins;     // speed histogram bins
};

static __constant__ SimParams c_params;

// ---- small vector helpers (named, so they never clash with a runtime's float3 operators) --

__device__ __forceinline__ float3 add3(float3 a, float3 b) {
  return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__device__ __forceinline__ float3 scale3(float3 a, float s) {
  return make_float3(a.x * s, a.y * s, a.z * s);
}
__device__ __forceinline__ float dot3(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Acceleration of one particle: a spring toward the origin plus a softened attractor.
__device__ __forceinline__ float3 acceleration(float3 p, float mass) {
  float3 a = scale3(p, -c_params.spring / mass);
  float3 d = make_float3(c_params.center.x - p.x, c_params.center.y - p.y, c_params.center.z - p.z);
  float inv_r = rsqrtf(dot3(d, d) + c_params.softening);
  float inv_r3 = inv_r * inv_r * inv_r;
  return add3(a, scale3(d, c_params.attractor * inv_r3));
}

// One semi-implicit Euler step with drag and a smooth speed clamp.
__device__ __forceinline__ void step_particle(float3& p, float3& v, float mass) {
  const float dt = c_params.dt;
  v = add3(v, scale3(acceleration(p, mass), dt));
  v = scale3(v, __expf(-c_params.drag * dt));
  float clamp = fminf(1.0f, c_params.max_speed * rsqrtf(dot3(v, v) + 1e-12f));
  v = scale3(v, clamp);
  p = add3(p, scale3(v, dt));
}

// ---- integrator -----------------------------------------------------------------------

// Advances every particle STEPS time steps in registers; reads one buffer pair, writes the
// other, so the host ping-pongs between them.
template <int BLOCK, int STEPS>
__global__ void __launch_bounds__(BLOCK)
    integrate_kernel(const float4* __restrict__ pos_in, const float4* __restrict__ vel_in,
                     float4* __restrict__ pos_out, float4* __restrict__ vel_out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i >= n) return;
  float4 p4 = __ldg(&pos_in[i]);
  float4 v4 = __ldg(&vel_in[i]);
  float3 p = make_float3(p4.x, p4.y, p4.z);
  float3 v = make_float3(v4.x, v4.y, v4.z);
#pragma unroll
  for (int s = 0; s < STEPS; ++s) step_particle(p, v, p4.w);
  pos_out[i] = make_float4(p.x, p.y, p.z, p4.w);
  vel_out[i] = make_float4(v.x, v.y, v.z, 0.0f);
}

// ---- reductions -----------------------------------------------------------------------

// Sums v over a warp. The 16..1 offsets assume 32 lanes: on a 64-lane wavefront each half
// reduces on its own, which the caller below still gets right, but it is a warp-size
// assumption a port has to look at.
__device__ __forceinline__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// Sums v over the block; the result is valid in thread 0.
template <int BLOCK>
__device__ float block_reduce_sum(float v) {
  static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "BLOCK must be a multiple of 32, at most 1024");
  __shared__ float partial[32];  // one slot per warp
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  v = warp_reduce_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  v = (threadIdx.x < BLOCK / 32) ? partial[lane] : 0.0f;
  if (warp == 0) v = warp_reduce_sum(v);
  return v;
}

// Per-block partial sums of the kinetic energy 1/2 m |v|^2.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    kinetic_energy_kernel(const float4* __restrict__ pos, const float4* __restrict__ vel, int n,
                          float* __restrict__ block_sums) {
  float sum = 0.0f;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) {
    float4 v = __ldg(&vel[i]);
    float mass = __ldg(&pos[i].w);
    sum += 0.5f * mass * (v.x * v.x + v.y * v.y + v.z * v.z);
  }
  sum = block_reduce_sum<BLOCK>(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// Adds `count` partial sums with a single block.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK) sum_kernel(const float* __restrict__ in, int count, float* out) {
  float sum = 0.0f;
  for (int i = threadIdx.x; i < count; i += BLOCK) sum += in[i];
  sum = block_reduce_sum<BLOCK>(sum);
  if (threadIdx.x == 0) *out = sum;
}

// ---- histogram ------------------------------------------------------------------------

// Speed histogram over [0, max_speed]: each block counts into shared memory (num_bins
// counters, sized by the launch's dynamic shared memory), then adds its counts to `bins`.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    speed_histogram_kernel(const float4* __restrict__ vel, int n, unsigned int* __restrict__ bins) {
  extern __shared__ unsigned int s_bins[];
  const int num_bins = c_params.num_bins;
  for (int b = threadIdx.x; b < num_bins; b += BLOCK) s_bins[b] = 0u;
  __syncthreads();

  const float scale = num_bins / c_params.max_speed;
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) {
    float4 v = __ldg(&vel[i]);
    float speed = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    int b = min(static_cast<int>(speed * scale), num_bins - 1);
    atomicAdd(&s_bins[b], 1u);
  }
  __syncthreads();

  for (int b = threadIdx.x; b < num_bins; b += BLOCK)
    if (s_bins[b] != 0u) atomicAdd(&bins[b], s_bins[b]);
}

#endif  // PARTICLES_KERNELS_CUH
