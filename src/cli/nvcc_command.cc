// `gpuport nvcc [--hip-version V] [--hip-sources] NVCC-ARGS...`: nvcc's command line, built for
// AMD gfx1100 (verify/nvcc_driver.h); --hip-sources: the sources are HIP already. Everything after the subcommand is nvcc's, read by the library.
// `gpuport nvcc [--hip-version V] --toolkit DIR` writes a folder laid out as a CUDA toolkit
// whose nvcc this is, for Makefiles that take CUDA_DIR and for CMake's CMAKE_CUDA_COMPILER. Its
// bin/nvcc passes `--toolkit-root DIR` after the HIP version.
#include <cstdio>
#include <filesystem>

#include "cli/commands.h"
#include "maps/api_map.h"
#include "verify/cuda_toolkit.h"
#include "verify/nvcc_driver.h"

namespace gpuport::cli {

Action add_nvcc_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("nvcc", "A drop-in nvcc: translates CUDA sources and compiles them for AMD gfx1100 "
                                         "(make NVCC=\"gpuport nvcc\")");
  cmd->prefix_command();
  cmd->allow_extras();
  cmd->set_help_flag();  // nvcc's --help and -h are the driver's: they list every nvcc option
  return [cmd] {
    std::vector<std::string> args = cmd->remaining();
    std::string version(verify::kDefaultHipVersion);
    if (args.size() >= 2 && args[0] == "--hip-version") {
      version = args[1];
      args.erase(args.begin(), args.begin() + 2);
    }
    std::string toolkit_root;  // written by --toolkit's bin/nvcc
    if (args.size() >= 2 && args[0] == "--toolkit-root") {
      toolkit_root = args[1];
      args.erase(args.begin(), args.begin() + 2);
    }
    bool translate = true;  // --hip-sources: written into Makefiles by translate --project
    if (!args.empty() && args[0] == "--hip-sources") {
      translate = false;
      args.erase(args.begin());
    }
    const auto hip = verify::hip_target(version);
    if (!hip) {
      std::fprintf(stderr, "gpuport nvcc: unknown HIP version %s\n", version.c_str());
      return 2;
    }
    // Programs linked through a toolkit folder start on the emulator by themselves.
    const auto run_link_flags = verify::toolkit_run_link_flags(*hip, emulator_runtime_dir(), rocm_library_dir());
    const auto base_link_flags = verify::toolkit_base_link_flags(emulator_runtime_dir());
    if (!args.empty() && (args[0] == "--host-link" || args[0] == "--ld")) {  // the toolkit's link commands: no tables needed
      verify::NvccDriverOptions options;
      options.compiler.hip = *hip;
      options.toolkit_root = toolkit_root;
      options.run_link_flags = run_link_flags;
      options.base_link_flags = base_link_flags;
      options.rocm_library_dir = rocm_library_dir();
      const std::vector<std::string> rest(args.begin() + 1, args.end());
      return args[0] == "--ld" ? verify::run_ld(rest, options) : verify::run_host_link(rest, options);
    }
    auto map = maps::ApiMap::load_embedded({.hip_version = hip->map_layer()});
    if (!map) {
      for (const auto& d : map.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      return 2;
    }
    if (args.size() == 2 && args[0] == "--toolkit") {
      // The programs run on the emulator's runtime of the same ABI; linking it gives them its SONAME.
      verify::CudaToolkitFolder folder;
      folder.dir = args[1];
      folder.hip_library = emulator_runtime_dir() / ("libamdhip64.so." + version.substr(0, version.find('.')));
      folder.gpuport_command = std::filesystem::canonical("/proc/self/exe").string() + " nvcc --hip-version " + version;
      folder.hip = *hip;
      folder.run_link_flags = run_link_flags;
      if (auto err = verify::write_cuda_toolkit_folder(folder, *map)) {
        std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
        return 2;
      }
      std::printf("gpuport nvcc: %s is a CUDA toolkit folder for HIP %s (bin/nvcc, include/, lib64/libcudart.so): "
                  "make CUDA_DIR=%s, cmake -DCMAKE_CUDA_COMPILER=%s/bin/nvcc\n",
                  args[1].c_str(), version.c_str(), args[1].c_str(), args[1].c_str());
      return 0;
    }
    auto command = verify::parse_nvcc_command(args);
    if (!command) {
      for (const auto& d : command.diagnostics()) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
      return 1;
    }
    verify::NvccDriverOptions options;
    options.compiler.hip = *hip;
    // CUDA compiled as nvcc compiles it: shifts by the width or more as PTX gives them.
    if (std::error_code ec; std::filesystem::exists(nvcc_semantics_plugin(), ec))
      options.compiler.device_pass_plugin = nvcc_semantics_plugin();
    else
      std::fprintf(stderr, "gpuport nvcc: warning: %s is missing: device shifts by the width or more keep AMD's meaning, not nvcc's\n",
                   nvcc_semantics_plugin().c_str());
    options.toolkit_root = toolkit_root;
    if (!toolkit_root.empty()) {
      options.run_link_flags = run_link_flags;
      options.base_link_flags = base_link_flags;
      options.rocm_library_dir = rocm_library_dir();
    }
    options.translate = translate;
    return verify::run_nvcc_command(*command, *map, options);
  };
}

}  // namespace gpuport::cli
