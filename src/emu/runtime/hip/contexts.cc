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
#include "emu/runtime/core/contexts.h"
#include "emu/runtime/core/queues.h"

using namespace gpuport::emu::hip;

namespace {
constexpr unsigned int kContextFlags = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
}  // namespace

hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
  if (!ctx || device != 0 || (flags & ~kContextFlags)) return ret(hipErrorInvalidValue);
  *ctx = create_context(flags);
  return hipSuccess;
}

hipError_t hipCtxDestroy(hipCtx_t ctx) {
  if (!ctx) return ret(hipErrorInvalidValue);
  return destroy_context(ctx);
}

hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
  if (!ctx || !known(ctx) || ctx->destroyed) return ret(hipErrorInvalidContext);
  push_context(ctx);
  return hipSuccess;
}

hipError_t hipCtxPopCurrent(hipCtx_t* ctx) { return pop_context(ctx); }

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  if (ctx && (!known(ctx) || ctx->destroyed)) return ret(hipErrorInvalidContext);
  set_current_context(ctx);  // null unbinds the current context
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
  return synchronize_device();
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
  *ctx = primary_context();
  return hipSuccess;
}
hipError_t hipDevicePrimaryCtxRelease(hipDevice_t device) { return device == 0 ? hipSuccess : ret(hipErrorInvalidDevice); }
hipError_t hipDevicePrimaryCtxReset(hipDevice_t device) { return device == 0 ? hipSuccess : ret(hipErrorInvalidDevice); }
hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t device, unsigned int) {
  if (device != 0) return ret(hipErrorInvalidDevice);
  return ret(hipErrorContextAlreadyInUse);
}
