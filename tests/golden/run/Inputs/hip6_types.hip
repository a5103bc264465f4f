// The number types HIP 6 adds or changes, computed on the emulated gfx1100 and checked against
// the CPU: bfloat16 (hip/hip_bf16.h) conversions with round-to-nearest-even, computed on the CPU
// from the float's bits; OCP fp8 (hip/hip_fp8.h, e4m3 and e5m2) conversions, checked against the
// same header's host code; __half2, whose .x and .y are __half in HIP 6 (raw bits in 5.2); and
// HIP 6's device properties.
// Built against HIP 6.4 only (run/hip64-abi.test).
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "hip_check.h"

constexpr int kValues = 64;

__global__ void convert(const float* in, float* bf16_back, float* bf16_sum, float* e4m3_back, float* e5m2_back, float* halves,
                        __half2 pair) {
  const int i = threadIdx.x;
  const __hip_bfloat16 b = __float2bfloat16(in[i]);
  bf16_back[i] = __bfloat162float(b);
  bf16_sum[i] = __bfloat162float(__hadd(b, __float2bfloat16(1.0f)));
  e4m3_back[i] = static_cast<float>(__hip_fp8_e4m3(in[i]));
  e5m2_back[i] = static_cast<float>(__hip_fp8_e5m2(in[i]));
  if (i == 0) {
    halves[0] = __half2float(pair.x);  // a __half in HIP 6
    halves[1] = __half2float(pair.y);
  }
}

// float -> bfloat16 -> float on the CPU: round to nearest, ties to even, on the float's bits.
static float bf16_round(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  if (std::isnan(v)) bits = (bits | 0x00400000u) & 0xffff0000u;
  else bits = (bits + 0x7fffu + ((bits >> 16) & 1u)) & 0xffff0000u;
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

static bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, 4) == 0; }

int main() {
  // HIP 6's device properties (hipDeviceProp_tR0600, hipGetDevicePropertiesR0600), with members
  // HIP 5.2's lacked.
  hipDeviceProp_t prop;
  EXPECT_OK(hipGetDeviceProperties(&prop, 0));
  EXPECT(std::strcmp(prop.gcnArchName, "gfx1100") == 0 && prop.warpSize == 32 && prop.major == 11);
  EXPECT(prop.maxBlocksPerMultiProcessor > 0 && prop.unifiedAddressing == 1 && prop.sharedMemPerMultiprocessor == 65536);

  float in[kValues];
  for (int i = 0; i < kValues; ++i) in[i] = std::ldexp(static_cast<float>(i * 37 % 101) - 50.0f, i % 9 - 4) + 0.001953125f * i;
  in[0] = 1.00390625f;  // halfway between two bfloat16 values: ties to even gives 1.0
  in[1] = 1.01171875f;  // halfway, rounds up to the even 1.015625
  in[2] = -0.0f;
  in[3] = 65504.0f;
  in[4] = 500.0f;       // above e4m3's largest finite value (448): saturates
  in[5] = NAN;
  float *d_in, *d_out;
  EXPECT_OK(hipMalloc(&d_in, sizeof in));
  EXPECT_OK(hipMalloc(&d_out, 4 * sizeof in + 2 * sizeof(float)));
  EXPECT_OK(hipMemcpy(d_in, in, sizeof in, hipMemcpyHostToDevice));
  const __half2 pair = __floats2half2_rn(-14.0f, 3.5f);
  convert<<<1, kValues>>>(d_in, d_out, d_out + kValues, d_out + 2 * kValues, d_out + 3 * kValues, d_out + 4 * kValues, pair);
  EXPECT_OK(hipGetLastError());
  float out[4 * kValues + 2];
  EXPECT_OK(hipMemcpy(out, d_out, sizeof out, hipMemcpyDeviceToHost));
  int bf16_wrong = 0, sum_wrong = 0, e4m3_wrong = 0, e5m2_wrong = 0;
  for (int i = 0; i < kValues; ++i) {
    bf16_wrong += !same(out[i], bf16_round(in[i]));
    sum_wrong += !same(out[kValues + i], bf16_round(bf16_round(in[i]) + 1.0f));
    e4m3_wrong += !same(out[2 * kValues + i], static_cast<float>(__hip_fp8_e4m3(in[i])));
    e5m2_wrong += !same(out[3 * kValues + i], static_cast<float>(__hip_fp8_e5m2(in[i])));
  }
  EXPECT(bf16_wrong == 0);
  EXPECT(out[0] == 1.0f && out[1] == 1.015625f);
  EXPECT(sum_wrong == 0);
  EXPECT(e4m3_wrong == 0);
  EXPECT(out[2 * kValues + 4] == 448.0f);
  EXPECT(e5m2_wrong == 0);
  EXPECT(out[4 * kValues] == -14.0f && out[4 * kValues + 1] == 3.5f);
  std::printf("bf16 %d wrong, e4m3 %d wrong, e5m2 %d wrong\n", bf16_wrong + sum_wrong, e4m3_wrong, e5m2_wrong);
  EXPECT_OK(hipFree(d_in));
  EXPECT_OK(hipFree(d_out));
  return finish("hip6_types");
}
