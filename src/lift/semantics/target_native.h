// The target hooks of sass.h on the host, for unit tests of the semantics: one simulated thread
// whose ids, warp and lane values a test sets beforehand; approximations computed exactly.
#pragma once

#include "lift/semantics/sass.h"

namespace gpuport::lift::native {

struct SimulatedThread {
  sass_u32 thread[3] = {0, 0, 0}, block[3] = {0, 0, 0}, block_size[3] = {1, 1, 1}, grid_size[3] = {1, 1, 1};
  sass_u32 lane = 0;
  sass_u32 active = 1;            // the warp's active lanes
  sass_u32 ballot_others = 0;     // what the other active lanes vote (bit i = lane i's vote)
  sass_u32 lane_values[32] = {};  // read_lane(value, i) gives lane_values[i] for i != lane
  // block_reduce (BAR.RED): how many other threads of the block arrive, and how many pass true.
  sass_u32 block_others = 0, block_others_passing = 0;
  unsigned barriers = 0, fences = 0, traps = 0, prints = 0;
};

// The calling thread's simulated GPU thread.
SimulatedThread& simulated_thread();

}  // namespace gpuport::lift::native
