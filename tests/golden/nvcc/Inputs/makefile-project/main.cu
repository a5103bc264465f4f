#include <cmath>
#include "check.h"

void run_saxpy(int n, float a, const float* x, float* y);
extern "C" double mean(const float* v, int n);

int main() {
  const int n = 10000;
  float* x = new float[n];
  float* y = new float[n];
  for (int i = 0; i < n; ++i) x[i] = 1.0f, y[i] = static_cast<float>(i);
  run_saxpy(n, 2.0f, x, y);
  const double m = mean(y, n);  // (2 + i) averaged: 2 + 4999.5
  const bool ok = std::fabs(m - 5001.5) < 1e-3;
  std::printf("saxpy: mean %.3f: %s\n", m, ok ? "PASS" : "FAIL");
  delete[] x;
  delete[] y;
  return ok ? 0 : 1;
}
