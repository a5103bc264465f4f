#include "common/temporary.h"

#include <cstdlib>
#include <mutex>
#include <unistd.h>

#include <fmt/format.h>

#include "common/file_io.h"
#include "common/process.h"

namespace gpuport {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kPrefix = "gpuport-";

fs::path temporary_base() {
  if (const char* t = std::getenv("TMPDIR"); t && *t && t[0] == '/' && is_plain_argument(t)) return t;
  return "/tmp";
}

}  // namespace

std::optional<int> temporary_folder_owner(std::string_view name) {
  // gpuport-<what>-<pid>-XXXXXX
  if (!name.starts_with(kPrefix) || name.size() < kPrefix.size() + 10) return std::nullopt;
  const std::size_t last = name.size() - 7;
  if (name[last] != '-') return std::nullopt;
  const std::size_t dash = name.rfind('-', last - 1);
  if (dash == std::string_view::npos || dash < kPrefix.size() || last - dash - 1 == 0 || last - dash - 1 > 9) return std::nullopt;
  const std::string_view digits = name.substr(dash + 1, last - dash - 1);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  return std::stoi(std::string(digits));
}

std::size_t remove_stale_temporary_folders(const fs::path& base) {
  return remove_entries_of_ended_processes(base, temporary_folder_owner, false);
}

TemporaryFolder TemporaryFolder::make(std::string_view what) {
  const fs::path base = temporary_base();
  static std::once_flag swept;
  std::call_once(swept, [&] { remove_stale_temporary_folders(base); });
  while (!what.empty() && what.back() == '-') what.remove_suffix(1);
  if (what.starts_with(kPrefix)) what.remove_prefix(kPrefix.size());
  return made_from((base / fmt::format("{}{}-{}-XXXXXX", kPrefix, what, ::getpid())).string());
}

TemporaryFolder TemporaryFolder::made_from(std::string pattern) {
  TemporaryFolder folder;
  install_ending_signal_handlers();
  EndingSignalsBlocked blocked;  // made and registered as one step
  if (::mkdtemp(pattern.data()) == nullptr) return folder;
  folder.registration_ = TemporaryRegistration(pattern);
  folder.path_ = pattern;
  return folder;
}

TemporaryFolder TemporaryFolder::make_beside(const fs::path& target) {
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string name = target.filename().string();
  if (name.empty() || name == "." || name == "..") name = "folder";
  if (name.size() > 200) name.resize(200);
  return made_from((parent / fmt::format(".{}.gpuport-{}-XXXXXX", name, ::getpid())).string());
}

TemporaryFolder::~TemporaryFolder() { remove(); }

TemporaryFolder::TemporaryFolder(TemporaryFolder&& other) noexcept
    : path_(std::move(other.path_)), registration_(std::move(other.registration_)) {
  other.path_.clear();
}

TemporaryFolder& TemporaryFolder::operator=(TemporaryFolder&& other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::move(other.path_);
    registration_ = std::move(other.registration_);
    other.path_.clear();
  }
  return *this;
}

void TemporaryFolder::remove() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
  registration_.release();
  path_.clear();
}

}  // namespace gpuport
