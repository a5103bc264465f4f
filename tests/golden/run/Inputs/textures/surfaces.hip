// Surface objects over arrays: surf2Dwrite then surf2Dread round trips (float, float4), surf1D
// and surf3D writes, the array contents checked through hipMemcpy2DFromArray / hipMemcpy3D.
// Coordinates are in bytes, as HIP's surface functions take them. Out of range, writes do
// nothing and reads return 0 (RDNA3 ISA: image stores out of range are dropped). HIP 5.2's
// surface functions pass every value through float (amd_surface_functions.h:
// __hipMapToNativeFloat4 / __hipMapFromNativeFloat4), so an int surface holds the bits of
// (float)value, and reading gives the value back: both are checked. HIP 6.4's (__hipMapTo) keep
// an int's bits: the surface holds the int itself.
#include "check.h"

__global__ void write2d(hipSurfaceObject_t s, int W, int H) {
  const int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(x * 0.5f - y * 3.0f + 0.25f, s, x * 4, y);
  if (x == 0) surf2Dwrite(-1.0f, s, W * 4, y);  // out of range: dropped
}
__global__ void double2d(hipSurfaceObject_t in, hipSurfaceObject_t out, float* oob, int W) {
  const int x = threadIdx.x, y = blockIdx.x;
  float v;
  surf2Dread(&v, in, x * 4, y);
  surf2Dwrite(2.0f * v, out, x * 4, y);
  if (x == 0) surf2Dread(&oob[y], in, W * 4 + 4 * y, y);
}
__global__ void rgba(hipSurfaceObject_t s, float4* back) {
  const int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(make_float4(x, y, x + y, -1.0f), s, x * 16, y);
  float4 v;
  surf2Dread(&v, s, x * 16, y);
  back[y * blockDim.x + x] = v;
}
__global__ void ints(hipSurfaceObject_t s, int* back) {
  const int x = threadIdx.x;
  surf1Dwrite(x * 1000 - 7, s, x * 4);
  int v;
  surf1Dread(&v, s, x * 4);
  back[x] = v;
}
__global__ void volume(hipSurfaceObject_t s) {
  surf3Dwrite(static_cast<float>(threadIdx.x + 10 * threadIdx.y + 100 * blockIdx.x), s, threadIdx.x * 4, threadIdx.y, blockIdx.x);
}

static hipSurfaceObject_t surface(hipArray_t a) {
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipSurfaceObject_t s;
  HIP_OK(hipCreateSurfaceObject(&s, &res));
  return s;
}

int main() {
  const int W = 16, H = 8;
  const hipChannelFormatDesc f1 = hipCreateChannelDesc<float>();
  hipArray_t a, b;
  HIP_OK(hipMallocArray(&a, &f1, W, H, hipArraySurfaceLoadStore));
  HIP_OK(hipMallocArray(&b, &f1, W, H, hipArraySurfaceLoadStore));
  hipSurfaceObject_t sa = surface(a), sb = surface(b);
  float* oob;
  HIP_OK(hipMalloc(&oob, H * sizeof(float)));
  write2d<<<H, W>>>(sa, W, H);
  double2d<<<H, W>>>(sa, sb, oob, W);
  HIP_OK(hipGetLastError());
  float got_a[H][W], got_b[H][W], got_oob[H];
  HIP_OK(hipMemcpy2DFromArray(got_a, W * sizeof(float), a, 0, 0, W * sizeof(float), H, hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy2DFromArray(got_b, W * sizeof(float), b, 0, 0, W * sizeof(float), H, hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(got_oob, oob, sizeof got_oob, hipMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y) {
    expect_bits("out-of-range read", y, got_oob[y], 0.0f);
    for (int x = 0; x < W; ++x) {
      const float v = x * 0.5f - y * 3.0f + 0.25f;
      expect_bits("surf2Dwrite", y * W + x, got_a[y][x], v);
      expect_bits("surf2Dread", y * W + x, got_b[y][x], 2.0f * v);
    }
  }

  const hipChannelFormatDesc f4 = hipCreateChannelDesc<float4>();
  hipArray_t c;
  HIP_OK(hipMallocArray(&c, &f4, W, H, hipArraySurfaceLoadStore));
  hipSurfaceObject_t sc = surface(c);
  float4* back;
  HIP_OK(hipMalloc(&back, W * H * sizeof(float4)));
  rgba<<<H, W>>>(sc, back);
  HIP_OK(hipGetLastError());
  float4 got4[H * W];
  HIP_OK(hipMemcpy(got4, back, sizeof got4, hipMemcpyDeviceToHost));
  float stored[H][W][4];
  HIP_OK(hipMemcpy2DFromArray(stored, W * 16, c, 0, 0, W * 16, H, hipMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const float want[4] = {static_cast<float>(x), static_cast<float>(y), static_cast<float>(x + y), -1.0f};
      const float g[4] = {got4[y * W + x].x, got4[y * W + x].y, got4[y * W + x].z, got4[y * W + x].w};
      for (int k = 0; k < 4; ++k) {
        expect_bits("float4 round trip", (y * W + x) * 4 + k, g[k], want[k]);
        expect_bits("float4 stored", (y * W + x) * 4 + k, stored[y][x][k], want[k]);
      }
    }

  const hipChannelFormatDesc i1 = hipCreateChannelDesc<int>();
  hipArray_t d;
  HIP_OK(hipMallocArray(&d, &i1, 64, 0, hipArraySurfaceLoadStore));
  hipSurfaceObject_t sd = surface(d);
  int* iback;
  HIP_OK(hipMalloc(&iback, 64 * sizeof(int)));
  ints<<<1, 64>>>(sd, iback);
  HIP_OK(hipGetLastError());
  int got_i[64], raw[64];
  HIP_OK(hipMemcpy(got_i, iback, sizeof got_i, hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpyFromArray(raw, d, 0, 0, sizeof raw, hipMemcpyDeviceToHost));
  for (int x = 0; x < 64; ++x) {
    const float as_float = static_cast<float>(x * 1000 - 7);
    int bits;
    std::memcpy(&bits, &as_float, 4);
    expect_int("int surface round trip", x, got_i[x], x * 1000 - 7);
#if HIP_VERSION_MAJOR >= 6
    (void)bits;
    expect_int("int surface holds the int", x, raw[x], x * 1000 - 7);
#else
    expect_int("int surface holds float bits", x, raw[x], bits);
#endif
  }

  const int D = 3, VW = 8, VH = 4;
  hipArray_t e;
  HIP_OK(hipMalloc3DArray(&e, &f1, make_hipExtent(VW, VH, D), hipArraySurfaceLoadStore));
  hipSurfaceObject_t se = surface(e);
  volume<<<D, dim3(VW, VH)>>>(se);
  HIP_OK(hipGetLastError());
  float vol[D][VH][VW];
  hipMemcpy3DParms p{};
  p.srcArray = e;
  p.dstPtr = make_hipPitchedPtr(vol, VW * sizeof(float), VW, VH);
  p.extent = make_hipExtent(VW, VH, D);
  p.kind = hipMemcpyDeviceToHost;
  HIP_OK(hipMemcpy3D(&p));
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < VH; ++y)
      for (int x = 0; x < VW; ++x) expect_bits("surf3Dwrite", (z * VH + y) * VW + x, vol[z][y][x], static_cast<float>(x + 10 * y + 100 * z));

  for (hipSurfaceObject_t s : {sa, sb, sc, sd, se}) HIP_OK(hipDestroySurfaceObject(s));
  for (hipArray_t x : {a, b, c, d, e}) HIP_OK(hipFreeArray(x));
  return report("surfaces");
}
