// Texture and surface objects in the runtime's core. A hipTextureObject_t (and a
// hipSurfaceObject_t) points to device memory holding what HIP's device code reads (see
// hip/amd_detail/texture_*_functions.h and ockl): the image descriptor (a T#, or for linear
// memory a V#) with the HSA channel type, channel order and width after it (dwords 0..11), then
// the sampler descriptor (dwords 12..15), written with the gfx11 layouts of
// emu/image_descriptors.h that the emulator reads back. The descriptors say what HIP 5.2's
// runtime (hipamd over ROCr) programs: one address mode for all three axes (addressMode[0];
// wrap and mirror become clamp with unnormalized coordinates), point or bilinear filtering, a
// transparent black border (HIP 5.2 does not program hipTextureDesc::borderColor), the read
// mode as the image's numeric format (8- and 16-bit integers read as unorm/snorm floats when
// normalized; 32-bit integers never), sRGB as the 8_8_8_8_SRGB format, linear memory as a
// structured buffer of NUM_RECORDS = elements * element bytes (ROCr's value). What HIP 5.2 itself
// refuses is refused the same way: mipmapped arrays, anisotropy, LOD bias and LOD clamps. Texture
// references bind through the same objects.
#include <cstring>

#include "emu/runtime/core/images.h"

namespace gpuport::emu::hip {
namespace {

namespace d = descriptors;

constexpr std::size_t kObjectDwords = d::hsa_object::image_dwords + d::hsa_object::sampler_dwords;
constexpr std::uint32_t kBaseAlignment = 256;  // hipDeviceProp_t::textureAlignment and texturePitchAlignment

std::map<const void*, ObjectRecord>& objects() {
  static auto* o = new std::map<const void*, ObjectRecord>();
  return *o;
}

// A channel layout and read mode as a gfx11 data format and the HSA channel type ockl sees.
struct Format {
  const d::DataFormat* format = nullptr;
  std::uint32_t channel_type = 0, channel_order = 0;
};

bool format_of(std::uint32_t channels, std::uint32_t bits, hipChannelFormatKind kind, bool normalized_read, bool srgb, Format& out) {
  namespace h = d::hsa_object;
  d::Numeric numeric;
  if (kind == hipChannelFormatKindFloat) {
    numeric = d::Numeric::float_;
    out.channel_type = bits == 16 ? h::half_float : h::float_;
  } else if (normalized_read && bits < 32) {
    const bool is_signed = kind == hipChannelFormatKindSigned;
    numeric = is_signed ? d::Numeric::snorm : d::Numeric::unorm;
    out.channel_type = bits == 8 ? (is_signed ? h::snorm_int8 : h::unorm_int8) : (is_signed ? h::snorm_int16 : h::unorm_int16);
  } else {
    const bool is_signed = kind == hipChannelFormatKindSigned;
    numeric = is_signed ? d::Numeric::sint : d::Numeric::uint;
    out.channel_type = bits == 8 ? (is_signed ? h::signed_int8 : h::unsigned_int8)
                       : bits == 16 ? (is_signed ? h::signed_int16 : h::unsigned_int16)
                                    : (is_signed ? h::signed_int32 : h::unsigned_int32);
  }
  out.channel_order = channels == 1 ? h::order_r : channels == 2 ? h::order_rg : h::order_rgba;
  if (srgb && channels == 4) {
    // HIP asks for the sRGBA order, which the image library has only for 8-bit unorm.
    if (numeric != d::Numeric::unorm || bits != 8) return false;
    numeric = d::Numeric::srgb;
    out.channel_order = h::order_srgba;
  }
  out.format = &d::data_format(channels, bits, numeric);
  return out.format->number != 0;
}

// Destination selects of the R, RG and RGBA orders: missing channels 0, alpha 1.
std::array<std::uint8_t, 4> selects(std::uint32_t channels) {
  if (channels == 1) return {d::sel_x, d::sel_0, d::sel_0, d::sel_1};
  if (channels == 2) return {d::sel_x, d::sel_y, d::sel_0, d::sel_1};
  return {d::sel_x, d::sel_y, d::sel_z, d::sel_w};
}

void write_image(std::uint32_t* words, std::uint64_t base, const Format& f, std::uint32_t type, std::uint32_t width, std::uint32_t height,
                 std::uint32_t depth_or_layers, std::uint32_t pitch_texels, std::uint32_t channels) {
  namespace t = d::image;
  t::set_base_address(words, base);
  t::format.set(words, f.format->number);
  t::set_width(words, width);
  t::height.set(words, height - 1);
  const auto sel = selects(channels);
  for (int i = 0; i < 4; ++i) t::dst_sel[i].set(words, sel[i]);
  t::sw_mode.set(words, t::sw_linear);
  t::type.set(words, type);
  if (type == t::img_3d || type == t::img_1d_array || type == t::img_2d_array) t::depth.set(words, depth_or_layers - 1);
  else t::pitch.set(words, pitch_texels - 1);
  words[d::hsa_object::channel_type_dword] = f.channel_type;
  words[d::hsa_object::channel_order_dword] = f.channel_order;
  words[d::hsa_object::width_dword] = width;
}

void write_buffer(std::uint32_t* words, std::uint64_t base, const Format& f, std::uint32_t elements, std::uint32_t channels) {
  namespace b = d::buffer;
  b::set_base_address(words, base);
  b::stride.set(words, f.format->bytes());
  b::num_records.set(words, elements * f.format->bytes());
  const auto sel = selects(channels);
  for (int i = 0; i < 4; ++i) b::dst_sel[i].set(words, sel[i]);
  b::format.set(words, f.format->number);
  b::oob_select.set(words, b::structured);
  words[d::hsa_object::channel_type_dword] = f.channel_type;
  words[d::hsa_object::channel_order_dword] = f.channel_order;
  words[d::hsa_object::width_dword] = elements;
}

void write_sampler(std::uint32_t* words, const hipTextureDesc& t, bool linear_memory) {
  namespace s = d::sampler;
  std::uint32_t clamp = s::wrap;  // linear memory: no address mode, which ROCr programs as wrap
  if (!linear_memory) {
    switch (t.addressMode[0]) {
      case hipAddressModeWrap: clamp = t.normalizedCoords ? s::wrap : s::clamp_last_texel; break;
      case hipAddressModeMirror: clamp = t.normalizedCoords ? s::mirror : s::clamp_last_texel; break;
      case hipAddressModeBorder: clamp = s::clamp_border; break;
      default: clamp = s::clamp_last_texel;
    }
  }
  for (int i = 0; i < 3; ++i) s::clamp[i].set(words, clamp);
  s::force_unnormalized.set(words, t.normalizedCoords ? 0 : 1);
  s::max_lod.set(words, 4095);
  const std::uint32_t filter = !linear_memory && t.filterMode == hipFilterModeLinear ? s::bilinear : s::point;
  s::xy_mag_filter.set(words, filter);
  s::xy_min_filter.set(words, filter);
  s::border_color_type.set(words, s::transparent_black);
}

}  // namespace

hipError_t make_object(void** out, const hipResourceDesc& res, const hipTextureDesc* tex, const hipResourceViewDesc* view, bool surface) {
  std::uint32_t words[kObjectDwords] = {};
  const hipTextureDesc t = tex ? *tex : hipTextureDesc{};
  switch (res.resType) {
    case hipResourceTypeArray: {
      const ArrayLayout* l = array_layout(res.res.array.array);
      if (!l) return ret(hipErrorInvalidValue);
      std::uint32_t channels = l->channels, bits = l->bits;
      hipChannelFormatKind kind = l->kind;
      if (view) {  // the view's format over the same memory (HIP 5.2 changes only the format)
        static constexpr struct { hipResourceViewFormat format; std::uint32_t channels, bits; hipChannelFormatKind kind; } views[] = {
            {hipResViewFormatUnsignedChar1, 1, 8, hipChannelFormatKindUnsigned}, {hipResViewFormatUnsignedChar2, 2, 8, hipChannelFormatKindUnsigned},
            {hipResViewFormatUnsignedChar4, 4, 8, hipChannelFormatKindUnsigned}, {hipResViewFormatSignedChar1, 1, 8, hipChannelFormatKindSigned},
            {hipResViewFormatSignedChar2, 2, 8, hipChannelFormatKindSigned}, {hipResViewFormatSignedChar4, 4, 8, hipChannelFormatKindSigned},
            {hipResViewFormatUnsignedShort1, 1, 16, hipChannelFormatKindUnsigned}, {hipResViewFormatUnsignedShort2, 2, 16, hipChannelFormatKindUnsigned},
            {hipResViewFormatUnsignedShort4, 4, 16, hipChannelFormatKindUnsigned}, {hipResViewFormatSignedShort1, 1, 16, hipChannelFormatKindSigned},
            {hipResViewFormatSignedShort2, 2, 16, hipChannelFormatKindSigned}, {hipResViewFormatSignedShort4, 4, 16, hipChannelFormatKindSigned},
            {hipResViewFormatUnsignedInt1, 1, 32, hipChannelFormatKindUnsigned}, {hipResViewFormatUnsignedInt2, 2, 32, hipChannelFormatKindUnsigned},
            {hipResViewFormatUnsignedInt4, 4, 32, hipChannelFormatKindUnsigned}, {hipResViewFormatSignedInt1, 1, 32, hipChannelFormatKindSigned},
            {hipResViewFormatSignedInt2, 2, 32, hipChannelFormatKindSigned}, {hipResViewFormatSignedInt4, 4, 32, hipChannelFormatKindSigned},
            {hipResViewFormatHalf1, 1, 16, hipChannelFormatKindFloat}, {hipResViewFormatHalf2, 2, 16, hipChannelFormatKindFloat},
            {hipResViewFormatHalf4, 4, 16, hipChannelFormatKindFloat}, {hipResViewFormatFloat1, 1, 32, hipChannelFormatKindFloat},
            {hipResViewFormatFloat2, 2, 32, hipChannelFormatKindFloat}, {hipResViewFormatFloat4, 4, 32, hipChannelFormatKindFloat}};
        bool found = false;
        for (const auto& v : views)
          if (v.format == view->format) channels = v.channels, bits = v.bits, kind = v.kind, found = true;
        if (!found || channels * bits / 8 != l->element_bytes) return ret(hipErrorInvalidValue);
        if (view->firstMipmapLevel || view->lastMipmapLevel) return ret(hipErrorNotSupported);
      }
      Format f;
      if (!format_of(channels, bits, kind, !surface && t.readMode == hipReadModeNormalizedFloat, !surface && t.sRGB, f))
        return ret(hipErrorInvalidValue);
      const std::uint32_t pitch = static_cast<std::uint32_t>(l->pitch / l->element_bytes);
      write_image(words, reinterpret_cast<std::uint64_t>(res.res.array.array->data), f, l->image_type, l->width, l->rows, l->slices, pitch,
                  channels);
      break;
    }
    case hipResourceTypeLinear:
    case hipResourceTypePitch2D: {
      const bool linear = res.resType == hipResourceTypeLinear;
      const void* ptr = linear ? res.res.linear.devPtr : res.res.pitch2D.devPtr;
      const hipChannelFormatDesc& desc = linear ? res.res.linear.desc : res.res.pitch2D.desc;
      std::uint32_t channels, bits;
      Format f;
      if (surface || !ptr || reinterpret_cast<std::uintptr_t>(ptr) % kBaseAlignment || !channel_layout(desc, channels, bits) ||
          !format_of(channels, bits, desc.f, t.readMode == hipReadModeNormalizedFloat, t.sRGB, f))
        return ret(hipErrorInvalidValue);
      const std::uint32_t bytes = f.format->bytes();
      if (linear) {
        if (f.format->numeric == d::Numeric::srgb) return ret(hipErrorInvalidValue);  // no sRGB buffer format (V# FORMAT < 64)
        const std::size_t elements = res.res.linear.sizeInBytes / bytes;
        if (elements == 0 || elements > (std::size_t{1} << 27)) return ret(hipErrorInvalidValue);
        write_buffer(words, reinterpret_cast<std::uint64_t>(ptr), f, static_cast<std::uint32_t>(elements), channels);
      } else {
        const auto& p = res.res.pitch2D;
        if (p.width == 0 || p.height == 0 || p.width >= 16384 || p.height >= 16384 || p.pitchInBytes % kBaseAlignment ||
            p.pitchInBytes < p.width * bytes)
          return ret(hipErrorInvalidValue);
        write_image(words, reinterpret_cast<std::uint64_t>(ptr), f, d::image::img_2d, static_cast<std::uint32_t>(p.width),
                    static_cast<std::uint32_t>(p.height), 1, static_cast<std::uint32_t>(p.pitchInBytes / bytes), channels);
      }
      break;
    }
    default:
      runtime().say_unsupported("textures over mipmapped arrays");
      return ret(hipErrorNotSupported);
  }
  if (!surface) write_sampler(words + d::hsa_object::sampler_offset, t, res.resType == hipResourceTypeLinear);
  void* object = allocate(sizeof(words), AddressSpace::Kind::device, surface ? "surface object" : "texture object");
  if (!object) return ret(hipErrorOutOfMemory);
  std::memcpy(object, words, sizeof(words));
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  objects()[object] = {res, t, view ? *view : hipResourceViewDesc{}, surface};
  *out = object;
  return hipSuccess;
}

hipError_t destroy_object(const void* object) {
  if (!object) return hipSuccess;
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  if (!objects().erase(object)) return ret(hipErrorInvalidValue);
  return release(const_cast<void*>(object));
}

const ObjectRecord* record_of(const void* object) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  auto it = objects().find(object);
  return it == objects().end() ? nullptr : &it->second;
}

const ObjectRecord* texture_record(const void* object) {
  const ObjectRecord* r = record_of(object);
  return r && !r->surface ? r : nullptr;
}

hipTextureDesc texture_desc(const textureReference& r) {
  hipTextureDesc t{};
  for (int i = 0; i < 3; ++i) t.addressMode[i] = r.addressMode[i];
  t.filterMode = r.filterMode;
  t.readMode = r.readMode;
  t.sRGB = r.sRGB;
  t.normalizedCoords = r.normalized;
  t.maxAnisotropy = r.maxAnisotropy;
  t.mipmapFilterMode = r.mipmapFilterMode;
  t.mipmapLevelBias = r.mipmapLevelBias;
  t.minMipmapLevelClamp = r.minMipmapLevelClamp;
  t.maxMipmapLevelClamp = r.maxMipmapLevelClamp;
  return t;
}

// Rebinds a reference: a new texture object for `res`, stored in the host reference and copied
// with it to the device variable the program registered (which device code reads).
hipError_t bind_reference(const textureReference* ref, const hipResourceDesc& res, const hipResourceViewDesc* view) {
  auto* r = const_cast<textureReference*>(ref);
  if (!r) return ret(hipErrorInvalidValue);
  if (hipError_t e = destroy_object(r->textureObject); e != hipSuccess) return e;
  r->textureObject = nullptr;
  const hipTextureDesc t = texture_desc(*r);
  if (t.maxAnisotropy || t.mipmapLevelBias != 0 || t.minMipmapLevelClamp != 0 || t.maxMipmapLevelClamp != 0) return ret(hipErrorNotSupported);
  void* object = nullptr;
  if (hipError_t e = make_object(&object, res, &t, view, false); e != hipSuccess) return e;
  r->textureObject = static_cast<hipTextureObject_t>(object);
  size_t size = 0;
  if (void* device = device_address_of(ref, &size)) std::memcpy(device, r, std::min(size, sizeof(textureReference)));
  return hipSuccess;
}

// The aligned-down address a linear binding uses, and the offset the program must add.
hipError_t aligned(const void* ptr, size_t* offset, const void*& base) {
  const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(ptr);
  const size_t misaligned = p % kBaseAlignment;
  if (misaligned && !offset) return ret(hipErrorInvalidValue);
  if (offset) *offset = misaligned;
  base = reinterpret_cast<const void*>(p - misaligned);
  return hipSuccess;
}

// The bytes of the allocation from `ptr` on: a binding's default size (UINT_MAX) ends there.
size_t bytes_to_end(const void* ptr, size_t requested) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const auto* region = rt.memory.find(reinterpret_cast<std::uint64_t>(ptr), 1);
  if (!region) return requested;
  return std::min<size_t>(requested, region->base + region->size - reinterpret_cast<std::uint64_t>(ptr));
}

hipResourceViewDesc view_of(const hipChannelFormatDesc& desc, hipArray_const_t array) {
  hipResourceViewDesc v{};
  std::uint32_t channels = 0, bits = 0;
  v.format = hipResViewFormatNone;
  if (channel_layout(desc, channels, bits)) {
    const int row = desc.f == hipChannelFormatKindFloat ? (bits == 16 ? 6 : 7)
                    : (desc.f == hipChannelFormatKindSigned ? 1 : 0) + (bits == 8 ? 0 : bits == 16 ? 2 : 4);
    static constexpr hipResourceViewFormat table[8][3] = {
        {hipResViewFormatUnsignedChar1, hipResViewFormatUnsignedChar2, hipResViewFormatUnsignedChar4},
        {hipResViewFormatSignedChar1, hipResViewFormatSignedChar2, hipResViewFormatSignedChar4},
        {hipResViewFormatUnsignedShort1, hipResViewFormatUnsignedShort2, hipResViewFormatUnsignedShort4},
        {hipResViewFormatSignedShort1, hipResViewFormatSignedShort2, hipResViewFormatSignedShort4},
        {hipResViewFormatUnsignedInt1, hipResViewFormatUnsignedInt2, hipResViewFormatUnsignedInt4},
        {hipResViewFormatSignedInt1, hipResViewFormatSignedInt2, hipResViewFormatSignedInt4},
        {hipResViewFormatHalf1, hipResViewFormatHalf2, hipResViewFormatHalf4},
        {hipResViewFormatFloat1, hipResViewFormatFloat2, hipResViewFormatFloat4}};
    v.format = table[row][channels == 1 ? 0 : channels == 2 ? 1 : 2];
  }
  v.width = array->width;
  v.height = array->height;
  v.depth = array->depth;
  return v;
}

hipError_t create_texture_object(hipTextureObject_t* out, const hipResourceDesc* res, const hipTextureDesc* tex, const hipResourceViewDesc* view) {
  if (!out || !res || !tex) return ret(hipErrorInvalidValue);
  if (view && res->resType != hipResourceTypeArray && res->resType != hipResourceTypeMipmappedArray) return ret(hipErrorInvalidValue);
  if (res->resType == hipResourceTypeArray && !res->res.array.array) return ret(hipErrorInvalidValue);
  if (tex->maxAnisotropy || tex->mipmapLevelBias != 0 || tex->minMipmapLevelClamp != 0 || tex->maxMipmapLevelClamp != 0) {
    runtime().say_unsupported("texture descriptors with anisotropy, LOD bias or LOD clamps (HIP 5.2 does not program them either)");
    return ret(hipErrorNotSupported);
  }
  void* object = nullptr;
  const hipError_t e = make_object(&object, *res, tex, view, false);
  if (e == hipSuccess) *out = static_cast<hipTextureObject_t>(object);
  return e;
}

hipError_t create_surface_object(hipSurfaceObject_t* out, const hipResourceDesc* res) {
  if (!out || !res || res->resType != hipResourceTypeArray || !res->res.array.array) return ret(hipErrorInvalidValue);
  void* object = nullptr;
  const hipError_t e = make_object(&object, *res, nullptr, nullptr, true);
  if (e == hipSuccess) *out = static_cast<hipSurfaceObject_t>(object);
  return e;
}

}  // namespace gpuport::emu::hip
