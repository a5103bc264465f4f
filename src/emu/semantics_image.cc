// Image instructions (MIMG): loads, stores, atomics and resource queries through an image
// resource (T#, 8 SGPRs), and sampling and gathering through a T# and a sampler (S#, 4 SGPRs).
// The model (RDNA3 ISA chapter 10), with what it does not cover refused by name:
// - layout: linear images only (T# SW_MODE 0; tiled layouts are the hardware's own), one mip
//   level, 1D/2D/3D/1D-array/2D-array (no cube, no MSAA); texel (x, y, z|slice) of a 1D/2D image
//   is at base + (y * pitch + x) * bytes with pitch from T#.PITCH, of a 3D or array image at
//   base + ((z * height + y) * pitch + x) * bytes with pitch the width rounded up to 256 bytes.
// - loads and stores take integer coordinates; out of range, loads return a zero texel through
//   the DST_SEL (SEL_1 gives 1) and stores and atomics are dropped.
// - sampling: normalized coordinates are scaled by the size (in f32), the texture unit's
//   texel-space coordinate is fixed point with 8 fraction bits (round to nearest even, or
//   truncation with S#.TRUNC_COORD); point sampling takes floor, bilinear (and trilinear in 3D)
//   the 2 (4, 8) texels around coordinate - 0.5 with weights in steps of 1/256, blended in double
//   and rounded once to f32. Each texel index goes through the S# CLAMP mode of its axis (wrap,
//   mirror, clamp to the last texel, mirror once, border); a border texel is the S# border
//   colour (transparent black, opaque black, opaque white). Array slices round to the nearest
//   integer and clamp. With one mip level the LOD (from _l, _b, _d, _cl or derivatives) only
//   selects the XY filter: the emulator requires XY_MAG_FILTER == XY_MIN_FILTER unless the
//   instruction is _lz (magnification).
// - gather4 returns one component of the bilinear footprint's 4 texels in the order
//   (i0, j1), (i1, j1), (i1, j0), (i0, j0).
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <string_view>

#include "emu/half.h"
#include "emu/semantics.h"
#include "emu/texels.h"

namespace gpuport::emu::texels {
namespace {

using namespace semantics;
namespace tsharp = descriptors::image;
namespace ssharp = descriptors::sampler;

enum Op : u32 { load, load_mip, store, store_mip, resinfo, atomic, sample, gather };

// Step::param: op [7:0], dmask [11:8], dim [15:12], atomic kind [23:16], flags above.
constexpr u32 p_unorm = 1u << 24, p_d16 = 1u << 25, p_a16 = 1u << 26, p_status = 1u << 27, p_glc = 1u << 28;
// Step::param2 (sample/gather): address parts before the body, and what follows the coordinates.
constexpr u32 s_offset = 1, s_bias = 2, s_lz = 4, s_lod = 8, s_clamp = 16, s_g16 = 32;
constexpr u32 s_derivs_shift = 8;   // dwords of derivatives
constexpr u32 s_address_shift = 16; // dwords of address in all

u32 op_kind(const Step& s) { return s.param & 0xff; }
u32 dmask_of(const Step& s) { return (s.param >> 8) & 0xf; }
u32 dim_of(const Step& s) { return (s.param >> 12) & 0xf; }

// Coordinates a dim takes (body, before lod/clamp/mip), and which of them is an array slice.
u32 coordinates(u32 dim) {
  switch (dim) {
    case tsharp::img_1d: return 1;
    case tsharp::img_2d: case tsharp::img_1d_array: case tsharp::img_2d_msaa: return 2;
    default: return 3;
  }
}
bool is_array(u32 type) { return type == tsharp::img_1d_array || type == tsharp::img_2d_array; }
u32 spatial_dims(u32 type) {
  switch (type) {
    case tsharp::img_1d: case tsharp::img_1d_array: return 1;
    case tsharp::img_3d: return 3;
    default: return 2;
  }
}

// The VGPR of address dword i: a range v[a:b] or an NSA list.
u32 address_register(const Operand& vaddr, u32 i) {
  if (vaddr.kind == Operand::Kind::vgpr_list) return static_cast<u32>((static_cast<u64>(vaddr.value) >> (8 * i)) & 0xff);
  return vaddr.reg + i;
}
u32 address_dwords(const Operand& vaddr) { return vaddr.width; }

struct Image {
  u64 base = 0;
  const DataFormat* format = nullptr;
  u32 type = 0, width = 1, height = 1, depth = 1, first_slice = 0, last_slice = 0;
  u64 pitch = 0, slice_pitch = 0;  // in texels
  std::array<std::uint8_t, 4> sel{};
  u32 levels = 1;
};

// The T# in eight SGPRs, or a fault for what the emulator does not model.
bool read_image(Wave& w, Context& c, const Operand& srsrc, Image& im) {
  u32 d[8];
  for (u32 i = 0; i < 8; ++i) d[i] = w.s[(srsrc.reg + i) & 127];
  im.base = tsharp::base_address(d);
  im.format = &descriptors::data_format(tsharp::format.get(d));
  im.type = tsharp::type.get(d);
  im.width = tsharp::width(d);
  im.height = tsharp::height.get(d) + 1;
  for (u32 i = 0; i < 4; ++i) im.sel[i] = static_cast<std::uint8_t>(tsharp::dst_sel[i].get(d));
  auto refuse = [&](std::string why) { return memory_fault(c, w, 0, im.base, std::move(why)); };
  if (tsharp::sw_mode.get(d) != tsharp::sw_linear)
    return refuse(fmt::format("images with the tiled layout SW_MODE {} are not emulated (linear only)", tsharp::sw_mode.get(d)));
  if (im.type < tsharp::img_1d || im.type == tsharp::img_cube || im.type > tsharp::img_2d_array)
    return refuse(fmt::format("image resources of TYPE {} are not emulated (1D, 2D, 3D and 1D/2D arrays)", im.type));
  if (tsharp::max_mip.get(d) != 0 || tsharp::last_level.get(d) != tsharp::base_level.get(d) || tsharp::base_level.get(d) != 0)
    return refuse("mipmapped images are not emulated");
  if (im.format->channels == 0) return refuse(fmt::format("the image data format {} is not emulated", im.format->name));
  const u32 bytes = im.format->bytes();
  if (im.type == tsharp::img_3d) im.depth = tsharp::depth.get(d) + 1;
  if (is_array(im.type)) {
    im.first_slice = tsharp::base_array.get(d);
    im.last_slice = tsharp::depth.get(d);
    if (im.type == tsharp::img_1d_array) im.height = 1;
  }
  if (im.type == tsharp::img_3d || is_array(im.type)) {
    im.pitch = tsharp::linear_pitch(im.width, bytes);
    im.slice_pitch = im.pitch * im.height;
  } else {
    im.pitch = tsharp::pitch.get(d) + 1;
  }
  return true;
}

u64 texel_address(const Image& im, u32 x, u32 y, u32 z) {
  return im.base + ((static_cast<u64>(z) * im.slice_pitch + static_cast<u64>(y) * im.pitch + x) * im.format->bytes());
}

// Integer coordinates of a load/store/atomic: x, y, z|slice; false when outside the image.
bool texel_in_image(const Image& im, u32 dim, const u32* coord, u32& x, u32& y, u32& z) {
  x = coord[0];
  y = 0;
  z = 0;
  const u32 n = coordinates(dim);
  if (dim == tsharp::img_1d_array) z = coord[1];
  else if (n >= 2) y = coord[1];
  if (n >= 3) z = coord[2];
  if (x >= im.width || y >= im.height) return false;
  if (im.type == tsharp::img_3d) return z < im.depth;
  if (is_array(im.type)) {
    const u64 slice = static_cast<u64>(im.first_slice) + z;
    z = static_cast<u32>(slice);
    return slice <= im.last_slice;
  }
  return z == 0;
}

// A lane's address dword i, and the a16 halves of the body.
u32 address(const Wave& w, const Step& s, u32 lane, u32 i) { return w.vgpr(address_register(op(s, 1), i), lane); }
u32 body_component(const Wave& w, const Step& s, u32 lane, u32 first, u32 k, bool a16) {
  if (!a16) return address(w, s, lane, first + k);
  const u32 v = address(w, s, lane, first + k / 2);
  return k & 1 ? v >> 16 : v & 0xffff;
}

// Writes the returned components (4 values, dmask-selected unless all four) into vdata.
void write_result(Wave& w, const Step& s, u32 lane, const Values& v, u32 mask, bool d16, const DataFormat& f, bool& d16_ok) {
  const u32 d = op(s, 0).reg;
  u32 n = 0;
  for (u32 i = 0; i < 4; ++i) {
    if (!(mask & (1u << i))) continue;
    if (!d16) {
      w.vgpr(d + n++, lane) = v[i];
      continue;
    }
    const auto h = to_d16(f, v[i]);
    if (!h) d16_ok = false;
    u32& reg = w.vgpr(d + n / 2, lane);
    reg = n & 1 ? (reg & 0xffffu) | u32(h.value_or(0)) << 16 : (reg & 0xffff0000u) | h.value_or(0);
    ++n;
  }
  if (s.param & p_status) w.vgpr(d + (d16 ? (n + 1) / 2 : n), lane) = 0;  // TFE/LWE: resident, no LOD warning
}

// image_load / image_load_mip vdata, vaddr, srsrc dmask dim unorm [d16] [a16] [tfe]
bool load_op(Wave& w, const Step& s, Context& c) {
  Image im;
  if (!read_image(w, c, op(s, 2), im)) return false;
  const u32 dim = dim_of(s), n = coordinates(dim), dmask = dmask_of(s);
  const bool a16 = s.param & p_a16, d16 = s.param & p_d16;
  return for_active_until(w, [&](u32 lane) {
    if (dmask == 0) {  // the TA writes zeros and fetches nothing
      w.vgpr(op(s, 0).reg, lane) = 0;
      return true;
    }
    u32 coord[4] = {};
    for (u32 k = 0; k < n; ++k) coord[k] = body_component(w, s, lane, 0, k, a16);
    const u32 mip = op_kind(s) == load_mip ? body_component(w, s, lane, 0, n, a16) : 0;
    u32 x, y, z;
    Values v{};
    if (mip < im.levels && texel_in_image(im, dim, coord, x, y, z)) {
      const u64 a = texel_address(im, x, y, z);
      const std::uint8_t* p = static_cast<const std::uint8_t*>(checked_global_pointer(c, w, lane, a, im.format->bytes(), false));
      if (!p) return false;
      v = decode(*im.format, p);
    }
    bool d16_ok = true;
    write_result(w, s, lane, select(v, im.sel, *im.format), dmask, d16, *im.format, d16_ok);
    if (!d16_ok) return memory_fault(c, w, lane, im.base, fmt::format("a D16 load of the 32-bit integer format {} is not emulated", im.format->name));
    return true;
  });
}

// image_store / image_store_mip vdata, vaddr, srsrc dmask dim unorm [d16] [a16]
bool store_op(Wave& w, const Step& s, Context& c) {
  Image im;
  if (!read_image(w, c, op(s, 2), im)) return false;
  if (!identity_select(im.sel, *im.format))
    return memory_fault(c, w, 0, im.base, "an image store through a T# whose DST_SEL is not the identity is not emulated");
  const u32 dim = dim_of(s), n = coordinates(dim), dmask = dmask_of(s);
  const bool a16 = s.param & p_a16, d16 = s.param & p_d16;
  const u32 d = op(s, 0).reg;
  return for_active_until(w, [&](u32 lane) {
    u32 coord[4] = {};
    for (u32 k = 0; k < n; ++k) coord[k] = body_component(w, s, lane, 0, k, a16);
    const u32 mip = op_kind(s) == store_mip ? body_component(w, s, lane, 0, n, a16) : 0;
    u32 x, y, z;
    if (mip >= im.levels || !texel_in_image(im, dim, coord, x, y, z)) return true;
    // The enabled components come from consecutive VGPRs (halves with d16); missing ones are 0.
    Values v{};
    u32 next = 0;
    for (u32 i = 0; i < 4; ++i) {
      if (!(dmask & (1u << i))) continue;
      if (d16) {
        const u32 reg = w.vgpr(d + next / 2, lane);
        v[i] = from_d16(*im.format, static_cast<u16>(next & 1 ? reg >> 16 : reg));
      } else {
        v[i] = w.vgpr(d + next, lane);
      }
      ++next;
    }
    const u64 a = texel_address(im, x, y, z);
    auto* p = static_cast<std::uint8_t*>(checked_global_pointer(c, w, lane, a, im.format->bytes(), true));
    if (!p) return false;
    if (!encode(*im.format, v, p)) return memory_fault(c, w, lane, a, fmt::format("stores to the image data format {} are not emulated", im.format->name));
    return true;
  });
}

// image_atomic_<op> vdata, vaddr, srsrc dmask dim unorm [glc]: on a 32-bit one-channel image.
bool atomic_op(Wave& w, const Step& s, Context& c) {
  Image im;
  if (!read_image(w, c, op(s, 2), im)) return false;
  if (im.format->bytes() != 4 || im.format->channels != 1)
    return memory_fault(c, w, 0, im.base, fmt::format("image atomics on the data format {} are not emulated (32-bit one channel only)", im.format->name));
  const u32 dim = dim_of(s), n = coordinates(dim), d = op(s, 0).reg;
  const int kind = static_cast<int>((s.param >> 16) & 0xff);
  const bool cmpswap = dmask_of(s) == 3;
  return for_active_until(w, [&](u32 lane) {
    u32 coord[4] = {};
    for (u32 k = 0; k < n; ++k) coord[k] = body_component(w, s, lane, 0, k, s.param & p_a16);
    u32 x, y, z, old = 0;
    if (texel_in_image(im, dim, coord, x, y, z)) {
      const u64 a = texel_address(im, x, y, z);
      auto* p = static_cast<std::uint8_t*>(checked_global_pointer(c, w, lane, a, 4, true));
      if (!p) return false;
      old = global_atomic32(p, kind, w.vgpr(d, lane), cmpswap ? w.vgpr(d + 1, lane) : 0);
    }
    if (s.param & p_glc) w.vgpr(d, lane) = old;
    return true;
  });
}

// image_get_resinfo vdata, vaddr(mip), srsrc dmask dim unorm: {width, height, depth or slices,
// levels} of the mip level, as integers.
bool resinfo_op(Wave& w, const Step& s, Context& c) {
  Image im;
  if (!read_image(w, c, op(s, 2), im)) return false;
  return for_active_until(w, [&](u32 lane) {
    const u32 mip = address(w, s, lane, 0);
    auto at = [&](u32 size) { return mip >= 32 ? 1u : std::max(1u, size >> mip); };
    const u32 slices = im.last_slice - im.first_slice + 1;
    Values v{at(im.width), im.type == tsharp::img_1d_array ? slices : at(im.height),
             im.type == tsharp::img_3d ? at(im.depth) : is_array(im.type) ? slices : 1u, im.levels};
    bool d16_ok = true;
    write_result(w, s, lane, v, dmask_of(s), false, *im.format, d16_ok);
    return true;
  });
}

// ---- sampling -----------------------------------------------------------------------------
struct Sampler {
  std::array<u32, 3> clamp{};
  bool unnormalized = false, trunc = false;
  u32 xy_filter = 0, z_filter = 0, border = 0;
};

bool read_sampler(Wave& w, Context& c, const Step& s, const Image& im, Sampler& sm) {
  u32 d[4];
  for (u32 i = 0; i < 4; ++i) d[i] = w.s[(op(s, 3).reg + i) & 127];
  for (u32 i = 0; i < 3; ++i) sm.clamp[i] = ssharp::clamp[i].get(d);
  sm.unnormalized = ssharp::force_unnormalized.get(d) || (s.param & p_unorm);
  sm.trunc = ssharp::trunc_coord.get(d);
  const u32 mag = ssharp::xy_mag_filter.get(d), min = ssharp::xy_min_filter.get(d);
  auto refuse = [&](std::string why) { return memory_fault(c, w, 0, im.base, std::move(why)); };
  if (mag != min && !(s.param2 & s_lz))
    return refuse("sampling with different magnification and minification filters needs the LOD, which the emulator does not compute");
  sm.xy_filter = mag;
  if (sm.xy_filter > ssharp::bilinear) return refuse("anisotropic filtering is not emulated");
  const u32 z = ssharp::z_filter.get(d);
  sm.z_filter = z == ssharp::z_none ? sm.xy_filter : z == ssharp::z_linear ? u32{ssharp::bilinear} : u32{ssharp::point};
  sm.border = ssharp::border_color_type.get(d);
  for (u32 i = 0; i < 3; ++i)
    if (sm.clamp[i] == ssharp::clamp_half_border || sm.clamp[i] == ssharp::mirror_once_half_border)
      return refuse("the half-border clamp modes are not emulated");
  return true;
}

// A texel index through a clamp mode: the index inside [0, size), or -1 for the border.
std::int64_t clamp_index(std::int64_t i, std::int64_t size, u32 mode) {
  switch (mode) {
    case ssharp::wrap: return ((i % size) + size) % size;
    case ssharp::mirror: {
      const std::int64_t m = ((i % (2 * size)) + 2 * size) % (2 * size);
      return m < size ? m : 2 * size - 1 - m;
    }
    case ssharp::clamp_last_texel: return i < 0 ? 0 : i >= size ? size - 1 : i;
    case ssharp::mirror_once_last_texel: {
      const std::int64_t j = i < 0 ? -1 - i : i;
      return j >= size ? size - 1 : j;
    }
    case ssharp::clamp_border: return i < 0 || i >= size ? -1 : i;
    default: {  // mirror_once_border
      const std::int64_t j = i < 0 ? -1 - i : i;
      return j >= size ? -1 : j;
    }
  }
}

// The texture unit's fixed-point texel coordinate: 8 fraction bits. A NaN coordinate is taken
// as 0 and the magnitude is bounded (2^40 texels: far past any image, still exact in a double
// and an int64), so that every address mode sees an integer index.
double to_fixed(double x, bool trunc) {
  if (std::isnan(x)) return 0;
  x = std::fmin(std::fmax(x, -0x1p40), 0x1p40);
  return (trunc ? std::floor(x * 256.0) : std::nearbyint(x * 256.0)) / 256.0;
}

struct Axis {
  std::int64_t i[2] = {0, 0};
  double weight[2] = {1, 0};
  u32 taps = 1;
};

Axis footprint(double x, bool linear, bool trunc) {
  Axis a;
  const double f = to_fixed(x, trunc);
  if (!linear) {
    a.i[0] = static_cast<std::int64_t>(std::floor(f));
    return a;
  }
  const double l = f - 0.5;
  const double i0 = std::floor(l);
  a.i[0] = static_cast<std::int64_t>(i0);
  a.i[1] = a.i[0] + 1;
  a.weight[1] = l - i0;
  a.weight[0] = 1.0 - a.weight[1];
  a.taps = 2;
  return a;
}

Values border_color(u32 type, const DataFormat& f) {
  const u32 one_value = one(f);
  switch (type) {
    case ssharp::opaque_black: return {0, 0, 0, one_value};
    case ssharp::opaque_white: return {one_value, one_value, one_value, one_value};
    default: return {0, 0, 0, 0};
  }
}

// image_sample* / image_gather4* vdata, vaddr, srsrc, ssamp dmask dim [unorm] [d16] [a16] [tfe|lwe]
bool sample_op(Wave& w, const Step& s, Context& c) {
  Image im;
  if (!read_image(w, c, op(s, 2), im)) return false;
  Sampler sm;
  if (!read_sampler(w, c, s, im, sm)) return false;
  if (sm.border == ssharp::border_register) return memory_fault(c, w, 0, im.base, "border colours from the border colour palette are not emulated");
  const bool is_gather = op_kind(s) == gather;
  const DataFormat& f = *im.format;
  if (f.integer() && (sm.xy_filter == ssharp::bilinear || sm.z_filter == ssharp::bilinear) && !is_gather)
    return memory_fault(c, w, 0, im.base, fmt::format("bilinear filtering of the integer format {} is not emulated", f.name));
  const u32 dim = dim_of(s), dmask = dmask_of(s);
  const bool a16 = s.param & p_a16, d16 = s.param & p_d16;
  const u32 body = (s.param2 & s_offset ? 1 : 0) + (s.param2 & s_bias ? 1 : 0) + ((s.param2 >> s_derivs_shift) & 0xff);
  const u32 dims = spatial_dims(im.type);
  const u32 sizes[3] = {im.width, im.height, im.depth};
  const Values border = border_color(sm.border, f);
  return for_active_until(w, [&](u32 lane) {
    float coord[4] = {};
    const u32 n = coordinates(dim);
    for (u32 k = 0; k < n; ++k) {
      const u32 v = body_component(w, s, lane, body, k, a16);
      coord[k] = a16 ? half_to_float(static_cast<u16>(v)) : bits_f32(v);
    }
    // Which coordinate is which: 1D array (x, slice), 2D array (x, y, slice).
    float slice_coord = 0;
    if (dim == tsharp::img_1d_array) slice_coord = coord[1], coord[1] = 0;
    else if (dim == tsharp::img_2d_array) slice_coord = coord[2], coord[2] = 0;
    std::int32_t offsets[3] = {};
    if (s.param2 & s_offset) {
      const u32 o = address(w, s, lane, 0);
      for (u32 k = 0; k < 3; ++k) offsets[k] = static_cast<std::int32_t>(static_cast<std::int8_t>(((o >> (8 * k)) & 0x3f) << 2)) >> 2;
    }
    Axis axis[3];
    for (u32 k = 0; k < 3; ++k) {
      if (k >= dims) continue;
      const float scaled = sm.unnormalized ? coord[k] : coord[k] * static_cast<float>(sizes[k]);
      const bool linear = is_gather || (k < 2 ? sm.xy_filter : sm.z_filter) == ssharp::bilinear;
      axis[k] = footprint(static_cast<double>(scaled) + offsets[k], linear, sm.trunc);
    }
    u32 slice = 0;
    if (is_array(im.type)) {
      const double r = std::nearbyint(static_cast<double>(slice_coord));
      const double last = im.last_slice - im.first_slice;
      slice = im.first_slice + static_cast<u32>(std::isnan(r) || r < 0 ? 0 : r > last ? last : r);
    }
    // The taps, x fastest; each a texel through the selects or the border colour.
    Values texel[8];
    double weight[8];
    u32 taps = 0;
    for (u32 kz = 0; kz < axis[2].taps; ++kz)
      for (u32 ky = 0; ky < axis[1].taps; ++ky)
        for (u32 kx = 0; kx < axis[0].taps; ++kx) {
          const std::int64_t ix = clamp_index(axis[0].i[kx], sizes[0], sm.clamp[0]);
          const std::int64_t iy = dims >= 2 ? clamp_index(axis[1].i[ky], sizes[1], sm.clamp[1]) : 0;
          const std::int64_t iz = dims >= 3 ? clamp_index(axis[2].i[kz], sizes[2], sm.clamp[2]) : 0;
          weight[taps] = axis[0].weight[kx] * axis[1].weight[ky] * axis[2].weight[kz];
          if (ix < 0 || iy < 0 || iz < 0) {
            texel[taps++] = border;
            continue;
          }
          const u64 a = texel_address(im, static_cast<u32>(ix), static_cast<u32>(iy), dims >= 3 ? static_cast<u32>(iz) : slice);
          const auto* p = static_cast<const std::uint8_t*>(checked_global_pointer(c, w, lane, a, f.bytes(), false));
          if (!p) return false;
          texel[taps++] = select(decode(f, p), im.sel, f);
        }
    Values result{};
    if (is_gather) {
      // dmask picks the component; the footprint's texels in gather order.
      const u32 component = static_cast<u32>(std::countr_zero(dmask | 16u)) & 3;
      const u32 order[4] = {2, 3, 1, 0};  // taps: 0 (i0,j0) 1 (i1,j0) 2 (i0,j1) 3 (i1,j1)
      for (u32 i = 0; i < 4; ++i) result[i] = texel[order[i]][component];
    } else if (taps == 1) {
      result = texel[0];
    } else {
      for (u32 ch = 0; ch < 4; ++ch) {
        double sum = 0;
        for (u32 t = 0; t < taps; ++t)
          if (weight[t] != 0) sum += weight[t] * static_cast<double>(bits_f32(texel[t][ch]));
        result[ch] = f32_bits(static_cast<float>(sum));
      }
    }
    bool d16_ok = true;
    write_result(w, s, lane, result, is_gather ? 0xfu : dmask, d16, f, d16_ok);
    if (!d16_ok) return memory_fault(c, w, lane, im.base, fmt::format("a D16 sample of the 32-bit integer format {} is not emulated", f.name));
    return true;
  });
}

// sample/gather suffixes: _o (offset), _b (bias), _d (derivatives), _g16, _l, _lz, _cl.
struct SampleForm {
  u32 flags = 0;
  bool derivatives = false, ok = true;
};
SampleForm sample_form(std::string_view suffix) {
  SampleForm f;
  while (!suffix.empty()) {
    if (suffix.starts_with("_o")) f.flags |= s_offset, suffix.remove_prefix(2);
    else if (suffix.starts_with("_b")) f.flags |= s_bias, suffix.remove_prefix(2);
    else if (suffix.starts_with("_d")) f.derivatives = true, suffix.remove_prefix(2);
    else if (suffix.starts_with("_g16")) f.flags |= s_g16, suffix.remove_prefix(4);
    else if (suffix.starts_with("_lz")) f.flags |= s_lz, suffix.remove_prefix(3);
    else if (suffix.starts_with("_l")) f.flags |= s_lod, suffix.remove_prefix(2);
    else if (suffix.starts_with("_cl")) f.flags |= s_clamp, suffix.remove_prefix(3);
    else return f.ok = false, f;
  }
  return f;
}

}  // namespace

}  // namespace gpuport::emu::texels

namespace gpuport::emu {

Handler resolve_image(const ParsedInstruction& p, Step& step) {
  using namespace texels;
  const std::string_view m = p.mnemonic;
  if (!m.starts_with("image_")) return resolve_buffer(p, step);
  // implements() asks with the mnemonic alone: no operands, no modifiers to check.
  const bool by_name = p.operands.empty();
  const MemoryModifiers mm = memory_modifiers(p.modifiers);
  if (!by_name && (!mm.error.empty() || !mm.has_dim || mm.offen || mm.idxen || mm.has_format)) return nullptr;
  const std::string_view name = m.substr(6);
  u32 kind;
  int atomic_index = 0;
  SampleForm form;
  if (name == "load") kind = load;
  else if (name == "load_mip") kind = load_mip;
  else if (name == "store") kind = store;
  else if (name == "store_mip") kind = store_mip;
  else if (name == "get_resinfo") kind = resinfo;
  else if (name.starts_with("atomic_")) {
    static constexpr std::pair<std::string_view, std::string_view> atomics[] = {
        {"swap", "swap_b32"}, {"cmpswap", "cmpswap_b32"}, {"add", "add_u32"}, {"sub", "sub_u32"}, {"smin", "min_i32"},
        {"umin", "min_u32"}, {"smax", "max_i32"}, {"umax", "max_u32"}, {"and", "and_b32"}, {"or", "or_b32"},
        {"xor", "xor_b32"}, {"inc", "inc_u32"}, {"dec", "dec_u32"}};
    kind = atomic;
    atomic_index = -1;
    for (const auto& [n, memory_name] : atomics)
      if (name.substr(7) == n) atomic_index = semantics::atomic_kind(memory_name);
    if (atomic_index < 0) return nullptr;
  } else if (name.starts_with("sample") || (name.starts_with("gather4") && !name.starts_with("gather4h"))) {
    kind = name.starts_with("sample") ? sample : gather;
    form = sample_form(name.substr(kind == sample ? 6 : 7));
    if (!form.ok) return nullptr;  // _c (depth compare) and other forms
    if ((form.flags & s_g16) && !form.derivatives) return nullptr;
  } else {
    return nullptr;
  }
  const bool sampler_op = kind == sample || kind == gather;
  auto handler = [](u32 k) -> Handler {
    switch (k) {
      case load: case load_mip: return load_op;
      case store: case store_mip: return store_op;
      case resinfo: return resinfo_op;
      case atomic: return atomic_op;
      default: return sample_op;
    }
  };
  if (by_name) return handler(kind);
  const u32 dim = mm.dim;
  if (dim == descriptors::image::img_cube || dim >= descriptors::image::img_2d_msaa) return nullptr;
  if (kind == gather && (dim == descriptors::image::img_1d || dim == descriptors::image::img_1d_array || dim == descriptors::image::img_3d)) return nullptr;
  if (kind == atomic && (mm.d16 || (mm.dmask != 1 && !(name == "atomic_cmpswap" && mm.dmask == 3)))) return nullptr;
  if (mm.lwe && !sampler_op) return nullptr;
  if (p.operands.size() != (sampler_op ? 4u : 3u)) return nullptr;
  const Operand& vaddr = p.operands[1];
  if (vaddr.kind != Operand::Kind::vgpr && vaddr.kind != Operand::Kind::vgpr_list) return nullptr;
  if (p.operands[2].kind != Operand::Kind::sgpr || p.operands[2].width != 8) return nullptr;
  if (sampler_op && (p.operands[3].kind != Operand::Kind::sgpr || p.operands[3].width != 4)) return nullptr;
  // Address dwords the form needs.
  const u32 n = kind == resinfo ? 1 : descriptors::image::img_1d == dim ? 1 : dim == descriptors::image::img_2d || dim == descriptors::image::img_1d_array ? 2 : 3;
  u32 body = n + ((kind == load_mip || kind == store_mip || (form.flags & (s_lod | s_clamp))) ? 1 : 0);
  if (mm.a16) {
    if (form.flags & (s_offset | s_bias) || form.derivatives) return nullptr;
    body = (body + 1) / 2;
  }
  u32 derivs = 0;
  if (form.derivatives) {
    const u32 d = dim == descriptors::image::img_1d || dim == descriptors::image::img_1d_array ? 1 : dim == descriptors::image::img_3d ? 3 : 2;
    derivs = form.flags & s_g16 ? (d == 3 ? 4 : 2) : 2 * d;
  }
  const u32 needed = body + derivs + (form.flags & s_offset ? 1 : 0) + (form.flags & s_bias ? 1 : 0);
  if (address_dwords(vaddr) < needed) return nullptr;
  // Data VGPRs: the enabled components (4 for gather4), halved by d16, plus the status dword.
  u32 data = kind == gather ? 4 : static_cast<u32>(std::popcount(mm.dmask));
  if (kind == atomic) data = mm.dmask == 3 ? 2 : 1;
  if (data == 0) data = 1;
  if (mm.d16) data = (data + 1) / 2;
  if ((mm.tfe || mm.lwe) && kind != store && kind != store_mip && kind != atomic) ++data;
  if (p.operands[0].kind != Operand::Kind::vgpr || p.operands[0].width != data) return nullptr;
  if (mm.d16 && (kind == resinfo || kind == atomic)) return nullptr;
  step.param = kind | mm.dmask << 8 | dim << 12 | static_cast<u32>(atomic_index & 0xff) << 16 | (mm.unorm ? p_unorm : 0) |
               (mm.d16 ? p_d16 : 0) | (mm.a16 ? p_a16 : 0) | (mm.tfe || mm.lwe ? p_status : 0) | (p.modifiers.glc ? p_glc : 0);
  step.param2 = form.flags | derivs << s_derivs_shift | needed << s_address_shift;
  step.accepts = Accepts::named_modifiers;
  return handler(kind);
}

}  // namespace gpuport::emu
