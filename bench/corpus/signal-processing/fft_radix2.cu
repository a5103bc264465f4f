// fft_radix2: a batch of 4096 complex 1024-point forward FFTs, one per block: iterative
// decimation-in-time radix-2, the input loaded in bit-reversed order into shared memory, then
// log2(1024) = 10 butterfly stages separated by __syncthreads. Twiddles w_k = exp(-2 pi i k / N)
// come from a table computed in double on the host and staged in shared memory. Checked against
// a CPU radix-2 FFT in double.
#include "../include/corpus.cuh"

#include <cmath>
#include <utility>

constexpr int LOG2N = 10;
constexpr int N = 1 << LOG2N;   // points per transform
constexpr int BATCH = 4096;     // transforms
constexpr int THREADS = N / 2;  // one butterfly per thread per stage
constexpr int REPS = 50;

__device__ __forceinline__ float2 cmul(float2 a, float2 b) {
  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__global__ void fft_batch(const float2* __restrict__ in, float2* __restrict__ out,
                          const float2* __restrict__ twiddle) {
  __shared__ float2 s[N];
  __shared__ float2 tw[N / 2];
  const float2* src = in + static_cast<size_t>(blockIdx.x) * N;
  float2* dst = out + static_cast<size_t>(blockIdx.x) * N;

  for (int t = threadIdx.x; t < N; t += blockDim.x) {
    const unsigned r = __brev(static_cast<unsigned>(t)) >> (32 - LOG2N);
    s[r] = src[t];  // coalesced read, bit-reversed store
  }
  for (int t = threadIdx.x; t < N / 2; t += blockDim.x) tw[t] = twiddle[t];
  __syncthreads();

  for (int half = 1; half < N; half <<= 1) {
    const int stride = N / (2 * half);  // twiddle step for spans of 2*half
    for (int t = threadIdx.x; t < N / 2; t += blockDim.x) {
      const int pos = t & (half - 1);
      const int i = ((t - pos) << 1) + pos;  // (t / half) * 2 * half + pos
      const int j = i + half;
      const float2 a = s[i];
      const float2 b = cmul(s[j], tw[pos * stride]);
      s[i] = make_float2(a.x + b.x, a.y + b.y);
      s[j] = make_float2(a.x - b.x, a.y - b.y);
    }
    __syncthreads();
  }

  for (int t = threadIdx.x; t < N; t += blockDim.x) dst[t] = s[t];
}

// In-place iterative radix-2 FFT in double (same sign convention); wr/wi hold
// exp(-2 pi i k / n) for k < n/2.
static void cpu_fft(std::vector<double>& re, std::vector<double>& im, const std::vector<double>& wr,
                    const std::vector<double>& wi) {
  const int n = static_cast<int>(re.size());
  for (int i = 1, j = 0; i < n; ++i) {
    int bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      std::swap(re[i], re[j]);
      std::swap(im[i], im[j]);
    }
  }
  for (int len = 2; len <= n; len <<= 1) {
    const int step = n / len;
    for (int k = 0; k < len / 2; ++k) {
      const double c = wr[k * step], s = wi[k * step];
      for (int i = k; i < n; i += len) {
        const int j = i + len / 2;
        const double br = re[j] * c - im[j] * s, bi = re[j] * s + im[j] * c;
        re[j] = re[i] - br;
        im[j] = im[i] - bi;
        re[i] += br;
        im[i] += bi;
      }
    }
  }
}

int main() {
  const int batch = corpus::sized(BATCH, 64);
  const int reps = corpus::reps(REPS);
  const size_t total = static_cast<size_t>(N) * batch;
  const size_t bytes = total * sizeof(float2);

  std::vector<float2> h_in(total);
  corpus::Rng rng(0xFF7A11ull);
  for (auto& v : h_in) v = make_float2(rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f));
  std::vector<float2> h_tw(N / 2);
  for (int k = 0; k < N / 2; ++k) {
    const double a = -2.0 * M_PI * k / N;
    h_tw[k] = make_float2(static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a)));
  }

  float2 *d_in = nullptr, *d_out = nullptr, *d_tw = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_in, bytes));
  CORPUS_CHECK(cudaMalloc(&d_out, bytes));
  CORPUS_CHECK(cudaMalloc(&d_tw, (N / 2) * sizeof(float2)));
  CORPUS_CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_tw, h_tw.data(), (N / 2) * sizeof(float2), cudaMemcpyHostToDevice));

  fft_batch<<<batch, THREADS>>>(d_in, d_out, d_tw);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    fft_batch<<<batch, THREADS>>>(d_in, d_out, d_tw);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();

  std::vector<float2> h_out(total);
  CORPUS_CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));

  // Compare every bin against the double FFT. Errors are scaled by max(|X|, sqrt(N)): sqrt(N) is
  // the rms bin magnitude for unit-scale input, so small bins are judged against the transform's
  // natural scale.
  const double scale_floor = std::sqrt(static_cast<double>(N));
  double err = 0.0;
  std::vector<double> re(N), im(N), wr(N / 2), wi(N / 2);
  for (int k = 0; k < N / 2; ++k) {
    wr[k] = std::cos(-2.0 * M_PI * k / N);
    wi[k] = std::sin(-2.0 * M_PI * k / N);
  }
  for (int b = 0; b < batch; ++b) {
    const float2* x = &h_in[static_cast<size_t>(b) * N];
    for (int i = 0; i < N; ++i) {
      re[i] = x[i].x;
      im[i] = x[i].y;
    }
    cpu_fft(re, im, wr, wi);
    const float2* y = &h_out[static_cast<size_t>(b) * N];
    for (int i = 0; i < N; ++i) {
      const double d = std::hypot(y[i].x - re[i], y[i].y - im[i]);
      const double mag = std::hypot(re[i], im[i]);
      const double e = d / (mag > scale_floor ? mag : scale_floor);
      if (!(e <= err)) err = e;
    }
  }

  // Float radix-2 FFT error grows like log2(N) * eps * rms: ~1e-6 of the scale here; 1e-4 is a
  // wide margin that still catches any wrong twiddle or index (errors of order 1).
  const bool pass = err <= 1e-4;

  CORPUS_CHECK(cudaFree(d_in));
  CORPUS_CHECK(cudaFree(d_out));
  CORPUS_CHECK(cudaFree(d_tw));
  return corpus::report("fft_radix2", pass, err, gpu_ms);
}
