// nvcc's options, one row each (see nvcc_options.h). The names and value forms are nvcc 11.8's
// and 13.0's `nvcc --help`; the dispositions are gpuport's.
#include "verify/nvcc_options.h"

#include <array>

namespace gpuport::verify {
namespace {

using A = NvccOptionAction;
constexpr std::string_view kGfx = "AMD code is built for gfx1100";
constexpr std::string_view kNvidiaOutput = "an NVIDIA code format: gpuport nvcc builds objects and programs for AMD gfx1100";
constexpr std::string_view kDeviceCode =
    "device code alone: a gfx1100 code object, which a translated program's cuModuleLoad (hipModuleLoad) loads as CUDA's loads a cubin";
constexpr std::string_view kDiag = "nvcc's diagnostic numbers are its front end's; clang's warnings have names (-Wno-...)";
constexpr std::string_view kWindows = "Windows paths and environments; gpuport nvcc runs on Linux";

constexpr auto kOptions = std::to_array<NvccOption>({
    // What to make.
    {"--cuda", "-cuda", false, A::refused, "writes nvcc's C++ rendering of CUDA; `gpuport translate` writes the HIP translation"},
    {"--cubin", "-cubin", false, A::handled, kDeviceCode},
    {"--fatbin", "-fatbin", false, A::handled, kDeviceCode},
    {"--ptx", "-ptx", false, A::refused, kNvidiaOutput},
    {"--optix-ir", "-optix-ir", false, A::refused, kNvidiaOutput},
    {"--ltoir", "-ltoir", false, A::refused, kNvidiaOutput},
    {"--preprocess", "-E", false, A::handled, "clang's -E on the translation"},
    {"--generate-dependencies", "-M", false, A::handled, "clang's -M; the file names the originals"},
    {"--generate-nonsystem-dependencies", "-MM", false, A::handled, "clang's -MM; the file names the originals"},
    {"--generate-dependencies-with-compile", "-MD", false, A::handled, "clang's -MD"},
    {"--generate-nonsystem-dependencies-with-compile", "-MMD", false, A::handled, "clang's -MMD"},
    {"--dependency-output", "-MF", true, A::handled, "clang's -MF; the file names the originals", "deps.d"},
    {"--dependency-target-name", "-MT", true, A::handled, "clang's -MT", "a.o"},
    {"--generate-dependency-targets", "-MP", false, A::handled, "clang's -MP"},
    {"--compile", "-c", false, A::handled, "one object per source"},
    {"--device-c", "-dc", false, A::handled, "-c with -fgpu-rdc"},
    {"--device-w", "-dw", false, A::refused, "device code alone as an NVIDIA relocatable object"},
    {"--device-link", "-dlink", false, A::handled, "an empty object: clang links device code with the program"},
    {"--link", "-link", false, A::handled, "the default: compile and link"},
    {"--lib", "-lib", false, A::handled, "compile, then a static library of the objects (ar)"},
    {"--run", "-run", false, A::refused, "build and run at once: run the program under `gpuport run`"},
    {"--output-file", "-o", true, A::handled, "the output", "out"},
    {"--pre-include", "-include", true, A::clang, "-include", "pre.h"},
    {"--objdir-as-tempdir", "-objtemp", false, A::dropped, "nvcc's intermediate files"},
    {"--library", "-l", true, A::handled, "CUDA's libraries become HIP's (cudart: HIP's runtime)", "m"},
    {"--define-macro", "-D", true, A::handled, "-D", "N=1"},
    {"--undefine-macro", "-U", true, A::handled, "-U", "N"},
    {"--include-path", "-I", true, A::handled, "-I, and where the local headers to translate are", "inc"},
    {"--system-include", "-isystem", true, A::handled, "-isystem", "inc"},
    {"--library-path", "-L", true, A::handled, "-L", "lib"},
    {"--output-directory", "-odir", true, A::handled, "where -c puts its objects", "obj"},
    {"--compiler-bindir", "-ccbin", true, A::dropped, "host code goes to gcc/g++ and clang-19 as gpuport nvcc's own choice", "g++"},
    {"--allow-unsupported-compiler", "-allow-unsupported-compiler", false, A::dropped, "the host compilers are gpuport nvcc's"},
    {"--archiver-binary", "-arbin", true, A::dropped, "static libraries are made with ar", "ar"},
    {"--cudart", "-cudart", true, A::dropped, "HIP's runtime is a shared library", "static"},
    {"--cudadevrt", "-cudadevrt", true, A::dropped, "clang links device code itself", "static"},
    {"--libdevice-directory", "-ldir", true, A::dropped, "device code links ROCm's device libraries", "dir"},
    {"--target-directory", "-target-dir", true, A::dropped, "a CUDA toolkit's target folder", "x86_64-linux"},
    {"--use-local-env", "-use-local-env", false, A::dropped, kWindows},
    {"--force-cl-env-setup", "-force-cl-env-setup", false, A::dropped, kWindows},
    {"--drive-prefix", "-dp", true, A::dropped, kWindows, "/cygdrive/"},
    {"--dependency-drive-prefix", "-ddp", true, A::dropped, kWindows, "/cygdrive/"},
    {"--input-drive-prefix", "-idp", true, A::dropped, kWindows, "/cygdrive/"},
    // Debugging, optimization, language.
    {"--profile", "-pg", false, A::dropped, "gprof instrumentation is not built into HIP programs"},
    {"--debug", "-g", false, A::clang, "-g"},
    {"--device-debug", "-G", false, A::handled, "clang's -g, and device code left unoptimised, as nvcc leaves it"},
    {"--generate-line-info", "-lineinfo", false, A::clang, "-gline-tables-only"},
    {"--optimization-info", "-opt-info", true, A::dropped, "NVIDIA's optimizer remarks (clang's are -Rpass=...)", "inline"},
    {"--optimize", "-O", true, A::handled, "-O for host code; device code is optimised whatever it says, as with nvcc (see -dopt)", "3"},
    {"--Ofast-compile", "-Ofc", true, A::dropped, "nvcc's compile-time/run-time trade-off", "max"},
    {"--dopt", "-dopt", true, A::handled, "device code optimised (on, nvcc's default: clang's -O3 on the device side) or not (off)", "on"},
    {"--dlink-time-opt", "-dlto", false, A::dropped, "link-time optimization of NVIDIA device code"},
    {"--lto", "-lto", false, A::dropped, "link-time optimization of NVIDIA device code"},
    {"--gen-opt-lto", "-gen-opt-lto", false, A::dropped, "link-time optimization of NVIDIA device code"},
    {"--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", true, A::clang, "-ftemplate-backtrace-limit=", "10"},
    {"--ftemplate-depth", "-ftemplate-depth", true, A::clang, "-ftemplate-depth=", "900"},
    {"--no-exceptions", "-noeh", false, A::clang, "-fno-exceptions"},
    {"--shared", "-shared", false, A::handled, "a shared library, its code -fPIC"},
    {"--x", "-x", true, A::handled, "the language of the inputs after it: cu, c, c++ (none: by extension)", "cu"},
    {"--std", "-std", true, A::handled, "-std", "c++17"},
    {"--no-host-device-initializer-list", "-nohdinitlist", false, A::dropped, "clang's rules for std::initializer_list in device code apply"},
    {"--no-host-device-move-forward", "-nohdmoveforward", false, A::dropped, "clang's rules for std::move/forward in device code apply"},
    {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", false, A::dropped, "clang allows constexpr calls across host and device"},
    {"--extended-lambda", "-extended-lambda", false, A::dropped, "clang takes __device__ lambdas as they are"},
    {"--expt-extended-lambda", "-expt-extended-lambda", false, A::dropped, "clang takes __device__ lambdas as they are"},
    {"--machine", "-m", true, A::dropped, "64-bit code is the only kind", "64"},
    {"--m64", "-m64", false, A::dropped, "64-bit code is the only kind"},
    {"--m32", "-m32", false, A::refused, "32-bit code: HIP has no 32-bit host ABI"},
    // Options for the tools nvcc drives.
    {"--compiler-options", "-Xcompiler", true, A::handled, "to both compilers", "-fPIC"},
    {"--linker-options", "-Xlinker", true, A::handled, "-Wl,...", "--as-needed"},
    {"--archive-options", "-Xarchive", true, A::handled, "to ar, with -lib", "--thin"},
    {"--ptxas-options", "-Xptxas", true, A::dropped, "ptxas options have no AMD meaning", "-v"},
    {"--nvlink-options", "-Xnvlink", true, A::dropped, "nvlink options have no AMD meaning", "--verbose"},
    // Not in `--help` (no long form there; gpuport names it --cudafe-options), but in build scripts
    // (BitNet, CUTLASS): options of nvcc's EDG front end.
    {"--cudafe-options", "-Xcudafe", true, A::dropped, kDiag, "--diag_suppress=177"},
    {"--static-global-template-stub", "-static-global-template-stub", true, A::dropped, "host stubs of kernels are clang's", "true"},
    {"--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility", true, A::dropped, "host stubs of kernels are clang's", "true"},
    {"--host-linker-script", "-hls", true, A::dropped, "nvcc's host linker script for NVIDIA fat binaries", "use-lcs"},
    {"--augment-host-linker-script", "-aug-hls", false, A::dropped, "nvcc's host linker script for NVIDIA fat binaries"},
    {"--host-relocatable-link", "-r", false, A::refused, "a relocatable link of NVIDIA objects"},
    {"--relocatable-link", "-r", false, A::refused, "a relocatable link of NVIDIA objects"},
    {"--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler", false, A::handled, "unknown options go to the compilers"},
    {"--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker", false, A::handled, "unknown options go to the compilers"},
    {"--forward-unknown-opts", "-forward-unknown-opts", false, A::handled, "unknown options go to the compilers"},
    {"--dont-use-profile", "-noprof", false, A::dropped, "nvcc's nvcc.profile"},
    {"--dryrun", "-dryrun", false, A::refused, "gpuport nvcc translates before it knows its commands: use -v"},
    {"--verbose", "-v", false, A::handled, "each command on stderr, with nvcc's #$ lines"},
    {"--threads", "-t", true, A::dropped, "nvcc's parallel compilation of architectures", "2"},
    {"--split-compile", "-split-compile", true, A::dropped, "nvcc's parallel optimization", "2"},
    {"--split-compile-extended", "-split-compile-extended", true, A::dropped, "nvcc's parallel optimization", "2"},
    {"--jobserver", "-jobserver", false, A::dropped, "nvcc's parallel compilation"},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", false, A::refused, "a syntax check of device code alone: use `gpuport translate --check`"},
    {"--fdevice-time-trace", "-fdevice-time-trace", true, A::dropped, "nvcc's device front end timing", "trace.json"},
    {"--time", "-time", true, A::dropped, "nvcc's timing of its passes", "times.csv"},
    {"--keep", "-keep", false, A::dropped, "nvcc's intermediate files"},
    {"--keep-dir", "-keep-dir", true, A::dropped, "nvcc's intermediate files", "tmp"},
    {"--save-temps", "-save-temps", false, A::dropped, "nvcc's intermediate files"},
    {"--clean-targets", "-clean", false, A::refused, "deletes what a build made: use the build's clean rule"},
    {"--run-args", "-run-args", true, A::refused, "build and run at once: run the program under `gpuport run`", "1"},
    {"--options-file", "-optf", true, A::handled, "its options read in place", "opts.txt"},
    {"--compile-as-tools-patch", "-astoolspatch", false, A::refused, "builds a patch for NVIDIA's tools"},
    {"--sanitize", "-sanitize", true, A::refused, "compute-sanitizer instrumentation of NVIDIA code", "memcheck"},
    {"--qpp-config", "-qpp-config", true, A::dropped, "QNX host configuration", "8.3.0"},
    // Code generation for the GPU.
    {"--gpu-architecture", "-arch", true, A::dropped, kGfx, "sm_80"},
    {"--gpu-code", "-code", true, A::dropped, kGfx, "sm_80"},
    {"--generate-code", "-gencode", true, A::dropped, kGfx, "arch=compute_80,code=sm_80"},
    {"--relocatable-device-code", "-rdc", true, A::handled, "-fgpu-rdc", "true"},
    {"--entries", "-e", true, A::dropped, "every kernel is built", "k"},
    {"--maxrregcount", "-maxrregcount", true, A::dropped, "use __launch_bounds__ for register limits", "64"},
    {"--use_fast_math", "-use_fast_math", false, A::clang, "-ffast-math"},
    {"--ftz", "-ftz", true, A::handled, "true: -fgpu-flush-denormals-to-zero", "true"},
    {"--prec-div", "-prec-div", true, A::handled, "true: clang's default; false: dropped (clang's divisions are IEEE)", "true"},
    {"--prec-sqrt", "-prec-sqrt", true, A::handled, "true: clang's default; false: dropped (clang's square roots are IEEE)", "true"},
    {"--fmad", "-fmad", true, A::handled, "false: -ffp-contract=off", "false"},
    {"--extra-device-vectorization", "-extra-device-vectorization", false, A::dropped, "an NVIDIA optimizer setting"},
    {"--keep-device-functions", "-keep-device-functions", false, A::dropped, "NVIDIA device code's linkage"},
    {"--jump-table-density", "-jtd", true, A::dropped, "an NVIDIA optimizer setting", "10"},
    {"--source-in-ptx", "-src-in-ptx", false, A::dropped, "PTX is not made"},
    {"--restrict", "-restrict", false, A::dropped, "an NVIDIA optimizer assumption about kernel pointers"},
    {"--Wreorder", "-Wreorder", false, A::clang, "-Wreorder"},
    {"--Wdefault-stream-launch", "-Wdefault-stream-launch", false, A::dropped, "an nvcc warning clang has no twin of"},
    {"--Wmissing-launch-bounds", "-Wmissing-launch-bounds", false, A::dropped, "an nvcc warning clang has no twin of"},
    {"--Wext-lambda-captures-this", "-Wext-lambda-captures-this", false, A::dropped, "an nvcc warning clang has no twin of"},
    {"--Wno-deprecated-declarations", "-Wno-deprecated-declarations", false, A::clang, "-Wno-deprecated-declarations"},
    {"--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", false, A::dropped, "about NVIDIA architectures"},
    {"--Werror", "-Werror", true, A::handled, "all-warnings: -Werror; nvcc's own kinds dropped", "all-warnings"},
    {"--display-error-number", "-err-no", false, A::dropped, kDiag},
    {"--no-display-error-number", "-no-err-no", false, A::dropped, kDiag},
    {"--diag-error", "-diag-error", true, A::dropped, kDiag, "20012"},
    {"--diag-suppress", "-diag-suppress", true, A::dropped, kDiag, "20012"},
    {"--diag-warn", "-diag-warn", true, A::dropped, kDiag, "20012"},
    {"--brief-diagnostics", "-brief-diag", true, A::dropped, "clang's diagnostics are its own", "true"},
    {"--disable-warnings", "-w", false, A::clang, "-w"},
    {"--resource-usage", "-res-usage", false, A::dropped, "ptxas's register report (for AMD: gpuport translate --check)"},
    {"--extensible-whole-program", "-ewp", false, A::dropped, "NVIDIA device linking"},
    {"--no-compress", "-no-compress", false, A::dropped, "NVIDIA fat binary compression"},
    {"--compress-mode", "-compress-mode", true, A::dropped, "NVIDIA fat binary compression", "size"},
    {"--no-device-link", "-nodlink", false, A::dropped, "clang links device code with the program"},
    {"--device-stack-protector", "-device-stack-protector", true, A::dropped, "NVIDIA device code's stack canaries", "false"},
    {"--frandom-seed", "-frandom-seed", true, A::clang, "-frandom-seed=", "42"},
    {"--default-stream", "-default-stream", true, A::handled, "per-thread: -fgpu-default-stream=per-thread", "per-thread"},
    {"--version-ident", "-dQ", true, A::dropped, "nvcc's version string in objects", "true"},
    {"--no-align-double", "--no-align-double", false, A::dropped, "32-bit host code"},
    {"--relocatable-ptx", "-reloc-ptx", false, A::refused, kNvidiaOutput},
    // Information.
    {"--list-gpu-code", "-code-ls", false, A::refused, "lists NVIDIA targets: gpuport nvcc builds gfx1100"},
    {"--list-gpu-arch", "-arch-ls", false, A::refused, "lists NVIDIA targets: gpuport nvcc builds gfx1100"},
    {"--help", "-h", false, A::handled, "what gpuport nvcc is"},
    {"--version", "-V", false, A::handled, "nvcc's version lines, naming gpuport"},
});

}  // namespace

std::span<const NvccOption> nvcc_options() { return kOptions; }

const NvccOption* find_nvcc_option(std::string_view name) {
  for (const auto& o : kOptions)
    if (o.long_name == name || o.short_name == name) return &o;
  return nullptr;
}

std::string_view nvcc_action_name(NvccOptionAction action) {
  switch (action) {
    case NvccOptionAction::handled: return "handled";
    case NvccOptionAction::clang: return "clang";
    case NvccOptionAction::dropped: return "dropped";
    case NvccOptionAction::refused: return "refused";
  }
  return "?";
}

}  // namespace gpuport::verify
