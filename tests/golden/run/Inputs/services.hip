// Device services a HIP program takes for granted: printf (every conversion the C library has,
// as the device library packs it), calls to non-inlined, virtual and recursive functions, large
// malloc/free, assert and abort. Run by tests/golden/run/services.test.
#include <hip/hip_runtime.h>
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void formats(int lanes) {
  const int t = threadIdx.x;
  if (t >= lanes) return;
  printf("lane %d: [%5d] [%-4i|] [%u] [%x] [%#X] [%o] [%c] [%%]\n", t, -t * 7, t, 4000000000u + t, 255 + t, 0xabc0 + t, 8 + t, 'a' + t);
  printf("lane %d: [%.3f] [%10.2e] [%g] [%a] [%*d] [%-*.*f]\n", t, t * 1.25, 12345.678 * (t + 1), 0.0001 * t, 1.0, 6, t, 8, 2,
         -2.5 * t);
  printf("lane %d: [%ld] [%lld] [%hd] [%hhd] [%zu] [%llx] [%s] [%8s] [%-6.2s|]\n", t, -1234567890123l * (t + 1), 9223372036854775807ll - t,
         (short)(70000 + t), (signed char)(200 + t), (size_t)(1) << (40 + t), 0xfedcba9876543210ull + t, t % 2 ? "odd" : "even", "right",
         "truncated");
}

__global__ void returns(int* out) {
  out[threadIdx.x] = printf("thread %d counts its characters\n", (int)threadIdx.x);
}

__device__ __noinline__ int triple_plus_one(int x) { return 3 * x + 1; }
struct Shape {
  __device__ virtual int sides() const { return 0; }
};
struct Triangle : Shape {
  __device__ int sides() const override { return 3; }
};
struct Square : Shape {
  __device__ int sides() const override { return 4; }
};
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__global__ void calls(int* out) {
  const int t = threadIdx.x;
  Triangle tri;
  Square sq;
  const Shape* s = t % 2 ? static_cast<const Shape*>(&tri) : static_cast<const Shape*>(&sq);
  out[3 * t + 0] = triple_plus_one(t);
  out[3 * t + 1] = s->sides();
  out[3 * t + 2] = fib(t % 15);
}

__global__ void big_blocks(long long* out) {
  char* p = static_cast<char*>(malloc(100000));  // above the slab sizes: a block of its own
  if (!p) {
    out[threadIdx.x] = -1;
    return;
  }
  p[0] = 1;
  p[99999] = static_cast<char>(threadIdx.x);
  out[threadIdx.x] = p[0] + p[99999];
  free(p);
}

__global__ void checks(const int* v) { assert(v[threadIdx.x] < 40); }

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "all";
  int failures = 0;
  if (!strcmp(what, "all")) {
    formats<<<1, 32>>>(3);
    (void)hipDeviceSynchronize();
    int* counts;
    (void)hipMalloc(&counts, 64 * sizeof(int));
    returns<<<1, 12>>>(counts);
    int h[64];
    (void)hipMemcpy(h, counts, sizeof h, hipMemcpyDeviceToHost);
    for (int t = 0; t < 12; ++t) {
      char expected[64];
      failures += h[t] != std::snprintf(expected, sizeof expected, "thread %d counts its characters\n", t);
    }
    printf("printf return values: %s\n", failures ? "FAIL" : "PASS");

    int* out;
    (void)hipMalloc(&out, 3 * 64 * sizeof(int));
    calls<<<1, 64>>>(out);
    int c[3 * 64];
    (void)hipMemcpy(c, out, sizeof c, hipMemcpyDeviceToHost);
    int wrong = 0;
    for (int t = 0; t < 64; ++t) {
      int a = 0, b = 1;
      for (int i = 0; i < t % 15; ++i) b = a + b, a = b - a;
      wrong += c[3 * t] != 3 * t + 1 || c[3 * t + 1] != (t % 2 ? 3 : 4) || c[3 * t + 2] != a;
    }
    printf("calls: %s (%d wrong)\n", wrong ? "FAIL" : "PASS", wrong);
    failures += wrong;

    long long* blocks;
    (void)hipMalloc(&blocks, 64 * sizeof(long long));
    big_blocks<<<2, 32>>>(blocks);
    long long b[64];
    (void)hipMemcpy(b, blocks, sizeof b, hipMemcpyDeviceToHost);
    wrong = 0;
    for (int t = 0; t < 32; ++t) wrong += b[t] != 1 + t;
    printf("malloc of large blocks: %s (%d wrong)\n", wrong ? "FAIL" : "PASS", wrong);
    failures += wrong;
  } else if (!strcmp(what, "assert")) {
    int* v;
    (void)hipMalloc(&v, 64 * sizeof(int));
    int h[64];
    for (int i = 0; i < 64; ++i) h[i] = i;
    (void)hipMemcpy(v, h, sizeof h, hipMemcpyHostToDevice);
    checks<<<1, 64>>>(v);  // lanes 40..63 fail
    (void)hipDeviceSynchronize();
    printf("not reached\n");
  }
  return failures != 0;
}
