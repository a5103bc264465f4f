// k-way divergence: each lane takes one of eight switch arms.
extern "C" __global__ void switch_kway(const int* sel, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = (float)i;
  switch (sel[i] & 7) {
    case 0: x = x * 1.5f; break;
    case 1: x = sinf(x); break;
    case 2: x = cosf(x); break;
    case 3: x = x * x + 3.0f; break;
    case 4: x = expf(x * 0.01f); break;
    case 5: x = logf(x + 1.0f); break;
    case 6: x = rsqrtf(x + 2.0f); break;
    default: x = -x; break;
  }
  out[i] = x;
}
