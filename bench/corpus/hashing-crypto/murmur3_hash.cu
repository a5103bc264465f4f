// MurmurHash3_x86_32 of many variable-length keys (1..32 bytes, stored at a 32-byte stride),
// one thread per key, with the seed in a kernel argument. The GPU reads 4-byte blocks with
// aligned word loads; the CPU reference is the canonical byte-wise implementation, checked
// against known values ("" seed 0 -> 0, "hello" seed 0 -> 0x248bfa47). Exact comparison.
#include "../include/corpus.cuh"

#include <cstring>

namespace {

constexpr int kKeys = 1 << 21;  // 2 Mi keys
constexpr int kStride = 32;     // bytes reserved per key
constexpr uint32_t kSeed = 0x9747b28cu;
constexpr int kReps = 50;

__device__ __forceinline__ uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

__device__ __forceinline__ uint32_t fmix32(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

__global__ void murmur3_kernel(const uint32_t* __restrict__ keys, const uint8_t* __restrict__ lens,
                               uint32_t* __restrict__ hashes, int n, uint32_t seed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  const int len = lens[i];
  const uint32_t* words = keys + static_cast<size_t>(i) * (kStride / 4);
  uint32_t h = seed;
  const int nblocks = len / 4;
  for (int b = 0; b < nblocks; ++b) {
    uint32_t k = words[b];  // little-endian load, as MurmurHash3 specifies on x86
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const int rem = len & 3;
  if (rem) {
    // Tail bytes live in the next word; mask off the bytes past the key.
    uint32_t k = words[nblocks] & (0xffffffffu >> (8 * (4 - rem)));
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
  }
  h ^= static_cast<uint32_t>(len);
  hashes[i] = fmix32(h);
}

// ---- canonical CPU MurmurHash3_x86_32 ----
inline uint32_t cpu_rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t cpu_murmur3(const unsigned char* data, int len, uint32_t seed) {
  const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  uint32_t h1 = seed;
  const int nblocks = len / 4;
  for (int i = 0; i < nblocks; ++i) {
    uint32_t k1 = uint32_t(data[4 * i]) | (uint32_t(data[4 * i + 1]) << 8) |
                  (uint32_t(data[4 * i + 2]) << 16) | (uint32_t(data[4 * i + 3]) << 24);
    k1 *= c1; k1 = cpu_rotl(k1, 15); k1 *= c2;
    h1 ^= k1; h1 = cpu_rotl(h1, 13); h1 = h1 * 5 + 0xe6546b64u;
  }
  const unsigned char* tail = data + nblocks * 4;
  uint32_t k1 = 0;
  switch (len & 3) {
    case 3: k1 ^= uint32_t(tail[2]) << 16;  // fall through
    case 2: k1 ^= uint32_t(tail[1]) << 8;   // fall through
    case 1:
      k1 ^= tail[0];
      k1 *= c1; k1 = cpu_rotl(k1, 15); k1 *= c2; h1 ^= k1;
  }
  h1 ^= static_cast<uint32_t>(len);
  h1 ^= h1 >> 16; h1 *= 0x85ebca6bu; h1 ^= h1 >> 13; h1 *= 0xc2b2ae35u; h1 ^= h1 >> 16;
  return h1;
}

}  // namespace

int main() {
  const int keys = corpus::sized(kKeys, 1 << 16);  // emulated: 256 blocks
  const int reps = corpus::reps(kReps);
  const bool kat_ok = cpu_murmur3(reinterpret_cast<const unsigned char*>(""), 0, 0) == 0u &&
                      cpu_murmur3(reinterpret_cast<const unsigned char*>("hello"), 5, 0) == 0x248bfa47u;

  const size_t bytes = static_cast<size_t>(keys) * kStride;
  std::vector<unsigned char> h_keys(bytes);
  std::vector<uint8_t> h_lens(keys);
  corpus::Rng rng(0x3A3A3);
  for (int i = 0; i < keys; ++i) {
    h_lens[i] = static_cast<uint8_t>(1 + rng.below(kStride));  // 1..32 bytes
    for (int b = 0; b < kStride; b += 8) {
      const uint64_t r = rng.next();
      std::memcpy(&h_keys[static_cast<size_t>(i) * kStride + b], &r, 8);  // bytes past len are junk
    }
  }

  uint32_t* d_keys = nullptr;
  uint8_t* d_lens = nullptr;
  uint32_t* d_hashes = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_keys, bytes));
  CORPUS_CHECK(cudaMalloc(&d_lens, keys));
  CORPUS_CHECK(cudaMalloc(&d_hashes, keys * sizeof(uint32_t)));
  CORPUS_CHECK(cudaMemcpy(d_keys, h_keys.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_lens, h_lens.data(), keys, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (keys + threads - 1) / threads;
  murmur3_kernel<<<blocks, threads>>>(d_keys, d_lens, d_hashes, keys, kSeed);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    murmur3_kernel<<<blocks, threads>>>(d_keys, d_lens, d_hashes, keys, kSeed);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<uint32_t> h_hashes(keys);
  CORPUS_CHECK(cudaMemcpy(h_hashes.data(), d_hashes, keys * sizeof(uint32_t), cudaMemcpyDeviceToHost));

  // Exact: hashes have no tolerance. Error measure = fraction of wrong hashes.
  int wrong = 0;
  for (int i = 0; i < keys; ++i)
    if (h_hashes[i] != cpu_murmur3(&h_keys[static_cast<size_t>(i) * kStride], h_lens[i], kSeed)) ++wrong;
  if (!kat_ok) std::fprintf(stderr, "CPU reference failed the MurmurHash3 test vectors\n");

  CORPUS_CHECK(cudaFree(d_keys));
  CORPUS_CHECK(cudaFree(d_lens));
  CORPUS_CHECK(cudaFree(d_hashes));
  return corpus::report("murmur3_hash", kat_ok && wrong == 0, static_cast<double>(wrong) / keys, gpu_ms);
}
