#include "common/temporary.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

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
  std::size_t removed = 0;
  DIR* d = ::opendir(base.c_str());
  if (d == nullptr) return 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    const auto owner = temporary_folder_owner(name);
    if (!owner) continue;
    const pid_t pid = static_cast<pid_t>(*owner);
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;  // its process still runs
    const fs::path folder = base / std::string(name);
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) continue;
    std::error_code ec;
    if (fs::remove_all(folder, ec) != static_cast<std::uintmax_t>(-1) && !ec) ++removed;
  }
  ::closedir(d);
  return removed;
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
