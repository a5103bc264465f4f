/* C, compiled through nvcc as the Makefile says. */
double mean(const float* v, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i];
  return sum / n;
}
