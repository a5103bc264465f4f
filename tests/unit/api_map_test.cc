#include <gtest/gtest.h>

#include "maps/api_map.h"
#include "test_support.h"

namespace gpuport::maps {
namespace {

TEST(ApiMap, FindsNamesHeadersAndRules) {
  const auto& m = testing::small_map();
  ASSERT_NE(m.find("cudaMalloc"), nullptr);
  EXPECT_EQ(m.find("cudaMalloc")->hip, "hipMalloc");
  EXPECT_EQ(m.find("hipMalloc"), nullptr);
  EXPECT_EQ(m.find("cuda_runtime.h"), nullptr);  // headers are looked up apart
  ASSERT_NE(m.find_header("cuda_runtime.h"), nullptr);
  EXPECT_EQ(m.find_header("cuda_runtime.h")->hip, "hip/hip_runtime.h");
  EXPECT_EQ(m.call_rules("cudaEventCreate").size(), 1u);
  EXPECT_TRUE(m.call_rules("cudaMalloc").empty());
}

TEST(ApiMap, RejectsMalformedRowsNamingFileAndLine) {
  auto r = ApiMap::load({{"curated/bad.tsv", "# comment\ncudaX\thipX\tfunction\truntime\n"
                                             "cudaY\thipY\twidget\truntime\tsupported\n"
                                             "cudaZ\t-\tfunction\truntime\tsupported\n"
                                             "cudaW\thipW\tfunction\truntime\tunsupported\n"}});
  ASSERT_FALSE(r.ok());
  ASSERT_EQ(r.diagnostics().size(), 4u);
  EXPECT_EQ(r.diagnostics()[0].location.file, "curated/bad.tsv");
  EXPECT_EQ(r.diagnostics()[0].location.line, 2u);
  EXPECT_NE(r.diagnostics()[1].message.find("widget"), std::string::npos);
  EXPECT_EQ(r.diagnostics()[3].location.line, 5u);
}

TEST(ApiMap, RejectsDuplicatesWithinCuratedFiles) {
  auto r = ApiMap::load({{"curated/a.tsv", "cudaX\thipX\tfunction\truntime\tsupported\n"},
                         {"curated/b.tsv", "cudaX\thipY\tfunction\truntime\tsupported\n"}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics()[0].message.find("curated/a.tsv:1"), std::string::npos);
}

TEST(ApiMap, CuratedRowsOverrideGeneratedOnes) {
  auto r = ApiMap::load({{"curated/a.tsv", "cudaX\thipBetter\tfunction\truntime\tsupported\n"},
                         {"generated/runtime.tsv", "cudaX\thipX\tfunction\truntime\tsupported\n"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->find("cudaX")->hip, "hipBetter");
  EXPECT_EQ(r->overrides().size(), 1u);
}

TEST(ApiMap, SpellingsMapAsTheNameTheySpellCuratedRowsIncluded) {
  auto r = ApiMap::load({{"generated/driver.tsv", "CUx\t-\ttype\tdriver\tunsupported\nCUy\thipY\ttype\tdriver\tsupported\n"},
                         {"curated/driver.tsv", "CUx\thipX\ttype\tdriver\tsupported\nCUy_v2\thipOwn\ttype\tdriver\tsupported\n"},
                         {"generated/spellings.tsv", "# spelling\tspells\tfamily\nCUx_st\tCUx\tdriver\nCUy_v2\tCUy\tdriver\n"
                                                     "CUz_enum\tCUz\tdriver\n"}});
  ASSERT_TRUE(r) << r.diagnostics().front().message;
  ASSERT_NE(r->find("CUx_st"), nullptr);
  EXPECT_EQ(r->find("CUx_st")->hip, "hipX");  // the curated correction of CUx, not the generated row
  EXPECT_EQ(r->find("CUx_st")->status, Status::supported);
  EXPECT_EQ(r->find("CUy_v2")->hip, "hipOwn");  // a row of its own wins
  EXPECT_EQ(r->find("CUz_enum"), nullptr);      // spells a name without a row: none
  auto bad = ApiMap::load({{"generated/spellings.tsv", "CUx_st\tCUx\n"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.diagnostics().front().location.file, "generated/spellings.tsv");
  EXPECT_EQ(bad.diagnostics().front().location.line, 1u);
}

TEST(ApiMap, RejectsBadCallRules) {
  auto r = ApiMap::load({{"curated/calls.tsv", "cudaX\tmany\trename\t-\thipY\ncudaX\t*\twrap\t-\tHIP_SYMBOL\n"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics().size(), 2u);
}

TEST(ApiMap, EmbeddedTablesLoadCleanly) {
  auto r = ApiMap::load_embedded();
  ASSERT_TRUE(r.ok()) << format_diagnostic(r.diagnostics().front());
  EXPECT_GT(r->entries().size(), 100u);
}

TEST(ApiMap, DirectoryTablesMatchEmbeddedOnes) {
  auto dir = ApiMap::load_directory(std::string(GPUPORT_SOURCE_DIR) + "/data/maps");
  auto embedded = ApiMap::load_embedded();
  ASSERT_TRUE(dir.ok());
  ASSERT_TRUE(embedded.ok());
  EXPECT_EQ(dir->entries().size(), embedded->entries().size());
  EXPECT_EQ(dir->rules().size(), embedded->rules().size());
}

// The roc/ layer is loaded only with --roc; then its rows replace generated and curated ones of
// the same name (and headers of the same path) without counting as curated overrides, and
// duplicates within one roc/ layer are still errors.
TEST(ApiMap, RocLayerOnlyWithRocAndOverridesTheHipRows) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"generated/lib.tsv", "cublasX\thipblasX\tfunction\tcublas\tsupported\n"},
      {"curated/lib.tsv", "cublasY\thipblasY\tfunction\tcublas\tsupported\nlib.h\thipblas/hipblas.h\theader\theaders\tsupported\n"},
      {"roc/generated/lib.tsv", "cublasX\trocblas_x\tfunction\tcublas\tsupported\ncublasY\t-\tfunction\tcublas\tunsupported\n"},
      {"roc/curated/lib.tsv", "cublasY\trocblas_y\tfunction\tcublas\tsupported\nlib.h\trocblas/rocblas.h\theader\theaders\tsupported\n"}};
  auto hip = ApiMap::load(files);
  ASSERT_TRUE(hip.ok()) << format_diagnostic(hip.diagnostics().front());
  EXPECT_EQ(hip->find("cublasX")->hip, "hipblasX");
  EXPECT_EQ(hip->find("cublasY")->hip, "hipblasY");
  EXPECT_EQ(hip->find_header("lib.h")->hip, "hipblas/hipblas.h");
  auto roc = ApiMap::load(files, {.roc = true});
  ASSERT_TRUE(roc.ok()) << format_diagnostic(roc.diagnostics().front());
  EXPECT_EQ(roc->find("cublasX")->hip, "rocblas_x");
  EXPECT_EQ(roc->find("cublasY")->hip, "rocblas_y");  // roc/curated over roc/generated over curated
  EXPECT_EQ(roc->find_header("lib.h")->hip, "rocblas/rocblas.h");
  EXPECT_EQ(roc->overrides().size(), 1u);  // only roc/curated over roc/generated is listed
  auto dup = ApiMap::load({{"roc/generated/a.tsv", "cublasX\trocblas_x\tfunction\tcublas\tsupported\n"},
                           {"roc/generated/b.tsv", "cublasX\trocblas_z\tfunction\tcublas\tsupported\n"}},
                          {.roc = true});
  EXPECT_FALSE(dup.ok());
}

// hip-<version>/ layers load with --hip-version at or above their version, oldest first, above
// the default tables and below the roc/ ones.
TEST(ApiMap, HipVersionLayersLoadUpToTheRequestedVersion) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"generated/r.tsv", "cudaX\t-\tfunction\truntime\tunsupported\ncudaY\t-\tfunction\truntime\tunsupported\n"},
      {"hip-6.2/generated/r.tsv", "cudaX\thipX62\tfunction\truntime\tsupported\n"},
      {"hip-6.10/generated/r.tsv", "cudaX\thipX610\tfunction\truntime\tsupported\ncudaY\thipY\tfunction\truntime\tsupported\n"}};
  auto plain = ApiMap::load(files);
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->find("cudaX")->status, Status::unsupported);
  auto v62 = ApiMap::load(files, {.hip_version = "6.2"});
  ASSERT_TRUE(v62.ok());
  EXPECT_EQ(v62->find("cudaX")->hip, "hipX62");
  EXPECT_EQ(v62->find("cudaY")->status, Status::unsupported);
  auto v610 = ApiMap::load(files, {.hip_version = "6.10"});  // 6.10 is newer than 6.2
  ASSERT_TRUE(v610.ok());
  EXPECT_EQ(v610->find("cudaX")->hip, "hipX610");
  EXPECT_EQ(v610->find("cudaY")->hip, "hipY");
}

TEST(ApiMap, EmbeddedRocTablesLoadCleanly) {
  auto r = ApiMap::load_embedded({.roc = true});
  ASSERT_TRUE(r.ok()) << format_diagnostic(r.diagnostics().front());
  EXPECT_EQ(r->find("cublasSgemm_v2")->hip, "rocblas_sgemm");
  EXPECT_EQ(r->find_header("cublas_v2.h")->hip, "rocblas/rocblas.h");
  auto plain = ApiMap::load_embedded();
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->find("cublasSgemm_v2")->hip, "hipblasSgemm");
  auto v62 = ApiMap::load_embedded({.hip_version = "6.2"});
  ASSERT_TRUE(v62.ok()) << format_diagnostic(v62.diagnostics().front());
  EXPECT_EQ(plain->find("CUDART_INF_F")->status, Status::unsupported);
  EXPECT_EQ(v62->find("CUDART_INF_F")->hip, "HIP_INF_F");
  EXPECT_EQ(v62->find_header("math_constants.h")->hip, "hip/hip_math_constants.h");
}

}  // namespace
}  // namespace gpuport::maps

namespace gpuport::maps {
namespace {

// The HIP -> CUDA tables are the embedded CUDA -> HIP ones read the other way: where several
// CUDA names map to one HIP name, the one the HIP name spells wins, then the runtime API.
TEST(ApiMapReversed, PicksTheCudaNameTheHipNameSpells) {
  auto forward = ApiMap::load_embedded();
  ASSERT_TRUE(forward.ok());
  const ApiMap r = forward->reversed();
  auto to_cuda = [&](std::string_view hip) {
    const ApiEntry* e = r.find(hip);
    return e ? e->hip : std::string("(none)");
  };
  EXPECT_EQ(to_cuda("hipMemcpy"), "cudaMemcpy");  // not the driver's cuMemcpy
  EXPECT_EQ(to_cuda("hipStream_t"), "cudaStream_t");
  EXPECT_EQ(to_cuda("hipblasSgemm"), "cublasSgemm");
  EXPECT_EQ(to_cuda("hiprandState_t"), "curandState_t");
  EXPECT_EQ(to_cuda("hipModuleLaunchKernel"), "cuLaunchKernel");  // the driver API where only it maps
  EXPECT_EQ(to_cuda("__HIP_DEVICE_COMPILE__"), "__CUDA_ARCH__");
  // Names both APIs have stay (atomicAdd_block also maps to atomicAdd), as do C++ types that a
  // functional cast maps to (__bfloat162float -> float).
  EXPECT_EQ(r.find("atomicAdd"), nullptr);
  EXPECT_EQ(r.find("float"), nullptr);
  // The legacy mask-less warp functions exist in CUDA only below sm_70: their _sync twin wins,
  // with the full-warp mask inserted.
  EXPECT_EQ(to_cuda("__ballot"), "__ballot_sync");
  ASSERT_EQ(r.call_rules("__ballot").size(), 1u);
  EXPECT_EQ(r.call_rules("__ballot")[0].action, CallAction::insert);
  EXPECT_EQ(r.call_rules("__ballot")[0].value, "0xffffffffu");
  ASSERT_NE(r.find_header("hip/hip_runtime.h"), nullptr);
  EXPECT_EQ(r.find_header("hip/hip_runtime.h")->hip, "cuda_runtime.h");
  ASSERT_NE(r.find_header("hiprand/hiprand_kernel.h"), nullptr);
  EXPECT_EQ(r.find_header("hiprand/hiprand_kernel.h")->hip, "curand_kernel.h");
  // Unsupported rows have no reverse: nothing maps to "-".
  EXPECT_EQ(r.find("-"), nullptr);
}

}  // namespace
}  // namespace gpuport::maps
