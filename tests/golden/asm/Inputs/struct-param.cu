// Structs passed by value between scalars: their offsets in the kernel arguments follow the C
// layout (P aligned 8 after an int, Q aligned 16 after P), as HIP's host code packs them.
#include <cstdio>

struct P {
  int offset;
  long long big;
};
struct __align__(16) Q {
  int v[4];
};

__global__ void combine(int n, P p, Q q, char tag, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p.offset + static_cast<int>(p.big >> 32) + q.v[i & 3] + tag;
}

int main() {
  const int n = 100;
  int* d;
  int h[n];
  cudaMalloc(&d, sizeof h);
  P p{7, 5ll << 32};
  Q q{{100, 200, 300, 400}};
  combine<<<1, 128>>>(n, p, q, 3, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 7 + 5 + q.v[i & 3] + 3;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
