// The heat stencil: one explicit step of u_t = alpha * laplacian(u) on an n x n grid with fixed
// (zero) borders.
#pragma once

#include <vector>

// Device side (stencil.cu): `steps` steps on the GPU, ping-ponging between two device buffers.
// Returns the buffer holding the result.
float* heat_run(float* a, float* b, int n, float alpha, int steps);

// Host side: the same steps in plain C++ (the reference the GPU result is compared with).
void heat_reference(std::vector<float>& u, int n, float alpha, int steps);
