// Kernels whose HIP names differ from nvcc's: CUDA vector types (HIP_vector_type<T, N> in HIP),
// the anonymous namespace (nvcc names it after the file), a template on a vector type.
#include <cstdio>

namespace {
__global__ void scale4(const float4* in, float4* out, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = make_float4(in[i].x * s, in[i].y * s, in[i].z * s, in[i].w * s);
}
}  // namespace

template <typename T>
__global__ void swap2(T* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = T{v[i].y, v[i].x};
}

int main() {
  const int n = 100;
  float4 h[n], r[n];
  int2 p[n], q[n];
  for (int i = 0; i < n; ++i) {
    h[i] = make_float4(i, -i, 0.5f * i, 1.0f);
    p[i] = make_int2(i, 3 * i);
  }
  float4 *a, *b;
  int2* c;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMalloc(&c, sizeof p);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(c, p, sizeof p, cudaMemcpyHostToDevice);
  scale4<<<2, 64>>>(a, b, n, 2.0f);
  swap2<int2><<<2, 64>>>(c, n);
  cudaMemcpy(r, b, sizeof r, cudaMemcpyDeviceToHost);
  cudaMemcpy(q, c, sizeof q, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    bad += r[i].x != 2.0f * i || r[i].y != -2.0f * i || r[i].z != 1.0f * i || r[i].w != 2.0f;
    bad += q[i].x != 3 * i || q[i].y != i;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
