// The JIT tier checked against the interpreter on a real program (gpuport run --jit compare):
// each launch runs on the compiled code, then again from the same memory on the interpreter,
// and every byte of live memory, the fault (if any) and the instruction counts must agree. Both
// runs use one host thread, so that workgroups, and the atomics between them, come in one order.
// The interpreter's run is the one that stays: the program goes on with its memory.
#pragma once

#include <cstdint>
#include <string>

#include "common/diagnostic.h"
#include "emu/interpreter.h"

namespace gpuport::emu {

struct TierComparison {
  RunStats stats;            // the interpreter's run
  std::string difference;    // where the tiers differ ("" when alike)
  std::string not_compared;  // why the launch ran on the interpreter only ("" when compared)
};

// Runs `launch` both ways (launch.jit and launch.jobs are set here). Launches that make hostcalls
// (device printf, malloc: they would reach the host twice) or whose live memory exceeds
// `memory_limit` bytes run on the interpreter only; a launch that either tier ran until its
// timeout is not compared. The interpreter's fault is the result's error.
Result<TierComparison> run_on_both_tiers(const PreparedKernel& kernel, Launch launch, AddressSpace& memory, std::uint64_t image_base,
                                         std::uint64_t memory_limit);

}  // namespace gpuport::emu
