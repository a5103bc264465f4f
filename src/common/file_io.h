// File input and output with the project's promises: reads report why they failed, and writes
// never leave a half-written file (temp file, fsync, rename into place).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/diagnostic.h"

namespace gpuport {

// Reads a whole file. Fails with code "io-error" (unreadable) or "file-too-large".
Result<std::string> read_file(const std::filesystem::path& path, std::uint64_t max_bytes);
// The same into `content`, whose storage is reused (for loops over many files).
std::optional<Diagnostic> read_file_into(const std::filesystem::path& path, std::uint64_t max_bytes,
                                         std::string& content);

// Writes `content` to `path` atomically: a temporary file in the same folder is written,
// flushed to disk and renamed over `path`. Parent folders are created. Keeps the mode of an
// existing file. Returns a diagnostic (code "io-error") on failure, leaving `path` untouched.
// `durable` also flushes the data and the folder entry to disk before returning (fsync): needed
// when the file replaces something that exists nowhere else (in-place rewrites, backups), not
// for outputs that can be made again from their inputs.
std::optional<Diagnostic> write_file_atomic(const std::filesystem::path& path, std::string_view content,
                                            bool durable = true);

// Copies a file atomically (same promise as write_file_atomic).
std::optional<Diagnostic> copy_file_atomic(const std::filesystem::path& from,
                                           const std::filesystem::path& to, bool durable = true);

}  // namespace gpuport
