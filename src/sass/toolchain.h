// The two NVIDIA toolchains that make SASS, named explicitly and never mixed: Debian's CUDA 11.8
// (`cuda11`, sm_50..sm_90, the only one that still targets Pascal) and CUDA 13 (`cuda13`,
// sm_75..sm_120: nvcc at /usr/local/cuda, nvdisasm/cuobjdump from the PyPI wheels). A cubin made
// by one is disassembled by the same one's nvdisasm (11.8 cannot read CUDA 13 cubins).
// Every tool call goes through common/process.h, with only plain paths (common/plain_paths.h:
// nvcc runs its steps through a shell); a missing tool is a message naming what to install,
// never a silent skip.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport::sass {

enum class ToolchainId { cuda11, cuda13 };

std::string_view toolchain_name(ToolchainId id);               // "cuda11" / "cuda13"
std::optional<ToolchainId> parse_toolchain_name(std::string_view text);

enum class Tool { nvcc, nvdisasm, cuobjdump };
std::string_view tool_name(Tool tool);

// Where each toolchain's tools are looked for, in order (first existing executable wins).
// cuda11: /usr/lib/nvidia-cuda-toolkit/bin, then /usr/bin (Debian puts nvdisasm/cuobjdump
// there). cuda13: $GPUPORT_<TOOL>13, /usr/local/cuda/bin, then the unpacked wheels in
// ${XDG_CACHE_HOME:-$HOME/.cache}/gpuport/<tool>13/nvidia/cu13/bin (scripts/fetch-cuda13-tools).
std::vector<std::filesystem::path> tool_candidates(ToolchainId id, Tool tool);

struct Toolchain {
  ToolchainId id = ToolchainId::cuda11;
  std::filesystem::path nvcc, nvdisasm, cuobjdump;  // empty when not found
  std::string nvcc_release;      // "11.8", "13.0" from nvcc --version; empty when unknown
  std::string nvdisasm_release;  // from nvdisasm --version
  std::string cuobjdump_release;
  int min_arch = 0, max_arch = 0;
  std::string host_compiler;     // cuda11: clang-14 (nvcc 11.8 rejects newer g++); cuda13: default

  bool covers(int arch) const { return arch >= min_arch && arch <= max_arch; }
  const std::filesystem::path& path(Tool tool) const;
  // Why `tool` cannot be used: not found, or its --version is not this toolchain's release.
  // The message names the package or wheel to install. std::nullopt when usable.
  std::optional<std::string> unavailable(Tool tool) const;
};

// Finds the tools and checks their releases (runs each found tool with --version).
Toolchain detect_toolchain(ToolchainId id);

// sm_61 sm_70 sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120.
const std::vector<int>& default_archs();
// The toolchain that builds `arch` by default: 11.8 up to sm_90 (it still targets Pascal and
// its nvdisasm reads its cubins), 13 beyond.
ToolchainId default_toolchain(int arch);

// The outcome of one tool call.
struct ToolRun {
  bool ok = false;
  std::string output;        // stdout (the listing for disassembly)
  std::string message;       // why it failed: the missing tool, or the command and its stderr
  std::string command_line;  // empty when nothing was run
};

struct CompileOptions {
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> extra_flags;  // passed to nvcc as they are
  std::string optimisation = "-O3";
  std::chrono::seconds timeout{300};
};

// nvcc -cubin -arch=sm_XX: `source` (.cu) to `cubin`.
ToolRun compile_cubin(const Toolchain& toolchain, const std::filesystem::path& source, int arch,
                      const std::filesystem::path& cubin, const CompileOptions& options = {});
// nvcc FLAGS SOURCE -o EXECUTABLE -lstdc++ -lm: a program for the GPU machine.
ToolRun build_executable(const Toolchain& toolchain, const std::filesystem::path& source,
                         const std::filesystem::path& executable, const std::vector<std::string>& flags,
                         std::chrono::seconds timeout = std::chrono::seconds(300));
// The device code of a CUDA program replaced: nvcc builds `source` into `executable` for sm_XX
// as usual (nvcc -dryrun's trajectory run step by step, its intermediate files in `work_dir`),
// except that the cubin and the PTX the fatbinary step embeds are `cubin` and `ptx` instead of
// what cicc and ptxas made. 11.8 only.
ToolRun build_executable_with_device_code(const Toolchain& toolchain, const std::filesystem::path& source, int arch,
                                          const std::filesystem::path& cubin, const std::filesystem::path& ptx,
                                          const std::filesystem::path& executable, const std::filesystem::path& work_dir,
                                          const std::vector<std::string>& flags = {},
                                          std::chrono::seconds timeout = std::chrono::seconds(600));
// nvdisasm -hex CUBIN: the listing form of tests/sass/listings.
ToolRun disassemble_cubin(const Toolchain& toolchain, const std::filesystem::path& cubin,
                          std::chrono::seconds timeout = std::chrono::seconds(120));
// nvdisasm -b SM<arch> FILE: a raw instruction binary (encodings as they lie in memory, the first
// at address 0) disassembled; with_encodings adds -hex (the encodings and so the control codes).
ToolRun disassemble_raw(const Toolchain& toolchain, const std::filesystem::path& binary, int arch,
                        std::chrono::seconds timeout = std::chrono::seconds(60), bool with_encodings = false);
// cuobjdump -xelf all FILE run in `dir`: writes each embedded cubin there (<stem>.<n>.sm_XX.cubin).
ToolRun extract_cubins(const Toolchain& toolchain, const std::filesystem::path& binary,
                       const std::filesystem::path& dir, std::chrono::seconds timeout = std::chrono::seconds(120));
// cuobjdump -sass FILE for an executable, object or fatbinary.
ToolRun dump_sass(const Toolchain& toolchain, const std::filesystem::path& binary,
                  std::chrono::seconds timeout = std::chrono::seconds(120));

// cuobjdump -elf FILE: sections, symbols and the .nv.info attributes as text.
ToolRun dump_elf(const Toolchain& toolchain, const std::filesystem::path& binary,
                 std::chrono::seconds timeout = std::chrono::seconds(120));

// A CUDA cubin's identity from its ELF header (the full reader is sass/cubin.h).
struct CubinIdentity {
  int arch = 0;                // 61, 90, 100...
  int abi_version = 0;         // EI_ABIVERSION: 7 (CUDA <= 12 layout) or 8 (CUDA 13 layout)
  ToolchainId toolchain = ToolchainId::cuda11;  // whose nvdisasm reads it
};
// std::nullopt when `bytes` is not a 64-bit CUDA ELF (ELFOSABI_CUDA 0x33 or 0x41).
std::optional<CubinIdentity> identify_cubin(std::string_view bytes);
bool is_elf(std::string_view bytes);

}  // namespace gpuport::sass
