/* C, not C++: a void pointer converts to int* without a cast, and `new` is a name. */
#include <stdlib.h>
int checksum(const int* values, int count) {
  int* new = malloc(sizeof(int));
  *new = 0;
  for (int i = 0; i < count; ++i) *new += values[i];
  int sum = *new;
  free(new);
  return sum;
}
