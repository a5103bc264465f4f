// Subcommands of the gpuport CLI. Each registers its options on the parser and returns the
// action to run after parsing; the work itself is a library call.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace gpuport::cli {

using Action = std::function<int()>;

Action add_translate_command(CLI::App& app);
Action add_verify_command(CLI::App& app);
Action add_sass_command(CLI::App& app);
Action add_divergence_bench_command(CLI::App& app);

}  // namespace gpuport::cli
