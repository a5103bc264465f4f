// SHA-256 of many independent 64-byte messages, one thread per message. Each message is one
// data block plus one fixed padding block (0x80, zeros, bit length 512), so the kernel runs
// two compressions. The CPU reference is an independent byte-oriented SHA-256 with general
// padding, checked against the FIPS 180-2 "abc" test vector. Digests must match exactly.
#include "../include/corpus.cuh"

#include <cstring>

namespace {

constexpr int kMessages = 1 << 18;  // 256 Ki messages, 16 MiB of input
constexpr int kMsgBytes = 64;
constexpr int kReps = 60;

__constant__ uint32_t c_k[64];

const uint32_t h_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

const uint32_t h_init[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

__device__ __forceinline__ uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// One SHA-256 compression of the 16-word block w into state s.
__device__ void compress(uint32_t s[8], const uint32_t block[16]) {
  uint32_t w[16];
#pragma unroll
  for (int i = 0; i < 16; ++i) w[i] = block[i];
  uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
#pragma unroll
  for (int i = 0; i < 64; ++i) {
    uint32_t wi;
    if (i < 16) {
      wi = w[i];
    } else {
      const uint32_t w15 = w[(i - 15) & 15], w2 = w[(i - 2) & 15];
      const uint32_t s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
      const uint32_t s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
      wi = w[i & 15] + s0 + w[(i - 7) & 15] + s1;
      w[i & 15] = wi;
    }
    const uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const uint32_t ch = (e & f) ^ (~e & g);
    const uint32_t t1 = h + S1 + ch + c_k[i] + wi;
    const uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const uint32_t t2 = S0 + maj;
    h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
  }
  s[0] += a; s[1] += b; s[2] += c; s[3] += d; s[4] += e; s[5] += f; s[6] += g; s[7] += h;
}

// msgs: n messages of 64 bytes as little-endian uint4 loads; digests: 8 words per message.
__global__ void sha256_kernel(const uint4* __restrict__ msgs, uint32_t* __restrict__ digests, int n) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x;
  if (m >= n) return;
  uint32_t block[16];
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const uint4 v = msgs[m * 4 + q];
    const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {  // bytes arrive little-endian, SHA-256 words are big-endian
      const uint32_t x = words[k];
      block[q * 4 + k] = (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
    }
  }
  uint32_t s[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  compress(s, block);
  uint32_t pad[16] = {0x80000000u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 512u};
  compress(s, pad);
#pragma unroll
  for (int i = 0; i < 8; ++i) digests[m * 8 + i] = s[i];
}

// ---- CPU reference: straightforward byte-oriented SHA-256 for any length ----
inline uint32_t cpu_rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

void cpu_sha256(const unsigned char* data, size_t len, uint32_t out[8]) {
  std::vector<unsigned char> buf(data, data + len);
  buf.push_back(0x80);
  while (buf.size() % 64 != 56) buf.push_back(0);
  const uint64_t bits = static_cast<uint64_t>(len) * 8;
  for (int i = 7; i >= 0; --i) buf.push_back(static_cast<unsigned char>(bits >> (8 * i)));
  uint32_t h[8];
  std::memcpy(h, h_init, sizeof(h));
  for (size_t off = 0; off < buf.size(); off += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = (uint32_t(buf[off + 4 * i]) << 24) | (uint32_t(buf[off + 4 * i + 1]) << 16) |
             (uint32_t(buf[off + 4 * i + 2]) << 8) | uint32_t(buf[off + 4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      const uint32_t s0 = cpu_rotr(w[i - 15], 7) ^ cpu_rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const uint32_t s1 = cpu_rotr(w[i - 2], 17) ^ cpu_rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      const uint32_t t1 = hh + (cpu_rotr(e, 6) ^ cpu_rotr(e, 11) ^ cpu_rotr(e, 25)) +
                          ((e & f) ^ (~e & g)) + h_k[i] + w[i];
      const uint32_t t2 = (cpu_rotr(a, 2) ^ cpu_rotr(a, 13) ^ cpu_rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  std::memcpy(out, h, sizeof(h));
}

}  // namespace

int main() {
  const int messages = corpus::sized(kMessages, 1 << 12);  // emulated: 16 blocks
  const int reps = corpus::reps(kReps);
  // Known-answer test for the CPU reference: SHA-256("abc").
  const uint32_t abc_want[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
  uint32_t abc_got[8];
  cpu_sha256(reinterpret_cast<const unsigned char*>("abc"), 3, abc_got);
  bool kat_ok = std::memcmp(abc_got, abc_want, sizeof(abc_want)) == 0;

  const size_t bytes = static_cast<size_t>(messages) * kMsgBytes;
  std::vector<unsigned char> h_msgs(bytes);
  corpus::Rng rng(0x5A256);
  for (size_t i = 0; i < bytes; i += 4) {
    const uint32_t r = rng.next_u32();
    std::memcpy(&h_msgs[i], &r, 4);
  }

  uint4* d_msgs = nullptr;
  uint32_t* d_digests = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_msgs, bytes));
  CORPUS_CHECK(cudaMalloc(&d_digests, static_cast<size_t>(messages) * 8 * sizeof(uint32_t)));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_k, h_k, sizeof(h_k)));
  CORPUS_CHECK(cudaMemcpy(d_msgs, h_msgs.data(), bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (messages + threads - 1) / threads;
  sha256_kernel<<<blocks, threads>>>(d_msgs, d_digests, messages);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    sha256_kernel<<<blocks, threads>>>(d_msgs, d_digests, messages);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<uint32_t> h_digests(static_cast<size_t>(messages) * 8);
  CORPUS_CHECK(cudaMemcpy(h_digests.data(), d_digests, h_digests.size() * sizeof(uint32_t),
                          cudaMemcpyDeviceToHost));

  // Exact comparison: a hash has no tolerance. The error measure is the fraction of wrong digests.
  size_t wrong = 0;
  for (int m = 0; m < messages; ++m) {
    uint32_t want[8];
    cpu_sha256(&h_msgs[static_cast<size_t>(m) * kMsgBytes], kMsgBytes, want);
    if (std::memcmp(want, &h_digests[static_cast<size_t>(m) * 8], sizeof(want)) != 0) ++wrong;
  }
  if (!kat_ok) std::fprintf(stderr, "CPU reference failed the SHA-256(\"abc\") test vector\n");

  CORPUS_CHECK(cudaFree(d_msgs));
  CORPUS_CHECK(cudaFree(d_digests));
  const double err = static_cast<double>(wrong) / messages;
  return corpus::report("sha256_batch", kat_ok && wrong == 0, err, gpu_ms);
}
