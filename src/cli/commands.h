// Subcommands of the gpuport CLI. Each registers its options on the parser and returns the
// action to run after parsing; the work itself is a library call.
#pragma once

#include <filesystem>
#include <functional>
#include <string_view>

#include <CLI/CLI.hpp>

namespace gpuport::cli {

using Action = std::function<int()>;

Action add_translate_command(CLI::App& app);
Action add_verify_command(CLI::App& app);
Action add_sass_command(CLI::App& app);
Action add_divergence_bench_command(CLI::App& app);
Action add_latency_bench_command(CLI::App& app);
Action add_amdgpu_command(CLI::App& app);
Action add_run_command(CLI::App& app);
// `gpuport jit-compile` (hidden): the compile helper of gpuport run's JIT (emu/jit.h).
Action add_jit_compile_command(CLI::App& app);
Action add_asm_command(CLI::App& app);
Action add_tune_command(CLI::App& app);
Action add_nvcc_command(CLI::App& app);
// Where `gpuport run`'s libamdhip64.so.5 and .so.6 are: build/emu-runtime beside bin/, or $GPUPORT_RUNTIME_DIR.
std::filesystem::path emulator_runtime_dir();
// The clang pass plugin that gives gfx1100's device code nvcc's meaning where C++ leaves it
// undefined: lib/libgpuport-nvcc-semantics.so beside bin/, or in $GPUPORT_LIBRARY_DIR.
std::filesystem::path nvcc_semantics_plugin();
// Where sid's ROCm 6.4 libraries are unpacked: build/rocm-6.4-libs, or $GPUPORT_ROCM_LIBS.
std::filesystem::path rocm_library_dir();

// Writes to stdout, remembering why the first failed write failed (a full disk, a closed pipe).
void write_stdout(std::string_view text);
// Flushes stdout; the errno of the first failed write (0: everything arrived). main turns a
// failure into exit status 2, whatever the command returned.
int finish_stdout();

}  // namespace gpuport::cli
