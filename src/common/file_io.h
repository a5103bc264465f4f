// File input and output with the project's promises: reads report why they failed and refuse
// what is not a regular file, and writes never leave a half-written file (temp file, fsync,
// rename into place), keep the replaced file's mode and owner, and write through symlinks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

#include "common/diagnostic.h"

namespace gpuport {

// Reads a whole regular file. Fails with code "io-error" (unreadable, or a FIFO, device or
// socket, which could block forever or never end) or "file-too-large".
Result<std::string> read_file(const std::filesystem::path& path, std::uint64_t max_bytes);
// The same into `content`, whose storage is reused (for loops over many files).
std::optional<Diagnostic> read_file_into(const std::filesystem::path& path, std::uint64_t max_bytes,
                                         std::string& content);

struct WriteOptions {
  // Also flush the data and the folder entry to disk before returning (fsync): needed when the
  // file replaces something that exists nowhere else (in-place rewrites, backups), not for
  // outputs that can be made again from their inputs.
  bool durable = true;
  // Make missing parent folders (output trees); false: a missing folder is an error (a report
  // file named by the user).
  bool create_parents = true;
  // The file whose permission bits (and owner, with keep_owner) the written file takes: a
  // backup takes its original's, a translated file in an -o tree its input's. Empty: those of
  // the file being replaced, else 0666 minus the umask and the caller as owner.
  std::filesystem::path metadata_from;
  // Also give the file that owner (where permitted: as root, or a group the caller is in).
  bool keep_owner = true;
  // Fail with code "file-exists" instead of replacing an existing file (backups).
  bool no_replace = false;
};

// Writes `content` to `path` atomically: a temporary file in the same folder is written,
// flushed and renamed over `path`. A symlink is written through (its target is replaced, the
// link stays); a FIFO or character device (/dev/stdout, a pipe) is written to directly, since
// it cannot be renamed over. Returns a diagnostic (code "io-error") on failure, leaving `path`
// untouched; a write to a full device is a failure.
std::optional<Diagnostic> write_file_atomic(const std::filesystem::path& path, std::string_view content,
                                            const WriteOptions& options = {});

// Copies a file atomically (same promise as write_file_atomic; the copy takes the original's
// mode unless options say otherwise).
std::optional<Diagnostic> copy_file_atomic(const std::filesystem::path& from,
                                           const std::filesystem::path& to, const WriteOptions& options = {});

// The temporary files of write_file_atomic (and the staging folders of
// TemporaryFolder::make_beside) are named `.<name>.gpuport-<pid>-XXXXXX`. Removes those in
// `folder` whose writing process no longer runs (left by an interrupted run) and returns how
// many went.
std::size_t remove_stale_temporaries(const std::filesystem::path& folder);
// The entries of `folder` whose name `owner` maps to a process id that no longer runs are
// removed: folders this user owns with everything in them, and with `files_too` regular files.
// Returns how many went. (remove_stale_temporaries, and temporary.h's stale folders.)
std::size_t remove_entries_of_ended_processes(const std::filesystem::path& folder,
                                              std::optional<int> (*owner)(std::string_view name), bool files_too);
// The process id in such a temporary file's name; std::nullopt for any other name.
std::optional<int> temporary_file_writer(std::string_view file_name);

// The process's umask, read without changing it (/proc/self/status; umask(2) can only be read by
// setting it, which would briefly give other threads' new files the wrong mode).
mode_t current_umask();

// Writes all of `content` to the file descriptor; false (errno set) on a short or failed write.
bool write_all(int fd, std::string_view content);

}  // namespace gpuport
