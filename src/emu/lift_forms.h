// What the lifter (lift.cc) learns from the interpreter's binding of a prepared step: the family
// and operation whose per-lane meaning (lanes.h) it may compile in place of a call to the step's
// handler. The semantic families answer from the handler they bound, so the mnemonic -> meaning
// table stays the one in each semantics_*.cc file. Kind::none: the lifter calls the handler.
#pragma once

#include <cstdint>

#include "emu/machine.h"

namespace gpuport::emu {

struct LiftForm {
  enum class Kind : std::uint8_t {
    none,
    nop,         // s_waitcnt, s_nop, s_delay_alu, s_clause: nothing in a functional model
    branch,      // op: 0 always, 1 scc, 2 !scc, 3 vccz, 4 vccnz, 5 execz, 6 execnz
    int_op,      // op: lanes::I (vop_int)
    f32_binary,  // op: lanes::F2 other than ldexp (vop2_f32)
    f32_unary,   // op: lanes::F1 (vop1_f32)
    convert32,   // op: lanes::Cv, one of GPUPORT_LANE_CV32_OPS (convert)
    div_scale,   // v_div_scale_f32 / v_div_fmas_f32 / v_div_fixup_f32 (f32 only)
    div_fmas,
    div_fixup,
    fma_f32,     // op: the fma form 0..3 (fma, fmac, fmamk, fmaak)
    f64_binary,  // op: lanes::D2, one of GPUPORT_LANE_D2_OPS (vop_f64: add, mul, min, max, fma)
    compare,     // v_cmp / v_cmpx (not class): the step's param is the condition, param2 the type
    compare_class,  // v_cmp_class / v_cmpx_class: param2 the type (f32 lifted)
    cndmask,     // v_cndmask_b32
    carry,       // op: the carry form 0..5 (lanes::carry_op)
    mad64,       // op: 1 for v_mad_i64_i32, 0 for v_mad_u64_u32
    shift64,     // op: lanes::shift64_op's
    scalar_op,       // op: lanes::S2 (sop2)
    scalar_bits,     // op: lanes::Bits; wide: the _b64 form (sop2_bits)
    scalar_compare,  // op: the condition (lanes::scmp_op); is_signed: _i32 (scmp, 32-bit)
    scalar_unary,    // op: lanes::S1, one of GPUPORT_LANE_S1_OPS (sop1)
    read_lane,       // v_readfirstlane_b32 (op 0), v_readlane_b32 (op 1)
    global_load,     // global_ and flat_load_b32..b128 (vmem_load, space 0 and 3): op is the dword count
    global_store,    // global_ and flat_store_b32..b128 (vmem_store, space 0 and 3): op is the dword count
    scalar_load,     // s_load_b32..b512 (s_load, not the buffer form): op is the dword count
    lds_load,        // ds_load_b32..b128 (ds_load): op is the dword count
    lds_store,       // ds_store_b32..b128 (ds_store): op is the dword count
    lds_load2,       // ds_load_2addr[_stride64]_b32/b64 (ds_2addr): op is the dwords per element;
    lds_store2,      // wide: the stride64 form (offsets times 64 elements)
    lane_permute,    // ds_bpermute_b32: each lane reads another lane's VGPR (lanes::permute_lane)
    get_pc,          // s_getpc_b64: the next instruction's address (the code object's load address + its own)
  };
  Kind kind = Kind::none;
  std::uint32_t op = 0;
  bool writes_exec = false;  // v_cmpx
  bool wide = false, is_signed = false;
};

LiftForm scalar_lift_form(Handler h);  // semantics_scalar.cc
LiftForm vector_lift_form(Handler h);  // semantics_vector.cc
LiftForm memory_lift_form(const Step& s);  // semantics_memory.cc (the width is the step's)
LiftForm control_lift_form(Handler h);     // semantics_control.cc

// Marks the fused runs of a kernel's steps (Step::run_end, Step::run_interior; lift.cc): the
// longest stretches, from a step no branch goes into the middle of, of at most 64 steps that are
// no-ops, scalar ALU steps and lane steps the lifter compiles (two lane steps at least), within
// the kernel's own `own_steps` or its callees'. Such a run touches nothing but registers, and the
// JIT compiles it as one loop over the lanes that runs it whole: so both tiers end a wave's turn
// (a time slice, the look-ups every 65,536 instructions, the budget) only at a step that is no
// run's interior, where the interpreter and the compiled code stand at the same step.
void mark_fused_runs(std::vector<Step>& steps, std::size_t own_steps);

// The compare types of Step::param2 (semantics_vector.cc's order).
namespace compare_type {
constexpr std::uint32_t f16 = 0, f32 = 1, f64 = 2, i16 = 3, i32 = 4, i64 = 5, u16 = 6, u32 = 7, u64 = 8;
}

}  // namespace gpuport::emu
