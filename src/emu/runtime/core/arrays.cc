// HIP arrays in the runtime's core: an array is device memory in the linear layout the image
// descriptors of core/textures.cc describe (rows padded to 256 bytes), registered with the
// emulator's address space like every allocation; the hipArray struct the program sees has the
// fields HIP's header declares. Also the copies that have an array on either side.
#include <cstring>

#include "emu/runtime/core/images.h"

namespace gpuport::emu::hip {
namespace {

struct ArrayRecord {
  std::unique_ptr<hipArray> array;
  ArrayLayout layout;
};

std::map<hipArray_const_t, ArrayRecord>& arrays() {
  static auto* a = new std::map<hipArray_const_t, ArrayRecord>();
  return *a;
}

// Sizes HIP's documentation states for gfx11 images (hipDeviceProp_t::maxTexture*).
constexpr std::uint32_t kMaxWidth = 16384, kMaxLayers = 8192, kMax3D = 2048;

}  // namespace

hipError_t create_array(hipArray** out, const hipChannelFormatDesc& desc, std::size_t width, std::size_t height, std::size_t depth,
                  unsigned int flags, bool driver) {
  if (!out || width == 0) return ret(hipErrorInvalidValue);
  ArrayLayout l;
  if (!channel_layout(desc, l.channels, l.bits)) return ret(hipErrorInvalidValue);
  if (flags & (hipArrayCubemap | hipArrayTextureGather)) {
    runtime().say_unsupported(flags & hipArrayCubemap ? "cubemap arrays (hipArrayCubemap)" : "hipArrayTextureGather");
    return ret(hipErrorNotSupported);
  }
  l.kind = desc.f;
  l.element_bytes = l.channels * l.bits / 8;
  l.layered = flags & hipArrayLayered;
  if (l.layered) {
    if (depth == 0 || depth > kMaxLayers) return ret(hipErrorInvalidValue);
    l.image_type = height == 0 ? descriptors::image::img_1d_array : descriptors::image::img_2d_array;
  } else if (height == 0) {
    if (depth != 0) return ret(hipErrorInvalidValue);
    l.image_type = descriptors::image::img_1d;
  } else {
    l.image_type = depth == 0 ? descriptors::image::img_2d : descriptors::image::img_3d;
  }
  const std::size_t max_side = l.image_type == descriptors::image::img_3d ? kMax3D : kMaxWidth;
  if (width > max_side || height > max_side || (!l.layered && depth > kMax3D)) return ret(hipErrorInvalidValue);
  l.width = static_cast<std::uint32_t>(width);
  l.rows = static_cast<std::uint32_t>(std::max<std::size_t>(height, 1));
  l.slices = static_cast<std::uint32_t>(std::max<std::size_t>(depth, 1));
  l.pitch = descriptors::image::linear_pitch(l.width, l.element_bytes) * std::size_t{l.element_bytes};
  void* data = allocate(l.pitch * l.rows * l.slices, AddressSpace::Kind::device, "hipArray");
  if (!data) return ret(hipErrorOutOfMemory);
  auto a = std::make_unique<hipArray>();
  std::memset(a.get(), 0, sizeof(hipArray));
  a->data = data;
  a->desc = desc;
  a->type = flags;
  a->width = l.width;
  a->height = static_cast<unsigned>(height);
  a->depth = static_cast<unsigned>(depth);
  a->NumChannels = l.channels;
  a->isDrv = driver;
  switch (desc.f) {
    case hipChannelFormatKindFloat: a->Format = l.bits == 16 ? HIP_AD_FORMAT_HALF : HIP_AD_FORMAT_FLOAT; break;
    case hipChannelFormatKindSigned:
      a->Format = l.bits == 8 ? HIP_AD_FORMAT_SIGNED_INT8 : l.bits == 16 ? HIP_AD_FORMAT_SIGNED_INT16 : HIP_AD_FORMAT_SIGNED_INT32;
      break;
    default:
      a->Format = l.bits == 8 ? HIP_AD_FORMAT_UNSIGNED_INT8 : l.bits == 16 ? HIP_AD_FORMAT_UNSIGNED_INT16 : HIP_AD_FORMAT_UNSIGNED_INT32;
  }
  switch (l.image_type) {
    case descriptors::image::img_1d: a->textureType = hipTextureType1D; break;
    case descriptors::image::img_2d: a->textureType = hipTextureType2D; break;
    case descriptors::image::img_3d: a->textureType = hipTextureType3D; break;
    case descriptors::image::img_1d_array: a->textureType = hipTextureType1DLayered; break;
    default: a->textureType = hipTextureType2DLayered;
  }
  hipArray* handle = a.get();
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  arrays()[handle] = {std::move(a), l};
  *out = handle;
  return hipSuccess;
}

static hipChannelFormatDesc desc_of(hipArray_Format format, unsigned channels) {
  int bits = 32;
  hipChannelFormatKind kind = hipChannelFormatKindUnsigned;
  switch (format) {
    case HIP_AD_FORMAT_UNSIGNED_INT8: bits = 8; break;
    case HIP_AD_FORMAT_UNSIGNED_INT16: bits = 16; break;
    case HIP_AD_FORMAT_SIGNED_INT8: bits = 8, kind = hipChannelFormatKindSigned; break;
    case HIP_AD_FORMAT_SIGNED_INT16: bits = 16, kind = hipChannelFormatKindSigned; break;
    case HIP_AD_FORMAT_SIGNED_INT32: kind = hipChannelFormatKindSigned; break;
    case HIP_AD_FORMAT_HALF: bits = 16, kind = hipChannelFormatKindFloat; break;
    case HIP_AD_FORMAT_FLOAT: kind = hipChannelFormatKindFloat; break;
    default: break;
  }
  hipChannelFormatDesc d{bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 3 ? bits : 0, kind};
  if (channels != 1 && channels != 2 && channels != 4) d.x = 0;  // refused by channel_layout
  return d;
}

hipError_t destroy_array(hipArray* array) {
  if (!array) return hipSuccess;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = arrays().find(array);
  if (it == arrays().end()) return ret(hipErrorInvalidValue);
  void* data = array->data;
  arrays().erase(it);
  return release(data);
}

// A 2D region of bytes: `width` bytes of `height` rows, `pitch` bytes apart.
hipError_t copy_rows(char* dst, std::size_t dpitch, const char* src, std::size_t spitch, std::size_t width, std::size_t height) {
  if (height && width && (!dst || !src)) return ret(hipErrorInvalidValue);
  for (std::size_t r = 0; r < height; ++r) std::memmove(dst + r * dpitch, src + r * spitch, width);
  return hipSuccess;
}

// The array's bytes at byte column x_bytes of row y of slice z, if a region of width_bytes x
// height x depth from there lies inside the array.
char* array_at(hipArray_const_t array, std::size_t x_bytes, std::size_t y, std::size_t z, std::size_t width_bytes, std::size_t height,
               std::size_t depth, const ArrayLayout*& layout) {
  layout = array_layout(array);
  if (!layout) return nullptr;
  if (x_bytes + width_bytes > layout->row_bytes() || y + height > layout->rows || z + depth > layout->slices) return nullptr;
  return static_cast<char*>(array->data) + z * layout->slice_bytes() + y * layout->pitch + x_bytes;
}

// Bytes [offset, offset + count) of the array's rows laid end to end (the unpadded view the 1D
// copies hipMemcpyToArray, hipMemcpyAtoH and hipMemcpyHtoA use), to or from host memory.
hipError_t copy_linear(hipArray_const_t array, std::size_t offset, void* host, std::size_t count, bool to_array) {
  const ArrayLayout* l = array_layout(array);
  if (!l || (count && !host)) return ret(hipErrorInvalidValue);
  const std::size_t row = l->row_bytes();
  if (offset + count > row * l->rows * l->slices) return ret(hipErrorInvalidValue);
  char* h = static_cast<char*>(host);
  while (count) {
    const std::size_t r = offset / row, x = offset % row, n = std::min(count, row - x);
    char* a = static_cast<char*>(array->data) + r * l->pitch + x;  // rows of every slice follow each other
    if (to_array) std::memmove(a, h, n);
    else std::memmove(h, a, n);
    h += n;
    offset += n;
    count -= n;
  }
  return hipSuccess;
}

// hipMemcpyToArray/FromArray: from byte column x of row y on, the array's rows laid end to end.
hipError_t copy_linear_at(hipArray_const_t array, size_t x, size_t y, void* host, size_t count, bool to_array) {
  const ArrayLayout* l = array_layout(array);
  if (!l) return ret(hipErrorInvalidValue);
  return copy_linear(array, y * l->row_bytes() + x, host, count, to_array);
}

const ArrayLayout* array_layout(hipArray_const_t array) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = arrays().find(array);
  return it == arrays().end() ? nullptr : &it->second.layout;
}

bool channel_layout(const hipChannelFormatDesc& d, std::uint32_t& channels, std::uint32_t& bits) {
  channels = (d.x != 0) + (d.y != 0) + (d.z != 0) + (d.w != 0);
  bits = static_cast<std::uint32_t>(d.x);
  if (channels != 1 && channels != 2 && channels != 4) return false;
  const int widths[4] = {d.x, d.y, d.z, d.w};
  for (std::uint32_t i = 0; i < channels; ++i)
    if (widths[i] != d.x) return false;
  if (d.f == hipChannelFormatKindFloat) return bits == 16 || bits == 32;
  if (d.f == hipChannelFormatKindSigned || d.f == hipChannelFormatKindUnsigned) return bits == 8 || bits == 16 || bits == 32;
  return false;
}

hipChannelFormatDesc channel_desc_of(hipArray_Format format, unsigned channels) { return desc_of(format, channels); }

hipError_t copy_3d_with_arrays(const hipMemcpy3DParms& p) {
  const hipExtent e = p.extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0) return hipSuccess;
  // With an array on either side, widths and array positions count elements.
  const ArrayLayout* sl = p.srcArray ? array_layout(p.srcArray) : nullptr;
  const ArrayLayout* dl = p.dstArray ? array_layout(p.dstArray) : nullptr;
  if ((p.srcArray && !sl) || (p.dstArray && !dl)) return ret(hipErrorInvalidValue);
  const std::size_t element = sl ? sl->element_bytes : dl->element_bytes;
  if (sl && dl && sl->element_bytes != dl->element_bytes) return ret(hipErrorInvalidValue);
  const std::size_t width = e.width * element;
  struct Side {
    char* base;
    std::size_t pitch, slice;
  };
  auto side = [&](hipArray_t array, const ArrayLayout* l, hipPos pos, hipPitchedPtr ptr, Side& s) -> bool {
    if (array) {
      const ArrayLayout* checked = nullptr;
      s.base = array_at(array, pos.x * element, pos.y, pos.z, width, e.height, e.depth, checked);
      s.pitch = l->pitch;
      s.slice = l->slice_bytes();
      return s.base != nullptr;
    }
    if (!ptr.ptr || ptr.pitch < pos.x + width) return false;
    const std::size_t rows = ptr.ysize ? ptr.ysize : e.height;
    s.base = static_cast<char*>(ptr.ptr) + (pos.z * rows + pos.y) * ptr.pitch + pos.x;
    s.pitch = ptr.pitch;
    s.slice = rows * ptr.pitch;
    return true;
  };
  Side src{}, dst{};
  if (!side(p.srcArray, sl, p.srcPos, p.srcPtr, src) || !side(p.dstArray, dl, p.dstPos, p.dstPtr, dst)) return ret(hipErrorInvalidValue);
  for (std::size_t z = 0; z < e.depth; ++z)
    if (auto r = copy_rows(dst.base + z * dst.slice, dst.pitch, src.base + z * src.slice, src.pitch, width, e.height); r != hipSuccess) return r;
  return hipSuccess;
}

// hip_Memcpy2D with an array on either side (host, device or array on the other).
hipError_t copy_param_2d_with_arrays(const hip_Memcpy2D* p) {
  if (!p) return ret(hipErrorInvalidValue);
  auto side = [&](hipMemoryType type, const void* host, hipDeviceptr_t device, hipArray* array, size_t x, size_t y, size_t pitch,
                  char*& base, size_t& row_pitch) -> bool {
    if (type == hipMemoryTypeArray) {
      const ArrayLayout* l = nullptr;
      base = array_at(array, x, y, 0, p->WidthInBytes, p->Height, 1, l);
      row_pitch = l ? l->pitch : 0;
      return base != nullptr;
    }
    const void* ptr = type == hipMemoryTypeHost ? host : device;
    if (!ptr || (p->Height > 1 && pitch < x + p->WidthInBytes)) return false;
    base = static_cast<char*>(const_cast<void*>(ptr)) + y * pitch + x;
    row_pitch = pitch;
    return true;
  };
  char *src = nullptr, *dst = nullptr;
  size_t spitch = 0, dpitch = 0;
  if (!side(p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcPitch, src, spitch) ||
      !side(p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstPitch, dst, dpitch))
    return ret(hipErrorInvalidValue);
  return copy_rows(dst, dpitch, src, spitch, p->WidthInBytes, p->Height);
}

}  // namespace gpuport::emu::hip
