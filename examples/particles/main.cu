// particles: a small N-body-style simulation that exercises the CUDA runtime the way a real
// application does (device query, streams, events, constant memory, templated kernels) and
// checks the GPU result against a CPU reference.
//
// Output: a few lines of device and timing information, then
//   RESULT particles PASS max_rel_err=<e>   (or FAIL)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "init.h"
#include "kernels.cuh"
#include "util.h"

namespace {

constexpr int kNumParticles = 1 << 16;
constexpr int kBlock = 256;
constexpr int kStepsPerLaunch = 4;
constexpr int kLaunches = 25;  // 100 time steps in all
constexpr int kNumBins = 64;
constexpr unsigned long long kSeed = 20240601ULL;
constexpr float kBox = 4.0f;
constexpr double kTolerance = 1e-3;

SimParams make_params() {
  SimParams p{};
  p.dt = 0.01f;
  p.spring = 0.5f;
  p.attractor = 2.0f;
  p.softening = 0.25f;
  p.drag = 0.1f;
  p.max_speed = 4.0f;
  p.center = make_float3(0.5f, -0.25f, 0.0f);
  p.num_bins = kNumBins;
  return p;
}

// ---- CPU reference: the same arithmetic as step_particle in kernels.cuh ----------------

struct Vec3 {
  float x, y, z;
};

void reference_step(const SimParams& prm, Vec3& p, Vec3& v, float mass) {
  float k = -prm.spring / mass;
  Vec3 a{p.x * k, p.y * k, p.z * k};
  Vec3 d{prm.center.x - p.x, prm.center.y - p.y, prm.center.z - p.z};
  float inv_r = 1.0f / std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z + prm.softening);
  float s = prm.attractor * (inv_r * inv_r * inv_r);
  a = Vec3{a.x + d.x * s, a.y + d.y * s, a.z + d.z * s};
  v = Vec3{v.x + a.x * prm.dt, v.y + a.y * prm.dt, v.z + a.z * prm.dt};
  float decay = std::exp(-prm.drag * prm.dt);
  v = Vec3{v.x * decay, v.y * decay, v.z * decay};
  float clamp = std::fmin(1.0f, prm.max_speed / std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z + 1e-12f));
  v = Vec3{v.x * clamp, v.y * clamp, v.z * clamp};
  p = Vec3{p.x + v.x * prm.dt, p.y + v.y * prm.dt, p.z + v.z * prm.dt};
}

void reference_simulate(const SimParams& prm, std::vector<float4>& pos, std::vector<float4>& vel,
                        int steps) {
  for (std::size_t i = 0; i < pos.size(); ++i) {
    Vec3 p{pos[i].x, pos[i].y, pos[i].z};
    Vec3 v{vel[i].x, vel[i].y, vel[i].z};
    for (int s = 0; s < steps; ++s) reference_step(prm, p, v, pos[i].w);
    pos[i] = make_float4(p.x, p.y, p.z, pos[i].w);
    vel[i] = make_float4(v.x, v.y, v.z, 0.0f);
  }
}

double reference_kinetic_energy(const std::vector<float4>& pos, const std::vector<float4>& vel) {
  double sum = 0.0;
  for (std::size_t i = 0; i < pos.size(); ++i)
    sum += 0.5 * pos[i].w * (double(vel[i].x) * vel[i].x + double(vel[i].y) * vel[i].y +
                             double(vel[i].z) * vel[i].z);
  return sum;
}

std::vector<unsigned int> reference_histogram(const SimParams& prm, const std::vector<float4>& vel) {
  std::vector<unsigned int> bins(prm.num_bins, 0u);
  const float scale = prm.num_bins / prm.max_speed;
  for (const float4& v : vel) {
    float speed = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    bins[std::min(static_cast<int>(speed * scale), prm.num_bins - 1)] += 1u;
  }
  return bins;
}

// Largest |gpu - cpu| / (|cpu| + 1) over the x, y, z of every particle.
double max_relative_error(const std::vector<float4>& gpu, const std::vector<float4>& cpu) {
  double worst = 0.0;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    const float g[3] = {gpu[i].x, gpu[i].y, gpu[i].z};
    const float c[3] = {cpu[i].x, cpu[i].y, cpu[i].z};
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::fabs(double(g[k]) - c[k]) / (std::fabs(double(c[k])) + 1.0));
  }
  return worst;
}

}  // namespace

int main() {
  int device_count = 0;
  cudaError_t query = cudaGetDeviceCount(&device_count);
  if (query != cudaSuccess || device_count == 0) {
    std::printf("RESULT particles SKIPPED no GPU (%s)\n",
                query != cudaSuccess ? cudaGetErrorString(query) : "no devices");
    return 0;
  }

  int device = 0;
  CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("device %d: %s, compute capability %d.%d, %d multiprocessors, warp size %d, %zu KiB shared per block\n",
              device, prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.warpSize,
              prop.sharedMemPerBlock / 1024);

  const int n = kNumParticles;
  const std::size_t bytes = n * sizeof(float4);
  const SimParams params = make_params();
  CUDA_CHECK(cudaMemcpyToSymbol(c_params, &params, sizeof(params)));

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));

  // All device buffers come from cudaMalloc and go back with cudaFree at the end; two
  // position/velocity pairs so the integrator can ping-pong between them.
  float4* d_pos[2] = {nullptr, nullptr};
  float4* d_vel[2] = {nullptr, nullptr};
  for (int b = 0; b < 2; ++b) {
    CUDA_CHECK(cudaMalloc(&d_pos[b], bytes));
    CUDA_CHECK(cudaMalloc(&d_vel[b], bytes));
  }
  const int reduce_blocks = std::min(4 * prop.multiProcessorCount, (n + kBlock - 1) / kBlock);
  float* d_block_sums = nullptr;
  float* d_energy = nullptr;
  unsigned int* d_bins = nullptr;
  CUDA_CHECK(cudaMalloc(&d_block_sums, reduce_blocks * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_energy, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_bins, kNumBins * sizeof(unsigned int)));

  // Pinned host copies, so the asynchronous copies below really are asynchronous.
  float4* h_pos = nullptr;
  float4* h_vel = nullptr;
  CUDA_CHECK(cudaMallocHost(&h_pos, bytes));
  CUDA_CHECK(cudaMallocHost(&h_vel, bytes));

  // Initial state on the GPU (cuRAND), copied back as the CPU reference's starting point.
  launch_init_particles(d_pos[0], d_vel[0], n, kSeed, kBox, stream);
  CUDA_CHECK(cudaMemcpyAsync(h_pos, d_pos[0], bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaMemcpyAsync(h_vel, d_vel[0], bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<float4> ref_pos(h_pos, h_pos + n);
  std::vector<float4> ref_vel(h_vel, h_vel + n);

  // Simulate, timed with events on the stream.
  GpuTimer timer(stream);
  const dim3 block(kBlock);
  const dim3 grid((n + kBlock - 1) / kBlock);
  int cur = 0;
  timer.begin();
  for (int launch = 0; launch < kLaunches; ++launch) {
    integrate_kernel<kBlock, kStepsPerLaunch><<<grid, block, 0, stream>>>(
        d_pos[cur], d_vel[cur], d_pos[1 - cur], d_vel[1 - cur], n);
    CUDA_CHECK_LAUNCH();
    cur = 1 - cur;
  }
  timer.end();
  const float sim_ms = timer.elapsed_ms();

  // Diagnostics: kinetic energy (two-pass reduction) and the speed histogram.
  kinetic_energy_kernel<kBlock><<<reduce_blocks, kBlock, 0, stream>>>(d_pos[cur], d_vel[cur], n, d_block_sums);
  CUDA_CHECK_LAUNCH();
  sum_kernel<kBlock><<<1, kBlock, 0, stream>>>(d_block_sums, reduce_blocks, d_energy);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemsetAsync(d_bins, 0, kNumBins * sizeof(unsigned int), stream));
  const std::size_t hist_shmem = kNumBins * sizeof(unsigned int);
  speed_histogram_kernel<kBlock><<<reduce_blocks, kBlock, hist_shmem, stream>>>(d_vel[cur], n, d_bins);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaDeviceSynchronize());

  // Results back with plain (synchronous) copies.
  std::vector<float4> gpu_pos(n), gpu_vel(n);
  std::vector<unsigned int> gpu_bins(kNumBins);
  float gpu_energy = 0.0f;
  CUDA_CHECK(cudaMemcpy(gpu_pos.data(), d_pos[cur], bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gpu_vel.data(), d_vel[cur], bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gpu_bins.data(), d_bins, kNumBins * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&gpu_energy, d_energy, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("simulated %d particles x %d steps in %.3f ms (transfers: cudaMemcpyAsync on a stream, then cudaMemcpy)\n",
              n, kLaunches * kStepsPerLaunch, sim_ms);

  // CPU reference and comparison.
  reference_simulate(params, ref_pos, ref_vel, kLaunches * kStepsPerLaunch);
  const double ref_energy = reference_kinetic_energy(ref_pos, ref_vel);
  // The histogram is checked on the GPU's own velocities: that isolates the kernel from the
  // integration error, which vel_err already bounds.
  const std::vector<unsigned int> ref_bins = reference_histogram(params, gpu_vel);

  const double pos_err = max_relative_error(gpu_pos, ref_pos);
  const double vel_err = max_relative_error(gpu_vel, ref_vel);
  const double energy_err = std::fabs(gpu_energy - ref_energy) / std::max(std::fabs(ref_energy), 1e-30);
  unsigned long long counted = 0, moved = 0;
  for (int b = 0; b < kNumBins; ++b) {
    counted += gpu_bins[b];
    moved += gpu_bins[b] > ref_bins[b] ? gpu_bins[b] - ref_bins[b] : ref_bins[b] - gpu_bins[b];
  }
  std::printf("kinetic energy: gpu %.6e cpu %.6e; histogram: %llu counted, %llu off by a bin edge\n",
              double(gpu_energy), ref_energy, counted, moved);

  const double max_rel_err = std::max({pos_err, vel_err, energy_err});
  // A speed within rounding of a bin edge may land on either side (the GPU may fuse the
  // multiply-adds in |v|^2); allow a handful.
  const bool histogram_ok = counted == static_cast<unsigned long long>(n) && moved <= 2ULL + n / 10000;
  const bool pass = max_rel_err <= kTolerance && histogram_ok;

  CUDA_CHECK(cudaFreeHost(h_pos));
  CUDA_CHECK(cudaFreeHost(h_vel));
  for (int b = 0; b < 2; ++b) {
    CUDA_CHECK(cudaFree(d_pos[b]));
    CUDA_CHECK(cudaFree(d_vel[b]));
  }
  CUDA_CHECK(cudaFree(d_block_sums));
  CUDA_CHECK(cudaFree(d_energy));
  CUDA_CHECK(cudaFree(d_bins));
  CUDA_CHECK(cudaStreamDestroy(stream));

  std::printf("RESULT particles %s max_rel_err=%.3e\n", pass ? "PASS" : "FAIL", max_rel_err);
  return pass ? EXIT_SUCCESS : EXIT_FAILURE;
}
