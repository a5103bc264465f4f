#include "diffusion.cuh"

__device__ float diffuse(float centre, float north, float south, float east, float west, float alpha) {
  return centre + alpha * (north + south + east + west - 4.0f * centre);
}
