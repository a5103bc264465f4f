// What a value means for warp-size hazards, followed through each function's assignments:
// whatever a variable is called, `int r = threadIdx.x & 31;` makes r a lane index and
// `int q = threadIdx.x / 32;` makes q a warp index, and the names assigned from them inherit
// that. hazards.cc asks it about the operands of 32-lane idioms (`% 32`, `/ 32`, `+= 32`,
// `< 32`, `* 32 + lane`), so that they are reported by what the values are, not their names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <string_view>
#include <utility>
#include <vector>

#include "common/name_hash.h"

namespace gpuport::source {

class Engine;

// Integer literal value, ignoring suffixes and digit separators; -1 when not a plain integer
// (or too large to matter here).
long long integer_value(std::string_view s);

enum class LaneClass : std::uint8_t {
  none,
  thread,      // a thread index: threadIdx, a global index, a cooperative-groups rank
  warp_count,  // a warp count computed from a block size: blockDim.x / 32
  warp,        // a warp index: thread / 32, thread >> 5
  lane,        // a lane index: thread % 32, thread & 31, __lane_id()
};

class LaneFlow {
 public:
  explicit LaneFlow(const Engine& e);

  // The class of the tokens [first, last] (sig indices) as an expression.
  LaneClass of_range(std::size_t first, std::size_t last) const;
  // The class of the operand that ends just before the binary operator at `op` (a name, member
  // access, call or parenthesised group).
  LaneClass of_left_operand(std::size_t op) const;
  // The class of the operand that starts just after the binary operator at `op`.
  LaneClass of_right_operand(std::size_t op) const;
  // The class a variable named at sig index `i` was given in its function; none if untracked.
  LaneClass of_variable(std::size_t i) const;
  // The first and last sig index of the operands before and after the operator at `op`.
  std::size_t operand_start(std::size_t op) const;
  std::size_t operand_end(std::size_t op) const;

 private:
  std::size_t region_of(std::size_t i) const;

  const Engine& e_;
  std::vector<std::pair<std::size_t, std::size_t>> regions_;  // function bodies [open, close], by open
  std::vector<std::size_t> parents_;                          // enclosing region; size() for none
  LaneClass of_range_in(std::size_t region, std::size_t first, std::size_t last) const;
  LaneClass of_variable_in(std::size_t region, std::size_t i) const;

  struct Key {
    std::size_t region;
    std::string_view name;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return name_hash(k.name) ^ (k.region * 0x9E3779B97F4A7C15ull); }
  };
  std::unordered_map<Key, LaneClass, KeyHash> classes_;  // (region, name) -> class
};

}  // namespace gpuport::source
