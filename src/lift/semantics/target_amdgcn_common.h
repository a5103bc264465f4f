// The target hooks of sass.h shared by gfx1100's wave32 and wave64 (the ones that do not involve the
// warp): thread and block ids, sizes, barriers, fences, clocks, traps, MUFU approximations. Included
// by target_amdgcn.cc (wave32) and target_amdgcn_wave64.cc; compiled only for amdgcn.
#pragma once

#include "lift/semantics/sass.h"


namespace {

// Code object v5's hidden kernel arguments (AMDGPUUsage, "Code Object V5 Metadata"): block
// counts at 0, 4, 8 (u32), group sizes at 12, 14, 16 (u16).
inline const __attribute__((address_space(4))) unsigned char* hidden_arguments() {
  return static_cast<const __attribute__((address_space(4))) unsigned char*>(__builtin_amdgcn_implicitarg_ptr());
}

}  // namespace

SASS_HOOK(sass_u32, thread_id)(sass_u32 dim) {
  return dim == 0 ? __builtin_amdgcn_workitem_id_x() : dim == 1 ? __builtin_amdgcn_workitem_id_y() : __builtin_amdgcn_workitem_id_z();
}
SASS_HOOK(sass_u32, block_id)(sass_u32 dim) {
  return dim == 0 ? __builtin_amdgcn_workgroup_id_x() : dim == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z();
}
SASS_HOOK(sass_u32, block_size)(sass_u32 dim) {
  return *reinterpret_cast<const __attribute__((address_space(4))) sass_u16*>(hidden_arguments() + 12 + 2 * dim);
}
SASS_HOOK(sass_u32, grid_size)(sass_u32 dim) {
  return *reinterpret_cast<const __attribute__((address_space(4))) sass_u32*>(hidden_arguments() + 4 * dim);
}
SASS_HOOK(void, block_barrier)(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
SASS_HOOK(void, fence)(sass_u32 scope) {
  if (scope == 0) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
  else if (scope == 1) __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  else __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "");
}
SASS_HOOK(sass_u64, clock)(void) { return __builtin_readcyclecounter(); }
SASS_HOOK(sass_u64, global_timer)(void) { return __builtin_readsteadycounter() * 10; }
SASS_HOOK(void, trap)(void) { __builtin_trap(); }
SASS_HOOK(void, sleep)(sass_u32) { __builtin_amdgcn_s_sleep(1); }
// MUFU on gfx1100's transcendental unit. The f32 semantic (gpuport_sass_mufu) flushes denormal
// inputs and results around these, as NVIDIA's MUFU does. Error bounds, ours (RDNA3 ISA: 1 ulp for
// V_RCP/V_RSQ/V_SQRT/V_EXP/V_LOG_F32) against NVIDIA's documented ones (PTX ISA *.approx.f32,
// CUDA Programming Guide's intrinsic-function table): rcp 1 ulp (PTX: 1 ulp); rsqrt 1 ulp (PTX:
// relative 2^-22.9); sqrt 1 ulp (PTX sqrt.approx: relative 2^-23); ex2 1 ulp (PTX: 2 ulp); lg2
// 1 ulp (PTX: absolute 2^-22.6 near 1, 2 ulp elsewhere per __log2f); sin/cos: absolute about
// 2^-20 on one reduced revolution (PTX sin/cos.approx: absolute 2^-20.5 on [-pi, pi]); tanh
// below relative 2^-20 (PTX tanh.approx: relative 2^-10.987).
SASS_HOOK(float, rcp_approx)(float x) { return __builtin_amdgcn_rcpf(x); }
SASS_HOOK(float, rsqrt_approx)(float x) { return __builtin_amdgcn_rsqf(x); }
SASS_HOOK(float, sqrt_approx)(float x) { return __builtin_amdgcn_sqrtf(x); }
SASS_HOOK(float, exp2_approx)(float x) { return __builtin_amdgcn_exp2f(x); }
SASS_HOOK(float, log2_approx)(float x) { return __builtin_amdgcn_logf(x); }
// V_SIN/V_COS_F32 take revolutions like MUFU.SIN/COS but are only accurate on [-256, 256]:
// reduce to one revolution first (x - rint(x) is exact for every float).
SASS_HOOK(float, sin_approx)(float x) {
  if (x - x != 0.0f) return __builtin_nanf("");  // Inf or NaN
  return __builtin_amdgcn_sinf(x - __builtin_rintf(x));
}
SASS_HOOK(float, cos_approx)(float x) {
  if (x - x != 0.0f) return __builtin_nanf("");
  return __builtin_amdgcn_cosf(x - __builtin_rintf(x));
}
SASS_HOOK(float, tanh_approx)(float x) {
  const float ax = __builtin_fabsf(x);
  float r;
  if (ax < 0x1p-12f) return x;  // x^3/3 is below half an ulp of x (and denormals stay exact)
  if (ax < 0.25f) {
    // Near 0, 1 - 2/(e^2x + 1) cancels: the odd Taylor series to x^9 (next term below 2^-25 relative).
    const float x2 = x * x;
    return x * (1.0f + x2 * (-1.0f / 3 + x2 * (2.0f / 15 + x2 * (-17.0f / 315 + x2 * (62.0f / 2835)))));
  }
  if (ax > 10.0f) r = 1.0f;
  else r = 1.0f - 2.0f * __builtin_amdgcn_rcpf(__builtin_amdgcn_exp2f(ax * 2.8853900817779268f) + 1.0f);  // e^2|x|
  return x < 0.0f ? -r : r;
}
SASS_HOOK(sass_u32, block_reduce)(sass_u32* scratch, sass_u32 op, bool value) {
  // scratch[0]: threads that passed true, scratch[1]: threads that arrived. Every thread clears
  // both (the same value; the previous reduction's reads ended at its last barrier), all meet,
  // count with workgroup-scope atomics, meet, read, and meet again so that the next reduction's
  // clearing cannot overtake a slow reader.
  scratch[0] = 0;
  scratch[1] = 0;
  gpuport_hook_block_barrier();
  __scoped_atomic_fetch_add(&scratch[0], value ? 1u : 0u, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  __scoped_atomic_fetch_add(&scratch[1], 1u, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  gpuport_hook_block_barrier();
  const sass_u32 passed = __scoped_atomic_load_n(&scratch[0], __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  const sass_u32 arrived = __scoped_atomic_load_n(&scratch[1], __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  gpuport_hook_block_barrier();
  if (op == SASS_BLOCK_POPC) return passed;
  if (op == SASS_BLOCK_AND) return passed == arrived ? 1u : 0u;
  return passed != 0 ? 1u : 0u;
}
#include "lift/semantics/target_amdgcn_printf.h"
