// The host reference alone: a hot spot spreads and its heat stays within the grid's bounds.
#include <cstdio>
#include <vector>

#include "stencil.h"

int main() {
  const int n = 16;
  std::vector<float> u(n * n, 0.0f);
  u[(n / 2) * n + n / 2] = 100.0f;
  heat_reference(u, n, 0.2f, 10);
  float total = 0.0f;
  for (float v : u) total += v;
  std::printf("heat_reference: total heat after 10 steps %.3f (started at 100)\n", total);
  return total > 0.0f && total <= 100.0f ? 0 : 1;
}
