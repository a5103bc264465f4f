// clang's raw buffer builtins (__builtin_amdgcn_make_buffer_rsrc, raw_buffer_load/store_b8 ..
// b128), whose range checks the CPU reference computes from the RDNA3 ISA's table "Buffer Out
// Of Bounds Selection": with OOB_SELECT 3 (raw) an access is out of range when soffset + offset
// + payload > NUM_RECORDS, each dword of a B64/B96/B128 checked on its own; with 2 only
// NUM_RECORDS == 0 is; with 1 (raw buffers: index 0) likewise only an empty buffer. Loads out of
// range return 0 and stores out of range do nothing.
#include "check.h"

// V# dword 3: DST_SEL X, Y, Z, W; FORMAT 32_UINT (20); OOB_SELECT in bits [29:28].
constexpr int flags(int oob) { return (4 | 5 << 3 | 6 << 6 | 7 << 9) | 20 << 12 | oob << 28; }

struct Loads {
  unsigned b32, b8, b16, b64[2], b96[3], b128[4], soff;
};

__global__ void loads(unsigned* data, int num_records, int oob, Loads* out) {
  const int i = threadIdx.x;
  __amdgpu_buffer_rsrc_t r;
  switch (oob) {  // the flags are constants of the builtin
    case 1: r = __builtin_amdgcn_make_buffer_rsrc(data, 0, num_records, flags(1)); break;
    case 2: r = __builtin_amdgcn_make_buffer_rsrc(data, 0, num_records, flags(2)); break;
    default: r = __builtin_amdgcn_make_buffer_rsrc(data, 0, num_records, flags(3));
  }
  Loads l;
  l.b32 = __builtin_amdgcn_raw_buffer_load_b32(r, 4 * i, 0, 0);
  l.b8 = __builtin_amdgcn_raw_buffer_load_b8(r, 3 * i, 0, 0);
  l.b16 = __builtin_amdgcn_raw_buffer_load_b16(r, 2 * i + 2, 0, 0);
  const auto v2 = __builtin_amdgcn_raw_buffer_load_b64(r, 8 * i + 4, 0, 0);
  const auto v3 = __builtin_amdgcn_raw_buffer_load_b96(r, 12 * i, 0, 0);
  const auto v4 = __builtin_amdgcn_raw_buffer_load_b128(r, 16 * i, 0, 0);
  for (int k = 0; k < 2; ++k) l.b64[k] = v2[k];
  for (int k = 0; k < 3; ++k) l.b96[k] = v3[k];
  for (int k = 0; k < 4; ++k) l.b128[k] = v4[k];
  l.soff = __builtin_amdgcn_raw_buffer_load_b32(r, 4 * i, 12, 0);
  out[i] = l;
}

__global__ void stores(unsigned* data, int num_records) {
  const int i = threadIdx.x;
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(data, 0, num_records, flags(3));
  __builtin_amdgcn_raw_buffer_store_b32(0xabc00000u + i, r, 4 * i, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b16(static_cast<unsigned short>(0x7700 + i), r, 512 + 2 * i, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b8(static_cast<unsigned char>(i), r, 1024 + 2 * i, 16, 0);
}

int main() {
  const int words = 512, lanes = 64;
  std::vector<unsigned> host(words);
  for (int i = 0; i < words; ++i) host[i] = 0x01000000u * (i & 0xff) + i * 0x10101u + 7;
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(host.data());
  unsigned* data;
  Loads* out;
  HIP_OK(hipMalloc(&data, words * 4));
  HIP_OK(hipMalloc(&out, lanes * sizeof(Loads)));
  std::vector<Loads> got(lanes);
  struct Case {
    int oob, num_records;
  };
  for (Case c : {Case{3, 100}, Case{3, 0}, Case{3, 1023}, Case{2, 5}, Case{2, 0}, Case{1, 3}, Case{1, 0}}) {
    HIP_OK(hipMemcpy(data, host.data(), words * 4, hipMemcpyHostToDevice));
    loads<<<1, lanes>>>(data, c.num_records, c.oob, out);
    HIP_OK(hipGetLastError());
    HIP_OK(hipMemcpy(got.data(), out, lanes * sizeof(Loads), hipMemcpyDeviceToHost));
    const long long nr = static_cast<unsigned>(c.num_records);
    auto in = [&](long long soffset, long long offset, long long payload) {
      if (c.oob == 3) return soffset + offset + payload <= nr;
      return nr != 0;
    };
    auto read = [&](long long offset, int n) {
      unsigned v = 0;
      std::memcpy(&v, bytes + offset, n);
      return v;
    };
    char what[64];
    std::snprintf(what, sizeof what, "OOB_SELECT %d NUM_RECORDS %d", c.oob, c.num_records);
    for (int i = 0; i < lanes; ++i) {
      const Loads& g = got[i];
      expect_int(what, i, g.b32, in(0, 4 * i, 4) ? read(4 * i, 4) : 0);
      expect_int(what, i, g.b8, in(0, 3 * i, 1) ? read(3 * i, 1) : 0);
      expect_int(what, i, g.b16, in(0, 2 * i + 2, 2) ? read(2 * i + 2, 2) : 0);
      for (int k = 0; k < 2; ++k) expect_int(what, i, g.b64[k], in(0, 8 * i + 4 + 4 * k, 4) ? read(8 * i + 4 + 4 * k, 4) : 0);
      for (int k = 0; k < 3; ++k) expect_int(what, i, g.b96[k], in(0, 12 * i + 4 * k, 4) ? read(12 * i + 4 * k, 4) : 0);
      for (int k = 0; k < 4; ++k) expect_int(what, i, g.b128[k], in(0, 16 * i + 4 * k, 4) ? read(16 * i + 4 * k, 4) : 0);
      expect_int(what, i, g.soff, in(12, 4 * i, 4) ? read(12 + 4 * i, 4) : 0);
    }
  }
  // Stores: NUM_RECORDS 1030 covers the words of the first store up to lane 63, the shorts from
  // byte 512, and the bytes from 1024 + 16 (soffset) only while 16 + 1024 + 2 i + 1 <= 1030.
  HIP_OK(hipMemcpy(data, host.data(), words * 4, hipMemcpyHostToDevice));
  stores<<<1, lanes>>>(data, 1030);
  HIP_OK(hipGetLastError());
  std::vector<unsigned> after(words);
  HIP_OK(hipMemcpy(after.data(), data, words * 4, hipMemcpyDeviceToHost));
  std::vector<unsigned> model = host;
  unsigned char* m = reinterpret_cast<unsigned char*>(model.data());
  for (int i = 0; i < lanes; ++i) {
    if (4 * i + 4 <= 1030) model[i] = 0xabc00000u + i;
    if (512 + 2 * i + 2 <= 1030) m[512 + 2 * i] = static_cast<unsigned char>(i), m[513 + 2 * i] = 0x77;
    if (16 + 1024 + 2 * i + 1 <= 1030) m[16 + 1024 + 2 * i] = static_cast<unsigned char>(i);
  }
  for (int i = 0; i < words; ++i) expect_int("stores", i, after[i], model[i]);
  HIP_OK(hipFree(data));
  HIP_OK(hipFree(out));
  return report("buffer_builtins");
}
