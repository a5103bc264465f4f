// The one way the project runs external programs (nvcc, clang, nvdisasm, ...): output is
// captured, a timeout is enforced on the whole process group, and the exact command line is
// kept for error messages. No child outlives gpuport: each runs in a process group of its own,
// which is killed on timeout and when gpuport is ended by SIGINT, SIGTERM, SIGHUP or SIGQUIT
// (and the direct child gets SIGKILL when gpuport itself dies by SIGKILL).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport {

struct ProcessOptions {
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};  // 0: none
  std::filesystem::path working_directory;  // empty: inherit
  // Environment changes: a value sets the variable, std::nullopt removes it.
  std::map<std::string, std::optional<std::string>> environment;
  std::size_t max_output_bytes = 16u << 20;  // per stream; the rest is dropped
  // Address-space limit of the child (RLIMIT_AS) in bytes; 0: none. For tools that may loop
  // on corrupt input while allocating (nvdisasm on a broken cubin).
  std::uint64_t max_memory_bytes = 0;
  // The child uses gpuport's own standard input, output and error (nothing is captured: `out`
  // and `err` stay empty), and gets the terminal while it runs when gpuport holds it in the
  // foreground (Ctrl-C and Ctrl-Z then reach it). For `gpuport run`'s program.
  bool pass_through = false;
};

struct ProcessResult {
  int exit_code = -1;      // the program's exit status; -1 when it did not exit normally
  int signal = 0;          // the signal that ended it, if any
  bool timed_out = false;
  bool started = false;    // false when the program could not be run at all
  std::string out;
  std::string err;
  std::string command_line;  // shell-quoted, for messages

  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // One line that says how the run ended, e.g. "exit 1", "timed out after 10 s", "signal 11".
  std::string outcome() const;
};

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// True when no POSIX shell would expand, split or quote-process `text` (it needs no quoting).
bool is_plain_argument(std::string_view text);

// Quotes one argument for a POSIX shell when it needs quoting.
std::string shell_quote(const std::string& argument);

// Looks a program up on PATH (or checks an explicit path); empty when not found.
std::filesystem::path find_program(const std::string& name);

}  // namespace gpuport
