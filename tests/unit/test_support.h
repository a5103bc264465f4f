// Shared helpers for the unit tests: a small mapping table independent of data/maps, and
// temporary folders that clean up after themselves.
#pragma once

#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "maps/api_map.h"
#include "source/translator.h"

namespace gpuport::testing {

inline const maps::ApiMap& small_map() {
  static const maps::ApiMap map = [] {
    std::string rows =
        "cudaMalloc\thipMalloc\tfunction\truntime\tsupported\n"
        "cudaFree\thipFree\tfunction\truntime\tsupported\n"
        "cudaMemcpy\thipMemcpy\tfunction\truntime\tsupported\n"
        "cudaMemcpyHostToDevice\thipMemcpyHostToDevice\tconstant\truntime\tsupported\n"
        "cudaStream_t\thipStream_t\ttype\truntime\tsupported\n"
        "cudaExtent\thipExtent\ttype\truntime\tsupported\n"
        "cudaEventCreate\thipEventCreate\tfunction\truntime\tsupported\n"
        "cudaMemcpyToSymbol\thipMemcpyToSymbol\tfunction\truntime\tsupported\n"
        "cudaThreadSynchronize\thipDeviceSynchronize\tfunction\truntime\tdeprecated\tuse cudaDeviceSynchronize\n"
        "cudaBindTexture\t-\tfunction\truntime\tunsupported\tuse texture objects\n"
        "__shfl_down_sync\t__shfl_down\tdevice\tdevice\tsupported\n"
        "__ballot_sync\t__ballot\tdevice\tdevice\tsupported\n"
        "__syncthreads\t__syncthreads\tdevice\tdevice\tsupported\n"
        "cub\thipcub\tnamespace\tcub\tsupported\n"
        "__CUDA_ARCH__\t__HIP_DEVICE_COMPILE__\tpp-condition\tpreprocessor\tsupported\n"
        "cuda_runtime.h\thip/hip_runtime.h\theader\theaders\tsupported\n"
        "cuda.h\thip/hip_runtime.h\theader\theaders\tsupported\n"
        "cuda_runtime_api.h\thip/hip_runtime_api.h\theader\theaders\tsupported\n"
        "curand_kernel.h\thiprand/hiprand_kernel.h\theader\theaders\tsupported\n"
        "cuda/std/atomic\t-\theader\theaders\tunsupported\tlibcu++ has no HIP port\n";
    std::string calls =
        "cudaEventCreate\t2\trename\t-\thipEventCreateWithFlags\n"
        "cudaMemcpyToSymbol\t*\twrap\t0\tHIP_SYMBOL\n"
        "__shfl_down_sync\t*\tdrop\t0\t-\n"
        "__ballot_sync\t*\tdrop\t0\t-\n";
    std::string ptx = "%laneid\t__lane_id()\tlane index\nbrev.b32\t__brev(x)\t\n";
    auto r = maps::ApiMap::load({{"curated/test.tsv", rows}, {"curated/calls.tsv", calls}, {"curated/ptx.tsv", ptx}});
    if (!r) throw std::runtime_error(format_diagnostic(r.diagnostics().front()));
    return std::move(*r);
  }();
  return map;
}

inline source::FileTranslation translate(std::string_view text, source::TranslateOptions options = {}) {
  auto t = source::translate_text("test.cu", text, small_map(), options);
  source::resolve_unknown_apis({&t});
  return t;
}

inline bool has_finding(const source::FileTranslation& t, std::string_view code) {
  for (const auto& d : t.findings)
    if (d.code == code) return true;
  return false;
}

class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("gpuport-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace gpuport::testing
