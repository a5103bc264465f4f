// The gfx11 resource descriptors that image and buffer instructions read: the image resource
// (T#, 8 dwords), the sampler (S#, 4 dwords) and the buffer resource (V#, 4 dwords), with the
// field positions of the RDNA3 ISA guide (chapters 9 and 10) and AMD's ROCr gfx11 resource
// layout; plus the data formats (ISA table "Buffer and Image Data Formats") and the dwords 8..10
// that HSA image objects add after the T# (channel type, channel order, width), which the device
// library (ockl) reads. The runtime writes descriptors with these definitions and the emulator
// reads them back with the same ones: one layout, two users.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace gpuport::emu::descriptors {

// A field of a descriptor: `bits` bits from bit `shift` of dword `word`.
struct Field {
  std::uint8_t word, shift, bits;
  constexpr std::uint32_t get(const std::uint32_t* d) const {
    return (d[word] >> shift) & (bits == 32 ? 0xffffffffu : (1u << bits) - 1);
  }
  constexpr void set(std::uint32_t* d, std::uint32_t value) const {
    const std::uint32_t mask = (bits == 32 ? 0xffffffffu : (1u << bits) - 1) << shift;
    d[word] = (d[word] & ~mask) | ((value << shift) & mask);
  }
};

// ---- data formats -------------------------------------------------------------------------
// How the bits of one channel are read: the numeric format half of a data format.
enum class Numeric : std::uint8_t { unorm, snorm, uscaled, sscaled, uint, sint, float_, srgb };

struct DataFormat {
  std::uint8_t number;        // the FORMAT field's value
  std::string_view name;      // as the ISA and LLVM (BUF_FMT_<name>) spell it
  std::uint8_t channels = 0;  // 0: a format the emulator does not decode (packed, compressed)
  std::uint8_t bits = 0;      // per channel: 8, 16 or 32
  Numeric numeric = Numeric::unorm;
  constexpr std::uint32_t bytes() const { return channels * bits / 8u; }
  constexpr bool integer() const { return numeric == Numeric::uint || numeric == Numeric::sint; }
};

// Channel X in the lowest bits of an element, then Y, Z, W. Formats with packed channels of
// other widths (10_11_11, 2_10_10_10, 5_6_5, ...) are listed without a layout: the emulator
// refuses them when an instruction uses one.
inline constexpr DataFormat kDataFormats[] = {
    {0, "INVALID"},
    {1, "8_UNORM", 1, 8, Numeric::unorm},            {2, "8_SNORM", 1, 8, Numeric::snorm},
    {3, "8_USCALED", 1, 8, Numeric::uscaled},        {4, "8_SSCALED", 1, 8, Numeric::sscaled},
    {5, "8_UINT", 1, 8, Numeric::uint},              {6, "8_SINT", 1, 8, Numeric::sint},
    {7, "16_UNORM", 1, 16, Numeric::unorm},          {8, "16_SNORM", 1, 16, Numeric::snorm},
    {9, "16_USCALED", 1, 16, Numeric::uscaled},      {10, "16_SSCALED", 1, 16, Numeric::sscaled},
    {11, "16_UINT", 1, 16, Numeric::uint},           {12, "16_SINT", 1, 16, Numeric::sint},
    {13, "16_FLOAT", 1, 16, Numeric::float_},
    {14, "8_8_UNORM", 2, 8, Numeric::unorm},         {15, "8_8_SNORM", 2, 8, Numeric::snorm},
    {16, "8_8_USCALED", 2, 8, Numeric::uscaled},     {17, "8_8_SSCALED", 2, 8, Numeric::sscaled},
    {18, "8_8_UINT", 2, 8, Numeric::uint},           {19, "8_8_SINT", 2, 8, Numeric::sint},
    {20, "32_UINT", 1, 32, Numeric::uint},           {21, "32_SINT", 1, 32, Numeric::sint},
    {22, "32_FLOAT", 1, 32, Numeric::float_},
    {23, "16_16_UNORM", 2, 16, Numeric::unorm},      {24, "16_16_SNORM", 2, 16, Numeric::snorm},
    {25, "16_16_USCALED", 2, 16, Numeric::uscaled},  {26, "16_16_SSCALED", 2, 16, Numeric::sscaled},
    {27, "16_16_UINT", 2, 16, Numeric::uint},        {28, "16_16_SINT", 2, 16, Numeric::sint},
    {29, "16_16_FLOAT", 2, 16, Numeric::float_},
    {30, "10_11_11_FLOAT"},     {31, "11_11_10_FLOAT"},
    {32, "10_10_10_2_UNORM"},   {33, "10_10_10_2_SNORM"},   {34, "10_10_10_2_UINT"},   {35, "10_10_10_2_SINT"},
    {36, "2_10_10_10_UNORM"},   {37, "2_10_10_10_SNORM"},   {38, "2_10_10_10_USCALED"}, {39, "2_10_10_10_SSCALED"},
    {40, "2_10_10_10_UINT"},    {41, "2_10_10_10_SINT"},
    {42, "8_8_8_8_UNORM", 4, 8, Numeric::unorm},     {43, "8_8_8_8_SNORM", 4, 8, Numeric::snorm},
    {44, "8_8_8_8_USCALED", 4, 8, Numeric::uscaled}, {45, "8_8_8_8_SSCALED", 4, 8, Numeric::sscaled},
    {46, "8_8_8_8_UINT", 4, 8, Numeric::uint},       {47, "8_8_8_8_SINT", 4, 8, Numeric::sint},
    {48, "32_32_UINT", 2, 32, Numeric::uint},        {49, "32_32_SINT", 2, 32, Numeric::sint},
    {50, "32_32_FLOAT", 2, 32, Numeric::float_},
    {51, "16_16_16_16_UNORM", 4, 16, Numeric::unorm},     {52, "16_16_16_16_SNORM", 4, 16, Numeric::snorm},
    {53, "16_16_16_16_USCALED", 4, 16, Numeric::uscaled}, {54, "16_16_16_16_SSCALED", 4, 16, Numeric::sscaled},
    {55, "16_16_16_16_UINT", 4, 16, Numeric::uint},       {56, "16_16_16_16_SINT", 4, 16, Numeric::sint},
    {57, "16_16_16_16_FLOAT", 4, 16, Numeric::float_},
    {58, "32_32_32_UINT", 3, 32, Numeric::uint},     {59, "32_32_32_SINT", 3, 32, Numeric::sint},
    {60, "32_32_32_FLOAT", 3, 32, Numeric::float_},
    {61, "32_32_32_32_UINT", 4, 32, Numeric::uint},  {62, "32_32_32_32_SINT", 4, 32, Numeric::sint},
    {63, "32_32_32_32_FLOAT", 4, 32, Numeric::float_},
    {64, "8_SRGB", 1, 8, Numeric::srgb},             {65, "8_8_SRGB", 2, 8, Numeric::srgb},
    {66, "8_8_8_8_SRGB", 4, 8, Numeric::srgb},
    {67, "5_9_9_9_FLOAT"},      {68, "5_6_5_UNORM"},        {69, "1_5_5_5_UNORM"},     {70, "5_5_5_1_UNORM"},
    {71, "4_4_4_4_UNORM"},
};

// The format with this FORMAT value (INVALID, without a layout, for any value not listed). The
// table is indexed by its numbers (checked below), so instructions look formats up directly.
constexpr const DataFormat& data_format(std::uint32_t number) {
  return number < std::size(kDataFormats) ? kDataFormats[number] : kDataFormats[0];
}
constexpr bool formats_indexed_by_number() {
  for (std::uint32_t i = 0; i < std::size(kDataFormats); ++i)
    if (kDataFormats[i].number != i) return false;
  return true;
}
static_assert(formats_indexed_by_number());

// The format with this channel layout, or INVALID.
constexpr const DataFormat& data_format(std::uint32_t channels, std::uint32_t bits, Numeric numeric) {
  for (const auto& f : kDataFormats)
    if (f.channels == channels && f.bits == bits && f.numeric == numeric) return f;
  return kDataFormats[0];
}

// Destination select (DST_SEL_*): what each returned component is.
enum Sel : std::uint8_t { sel_0 = 0, sel_1 = 1, sel_x = 4, sel_y = 5, sel_z = 6, sel_w = 7 };

// ---- V#: buffer resource (4 dwords) -------------------------------------------------------
namespace buffer {
inline constexpr Field base_lo{0, 0, 32}, base_hi{1, 0, 16}, stride{1, 16, 14}, swizzle_enable{1, 30, 2};
inline constexpr Field num_records{2, 0, 32};
inline constexpr Field dst_sel_x{3, 0, 3}, dst_sel_y{3, 3, 3}, dst_sel_z{3, 6, 3}, dst_sel_w{3, 9, 3};
inline constexpr Field format{3, 12, 6}, index_stride{3, 21, 2}, add_tid_enable{3, 23, 1};
inline constexpr Field oob_select{3, 28, 2}, type{3, 30, 2};
inline constexpr Field dst_sel[4] = {dst_sel_x, dst_sel_y, dst_sel_z, dst_sel_w};

// OOB_SELECT: which out-of-bounds check the buffer gets (ISA table "Buffer Out Of Bounds Selection").
enum Oob : std::uint8_t { structured = 0, index_only = 1, no_check = 2, raw = 3 };

inline std::uint64_t base_address(const std::uint32_t* d) {
  return base_lo.get(d) | static_cast<std::uint64_t>(base_hi.get(d)) << 32;
}
inline void set_base_address(std::uint32_t* d, std::uint64_t address) {
  base_lo.set(d, static_cast<std::uint32_t>(address));
  base_hi.set(d, static_cast<std::uint32_t>(address >> 32));
}
}  // namespace buffer

// ---- T#: image resource (8 dwords) --------------------------------------------------------
namespace image {
// BASE_ADDRESS is the 256-byte-aligned address >> 8: bits [39:8] in dword 0, [47:40] in dword 1.
inline constexpr Field base_lo{0, 0, 32}, base_hi{1, 0, 8};
inline constexpr Field max_mip{1, 16, 4}, format{1, 20, 8}, width_lo{1, 30, 2};
inline constexpr Field width_hi{2, 0, 12}, height{2, 14, 14};  // width - 1 in [13:0] across dwords 1 and 2; height - 1
inline constexpr Field dst_sel_x{3, 0, 3}, dst_sel_y{3, 3, 3}, dst_sel_z{3, 6, 3}, dst_sel_w{3, 9, 3};
inline constexpr Field base_level{3, 12, 4}, last_level{3, 16, 4}, sw_mode{3, 20, 5}, bc_swizzle{3, 25, 3}, type{3, 28, 4};
// DEPTH: depth - 1 (3D) or the last array slice (arrays); PITCH: pitch - 1 in texels (1D, 2D).
inline constexpr Field depth{4, 0, 13}, pitch{4, 0, 14}, base_array{4, 16, 13};
inline constexpr Field array_pitch{5, 0, 4};
inline constexpr Field dst_sel[4] = {dst_sel_x, dst_sel_y, dst_sel_z, dst_sel_w};

// TYPE (SQ_RSRC_IMG_*), also the dim: modifier of image instructions.
enum Type : std::uint8_t { img_1d = 8, img_2d = 9, img_3d = 10, img_cube = 11, img_1d_array = 12, img_2d_array = 13,
                           img_2d_msaa = 14, img_2d_msaa_array = 15 };
// SW_MODE 0: linear. Tiled layouts are the hardware's own and not emulated.
inline constexpr std::uint32_t sw_linear = 0;

inline std::uint64_t base_address(const std::uint32_t* d) {
  return (static_cast<std::uint64_t>(base_lo.get(d)) | static_cast<std::uint64_t>(base_hi.get(d)) << 32) << 8;
}
inline void set_base_address(std::uint32_t* d, std::uint64_t address) {  // address is 256-byte aligned
  base_lo.set(d, static_cast<std::uint32_t>(address >> 8));
  base_hi.set(d, static_cast<std::uint32_t>(address >> 40));
}
inline std::uint32_t width(const std::uint32_t* d) { return (width_lo.get(d) | width_hi.get(d) << 2) + 1; }
inline void set_width(std::uint32_t* d, std::uint32_t w) {
  width_lo.set(d, (w - 1) & 3);
  width_hi.set(d, (w - 1) >> 2);
}
// Rows of a linear image hold a multiple of 256 bytes (ROCr's gfx11 linear layout); 1D and 2D
// images say their pitch in PITCH, 3D and array images use the aligned width.
inline std::uint32_t linear_pitch(std::uint32_t width, std::uint32_t element_bytes) {
  const std::uint32_t align = element_bytes && 256 % element_bytes == 0 ? 256 / element_bytes : 1;
  return (width + align - 1) / align * align;
}
}  // namespace image

// ---- S#: sampler (4 dwords) ---------------------------------------------------------------
namespace sampler {
inline constexpr Field clamp_x{0, 0, 3}, clamp_y{0, 3, 3}, clamp_z{0, 6, 3}, max_aniso_ratio{0, 9, 3};
inline constexpr Field depth_compare_func{0, 12, 3}, force_unnormalized{0, 15, 1}, trunc_coord{0, 27, 1};
inline constexpr Field min_lod{1, 0, 12}, max_lod{1, 12, 12};
inline constexpr Field lod_bias{2, 0, 14}, xy_mag_filter{2, 20, 2}, xy_min_filter{2, 22, 2}, z_filter{2, 24, 2}, mip_filter{2, 26, 2};
inline constexpr Field border_color_ptr{3, 18, 12}, border_color_type{3, 30, 2};
inline constexpr Field clamp[3] = {clamp_x, clamp_y, clamp_z};

// CLAMP_* (SQ_TEX_CLAMP): what a coordinate outside the image does.
enum Clamp : std::uint8_t { wrap = 0, mirror = 1, clamp_last_texel = 2, mirror_once_last_texel = 3, clamp_half_border = 4,
                            mirror_once_half_border = 5, clamp_border = 6, mirror_once_border = 7 };
enum Filter : std::uint8_t { point = 0, bilinear = 1, aniso_point = 2, aniso_bilinear = 3 };
enum ZFilter : std::uint8_t { z_none = 0, z_point = 1, z_linear = 2 };
enum Border : std::uint8_t { transparent_black = 0, opaque_black = 1, opaque_white = 2, border_register = 3 };
}  // namespace sampler

// ---- the HSA image object (what hipTextureObject_t and hipSurfaceObject_t point to) -------
// 12 dwords of image (the T#, or the V# in dwords 0..3 of a buffer image, then the channel type,
// channel order and width that ockl reads), then 8 dwords of sampler (the S# and 4 unused).
namespace hsa_object {
inline constexpr std::uint32_t image_dwords = 12, sampler_dwords = 8, sampler_offset = 12;
inline constexpr std::uint32_t channel_type_dword = 8, channel_order_dword = 9, width_dword = 10;

// hsa_ext_image_channel_type_t and hsa_ext_image_channel_order_t (the values HIP's
// amd_surface_functions.h lists).
enum ChannelType : std::uint32_t {
  snorm_int8 = 0, snorm_int16 = 1, unorm_int8 = 2, unorm_int16 = 3, signed_int8 = 8, signed_int16 = 9, signed_int32 = 10,
  unsigned_int8 = 11, unsigned_int16 = 12, unsigned_int32 = 13, half_float = 14, float_ = 15,
};
enum ChannelOrder : std::uint32_t { order_r = 1, order_rg = 3, order_rgba = 8, order_srgba = 14 };
}  // namespace hsa_object

}  // namespace gpuport::emu::descriptors
