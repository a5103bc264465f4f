// The target hooks of sass.h on the host; see target_native.h.
#include "lift/semantics/target_native.h"

#include <chrono>
#include <cmath>

namespace gpuport::lift::native {

SimulatedThread& simulated_thread() {
  thread_local SimulatedThread t;
  return t;
}

bool run_warp(sass_u32 active, const std::function<void(sass_u32 lane)>& body) {
  WarpExchange exchange;
  SimulatedThread& t = simulated_thread();
  const SimulatedThread saved = t;
  bool settled = false;
  for (int pass = 0; pass < 64 && !settled; ++pass) {
    for (sass_u32 lane = 0; lane < 32; ++lane) {
      if (((active >> lane) & 1) == 0) continue;
      t.lane = lane;
      t.active = active;
      t.warp = &exchange;
      body(lane);
    }
    settled = true;
    for (int lane = 0; lane < 32; ++lane) {
      if (exchange.current[lane] != exchange.previous[lane]) settled = false;
      exchange.previous[lane] = std::move(exchange.current[lane]);
      exchange.current[lane].clear();
    }
  }
  t = saved;
  return settled;
}

}  // namespace gpuport::lift::native

using gpuport::lift::native::simulated_thread;

SASS_HOOK(sass_u32, thread_id)(sass_u32 dim) { return simulated_thread().thread[dim % 3]; }
SASS_HOOK(sass_u32, block_id)(sass_u32 dim) { return simulated_thread().block[dim % 3]; }
SASS_HOOK(sass_u32, block_size)(sass_u32 dim) { return simulated_thread().block_size[dim % 3]; }
SASS_HOOK(sass_u32, grid_size)(sass_u32 dim) { return simulated_thread().grid_size[dim % 3]; }
SASS_HOOK(sass_u32, lane_id)(void) { return simulated_thread().lane; }
SASS_HOOK(sass_u32, active_mask)(void) { return simulated_thread().active; }
SASS_HOOK(sass_u32, ballot)(bool value) {
  auto& t = simulated_thread();
  const sass_u32 mine = 1u << t.lane;
  return ((t.ballot_others & ~mine) | (value ? mine : 0)) & t.active;
}
SASS_HOOK(sass_u32, read_lane)(sass_u32 value, sass_u32 lane) {
  auto& t = simulated_thread();
  if (t.warp != nullptr) {  // run_warp: the lanes exchange values call by call
    std::vector<sass_u32>& mine = t.warp->current[t.lane % 32];
    const std::size_t call = mine.size();
    mine.push_back(value);
    if (lane % 32 == t.lane) return value;
    const std::vector<sass_u32>& theirs = t.warp->previous[lane % 32];
    return call < theirs.size() ? theirs[call] : 0;
  }
  return lane % 32 == t.lane ? value : t.lane_values[lane % 32];
}
SASS_HOOK(void, block_barrier)(void) { ++simulated_thread().barriers; }
SASS_HOOK(void, fence)(sass_u32) { ++simulated_thread().fences; }
SASS_HOOK(sass_u32, block_reduce)(sass_u32*, sass_u32 op, bool value) {
  auto& t = simulated_thread();
  ++t.barriers;
  const sass_u32 passed = t.block_others_passing + (value ? 1u : 0u);
  if (op == SASS_BLOCK_POPC) return passed;
  if (op == SASS_BLOCK_AND) return passed == t.block_others + 1u ? 1u : 0u;
  return passed != 0 ? 1u : 0u;
}
SASS_HOOK(sass_u64, clock)(void) {
  return static_cast<sass_u64>(std::chrono::steady_clock::now().time_since_epoch().count());
}
SASS_HOOK(sass_u64, global_timer)(void) {
  return static_cast<sass_u64>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}
SASS_HOOK(void, trap)(void) { ++simulated_thread().traps; }
SASS_HOOK(sass_u32, vprintf)(const char*, const char*) {
  ++simulated_thread().prints;  // counted only: the format walk is the target's (target_amdgcn_printf.h)
  return 0;
}
SASS_HOOK(void, assert_fail)(const char*, const char*, sass_u32, const char*) { ++simulated_thread().traps; }
SASS_HOOK(void, sleep)(sass_u32) {}
SASS_HOOK(float, rcp_approx)(float x) { return 1.0f / x; }
SASS_HOOK(float, rsqrt_approx)(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }
SASS_HOOK(float, sqrt_approx)(float x) { return std::sqrt(x); }
SASS_HOOK(float, exp2_approx)(float x) { return std::exp2(x); }
SASS_HOOK(float, log2_approx)(float x) { return std::log2(x); }
SASS_HOOK(float, sin_approx)(float x) { return static_cast<float>(std::sin(static_cast<double>(x) * 6.283185307179586)); }
SASS_HOOK(float, cos_approx)(float x) { return static_cast<float>(std::cos(static_cast<double>(x) * 6.283185307179586)); }
SASS_HOOK(float, tanh_approx)(float x) { return std::tanh(x); }
SASS_EXTERN float gpuport_mark_nan_f32(float r) { return r != r ? __builtin_bit_cast(float, 0x7fffffffu) : r; }
