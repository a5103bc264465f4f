// The target hooks of sass.h for NVIDIA GPUs through LLVM's NVPTX back end: the round trip of a
// lifted kernel back to a cubin (`gpuport asm --target sm_XX`), which checks the lifter on the
// machine the SASS came from. Each hook is the PTX operation the SASS instruction implements
// (special registers, vote/shfl.sync over the active threads, bar.sync, membar, the .approx
// functions), so the round trip keeps NVIDIA's own results. Compiled only for nvptx64 (to
// bitcode), with PTX ISA 7.8 (CUDA 11.8's ptxas).
#include "lift/semantics/sass.h"

SASS_HOOK(sass_u32, thread_id)(sass_u32 dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_tid_x() : dim == 1 ? __nvvm_read_ptx_sreg_tid_y() : __nvvm_read_ptx_sreg_tid_z();
}
SASS_HOOK(sass_u32, block_id)(sass_u32 dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_ctaid_x() : dim == 1 ? __nvvm_read_ptx_sreg_ctaid_y() : __nvvm_read_ptx_sreg_ctaid_z();
}
SASS_HOOK(sass_u32, block_size)(sass_u32 dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_ntid_x() : dim == 1 ? __nvvm_read_ptx_sreg_ntid_y() : __nvvm_read_ptx_sreg_ntid_z();
}
SASS_HOOK(sass_u32, grid_size)(sass_u32 dim) {
  return dim == 0 ? __nvvm_read_ptx_sreg_nctaid_x() : dim == 1 ? __nvvm_read_ptx_sreg_nctaid_y() : __nvvm_read_ptx_sreg_nctaid_z();
}
SASS_HOOK(sass_u32, lane_id)(void) { return static_cast<sass_u32>(__nvvm_read_ptx_sreg_laneid()); }
SASS_HOOK(sass_u32, active_mask)(void) { return __nvvm_activemask(); }
SASS_HOOK(sass_u32, ballot)(bool value) { return __nvvm_vote_ballot_sync(__nvvm_activemask(), value); }
SASS_HOOK(sass_u32, read_lane)(sass_u32 value, sass_u32 lane) {
  // shfl.sync.idx with c = 0x1f: the whole warp, lane taken modulo 32.
  return static_cast<sass_u32>(__nvvm_shfl_sync_idx_i32(__nvvm_activemask(), static_cast<int>(value), static_cast<int>(lane), 0x1f));
}
SASS_HOOK(void, block_barrier)(void) { __nvvm_barrier_sync(0); }
SASS_HOOK(void, fence)(sass_u32 scope) {
  if (scope == 0) __nvvm_membar_cta();
  else if (scope == 1) __nvvm_membar_gl();
  else __nvvm_membar_sys();
}
SASS_HOOK(sass_u64, clock)(void) { return static_cast<sass_u64>(__nvvm_read_ptx_sreg_clock64()); }
SASS_HOOK(sass_u64, global_timer)(void) { return static_cast<sass_u64>(__nvvm_read_ptx_sreg_globaltimer()); }
SASS_HOOK(void, trap)(void) { __builtin_trap(); }
SASS_HOOK(void, sleep)(sass_u32 nanoseconds) { __nvvm_nanosleep(nanoseconds); }
SASS_HOOK(float, rcp_approx)(float x) { return __nvvm_rcp_approx_ftz_f(x); }
SASS_HOOK(float, rsqrt_approx)(float x) { return __nvvm_rsqrt_approx_f(x); }
SASS_HOOK(float, sqrt_approx)(float x) { return __nvvm_sqrt_approx_f(x); }
SASS_HOOK(float, exp2_approx)(float x) { return __nvvm_ex2_approx_f(x); }
SASS_HOOK(float, log2_approx)(float x) { return __nvvm_lg2_approx_f(x); }
// MUFU.SIN/COS take revolutions; sin.approx/cos.approx take radians.
SASS_HOOK(float, sin_approx)(float x) { return __nvvm_sin_approx_f(x * 6.28318530717958647692f); }
SASS_HOOK(float, cos_approx)(float x) { return __nvvm_cos_approx_f(x * 6.28318530717958647692f); }
SASS_HOOK(float, tanh_approx)(float x) {
  float y;
  asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
// BAR.RED through PTX's bar.red (barrier 0, every thread of the block); the scratch is the
// gfx1100 target's and unused here.
SASS_HOOK(sass_u32, block_reduce)(sass_u32*, sass_u32 op, bool value) {
  if (op == SASS_BLOCK_POPC) return static_cast<sass_u32>(__nvvm_bar0_popc(value));
  if (op == SASS_BLOCK_AND) return __nvvm_bar0_and(value) != 0 ? 1u : 0u;
  return __nvvm_bar0_or(value) != 0 ? 1u : 0u;
}
// CUDA's own device printf and assert entry points, which ptxas resolves.
extern "C" int vprintf(const char* format, const char* arguments);
extern "C" void __assertfail(const char* message, const char* file, unsigned line, const char* function, unsigned long long char_size);
SASS_HOOK(sass_u32, vprintf)(const char* format, const char* arguments) { return static_cast<sass_u32>(vprintf(format, arguments)); }
SASS_HOOK(void, assert_fail)(const char* message, const char* file, sass_u32 line, const char* function) {
  __assertfail(message, file, line, function, 1);
}
