// `gpuport nvcc`: a drop-in for nvcc that builds CUDA code for AMD gfx1100, so that a Makefile
// project builds with `make NVCC="gpuport nvcc"`. It reads nvcc's command line, translates each
// CUDA and host source (and the local headers they include) into a private temporary folder as
// `gpuport translate` would, compiles the translations with clang-19 against the target HIP
// (findings on stderr, as a compiler gives them), and links with that HIP's libraries. Options
// it does not know are refused by name, never passed on as a guess.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/diagnostic.h"
#include "source/compat.h"
#include "maps/api_map.h"
#include "verify/compile_check.h"

namespace gpuport::verify {

// The CUDA release gpuport nvcc answers to build systems as (`--version`, CMake's compiler
// identification): the newest one whose runtime API the translation tables cover.
inline constexpr int kNvccCudaMajor = source::kMappedCudaRelease / 1000;
inline constexpr int kNvccCudaMinor = source::kMappedCudaRelease % 1000 / 10;

enum class NvccLanguage { cuda, c, cxx, object };

struct NvccInput {
  std::filesystem::path path;
  NvccLanguage language = NvccLanguage::object;
};

enum class NvccPhase {
  link,          // compile what needs it, then link an executable (or a shared library)
  compile,       // -c: one object per input
  device_link,   // -dlink: clang links device code with the program (-fgpu-rdc), so an empty object
  preprocess,    // -E
  device_code,   // -cubin, -fatbin: device code alone, a gfx1100 code object per input
  library,       // -lib: compile, then a static library of the objects
  version,       // --version
  help,          // --help
};

// nvcc's command line, read.
struct NvccCommand {
  NvccPhase phase = NvccPhase::link;
  std::vector<NvccInput> inputs;
  std::filesystem::path output;                  // -o; empty: nvcc's default (a.out, NAME.o)
  std::filesystem::path output_dir;              // -odir: where -c puts its objects
  std::string device_code_extension = ".cubin";  // -cubin's or -fatbin's default output name
  bool device_optimized = true;                  // nvcc optimises device code unless -G or -dopt off
  bool relocatable_device_code = false;          // -rdc=true, -dc
  bool shared = false;                           // -shared
  bool verbose = false;                          // -v: each command on stderr
  std::vector<std::string> compile_flags;        // for every compiler: -D, -U, -O, -g, -std, -I (originals)
  std::vector<std::filesystem::path> include_dirs;  // -I, also for finding the local headers to translate
  std::vector<std::string> host_flags;           // -Xcompiler, for host and device compilation
  std::vector<std::string> link_flags;           // -L, -l (CUDA's libraries mapped), -Xlinker
  std::vector<std::string> archive_flags;        // -Xarchive, for -lib
  std::vector<std::string> notes;                // options read but not needed by clang, with why
  // -forward-unknown-to-host-compiler (CMake passes it): options nvcc does not know go to the
  // host compiler, as nvcc does, instead of being refused.
  bool forward_unknown = false;
  bool lists_dependencies = false;  // -M or -MM
  // The newest NVIDIA architecture -arch, -gencode and -code name (sm_86, compute_86: 860), which
  // gfx1100's device code then stands in for (TranslateOptions::cuda_arch); 0 when none is named.
  int cuda_arch = 0;
};

// CUDA's libraries (as -l names them: "cublas") and what stands for each with HIP: its HIP
// library ("hipblas") and the ROCm library under it that a project's own AMD code calls
// directly (rocblas), or nothing (cudart: HIP's runtime is in every link).
const std::map<std::string, std::vector<std::string>, std::less<>>& cuda_libraries();

// Reads nvcc's arguments (without "nvcc"). An option nvcc has that this driver cannot honour,
// or one nvcc does not have, is an error naming it. `--options-file F` (CMake's response files)
// is read in place.
Result<NvccCommand> parse_nvcc_command(const std::vector<std::string>& args);

struct NvccDriverOptions {
  CompileCheckOptions compiler;  // clang, the target HIP, device libraries
  // Host code goes to the compilers nvcc hands it to by default (GNU's: their extensions, their
  // OpenMP); the link is clang's, which links the device code.
  std::string host_c = "gcc";
  std::string host_cxx = "g++";
  std::string linker = "clang++-19";
  bool verbose = false;          // -v: the commands on stderr
  // The toolkit folder whose bin/nvcc this is (--toolkit): with -v, its paths are shown in the
  // `#$ NAME=value` lines nvcc prints, which CMake reads to find the toolkit and its link line.
  std::filesystem::path toolkit_root;
  // Link options that make the programs linked here run on the emulator when started directly
  // (toolkit_run_link_flags), added to every program link of the toolkit folder.
  std::vector<std::string> run_link_flags;
  // What a toolkit link that needs nothing of sid's gets instead (toolkit_base_link_flags), and
  // where sid's libraries are (link_needs_rocm_libraries decides between the two).
  std::vector<std::string> base_link_flags;
  std::filesystem::path rocm_library_dir;
  // Environment changes for the compilers (set by the driver from toolkit_root).
  std::map<std::string, std::optional<std::string>> environment;
  // false (--hip-sources): the sources are HIP already (a tree `translate --project` wrote, whose
  // Makefiles call gpuport nvcc): compiled as they are, nvcc's options read as ever.
  bool translate = true;
};

// Runs the command; returns nvcc's exit status (0 when everything built). Findings and the
// compilers' messages go to stderr.
int run_nvcc_command(const NvccCommand& command, const maps::ApiMap& map, const NvccDriverOptions& options);

// `gpuport nvcc --host-link ARGS` (the toolkit's bin/nvcc-host-link): a host compiler's link
// line, as CMake runs it for CUDA programs after reading it from `nvcc -v`, linked by clang with
// HIP's runtime: CUDA's libraries become HIP's, and objects made with -fgpu-rdc get their
// device code linked (CMake's separable compilation).
int run_host_link(const std::vector<std::string>& args, const NvccDriverOptions& options);

// `gpuport nvcc --ld ARGS` (the toolkit's libexec/gpuport-ld/ld, which gpuportenv's LDFLAGS
// make the compilers' linker with -B): GNU ld with the toolkit's run link options, sid's only
// where the link reaches sid's libraries (link_needs_rocm_libraries).
int run_ld(const std::vector<std::string>& args, const NvccDriverOptions& options);

// clang's link of a program: --hip-link for gfx1100 (with -fgpu-rdc, the device link of
// relocatable device code), `inputs` (objects, flags, -o), and the target HIP's libraries.
int link_program(const std::vector<std::string>& inputs, bool rdc, const NvccDriverOptions& options);

}  // namespace gpuport::verify
