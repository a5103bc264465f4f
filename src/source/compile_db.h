// Reads the flags that change a translation (-I, -D, -U) from a compilation database
// (compile_commands.json, as CMake, Bear and hipify-clang's -p use it).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/diagnostic.h"

namespace gpuport::source {

struct CompileFlags {
  std::vector<std::filesystem::path> include_dirs;  // absolute, in first-seen order
  std::vector<std::string> defines;                 // NAME or NAME=VALUE
  std::vector<std::string> undefines;
  std::vector<std::filesystem::path> forced_includes;  // -include FILE (nvcc: --pre-include), absolute
  std::string standard;                             // -std=c++17 (the last one), for compile checks
  std::size_t matched = 0;                          // database entries that named an input
  // Each source file's own flags (canonical path); the fields above are their union.
  std::map<std::filesystem::path, CompileFlags> by_file;
};

// The object-like macros a header #defines at its top level, as NAME or NAME=VALUE (what a
// forced include adds to a unit's macros); empty when it cannot be read.
std::vector<std::string> header_defines(const std::filesystem::path& header);

// The flags of the entries of `database` (a compile_commands.json, or a folder holding one) whose
// file is one of `inputs` or lies under an input folder; -I paths are resolved against each
// entry's "directory". Both "arguments" and shell-quoted "command" entries are read. A file that
// is missing or not a database is a diagnostic naming it (and, for bad JSON, the byte offset).
Result<CompileFlags> read_compile_flags(const std::filesystem::path& database,
                                        const std::vector<std::filesystem::path>& inputs);

// Splits a command line as a POSIX shell would for a plain command: blanks separate words,
// '...' and "..." quote, a backslash escapes the next character (inside "..." only before
// $ ` " \ and newline).
std::vector<std::string> split_command_line(const std::string& command);

}  // namespace gpuport::source
