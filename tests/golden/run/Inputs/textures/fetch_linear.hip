// tex1Dfetch on linear memory, through texture objects and legacy texture references: float,
// int, uchar4 and ushort4 as stored, uchar4/short2/char read as normalized floats (v / 255,
// max(v / 32767, -1), max(v / 127, -1)). The CPU reference converts the same stored values.
// The channel kinds are spelled out: HIP 5.2's hipCreateChannelDesc<uchar1..4>() says signed and
// hipCreateChannelDesc<signed char>() unsigned (amd_channel_descriptor.h), which the legacy
// texture<uchar4> below inherits: it reads snorm, as on a GPU with HIP 5.2 (HIP 6.4 says unsigned).
#include "check.h"

texture<float, hipTextureType1D, hipReadModeElementType> ref_float;
texture<uchar4, hipTextureType1D, hipReadModeNormalizedFloat> ref_uchar4;

template <typename T>
__global__ void fetch(hipTextureObject_t t, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<T>(t, i);
}
__global__ void fetch_refs(float* f, float4* u, int shift, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    f[i] = tex1Dfetch(ref_float, i + shift);
    u[i] = tex1Dfetch(ref_uchar4, i);
  }
}

template <typename Stored, typename Read>
void run(const char* what, const Stored* host, int n, hipChannelFormatDesc desc, hipTextureReadMode mode, void (*reference)(const Stored&, Read&),
         void (*compare)(const char*, int, const Read&, const Read&)) {
  Stored* d;
  Read* out;
  HIP_OK(hipMalloc(&d, n * sizeof(Stored)));
  HIP_OK(hipMalloc(&out, n * sizeof(Read)));
  HIP_OK(hipMemcpy(d, host, n * sizeof(Stored), hipMemcpyHostToDevice));
  hipResourceDesc res{};
  res.resType = hipResourceTypeLinear;
  res.res.linear.devPtr = d;
  res.res.linear.desc = desc;
  res.res.linear.sizeInBytes = n * sizeof(Stored);
  hipTextureDesc tex{};
  tex.readMode = mode;
  hipTextureObject_t t;
  HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
  fetch<Read><<<(n + 63) / 64, 64>>>(t, out, n);
  HIP_OK(hipGetLastError());
  Read* got = new Read[n];
  HIP_OK(hipMemcpy(got, out, n * sizeof(Read), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    Read want;
    reference(host[i], want);
    compare(what, i, got[i], want);
  }
  delete[] got;
  HIP_OK(hipDestroyTextureObject(t));
  HIP_OK(hipFree(d));
  HIP_OK(hipFree(out));
}

int main() {
  const int n = 300;  // several workgroups, the last one partial
  float f[n];
  int k[n];
  uchar4 c[n];
  ushort4 s4[n];
  short2 s2[n];
  signed char sc[n];
  for (int i = 0; i < n; ++i) {
    f[i] = i == 7 ? -0.0f : i == 8 ? INFINITY : i == 9 ? 1.0e-40f : (i - 150) * 0.37f;
    k[i] = (i - 150) * 1234567;
    c[i] = make_uchar4(i & 255, (i * 7) & 255, 255 - (i & 255), i == 0 ? 255 : (i * 13) & 255);
    s4[i] = make_ushort4(i * 211, 65535 - i, i * i, 12345);
    s2[i] = make_short2(i == 1 ? -32768 : (i - 150) * 217, i == 2 ? 32767 : -i * 100);
    sc[i] = static_cast<signed char>(i == 3 ? -128 : i - 128);
  }
  run<float, float>("float", f, n, hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindFloat), hipReadModeElementType, [](const float& s, float& r) { r = s; },
                    [](const char* w, int i, const float& g, const float& e) { expect_bits(w, i, g, e); });
  run<int, int>("int", k, n, hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindSigned), hipReadModeElementType, [](const int& s, int& r) { r = s; },
                [](const char* w, int i, const int& g, const int& e) { expect_int(w, i, g, e); });
  run<uchar4, uchar4>("uchar4", c, n, hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned), hipReadModeElementType, [](const uchar4& s, uchar4& r) { r = s; },
                      [](const char* w, int i, const uchar4& g, const uchar4& e) {
                        expect_int(w, i, g.x | g.y << 8 | g.z << 16 | g.w << 24, e.x | e.y << 8 | e.z << 16 | e.w << 24);
                      });
  run<ushort4, ushort4>("ushort4", s4, n, hipCreateChannelDesc<ushort4>(), hipReadModeElementType, [](const ushort4& s, ushort4& r) { r = s; },
                        [](const char* w, int i, const ushort4& g, const ushort4& e) {
                          expect_int(w, i, g.x + 65536ll * g.y, e.x + 65536ll * e.y);
                          expect_int(w, i, g.z + 65536ll * g.w, e.z + 65536ll * e.w);
                        });
  // Normalized reads: unsigned v / (2^n - 1), signed max(v / (2^(n-1) - 1), -1), rounded once.
  run<uchar4, float4>("uchar4 normalized", c, n, hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned), hipReadModeNormalizedFloat,
                      [](const uchar4& s, float4& r) { r = make_float4(s.x / 255.0f, s.y / 255.0f, s.z / 255.0f, s.w / 255.0f); },
                      [](const char* w, int i, const float4& g, const float4& e) {
                        expect_bits(w, i, g.x, e.x), expect_bits(w, i, g.y, e.y), expect_bits(w, i, g.z, e.z), expect_bits(w, i, g.w, e.w);
                      });
  run<short2, float2>("short2 normalized", s2, n, hipCreateChannelDesc<short2>(), hipReadModeNormalizedFloat,
                      [](const short2& s, float2& r) { r = make_float2(std::fmax(s.x / 32767.0f, -1.0f), std::fmax(s.y / 32767.0f, -1.0f)); },
                      [](const char* w, int i, const float2& g, const float2& e) { expect_bits(w, i, g.x, e.x), expect_bits(w, i, g.y, e.y); });
  run<signed char, float>("char normalized", sc, n, hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindSigned), hipReadModeNormalizedFloat,
                          [](const signed char& s, float& r) { r = std::fmax(s / 127.0f, -1.0f); },
                          [](const char* w, int i, const float& g, const float& e) { expect_bits(w, i, g, e); });

  // Legacy references: the binding's offset (the pointer is 12 bytes past a 256-byte boundary)
  // is what the program adds to its indices.
  float* df;
  uchar4* dc;
  HIP_OK(hipMalloc(&df, n * sizeof(float)));
  HIP_OK(hipMalloc(&dc, n * sizeof(uchar4)));
  HIP_OK(hipMemcpy(df, f, sizeof f, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(dc, c, sizeof c, hipMemcpyHostToDevice));
  size_t offset = 99;
  HIP_OK(hipBindTexture(&offset, ref_float, df + 3, (n - 3) * sizeof(float)));
  expect_int("offset", 0, static_cast<long long>(offset), 12);
  HIP_OK(hipBindTexture(nullptr, ref_uchar4, dc, n * sizeof(uchar4)));
  const int m = n - 3;
  float* of;
  float4* oc;
  HIP_OK(hipMalloc(&of, m * sizeof(float)));
  HIP_OK(hipMalloc(&oc, m * sizeof(float4)));
  fetch_refs<<<(m + 63) / 64, 64>>>(of, oc, static_cast<int>(offset / sizeof(float)), m);
  HIP_OK(hipGetLastError());
  float rf[n];
  float4 rc[n];
  HIP_OK(hipMemcpy(rf, of, m * sizeof(float), hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(rc, oc, m * sizeof(float4), hipMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    expect_bits("ref float", i, rf[i], f[i + 3]);
    // texture<uchar4> reads as its channel description says: signed (snorm) with HIP 5.2's
    // headers (see above), unsigned (unorm) with HIP 6.4's, which fixed it.
    if (hipCreateChannelDesc<uchar4>().f == hipChannelFormatKindSigned) {
      expect_bits("ref uchar4", i, rc[i].x, std::fmax(static_cast<signed char>(c[i].x) / 127.0f, -1.0f));
      expect_bits("ref uchar4", i, rc[i].w, std::fmax(static_cast<signed char>(c[i].w) / 127.0f, -1.0f));
    } else {
      expect_bits("ref uchar4", i, rc[i].x, c[i].x / 255.0f);
      expect_bits("ref uchar4", i, rc[i].w, c[i].w / 255.0f);
    }
  }
  HIP_OK(hipUnbindTexture(ref_float));
  HIP_OK(hipUnbindTexture(ref_uchar4));
  return report("fetch_linear");
}
