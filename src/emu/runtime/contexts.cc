// Contexts of the emulator's HIP runtime (hipCtx*, hipDevicePrimaryCtx*): the one device's
// primary context, which the runtime API uses, and contexts made by hipCtxCreate, with a context
// stack per host thread. The work of every context runs on the one emulated device, in issue
// order, so a context's synchronize is the device's.
//
// What HIP 5.2's documentation defines and this runtime does: hipCtxCreate makes a context and
// pushes it; destroying the calling thread's current context also pops it, while a thread that
// still has it current gets hipErrorContextIsDestroyed from calls that use it; with an empty stack
// the current context is the primary one; hipCtxGetApiVersion says 4; the L1/LDS split and the
// LDS bank size are fixed on AMD devices, so their configurations are accepted and read back as
// hipFuncCachePreferNone and 4-byte banks; the primary context is never released (HIP: "by
// design") and is active from the start, so its flags cannot change (hipErrorContextAlreadyInUse).
#include "emu/runtime/runtime.h"

#include <atomic>

struct ihipCtx_t {
  unsigned int flags = 0;
  bool primary = false;
  std::atomic<bool> destroyed = false;  // set by one thread, seen by those that have it current
};

namespace gpuport::emu::hip {
namespace {

ihipCtx_t primary_context{0, true, false};

// Contexts made by hipCtxCreate, live or destroyed (a destroyed one is kept, so that a thread
// that still has it current is told so instead of touching freed memory). Under the runtime's lock.
std::set<ihipCtx_t*>& created_contexts() {
  static auto* c = new std::set<ihipCtx_t*>();
  return *c;
}

thread_local std::vector<ihipCtx_t*> context_stack;

ihipCtx_t* current_context() { return context_stack.empty() ? &primary_context : context_stack.back(); }

// Whether `ctx` names a context of this runtime (destroyed or not).
bool known(hipCtx_t ctx) {
  if (ctx == &primary_context) return true;
  std::lock_guard lock(runtime().mutex);
  return created_contexts().count(ctx) != 0;
}

// hipErrorContextIsDestroyed when the calling thread's current context was destroyed.
hipError_t check_current() { return current_context()->destroyed ? ret(hipErrorContextIsDestroyed) : hipSuccess; }

constexpr unsigned int kContextFlags = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;

}  // namespace
}  // namespace gpuport::emu::hip

using namespace gpuport::emu::hip;

hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
  if (!ctx || device != 0 || (flags & ~kContextFlags)) return ret(hipErrorInvalidValue);
  auto* c = new ihipCtx_t{flags, false, false};
  {
    std::lock_guard lock(runtime().mutex);
    created_contexts().insert(c);
  }
  context_stack.push_back(c);
  *ctx = c;
  return hipSuccess;
}

hipError_t hipCtxDestroy(hipCtx_t ctx) {
  if (!ctx) return ret(hipErrorInvalidValue);
  if (!known(ctx)) return ret(hipErrorInvalidContext);
  if (ctx->destroyed) return ret(hipErrorContextIsDestroyed);
  if (!context_stack.empty() && context_stack.back() == ctx) context_stack.pop_back();
  // The primary context stays: HIP releases it instead (and never really does).
  if (!ctx->primary) ctx->destroyed = true;
  return hipSuccess;
}

hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  if (!ctx || !known(ctx) || ctx->destroyed) return ret(hipErrorInvalidContext);
  context_stack.push_back(ctx);
  return hipSuccess;
}

hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
  if (context_stack.empty()) return ret(hipErrorInvalidContext);
  if (ctx) *ctx = context_stack.back();
  context_stack.pop_back();
  return hipSuccess;
}

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  if (!ctx) {  // unbinds the current context
    if (!context_stack.empty()) context_stack.pop_back();
    return hipSuccess;
  }
  if (!known(ctx) || ctx->destroyed) return ret(hipErrorInvalidContext);
  if (context_stack.empty()) context_stack.push_back(ctx);
  else context_stack.back() = ctx;
  return hipSuccess;
}

hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
  if (!ctx) return ret(hipErrorInvalidValue);
  *ctx = current_context();
  return hipSuccess;
}

hipError_t hipCtxGetDevice(hipDevice_t* device) {
  if (!device) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_current()) return e;
  *device = 0;
  return hipSuccess;
}

hipError_t hipCtxGetApiVersion(hipCtx_t ctx, int* version) {
  if (!version) return ret(hipErrorInvalidValue);
  if (!ctx) ctx = current_context();
  if (!known(ctx)) return ret(hipErrorInvalidContext);
  if (ctx->destroyed) return ret(hipErrorContextIsDestroyed);
  *version = 4;  // the value HIP documents for every context
  return hipSuccess;
}

hipError_t hipCtxGetFlags(unsigned int* flags) {
  if (!flags) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_current()) return e;
  const ihipCtx_t* c = current_context();
  *flags = c->primary ? runtime().device_flags : c->flags;  // the primary context's are hipSetDeviceFlags'
  return hipSuccess;
}

hipError_t hipCtxSetCacheConfig(hipFuncCache_t config) {
  if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return ret(hipErrorInvalidValue);
  return check_current();
}
hipError_t hipCtxGetCacheConfig(hipFuncCache_t* config) {
  if (!config) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_current()) return e;
  *config = hipFuncCachePreferNone;
  return hipSuccess;
}
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config) {
  if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte) return ret(hipErrorInvalidValue);
  return check_current();
}
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig* config) {
  if (!config) return ret(hipErrorInvalidValue);
  if (hipError_t e = check_current()) return e;
  *config = hipSharedMemBankSizeFourByte;
  return hipSuccess;
}

hipError_t hipCtxSynchronize() {
  if (hipError_t e = check_current()) return e;
  return hipDeviceSynchronize();
}

// Every context is on the one device, and a device is not its own peer (as
// hipDeviceEnablePeerAccess says for device 0).
hipError_t hipCtxEnablePeerAccess(hipCtx_t peer, unsigned int flags) {
  if (flags != 0) return ret(hipErrorInvalidValue);
  if (!peer || !known(peer) || peer->destroyed) return ret(hipErrorInvalidContext);
  return ret(hipErrorInvalidDevice);
}
hipError_t hipCtxDisablePeerAccess(hipCtx_t peer) {
  if (!peer || !known(peer) || peer->destroyed) return ret(hipErrorInvalidContext);
  return ret(hipErrorPeerAccessNotEnabled);
}

hipError_t hipDevicePrimaryCtxGetState(hipDevice_t device, unsigned int* flags, int* active) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  if (flags) *flags = runtime().device_flags;
  if (active) *active = 1;
  return hipSuccess;
}
hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* ctx, hipDevice_t device) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  if (!ctx) return ret(hipErrorInvalidValue);
  *ctx = &primary_context;
  return hipSuccess;
}
hipError_t hipDevicePrimaryCtxRelease(hipDevice_t device) { return device == 0 ? hipSuccess : ret(hipErrorInvalidDevice); }
hipError_t hipDevicePrimaryCtxReset(hipDevice_t device) { return device == 0 ? hipSuccess : ret(hipErrorInvalidDevice); }
hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t device, unsigned int) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  return ret(hipErrorContextAlreadyInUse);
}
