// Cooperative groups' grid.sync() (a global wave sync barrier, ds_gws_barrier) across the 16
// workgroups of a cooperative launch, and a grid sync that cannot complete (workgroup 0 never
// arrives), which the emulator reports instead of hanging. Run by tests/golden/run/grid-sync.test.
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;
// Each phase reads what the previous phase wrote in another workgroup: wrong without a grid barrier.
__global__ void phases(int* a, int* b, int n, int rounds) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (i < n) b[i] = a[(i + 37) % n] + 1;
    grid.sync();
    if (i < n) a[i] = b[(i + n - 11) % n];
    grid.sync();
  }
}
__global__ void one_missing(int* a) {
  if (blockIdx.x == 0) return;
  cg::this_grid().sync();
  a[blockIdx.x] = 1;
}
int main(int argc, char**) {
  const int n = 4096, rounds = 5;
  int *a, *b; (void)hipMalloc(&a, n * 4); (void)hipMalloc(&b, n * 4);
  int h[n]; for (int i = 0; i < n; ++i) h[i] = i * 3;
  (void)hipMemcpy(a, h, sizeof h, hipMemcpyHostToDevice);
  int nn = n, rr = rounds; void* args[] = {&a, &b, &nn, &rr};
  hipError_t e = hipLaunchCooperativeKernel((void*)phases, dim3(n / 256), dim3(256), args, 0, 0);
  int out[n]; (void)hipMemcpy(out, a, sizeof out, hipMemcpyDeviceToHost);
  int ref[n], tmp[n]; for (int i = 0; i < n; ++i) ref[i] = i * 3;
  for (int r = 0; r < rounds; ++r) { for (int i = 0; i < n; ++i) tmp[i] = ref[(i + 37) % n] + 1; for (int i = 0; i < n; ++i) ref[i] = tmp[(i + n - 11) % n]; }
  int bad = 0; for (int i = 0; i < n; ++i) bad += out[i] != ref[i];
  printf("grid sync: %s (%d wrong, launch %d)\n", bad ? "FAIL" : "PASS", bad, (int)e);
  if (argc > 1) {
    void* args1[] = {&a};
    (void)hipLaunchCooperativeKernel((void*)one_missing, dim3(4), dim3(64), args1, 0, 0);
    (void)hipDeviceSynchronize();
    printf("not reached\n");
  }
  return bad != 0;
}
