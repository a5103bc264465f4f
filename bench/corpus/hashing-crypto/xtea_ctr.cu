// XTEA (32 cycles, 64-bit block, 128-bit key) in counter mode over an 8 MiB buffer: block i of
// the keystream is XTEA_k(nonce_hi, nonce_lo + i) and is XORed onto the data. One thread per
// 64-bit block with a grid-stride loop; the key lives in constant memory. The ciphertext must
// equal the CPU reference bit for bit, and running the same kernel again (CTR decryption) must
// give back the plaintext exactly. The CPU XTEA is checked against a published test vector.
#include "../include/corpus.cuh"

namespace {

constexpr int kBlocks64 = 1 << 20;  // 1 Mi 64-bit blocks = 8 MiB
constexpr uint32_t kNonceHi = 0x0badc0deu;
constexpr uint32_t kNonceLo = 0xfeed1234u;
constexpr int kReps = 100;

__constant__ uint32_t c_key[4];

__device__ __forceinline__ uint2 xtea_encipher(uint32_t v0, uint32_t v1) {
  const uint32_t delta = 0x9E3779B9u;
  uint32_t sum = 0;
#pragma unroll 8
  for (int i = 0; i < 32; ++i) {
    v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + c_key[sum & 3]);
    sum += delta;
    v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + c_key[(sum >> 11) & 3]);
  }
  return make_uint2(v0, v1);
}

__global__ void xtea_ctr_kernel(const uint2* __restrict__ in, uint2* __restrict__ out, int n,
                                uint32_t nonce_hi, uint32_t nonce_lo) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const uint2 ks = xtea_encipher(nonce_hi, nonce_lo + static_cast<uint32_t>(i));
    const uint2 v = in[i];
    out[i] = make_uint2(v.x ^ ks.x, v.y ^ ks.y);
  }
}

// ---- CPU reference (Needham & Wheeler's reference code) ----
void cpu_xtea(const uint32_t key[4], uint32_t v[2]) {
  uint32_t v0 = v[0], v1 = v[1], sum = 0;
  const uint32_t delta = 0x9E3779B9u;
  for (int i = 0; i < 32; ++i) {
    v0 += (((v1 << 4) ^ (v1 >> 5)) + v1) ^ (sum + key[sum & 3]);
    sum += delta;
    v1 += (((v0 << 4) ^ (v0 >> 5)) + v0) ^ (sum + key[(sum >> 11) & 3]);
  }
  v[0] = v0;
  v[1] = v1;
}

}  // namespace

int main() {
  const int n64 = corpus::sized(kBlocks64, 1 << 14);  // emulated: 128 KiB
  const int reps = corpus::reps(kReps);
  // Test vector: key 00010203 04050607 08090a0b 0c0d0e0f, plaintext 41424344 45464748
  // -> ciphertext 497df3d0 72612cb5 (words taken big-endian).
  const uint32_t kat_key[4] = {0x00010203u, 0x04050607u, 0x08090a0bu, 0x0c0d0e0fu};
  uint32_t kat_v[2] = {0x41424344u, 0x45464748u};
  cpu_xtea(kat_key, kat_v);
  const bool kat_ok = kat_v[0] == 0x497df3d0u && kat_v[1] == 0x72612cb5u;

  corpus::Rng rng(0x7EA7EA);
  uint32_t key[4];
  for (auto& k : key) k = rng.next_u32();
  std::vector<uint2> h_plain(n64);
  for (auto& v : h_plain) v = make_uint2(rng.next_u32(), rng.next_u32());

  const size_t bytes = n64 * sizeof(uint2);
  uint2 *d_plain = nullptr, *d_cipher = nullptr, *d_round = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_plain, bytes));
  CORPUS_CHECK(cudaMalloc(&d_cipher, bytes));
  CORPUS_CHECK(cudaMalloc(&d_round, bytes));
  CORPUS_CHECK(cudaMemcpyToSymbol(c_key, key, sizeof(key)));
  CORPUS_CHECK(cudaMemcpy(d_plain, h_plain.data(), bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = corpus::sized(1024, 16);  // grid-stride: 4 blocks of 64 bits per thread
  xtea_ctr_kernel<<<blocks, threads>>>(d_plain, d_cipher, n64, kNonceHi, kNonceLo);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    xtea_ctr_kernel<<<blocks, threads>>>(d_plain, d_cipher, n64, kNonceHi, kNonceLo);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();
  // CTR decryption is the same operation: it must restore the plaintext.
  xtea_ctr_kernel<<<blocks, threads>>>(d_cipher, d_round, n64, kNonceHi, kNonceLo);
  CORPUS_CHECK_LAUNCH();

  std::vector<uint2> h_cipher(n64), h_round(n64);
  CORPUS_CHECK(cudaMemcpy(h_cipher.data(), d_cipher, bytes, cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(h_round.data(), d_round, bytes, cudaMemcpyDeviceToHost));

  // Exact: a cipher has no tolerance. Error measure = fraction of wrong 64-bit blocks.
  int wrong = 0;
  for (int i = 0; i < n64; ++i) {
    uint32_t ks[2] = {kNonceHi, kNonceLo + static_cast<uint32_t>(i)};
    cpu_xtea(key, ks);
    const bool enc_ok = h_cipher[i].x == (h_plain[i].x ^ ks[0]) && h_cipher[i].y == (h_plain[i].y ^ ks[1]);
    const bool dec_ok = h_round[i].x == h_plain[i].x && h_round[i].y == h_plain[i].y;
    if (!enc_ok || !dec_ok) ++wrong;
  }
  if (!kat_ok) std::fprintf(stderr, "CPU reference failed the XTEA test vector\n");

  CORPUS_CHECK(cudaFree(d_plain));
  CORPUS_CHECK(cudaFree(d_cipher));
  CORPUS_CHECK(cudaFree(d_round));
  return corpus::report("xtea_ctr", kat_ok && wrong == 0, static_cast<double>(wrong) / n64, gpu_ms);
}
