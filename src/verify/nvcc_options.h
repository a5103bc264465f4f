// nvcc's whole option set (every option of nvcc 11.8's and 13.0's --help), and what gpuport
// nvcc does with each: handled by the driver's reading of the command line, replaced by a clang
// option, dropped with the reason (NVIDIA code generation, nvcc's own intermediate files), or
// refused with the reason (an output AMD has no counterpart for). No option is passed on as a
// guess; tests/golden/nvcc/options.test compares this table with the installed nvccs' --help.
#pragma once

#include <span>
#include <string_view>

namespace gpuport::verify {

enum class NvccOptionAction {
  handled,  // read by parse_nvcc_command itself; `text` says what it becomes
  clang,    // `text` (with the value appended, for an option that takes one) goes to the compilers
  dropped,  // read and left out; `text` says why (shown with -v)
  refused,  // an error naming the option; `text` says why
};

struct NvccOption {
  std::string_view long_name;   // "--gpu-architecture"
  std::string_view short_name;  // "-arch"; nvcc's own short form, or the long one again
  bool takes_value = false;     // `-o x`, `-o=x`
  NvccOptionAction action = NvccOptionAction::handled;
  std::string_view text;
  std::string_view sample = {};  // a value nvcc takes, for the table's tests
};

std::span<const NvccOption> nvcc_options();

// The option named `name` (its long or short spelling, without any `=value`); nullptr if nvcc
// has no such option.
const NvccOption* find_nvcc_option(std::string_view name);

std::string_view nvcc_action_name(NvccOptionAction action);

}  // namespace gpuport::verify
