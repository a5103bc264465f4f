#include <stdio.h>

double scale_on_gpu(int n, float factor);

int main(void) {
  const double sum = scale_on_gpu(1 << 12, 0.5f);  /* 0.5 * (0 + 1 + ... + 4095) */
  const int ok = sum == 0.5 * 4095.0 * 4096.0 / 2.0;
  printf("scale: %.1f: %s\n", sum, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
