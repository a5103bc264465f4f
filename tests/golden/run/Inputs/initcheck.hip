// Two shared-memory bugs that out-of-bounds checking cannot see: a neighbour read of a tile slot
// nobody wrote, and an atomic counter in shared memory never set to zero. `gpuport run
// --initcheck` reports both (per instruction, with the first occurrence) and exits 71; `clean`
// has neither. `leak` frees nothing, for --memcheck's leak check. Run by
// tests/golden/run/initcheck.test.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>

__global__ void neighbours(const int* in, int* out) {
  __shared__ int tile[257];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];  // slot 256 is never written
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x] + tile[threadIdx.x + 1];
}

__global__ void count_odd(const int* in, int* out, bool zero_first) {
  __shared__ int count;
  if (zero_first && threadIdx.x == 0) count = 0;
  __syncthreads();
  if (in[blockIdx.x * 256 + threadIdx.x] & 1) atomicAdd(&count, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = count;
}

__global__ void clean_neighbours(const int* in, int* out) {
  __shared__ int tile[257];
  tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x == 0) tile[256] = 0;
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = tile[threadIdx.x] + tile[threadIdx.x + 1];
}

int main(int argc, char** argv) {
  const bool clean = argc > 1 && !strcmp(argv[1], "clean");
  const bool leak = argc > 1 && !strcmp(argv[1], "leak");
  int *in, *out;
  (void)hipMalloc(&in, 512 * sizeof(int));
  (void)hipMalloc(&out, 512 * sizeof(int));
  int h[512];
  for (int i = 0; i < 512; ++i) h[i] = i;
  (void)hipMemcpy(in, h, sizeof h, hipMemcpyHostToDevice);
  if (clean) clean_neighbours<<<2, 256>>>(in, out);
  else neighbours<<<2, 256>>>(in, out);
  count_odd<<<2, 256>>>(in, out, clean);
  (void)hipMemcpy(h, out, 2 * sizeof(int), hipMemcpyDeviceToHost);
  printf("odd values per block: %d %d\n", h[0], h[1]);
  if (!leak) {
    (void)hipFree(in);
    (void)hipFree(out);
  }
  return 0;
}
