// All-pairs gravitational N-body step, 16 K bodies: the classic shared-memory tiled kernel.
// Each block stages a tile of BLOCK bodies (position + mass in a float4) in shared memory, all
// threads accumulate the softened accelerations from that tile, then move on to the next tile:
//   a_i = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)      (G = 1)
// A second kernel advances the system one kick-drift step (v += a dt; x += v dt).
// The force kernel is timed over several repetitions (it is a pure function of positions).
// CPU reference in double for every 16th body (1024 bodies x 16 K sources: the full O(N^2)
// would take too long on one core).
// Tolerance: the acceleration error of a body is measured relative to S = sum_j |term_j| (the
// natural scale of a float sum with cancellation). Per-term rounding (rsqrtf ~2 ulp) and a
// 16 K-term float accumulation give errors ~1e-6 S in practice; we require 1e-4 S. A lost or
// doubled tile moves a body's acceleration by ~1/64 of S. Positions after the step must match
// to 1e-5 relative (floor 1e-3): they change by ~dt^2 a, which is small.
#include "../include/corpus.cuh"

constexpr float kSoftening2 = 1e-3f;

template <int BLOCK>
__global__ void nbody_forces(const float4* __restrict__ pos, int n, float3* __restrict__ accel) {
  __shared__ float4 tile[BLOCK];
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  const float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += BLOCK) {
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // mass 0 pads
    __syncthreads();
#pragma unroll 8
    for (int k = 0; k < BLOCK; ++k) {
      const float4 pj = tile[k];
      const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      const float r2 = dx * dx + dy * dy + dz * dz + kSoftening2;
      const float inv_r = rsqrtf(r2);
      const float s = pj.w * inv_r * inv_r * inv_r;
      ax += s * dx;
      ay += s * dy;
      az += s * dz;
    }
    __syncthreads();
  }
  if (i < n) accel[i] = make_float3(ax, ay, az);
}

__global__ void kick_drift(float4* __restrict__ pos, float3* __restrict__ vel,
                           const float3* __restrict__ accel, int n, float dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 v = vel[i];
  const float3 a = accel[i];
  v.x += a.x * dt;
  v.y += a.y * dt;
  v.z += a.z * dt;
  float4 p = pos[i];
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  vel[i] = v;
  pos[i] = p;
}

int main() {
  const int n = corpus::sized(16384, 4096);  // emulated: 16 blocks (the work is quadratic in n)
  const float dt = 1e-3f;
  corpus::Rng rng(0xB0D1u);
  std::vector<float4> pos(n);
  std::vector<float3> vel(n);
  for (int i = 0; i < n; ++i) {
    // Two overlapping clusters, so accelerations are far from symmetric/cancelling.
    const float cx = (i & 1) ? 0.6f : -0.4f;
    pos[i] = make_float4(cx + rng.uniform(-0.5f, 0.5f), rng.uniform(-0.5f, 0.5f),
                         rng.uniform(-0.5f, 0.5f), rng.uniform(0.5f, 1.5f) / n);
    vel[i] = make_float3(rng.uniform(-0.1f, 0.1f), rng.uniform(-0.1f, 0.1f), rng.uniform(-0.1f, 0.1f));
  }

  float4* d_pos = nullptr;
  float3 *d_vel = nullptr, *d_acc = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_pos, n * sizeof(float4)));
  CORPUS_CHECK(cudaMalloc(&d_vel, n * sizeof(float3)));
  CORPUS_CHECK(cudaMalloc(&d_acc, n * sizeof(float3)));
  CORPUS_CHECK(cudaMemcpy(d_pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_vel, vel.data(), n * sizeof(float3), cudaMemcpyHostToDevice));

  constexpr int kBlock = 256;
  const int blocks = (n + kBlock - 1) / kBlock;
  nbody_forces<kBlock><<<blocks, kBlock>>>(d_pos, n, d_acc);  // warm-up
  CORPUS_CHECK_LAUNCH();
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(10);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) {
    nbody_forces<kBlock><<<blocks, kBlock>>>(d_pos, n, d_acc);
    CORPUS_CHECK_LAUNCH();
  }
  const float gpu_ms = timer.stop();
  std::vector<float3> acc(n);
  CORPUS_CHECK(cudaMemcpy(acc.data(), d_acc, n * sizeof(float3), cudaMemcpyDeviceToHost));
  kick_drift<<<blocks, kBlock>>>(d_pos, d_vel, d_acc, n, dt);
  CORPUS_CHECK_LAUNCH();
  std::vector<float4> new_pos(n);
  CORPUS_CHECK(cudaMemcpy(new_pos.data(), d_pos, n * sizeof(float4), cudaMemcpyDeviceToHost));

  // CPU reference (double) on a strided subset of bodies.
  double worst_acc = 0.0, worst_pos = 0.0;
  for (int i = 0; i < n; i += 16) {
    double a[3] = {0.0, 0.0, 0.0}, scale = 0.0;
    for (int j = 0; j < n; ++j) {
      const double dx = static_cast<double>(pos[j].x) - pos[i].x;
      const double dy = static_cast<double>(pos[j].y) - pos[i].y;
      const double dz = static_cast<double>(pos[j].z) - pos[i].z;
      const double r2 = dx * dx + dy * dy + dz * dz + kSoftening2;
      const double s = pos[j].w / (r2 * std::sqrt(r2));
      a[0] += s * dx;
      a[1] += s * dy;
      a[2] += s * dz;
      scale += s * std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    const double got[3] = {acc[i].x, acc[i].y, acc[i].z};
    for (int c = 0; c < 3; ++c) {
      const double e = std::fabs(got[c] - a[c]) / scale;
      if (!(e <= worst_acc)) worst_acc = e;
    }
    // One kick-drift step from the reference acceleration.
    const double vx = vel[i].x + a[0] * dt, vy = vel[i].y + a[1] * dt, vz = vel[i].z + a[2] * dt;
    const double want[3] = {pos[i].x + vx * dt, pos[i].y + vy * dt, pos[i].z + vz * dt};
    const double have[3] = {new_pos[i].x, new_pos[i].y, new_pos[i].z};
    for (int c = 0; c < 3; ++c) {
      const double e = corpus::rel_err(have[c], want[c], 1e-3);
      if (!(e <= worst_pos)) worst_pos = e;
    }
  }
  const bool pass = worst_acc <= 1e-4 && worst_pos <= 1e-5;
  std::printf("nbody: %d bodies, accel err %.3e (of sum |a_ij|), position err %.3e\n", n, worst_acc,
              worst_pos);

  CORPUS_CHECK(cudaFree(d_pos));
  CORPUS_CHECK(cudaFree(d_vel));
  CORPUS_CHECK(cudaFree(d_acc));
  return corpus::report("nbody_tiled", pass, worst_acc, gpu_ms);
}
