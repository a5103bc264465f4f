// The target hooks of sass.h on the host, for unit tests of the semantics: one simulated thread
// whose ids, warp and lane values a test sets beforehand; approximations computed exactly.
#pragma once

#include <functional>
#include <vector>

#include "lift/semantics/sass.h"

namespace gpuport::lift::native {

struct WarpExchange;  // run_warp's exchange of read_lane values, below

struct SimulatedThread {
  sass_u32 thread[3] = {0, 0, 0}, block[3] = {0, 0, 0}, block_size[3] = {1, 1, 1}, grid_size[3] = {1, 1, 1};
  sass_u32 lane = 0;
  WarpExchange* warp = nullptr;   // set by run_warp: read_lane then exchanges values among lanes
  sass_u32 active = 1;            // the warp's active lanes
  sass_u32 ballot_others = 0;     // what the other active lanes vote (bit i = lane i's vote)
  sass_u32 lane_values[32] = {};  // read_lane(value, i) gives lane_values[i] for i != lane
  // block_reduce (BAR.RED): how many other threads of the block arrive, and how many pass true.
  sass_u32 block_others = 0, block_others_passing = 0;
  unsigned barriers = 0, fences = 0, traps = 0, prints = 0;
};

// The calling thread's simulated GPU thread.
SimulatedThread& simulated_thread();

// A whole warp in lockstep, for warp-collective semantics (matrix instructions, shuffles): `body`
// runs for each lane of `active` in turn, as many passes as needed. A lane's n-th read_lane(value,
// from) gives what lane `from` passed to its own n-th read_lane in the previous pass; the passes stop
// when every lane passes the same values as in the pass before, so that in the last pass every
// read_lane sees the values of the same pass, as if the lanes ran together. Lanes must make their
// read_lane calls in one order (as convergent warp code does). Returns false when 64 passes do not
// settle. `body` stores its lane's results; the last pass's results are the warp's.
struct WarpExchange {
  std::vector<sass_u32> previous[32], current[32];
};
bool run_warp(sass_u32 active, const std::function<void(sass_u32 lane)>& body);

}  // namespace gpuport::lift::native
