// IEEE division and square root: nvcc calls their slow paths as subroutines (CALL.REL.NOINC),
// which cuobjdump prints by address, without a name.
#include <cmath>
#include <cstdio>

__global__ void divide(const float* a, const float* b, float* q, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    q[i] = a[i] / b[i];
    r[i] = sqrtf(a[i]);
  }
}

int main() {
  const int n = 256;
  float a[n], b[n], q[n], r[n];
  for (int i = 0; i < n; ++i) {
    a[i] = (i % 7 == 0) ? 1e-40f * i : 1.5f * i - 37.0f;  // denormals take the slow paths
    b[i] = (i % 5 == 0) ? 3e-39f : 0.25f * i + 1.0f;
  }
  float *da, *db, *dq, *dr;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dq, sizeof q);
  cudaMalloc(&dr, sizeof r);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  divide<<<2, 128>>>(da, db, dq, dr, n);
  cudaMemcpy(q, dq, sizeof q, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float eq = a[i] / b[i], er = std::sqrt(a[i]);
    bad += !(q[i] == eq || (std::isnan(q[i]) && std::isnan(eq)));
    bad += !(r[i] == er || (std::isnan(r[i]) && std::isnan(er)));
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
