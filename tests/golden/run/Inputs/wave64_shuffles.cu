// Self-checking CUDA program of warp shuffles whose source lanes cross the two 32-lane halves of
// a 64-lane wave: reductions, scans, broadcasts and permutations over warpSize lanes and over 32,
// of int, unsigned, float, double and long long, in full blocks, a partial block and divergent
// code, and __match_any_sync / __reduce_add_sync, whose shims shuffle. The CPU reference simulates CUDA's shuffles at the warp size the device reports; a value
// read from a lane outside the block or inactive is undefined and not compared.
#include <cstdio>
#include <cuda_runtime.h>
#include <string>
#include <vector>

constexpr unsigned kFull = 0xffffffffu;

__global__ void xor_sum(const int* in, int* out) {  // butterfly: every lane gets its warp's sum
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(kFull, v, offset);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void down_sum(const float* in, float* out) {  // lane 0 gets its warp's sum
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void up_scan(const double* in, double* out) {  // inclusive scan over the warp
  double v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int lane = threadIdx.x % warpSize;
  for (int offset = 1; offset < warpSize; offset *= 2) {
    const double up = __shfl_up_sync(kFull, v, offset);
    if (lane >= offset) v += up;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

__global__ void gather(const long long* in, long long* permuted, long long* last) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const long long v = in[i];
  permuted[i] = __shfl_sync(kFull, v, (lane * 5 + 3) % warpSize);
  last[i] = __shfl_sync(kFull, v, warpSize - 1);
}

__global__ void width32(const unsigned* in, unsigned* sums, double* shifted, float* mirrored) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(kFull, v, offset, 32);
  sums[i] = v;
  shifted[i] = __shfl_down_sync(kFull, static_cast<double>(in[i]), 3, 32);
  mirrored[i] = __shfl_sync(kFull, static_cast<float>(in[i]), 31 - threadIdx.x % 32, 32);
}

// Launched with a partial block: the lanes past its end do not exist.
__global__ void partial(const double* in, double* scan, float* broadcast) {
  double v = in[threadIdx.x];
  const int lane = threadIdx.x % warpSize;
  for (int offset = 1; offset < warpSize; offset *= 2) {
    const double up = __shfl_up_sync(kFull, v, offset);
    if (lane >= offset) v += up;
  }
  scan[threadIdx.x] = v;
  broadcast[threadIdx.x] = __shfl_sync(kFull, static_cast<float>(in[threadIdx.x]), 20);
}

// Only threads 0-15 and 48-63 of each 64 take part: lane ^ 48 is the other group.
__global__ void divergent(const long long* in, long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = threadIdx.x % 64;
  long long r = -1;
  if (t < 16 || t >= 48) r = __shfl_xor_sync(__activemask(), in[i], 48);
  out[i] = r;
}

// gpuport's shims for these shuffle too: the lanes with the same key, the warp's total.
__global__ void match_reduce(const int* keys, const unsigned* in, unsigned long long* peers, unsigned* sums) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  peers[i] = __match_any_sync(kFull, keys[i]);
  sums[i] = __reduce_add_sync(kFull, in[i]);
}

// The CPU side: CUDA's shuffles over warps of `warp` lanes in blocks of `block` threads.
enum class Shuffle { index, up, down, bfly };

// The lane that `lane` reads in a shuffle over segments of `width` lanes (PTX shfl's rules).
int source_lane(Shuffle kind, int lane, int arg, int width) {
  const int first = lane & ~(width - 1);
  switch (kind) {
    case Shuffle::index: return first + arg % width;
    case Shuffle::up: return lane - arg >= first ? lane - arg : lane;
    case Shuffle::down: return lane % width + arg < width ? lane + arg : lane;
    case Shuffle::bfly: return (lane ^ arg) < first + width ? lane ^ arg : lane;
  }
  return lane;
}

template <typename T> struct Lanes {
  std::vector<T> value;
  std::vector<bool> known;  // false: read from a lane that does not exist or is inactive
};

struct Grid {
  int threads, block, warp;
  std::vector<bool> active;  // per thread
};

// One shuffle of every thread's value; `arg_of(thread)` gives its argument.
template <typename T, typename Arg>
Lanes<T> shuffle(const Grid& g, const Lanes<T>& in, Shuffle kind, Arg arg_of, int width) {
  Lanes<T> out = in;
  for (int t = 0; t < g.threads; ++t) {
    if (!g.active[t]) continue;
    const int in_block = t % g.block, lane = in_block % g.warp, warp_first = t - lane;
    const int src = warp_first + source_lane(kind, lane, arg_of(t), width);
    const bool exists = src - (t - in_block) < g.block && src < g.threads && g.active[src];
    out.value[t] = exists ? in.value[src] : T();
    out.known[t] = exists && in.known[src];
  }
  return out;
}

template <typename T> Lanes<T> lanes_of(const std::vector<T>& v) { return {v, std::vector<bool>(v.size(), true)}; }

template <typename T> int mismatches(const char* what, const Lanes<T>& expect, const std::vector<T>& got) {
  int bad = 0;
  for (size_t t = 0; t < got.size(); ++t) {
    if (!expect.known[t] || expect.value[t] == got[t]) continue;
    if (bad++ < 4) printf("%s[%zu]: got %s, expected %s\n", what, t, std::to_string(got[t]).c_str(), std::to_string(expect.value[t]).c_str());
  }
  return bad;
}

template <typename T> T* device_copy(const std::vector<T>& host) {
  T* p = nullptr;
  if (cudaMalloc(&p, host.size() * sizeof(T)) != cudaSuccess ||
      cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess)
    printf("cannot copy %zu bytes to the device\n", host.size() * sizeof(T));
  return p;
}

template <typename T> std::vector<T> host_copy(const T* device, int n) {
  std::vector<T> host(n);
  if (cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess)
    printf("cannot copy %zu bytes from the device\n", n * sizeof(T));
  return host;
}

int main() {
  int warp = 0;
  if (cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0) != cudaSuccess) return 2;
  const int blocks = 2, block = 128, n = blocks * block;
  const Grid full{n, block, warp, std::vector<bool>(n, true)};
  std::vector<int> ints(n);
  std::vector<unsigned> uints(n);
  std::vector<float> floats(n);
  std::vector<double> doubles(n);
  std::vector<long long> longs(n);
  for (int t = 0; t < n; ++t) {  // integer-valued: every sum is exact in any order
    ints[t] = (t * 37) % 101 - 50;
    uints[t] = 0x10000u * (t % 7) + static_cast<unsigned>(t);
    floats[t] = static_cast<float>((t * 13) % 29 - 14);
    doubles[t] = static_cast<double>((t * 11) % 23) * 1048576.0 + t;
    longs[t] = (static_cast<long long>(t + 1) << 33) - t * 3;  // both 32-bit words differ by lane
  }
  int bad = 0;
  auto for_offsets_down = [&](auto step) {
    for (int offset = warp / 2; offset > 0; offset /= 2) step(offset);
  };

  {  // xor_sum
    int *in = device_copy(ints), *out = device_copy(ints);
    xor_sum<<<blocks, block>>>(in, out);
    Lanes<int> e = lanes_of(ints);
    for_offsets_down([&](int o) {
      const Lanes<int> s = shuffle(full, e, Shuffle::bfly, [&](int) { return o; }, warp);
      for (int t = 0; t < n; ++t) e.value[t] += s.value[t], e.known[t] = e.known[t] && s.known[t];
    });
    bad += mismatches("xor_sum", e, host_copy(out, n));
  }
  {  // down_sum
    float *in = device_copy(floats), *out = device_copy(floats);
    down_sum<<<blocks, block>>>(in, out);
    Lanes<float> e = lanes_of(floats);
    for_offsets_down([&](int o) {
      const Lanes<float> s = shuffle(full, e, Shuffle::down, [&](int) { return o; }, warp);
      for (int t = 0; t < n; ++t) e.value[t] += s.value[t], e.known[t] = e.known[t] && s.known[t];
    });
    bad += mismatches("down_sum", e, host_copy(out, n));
  }
  auto scan = [&](const Grid& g, std::vector<double> values) {
    Lanes<double> e = lanes_of(values);
    for (int o = 1; o < warp; o *= 2) {
      const Lanes<double> s = shuffle(g, e, Shuffle::up, [&](int) { return o; }, warp);
      for (int t = 0; t < g.threads; ++t)
        if ((t % g.block) % warp >= o) e.value[t] += s.value[t], e.known[t] = e.known[t] && s.known[t];
    }
    return e;
  };
  {  // up_scan
    double *in = device_copy(doubles), *out = device_copy(doubles);
    up_scan<<<blocks, block>>>(in, out);
    bad += mismatches("up_scan", scan(full, doubles), host_copy(out, n));
  }
  {  // gather
    long long *in = device_copy(longs), *permuted = device_copy(longs), *last = device_copy(longs);
    gather<<<blocks, block>>>(in, permuted, last);
    const Lanes<long long> l = lanes_of(longs);
    bad += mismatches("permuted", shuffle(full, l, Shuffle::index, [&](int t) { return ((t % block) % warp * 5 + 3) % warp; }, warp),
                      host_copy(permuted, n));
    bad += mismatches("last", shuffle(full, l, Shuffle::index, [&](int) { return warp - 1; }, warp), host_copy(last, n));
  }
  {  // width32
    unsigned *in = device_copy(uints), *sums = device_copy(uints);
    double* shifted = device_copy(doubles);
    float* mirrored = device_copy(floats);
    width32<<<blocks, block>>>(in, sums, shifted, mirrored);
    Lanes<unsigned> e = lanes_of(uints);
    for (int o = 16; o > 0; o /= 2) {
      const Lanes<unsigned> s = shuffle(full, e, Shuffle::bfly, [&](int) { return o; }, 32);
      for (int t = 0; t < n; ++t) e.value[t] += s.value[t], e.known[t] = e.known[t] && s.known[t];
    }
    bad += mismatches("width32 sums", e, host_copy(sums, n));
    std::vector<double> as_double(uints.begin(), uints.end());
    std::vector<float> as_float(uints.begin(), uints.end());
    bad += mismatches("width32 shifted", shuffle(full, lanes_of(as_double), Shuffle::down, [](int) { return 3; }, 32),
                      host_copy(shifted, n));
    bad += mismatches("width32 mirrored",
                      shuffle(full, lanes_of(as_float), Shuffle::index, [&](int t) { return 31 - (t % block) % 32; }, 32),
                      host_copy(mirrored, n));
  }
  {  // partial: one block of 48 threads
    const int m = 48;
    const Grid g{m, m, warp, std::vector<bool>(m, true)};
    const std::vector<double> values(doubles.begin(), doubles.begin() + m);
    double* in = device_copy(values);
    double* scanned = device_copy(values);
    float* broadcast = device_copy(std::vector<float>(m));
    partial<<<1, m>>>(in, scanned, broadcast);
    bad += mismatches("partial scan", scan(g, values), host_copy(scanned, m));
    const std::vector<float> as_float(values.begin(), values.end());
    bad += mismatches("partial broadcast", shuffle(g, lanes_of(as_float), Shuffle::index, [](int) { return 20; }, warp),
                      host_copy(broadcast, m));
  }
  {  // match_reduce
    std::vector<int> keys(n);
    for (int t = 0; t < n; ++t) keys[t] = (t * 7) % 5;
    int* k = device_copy(keys);
    unsigned *in = device_copy(uints), *sums = device_copy(uints);
    unsigned long long* peers = device_copy(std::vector<unsigned long long>(n));
    match_reduce<<<blocks, block>>>(k, in, peers, sums);
    Lanes<unsigned long long> expect_peers = lanes_of(std::vector<unsigned long long>(n));
    Lanes<unsigned> expect_sums = lanes_of(std::vector<unsigned>(n));
    for (int t = 0; t < n; ++t)
      for (int l = 0, first = t - (t % block) % warp; l < warp; ++l) {
        expect_peers.value[t] |= static_cast<unsigned long long>(keys[first + l] == keys[t]) << l;
        expect_sums.value[t] += uints[first + l];
      }
    bad += mismatches("match peers", expect_peers, host_copy(peers, n));
    bad += mismatches("reduce sums", expect_sums, host_copy(sums, n));
  }
  {  // divergent
    Grid g = full;
    for (int t = 0; t < n; ++t) g.active[t] = t % 64 < 16 || t % 64 >= 48;
    long long *in = device_copy(longs), *out = device_copy(longs);
    divergent<<<blocks, block>>>(in, out);
    Lanes<long long> e = shuffle(g, lanes_of(longs), Shuffle::bfly, [](int) { return 48; }, warp);
    for (int t = 0; t < n; ++t)
      if (!g.active[t]) e.value[t] = -1;
    bad += mismatches("divergent", e, host_copy(out, n));
  }
  const cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(status));
    bad += 1;
  }
  printf("warp size %d: %s (%d mismatches)\n", warp, bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
