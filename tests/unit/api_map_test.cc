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

}  // namespace
}  // namespace gpuport::maps
