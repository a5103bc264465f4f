// lanes.h as the lifter calls it: one extern "C" function per lane operation, compiled by
// clang-19 to LLVM bitcode when gpuport is built (src/CMakeLists.txt) and embedded in the
// emulator. The lifter (lift.cc) links the functions it calls into each kernel's module, where
// they are inlined into the lane loops. Names: gpuport_lane_<family>_<operation>.
#include "emu/lanes.h"

using namespace gpuport::emu::lanes;

extern "C" {

#define GPUPORT_INT_WRAPPER(n) \
  u32 gpuport_lane_int_##n(u32 x, u32 y, u32 z, u32 lane) { return int_op<I::n>(x, y, z, lane, false); }
GPUPORT_LANE_INT_OPS(GPUPORT_INT_WRAPPER)

#define GPUPORT_F2_WRAPPER(n) \
  float gpuport_lane_f32_##n(float x, float y) { return f2_op<F2::n>(x, y); }
GPUPORT_LANE_F2_OPS(GPUPORT_F2_WRAPPER)

u32 gpuport_lane_carry(u32 op, u32 a, u32 b, u32 ci, bool* carry) {
  switch (op) {
    case 0: return carry_op<0>(a, b, ci, *carry);
    case 1: return carry_op<1>(a, b, ci, *carry);
    case 2: return carry_op<2>(a, b, ci, *carry);
    case 3: return carry_op<3>(a, b, ci, *carry);
    case 4: return carry_op<4>(a, b, ci, *carry);
    default: return carry_op<5>(a, b, ci, *carry);
  }
}
u64 gpuport_lane_mad64(u32 is_signed, u32 x, u32 y, u64 c, bool* carry) {
  return is_signed ? mad64_op<true>(x, y, c, *carry) : mad64_op<false>(x, y, c, *carry);
}
u64 gpuport_lane_shift64(u32 op, u32 shift, u64 x) {
  return op == 0 ? shift64_op<0>(shift, x) : op == 1 ? shift64_op<1>(shift, x) : shift64_op<2>(shift, x);
}

float gpuport_lane_fma_f32(float a, float b, float c) { return fma_f32(a, b, c); }

#define GPUPORT_D2_WRAPPER(n) \
  double gpuport_lane_f64_##n(double x, double y, double z) { return d2_op<D2::n>(x, y, z); }
GPUPORT_LANE_D2_OPS(GPUPORT_D2_WRAPPER)

#define GPUPORT_F1_WRAPPER(n) \
  float gpuport_lane_f1_##n(float x) { return f1_op<F1::n>(x); }
GPUPORT_LANE_F1_OPS(GPUPORT_F1_WRAPPER)

#define GPUPORT_CV32_WRAPPER(n) \
  u32 gpuport_lane_cv32_##n(u32 x) { return cv32_op<Cv::n>(x); }
GPUPORT_LANE_CV32_OPS(GPUPORT_CV32_WRAPPER)

float gpuport_lane_div_scale_f32(float s0, float den, float num, bool* scaled) { return div_scale_op<float>(s0, den, num, *scaled); }
float gpuport_lane_div_fmas_f32(float a, float b, float c, bool scaled) { return div_fmas_op<float>(a, b, c, scaled); }
float gpuport_lane_div_fixup_f32(float q, float den, float num) { return div_fixup_op<float>(q, den, num); }

bool gpuport_lane_compare_f32(float x, float y, u32 cond) { return compare_float(x, y, cond); }
bool gpuport_lane_compare_f64(double x, double y, u32 cond) { return compare_float(x, y, cond); }
bool gpuport_lane_compare_i32(u32 x, u32 y, u32 cond) { return compare_int<i32>(static_cast<i32>(x), static_cast<i32>(y), cond); }
bool gpuport_lane_compare_u32(u32 x, u32 y, u32 cond) { return compare_int<u32>(x, y, cond); }
bool gpuport_lane_compare_i64(u64 x, u64 y, u32 cond) { return compare_int<i64>(static_cast<i64>(x), static_cast<i64>(y), cond); }
bool gpuport_lane_compare_u64(u64 x, u64 y, u32 cond) { return compare_int<u64>(x, y, cond); }
bool gpuport_lane_class_f32(u32 bits, u32 classes) { return class_f32(bits, classes); }
u32 gpuport_lane_permute_lane(u32 lane, u32 address) { return permute_lane(lane, address); }

#define GPUPORT_S1_WRAPPER(n) \
  u64 gpuport_lane_s1_##n(u64 x, u64 old, u64 lanes, bool* scc) { return s1_op<S1::n>(x, old, lanes, *scc); }
GPUPORT_LANE_S1_OPS(GPUPORT_S1_WRAPPER)

#define GPUPORT_S2_WRAPPER(n) \
  u32 gpuport_lane_s2_##n(u32 a, u32 b, bool* scc) { return s2_op<S2::n>(a, b, *scc); }
GPUPORT_LANE_S2_OPS(GPUPORT_S2_WRAPPER)

#define GPUPORT_BITS_WRAPPER(n)                                                                   \
  u32 gpuport_lane_bits32_##n(u32 a, u32 b, bool* scc) { return bits_op<u32, Bits::n>(a, b, *scc); } \
  u64 gpuport_lane_bits64_##n(u64 a, u64 b, bool* scc) { return bits_op<u64, Bits::n>(a, b, *scc); }
GPUPORT_LANE_BITS_OPS(GPUPORT_BITS_WRAPPER)

}  // extern "C"

// s_cmp's condition as a run-time value (the lifter passes a constant, folded after inlining).
template <bool Signed>
static bool scmp_by_condition(u32 a, u32 b, u32 cond) {
  switch (cond) {
    case 0: return scmp_op<0, Signed>(a, b);
    case 1: return scmp_op<1, Signed>(a, b);
    case 2: return scmp_op<2, Signed>(a, b);
    case 3: return scmp_op<3, Signed>(a, b);
    case 4: return scmp_op<4, Signed>(a, b);
    default: return scmp_op<5, Signed>(a, b);
  }
}

extern "C" {
bool gpuport_lane_scmp_u32(u32 a, u32 b, u32 cond) { return scmp_by_condition<false>(a, b, cond); }
bool gpuport_lane_scmp_i32(u32 a, u32 b, u32 cond) { return scmp_by_condition<true>(a, b, cond); }

}  // extern "C"
