// Defined in diffusion.cu, called from stencil.cu's kernel: needs separable compilation.
#pragma once

__device__ float diffuse(float centre, float north, float south, float east, float west, float alpha);
