// gfx1100 -> LLVM IR: a prepared kernel's steps as one function over the interpreter's wave
// state (JitFrame, jit.h). Each step is a block (a fused run, Step::run_end, one block: it runs
// whole); the function's second argument picks the block to start at, and every block first
// checks the frame's step limit, so the function can stop and resume at any step but a run's
// interior. Steps whose meaning lanes.h holds (LiftForm, lift_forms.h) are
// compiled as lane loops under EXEC, float ones behind a check of MODE (the default float mode;
// otherwise the handler runs); branches are branches; the rest call their handler. Only jit.cc
// includes this header.
#pragma once

#include <memory>
#include <string>

#include <llvm/IR/Module.h>

namespace gpuport::emu {

struct PreparedKernel;

// Adds the function `name` (JitEntry's signature) for `kernel` to `module`, which holds the lane
// functions of lanes_bitcode.cc. Counts of lifted and called steps go to `lifted`/`called`.
void lift_kernel(const PreparedKernel& kernel, llvm::Module& module, const std::string& name, std::size_t& lifted, std::size_t& called);

}  // namespace gpuport::emu
