// 64-bit compares, which SASS makes of two 32-bit ISETPs (the high one .EX, taking the low result
// where the high words are equal): every direction and strictness, signed and unsigned, on
// values that differ only in the low word, only in the high word, and across the sign.
#include <cstdio>

__global__ void compare(const long long* a, const long long* b, unsigned* flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const long long x = a[i], y = b[i];
  const unsigned long long ux = x, uy = y;
  flags[i] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (ux < uy) << 4 | (ux <= uy) << 5 | (ux > uy) << 6 |
             (ux >= uy) << 7;
}

int main() {
  const long long base[] = {0, 1, -1, 0xffffffffll, 0x100000000ll, 0x1ffffffffll, -0x100000000ll, 0x7fffffffffffffffll,
                            (long long)0x8000000000000000ull, 0x80000000ll, (long long)0xfffffffe00000001ull};
  const int k = sizeof base / sizeof base[0], n = k * k;
  long long ha[n], hb[n];
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) ha[i * k + j] = base[i], hb[i * k + j] = base[j];
  long long *da, *db;
  unsigned* df;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&df, n * sizeof(unsigned));
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  compare<<<(n + 63) / 64, 64>>>(da, db, df, n);
  unsigned flags[n];
  cudaMemcpy(flags, df, sizeof flags, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const long long x = ha[i], y = hb[i];
    const unsigned long long ux = x, uy = y;
    const unsigned want = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (ux < uy) << 4 | (ux <= uy) << 5 |
                          (ux > uy) << 6 | (ux >= uy) << 7;
    if (flags[i] != want && ++bad < 8) printf("mismatch at %d (%llx, %llx): %02x, expected %02x\n", i, x, y, flags[i], want);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
