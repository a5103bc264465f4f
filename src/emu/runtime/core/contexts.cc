// Contexts in the runtime's core: the one device's primary context, contexts made by
// hipCtxCreate (kept when destroyed, so that a thread that still has one current is told so
// instead of touching freed memory), and each host thread's context stack.
#include "emu/runtime/core/contexts.h"

namespace gpuport::emu::hip {
namespace {

ihipCtx_t primary{0, true, false};

// Contexts made by hipCtxCreate, live or destroyed. Under the runtime's lock.
std::set<ihipCtx_t*>& created_contexts() {
  static auto* c = new std::set<ihipCtx_t*>();
  return *c;
}

thread_local std::vector<ihipCtx_t*> context_stack;

}  // namespace

ihipCtx_t* primary_context() { return &primary; }

ihipCtx_t* current_context() { return context_stack.empty() ? &primary : context_stack.back(); }

bool known(hipCtx_t ctx) {
  if (ctx == &primary) return true;
  std::lock_guard lock(runtime().mutex);
  return created_contexts().count(ctx) != 0;
}

hipError_t check_current() { return current_context()->destroyed ? ret(hipErrorContextIsDestroyed) : hipSuccess; }

ihipCtx_t* create_context(unsigned int flags) {
  auto* c = new ihipCtx_t{flags, false, false};
  {
    std::lock_guard lock(runtime().mutex);
    created_contexts().insert(c);
  }
  context_stack.push_back(c);
  return c;
}

hipError_t destroy_context(hipCtx_t ctx) {
  if (!known(ctx)) return ret(hipErrorInvalidContext);
  if (ctx->destroyed) return ret(hipErrorContextIsDestroyed);
  if (!context_stack.empty() && context_stack.back() == ctx) context_stack.pop_back();
  // The primary context stays: HIP releases it instead (and never really does).
  if (!ctx->primary) ctx->destroyed = true;
  return hipSuccess;
}

void push_context(hipCtx_t ctx) { context_stack.push_back(ctx); }

hipError_t pop_context(hipCtx_t* ctx) {
  if (context_stack.empty()) return ret(hipErrorInvalidContext);
  if (ctx) *ctx = context_stack.back();
  context_stack.pop_back();
  return hipSuccess;
}

void set_current_context(hipCtx_t ctx) {
  if (!ctx) {
    if (!context_stack.empty()) context_stack.pop_back();
  } else if (context_stack.empty()) {
    context_stack.push_back(ctx);
  } else {
    context_stack.back() = ctx;
  }
}

}  // namespace gpuport::emu::hip
