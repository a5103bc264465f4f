// Emulator tests' kernels: a HIP file of tests/unit/emu compiled by clang-19 for gfx1100 (wave32 or
// wave64), loaded as a code object, decoded and prepared for the interpreter. Shared by the test
// files that run clang-compiled kernels; each keeps its own cache per file and wave size.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "common/process.h"
#include "emu/interpreter.h"

namespace gpuport::emu::test {

struct CompiledKernels {
  std::string skip_reason;  // set when clang-19, the HIP headers or the device libraries are missing
  std::string errors;       // compile, load or preparation errors
  std::unique_ptr<amdgpu::CodeObject> code_object;
  std::unique_ptr<amdgpu::Disassembler> disassembler;
  std::map<std::string, std::shared_ptr<PreparedKernel>> kernels;  // by mangled name
};

// Why the kernels cannot be built here, or empty.
inline std::string hip_compiler_missing() {
  namespace fs = std::filesystem;
  const fs::path device_libs = fs::path(GPUPORT_BINARY_DIR) / "rocm-device-libs";
  if (find_program("clang-19").empty() || !fs::exists("/usr/include/hip/hip_runtime.h") ||
      !fs::exists(device_libs / "oclc_isa_version_1100.bc"))
    return "needs clang-19, the HIP headers and build/rocm-device-libs";
  return {};
}

// Compiles tests/unit/emu/<file> with -O3 (plus `flags`) and prepares every kernel of it.
inline void compile_emu_kernels(CompiledKernels& c, const std::string& file, bool wave64,
                                const std::vector<std::string>& flags = {}) {
  namespace fs = std::filesystem;
  c.skip_reason = hip_compiler_missing();
  if (!c.skip_reason.empty()) return;
  const fs::path device_libs = fs::path(GPUPORT_BINARY_DIR) / "rocm-device-libs";
  std::string stem = file;
  for (char& ch : stem)
    if (ch == '/' || ch == '.') ch = '-';
  const fs::path out =
      fs::temp_directory_path() / fmt::format("gpuport-emu-{}-{}-{}.co", ::getpid(), stem, wave64 ? 64 : 32);
  std::vector<std::string> argv = {"clang-19", "-x", "hip", "--offload-arch=gfx1100", "--cuda-device-only", "-O3", "-c",
                                   "--rocm-path=/usr", "--rocm-device-lib-path=" + device_libs.string()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {std::string(GPUPORT_SOURCE_DIR) + "/tests/unit/emu/" + file, "-o", out.string()});
  if (wave64) argv.push_back("-mwavefrontsize64");
  const auto r = run_process(argv);
  if (!r.succeeded()) {
    c.errors = "clang-19 failed: " + r.err;
    return;
  }
  auto co = amdgpu::load_code_object(out.string());
  std::error_code ec;
  fs::remove(out, ec);
  if (!co) {
    c.errors = co.diagnostics()[0].message;
    return;
  }
  c.code_object = std::make_unique<amdgpu::CodeObject>(std::move(*co));
  c.disassembler = std::move(*amdgpu::Disassembler::create(wave64));
  for (const auto& k : c.code_object->kernels) {
    auto p = prepare_kernel(*c.code_object, k, *c.disassembler);
    if (p) c.kernels[k.name] = *p;
    else
      for (const auto& e : p.diagnostics()) c.errors += e.message + "\n";
  }
}

}  // namespace gpuport::emu::test
