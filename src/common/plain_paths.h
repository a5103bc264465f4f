// nvcc runs its compilation steps through `/bin/sh -c` with file names unquoted, so a source
// named `x$(touch pwned).cu` would run `touch pwned`. Every path gpuport hands to such a tool is
// one gpuport chose: the path itself when it holds only characters no shell treats specially,
// else a plain name in a private folder of gpuport's (a symlink for a folder; a hard link or
// a copy for a file, since nvcc resolves symlinks to the real name). Outputs the tool writes go
// to a plain path there first and are moved into place after the run.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"
#include "common/process.h"
#include "common/temporary.h"

namespace gpuport {

class PlainPaths {
 public:
  PlainPaths() = default;
  ~PlainPaths();
  PlainPaths(const PlainPaths&) = delete;
  PlainPaths& operator=(const PlainPaths&) = delete;

  // A plain absolute name for an existing file or folder: the path itself when it is plain,
  // else a name in the private folder (the extension is kept when it is plain, since tools
  // such as nvcc choose the language by it).
  Result<std::filesystem::path> input(const std::filesystem::path& path);
  // "-I<plain name>" for each folder.
  Result<std::vector<std::string>> include_flags(const std::vector<std::filesystem::path>& folders);
  // A plain absolute path to write to in place of `path`; commit_outputs() moves the file there.
  Result<std::filesystem::path> output(const std::filesystem::path& path);
  // Moves every file written to an output() alias to its real path (atomically where the folder
  // allows). The first failure is returned; aliases the tool did not write are skipped.
  std::optional<Diagnostic> commit_outputs();
  // The private folder, made on first use (for a tool's TMPDIR).
  Result<std::filesystem::path> folder();
  // Sets TMPDIR in `environment` to the private folder: nvcc names its own temporary files
  // after TMPDIR and passes them through the shell too.
  std::optional<Diagnostic> set_temporary_folder(std::map<std::string, std::optional<std::string>>& environment);
  // `text` with every alias replaced by the path it stands for, so that a tool's messages name
  // the user's files.
  std::string restore(std::string text) const;
  // The same for a shell-quoted command line: each original path goes in shell-quoted, so that
  // the command shown can be pasted into a shell safely.
  std::string restore_command(std::string command_line) const;

 private:
  std::string replace_aliases(std::string text, bool quote) const;

  TemporaryFolder folder_;
  unsigned next_ = 0;
  std::vector<std::pair<std::string, std::string>> aliases_;  // alias -> original
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> outputs_;
};

}  // namespace gpuport
