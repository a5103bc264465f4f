// The CUDA toolkit folder's names header (verify/cuda_toolkit.h).
#include "verify/cuda_toolkit.h"

#include <gtest/gtest.h>

namespace gpuport::verify {
namespace {

maps::ApiMap load(const std::string& rows, const std::string& calls = "") {
  std::vector<std::pair<std::string, std::string>> files = {{"curated/runtime.tsv", rows}};
  if (!calls.empty()) files.emplace_back("curated/calls.tsv", calls);
  auto m = maps::ApiMap::load(files);
  EXPECT_TRUE(m.ok());
  return m.ok() ? std::move(*m) : maps::ApiMap();
}

TEST(CudaToolkit, NamesHeaderDefinesPlainRenames) {
  const auto map = load(
      "cudaMalloc\thipMalloc\tfunction\truntime\tsupported\n"
      "cudaSuccess\thipSuccess\tconstant\truntime\tsupported\n"
      "cudaStream_t\thipStream_t\ttype\truntime\tsupported\n"
      "cudaFuncSetSharedMemConfig\t-\tfunction\truntime\tunsupported\tnone\n"
      "cudaGetErrorName\thipGetErrorName\tfunction\truntime\tsupported\n"
      "__shfl\t__shfl\tdevice\tdevice\tsupported\n");
  const std::string h = cuda_names_header(map);
  EXPECT_NE(h.find("#define cudaMalloc hipMalloc\n"), std::string::npos);
  EXPECT_NE(h.find("#define cudaSuccess hipSuccess\n"), std::string::npos);
  EXPECT_NE(h.find("#define cudaStream_t hipStream_t\n"), std::string::npos);
  EXPECT_EQ(h.find("cudaFuncSetSharedMemConfig"), std::string::npos);  // no HIP twin
  EXPECT_EQ(h.find("__shfl"), std::string::npos);                      // same name, device code
  EXPECT_LT(h.find("cudaGetErrorName"), h.find("cudaMalloc"));         // sorted
  EXPECT_EQ(h.find("GPUPORT_CALL"), std::string::npos);                // no call rules, no dispatch
}

// C sees HIP's handle structs by CUDA's tags (a header may declare struct CUstream_st before
// the runtime); C++ keeps HIP's, so only C++ gets CUDA's tag as HIP's.
TEST(CudaToolkit, HandleTagsAreCudasInC) {
  const auto map = load(
      "CUstream_st\tihipStream_t\ttag\tdriver\tsupported\n"
      "CUuuid_st\thipUUID_t\ttag\tdriver\tsupported\n");
  const std::string tags = cuda_tags_header(map);
  EXPECT_NE(tags.find("#if !defined(__cplusplus)\n#define ihipStream_t CUstream_st\n#endif\n"), std::string::npos);
  EXPECT_EQ(tags.find("hipUUID_t"), std::string::npos);  // a complete struct, not a handle: left alone
  const std::string names = cuda_names_header(map);
  EXPECT_NE(names.find("#if defined(__cplusplus)\n#define CUstream_st ihipStream_t\n#endif\n"), std::string::npos);
  EXPECT_NE(names.find("#define CUuuid_st hipUUID_t\n"), std::string::npos);
}

// Calls the translator rewrites by their number of arguments are rewritten the same way by a
// macro that counts them.
TEST(CudaToolkit, NamesHeaderRewritesCallsAsTheCallRulesDo) {
  const auto map = load(
      "cudaEventCreate\thipEventCreate\tfunction\truntime\tsupported\n"
      "cudaMallocHost\thipMallocHost\tfunction\truntime\tsupported\n"
      "cublasSgemm\thipblasSgemm\tfunction\tcublas\tsupported\n",
      "cudaEventCreate\t2\trename\t-\thipEventCreateWithFlags\n"
      "cudaMallocHost\t2\tappend\t-\thipHostMallocDefault\n"
      "cudaMallocHost\t3\trename\t-\thipHostMalloc\n"
      "cudaMallocHost\t2\trename\t-\thipHostMalloc\n"
      "cublasSgemm\t13\tunsupported\t-\t-\n"
      "cublasSgemm\t*\twrap\t0\tgpuport_handle\n");
  const std::string h = cuda_names_header(map);
  EXPECT_NE(h.find("#define cudaEventCreate(...) GPUPORT_CALL(gpuport_cudaEventCreate_, __VA_ARGS__)\n"), std::string::npos);
  EXPECT_NE(h.find("#define gpuport_cudaEventCreate_1(a1) hipEventCreate(a1)\n"), std::string::npos);
  EXPECT_NE(h.find("#define gpuport_cudaEventCreate_2(a1, a2) hipEventCreateWithFlags(a1, a2)\n"), std::string::npos);
  EXPECT_NE(h.find("#define gpuport_cudaMallocHost_2(a1, a2) hipHostMalloc(a1, a2, hipHostMallocDefault)\n"), std::string::npos);
  EXPECT_NE(h.find("#define gpuport_cudaMallocHost_3(a1, a2, a3) hipHostMalloc(a1, a2, a3)\n"), std::string::npos);
  EXPECT_NE(h.find("#define gpuport_cublasSgemm_2(a1, a2) hipblasSgemm(gpuport_handle(a1), a2)\n"), std::string::npos);
  EXPECT_NE(h.find("#define gpuport_cublasSgemm_10(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) hipblasSgemm(gpuport_handle(a1), "),
            std::string::npos);
  EXPECT_EQ(h.find("#define cudaEventCreate hipEventCreate"), std::string::npos);  // the macro counts instead
}

}  // namespace
}  // namespace gpuport::verify
