// Velocity-Verlet integration of 128 K independent particles in a unit box (double precision):
// each particle feels gravity plus a harmonic pull towards the box centre and bounces off the
// six walls with restitution 0.9 (mirror the position, reverse and damp the normal velocity).
//   v += a dt/2;  x += v dt;  walls;  a = a(x);  v += a dt/2
// One thread per particle, state in registers for kSubsteps steps per launch (structure of
// arrays in global memory between launches); 20 launches = 200 steps. The whole simulation is
// repeated from the initial state for timing.
// Tolerance: 1e-9 relative (floor 1e-3) on final positions and velocities. GPU and CPU do the
// same double operations in the same order except for fused multiply-adds (~1e-16 each); the
// dynamics per particle is linear between bounces, so differences stay ~1e-14. (A bounce
// decided differently would need a particle within ~1e-15 of a wall: probability ~1e-6 for
// the fixed input.)
#include "../include/corpus.cuh"

constexpr int kSubsteps = 10;
constexpr double kSpring = 4.0;      // harmonic pull towards the centre, per unit mass
constexpr double kGravity = -9.81;   // along z
constexpr double kRestitution = 0.9;

__host__ __device__ inline double accel(double x, double centre, double g) {
  return -kSpring * (x - centre) + g;
}

__host__ __device__ inline void wall(double& x, double& v) {
  if (x < 0.0) {
    x = -x;
    v = -kRestitution * v;
  } else if (x > 1.0) {
    x = 2.0 - x;
    v = -kRestitution * v;
  }
}

__host__ __device__ inline void verlet_steps(double3& p, double3& v, double dt, int steps) {
  double ax = accel(p.x, 0.5, 0.0), ay = accel(p.y, 0.5, 0.0), az = accel(p.z, 0.5, kGravity);
  for (int s = 0; s < steps; ++s) {
    v.x += 0.5 * dt * ax;
    v.y += 0.5 * dt * ay;
    v.z += 0.5 * dt * az;
    p.x += dt * v.x;
    p.y += dt * v.y;
    p.z += dt * v.z;
    wall(p.x, v.x);
    wall(p.y, v.y);
    wall(p.z, v.z);
    ax = accel(p.x, 0.5, 0.0);
    ay = accel(p.y, 0.5, 0.0);
    az = accel(p.z, 0.5, kGravity);
    v.x += 0.5 * dt * ax;
    v.y += 0.5 * dt * ay;
    v.z += 0.5 * dt * az;
  }
}

__global__ void verlet_kernel(double3* __restrict__ pos, double3* __restrict__ vel, int n, double dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double3 p = pos[i];
  double3 v = vel[i];
  verlet_steps(p, v, dt, kSubsteps);
  pos[i] = p;
  vel[i] = v;
}

int main() {
  const int n = corpus::sized(1 << 17, 1 << 12);
  const int launches = corpus::sized(20, 5);
  const double dt = 2e-3;
  corpus::Rng rng(0x7E71u);
  std::vector<double3> pos0(n), vel0(n);
  for (int i = 0; i < n; ++i) {
    pos0[i] = make_double3(rng.uniform(0.05f, 0.95f), rng.uniform(0.05f, 0.95f), rng.uniform(0.05f, 0.95f));
    vel0[i] = make_double3(rng.uniform(-2.0f, 2.0f), rng.uniform(-2.0f, 2.0f), rng.uniform(-2.0f, 2.0f));
  }

  double3 *d_pos = nullptr, *d_vel = nullptr, *d_pos0 = nullptr, *d_vel0 = nullptr;
  CORPUS_CHECK(cudaMalloc(&d_pos, n * sizeof(double3)));
  CORPUS_CHECK(cudaMalloc(&d_vel, n * sizeof(double3)));
  CORPUS_CHECK(cudaMalloc(&d_pos0, n * sizeof(double3)));
  CORPUS_CHECK(cudaMalloc(&d_vel0, n * sizeof(double3)));
  CORPUS_CHECK(cudaMemcpy(d_pos0, pos0.data(), n * sizeof(double3), cudaMemcpyHostToDevice));
  CORPUS_CHECK(cudaMemcpy(d_vel0, vel0.data(), n * sizeof(double3), cudaMemcpyHostToDevice));

  const int threads = 128;
  const int blocks = (n + threads - 1) / threads;
  auto simulate = [&]() {
    CORPUS_CHECK(cudaMemcpyAsync(d_pos, d_pos0, n * sizeof(double3), cudaMemcpyDeviceToDevice));
    CORPUS_CHECK(cudaMemcpyAsync(d_vel, d_vel0, n * sizeof(double3), cudaMemcpyDeviceToDevice));
    for (int l = 0; l < launches; ++l) {
      verlet_kernel<<<blocks, threads>>>(d_pos, d_vel, n, dt);
      CORPUS_CHECK_LAUNCH();
    }
  };
  simulate();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(10);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) simulate();
  const float gpu_ms = timer.stop();

  std::vector<double3> pos(n), vel(n);
  CORPUS_CHECK(cudaMemcpy(pos.data(), d_pos, n * sizeof(double3), cudaMemcpyDeviceToHost));
  CORPUS_CHECK(cudaMemcpy(vel.data(), d_vel, n * sizeof(double3), cudaMemcpyDeviceToHost));

  // CPU reference: the same integrator, launch by launch.
  double worst = 0.0;
  bool inside = true;
  for (int i = 0; i < n; ++i) {
    double3 p = pos0[i], v = vel0[i];
    for (int l = 0; l < launches; ++l) verlet_steps(p, v, dt, kSubsteps);
    const double got[6] = {pos[i].x, pos[i].y, pos[i].z, vel[i].x, vel[i].y, vel[i].z};
    const double want[6] = {p.x, p.y, p.z, v.x, v.y, v.z};
    for (int c = 0; c < 6; ++c) {
      const double e = corpus::rel_err(got[c], want[c], 1e-3);
      if (!(e <= worst)) worst = e;
    }
    inside = inside && p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 1.0 && p.z >= 0.0 && p.z <= 1.0;
  }
  const bool pass = worst <= 1e-9 && inside;

  CORPUS_CHECK(cudaFree(d_pos));
  CORPUS_CHECK(cudaFree(d_vel));
  CORPUS_CHECK(cudaFree(d_pos0));
  CORPUS_CHECK(cudaFree(d_vel0));
  return corpus::report("particles_verlet", pass, worst, gpu_ms);
}
