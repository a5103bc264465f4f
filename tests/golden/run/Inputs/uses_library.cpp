// The executable of a program whose kernels live in its own shared library
// (Inputs/kernels_in_library.hip): it has no device code and does not link HIP itself.
#include <cstdio>

extern "C" int run_twice(int* host, int n);

int main() {
  int values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (int e = run_twice(values, 8)) return 10 + e;
  for (int i = 0; i < 8; ++i)
    if (values[i] != 2 * (i + 1)) return 1;
  std::printf("uses_library: PASS\n");
  return 0;
}
