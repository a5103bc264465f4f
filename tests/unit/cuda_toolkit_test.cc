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

TEST(CudaToolkit, NamesHeaderDefinesPlainRenamesOnly) {
  const auto map = load(
      "cudaMalloc\thipMalloc\tfunction\truntime\tsupported\n"
      "cudaSuccess\thipSuccess\tconstant\truntime\tsupported\n"
      "cudaStream_t\thipStream_t\ttype\truntime\tsupported\n"
      "cudaFuncSetSharedMemConfig\t-\tfunction\truntime\tunsupported\tnone\n"
      "cudaGetErrorName\thipGetErrorName\tfunction\truntime\tsupported\n"
      "__shfl\t__shfl\tdevice\tdevice\tsupported\n"
      "cudaLaunchKernel\thipLaunchKernel\tfunction\truntime\tsupported\n",
      "cudaLaunchKernel\t6\trename\t0\thipLaunchKernelGGL\n");
  const std::string h = cuda_names_header(map);
  EXPECT_NE(h.find("#define cudaMalloc hipMalloc\n"), std::string::npos);
  EXPECT_NE(h.find("#define cudaSuccess hipSuccess\n"), std::string::npos);
  EXPECT_NE(h.find("#define cudaStream_t hipStream_t\n"), std::string::npos);
  EXPECT_EQ(h.find("cudaFuncSetSharedMemConfig"), std::string::npos);  // no HIP twin
  EXPECT_EQ(h.find("__shfl"), std::string::npos);                      // same name, device code
  EXPECT_EQ(h.find("cudaLaunchKernel"), std::string::npos);            // its calls are rewritten
  EXPECT_LT(h.find("cudaGetErrorName"), h.find("cudaMalloc"));         // sorted
}

}  // namespace
}  // namespace gpuport::verify
