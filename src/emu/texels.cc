// Element conversions of the data formats (see texels.h), and the memory modifiers.
#include "emu/texels.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "emu/half.h"

namespace gpuport::emu::texels {
namespace {

using descriptors::Numeric;

std::uint32_t read_channel(const DataFormat& f, const std::uint8_t* p, unsigned i) {
  switch (f.bits) {
    case 8: return p[i];
    case 16: {
      std::uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      return h;
    }
    default: {
      std::uint32_t w;
      std::memcpy(&w, p + 4 * i, 4);
      return w;
    }
  }
}

void write_channel(const DataFormat& f, std::uint8_t* p, unsigned i, std::uint32_t v) {
  switch (f.bits) {
    case 8: p[i] = static_cast<std::uint8_t>(v); break;
    case 16: {
      const auto h = static_cast<std::uint16_t>(v);
      std::memcpy(p + 2 * i, &h, 2);
      break;
    }
    default: std::memcpy(p + 4 * i, &v, 4);
  }
}

std::int32_t sign_extend(std::uint32_t v, unsigned bits) {
  if (bits == 32) return static_cast<std::int32_t>(v);
  const std::uint32_t m = 1u << (bits - 1);
  return static_cast<std::int32_t>((v ^ m) - m);
}

// Correctly rounded: the quotient of two small integers is never a float midpoint, so rounding
// the double quotient to float rounds once.
float unorm_to_float(std::uint32_t v, unsigned bits) { return static_cast<float>(static_cast<double>(v) / ((1u << bits) - 1)); }
float snorm_to_float(std::int32_t v, unsigned bits) {
  const double r = static_cast<double>(v) / ((1u << (bits - 1)) - 1);
  return static_cast<float>(r < -1.0 ? -1.0 : r);
}
// sRGB to linear (IEC 61966-2-1), evaluated in double and rounded once.
float srgb_to_linear(std::uint32_t v) {
  const double c = v / 255.0;
  return static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
}

std::uint32_t float_to_norm(float x, unsigned bits, bool is_signed) {
  const double max = is_signed ? (1u << (bits - 1)) - 1 : (1u << bits) - 1;
  double v = std::isnan(x) ? 0.0 : static_cast<double>(x);
  v = std::fmin(std::fmax(v, is_signed ? -1.0 : 0.0), 1.0);
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(std::nearbyint(v * max)));  // the FPU's default: nearest even
}

}  // namespace

Values decode(const DataFormat& f, const std::uint8_t* p) {
  Values out{};
  for (unsigned i = 0; i < f.channels && i < 4; ++i) {
    const std::uint32_t raw = read_channel(f, p, i);
    switch (f.numeric) {
      case Numeric::unorm: out[i] = f32_bits(unorm_to_float(raw, f.bits)); break;
      case Numeric::snorm: out[i] = f32_bits(snorm_to_float(sign_extend(raw, f.bits), f.bits)); break;
      case Numeric::uscaled: out[i] = f32_bits(static_cast<float>(raw)); break;
      case Numeric::sscaled: out[i] = f32_bits(static_cast<float>(sign_extend(raw, f.bits))); break;
      case Numeric::uint: out[i] = raw; break;
      case Numeric::sint: out[i] = static_cast<std::uint32_t>(sign_extend(raw, f.bits)); break;
      case Numeric::float_: out[i] = f.bits == 16 ? f32_bits(half_to_float(static_cast<std::uint16_t>(raw))) : raw; break;
      case Numeric::srgb: out[i] = f32_bits(i < 3 ? srgb_to_linear(raw) : unorm_to_float(raw, 8)); break;
    }
  }
  return out;
}

bool encode(const DataFormat& f, const Values& v, std::uint8_t* p) {
  for (unsigned i = 0; i < f.channels && i < 4; ++i) {
    std::uint32_t raw = 0;
    switch (f.numeric) {
      case Numeric::unorm: raw = float_to_norm(bits_f32(v[i]), f.bits, false); break;
      case Numeric::snorm: raw = float_to_norm(bits_f32(v[i]), f.bits, true); break;
      case Numeric::uint: {
        const std::uint32_t max = f.bits == 32 ? 0xffffffffu : (1u << f.bits) - 1;
        raw = v[i] > max ? max : v[i];
        break;
      }
      case Numeric::sint: {
        const std::int64_t x = static_cast<std::int32_t>(v[i]);
        const std::int64_t hi = (std::int64_t{1} << (f.bits - 1)) - 1, lo = -hi - 1;
        raw = static_cast<std::uint32_t>(x > hi ? hi : x < lo ? lo : x);
        break;
      }
      case Numeric::float_: raw = f.bits == 16 ? float_to_half(bits_f32(v[i])) : v[i]; break;
      case Numeric::uscaled:
      case Numeric::sscaled:
      case Numeric::srgb: return false;
    }
    write_channel(f, p, i, raw);
  }
  return true;
}

Values select(const Values& c, const std::array<std::uint8_t, 4>& sel, const DataFormat& f) {
  Values out{};
  for (unsigned i = 0; i < 4; ++i) {
    const std::uint8_t s = sel[i];
    out[i] = s == descriptors::sel_1 ? one(f) : s >= descriptors::sel_x ? c[s - descriptors::sel_x] : 0;
  }
  return out;
}

bool identity_select(const std::array<std::uint8_t, 4>& sel, const DataFormat& f) {
  for (unsigned k = 0; k < f.channels; ++k)
    if (sel[k] != descriptors::sel_x + k) return false;
  return true;
}

std::optional<std::uint16_t> to_d16(const DataFormat& f, std::uint32_t value) {
  if (!f.integer()) return float_to_half(bits_f32(value));
  if (f.bits == 32) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

std::uint32_t from_d16(const DataFormat& f, std::uint16_t value) {
  if (!f.integer()) return f32_bits(half_to_float(value));
  return f.numeric == Numeric::sint ? static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(value))) : value;
}

MemoryModifiers memory_modifiers(const Modifiers& mods) {
  MemoryModifiers out;
  auto number = [](std::string_view s, std::uint32_t& v) {
    const int base = s.starts_with("0x") ? 16 : 10;
    if (base == 16) s.remove_prefix(2);
    return !s.empty() && std::from_chars(s.data(), s.data() + s.size(), v, base).ptr == s.data() + s.size();
  };
  static constexpr std::pair<std::string_view, std::uint32_t> dims[] = {
      {"SQ_RSRC_IMG_1D", descriptors::image::img_1d}, {"SQ_RSRC_IMG_2D", descriptors::image::img_2d},
      {"SQ_RSRC_IMG_3D", descriptors::image::img_3d}, {"SQ_RSRC_IMG_CUBE", descriptors::image::img_cube},
      {"SQ_RSRC_IMG_1D_ARRAY", descriptors::image::img_1d_array}, {"SQ_RSRC_IMG_2D_ARRAY", descriptors::image::img_2d_array},
      {"SQ_RSRC_IMG_2D_MSAA", descriptors::image::img_2d_msaa}, {"SQ_RSRC_IMG_2D_MSAA_ARRAY", descriptors::image::img_2d_msaa_array}};
  for (const std::string& text : mods.unknown) {
    const std::string_view m = text;
    bool ok = true;
    if (m == "offen") out.offen = true;
    else if (m == "idxen") out.idxen = true;
    else if (m == "unorm") out.unorm = true;
    else if (m == "d16") out.d16 = true;
    else if (m == "a16") out.a16 = true;
    else if (m == "tfe") out.tfe = true;
    else if (m == "lwe") out.lwe = true;
    else if (m.starts_with("dmask:")) ok = number(m.substr(6), out.dmask) && out.dmask < 16;
    else if (m.starts_with("dim:")) {
      ok = false;
      for (const auto& [name, value] : dims)
        if (m.substr(4) == name) ok = true, out.dim = value, out.has_dim = true;
    } else if (m.starts_with("format:")) {
      std::string_view f = m.substr(7);
      out.has_format = true;
      if (f.starts_with("[BUF_FMT_") && f.ends_with("]")) {
        f = f.substr(9, f.size() - 10);
        ok = false;
        for (const auto& d : descriptors::kDataFormats)
          if (d.name == f) ok = true, out.format = d.number;
      } else {
        ok = number(f, out.format);
      }
    } else {
      ok = false;
    }
    if (!ok && out.error.empty()) out.error = text;
  }
  return out;
}

}  // namespace gpuport::emu::texels
