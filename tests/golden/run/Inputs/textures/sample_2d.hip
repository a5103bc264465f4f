// tex2D over 2D arrays, every address mode with point and linear filtering, normalized and
// unnormalized coordinates, against a CPU reference of the documented filtering formula
// (CUDA programming guide, texture fetching): x = u * width (normalized) or u; point: T[floor(x)];
// linear: i = floor(x - 0.5), a = frac(x - 0.5) and T = (1-a)(1-b) T[i,j] + a(1-b) T[i+1,j] +
// (1-a) b T[i,j+1] + a b T[i+1,j+1], indices outside the image through the address mode (wrap:
// modulo, clamp: to the edge, mirror: reflected, border: 0). Coordinates are quarter texels, so
// every weight is exact in the texture unit's 8 fraction bits. HIP 5.2 applies addressMode[0] to
// every axis and turns wrap and mirror into clamp for unnormalized coordinates (hip_texture.cpp);
// the reference does the same.
#include "check.h"

__global__ void sample(hipTextureObject_t t, const float2* uv, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}
__global__ void sample4(hipTextureObject_t t, const float2* uv, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, uv[i].x, uv[i].y);
}

static long long address(long long i, long long size, hipTextureAddressMode mode) {
  switch (mode) {
    case hipAddressModeWrap: return ((i % size) + size) % size;
    case hipAddressModeMirror: {
      const long long m = ((i % (2 * size)) + 2 * size) % (2 * size);
      return m < size ? m : 2 * size - 1 - m;
    }
    case hipAddressModeClamp: return i < 0 ? 0 : i >= size ? size - 1 : i;
    default: return i < 0 || i >= size ? -1 : i;  // border
  }
}

// The reference sample of channel `c` of a W x H image of `channels` floats per texel.
static float reference(const float* image, int W, int H, int channels, int c, float u, float v, bool linear, hipTextureAddressMode mode,
                       bool normalized) {
  if (!normalized && (mode == hipAddressModeWrap || mode == hipAddressModeMirror)) mode = hipAddressModeClamp;
  const double x = normalized ? static_cast<double>(u * W) : u, y = normalized ? static_cast<double>(v * H) : v;
  auto texel = [&](long long i, long long j) -> double {
    const long long a = address(i, W, mode), b = address(j, H, mode);
    return a < 0 || b < 0 ? 0.0 : image[(b * W + a) * channels + c];
  };
  if (!linear) return static_cast<float>(texel(static_cast<long long>(std::floor(x)), static_cast<long long>(std::floor(y))));
  const double xb = x - 0.5, yb = y - 0.5;
  const long long i = static_cast<long long>(std::floor(xb)), j = static_cast<long long>(std::floor(yb));
  const double a = xb - i, b = yb - j;
  return static_cast<float>((1 - a) * (1 - b) * texel(i, j) + a * (1 - b) * texel(i + 1, j) + (1 - a) * b * texel(i, j + 1) +
                            a * b * texel(i + 1, j + 1));
}

struct Config {
  hipTextureAddressMode mode;
  hipTextureFilterMode filter;
  bool normalized;
  hipTextureAddressMode other;  // addressMode[1] and [2]: ignored by HIP 5.2
};

int main() {
  // A float image with distinct texels (W and H powers of two, and a 5 x 3 one for the
  // non-power-of-two sizes ockl's point-sampling snap divides by).
  for (const int size : {0, 1}) {
    const int W = size ? 5 : 8, H = size ? 3 : 4;
    float image[8 * 4];
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) image[y * W + x] = 1.0f + x + 16.0f * y + (x * y % 3) * 0.125f;
    hipArray_t array;
    const hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
    HIP_OK(hipMallocArray(&array, &desc, W, H));
    HIP_OK(hipMemcpy2DToArray(array, 0, 0, image, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
    // Quarter-texel coordinates from two texels before to two past the image.
    std::vector<float2> uv;
    std::vector<float2> texel_uv;
    for (int ky = -8; ky <= 4 * H + 8; ++ky)
      for (int kx = -8; kx <= 4 * W + 8; ++kx) {
        uv.push_back(make_float2(kx / (4.0f * W), ky / (4.0f * H)));  // normalized: x = kx / 4
        texel_uv.push_back(make_float2(kx / 4.0f, ky / 4.0f));
      }
    const int n = static_cast<int>(uv.size());
    float2* duv;
    float2* dtexel;
    float* out;
    HIP_OK(hipMalloc(&duv, n * sizeof(float2)));
    HIP_OK(hipMalloc(&dtexel, n * sizeof(float2)));
    HIP_OK(hipMalloc(&out, n * sizeof(float)));
    HIP_OK(hipMemcpy(duv, uv.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    HIP_OK(hipMemcpy(dtexel, texel_uv.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    std::vector<float> got(n);
    std::vector<Config> configs;
    for (auto mode : {hipAddressModeWrap, hipAddressModeClamp, hipAddressModeMirror, hipAddressModeBorder})
      for (auto filter : {hipFilterModePoint, hipFilterModeLinear})
        for (bool normalized : {true, false}) configs.push_back({mode, filter, normalized, mode});
    configs.push_back({hipAddressModeWrap, hipFilterModeLinear, true, hipAddressModeClamp});
    configs.push_back({hipAddressModeBorder, hipFilterModePoint, true, hipAddressModeWrap});
    for (const Config& cfg : configs) {
      hipResourceDesc res{};
      res.resType = hipResourceTypeArray;
      res.res.array.array = array;
      hipTextureDesc tex{};
      tex.addressMode[0] = cfg.mode;
      tex.addressMode[1] = tex.addressMode[2] = cfg.other;
      tex.filterMode = cfg.filter;
      tex.readMode = hipReadModeElementType;
      tex.normalizedCoords = cfg.normalized;
      hipTextureObject_t t;
      HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
      sample<<<(n + 127) / 128, 128>>>(t, cfg.normalized ? duv : dtexel, out, n);
      HIP_OK(hipGetLastError());
      HIP_OK(hipMemcpy(got.data(), out, n * sizeof(float), hipMemcpyDeviceToHost));
      char what[96];
      std::snprintf(what, sizeof what, "%dx%d mode %d/%d filter %d normalized %d", W, H, cfg.mode, cfg.other, cfg.filter, cfg.normalized);
      for (int i = 0; i < n; ++i) {
        const float2 c = cfg.normalized ? uv[i] : texel_uv[i];
        expect_bits(what, i, got[i], reference(image, W, H, 1, 0, c.x, c.y, cfg.filter == hipFilterModeLinear, cfg.mode, cfg.normalized));
      }
      HIP_OK(hipDestroyTextureObject(t));
    }
    HIP_OK(hipFreeArray(array));
    HIP_OK(hipFree(duv));
    HIP_OK(hipFree(dtexel));
    HIP_OK(hipFree(out));
  }

  // uchar4 read as normalized floats with linear filtering: each texel converted (v / 255, rounded
  // to float), then blended.
  {
    const int W = 4, H = 4;
    unsigned char bytes[W * H * 4];
    float converted[W * H * 4];
    for (int i = 0; i < W * H * 4; ++i) bytes[i] = static_cast<unsigned char>((i * 37 + 11) & 255), converted[i] = bytes[i] / 255.0f;
    hipArray_t array;
    const hipChannelFormatDesc desc = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
    HIP_OK(hipMallocArray(&array, &desc, W, H));
    HIP_OK(hipMemcpy2DToArray(array, 0, 0, bytes, W * 4, W * 4, H, hipMemcpyHostToDevice));
    std::vector<float2> uv;
    for (int ky = -3; ky <= 4 * H + 3; ++ky)
      for (int kx = -3; kx <= 4 * W + 3; ++kx) uv.push_back(make_float2(kx / (4.0f * W), ky / (4.0f * H)));
    const int n = static_cast<int>(uv.size());
    float2* duv;
    float4* out;
    HIP_OK(hipMalloc(&duv, n * sizeof(float2)));
    HIP_OK(hipMalloc(&out, n * sizeof(float4)));
    HIP_OK(hipMemcpy(duv, uv.data(), n * sizeof(float2), hipMemcpyHostToDevice));
    hipResourceDesc res{};
    res.resType = hipResourceTypeArray;
    res.res.array.array = array;
    hipTextureDesc tex{};
    tex.addressMode[0] = hipAddressModeClamp;
    tex.filterMode = hipFilterModeLinear;
    tex.readMode = hipReadModeNormalizedFloat;
    tex.normalizedCoords = 1;
    hipTextureObject_t t;
    HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
    sample4<<<(n + 63) / 64, 64>>>(t, duv, out, n);
    HIP_OK(hipGetLastError());
    std::vector<float4> got(n);
    HIP_OK(hipMemcpy(got.data(), out, n * sizeof(float4), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const float g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
      for (int c = 0; c < 4; ++c)
        expect_bits("uchar4 normalized linear", i * 4 + c, g[c], reference(converted, W, H, 4, c, uv[i].x, uv[i].y, true, hipAddressModeClamp, true));
    }
    hipTextureDesc back{};
    HIP_OK(hipGetTextureObjectTextureDesc(&back, t));
    expect_int("texture desc", 0, back.filterMode, hipFilterModeLinear);
    hipResourceDesc res_back{};
    HIP_OK(hipGetTextureObjectResourceDesc(&res_back, t));
    expect_int("resource desc", 0, res_back.res.array.array == array, 1);
    HIP_OK(hipDestroyTextureObject(t));
    // sRGB: the same bytes through the 8_8_8_8_SRGB format, point sampling at texel centers.
    // Colour channels follow the sRGB curve (IEC 61966-2-1: c / 12.92 up to 0.04045, else
    // ((c + 0.055) / 1.055)^2.4), alpha stays linear.
    tex.filterMode = hipFilterModePoint;
    tex.sRGB = 1;
    HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
    std::vector<float2> centers;
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) centers.push_back(make_float2((x + 0.5f) / W, (y + 0.5f) / H));
    HIP_OK(hipMemcpy(duv, centers.data(), centers.size() * sizeof(float2), hipMemcpyHostToDevice));
    sample4<<<1, W * H>>>(t, duv, out, W * H);
    HIP_OK(hipGetLastError());
    HIP_OK(hipMemcpy(got.data(), out, W * H * sizeof(float4), hipMemcpyDeviceToHost));
    for (int i = 0; i < W * H; ++i) {
      const float g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
      for (int c = 0; c < 4; ++c) {
        const double v = bytes[i * 4 + c] / 255.0;
        const double linear = c == 3 ? v : v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        expect_near("sRGB", i * 4 + c, g[c], static_cast<float>(linear), 1);
      }
    }
    HIP_OK(hipDestroyTextureObject(t));
    HIP_OK(hipFreeArray(array));
  }
  return report("sample_2d");
}
