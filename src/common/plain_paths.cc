#include "common/plain_paths.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <fmt/format.h>

#include "common/file_io.h"

namespace gpuport {
namespace fs = std::filesystem;

namespace {

Diagnostic alias_error(const fs::path& path, std::string message) {
  Diagnostic d;
  d.code = "io-error";
  d.message = std::move(message);
  d.location.file = path.string();
  return d;
}

}  // namespace

PlainPaths::~PlainPaths() = default;

Result<fs::path> PlainPaths::folder() {
  if (folder_.empty()) {
    folder_ = TemporaryFolder::make("tool");
    if (folder_.empty()) return alias_error("/tmp", fmt::format("cannot make a private folder: {}", std::strerror(errno)));
  }
  return folder_.path();
}

Result<fs::path> PlainPaths::input(const fs::path& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return alias_error(path, "cannot resolve path: " + ec.message());
  if (is_plain_argument(absolute.native())) return absolute;
  auto dir = folder();
  if (!dir) return dir.diagnostics().front();
  const std::string extension = absolute.extension().string();
  const fs::path alias = *dir / fmt::format("in{}{}", next_++, is_plain_argument(extension) ? extension : "");
  // Folders get a symlink. Files get a hard link, else a copy: nvcc resolves a symlinked
  // source to its real path and puts that, unquoted, into its shell commands.
  std::error_code ec2;
  if (fs::is_directory(absolute, ec2)) {
    if (::symlink(absolute.c_str(), alias.c_str()) != 0)
      return alias_error(path, fmt::format("cannot make a plain-named link for the tool: {}", std::strerror(errno)));
  } else if (::link(absolute.c_str(), alias.c_str()) != 0) {
    fs::copy_file(absolute, alias, ec2);
    if (ec2) return alias_error(path, "cannot make a plain-named copy for the tool: " + ec2.message());
  }
  aliases_.emplace_back(alias.string(), absolute.string());
  return alias;
}

Result<std::vector<std::string>> PlainPaths::include_flags(const std::vector<fs::path>& folders) {
  std::vector<std::string> flags;
  for (const auto& f : folders) {
    auto plain = input(f);
    if (!plain) return plain.diagnostics().front();
    flags.push_back("-I" + plain->string());
  }
  return flags;
}

std::optional<Diagnostic> PlainPaths::set_temporary_folder(std::map<std::string, std::optional<std::string>>& environment) {
  auto dir = folder();
  if (!dir) return dir.diagnostics().front();
  environment["TMPDIR"] = dir->string();
  return std::nullopt;
}

Result<fs::path> PlainPaths::output(const fs::path& path) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  if (ec) return alias_error(path, "cannot resolve path: " + ec.message());
  if (is_plain_argument(absolute.native())) return absolute;
  auto dir = folder();
  if (!dir) return dir.diagnostics().front();
  const std::string extension = absolute.extension().string();
  const fs::path alias = *dir / fmt::format("out{}{}", next_++, is_plain_argument(extension) ? extension : "");
  aliases_.emplace_back(alias.string(), absolute.string());
  outputs_.emplace_back(alias, absolute);
  return alias;
}

std::optional<Diagnostic> PlainPaths::commit_outputs() {
  std::optional<Diagnostic> first;
  for (const auto& [alias, real] : outputs_) {
    std::error_code ec;
    if (!fs::is_regular_file(alias, ec)) continue;
    if (::rename(alias.c_str(), real.c_str()) == 0) continue;
    // Another file system: copy, keeping the mode the tool gave the file (executables).
    const auto mode = fs::status(alias, ec).permissions();
    auto err = copy_file_atomic(alias, real, {.durable = false});
    if (!err) {
      fs::permissions(real, mode, ec);
    } else if (!first) {
      first = err;
    }
  }
  outputs_.clear();
  return first;
}

std::string PlainPaths::restore(std::string text) const { return replace_aliases(std::move(text), false); }

std::string PlainPaths::restore_command(std::string command_line) const {
  return replace_aliases(std::move(command_line), true);
}

std::string PlainPaths::replace_aliases(std::string text, bool quote) const {
  // Longest alias first, so that in1 does not match inside in12.
  auto sorted = aliases_;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [alias, original] : sorted) {
    for (std::size_t pos = 0; (pos = text.find(alias, pos)) != std::string::npos;) {
      const std::string with = quote ? shell_quote(original) : original;
      text.replace(pos, alias.size(), with);
      pos += with.size();
    }
  }
  return text;
}

}  // namespace gpuport
