// Table-driven CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of many independent 4 KiB
// blocks. Each thread block stages the 256-entry table in shared memory; each thread owns one
// data block and walks it 16 bytes at a time with uint4 loads. The CPU reference builds its own
// table and is checked against the standard "123456789" -> 0xCBF43926 test vector. Exact.
#include "../include/corpus.cuh"

#include <cstring>

namespace {

constexpr int kBlockBytes = 4096;
constexpr int kNumBlocks = 8192;  // 32 MiB of input
constexpr int kReps = 20;

__device__ __forceinline__ uint32_t crc_byte(const uint32_t* table, uint32_t crc, uint32_t byte) {
  return table[(crc ^ byte) & 0xffu] ^ (crc >> 8);
}

__device__ __forceinline__ uint32_t crc_word(const uint32_t* table, uint32_t crc, uint32_t w) {
  crc = crc_byte(table, crc, w & 0xffu);
  crc = crc_byte(table, crc, (w >> 8) & 0xffu);
  crc = crc_byte(table, crc, (w >> 16) & 0xffu);
  return crc_byte(table, crc, w >> 24);
}

__global__ void crc32_kernel(const uint4* __restrict__ data, const uint32_t* __restrict__ g_table,
                             uint32_t* __restrict__ crcs, int num_blocks) {
  __shared__ uint32_t table[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) table[i] = g_table[i];
  __syncthreads();

  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= num_blocks) return;
  const uint4* p = data + static_cast<size_t>(b) * (kBlockBytes / 16);
  uint32_t crc = 0xffffffffu;
  for (int i = 0; i < kBlockBytes / 16; ++i) {
    const uint4 v = __ldg(p + i);  // little-endian: byte order in memory is x, y, z, w low->high
    crc = crc_word(table, crc, v.x);
    crc = crc_word(table, crc, v.y);
    crc = crc_word(table, crc, v.z);
    crc = crc_word(table, crc, v.w);
  }
  crcs[b] = ~crc;
}

void make_table(uint32_t table[256]) {
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
    table[i] = c;
  }
}

uint32_t cpu_crc32(const uint32_t table[256], const unsigned char* p, size_t n) {
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

}  // namespace

int main() {
  uint32_t table[256];
  make_table(table);
  const int num_blocks = corpus::sized(kNumBlocks, 1024);  // emulated: 4 MiB, 16 blocks
  const int reps = corpus::reps(kReps);
  const bool kat_ok = cpu_crc32(table, reinterpret_cast<const unsigned char*>("123456789"), 9) == 0xCBF43926u;

  const size_t bytes = static_cast<size_t>(num_blocks) * kBlockBytes;
  std::vector<unsigned char> h_data(bytes);
  corpus::Rng rng(0xC3C32);
  for (size_t i = 0; i < bytes; i += 8) {
    const uint64_t r = rng.next();
    std::memcpy(&h_data[i], &r, 8);
  }
  // A few blocks of repeated bytes and all-0xff blocks to exercise less random input.
  std::memset(&h_data[0], 0xff, kBlockBytes);
  std::memset(&h_data[kBlockBytes], 0x00, kBlockBytes);
  std::memset(&h_data[2 * kBlockBytes], 'A', kBlockBytes);

  uint4* d_data = nullptr;
  uint32_t* d_table = nullptr;
  uint32_t* d_crcs = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_data, bytes));
  CORPUS_CHECK(cudaMalloc(&d_table, sizeof(table)));
  CORPUS_CHECK(cudaMalloc(&d_crcs, num_blocks * sizeof(uint32_t)));
  CORPUS_CHECK(cudaMemcpy(d_data, h_data.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_table, table, sizeof(table), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemset(d_crcs, 0, num_blocks * sizeof(uint32_t)));

  const int threads = 64;
  const int blocks = (num_blocks + threads - 1) / threads;
  crc32_kernel<<<blocks, threads>>>(d_data, d_table, d_crcs, num_blocks);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());

  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    crc32_kernel<<<blocks, threads>>>(d_data, d_table, d_crcs, num_blocks);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<uint32_t> h_crcs(num_blocks);
  CORPUS_CHECK(cudaMemcpy(h_crcs.data(), d_crcs, num_blocks * sizeof(uint32_t), cudaMemcpyDeviceToHost));

  // Exact: a CRC has no tolerance. Error measure = fraction of blocks with a wrong CRC.
  int wrong = 0;
  for (int b = 0; b < num_blocks; ++b)
    if (h_crcs[b] != cpu_crc32(table, &h_data[static_cast<size_t>(b) * kBlockBytes], kBlockBytes)) ++wrong;
  if (!kat_ok) std::fprintf(stderr, "CPU reference failed the CRC-32(\"123456789\") test vector\n");

  CORPUS_CHECK(cudaFree(d_data));
  CORPUS_CHECK(cudaFree(d_table));
  CORPUS_CHECK(cudaFree(d_crcs));
  return corpus::report("crc32_table", kat_ok && wrong == 0, static_cast<double>(wrong) / num_blocks, gpu_ms);
}
