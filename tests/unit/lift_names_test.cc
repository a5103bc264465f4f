// nvcc's mangled kernel and variable names to the names a HIP program registers (lift/hip_names.h).
// Each expected name is clang-19's own mangling of the same declarations in the HIP translation
// (clang -x hip --cuda-device-only -emit-llvm), each input nvcc 11.8's (cuobjdump -symbols).
#include <gtest/gtest.h>

#include "lift/hip_names.h"

namespace {

using gpuport::lift::hip_mangled_name;

struct Pair {
  const char* nvcc;
  const char* hip;
};

TEST(LiftNames, NamesAsClangManglesTheHipTranslation) {
  const Pair pairs[] = {
      // Nothing to change: the same name.
      {"_Z4pullILi256EEvPKiS1_PKfS3_PfiS4_", "_Z4pullILi256EEvPKiS1_PKfS3_PfiS4_"},
      {"_Z3genIdEvPT_S0_PKS0_", "_Z3genIdEvPT_S0_PKS0_"},
      {"_ZN2ns5innerEPNS_1PES0_PKS0_P6uchar4S4_", "_ZN2ns5innerEPNS_1PES0_PKS0_P15HIP_vector_typeIhLj4EES5_"},
      // Vector types: HIP_vector_type<T, N>, its template name a substitution of its own.
      {"_Z3vecP6float4S0_PK6float2S1_P4int2PKS4_", "_Z3vecP15HIP_vector_typeIfLj4EES1_PKS_IfLj2EES2_PS_IiLj2EEPKS5_"},
      {"_Z3genI6float4EvPT_S1_PKS1_", "_Z3genI15HIP_vector_typeIfLj4EEEvPT_S2_PKS2_"},
      // The anonymous namespace as clang writes it.
      {"_ZN36_GLOBAL__N__a72d9355_4_k_cu_939273b63crcEPK5uint4PKjPji", "_ZN12_GLOBAL__N_13crcEPK15HIP_vector_typeIjLj4EEPKjPji"},
      {"_ZN5outer36_GLOBAL__N__a72d9355_4_k_cu_939273b62tkI6float2Lin3EEEvPKT_PS3_ib",
       "_ZN5outer12_GLOBAL__N_12tkI15HIP_vector_typeIfLj2EELin3EEEvPKT_PS4_ib"},
      // cuRAND's state is hipRAND's, double2 HIP's vector.
      {"_Z3rngP17curandStateXORWOWyP7double2", "_Z3rngP12hiprandStateyP15HIP_vector_typeIdLj2EE"},
      // Variables: nvcc's _INTERNAL_ namespace goes (the host registers the names below).
      {"_ZN34_INTERNAL_a72d9355_4_k_cu_939273b636_GLOBAL__N__a72d9355_4_k_cu_939273b67counterE", "_ZN12_GLOBAL__N_17counterE"},
      {"_ZN34_INTERNAL_a72d9355_4_k_cu_939273b636_GLOBAL__N__a72d9355_4_k_cu_939273b66coeffsE", "_ZN12_GLOBAL__N_16coeffsE"},
      // Not mangled: as it is.
      {"table", "table"},
  };
  for (const auto& p : pairs) {
    const auto got = hip_mangled_name(p.nvcc);
    EXPECT_EQ(got.reason, "") << p.nvcc;
    EXPECT_EQ(got.name, p.hip) << p.nvcc;
  }
}

TEST(LiftNames, StaticKernelsAreMarkedInternalAsClangMarksThem) {
  // static __global__ void sk(float*): nvcc _Z2skPf (its cubin symbol is STB_LOCAL), clang _ZL2skPf.
  EXPECT_EQ(hip_mangled_name("_Z2skPf", true).name, "_ZL2skPf");
  EXPECT_EQ(hip_mangled_name("_Z2skPf", false).name, "_Z2skPf");
  // In a named namespace the L goes before the function's own name; in the anonymous namespace
  // there is none (the namespace makes it internal).
  EXPECT_EQ(hip_mangled_name("_ZN2ns2skEPf", true).name, "_ZN2nsL2skEPf");
  EXPECT_EQ(hip_mangled_name("_ZN36_GLOBAL__N__a72d9355_4_k_cu_939273b62skEPf", true).name, "_ZN12_GLOBAL__N_12skEPf");
}

TEST(LiftNames, VariablesInNvccsInternalNamespaceAreClangsStatics) {
  // `static __device__ int x;` and `namespace ns { static __device__ int y; }`: nvcc wraps them in
  // _INTERNAL_<hash> (the first only where it is mangled); clang writes _ZL1x and _ZN2nsL1yE. In an
  // anonymous namespace, no L.
  EXPECT_EQ(hip_mangled_name("_ZN34_INTERNAL_a72d9355_4_k_cu_939273b61xE").name, "_ZL1x");
  EXPECT_EQ(hip_mangled_name("_ZN33_INTERNAL_79317a17_5_st_cu__Z1kPi2ns1yE").name, "_ZN2nsL1yE");  // nvcc 11.8, clang-19
  EXPECT_EQ(hip_mangled_name("_ZN38_INTERNAL_195921c1_8_names_cu_208e45452ns40_GLOBAL__N__195921c1_8_names_cu_208e45453n_dE").name,
            "_ZN2ns12_GLOBAL__N_13n_dE");
}

TEST(LiftNames, WhatItCannotRemangleIsSaidNotGuessed) {
  // A member function (const): not a kernel; the reason names it and the name stays.
  const auto member = hip_mangled_name("_ZNK3Foo3barEv");
  EXPECT_NE(member.reason, "");
  EXPECT_EQ(member.name, "_ZNK3Foo3barEv");
  const auto garbage = hip_mangled_name("_Z3foo!!");
  EXPECT_NE(garbage.reason, "");
  EXPECT_EQ(garbage.name, "_Z3foo!!");
}

}  // namespace
