#include "common/nvcc11.h"

#include <filesystem>
#include <mutex>

#include "common/process.h"

namespace gpuport {
namespace fs = std::filesystem;

std::map<std::string, std::optional<std::string>> nvcc11_environment() {
  // CUDA 13 may be first on PATH and named by CUDA_HOME: nvcc 11.8 must not pick up its ptxas.
  return {{"PATH", "/usr/lib/nvidia-cuda-toolkit/bin:/usr/bin:/bin"},
          {"CUDA_HOME", std::nullopt},
          {"CUDA_PATH", std::nullopt},
          {"LIBRARY_PATH", std::nullopt},
          {"CPATH", std::nullopt}};
}

namespace {

std::vector<std::string> host_include_dirs(const std::string& host_compiler) {
  std::vector<std::string> dirs;
  auto r = run_process({host_compiler, "-x", "c++", "-E", "-v", "/dev/null"});
  bool in_list = false;
  std::size_t pos = 0;
  const std::string& text = r.err;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
    if (line.starts_with("#include <...> search starts here")) in_list = true;
    else if (line.starts_with("End of search list")) in_list = false;
    else if (in_list && line.starts_with(" ")) {
      std::string dir = line.substr(1);
      std::error_code ec;
      if (dir != "/usr/include" && fs::exists(fs::path(dir) / "cuda_runtime_api.h", ec)) continue;
      dirs.push_back(dir);
    }
  }
  return dirs;
}

}  // namespace

std::vector<std::string> nvcc11_host_include_flags(const std::string& host_compiler) {
  // Asking the compiler costs a process per call; a compile of many units asks once.
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::string>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(host_compiler);
  if (it == cache.end()) {
    std::vector<std::string> flags;
    const auto dirs = host_include_dirs(host_compiler);
    if (!dirs.empty()) {
      flags = {"-Xcompiler", "-nostdinc"};
      for (const auto& d : dirs) {
        flags.push_back("-Xcompiler");
        flags.push_back("-isystem," + d);
      }
    }
    it = cache.emplace(host_compiler, std::move(flags)).first;
  }
  return it->second;
}

}  // namespace gpuport
