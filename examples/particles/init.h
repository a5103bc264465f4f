// Host entry point of the particle initialisation unit (init.cu, cuRAND device API).
#pragma once

#include <cuda_runtime.h>

// Fills pos (x, y, z, mass) and vel (vx, vy, vz, 0) for n particles from a seeded
// generator; the same seed gives the same particles on every run.
void launch_init_particles(float4* pos, float4* vel, int n, unsigned long long seed, float box,
                           cudaStream_t stream);
