// Particle initialisation with the cuRAND device API: one generator state per thread,
// seeded by (seed, particle index) so that the result does not depend on the launch shape.
#include <curand_kernel.h>

#include "init.h"
#include "util.h"

namespace {

constexpr int kInitBlock = 128;

__device__ float uniform_in(curandState* state, float lo, float hi) {
  // curand_uniform returns (0, 1]; the half-open end does not matter here.
  return lo + (hi - lo) * curand_uniform(state);
}

__global__ void __launch_bounds__(kInitBlock)
    init_particles_kernel(float4* pos, float4* vel, int n, unsigned long long seed, float box) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;

  curandState state;
  curand_init(seed, static_cast<unsigned long long>(i), 0ULL, &state);

  float x = uniform_in(&state, -box, box);
  float y = uniform_in(&state, -box, box);
  float z = uniform_in(&state, -box, box);
  float mass = uniform_in(&state, 0.5f, 1.5f);
  pos[i] = make_float4(x, y, z, mass);

  float vx = uniform_in(&state, -1.0f, 1.0f);
  float vy = uniform_in(&state, -1.0f, 1.0f);
  float vz = uniform_in(&state, -1.0f, 1.0f);
  vel[i] = make_float4(vx, vy, vz, 0.0f);
}

}  // namespace

void launch_init_particles(float4* pos, float4* vel, int n, unsigned long long seed, float box,
                           cudaStream_t stream) {
  dim3 block(kInitBlock);
  dim3 grid((n + kInitBlock - 1) / kInitBlock);
  init_particles_kernel<<<grid, block, 0, stream>>>(pos, vel, n, seed, box);
  CUDA_CHECK_LAUNCH();
}
