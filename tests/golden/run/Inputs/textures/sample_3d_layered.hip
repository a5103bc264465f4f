// tex3D over a 3D array filled by hipMemcpy3D (point and trilinear filtering), tex1D over a 1D
// array, tex1DLayered and tex2DLayered over layered arrays (the layer rounds to the nearest
// integer and clamps to the layers there are), and tex2Dgather, whose four results are one
// component of the 2 x 2 texels bilinear filtering would blend, in the order the Vulkan
// specification gives OpImageGather: (i0, j1), (i1, j1), (i1, j0), (i0, j0). HIP 5.2's
// tex2Dgather for texture objects (texture_indirect_functions.h) gathers red for comp 1, green
// for 2, blue for 3 and alpha for anything else, 0 included: the reference follows the header.
// CPU references as in sample_2d.hip; coordinates on a quarter-texel grid.
#include "check.h"

__global__ void sample3(hipTextureObject_t t, const float4* c, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void sample1(hipTextureObject_t t, const float* c, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, c[i]);
}
__global__ void layered1(hipTextureObject_t t, const float4* c, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<float>(t, c[i].x, static_cast<int>(c[i].w));
}
__global__ void layered2(hipTextureObject_t t, const float4* c, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, c[i].x, c[i].y, static_cast<int>(c[i].w));
}
// With one mip level, an explicit LOD or gradients leave bilinear filtering as it is.
__global__ void lod_grad(hipTextureObject_t t, const float4* c, float2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].x = tex2DLod<float4>(t, c[i].x, c[i].y, 0.75f).x;
    out[i].y = tex2DGrad<float4>(t, c[i].x, c[i].y, make_float2(2.0f, 0.0f), make_float2(0.0f, 3.0f)).x;
  }
}
__global__ void gather(hipTextureObject_t t, const float4* c, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, static_cast<int>(c[i].w));
}

static long long clamp_to(long long i, long long size) { return i < 0 ? 0 : i >= size ? size - 1 : i; }
static long long wrap(long long i, long long size) { return ((i % size) + size) % size; }

// Trilinear (or point) reference over a W x H x D volume, wrap or clamp on every axis.
static float reference3(const std::vector<float>& v, int W, int H, int D, float u, float s, float r, bool linear, bool wrap_mode) {
  const double x = static_cast<double>(u * W), y = static_cast<double>(s * H), z = static_cast<double>(r * D);
  auto at = [&](long long i, long long j, long long k) {
    auto a = [&](long long q, long long size) { return wrap_mode ? wrap(q, size) : clamp_to(q, size); };
    return static_cast<double>(v[(a(k, D) * H + a(j, H)) * W + a(i, W)]);
  };
  if (!linear) return static_cast<float>(at(static_cast<long long>(std::floor(x)), static_cast<long long>(std::floor(y)), static_cast<long long>(std::floor(z))));
  const double xb = x - 0.5, yb = y - 0.5, zb = z - 0.5;
  const long long i = static_cast<long long>(std::floor(xb)), j = static_cast<long long>(std::floor(yb)), k = static_cast<long long>(std::floor(zb));
  const double a = xb - i, b = yb - j, g = zb - k;
  double sum = 0;
  for (int dk = 0; dk < 2; ++dk)
    for (int dj = 0; dj < 2; ++dj)
      for (int di = 0; di < 2; ++di) sum += (di ? a : 1 - a) * (dj ? b : 1 - b) * (dk ? g : 1 - g) * at(i + di, j + dj, k + dk);
  return static_cast<float>(sum);
}

static hipTextureObject_t object(hipArray_t array, hipTextureFilterMode filter, hipTextureAddressMode mode) {
  hipResourceDesc res{};
  res.resType = hipResourceTypeArray;
  res.res.array.array = array;
  hipTextureDesc tex{};
  tex.addressMode[0] = mode;
  tex.filterMode = filter;
  tex.readMode = hipReadModeElementType;
  tex.normalizedCoords = 1;
  hipTextureObject_t t;
  HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
  return t;
}

template <typename C, typename R>
std::vector<R> launch(void (*kernel)(hipTextureObject_t, const C*, R*, int), hipTextureObject_t t, const std::vector<C>& coords) {
  const int n = static_cast<int>(coords.size());
  C* dc;
  R* out;
  HIP_OK(hipMalloc(&dc, n * sizeof(C)));
  HIP_OK(hipMalloc(&out, n * sizeof(R)));
  HIP_OK(hipMemcpy(dc, coords.data(), n * sizeof(C), hipMemcpyHostToDevice));
  kernel<<<(n + 127) / 128, 128>>>(t, dc, out, n);
  HIP_OK(hipGetLastError());
  std::vector<R> got(n);
  HIP_OK(hipMemcpy(got.data(), out, n * sizeof(R), hipMemcpyDeviceToHost));
  HIP_OK(hipFree(dc));
  HIP_OK(hipFree(out));
  return got;
}

int main() {
  const hipChannelFormatDesc fdesc = hipCreateChannelDesc<float>();
  // ---- 3D: 4 x 3 x 5 texels, from a padded host buffer through hipMemcpy3D.
  {
    const int W = 4, H = 3, D = 5, host_pitch = 6;
    std::vector<float> volume(W * H * D), padded(host_pitch * H * D, -1.0f);
    for (int z = 0; z < D; ++z)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) volume[(z * H + y) * W + x] = padded[(z * H + y) * host_pitch + x] = x + 10.0f * y + 100.0f * z;
    hipArray_t array;
    HIP_OK(hipMalloc3DArray(&array, &fdesc, make_hipExtent(W, H, D), 0));
    hipMemcpy3DParms p{};
    p.srcPtr = make_hipPitchedPtr(padded.data(), host_pitch * sizeof(float), W, H);
    p.dstArray = array;
    p.extent = make_hipExtent(W, H, D);
    p.kind = hipMemcpyHostToDevice;
    HIP_OK(hipMemcpy3D(&p));
    // Back through hipMemcpy3D into a tight buffer: the array holds the volume.
    std::vector<float> back(W * H * D);
    hipMemcpy3DParms q{};
    q.srcArray = array;
    q.dstPtr = make_hipPitchedPtr(back.data(), W * sizeof(float), W, H);
    q.extent = make_hipExtent(W, H, D);
    q.kind = hipMemcpyDeviceToHost;
    HIP_OK(hipMemcpy3D(&q));
    for (int i = 0; i < W * H * D; ++i) expect_bits("3D copy", i, back[i], volume[i]);
    std::vector<float4> coords;
    for (int kz = -3; kz <= 4 * D + 3; kz += 1)
      for (int ky = -3; ky <= 4 * H + 3; ky += 2)
        for (int kx = -3; kx <= 4 * W + 3; kx += 1) coords.push_back(make_float4(kx / (4.0f * W), ky / (4.0f * H), kz / (4.0f * D), 0));
    for (auto filter : {hipFilterModePoint, hipFilterModeLinear})
      for (auto mode : {hipAddressModeClamp, hipAddressModeWrap}) {
        hipTextureObject_t t = object(array, filter, mode);
        const auto got = launch(sample3, t, coords);
        for (size_t i = 0; i < coords.size(); ++i)
          expect_bits(filter ? "tex3D linear" : "tex3D point", static_cast<int>(i), got[i],
                      reference3(volume, W, H, D, coords[i].x, coords[i].y, coords[i].z, filter == hipFilterModeLinear, mode == hipAddressModeWrap));
        HIP_OK(hipDestroyTextureObject(t));
      }
    HIP_OK(hipFreeArray(array));
  }
  // ---- 1D and 1D layered: 8 texels, 3 layers.
  {
    const int W = 8, L = 3;
    std::vector<float> data(W * L);
    for (int i = 0; i < W * L; ++i) data[i] = i * 1.25f - 3.0f;
    hipArray_t line, layers;
    HIP_OK(hipMallocArray(&line, &fdesc, W, 0));
    HIP_OK(hipMemcpyToArray(line, 0, 0, data.data(), W * sizeof(float), hipMemcpyHostToDevice));
    HIP_OK(hipMalloc3DArray(&layers, &fdesc, make_hipExtent(W, 0, L), hipArrayLayered));
    hipMemcpy3DParms p{};
    p.srcPtr = make_hipPitchedPtr(data.data(), W * sizeof(float), W, 1);
    p.dstArray = layers;
    p.extent = make_hipExtent(W, 1, L);
    p.kind = hipMemcpyHostToDevice;
    HIP_OK(hipMemcpy3D(&p));
    std::vector<float> xs;
    std::vector<float4> xl;
    for (int k = -6; k <= 4 * W + 6; ++k) {
      xs.push_back(k / (4.0f * W));
      for (int layer = -1; layer <= L; ++layer) xl.push_back(make_float4(k / (4.0f * W), 0, 0, static_cast<float>(layer)));
    }
    hipTextureObject_t t = object(line, hipFilterModeLinear, hipAddressModeMirror);
    const auto got = launch(sample1, t, xs);
    for (size_t i = 0; i < xs.size(); ++i) {
      const double xb = static_cast<double>(xs[i] * W) - 0.5;
      const long long i0 = static_cast<long long>(std::floor(xb));
      const double a = xb - i0;
      auto m = [&](long long q) {
        const long long r = ((q % (2 * W)) + 2 * W) % (2 * W);
        return data[r < W ? r : 2 * W - 1 - r];
      };
      expect_bits("tex1D mirror linear", static_cast<int>(i), got[i], static_cast<float>((1 - a) * m(i0) + a * m(i0 + 1)));
    }
    HIP_OK(hipDestroyTextureObject(t));
    t = object(layers, hipFilterModeLinear, hipAddressModeClamp);
    const auto got_l = launch(layered1, t, xl);
    for (size_t i = 0; i < xl.size(); ++i) {
      const long long layer = clamp_to(static_cast<long long>(xl[i].w), L);
      const double xb = static_cast<double>(xl[i].x * W) - 0.5;
      const long long i0 = static_cast<long long>(std::floor(xb));
      const double a = xb - i0;
      const float* row = data.data() + layer * W;
      expect_bits("tex1DLayered", static_cast<int>(i), got_l[i], static_cast<float>((1 - a) * row[clamp_to(i0, W)] + a * row[clamp_to(i0 + 1, W)]));
    }
    HIP_OK(hipDestroyTextureObject(t));
    HIP_OK(hipFreeArray(line));
    HIP_OK(hipFreeArray(layers));
  }
  // ---- 2D layered (point filtering) and gather over a float4 2D array.
  {
    const int W = 4, H = 4, L = 3;
    std::vector<float> data(W * H * L);
    for (int i = 0; i < W * H * L; ++i) data[i] = static_cast<float>(i * i % 97);
    hipArray_t layers;
    HIP_OK(hipMalloc3DArray(&layers, &fdesc, make_hipExtent(W, H, L), hipArrayLayered));
    hipMemcpy3DParms p{};
    p.srcPtr = make_hipPitchedPtr(data.data(), W * sizeof(float), W, H);
    p.dstArray = layers;
    p.extent = make_hipExtent(W, H, L);
    p.kind = hipMemcpyHostToDevice;
    HIP_OK(hipMemcpy3D(&p));
    std::vector<float4> c;
    for (int layer = -1; layer <= L; ++layer)
      for (int ky = -2; ky <= 4 * H + 2; ++ky)
        for (int kx = -2; kx <= 4 * W + 2; ++kx) c.push_back(make_float4(kx / (4.0f * W), ky / (4.0f * H), 0, static_cast<float>(layer)));
    hipTextureObject_t t = object(layers, hipFilterModePoint, hipAddressModeWrap);
    const auto got = launch(layered2, t, c);
    for (size_t i = 0; i < c.size(); ++i) {
      const long long layer = clamp_to(static_cast<long long>(c[i].w), L);
      const long long x = wrap(static_cast<long long>(std::floor(static_cast<double>(c[i].x * W))), W);
      const long long y = wrap(static_cast<long long>(std::floor(static_cast<double>(c[i].y * H))), H);
      expect_bits("tex2DLayered", static_cast<int>(i), got[i], data[(layer * H + y) * W + x]);
    }
    HIP_OK(hipDestroyTextureObject(t));
    HIP_OK(hipFreeArray(layers));

    std::vector<float> rgba(W * H * 4);
    for (int i = 0; i < W * H * 4; ++i) rgba[i] = i + 0.5f;
    hipArray_t image;
    const hipChannelFormatDesc f4 = hipCreateChannelDesc<float4>();
    HIP_OK(hipMallocArray(&image, &f4, W, H));
    HIP_OK(hipMemcpy2DToArray(image, 0, 0, rgba.data(), W * 16, W * 16, H, hipMemcpyHostToDevice));
    std::vector<float4> g;
    for (int comp = 0; comp < 4; ++comp)
      for (int ky = -2; ky <= 4 * H + 2; ++ky)
        for (int kx = -2; kx <= 4 * W + 2; ++kx) g.push_back(make_float4(kx / (4.0f * W), ky / (4.0f * H), 0, static_cast<float>(comp)));
    t = object(image, hipFilterModeLinear, hipAddressModeClamp);
    const auto gathered = launch(gather, t, g);
    for (size_t i = 0; i < g.size(); ++i) {
      const long long i0 = static_cast<long long>(std::floor(static_cast<double>(g[i].x * W) - 0.5));
      const long long j0 = static_cast<long long>(std::floor(static_cast<double>(g[i].y * H) - 0.5));
      const int asked = static_cast<int>(g[i].w), comp = asked >= 1 && asked <= 3 ? asked - 1 : 3;
      auto at = [&](long long x, long long y) { return rgba[(clamp_to(y, H) * W + clamp_to(x, W)) * 4 + comp]; };
      expect_bits("tex2Dgather", static_cast<int>(4 * i), gathered[i].x, at(i0, j0 + 1));
      expect_bits("tex2Dgather", static_cast<int>(4 * i + 1), gathered[i].y, at(i0 + 1, j0 + 1));
      expect_bits("tex2Dgather", static_cast<int>(4 * i + 2), gathered[i].z, at(i0 + 1, j0));
      expect_bits("tex2Dgather", static_cast<int>(4 * i + 3), gathered[i].w, at(i0, j0));
    }
    const auto lg = launch(lod_grad, t, g);
    for (size_t i = 0; i < g.size(); ++i) {
      const double xb = static_cast<double>(g[i].x * W) - 0.5, yb = static_cast<double>(g[i].y * H) - 0.5;
      const long long i0 = static_cast<long long>(std::floor(xb)), j0 = static_cast<long long>(std::floor(yb));
      const double a = xb - i0, b = yb - j0;
      auto at = [&](long long x, long long y) { return static_cast<double>(rgba[(clamp_to(y, H) * W + clamp_to(x, W)) * 4]); };
      const float want = static_cast<float>((1 - a) * (1 - b) * at(i0, j0) + a * (1 - b) * at(i0 + 1, j0) + (1 - a) * b * at(i0, j0 + 1) +
                                            a * b * at(i0 + 1, j0 + 1));
      expect_bits("tex2DLod", static_cast<int>(i), lg[i].x, want);
      expect_bits("tex2DGrad", static_cast<int>(i), lg[i].y, want);
    }
    HIP_OK(hipDestroyTextureObject(t));
    HIP_OK(hipFreeArray(image));
  }
  return report("sample_3d_layered");
}
