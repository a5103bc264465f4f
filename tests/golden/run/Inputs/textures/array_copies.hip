// Copies to and from HIP arrays, each checked against a host model of the array (rows of width *
// element bytes, no padding): hipMemcpy2DToArray / FromArray with source and destination pitches
// wider than the rows and column/row offsets, hipMemcpyToArray / FromArray and
// hipMemcpyHtoA / AtoH (byte ranges over the rows laid end to end), hipMemcpyParam2D between
// pitched device memory, arrays and host memory, hipMemcpy3D with array positions; arrays from
// hipMallocArray, hipArrayCreate and hipArray3DCreate; copies past an array's end are refused.
#include "check.h"

// The array read back by the texture unit (texel centers, point sampling): the padded rows the
// copies wrote are the rows the image descriptor describes.
__global__ void texels(hipTextureObject_t t, ushort2* out, int W) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D<ushort2>(t, x + 0.5f, y + 0.5f);
}

int main() {
  const int W = 13, H = 7;  // 13 ushort2 texels: 52-byte rows, padded in the array
  const int row = W * 4;
  std::vector<unsigned char> model(row * H), got(row * H);
  for (int i = 0; i < row * H; ++i) model[i] = static_cast<unsigned char>(i * 7 + 3);
  hipArray_t a;
  const hipChannelFormatDesc desc = hipCreateChannelDesc<ushort2>();
  HIP_OK(hipMallocArray(&a, &desc, W, H));
  hipChannelFormatDesc back{};
  HIP_OK(hipGetChannelDesc(&back, a));
  expect_int("channel desc", 0, back.x * 1000 + back.y * 10 + back.f, 16 * 1000 + 16 * 10 + hipChannelFormatKindUnsigned);
  const HIP_ARRAY_DESCRIPTOR fields = descriptor_of(a);
  expect_int("array fields", 0, static_cast<long long>(fields.Width * 100 + fields.Height * 10 + fields.NumChannels), W * 100 + H * 10 + 2);
  HIP_OK(hipMemcpyHtoA(a, 0, model.data(), model.size()));

  // A 5 x 3 texel block from a host buffer with a 40-byte pitch, into columns 2.. rows 3..
  std::vector<unsigned char> block(40 * 3);
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<unsigned char>(200 + i);
  HIP_OK(hipMemcpy2DToArray(a, 2 * 4, 3, block.data(), 40, 5 * 4, 3, hipMemcpyHostToDevice));
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 20; ++x) model[(3 + y) * row + 8 + x] = block[y * 40 + x];
  HIP_OK(hipMemcpyAtoH(got.data(), a, 0, got.size()));
  for (int i = 0; i < row * H; ++i) expect_int("2D to array", i, got[i], model[i]);

  // Out with a 64-byte destination pitch, from row 1 column 1, 11 texels x 5 rows.
  std::vector<unsigned char> out(64 * 5, 0xee);
  HIP_OK(hipMemcpy2DFromArray(out.data(), 64, a, 4, 1, 11 * 4, 5, hipMemcpyDeviceToHost));
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 64; ++x) expect_int("2D from array", y * 64 + x, out[y * 64 + x], x < 44 ? model[(1 + y) * row + 4 + x] : 0xee);

  // Byte ranges across rows: 100 bytes from row 2, byte 30.
  std::vector<unsigned char> span(100);
  for (int i = 0; i < 100; ++i) span[i] = static_cast<unsigned char>(i ^ 0x5a);
  HIP_OK(hipMemcpyToArray(a, 30, 2, span.data(), span.size(), hipMemcpyHostToDevice));
  for (int i = 0; i < 100; ++i) model[2 * row + 30 + i] = span[i];
  std::vector<unsigned char> span_back(150);
  HIP_OK(hipMemcpyFromArray(span_back.data(), a, 10, 1, span_back.size(), hipMemcpyDeviceToHost));
  for (int i = 0; i < 150; ++i) expect_int("from array span", i, span_back[i], model[row + 10 + i]);

  // hipMemcpyParam2D: pitched device memory into the array, then the array to host.
  unsigned char* pitched;
  size_t pitch;
  HIP_OK(hipMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, row, H));
  std::vector<unsigned char> source(pitch * H);
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<unsigned char>(i * 13);
  HIP_OK(hipMemcpy(pitched, source.data(), source.size(), hipMemcpyHostToDevice));
  hip_Memcpy2D p{};
  p.srcMemoryType = hipMemoryTypeDevice;
  p.srcDevice = pitched;
  p.srcPitch = pitch;
  p.srcXInBytes = 4;
  p.srcY = 2;
  p.dstMemoryType = hipMemoryTypeArray;
  p.dstArray = a;
  p.dstXInBytes = 0;
  p.dstY = 0;
  p.WidthInBytes = 8 * 4;
  p.Height = 4;
  HIP_OK(hipMemcpyParam2D(&p));
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 32; ++x) model[y * row + x] = source[(2 + y) * pitch + 4 + x];
  hip_Memcpy2D q{};
  q.srcMemoryType = hipMemoryTypeArray;
  q.srcArray = a;
  q.dstMemoryType = hipMemoryTypeHost;
  q.dstHost = got.data();
  q.dstPitch = row;
  q.WidthInBytes = row;
  q.Height = H;
  HIP_OK(hipMemcpyParam2D(&q));
  for (int i = 0; i < row * H; ++i) expect_int("param2D", i, got[i], model[i]);

  {
    hipResourceDesc res{};
    res.resType = hipResourceTypeArray;
    res.res.array.array = a;
    hipTextureDesc tex{};
    tex.readMode = hipReadModeElementType;
    hipTextureObject_t t;
    HIP_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
    ushort2* dt;
    HIP_OK(hipMalloc(&dt, W * H * sizeof(ushort2)));
    texels<<<H, W>>>(t, dt, W);
    HIP_OK(hipGetLastError());
    HIP_OK(hipMemcpy(got.data(), dt, row * H, hipMemcpyDeviceToHost));
    for (int i = 0; i < row * H; ++i) expect_int("read by the texture unit", i, got[i], model[i]);
    HIP_OK(hipDestroyTextureObject(t));
    HIP_OK(hipFree(dt));
  }

  // Past the end: refused, the array unchanged.
  expect_int("2D past the end", 0, hipMemcpy2DToArray(a, 10 * 4, 0, block.data(), 40, 5 * 4, 1, hipMemcpyHostToDevice), hipErrorInvalidValue);
  expect_int("rows past the end", 0, hipMemcpy2DToArray(a, 0, 6, block.data(), 40, 4, 2, hipMemcpyHostToDevice), hipErrorInvalidValue);
  expect_int("span past the end", 0, hipMemcpyHtoA(a, row * H - 3, span.data(), 4), hipErrorInvalidValue);
  expect_int("pitch below the width", 0, hipMemcpy2DToArray(a, 0, 0, block.data(), 8, 12, 2, hipMemcpyHostToDevice), hipErrorInvalidPitchValue);
  (void)hipGetLastError();
  HIP_OK(hipMemcpyAtoH(got.data(), a, 0, got.size()));
  for (int i = 0; i < row * H; ++i) expect_int("unchanged", i, got[i], model[i]);

  // Driver-API arrays and hipMemcpy3D with positions: a 6 x 4 x 3 float volume, a 2 x 2 x 2
  // block from host position (1, 1, 0) into array position (3, 2, 1).
  HIP_ARRAY3D_DESCRIPTOR d3{};
  d3.Width = 6;
  d3.Height = 4;
  d3.Depth = 3;
  d3.Format = HIP_AD_FORMAT_FLOAT;
  d3.NumChannels = 1;
  hipArray_t v;
  HIP_OK(hipArray3DCreate(&v, &d3));
  std::vector<float> vmodel(6 * 4 * 3, 0.0f), vhost(5 * 4 * 2), vback(6 * 4 * 3);
  for (size_t i = 0; i < vhost.size(); ++i) vhost[i] = i + 0.5f;
  hipMemcpy3DParms m{};
  m.srcPtr = make_hipPitchedPtr(vhost.data(), 5 * sizeof(float), 5, 4);
  m.srcPos = make_hipPos(1 * sizeof(float), 1, 0);
  m.dstArray = v;
  m.dstPos = make_hipPos(3, 2, 1);
  m.extent = make_hipExtent(2, 2, 2);
  m.kind = hipMemcpyHostToDevice;
  HIP_OK(hipMemcpy3D(&m));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) vmodel[((1 + z) * 4 + 2 + y) * 6 + 3 + x] = vhost[(z * 4 + 1 + y) * 5 + 1 + x];
  hipMemcpy3DParms r{};
  r.srcArray = v;
  r.dstPtr = make_hipPitchedPtr(vback.data(), 6 * sizeof(float), 6, 4);
  r.extent = make_hipExtent(6, 4, 3);
  r.kind = hipMemcpyDeviceToHost;
  HIP_OK(hipMemcpy3D(&r));
  for (size_t i = 0; i < vback.size(); ++i) expect_bits("3D positions", static_cast<int>(i), vback[i], vmodel[i]);
  m.dstPos = make_hipPos(5, 0, 0);  // 2 texels from column 5 of 6
  expect_int("3D past the end", 0, hipMemcpy3D(&m), hipErrorInvalidValue);
  (void)hipGetLastError();

  HIP_ARRAY_DESCRIPTOR d2{};
  d2.Width = 9;
  d2.Height = 2;
  d2.Format = HIP_AD_FORMAT_SIGNED_INT8;
  d2.NumChannels = 4;
  hipArray_t c;
  HIP_OK(hipArrayCreate(&c, &d2));
  expect_int("driver array", 0, descriptor_of(c).Format * 10 + descriptor_of(c).NumChannels, HIP_AD_FORMAT_SIGNED_INT8 * 10 + 4);
  HIP_OK(hipArrayDestroy(c));
  HIP_OK(hipArrayDestroy(v));
  HIP_OK(hipFreeArray(a));
  expect_int("double free", 0, hipFreeArray(a), hipErrorInvalidValue);
  HIP_OK(hipFree(pitched));
  return report("array_copies");
}
