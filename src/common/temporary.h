// Private folders for temporary files: made under $TMPDIR (when it is a plain absolute path,
// since tools such as nvcc put it unquoted into shell commands) or /tmp, named
// gpuport-<what>-<pid>-XXXXXX with mode 0700, and removed with everything in them when their
// owner is done, when gpuport is ended by a signal (interrupt.h), and, after a run killed
// outright, by the next run that makes one (its folders whose process no longer runs).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/interrupt.h"

namespace gpuport {

class TemporaryFolder {
 public:
  TemporaryFolder() = default;
  // A new folder; empty() when it could not be made (errno says why).
  static TemporaryFolder make(std::string_view what);
  // A staging folder beside `target` (same file system, so that what is made in it can be
  // renamed into place): `.<target's name>.gpuport-<pid>-XXXXXX` in target's folder, which
  // file_io.h's remove_stale_temporaries removes after a run killed outright.
  static TemporaryFolder make_beside(const std::filesystem::path& target);
  ~TemporaryFolder();
  TemporaryFolder(TemporaryFolder&& other) noexcept;
  TemporaryFolder& operator=(TemporaryFolder&& other) noexcept;
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  bool empty() const { return path_.empty(); }
  // Removes the folder now (also done by the destructor).
  void remove();

 private:
  static TemporaryFolder made_from(std::string pattern);  // mkdtemp's XXXXXX pattern

  std::filesystem::path path_;
  TemporaryRegistration registration_;
};

// The process id in a temporary folder's name (gpuport-<what>-<pid>-XXXXXX); nullopt for other names.
std::optional<int> temporary_folder_owner(std::string_view name);

// Removes the folders in `base` named as temporary folders whose process no longer runs and
// which this user owns; returns how many went. make() does this once per process.
std::size_t remove_stale_temporary_folders(const std::filesystem::path& base);

}  // namespace gpuport
