// The parameter of the emulator's kernel tests: the wave size the kernels are built for and the
// tier that runs them, so that every such test checks the interpreter and the JIT (jit.h) alike.
// It converts to bool as the wave64 flag the tests were first written with.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "emu/jit.h"

namespace gpuport::emu::testing {

struct WaveAndTier {
  bool wave64 = false;
  JitMode jit = JitMode::never;
  operator bool() const { return wave64; }
};

inline ::testing::internal::ParamGenerator<WaveAndTier> waves_and_tiers() {
  return ::testing::Values(WaveAndTier{false, JitMode::never}, WaveAndTier{true, JitMode::never}, WaveAndTier{false, JitMode::always},
                           WaveAndTier{true, JitMode::always});
}

inline std::string wave_and_tier_name(const ::testing::TestParamInfo<WaveAndTier>& i) {
  return std::string(i.param.wave64 ? "wave64" : "wave32") + (i.param.jit == JitMode::always ? "_jit" : "");
}

}  // namespace gpuport::emu::testing
