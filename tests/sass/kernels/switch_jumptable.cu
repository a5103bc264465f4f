// A dense switch whose arms are loops: nvcc turns it into a jump table (LDC from c[0x2] + BRX),
// an indirect branch whose targets only the cubin's .nv.constant2 section holds.
extern "C" __global__ void switch_jumptable(const int* sel, float* out, int n, int trips) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = out[i];
  switch (sel[i]) {
    case 0: for (int t = 0; t < trips; ++t) x = x * 1.0001f + 0.5f; break;
    case 1: for (int t = 0; t < trips; ++t) x = x * 0.9999f + 0.25f; break;
    case 2: for (int t = 0; t < trips; ++t) x = x * 1.0002f - 0.5f; break;
    case 3: for (int t = 0; t < trips; ++t) x = x * 0.9998f - 0.25f; break;
    case 4: for (int t = 0; t < trips; ++t) x = x * 1.0003f + 0.125f; break;
    case 5: for (int t = 0; t < trips; ++t) x = x * 0.9997f - 0.125f; break;
    default: x = -x; break;
  }
  out[i] = x;
}
