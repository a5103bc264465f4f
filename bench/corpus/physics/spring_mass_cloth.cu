// Mass-spring cloth: a 128 x 128 grid of point masses (1 m square, 1 g per node) joined by
// structural (distance 1), shear (diagonal) and bend (distance 2) springs, with gravity and
// linear damping, pinned along its first row and released flat. Each step is one kernel: a
// thread per node gathers the forces of its 12 springs (the spring table lives in __constant__
// memory) and advances with symplectic Euler (v += dt F / m; x += dt v), reading the previous
// state buffers and writing the next ones (ping-pong, so no atomics and no races).
// 200 steps of dt = 1.5e-4 s; the stiffest mode has omega dt ~0.4, well inside stability.
// Tolerance: positions against a double CPU reference within 1e-4 m (the cloth is 1 m wide).
// Float rounding of positions near 1.0 is ~6e-8 per step, so even a systematic drift over 200
// steps stays ~1.2e-5; spring-force rounding (k * 6e-8 * spacing) is negligible next to
// gravity. The cloth falls ~4 mm in this time, 40x the tolerance, and a wrong neighbour or
// rest length produces forces orders of magnitude larger.
#include "../include/corpus.cuh"


constexpr int kW = 128;
constexpr int kH = 128;
constexpr float kSpacing = 1.0f / (kW - 1);
constexpr float kMass = 1e-3f;
constexpr float kDamping = 2e-3f;  // N s / m
constexpr float kGravity = -9.81f;

struct Spring {
  int di, dj;
  float rest, k;
};
constexpr int kSprings = 12;
const Spring h_springs[kSprings] = {
    {1, 0, kSpacing, 200.0f},           {-1, 0, kSpacing, 200.0f},
    {0, 1, kSpacing, 200.0f},           {0, -1, kSpacing, 200.0f},
    {1, 1, 1.41421356f * kSpacing, 200.0f},  {-1, -1, 1.41421356f * kSpacing, 200.0f},
    {1, -1, 1.41421356f * kSpacing, 200.0f}, {-1, 1, 1.41421356f * kSpacing, 200.0f},
    {2, 0, 2.0f * kSpacing, 50.0f},     {-2, 0, 2.0f * kSpacing, 50.0f},
    {0, 2, 2.0f * kSpacing, 50.0f},     {0, -2, 2.0f * kSpacing, 50.0f}};
__constant__ Spring c_springs[kSprings];

__global__ void cloth_step(const float4* __restrict__ pos, const float4* __restrict__ vel,
                           float4* __restrict__ pos_out, float4* __restrict__ vel_out, float dt,
                           int h) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= kW || j >= h) return;
  const int id = j * kW + i;
  const float4 p = pos[id];
  float4 v = vel[id];
  if (j == 0) {  // pinned row
    pos_out[id] = p;
    vel_out[id] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    return;
  }
  float fx = -kDamping * v.x, fy = -kDamping * v.y, fz = -kDamping * v.z + kMass * kGravity;
  for (int s = 0; s < kSprings; ++s) {
    const Spring sp = c_springs[s];
    const int ni = i + sp.di, nj = j + sp.dj;
    if (ni < 0 || ni >= kW || nj < 0 || nj >= h) continue;
    const float4 q = pos[nj * kW + ni];
    const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
    const float len = sqrtf(dx * dx + dy * dy + dz * dz);
    const float f = sp.k * (len - sp.rest) / len;
    fx += f * dx;
    fy += f * dy;
    fz += f * dz;
  }
  v.x += dt * fx / kMass;
  v.y += dt * fy / kMass;
  v.z += dt * fz / kMass;
  vel_out[id] = v;
  pos_out[id] = make_float4(p.x + dt * v.x, p.y + dt * v.y, p.z + dt * v.z, 0.0f);
}

int main() {
  // Emulated: 128 x 32 nodes (16 blocks) and 140 steps (the cloth still falls ~2 mm).
  const int rows = corpus::sized(kH, 32);
  const int nodes = kW * rows;
  const int steps = corpus::sized(200, 140);
  const float dt = 1.5e-4f;
  corpus::Rng rng(0xC107u);
  std::vector<float4> pos0(nodes);
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < kW; ++i)  // flat in x-y with a small random ripple in z
      pos0[j * kW + i] = make_float4(i * kSpacing, j * kSpacing, rng.uniform(-0.05f, 0.05f) * kSpacing, 0.0f);
  const std::vector<float4> vel0(nodes, make_float4(0.0f, 0.0f, 0.0f, 0.0f));

  float4 *d_pos[2] = {nullptr, nullptr}, *d_vel[2] = {nullptr, nullptr};
  for (int b = 0; b < 2; ++b) {
    CORPUS_CHECK(cudaMalloc(&d_pos[b], nodes * sizeof(float4)));
    CORPUS_CHECK(cudaMalloc(&d_vel[b], nodes * sizeof(float4)));
  }
  CORPUS_CHECK(cudaMemcpyToSymbol(c_springs, h_springs, sizeof(h_springs)));

  const dim3 block(32, 8);
  const dim3 grid((kW + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  int cur = 0;
  auto simulate = [&]() {
    CORPUS_CHECK(cudaMemcpy(d_pos[0], pos0.data(), nodes * sizeof(float4), cudaMemcpyHostToDevice));
    CORPUS_CHECK(cudaMemcpy(d_vel[0], vel0.data(), nodes * sizeof(float4), cudaMemcpyHostToDevice));
    cur = 0;
    for (int s = 0; s < steps; ++s) {
      cloth_step<<<grid, block>>>(d_pos[cur], d_vel[cur], d_pos[1 - cur], d_vel[1 - cur], dt, rows);
      CORPUS_CHECK_LAUNCH();
      cur = 1 - cur;
    }
  };
  simulate();  // warm-up
  CORPUS_CHECK(cudaDeviceSynchronize());
  const int reps = corpus::reps(3);
  corpus::GpuTimer timer;
  timer.start();
  for (int r = 0; r < reps; ++r) simulate();
  const float gpu_ms = timer.stop();

  std::vector<float4> pos(nodes);
  CORPUS_CHECK(cudaMemcpy(pos.data(), d_pos[cur], nodes * sizeof(float4), cudaMemcpyDeviceToHost));

  // CPU reference in double: the same model and integrator.
  std::vector<double> x(3 * nodes), v(3 * nodes, 0.0), xn(3 * nodes), vn(3 * nodes);
  for (int n = 0; n < nodes; ++n) {
    x[3 * n] = pos0[n].x;
    x[3 * n + 1] = pos0[n].y;
    x[3 * n + 2] = pos0[n].z;
  }
  for (int s = 0; s < steps; ++s) {
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < kW; ++i) {
        const int id = j * kW + i;
        if (j == 0) {
          for (int c = 0; c < 3; ++c) {
            xn[3 * id + c] = x[3 * id + c];
            vn[3 * id + c] = 0.0;
          }
          continue;
        }
        double f[3] = {-kDamping * v[3 * id], -kDamping * v[3 * id + 1],
                       -kDamping * v[3 * id + 2] + static_cast<double>(kMass) * kGravity};
        for (const Spring& sp : h_springs) {
          const int ni = i + sp.di, nj = j + sp.dj;
          if (ni < 0 || ni >= kW || nj < 0 || nj >= rows) continue;
          const int q = nj * kW + ni;
          const double d[3] = {x[3 * q] - x[3 * id], x[3 * q + 1] - x[3 * id + 1], x[3 * q + 2] - x[3 * id + 2]};
          const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
          const double k = sp.k * (len - sp.rest) / len;
          for (int c = 0; c < 3; ++c) f[c] += k * d[c];
        }
        for (int c = 0; c < 3; ++c) {
          vn[3 * id + c] = v[3 * id + c] + static_cast<double>(dt) * f[c] / kMass;
          xn[3 * id + c] = x[3 * id + c] + static_cast<double>(dt) * vn[3 * id + c];
        }
      }
    x.swap(xn);
    v.swap(vn);
  }

  double worst = 0.0, max_moved = 0.0;
  for (int n = 0; n < nodes; ++n) {
    const double got[3] = {pos[n].x, pos[n].y, pos[n].z};
    const double start[3] = {pos0[n].x, pos0[n].y, pos0[n].z};
    for (int c = 0; c < 3; ++c) {
      const double e = std::fabs(got[c] - x[3 * n + c]);  // metres, cloth is 1 m wide
      if (!(e <= worst)) worst = e;
      max_moved = std::fmax(max_moved, std::fabs(x[3 * n + c] - start[c]));
    }
  }
  std::printf("cloth: %d nodes, %d steps, max displacement %.3e m, max error %.3e m\n", nodes, steps,
              max_moved, worst);
  const bool pass = worst <= 1e-4 && max_moved > 1e-3;

  for (int b = 0; b < 2; ++b) {
    CORPUS_CHECK(cudaFree(d_pos[b]));
    CORPUS_CHECK(cudaFree(d_vel[b]));
  }
  return corpus::report("spring_mass_cloth", pass, worst, gpu_ms);
}
