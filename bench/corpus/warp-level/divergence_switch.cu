// k-way divergent switch per lane: each element selects one of 8 integer kernels (different
// mixing functions and trip counts) by its tag. The same work is run twice: with tags in
// random order (lanes of a warp take different cases, so the warp executes the cases one
// after another) and with elements grouped by tag (each warp takes one case). Both timings
// are printed; their ratio is the cost of divergence. Integer results, exact comparison.
#include "../include/corpus.cuh"

namespace {

constexpr int kN = 1 << 22;
constexpr int kCases = 8;
constexpr int kThreads = 256;
constexpr int kReps = 30;

__host__ __device__ __forceinline__ uint32_t rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// Case c runs 8 * (c + 1) rounds of its own recurrence.
__host__ __device__ uint32_t work(uint32_t tag, uint32_t x) {
  uint32_t h = x;
  switch (tag) {
    case 0: for (int i = 0; i < 8; ++i) h = h * 1664525u + 1013904223u; break;
    case 1: for (int i = 0; i < 16; ++i) h ^= rotl(h, 5) + 0x9e3779b9u; break;
    case 2: for (int i = 0; i < 24; ++i) { h ^= h >> 15; h *= 0x2c1b3c6du; } break;
    case 3: for (int i = 0; i < 32; ++i) h = rotl(h * 0x85ebca6bu, 13) ^ static_cast<uint32_t>(i); break;
    case 4: for (int i = 0; i < 40; ++i) { h += h << 10; h ^= h >> 6; } break;
    case 5: for (int i = 0; i < 48; ++i) h = (h >> 1) ^ (0xEDB88320u & (0u - (h & 1u))); break;
    case 6: for (int i = 0; i < 56; ++i) h = h * h + 0x6a09e667u; break;
    default: for (int i = 0; i < 64; ++i) { h ^= h << 13; h ^= h >> 17; h ^= h << 5; } break;
  }
  return h;
}

__global__ void switch_kernel(const uint32_t* __restrict__ tags, const uint32_t* __restrict__ vals,
                              uint32_t* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = work(tags[i], vals[i]);
}

float time_runs(const uint32_t* d_tags, const uint32_t* d_vals, uint32_t* d_out, int n) {
  const int blocks = (n + kThreads - 1) / kThreads;
  switch_kernel<<<blocks, kThreads>>>(d_tags, d_vals, d_out, n);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(kReps);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    switch_kernel<<<blocks, kThreads>>>(d_tags, d_vals, d_out, n);
    CORPUS_CHECK_LAUNCH();
  }
  return timer.stop();
}

}  // namespace

int main() {
  const int n = corpus::sized(kN, 1 << 15);  // emulated: 128 blocks
  std::vector<uint32_t> tags(n), vals(n);
  corpus::Rng rng(0xD1F);
  for (int i = 0; i < n; ++i) {
    tags[i] = rng.below(kCases);
    vals[i] = rng.next_u32();
  }
  // Coherent layout: the same elements stably grouped by tag.
  // Counting sort: perm[k] is the original index of the k-th element of the grouped layout.
  std::vector<int> start(kCases + 1, 0);
  for (int i = 0; i < n; ++i) ++start[tags[i] + 1];
  for (int c = 0; c < kCases; ++c) start[c + 1] += start[c];
  std::vector<int> perm(n);
  for (int i = 0; i < n; ++i) perm[start[tags[i]]++] = i;
  std::vector<uint32_t> tags_sorted(n), vals_sorted(n);
  for (int k = 0; k < n; ++k) {
    tags_sorted[k] = tags[perm[k]];
    vals_sorted[k] = vals[perm[k]];
  }

  const size_t bytes = n * sizeof(uint32_t);
  uint32_t *d_tags, *d_vals, *d_out, *d_tags_s, *d_vals_s, *d_out_s;
  CORPUS_CHECK(cudaMalloc(&d_tags, bytes));
  CORPUS_CHECK(cudaMalloc(&d_vals, bytes));
  CORPUS_CHECK(cudaMalloc(&d_out, bytes));
  CORPUS_CHECK(cudaMalloc(&d_tags_s, bytes));
  CORPUS_CHECK(cudaMalloc(&d_vals_s, bytes));
  CORPUS_CHECK(cudaMalloc(&d_out_s, bytes));
  CORPUS_CHECK(cudaMemcpy(d_tags, tags.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_vals, vals.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_tags_s, tags_sorted.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_vals_s, vals_sorted.data(), bytes, cudaMemcpyHostToDevice));

  const float divergent_ms = time_runs(d_tags, d_vals, d_out, n);
  const float coherent_ms = time_runs(d_tags_s, d_vals_s, d_out_s, n);
  std::printf("divergence_switch: divergent %.3f ms, coherent %.3f ms, ratio %.2f\n", divergent_ms,
              coherent_ms, coherent_ms > 0.0f ? divergent_ms / coherent_ms : 0.0f);

  std::vector<uint32_t> out(n), out_s(n);
  CORPUS_CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(out_s.data(), d_out_s, bytes, cudaMemcpyDeviceToHost));

  // Exact: integer arithmetic modulo 2^32. Error measure = fraction of wrong outputs.
  // The CPU reference calls the same work() compiled for the host, element by element.
  std::vector<uint32_t> want(n);
  for (int i = 0; i < n; ++i) want[i] = work(tags[i], vals[i]);
  size_t wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != want[i];
  for (int k = 0; k < n; ++k) wrong += out_s[k] != want[perm[k]];
  CORPUS_CHECK(cudaFree(d_tags));
  CORPUS_CHECK(cudaFree(d_vals));
  CORPUS_CHECK(cudaFree(d_out));
  CORPUS_CHECK(cudaFree(d_tags_s));
  CORPUS_CHECK(cudaFree(d_vals_s));
  CORPUS_CHECK(cudaFree(d_out_s));
  const double err = static_cast<double>(wrong) / (2.0 * n);
  return corpus::report("divergence_switch", wrong == 0, err, divergent_ms + coherent_ms);
}
