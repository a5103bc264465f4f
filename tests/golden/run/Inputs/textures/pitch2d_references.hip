// Texture objects over pitched memory (hipMallocPitch), and legacy texture references bound to
// pitched memory (hipBindTexture2D), to arrays (hipBindTextureToArray) and through the driver
// API (hipGetTextureReference + hipTexRefSet*), each sampled by tex2D against the reference of
// sample_2d.hip: point T[floor(x)] or linear over quarter-texel coordinates, indices through the
// address mode.
#include "check.h"

texture<float, hipTextureType2D, hipReadModeElementType> pitched_ref;
texture<float4, hipTextureType2D, hipReadModeElementType> array_ref;
texture<float, hipTextureType2D, hipReadModeElementType> driver_ref;

__global__ void sample_object(hipTextureObject_t t, const float2* uv, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}
__global__ void sample_references(const float2* uv, const float2* texel, float* pitched, float4* arrayed, float* driver, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    pitched[i] = tex2D(pitched_ref, uv[i].x, uv[i].y);
    arrayed[i] = tex2D(array_ref, texel[i].x, texel[i].y);
    driver[i] = tex2D(driver_ref, uv[i].x, uv[i].y);
  }
}

static long long wrap(long long i, long long n) { return ((i % n) + n) % n; }
static long long clamp_to(long long i, long long n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

// mode: 0 wrap, 1 clamp, 3 border (hipTextureAddressMode values).
static float reference(const float* img, int W, int H, int stride, double x, double y, bool linear, int mode) {
  auto at = [&](long long i, long long j) -> double {
    if (mode == 3) return i < 0 || j < 0 || i >= W || j >= H ? 0.0 : img[j * stride + i];
    return mode == 0 ? img[wrap(j, H) * stride + wrap(i, W)] : img[clamp_to(j, H) * stride + clamp_to(i, W)];
  };
  if (!linear) return static_cast<float>(at(static_cast<long long>(std::floor(x)), static_cast<long long>(std::floor(y))));
  const double xb = x - 0.5, yb = y - 0.5;
  const long long i = static_cast<long long>(std::floor(xb)), j = static_cast<long long>(std::floor(yb));
  const double a = xb - i, b = yb - j;
  return static_cast<float>((1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) + (1 - a) * b * at(i, j + 1) + a * b * at(i + 1, j + 1));
}

int main() {
  const int W = 8, H = 6;
  float image[H][W];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) image[y][x] = 3.0f * x - 7.0f * y + 0.5f;
  float* pitched;
  size_t pitch = 0;
  HIP_OK(hipMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, W * sizeof(float), H));
  HIP_OK(hipMemcpy2D(pitched, pitch, image, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  std::vector<float2> uv, texel;
  for (int ky = -5; ky <= 4 * H + 5; ++ky)
    for (int kx = -5; kx <= 4 * W + 5; ++kx) {
      uv.push_back(make_float2(kx / (4.0f * W), ky / (4.0f * H)));
      texel.push_back(make_float2(kx / 4.0f, ky / 4.0f));
    }
  const int n = static_cast<int>(uv.size());
  float2 *duv, *dtexel;
  float *out, *out2;
  float4* out4;
  HIP_OK(hipMalloc(&duv, n * sizeof(float2)));
  HIP_OK(hipMalloc(&dtexel, n * sizeof(float2)));
  HIP_OK(hipMalloc(&out, n * sizeof(float)));
  HIP_OK(hipMalloc(&out2, n * sizeof(float)));
  HIP_OK(hipMalloc(&out4, n * sizeof(float4)));
  HIP_OK(hipMemcpy(duv, uv.data(), n * sizeof(float2), hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(dtexel, texel.data(), n * sizeof(float2), hipMemcpyHostToDevice));
  std::vector<float> got(n), got2(n);
  std::vector<float4> got4(n);

  // Texture object over pitched memory: linear, border.
  hipResourceDesc res{};
  res.resType = hipResourceTypePitch2D;
  res.res.pitch2D.devPtr = pitched;
  res.res.pitch2D.desc = hipCreateChannelDesc<float>();
  res.res.pitch2D.width = W;
  res.res.pitch2D.height = H;
  res.res.pitch2D.pitchInBytes = pitch;
  hipTextureDesc tex{};
  tex.addressMode[0] = hipAddressModeBorder;
  tex.filterMode = hipFilterModeLinear;
  tex.normalizedCoords = 1;
  hipTextureObject_t t;
  HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
  sample_object<<<(n + 127) / 128, 128>>>(t, duv, out, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipMemcpy(got.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) expect_bits("pitch2D object", i, got[i], reference(&image[0][0], W, H, W, uv[i].x * W, uv[i].y * H, true, 3));
  HIP_OK(hipDestroyTextureObject(t));
  // A pitch that is no multiple of 256 bytes is refused (hipDeviceProp_t::texturePitchAlignment).
  res.res.pitch2D.pitchInBytes = W * sizeof(float);
  expect_int("unaligned pitch refused", 0, hipCreateTextureObject(&t, &res, &tex, nullptr), hipErrorInvalidValue);
  expect_int("last error", 0, hipGetLastError(), hipErrorInvalidValue);

  // References: pitched (linear, wrap, normalized), an RGBA array (point, clamp, texel
  // coordinates), and one set up through the driver API (point, border, normalized).
  pitched_ref.filterMode = hipFilterModeLinear;
  pitched_ref.addressMode[0] = hipAddressModeWrap;
  pitched_ref.normalized = 1;
  size_t offset = 1;
  HIP_OK(hipBindTexture2D(&offset, pitched_ref, pitched, W, H, pitch));
  expect_int("bind offset", 0, static_cast<long long>(offset), 0);

  float rgba[H][W][4];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      for (int c = 0; c < 4; ++c) rgba[y][x][c] = 100.0f * c + 10.0f * y + x;
  float plane[4][H * W];
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < H * W; ++i) plane[c][i] = rgba[i / W][i % W][c];
  hipArray_t array;
  const hipChannelFormatDesc f4 = hipCreateChannelDesc<float4>();
  HIP_OK(hipMallocArray(&array, &f4, W, H));
  HIP_OK(hipMemcpy2DToArray(array, 0, 0, rgba, W * 16, W * 16, H, hipMemcpyHostToDevice));
  HIP_OK(hipBindTextureToArray(array_ref, array));

  hipArray_t plain;
  const hipChannelFormatDesc f1 = hipCreateChannelDesc<float>();
  HIP_OK(hipMallocArray(&plain, &f1, W, H));
  HIP_OK(hipMemcpy2DToArray(plain, 0, 0, image, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
  const textureReference* cref = nullptr;
  HIP_OK(hipGetTextureReference(&cref, &driver_ref));
  textureReference* ref = const_cast<textureReference*>(cref);
  HIP_OK(hipTexRefSetFilterMode(ref, hipFilterModePoint));
  HIP_OK(hipTexRefSetAddressMode(ref, 0, hipAddressModeBorder));
  HIP_OK(hipTexRefSetAddressMode(ref, 1, hipAddressModeBorder));
  HIP_OK(hipTexRefSetFlags(ref, HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_READ_AS_INTEGER));
  HIP_OK(hipTexRefSetArray(ref, plain, HIP_TRSA_OVERRIDE_FORMAT));
  hipTextureFilterMode fm;
  hipTextureAddressMode am;
  unsigned int flags = 0;
  HIP_OK(hipTexRefGetFilterMode(&fm, ref));
  HIP_OK(hipTexRefGetAddressMode(&am, ref, 1));
  HIP_OK(hipTexRefGetFlags(&flags, ref));
  expect_int("driver getters", 0, fm * 100 + am * 10 + flags, hipFilterModePoint * 100 + hipAddressModeBorder * 10 +
                                                                (HIP_TRSF_NORMALIZED_COORDINATES | HIP_TRSF_READ_AS_INTEGER));

  sample_references<<<(n + 127) / 128, 128>>>(duv, dtexel, out, out4, out2, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipMemcpy(got.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(got2.data(), out2, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(got4.data(), out4, n * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    expect_bits("pitched reference", i, got[i], reference(&image[0][0], W, H, W, uv[i].x * W, uv[i].y * H, true, 0));
    expect_bits("driver reference", i, got2[i], reference(&image[0][0], W, H, W, uv[i].x * W, uv[i].y * H, false, 3));
    const float g[4] = {got4[i].x, got4[i].y, got4[i].z, got4[i].w};
    for (int c = 0; c < 4; ++c) expect_bits("array reference", 4 * i + c, g[c], reference(plane[c], W, H, W, texel[i].x, texel[i].y, false, 1));
  }
  HIP_OK(hipUnbindTexture(pitched_ref));
  HIP_OK(hipUnbindTexture(array_ref));
  HIP_OK(hipUnbindTexture(driver_ref));
  HIP_OK(hipFreeArray(array));
  HIP_OK(hipFreeArray(plain));
  HIP_OK(hipFree(pitched));
  return report("pitch2d_references");
}
