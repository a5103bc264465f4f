// A latency and issue model of one warp on an SM, for ranking candidate orders on the CPU before
// any GPU time is spent. Each block is issued in order: an instruction waits for its stall
// predecessor and for the scoreboards it names, and a scoreboard clears when its slowest setter's
// result (variable latency, by opcode class) arrives. A block's time is weighted by how often it
// runs (8 per loop level). Latencies start from data/tune/opcodes.tsv and are recalibrated from
// GPU measurements (`calibrate`). Promise: deterministic, and cost(original) is what the
// candidates are compared with; the model ranks, the GPU decides.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "tune/schedule.h"

namespace gpuport::tune {

// The latency classes the calibration scales: the opcode table's latency times the class scale.
enum class LatencyClass : std::uint8_t { global_memory, shared_memory, local_memory, constant_memory, texture, other };
inline constexpr int kLatencyClasses = 6;
std::string_view latency_class_name(LatencyClass c);
LatencyClass latency_class(const InstructionFacts& facts);

struct CostModel {
  std::array<double, kLatencyClasses> scale{1, 1, 1, 1, 1, 1};
  double loop_weight = 8;  // each loop level multiplies a block's weight
  int latency(const InstructionFacts& facts) const;
};

// Weight of each block of the schedule (8^loop depth by default).
std::vector<double> block_weights(const KernelSchedule& schedule, const CostModel& model);

// Modelled cycles of one block under `order`.
double block_cycles(const KernelSchedule& schedule, const CostModel& model, const Order& order, std::size_t block,
                    const StallPlan& stalls = {});

struct CostEstimate {
  double cycles = 0;                 // weighted sum over blocks
  std::vector<double> block_cycles;  // unweighted, per schedule block
};
CostEstimate estimate_cost(const KernelSchedule& schedule, const CostModel& model, const Order& order,
                           const StallPlan& stalls = {});

// One GPU measurement of a candidate: its order (and stalls) and the runtime ratio
// candidate/original.
struct CalibrationSample {
  Order order;
  double measured_ratio = 1;
  StallPlan stalls;
};
// Fits the class scales so that the model's cost ratios candidate/original follow the measured
// ones (coordinate search over a log grid, least squares on the ratios). Returns the fitted
// model and writes the fit's error before and after.
CostModel calibrate(const KernelSchedule& schedule, const CostModel& start, const std::vector<CalibrationSample>& samples,
                    double* error_before = nullptr, double* error_after = nullptr);

}  // namespace gpuport::tune
