// Contexts in the runtime's core (core/contexts.cc). The work of every context runs on the one
// emulated device, in issue order, so a context's synchronize is the device's.
#pragma once

#include <atomic>

#include "emu/runtime/core/runtime.h"

struct ihipCtx_t {
  unsigned int flags = 0;
  bool primary = false;
  std::atomic<bool> destroyed = false;  // set by one thread, seen by those that have it current
};

namespace gpuport::emu::hip {

// The primary context (the runtime API's, never released, active from the start) and the
// calling thread's current one (the top of its stack; the primary one when it is empty).
ihipCtx_t* primary_context();
ihipCtx_t* current_context();
// Whether `ctx` names a context of this runtime (destroyed or not).
bool known(hipCtx_t ctx);
// hipErrorContextIsDestroyed when the calling thread's current context was destroyed.
hipError_t check_current();
// A new context with `flags`, pushed on the calling thread's stack; destroying one pops it when
// it is the thread's current one and marks it destroyed (the primary one stays).
ihipCtx_t* create_context(unsigned int flags);
hipError_t destroy_context(hipCtx_t ctx);
// The calling thread's stack: push, pop (hipErrorInvalidContext when empty; the popped one in
// *ctx unless null), and replace the top (null: pop it, if any).
void push_context(hipCtx_t ctx);
hipError_t pop_context(hipCtx_t* ctx);
void set_current_context(hipCtx_t ctx);

}  // namespace gpuport::emu::hip
