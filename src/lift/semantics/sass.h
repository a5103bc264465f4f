// The meaning of NVIDIA SASS instructions, written once: small functions over plain values that
// the lifter calls (their bitcode, compiled by clang-19 for the target at build time, is linked
// into every lifted module and inlined there) and that unit tests call natively. Modifiers are
// arguments: the lifter passes them as constants, so inlining folds every choice away.
// Promise: no state, no allocation, no library call; only the target hooks and the NaN mark below
// reach outside.
// Plain C types and builtins only, so the same text compiles for amdgcn, nvptx and the host.
#pragma once

typedef unsigned char sass_u8;
typedef unsigned short sass_u16;
typedef unsigned int sass_u32;
typedef int sass_i32;
typedef unsigned long long sass_u64;
typedef long long sass_i64;

#ifdef __cplusplus
#define SASS_EXTERN extern "C"
#else
#define SASS_EXTERN
#endif

// Every semantic function is named gpuport_sass_<name>; the lifter looks them up by that name.
#define SASS_SEMANTIC(ret, name) SASS_EXTERN ret gpuport_sass_##name
// Target hooks (semantics/target_<target>.cc): what only the target can do. Named
// gpuport_hook_<name>. A warp here is NVIDIA's: 32 threads.
#define SASS_HOOK(ret, name) SASS_EXTERN ret gpuport_hook_##name
// Marks a declaration whose result depends on the other lanes of the warp or block (warp hooks,
// warp semantics): LLVM must not move such a call across divergent control flow. Written after
// the declarator: `SASS_HOOK(sass_u32, ballot)(bool value) SASS_CONVERGENT;`.
#if defined(__clang__)
#define SASS_CONVERGENT __attribute__((convergent))
#else
#define SASS_CONVERGENT
#endif

// ---- marks the lifter resolves ------------------------------------------------------------------
// NVIDIA's FP32 arithmetic writes one NaN, 0x7fffffff, for every NaN result, where AMD's keeps an
// operand's payload. gpuport_mark_nan_f32(r) is "r, a NaN made NVIDIA's". The native target
// defines it; the GPU targets leave it undefined, and after optimisation the lifter resolves each
// call (lower.cc: resolve_nan_marks): the select stays where the result's bits can be seen (a
// store, an integer operation, another lane) and goes where the value only reaches arithmetic,
// compares, conversions to integers and further marks, which give the same results for any NaN.
SASS_EXTERN float gpuport_mark_nan_f32(float r) __attribute__((const));

// ---- target hooks -------------------------------------------------------------------------------
SASS_HOOK(sass_u32, thread_id)(sass_u32 dim);       // SR_TID.X/Y/Z
SASS_HOOK(sass_u32, block_id)(sass_u32 dim);        // SR_CTAID.X/Y/Z
SASS_HOOK(sass_u32, block_size)(sass_u32 dim);      // ntid: c[0x0][0x0..0x8]
SASS_HOOK(sass_u32, grid_size)(sass_u32 dim);       // nctaid: c[0x0][0xc..0x14]
SASS_HOOK(sass_u32, lane_id)(void);                 // SR_LANEID: 0..31
// The lanes of this warp that execute the calling instruction (bit i = lane i).
SASS_HOOK(sass_u32, active_mask)(void) SASS_CONVERGENT;
// Bit i set when lane i of the warp is active and passes `value` true.
SASS_HOOK(sass_u32, ballot)(bool value) SASS_CONVERGENT;
// `value` of lane `lane` (0..31) of this warp; undefined when that lane is not active.
SASS_HOOK(sass_u32, read_lane)(sass_u32 value, sass_u32 lane) SASS_CONVERGENT;
SASS_HOOK(void, block_barrier)(void) SASS_CONVERGENT;  // BAR.SYNC 0 with every thread
SASS_HOOK(void, fence)(sass_u32 scope);             // 0 block (CTA), 1 device (GPU), 2 system
SASS_HOOK(sass_u64, clock)(void);                   // SR_CLOCKLO/HI, CS2R SR_CLOCKLO
SASS_HOOK(sass_u64, global_timer)(void);            // SR_GLOBALTIMERLO/HI (nanoseconds)
SASS_HOOK(void, trap)(void);                        // BPT.TRAP, __trap()
SASS_HOOK(void, sleep)(sass_u32 nanoseconds);       // NANOSLEEP
// BAR.RED.op: a barrier of every thread of the block that also reduces one predicate per thread:
// op 0 POPC (how many threads passed true), 1 AND (1 when all did, else 0), 2 OR (1 when any did).
// `scratch`: two words of block-shared memory the lifter reserves for it (LDS on AMD).
enum { SASS_BLOCK_POPC = 0, SASS_BLOCK_AND = 1, SASS_BLOCK_OR = 2 };
SASS_HOOK(sass_u32, block_reduce)(sass_u32* scratch, sass_u32 op, bool value) SASS_CONVERGENT;
// CUDA's device printf as nvcc calls it: vprintf(format, arguments), the arguments packed in a
// buffer each at its natural alignment (ints 4 bytes; long, pointers, strings and doubles 8, floats
// promoted to double). Prints through the target's printf; returns the number of arguments.
SASS_HOOK(sass_u32, vprintf)(const char* format, const char* arguments) SASS_CONVERGENT;
// CUDA's failed assert (__assertfail): prints CUDA's message with the block and thread ids, then
// aborts the kernel (trap).
SASS_HOOK(void, assert_fail)(const char* message, const char* file, sass_u32 line, const char* function) SASS_CONVERGENT;
// The hardware's approximations (MUFU): each target uses its own unit where it has one.
SASS_HOOK(float, rcp_approx)(float x);
SASS_HOOK(float, rsqrt_approx)(float x);
SASS_HOOK(float, sqrt_approx)(float x);
SASS_HOOK(float, exp2_approx)(float x);
SASS_HOOK(float, log2_approx)(float x);
SASS_HOOK(float, sin_approx)(float x);  // of x revolutions (x * 2 pi radians), as MUFU.SIN takes it
SASS_HOOK(float, cos_approx)(float x);  // of x revolutions
SASS_HOOK(float, tanh_approx)(float x);
