// Mipmapped arrays in the emulator's HIP runtime: levels of 1D, 2D, 3D and layered mipmapped
// arrays (runtime and driver API) with the sizes halved per level, each level an ordinary array:
// data copied in and out of every level, read by a kernel through a texture object over one
// level and written through a surface object; textures over whole mipmapped arrays refused as
// HIP 5.2 refuses them. The driver-API texture objects (hipTexObject*) over an array and linear
// memory, sampled and read back.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "hip_check.h"

#pragma clang diagnostic ignored "-Wdeprecated-declarations"  // texture references

texture<float, hipTextureType2D, hipReadModeElementType> level_ref;

__global__ void fetch_2d(hipTextureObject_t t, float* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) out[y * width + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void write_surface(hipSurfaceObject_t s, int width, int height, float scale) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) surf2Dwrite(scale * (y * width + x), s, x * static_cast<int>(sizeof(float)), y);
}

__global__ void fetch_linear(hipTextureObject_t t, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

static int largest_levels(size_t side) {
  int levels = 1;
  while (side >>= 1) ++levels;
  return levels;
}

static hipTextureObject_t object_over(hipArray_t level) {
  hipResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeArray;
  res.res.array.array = level;
  hipTextureDesc tex;
  std::memset(&tex, 0, sizeof tex);
  tex.addressMode[0] = tex.addressMode[1] = hipAddressModeClamp;
  tex.filterMode = hipFilterModePoint;
  tex.readMode = hipReadModeElementType;
  hipTextureObject_t t = 0;
  EXPECT_OK(hipCreateTextureObject(&t, &res, &tex, nullptr));
  return t;
}

// Every level of a 2D float mipmapped array: sizes, a round trip through copies, a kernel
// reading the level through a texture object, and a surface write read back.
static void two_dimensional() {
  const size_t width = 64, height = 24;
  const hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  hipMipmappedArray_t mipmap = nullptr;
  EXPECT_OK(hipMallocMipmappedArray(&mipmap, &desc, make_hipExtent(width, height, 0), 20));  // clamped
  const int levels = largest_levels(std::max(width, height));  // 1 + floor(log2(64)) = 7
  int size_wrong = 0, copy_wrong = 0, texture_wrong = 0, surface_wrong = 0;
  for (int l = 0; l < levels; ++l) {
    hipArray_t level = nullptr;
    EXPECT_OK(hipGetMipmappedArrayLevel(&level, mipmap, l));
    const size_t w = std::max<size_t>(1, width >> l), h = std::max<size_t>(1, height >> l);
    size_wrong += array_shape(level).width != w || array_shape(level).height != h || array_shape(level).depth != 0;
    std::vector<float> in(w * h), back(w * h, -1.0f), read(w * h, -1.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = 1000.0f * l + 0.5f * i;
    EXPECT_OK(hipMemcpy2DToArray(level, 0, 0, in.data(), w * sizeof(float), w * sizeof(float), h, hipMemcpyHostToDevice));
    EXPECT_OK(hipMemcpy2DFromArray(back.data(), w * sizeof(float), level, 0, 0, w * sizeof(float), h, hipMemcpyDeviceToHost));
    copy_wrong += back != in;
    float* out = nullptr;
    EXPECT_OK(hipMalloc(&out, w * h * sizeof(float)));
    const hipTextureObject_t t = object_over(level);
    fetch_2d<<<dim3((w + 31) / 32, h), 32>>>(t, out, static_cast<int>(w), static_cast<int>(h));
    EXPECT_OK(hipMemcpy(read.data(), out, w * h * sizeof(float), hipMemcpyDeviceToHost));
    texture_wrong += read != in;
    EXPECT_OK(hipDestroyTextureObject(t));
    hipResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = hipResourceTypeArray;
    res.res.array.array = level;
    hipSurfaceObject_t s = 0;
    EXPECT_OK(hipCreateSurfaceObject(&s, &res));
    write_surface<<<dim3((w + 31) / 32, h), 32>>>(s, static_cast<int>(w), static_cast<int>(h), 2.0f + l);
    EXPECT_OK(hipMemcpy2DFromArray(back.data(), w * sizeof(float), level, 0, 0, w * sizeof(float), h, hipMemcpyDeviceToHost));
    for (size_t i = 0; i < back.size(); ++i) surface_wrong += back[i] != (2.0f + l) * i;
    EXPECT_OK(hipDestroySurfaceObject(s));
    EXPECT_OK(hipFree(out));
  }
  EXPECT(size_wrong == 0);
  EXPECT(copy_wrong == 0);
  EXPECT(texture_wrong == 0);
  EXPECT(surface_wrong == 0);
  hipArray_t level = nullptr;
  EXPECT_ERROR(hipGetMipmappedArrayLevel(&level, mipmap, levels), hipErrorInvalidValue);
  EXPECT_ERROR(hipGetMipmappedArrayLevel(nullptr, mipmap, 0), hipErrorInvalidValue);

  // Textures over the whole mipmapped array are refused, as HIP 5.2 refuses them.
  hipResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = hipResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mipmap;
  hipTextureDesc tex;
  std::memset(&tex, 0, sizeof tex);
  tex.normalizedCoords = 1;
  hipTextureObject_t t = 0;
  EXPECT_ERROR(hipCreateTextureObject(&t, &res, &tex, nullptr), hipErrorNotSupported);
  const textureReference* ref = nullptr;
  EXPECT_OK(hipGetTextureReference(&ref, &level_ref));
  EXPECT_ERROR(hipBindTextureToMipmappedArray(ref, mipmap, &desc), hipErrorNotSupported);
  EXPECT_ERROR(hipBindTextureToMipmappedArray(ref, nullptr, &desc), hipErrorInvalidValue);
  textureReference* mutable_ref = const_cast<textureReference*>(ref);
  EXPECT_ERROR(hipTexRefSetMipmappedArray(mutable_ref, mipmap, HIP_TRSA_OVERRIDE_FORMAT), hipErrorNotSupported);
  EXPECT_ERROR(hipTexRefSetMipmappedArray(mutable_ref, mipmap, 0), hipErrorInvalidValue);

  EXPECT_OK(hipFreeMipmappedArray(mipmap));
  EXPECT_ERROR(hipFreeMipmappedArray(mipmap), hipErrorInvalidValue);
  EXPECT_ERROR(hipGetMipmappedArrayLevel(&level, mipmap, 0), hipErrorInvalidValue);
  EXPECT_ERROR(hipFreeMipmappedArray(nullptr), hipErrorInvalidValue);
}

// 3D, layered and 1D mipmapped arrays: level sizes (layers are not halved) and a 3D round trip.
static void other_shapes() {
  const hipChannelFormatDesc desc = hipCreateChannelDesc<int>();
  hipMipmappedArray_t volume = nullptr, layered = nullptr, line = nullptr;
  EXPECT_OK(hipMallocMipmappedArray(&volume, &desc, make_hipExtent(16, 8, 4), 3));
  EXPECT_OK(hipMallocMipmappedArray(&layered, &desc, make_hipExtent(8, 8, 3), 4, hipArrayLayered));
  EXPECT_OK(hipMallocMipmappedArray(&line, &desc, make_hipExtent(16, 0, 0), 0));  // 0 levels: one
  hipArray_t a = nullptr;
  EXPECT_OK(hipGetMipmappedArrayLevel(&a, volume, 2));
  EXPECT(array_shape(a).width == 4 && array_shape(a).height == 2 && array_shape(a).depth == 1);
  std::vector<int> in(4 * 2 * 1), back(in.size(), -1);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * i) - 5;
  hipMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_hipPitchedPtr(in.data(), 4 * sizeof(int), 4, 2);
  p.dstArray = a;
  p.extent = make_hipExtent(4, 2, 1);
  p.kind = hipMemcpyHostToDevice;
  EXPECT_OK(hipMemcpy3D(&p));
  std::memset(&p, 0, sizeof p);
  p.srcArray = a;
  p.dstPtr = make_hipPitchedPtr(back.data(), 4 * sizeof(int), 4, 2);
  p.extent = make_hipExtent(4, 2, 1);
  p.kind = hipMemcpyDeviceToHost;
  EXPECT_OK(hipMemcpy3D(&p));
  EXPECT(back == in);
  EXPECT_ERROR(hipGetMipmappedArrayLevel(&a, volume, 3), hipErrorInvalidValue);
  EXPECT_OK(hipGetMipmappedArrayLevel(&a, layered, 3));
  EXPECT(array_shape(a).width == 1 && array_shape(a).height == 1 && array_shape(a).depth == 3);
  EXPECT_OK(hipGetMipmappedArrayLevel(&a, line, 0));
  EXPECT(array_shape(a).width == 16 && array_shape(a).height == 0);
  EXPECT_ERROR(hipGetMipmappedArrayLevel(&a, line, 1), hipErrorInvalidValue);
  EXPECT_OK(hipFreeMipmappedArray(volume));
  EXPECT_OK(hipFreeMipmappedArray(layered));
  EXPECT_OK(hipFreeMipmappedArray(line));

  // The driver API: a 4-channel float array of 32 x 16, three levels.
  HIP_ARRAY3D_DESCRIPTOR d;
  std::memset(&d, 0, sizeof d);
  d.Width = 32;
  d.Height = 16;
  d.Format = HIP_AD_FORMAT_FLOAT;
  d.NumChannels = 4;
  hipMipmappedArray_t driver = nullptr;
  EXPECT_OK(hipMipmappedArrayCreate(&driver, &d, 3));
  EXPECT_OK(hipMipmappedArrayGetLevel(&a, driver, 2));
  EXPECT(array_shape(a).width == 8 && array_shape(a).height == 4 && array_shape(a).channels == 4 && array_shape(a).format == HIP_AD_FORMAT_FLOAT);
  EXPECT_ERROR(hipMipmappedArrayGetLevel(&a, driver, 3), hipErrorInvalidValue);
  EXPECT_OK(hipMipmappedArrayDestroy(driver));
  EXPECT_ERROR(hipMipmappedArrayDestroy(driver), hipErrorInvalidValue);
  EXPECT_ERROR(hipMallocMipmappedArray(&driver, &desc, make_hipExtent(0, 4, 0), 1), hipErrorInvalidValue);
  EXPECT_ERROR(hipMallocMipmappedArray(&driver, nullptr, make_hipExtent(4, 4, 0), 1), hipErrorInvalidValue);
}

// hipTexObject*: the driver API's descriptions of the runtime's texture objects.
static void driver_texture_objects() {
  const size_t width = 16, height = 4;
  hipArray_t array = nullptr;
  const hipChannelFormatDesc desc = hipCreateChannelDesc<float>();
  EXPECT_OK(hipMallocArray(&array, &desc, width, height));
  std::vector<float> in(width * height), read(width * height, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = 3.0f * i - 20.0f;
  EXPECT_OK(hipMemcpy2DToArray(array, 0, 0, in.data(), width * sizeof(float), width * sizeof(float), height, hipMemcpyHostToDevice));
  HIP_RESOURCE_DESC res;
  std::memset(&res, 0, sizeof res);
  res.resType = HIP_RESOURCE_TYPE_ARRAY;
  res.res.array.hArray = array;
  HIP_TEXTURE_DESC tex;
  std::memset(&tex, 0, sizeof tex);
  tex.addressMode[0] = tex.addressMode[1] = HIP_TR_ADDRESS_MODE_CLAMP;
  tex.filterMode = HIP_TR_FILTER_MODE_POINT;
  tex.flags = HIP_TRSF_READ_AS_INTEGER;
  hipTextureObject_t t = 0;
  EXPECT_OK(hipTexObjectCreate(&t, &res, &tex, nullptr));
  float* out = nullptr;
  EXPECT_OK(hipMalloc(&out, width * height * sizeof(float)));
  fetch_2d<<<dim3(1, height), 32>>>(t, out, static_cast<int>(width), static_cast<int>(height));
  EXPECT_OK(hipMemcpy(read.data(), out, width * height * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(read == in);
  HIP_RESOURCE_DESC res_back;
  HIP_TEXTURE_DESC tex_back;
  EXPECT_OK(hipTexObjectGetResourceDesc(&res_back, t));
  EXPECT(res_back.resType == HIP_RESOURCE_TYPE_ARRAY && res_back.res.array.hArray == array);
  EXPECT_OK(hipTexObjectGetTextureDesc(&tex_back, t));
  EXPECT(tex_back.flags == HIP_TRSF_READ_AS_INTEGER && tex_back.filterMode == HIP_TR_FILTER_MODE_POINT &&
         tex_back.addressMode[1] == HIP_TR_ADDRESS_MODE_CLAMP);
  EXPECT_OK(hipTexObjectDestroy(t));

  // Linear memory of floats, its format and channel count read back.
  const int n = 300;
  float* linear = nullptr;
  EXPECT_OK(hipMalloc(&linear, n * sizeof(float)));
  std::vector<float> values(n), fetched(n, -1.0f);
  for (int i = 0; i < n; ++i) values[i] = 0.25f * i;
  EXPECT_OK(hipMemcpy(linear, values.data(), n * sizeof(float), hipMemcpyHostToDevice));
  std::memset(&res, 0, sizeof res);
  res.resType = HIP_RESOURCE_TYPE_LINEAR;
  res.res.linear.devPtr = linear;
  res.res.linear.format = HIP_AD_FORMAT_FLOAT;
  res.res.linear.numChannels = 1;
  res.res.linear.sizeInBytes = n * sizeof(float);
  EXPECT_OK(hipTexObjectCreate(&t, &res, &tex, nullptr));
  float* got = nullptr;
  EXPECT_OK(hipMalloc(&got, n * sizeof(float)));
  fetch_linear<<<(n + 63) / 64, 64>>>(t, got, n);
  EXPECT_OK(hipMemcpy(fetched.data(), got, n * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT(fetched == values);
  EXPECT_OK(hipTexObjectGetResourceDesc(&res_back, t));
  EXPECT(res_back.resType == HIP_RESOURCE_TYPE_LINEAR && res_back.res.linear.format == HIP_AD_FORMAT_FLOAT &&
         res_back.res.linear.numChannels == 1 && res_back.res.linear.sizeInBytes == n * sizeof(float));
  HIP_RESOURCE_VIEW_DESC view;
  EXPECT_OK(hipTexObjectGetResourceViewDesc(&view, t));
  EXPECT(view.format == HIP_RES_VIEW_FORMAT_NONE);
  EXPECT_OK(hipTexObjectDestroy(t));
  res.flags = 1;
  EXPECT_ERROR(hipTexObjectCreate(&t, &res, &tex, nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipTexObjectCreate(&t, nullptr, &tex, nullptr), hipErrorInvalidValue);
  EXPECT_ERROR(hipTexObjectGetTextureDesc(&tex_back, t), hipErrorInvalidValue);  // destroyed
  EXPECT_OK(hipFree(linear));
  EXPECT_OK(hipFree(got));
  EXPECT_OK(hipFree(out));
  EXPECT_OK(hipFreeArray(array));
}

int main() {
  two_dimensional();
  other_shapes();
  driver_texture_objects();
  return finish("mipmaps");
}
