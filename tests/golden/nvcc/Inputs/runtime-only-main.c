/* GPUJPEG's unit test: linked by the system's C compiler with the project's library and
   -lcudart, with none of the toolkit's options. */
#include <stdio.h>
int iota_sum(int n);
int main(void) {
  const int sum = iota_sum(64);
  printf("iota sum: %d: %s\n", sum, sum == 2016 ? "PASS" : "FAIL");
  return sum == 2016 ? 0 : 1;
}
