// Image and buffer instructions on hand-written gfx1100 assembly (tests/unit/emu_asm.h) with
// descriptors built here, bit by bit, from the RDNA3 ISA guide's tables (not from the emulator's
// emu/image_descriptors.h): buffer range checks of every OOB_SELECT, offen/idxen/soffset/
// ADD_TID, format conversions and destination selects, D16, atomics, unbound resources; image
// loads, stores, atomics and resource queries in and out of range, D16/A16/TFE, sampling with
// border colours and clamp modes clang does not emit, texel offsets, NSA addresses, gather
// order, wave64; and what the emulator refuses. Expected values come from the ISA's definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "emu_asm.h"

namespace gpuport::emu::testing {
namespace {

#define RUN_ASM(var, kernel, launch)                             \
  auto var = run_asm(kernel, launch);                            \
  if (!var.skip_reason.empty()) GTEST_SKIP() << var.skip_reason; \
  ASSERT_EQ(var.error, "")

std::uint32_t fbits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bitsf(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
std::string hex(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%x", v);
  return b;
}

// ---- descriptors, from the ISA guide's field tables ----------------------------------------
// DST_SEL values: 0 zero, 1 one, 4 X, 5 Y, 6 Z, 7 W.
constexpr std::uint32_t X = 4, Y = 5, Z = 6, W = 7;
// Buffer and image data formats (ISA table "Buffer and Image Data Formats").
constexpr std::uint32_t fmt_8_unorm = 1, fmt_8_snorm = 2, fmt_16_16_unorm = 23, fmt_16_16_sint = 28, fmt_32_uint = 20,
                        fmt_32_float = 22, fmt_8_8_8_8_unorm = 42, fmt_32_32_32_32_float = 63;

// V# dword 3: DST_SEL_X..W [11:0], FORMAT [17:12], ADD_TID_ENABLE [23], OOB_SELECT [29:28].
std::uint32_t v_word3(std::uint32_t sx, std::uint32_t sy, std::uint32_t sz, std::uint32_t sw, std::uint32_t format, std::uint32_t oob,
                      bool add_tid = false) {
  return sx | sy << 3 | sz << 6 | sw << 9 | format << 12 | (add_tid ? 1u : 0u) << 23 | oob << 28;
}
// A V# in s[r:r+3] over the `aux` buffer: BASE (48 bits) in dwords 0..1, STRIDE in dword 1
// [29:16], NUM_RECORDS in dword 2.
std::string vsharp(unsigned r, std::uint32_t stride, std::uint32_t num_records, std::uint32_t word3) {
  return "  s_mov_b32 s" + std::to_string(r) + ", s8\n  s_and_b32 s" + std::to_string(r + 1) + ", s9, 0xffff\n  s_or_b32 s" +
         std::to_string(r + 1) + ", s" + std::to_string(r + 1) + ", " + hex(stride << 16) + "\n  s_mov_b32 s" + std::to_string(r + 2) +
         ", " + hex(num_records) + "\n  s_mov_b32 s" + std::to_string(r + 3) + ", " + hex(word3) + "\n";
}

// T# fields: FORMAT dword 1 [27:20], WIDTH-1 in dword 1 [31:30] and dword 2 [11:0], HEIGHT-1
// dword 2 [27:14], DST_SEL dword 3 [11:0], SW_MODE [24:20], TYPE [31:28], DEPTH-1 or PITCH-1
// dword 4 [13:0], BASE_ARRAY dword 4 [28:16]. BASE_ADDRESS >> 8 fills dword 0 and dword 1 [7:0].
struct Image {
  std::uint32_t format, width, height = 1, depth = 1, pitch = 0, type = 9;  // 9: 2D, 8: 1D, 10: 3D, 13: 2D array
  std::uint32_t sel[4] = {X, Y, Z, W};
  std::uint32_t sw_mode = 0;
};
std::array<std::uint32_t, 8> t_words(const Image& im) {
  std::array<std::uint32_t, 8> w{};
  w[1] = im.format << 20 | ((im.width - 1) & 3) << 30;
  w[2] = (im.width - 1) >> 2 | (im.height - 1) << 14;
  w[3] = im.sel[0] | im.sel[1] << 3 | im.sel[2] << 6 | im.sel[3] << 9 | im.sw_mode << 20 | im.type << 28;
  w[4] = im.type == 10 || im.type == 13 || im.type == 12 ? im.depth - 1 : (im.pitch ? im.pitch : im.width) - 1;
  return w;
}
// Copies `in` (16 bytes per lane) to the first 256-byte boundary in `aux` (s[24:25]) and puts
// the T# of that image in s[16:23].
std::string image_prologue(const Image& im) {
  const auto w = t_words(im);
  std::string a = R"(
  s_add_u32 s24, s8, 0xff
  s_addc_u32 s25, s9, 0
  s_and_b32 s24, s24, 0xffffff00
  v_lshlrev_b32 v40, 4, v0
  global_load_b128 v[41:44], v40, s[4:5]
  s_waitcnt vmcnt(0)
  global_store_b128 v40, v[41:44], s[24:25]
  s_lshr_b32 s16, s24, 8
  s_lshl_b32 s26, s25, 24
  s_or_b32 s16, s16, s26
  s_lshr_b32 s17, s25, 8
  s_and_b32 s17, s17, 0xff
)";
  a += "  s_or_b32 s17, s17, " + hex(w[1]) + "\n";
  for (int i = 2; i < 8; ++i) a += "  s_mov_b32 s" + std::to_string(16 + i) + ", " + hex(w[i]) + "\n";
  return a;
}
// S# in s[28:31]: CLAMP_X/Y/Z [8:0], FORCE_UNNORMALIZED [15], MAX_LOD dword 1 [23:12],
// XY_MAG/MIN_FILTER dword 2 [21:20]/[23:22], BORDER_COLOR_TYPE dword 3 [31:30].
std::string sampler(std::uint32_t clamp, bool unnormalized, bool bilinear, std::uint32_t border) {
  const std::uint32_t w0 = clamp | clamp << 3 | clamp << 6 | (unnormalized ? 1u : 0u) << 15, w1 = 4095u << 12;
  const std::uint32_t w2 = (bilinear ? 1u : 0u) << 20 | (bilinear ? 1u : 0u) << 22, w3 = border << 30;
  return "  s_mov_b32 s28, " + hex(w0) + "\n  s_mov_b32 s29, " + hex(w1) + "\n  s_mov_b32 s30, " + hex(w2) + "\n  s_mov_b32 s31, " + hex(w3) + "\n";
}
// The harness places every buffer at a 256-byte boundary (emu_asm.cc), so the image the kernel
// aligns within aux starts at aux's first byte.
const std::uint8_t* aligned_image(const AsmRun& r) { return reinterpret_cast<const std::uint8_t*>(r.aux.data()); }

// ---- buffers --------------------------------------------------------------------------------
TEST(EmuImage, StructuredBufferChecksIndexAndOffsetWithinTheStride) {
  // OOB_SELECT 0: out of range when index >= NUM_RECORDS or offset + payload > STRIDE.
  AsmKernel k;
  k.body = vsharp(12, 8, 10, v_word3(X, Y, Z, W, fmt_32_uint, 0)) + R"(
  buffer_load_b32 v2, v0, s[12:15], 0 idxen offset:4
  buffer_load_b32 v3, v0, s[12:15], 0 idxen offset:8
  v_mov_b32 v5, 2
  buffer_load_b32 v4, v[4:5], s[12:15], 0 idxen offen
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
  global_store_b32 v1, v3, s[6:7] offset:128
  global_store_b32 v1, v4, s[6:7] offset:256
)";
  k.body.insert(0, "  v_mov_b32 v4, v0\n");
  AsmLaunch l;
  l.aux.resize(64);
  for (unsigned i = 0; i < 64; ++i) l.aux[i] = 1000 + i;
  l.out_words = 96;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.out[lane], lane < 10 ? 1000 + 2 * lane + 1 : 0u) << lane;  // byte 8 * lane + 4
    EXPECT_EQ(r.out[32 + lane], 0u) << lane;                                // 8 + 4 > stride 8
    // offen: byte offset 2 + 4 = 6 <= 8: unaligned read of bytes 8 * lane + 2 ..
    std::uint32_t want = 0;
    if (lane < 10) std::memcpy(&want, reinterpret_cast<const std::uint8_t*>(l.aux.data()) + 8 * lane + 2, 4);
    EXPECT_EQ(r.out[64 + lane], want) << lane;
  }
}

TEST(EmuImage, RawBufferChecksEachDwordAgainstNumRecordsLessSoffset) {
  // OOB_SELECT 3, STRIDE 0: out of range when soffset + offset + payload > NUM_RECORDS, each
  // dword of a B64 on its own; loads out of range give 0.
  AsmKernel k;
  k.body = vsharp(12, 0, 45, v_word3(X, Y, Z, W, fmt_32_uint, 3)) + R"(
  v_lshlrev_b32 v6, 3, v0
  s_mov_b32 s20, 4
  buffer_load_b64 v[2:3], v6, s[12:15], s20 offen
  buffer_load_u8 v4, v0, s[12:15], 0 offen offset:20
  buffer_load_i16 v5, v0, s[12:15], 0 offen offset:20
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
  global_store_b32 v1, v3, s[6:7] offset:128
  global_store_b32 v1, v4, s[6:7] offset:256
  global_store_b32 v1, v5, s[6:7] offset:384
)";
  AsmLaunch l;
  l.aux.resize(64);
  for (unsigned i = 0; i < 64; ++i) l.aux[i] = 0x80808080u + i * 0x01020304u;
  l.out_words = 128;
  RUN_ASM(r, k, l);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(l.aux.data());
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (unsigned d = 0; d < 2; ++d) {
      const std::uint64_t offset = 8 * lane + 4 * d;
      std::uint32_t want = 0;
      if (4 + offset + 4 <= 45) std::memcpy(&want, bytes + 4 + offset, 4);
      EXPECT_EQ(r.out[32 * d + lane], want) << lane << " dword " << d;
    }
    EXPECT_EQ(r.out[64 + lane], 20 + lane + 1 <= 45 ? bytes[20 + lane] : 0u) << lane;
    std::int16_t h = 0;
    if (20 + lane + 2 <= 45) std::memcpy(&h, bytes + 20 + lane, 2);
    EXPECT_EQ(r.out[96 + lane], static_cast<std::uint32_t>(static_cast<std::int32_t>(h))) << lane;
  }
}

TEST(EmuImage, IndexOnlyNoCheckAndAddTid) {
  // OOB_SELECT 1: only index >= NUM_RECORDS; 2: only NUM_RECORDS == 0. ADD_TID_ENABLE adds the
  // lane to the index (no VGPR address at all here).
  AsmKernel k;
  k.body = vsharp(12, 4, 20, v_word3(X, Y, Z, W, fmt_32_uint, 1, true)) + vsharp(16, 4, 0, v_word3(X, Y, Z, W, fmt_32_uint, 2)) +
           vsharp(20, 4, 1, v_word3(X, Y, Z, W, fmt_32_uint, 2)) + R"(
  buffer_load_b32 v2, off, s[12:15], 0 offset:100
  v_lshlrev_b32 v6, 2, v0
  buffer_load_b32 v3, v6, s[16:19], 0 offen
  buffer_load_b32 v4, v6, s[20:23], 0 offen
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
  global_store_b32 v1, v3, s[6:7] offset:128
  global_store_b32 v1, v4, s[6:7] offset:256
)";
  AsmLaunch l;
  l.aux.resize(64);
  for (unsigned i = 0; i < 64; ++i) l.aux[i] = 7 * i + 3;
  l.out_words = 96;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.out[lane], lane < 20 ? l.aux[lane + 25] : 0u) << lane;  // index = lane, offset 100 not checked
    EXPECT_EQ(r.out[32 + lane], 0u) << lane;
    EXPECT_EQ(r.out[64 + lane], l.aux[lane]) << lane;
  }
}

TEST(EmuImage, FormatLoadsConvertAndSelect) {
  // 16_16_UNORM through DST_SEL (Y, X, 1, 0): (y / 65535, x / 65535, 1.0, 0); out of range the
  // element is 0 but SEL_1 still gives 1. tbuffer's own format (8_SNORM) with identity selects.
  AsmKernel k;
  k.body = vsharp(12, 4, 24, v_word3(Y, X, 1, 0, fmt_16_16_unorm, 0)) + R"(
  buffer_load_format_xyzw v[2:5], v0, s[12:15], 0 idxen
  tbuffer_load_format_x v6, v0, s[12:15], 0 format:[BUF_FMT_8_SNORM] idxen
  buffer_load_d16_format_xy v7, v0, s[12:15], 0 idxen
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
  global_store_b32 v1, v3, s[6:7] offset:128
  global_store_b32 v1, v4, s[6:7] offset:256
  global_store_b32 v1, v5, s[6:7] offset:384
  global_store_b32 v1, v6, s[6:7] offset:512
  global_store_b32 v1, v7, s[6:7] offset:640
)";
  AsmLaunch l;
  l.aux.resize(32);
  for (unsigned i = 0; i < 32; ++i) l.aux[i] = (i == 3 ? 0xffffu : i * 2049u) | (i == 5 ? 0u : 65535u - i * 1000u) << 16;
  l.out_words = 192;
  RUN_ASM(r, k, l);
  auto half_of = [](float f) {  // f16 of a value in [0, 1], from its binary expansion
    int e;
    const double m = std::frexp(f, &e);  // f = m * 2^e, 0.5 <= m < 1
    if (f == 0) return std::uint16_t{0};
    const double scaled = std::ldexp(m, 11);  // 11 significant bits
    const double rounded = std::nearbyint(scaled);
    return static_cast<std::uint16_t>((e - 1 + 15 + (rounded == 2048 ? 1 : 0)) << 10 | (static_cast<int>(rounded == 2048 ? 1024 : rounded) & 0x3ff));
  };
  for (unsigned lane = 0; lane < 32; ++lane) {
    const bool in = lane < 24;
    const std::uint32_t x = l.aux[lane] & 0xffff, y = l.aux[lane] >> 16;
    const float fx = static_cast<float>(x / 65535.0), fy = static_cast<float>(y / 65535.0);
    EXPECT_EQ(r.out[lane], in ? fbits(fy) : 0u) << lane;
    EXPECT_EQ(r.out[32 + lane], in ? fbits(fx) : 0u) << lane;
    EXPECT_EQ(r.out[64 + lane], fbits(1.0f)) << lane;
    EXPECT_EQ(r.out[96 + lane], 0u) << lane;
    const auto byte = static_cast<std::int8_t>(l.aux[lane] & 0xff);
    EXPECT_EQ(r.out[128 + lane], in ? fbits(std::fmax(static_cast<float>(byte / 127.0), -1.0f)) : 0u) << lane;
    EXPECT_EQ(r.out[160 + lane], in ? std::uint32_t{half_of(fy)} | std::uint32_t{half_of(fx)} << 16 : 0u) << lane;
  }
}

TEST(EmuImage, FormatStoresRoundAndSaturate) {
  // float -> 8_8_8_8_UNORM: clamp to [0, 1], * 255, round to nearest even, NaN -> 0;
  // int -> 16_16_SINT: saturate. Stores past NUM_RECORDS are dropped.
  AsmKernel k;
  k.body = vsharp(12, 4, 20, v_word3(X, Y, Z, W, fmt_8_8_8_8_unorm, 0)) + vsharp(16, 4, 20, v_word3(X, Y, Z, W, fmt_16_16_sint, 0)) + R"(
  v_lshlrev_b32 v10, 4, v0
  global_load_b128 v[2:5], v10, s[4:5]
  s_waitcnt vmcnt(0)
  buffer_store_format_xyzw v[2:5], v0, s[12:15], 0 idxen
  v_add_nc_u32 v11, 32, v0
  buffer_store_format_xy v[4:5], v11, s[16:19], 0 idxen
)";
  AsmLaunch l;
  const float values[8] = {-0.5f, 0.25f, 1.5f, NAN, 0.5f, 0.00196078f, 0.998f, 1.0f};
  l.in.resize(128);
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (unsigned c = 0; c < 4; ++c) l.in[4 * lane + c] = fbits(values[(lane + c) % 8]);
    l.in[4 * lane + 2] = static_cast<std::uint32_t>(lane * 3000 - 40000);  // also the SINT data (x)
    l.in[4 * lane + 3] = static_cast<std::uint32_t>(40000 - lane * 4000);   // (y)
  }
  l.aux.assign(64, 0xdeadbeefu);
  RUN_ASM(r, k, l);
  auto unorm8 = [](float f) {
    if (std::isnan(f)) return 0u;
    const double v = std::fmin(std::fmax(static_cast<double>(f), 0.0), 1.0) * 255.0;
    return static_cast<std::uint32_t>(std::nearbyint(v));
  };
  auto sat16 = [](std::uint32_t v) {
    const auto x = static_cast<std::int32_t>(v);
    return static_cast<std::uint32_t>(static_cast<std::uint16_t>(x > 32767 ? 32767 : x < -32768 ? -32768 : x));
  };
  for (unsigned lane = 0; lane < 32; ++lane) {
    std::uint32_t want = 0xdeadbeefu;
    if (lane < 20) {
      want = 0;
      for (unsigned c = 0; c < 4; ++c) want |= unorm8(bitsf(l.in[4 * lane + c])) << (8 * c);
    }
    EXPECT_EQ(r.aux[lane], want) << lane;
    // The SINT buffer starts at element 32 of the same memory: indices 32.. >= 20, all dropped.
    EXPECT_EQ(r.aux[32 + lane], 0xdeadbeefu) << lane;
  }
  (void)sat16;
  // Now in range: NUM_RECORDS 64.
  k.body = vsharp(16, 4, 64, v_word3(X, Y, Z, W, fmt_16_16_sint, 0)) + R"(
  v_lshlrev_b32 v10, 4, v0
  global_load_b128 v[2:5], v10, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v11, 32, v0
  buffer_store_format_xy v[4:5], v11, s[16:19], 0 idxen
)";
  RUN_ASM(r2, k, l);
  for (unsigned lane = 0; lane < 32; ++lane)
    EXPECT_EQ(r2.aux[32 + lane], sat16(l.in[4 * lane + 2]) | sat16(l.in[4 * lane + 3]) << 16) << lane;
}

TEST(EmuImage, BufferAtomicsReturnTheOldValueAndDropOutOfRange) {
  AsmKernel k;
  k.body = vsharp(12, 4, 16, v_word3(X, Y, Z, W, fmt_32_uint, 1)) + R"(
  v_mov_b32 v2, v0
  buffer_atomic_add_u32 v2, v0, s[12:15], 0 idxen glc
  v_mov_b32 v3, 100
  v_mov_b32 v4, v0
  buffer_atomic_cmpswap_b32 v[3:4], v0, s[12:15], 0 idxen offset:128 glc
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
  global_store_b32 v1, v3, s[6:7] offset:128
)";
  AsmLaunch l;
  l.aux.resize(64);
  for (unsigned i = 0; i < 64; ++i) l.aux[i] = 10 * i;
  l.out_words = 64;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const bool in = lane < 16;
    EXPECT_EQ(r.out[lane], in ? 10 * lane : 0u) << lane;
    EXPECT_EQ(r.aux[lane], in ? 11 * lane : 10 * lane) << lane;
    // cmpswap at element lane + 32 (offset 128): swaps 100 in where the old value is the lane.
    EXPECT_EQ(r.out[32 + lane], in ? 10 * (lane + 32) : 0u) << lane;
    EXPECT_EQ(r.aux[32 + lane], in && 10 * (32 + lane) == lane ? 100 : 10 * (32 + lane)) << lane;
  }
}

TEST(EmuImage, AnUnboundResourceReadsZeroAndIgnoresStores) {
  // FORMAT INVALID (0) means no resource (ISA 9.3): untyped loads return 0, stores do nothing.
  AsmKernel k;
  k.body = vsharp(12, 0, 256, v_word3(X, Y, Z, W, 0, 3)) + R"(
  buffer_load_b32 v2, v1, s[12:15], 0 offen
  buffer_store_b32 v0, v1, s[12:15], 0 offen
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
)";
  AsmLaunch l;
  l.aux.assign(32, 77);
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.out[lane], 0u) << lane;
    EXPECT_EQ(r.aux[lane], 77u) << lane;
  }
}

TEST(EmuImage, BufferInWave64) {
  AsmKernel k;
  k.wave64 = true;
  k.body = vsharp(12, 4, 50, v_word3(X, Y, Z, W, fmt_32_float, 0)) + R"(
  buffer_load_format_x v2, v0, s[12:15], 0 idxen
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
)";
  AsmLaunch l;
  l.threads = 64;
  l.aux.resize(64);
  for (unsigned i = 0; i < 64; ++i) l.aux[i] = fbits(i * 0.5f);
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 64; ++lane) EXPECT_EQ(r.out[lane], lane < 50 ? l.aux[lane] : 0u) << lane;
}

// ---- images ---------------------------------------------------------------------------------
TEST(EmuImage, LoadsInAndOutOfRangeThroughTheSelects) {
  // 6 x 4 R32_FLOAT with a pitch of 8 texels, selects (X, 0, 0, 1): dmask 0x9 returns (texel,
  // 1.0); out of range the texel is 0 and SEL_1 still 1. D16 narrows to f16, A16 packs the
  // coordinates, TFE adds a status dword (0: resident).
  Image im{fmt_32_float, 6, 4};
  im.pitch = 8;
  im.sel[1] = 0, im.sel[2] = 0, im.sel[3] = 1;
  AsmKernel k;
  k.body = image_prologue(im) + R"(
  v_and_b32 v2, 7, v0
  v_subrev_nc_u32 v2, 1, v2
  v_lshrrev_b32 v3, 3, v0
  v_subrev_nc_u32 v3, 1, v3
  image_load v[4:5], v[2:3], s[16:23] dmask:0x9 dim:SQ_RSRC_IMG_2D unorm
  image_load v6, v[2:3], s[16:23] dmask:0x3 dim:SQ_RSRC_IMG_2D unorm d16
  v_and_b32 v7, 0xffff, v2
  v_lshlrev_b32 v8, 16, v3
  v_or_b32 v7, v7, v8
  image_load v[8:9], v7, s[16:23] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm a16 tfe
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v4, s[6:7]
  global_store_b32 v1, v5, s[6:7] offset:128
  global_store_b32 v1, v6, s[6:7] offset:256
  global_store_b32 v1, v8, s[6:7] offset:384
  global_store_b32 v1, v9, s[6:7] offset:512
)";
  AsmLaunch l;
  l.in.resize(128);
  for (unsigned i = 0; i < 128; ++i) l.in[i] = fbits(i * 0.75f - 3.0f);  // texel (x, y) at word y * 8 + x
  l.aux.resize(512);
  l.out_words = 160;
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const int x = static_cast<int>(lane % 8) - 1, y = static_cast<int>(lane / 8) - 1;
    const bool in = x >= 0 && x < 6 && y >= 0 && y < 4;
    const std::uint32_t texel = in ? l.in[y * 8 + x] : 0;
    EXPECT_EQ(r.out[lane], texel) << lane;
    EXPECT_EQ(r.out[32 + lane], fbits(1.0f)) << lane;
    // d16 of (texel, 0): the texel's value is a multiple of 0.25 below 100, exact in f16.
    const float v = bitsf(texel);
    std::uint16_t h = 0;
    if (v != 0) {
      int e;
      const double m = std::frexp(std::fabs(v), &e);
      h = static_cast<std::uint16_t>((v < 0 ? 0x8000 : 0) | (e - 1 + 15) << 10 | (static_cast<int>(std::ldexp(m, 11)) & 0x3ff));
    }
    EXPECT_EQ(r.out[64 + lane], h) << lane;
    EXPECT_EQ(r.out[96 + lane], texel) << lane;  // the same coordinates as 16-bit halves (x, y)
    EXPECT_EQ(r.out[128 + lane], 0u) << lane;
  }
}

TEST(EmuImage, StoresWriteTheEnabledComponentsAndDropOutOfRange) {
  // dmask 0x5 on 8_8_8_8_UNORM: red from the first VGPR, blue from the second, green and alpha 0.
  Image im{fmt_8_8_8_8_unorm, 5, 3};
  AsmKernel k;
  k.body = image_prologue(im) + R"(
  v_and_b32 v2, 7, v0
  v_lshrrev_b32 v3, 3, v0
  v_cvt_f32_u32 v4, v0
  v_mul_f32 v4, 0x3c800000, v4
  v_mov_b32 v5, 0.5
  image_store v[4:5], v[2:3], s[16:23] dmask:0x5 dim:SQ_RSRC_IMG_2D unorm
)";
  AsmLaunch l;
  l.in.assign(128, 0x11223344u);
  l.aux.resize(512);
  RUN_ASM(r, k, l);
  const auto* base = aligned_image(r);
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned x = lane % 8, y = lane / 8;
    std::uint32_t got;
    std::memcpy(&got, base + 4 * (y * 5 + x), 4);  // pitch 5 texels
    if (x >= 5 || y >= 3) continue;                  // those lanes' stores are dropped
    const std::uint32_t red = static_cast<std::uint32_t>(std::nearbyint(lane / 64.0 * 255.0));
    const std::uint32_t blue = 128;  // 0.5 * 255 = 127.5 rounds to even
    EXPECT_EQ(got, red | blue << 16) << lane;
  }
  // Texels past the image rows (row 3 = bytes 60..) keep the copied pattern.
  std::uint32_t after;
  std::memcpy(&after, base + 4 * 15, 4);
  EXPECT_EQ(after, 0x11223344u);
}

TEST(EmuImage, ResinfoAndAtomics) {
  // get_resinfo of a 5 x 3 2D array of 4 layers: (width, height, layers, levels); atomics on
  // R32_UINT, out of range dropped with 0 returned.
  Image arr{fmt_32_uint, 5, 3, 4};
  arr.type = 13;
  AsmKernel k;
  k.body = image_prologue(arr) + R"(
  v_mov_b32 v2, 0
  image_get_resinfo v[4:7], v2, s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY unorm
  v_mov_b32 v2, 1
  image_get_resinfo v8, v2, s[16:23] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm
  v_and_b32 v10, 7, v0
  v_lshrrev_b32 v11, 3, v0
  v_mov_b32 v12, 1
  v_mov_b32 v13, 5
  image_atomic_add v13, v[10:12], s[16:23] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY unorm glc
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v4, s[6:7]
  global_store_b32 v1, v5, s[6:7] offset:128
  global_store_b32 v1, v6, s[6:7] offset:256
  global_store_b32 v1, v7, s[6:7] offset:384
  global_store_b32 v1, v8, s[6:7] offset:512
  global_store_b32 v1, v13, s[6:7] offset:640
)";
  AsmLaunch l;
  l.in.resize(128);
  for (unsigned i = 0; i < 128; ++i) l.in[i] = i;
  l.aux.resize(512);
  l.out_words = 192;
  RUN_ASM(r, k, l);
  // A 2D array's rows hold the width rounded up to 256 bytes (64 texels of 4 bytes); layer 1
  // starts after 3 rows.
  const std::uint32_t pitch = 64, layer = 1;
  const auto* base = aligned_image(r);
  for (unsigned lane = 0; lane < 32; ++lane) {
    EXPECT_EQ(r.out[lane], 5u);
    EXPECT_EQ(r.out[32 + lane], 3u);
    EXPECT_EQ(r.out[64 + lane], 4u);
    EXPECT_EQ(r.out[96 + lane], 1u);
    EXPECT_EQ(r.out[128 + lane], 2u);  // width >> 1
    const unsigned x = lane % 8, y = lane / 8;
    const bool in = x < 5 && y < 3;
    const std::uint32_t word = (layer * 3 + y) * pitch + x;
    const std::uint32_t old = word < 128 ? word : 0;  // the copied pattern covers words 0..127
    EXPECT_EQ(r.out[160 + lane], in ? old : 0u) << lane;
    std::uint32_t now;
    std::memcpy(&now, base + 4 * word, 4);
    if (in) {
      EXPECT_EQ(now, old + 5) << lane;
    }
  }
}

TEST(EmuImage, SamplingBordersAndClampModes) {
  // A 4 x 1 R32_FLOAT row (1, 2, 4, 8), unnormalized coordinates from the sampler, bilinear:
  // the taps at x - 0.5 are floor and floor + 1 with weight frac. CLAMP_BORDER with opaque white
  // (1.0 outside), MIRROR_ONCE_LAST_TEXEL (-1-i mirrored, then clamped), WRAP.
  Image im{fmt_32_float, 4, 1};
  const float row[4] = {1, 2, 4, 8};
  auto tap = [&](long long i, int mode) -> double {
    if (mode == 6) return i < 0 || i >= 4 ? 1.0 : row[i];             // border, opaque white
    if (mode == 3) {                                                   // mirror once, last texel
      const long long j = i < 0 ? -1 - i : i;
      return row[j > 3 ? 3 : j];
    }
    return row[((i % 4) + 4) % 4];                                     // wrap
  };
  for (int mode : {6, 3, 0}) {
    AsmKernel k;
    k.body = image_prologue(im) + sampler(static_cast<std::uint32_t>(mode), true, true, 2) + R"(
  v_cvt_f32_i32 v2, v0
  v_mul_f32 v2, 0.5, v2
  v_subrev_f32 v2, 4.0, v2
  v_mov_b32 v3, 0.5
  image_sample_lz v4, v[2:3], s[16:23], s[28:31] dmask:0x1 dim:SQ_RSRC_IMG_2D
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v4, s[6:7]
)";
    AsmLaunch l;
    l.in.resize(128);
    for (unsigned i = 0; i < 4; ++i) l.in[i] = fbits(row[i]);
    l.aux.resize(512);
    RUN_ASM(r, k, l);
    for (unsigned lane = 0; lane < 32; ++lane) {
      const double x = lane * 0.5 - 4.0, xb = x - 0.5;
      const long long i0 = static_cast<long long>(std::floor(xb));
      const double a = xb - i0;
      const float want = static_cast<float>((1 - a) * tap(i0, mode) + a * tap(i0 + 1, mode));
      EXPECT_EQ(r.out[lane], fbits(want)) << "mode " << mode << " lane " << lane;
    }
  }
}

TEST(EmuImage, TexelOffsetsNsaAddressesAndGatherOrder) {
  // A 4 x 4 RGBA32F image, texel (x, y) = (x, y, 10x + y, -1). image_sample_lz_o adds the
  // offset dword's 6-bit x [5:0] and y [13:8] to the texel coordinate (here -1, +2); the NSA form
  // takes s and t from two unrelated VGPRs; gather4 green returns (i0,j1), (i1,j1), (i1,j0), (i0,j0).
  Image im{fmt_32_32_32_32_float, 4, 4};
  AsmKernel k;
  k.body = image_prologue(im) + sampler(2, true, false, 0) + R"(
  v_and_b32 v20, 3, v0
  v_cvt_f32_u32 v20, v20
  v_add_f32 v20, 0.5, v20
  v_lshrrev_b32 v21, 2, v0
  v_and_b32 v21, 3, v21
  v_cvt_f32_u32 v21, v21
  v_add_f32 v21, 0.5, v21
  v_mov_b32 v30, 0x23f
  v_mov_b32 v31, v20
  v_mov_b32 v32, v21
  image_sample_lz_o v[2:5], v[30:32], s[16:23], s[28:31] dmask:0xf dim:SQ_RSRC_IMG_2D
  v_mov_b32 v50, v20
  image_sample_lz v[6:7], [v50, v21], s[16:23], s[28:31] dmask:0x3 dim:SQ_RSRC_IMG_2D
  v_add_f32 v20, 0.5, v20
  v_add_f32 v21, 0.5, v21
  image_gather4_lz v[8:11], v[20:21], s[16:23], s[28:31] dmask:0x2 dim:SQ_RSRC_IMG_2D
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
  global_store_b32 v1, v3, s[6:7] offset:128
  global_store_b32 v1, v6, s[6:7] offset:256
  global_store_b32 v1, v7, s[6:7] offset:384
  global_store_b32 v1, v8, s[6:7] offset:512
  global_store_b32 v1, v9, s[6:7] offset:640
  global_store_b32 v1, v10, s[6:7] offset:768
  global_store_b32 v1, v11, s[6:7] offset:896
)";
  AsmLaunch l;
  l.in.resize(128);
  for (unsigned y = 0; y < 4; ++y)
    for (unsigned x = 0; x < 4; ++x) {
      const float t[4] = {static_cast<float>(x), static_cast<float>(y), 10.0f * x + y, -1.0f};
      for (unsigned c = 0; c < 4; ++c) l.in[(y * 4 + x) * 4 + c] = fbits(t[c]);
    }
  l.aux.resize(512);
  l.out_words = 256;
  RUN_ASM(r, k, l);
  auto clamp3 = [](long long v) { return static_cast<float>(v < 0 ? 0 : v > 3 ? 3 : v); };
  for (unsigned lane = 0; lane < 32; ++lane) {
    const long long x = lane & 3, y = (lane >> 2) & 3;
    // 0x23f: x offset 0x3f = -1, y offset 2 (point sampling, clamp to the last texel).
    EXPECT_EQ(r.out[lane], fbits(clamp3(x - 1))) << lane;
    EXPECT_EQ(r.out[32 + lane], fbits(clamp3(y + 2))) << lane;
    EXPECT_EQ(r.out[64 + lane], fbits(static_cast<float>(x))) << lane;
    EXPECT_EQ(r.out[96 + lane], fbits(static_cast<float>(y))) << lane;
    // Gather at (x + 1, y + 1): footprint i0 = x, j0 = y; green is the y coordinate, clamped.
    const float j0 = clamp3(y), j1 = clamp3(y + 1);
    EXPECT_EQ(r.out[128 + lane], fbits(j1)) << lane;
    EXPECT_EQ(r.out[160 + lane], fbits(j1)) << lane;
    EXPECT_EQ(r.out[192 + lane], fbits(j0)) << lane;
    EXPECT_EQ(r.out[224 + lane], fbits(j0)) << lane;
  }
}

TEST(EmuImage, ImagesInWave64) {
  Image im{fmt_8_unorm, 64, 1};
  AsmKernel k;
  k.wave64 = true;
  k.body = image_prologue(im) + R"(
  image_load v2, v0, s[16:23] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm
  s_waitcnt vmcnt(0)
  global_store_b32 v1, v2, s[6:7]
)";
  AsmLaunch l;
  l.threads = 64;
  l.in.resize(256);
  for (unsigned i = 0; i < 16; ++i) l.in[i] = 0x03020100u + 0x04040404u * i;  // byte b = b
  l.aux.resize(512);
  RUN_ASM(r, k, l);
  for (unsigned lane = 0; lane < 64; ++lane) EXPECT_EQ(r.out[lane], fbits(static_cast<float>(lane / 255.0))) << lane;
}

TEST(EmuImage, WhatIsNotEmulatedIsRefusedByName) {
  // A tiled image layout stops the kernel with the reason.
  Image tiled{fmt_8_snorm, 8, 8};
  tiled.sw_mode = 9;
  AsmKernel k;
  k.body = image_prologue(tiled) + R"(
  image_load v2, v[0:1], s[16:23] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm
  s_waitcnt vmcnt(0)
)";
  AsmLaunch l;
  l.in.resize(128);
  l.aux.resize(512);
  auto r = run_asm(k, l);
  if (!r.skip_reason.empty()) GTEST_SKIP() << r.skip_reason;
  EXPECT_NE(r.error.find("tiled layout SW_MODE 9"), std::string::npos) << r.error;
  // Depth-compare sampling and cube maps are refused before the kernel runs.
  k.body = "  image_sample_c_lz v2, v[2:4], s[16:23], s[28:31] dmask:0x1 dim:SQ_RSRC_IMG_2D\n";
  r = run_asm(k, l);
  EXPECT_NE(r.error.find("image_sample_c_lz v2, v[2:4], s[16:23], s[28:31] dmask:0x1 dim:SQ_RSRC_IMG_2D) is not implemented"), std::string::npos) << r.error;
  k.body = "  image_sample_lz v2, v[2:4], s[16:23], s[28:31] dmask:0x1 dim:SQ_RSRC_IMG_CUBE\n";
  r = run_asm(k, l);
  EXPECT_NE(r.error.find("is not implemented"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace gpuport::emu::testing
