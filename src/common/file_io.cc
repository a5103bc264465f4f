#include "common/file_io.h"

#include "common/interrupt.h"

#include "common/memory.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace gpuport {
namespace fs = std::filesystem;

namespace {

Diagnostic io_error(const fs::path& path, std::string_view what, int err) {
  Diagnostic d;
  d.severity = Severity::error;
  d.code = "io-error";
  d.message = fmt::format("{}: {}", what, std::strerror(err));
  d.location.file = path.string();
  return d;
}

Diagnostic io_error(const fs::path& path, std::string message) {
  Diagnostic d;
  d.severity = Severity::error;
  d.code = "io-error";
  d.message = std::move(message);
  d.location.file = path.string();
  return d;
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// What a file that is not a regular file or folder is, for messages.
const char* special_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}

// The file a symlink chain ends at (which need not exist); `path` itself when it is no link.
std::optional<fs::path> resolve_links(fs::path path, int& err) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
    std::error_code ec;
    fs::path target = fs::read_symlink(path, ec);
    if (ec) {
      err = ec.value();
      return std::nullopt;
    }
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  err = ELOOP;
  return std::nullopt;
}

constexpr std::string_view kTemporaryMark = ".gpuport-";
constexpr std::size_t kNameMax = 255;

// `.<name>.gpuport-<pid>-XXXXXX`, the name cut (at a UTF-8 character boundary) so that the
// whole fits in a file name.
std::string temporary_name(const std::string& name) {
  const std::string tail = fmt::format("{}{}-XXXXXX", kTemporaryMark, ::getpid());
  std::size_t keep = std::min(name.size(), kNameMax - 1 - tail.size());
  while (keep > 0 && keep < name.size() && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
  return "." + name.substr(0, keep) + tail;
}

}  // namespace

mode_t current_umask() {
  if (FILE* f = std::fopen("/proc/self/status", "re")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f)) found = std::sscanf(line, "Umask: %o", &mask) == 1;
    std::fclose(f);
    if (found) return static_cast<mode_t>(mask);
  }
  const mode_t mask = ::umask(0);  // kernels before 4.7 do not show it
  ::umask(mask);
  return mask;
}

bool write_all(int fd, std::string_view content) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = ENOSPC;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<Diagnostic> read_file_into(const fs::path& path, std::uint64_t max_bytes, std::string& content) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return io_error(path, "cannot open file", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return io_error(path, "cannot stat file", errno);
  if (S_ISDIR(st.st_mode)) return io_error(path, "cannot read file", EISDIR);
  if (!S_ISREG(st.st_mode))
    return io_error(path, fmt::format("cannot read file: it is {}, not a regular file", special_kind(st.st_mode)));
  if (int flags = ::fcntl(fd.get(), F_GETFL); flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    Diagnostic d;
    d.code = "file-too-large";
    d.message = fmt::format("file is {} bytes, over the limit of {} bytes (raise it with --max-file-size)",
                            st.st_size, max_bytes);
    d.location.file = path.string();
    return d;
  }
  // Room for the growth check below, so that reaching the end does not reallocate the text.
  const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(st.st_size + 65536, max_bytes + 1));
  reserve_fresh(content, room);
  content.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (true) {
    if (done == content.size()) {
      // The file may have grown since fstat; read on in chunks up to the limit.
      if (content.size() >= max_bytes + 1) break;
      content.resize(std::min<std::uint64_t>(content.size() + 65536, max_bytes + 1));
    }
    ssize_t n = ::read(fd.get(), content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(path, "cannot read file", errno);
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  if (done > max_bytes) {
    Diagnostic d;
    d.code = "file-too-large";
    d.message = fmt::format("file is over the limit of {} bytes (raise it with --max-file-size)", max_bytes);
    d.location.file = path.string();
    return d;
  }
  return std::nullopt;
}

Result<std::string> read_file(const fs::path& path, std::uint64_t max_bytes) {
  std::string content;
  if (auto err = read_file_into(path, max_bytes, content)) return *err;
  return content;
}

std::optional<Diagnostic> write_file_atomic(const fs::path& requested, std::string_view content,
                                            const WriteOptions& options) {
  int link_err = 0;
  const auto resolved = resolve_links(requested, link_err);
  if (!resolved) return io_error(requested, "cannot follow symbolic link", link_err);
  const fs::path& path = *resolved;

  struct stat existing {};
  const bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode)) return io_error(requested, "cannot write file", EISDIR);
  if (exists && options.no_replace) {
    Diagnostic d = io_error(requested, "file exists", EEXIST);
    d.code = "file-exists";
    return d;
  }
  if (exists && (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode))) {
    // /dev/stdout, /dev/null, a named pipe: written to as it is, since it cannot be replaced.
    FileDescriptor fd(::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC));
    if (fd.get() < 0) return io_error(requested, "cannot open file", errno);
    if (!write_all(fd.get(), content)) return io_error(requested, "cannot write file", errno);
    if (::close(fd.release()) != 0) return io_error(requested, "cannot close file", errno);
    return std::nullopt;
  }
  if (exists && !S_ISREG(existing.st_mode))
    return io_error(requested, fmt::format("cannot write file: it is {}", special_kind(existing.st_mode)));

  std::error_code ec;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (options.create_parents) {
    fs::create_directories(dir, ec);
    if (ec) return io_error(dir, "cannot create folder", ec.value());
  } else if (!fs::is_directory(dir, ec)) {
    return io_error(requested, "cannot write file: the folder " + dir.string() + " does not exist");
  }

  std::string tmpl = (dir / temporary_name(path.filename().string())).string();
  // Made and registered as one step: a signal that ends gpuport before the rename removes it.
  install_ending_signal_handlers();
  TemporaryRegistration registration;
  int raw_fd;
  {
    EndingSignalsBlocked blocked;
    raw_fd = ::mkstemp(tmpl.data());
    if (raw_fd >= 0) registration = TemporaryRegistration(tmpl);
  }
  FileDescriptor fd(raw_fd);
  if (fd.get() < 0) return io_error(requested, "cannot create temporary file", errno);
  const fs::path tmp(tmpl);
  auto fail = [&](std::string_view what, int err) {
    ::unlink(tmp.c_str());
    return io_error(requested, what, err);
  };

  // Mode and owner: of the named model file, else of the file replaced, else the defaults.
  struct stat model {};
  bool have_model = false;
  if (!options.metadata_from.empty()) have_model = ::stat(options.metadata_from.c_str(), &model) == 0;
  if (!have_model && exists) model = existing, have_model = true;
  mode_t mode;
  if (have_model) {
    mode = model.st_mode & 07777;
    if (options.keep_owner && (model.st_uid != ::geteuid() || model.st_gid != ::getegid())) {
      // Where permitted (root, or a group the caller is in); otherwise the caller owns the file.
      if (::fchown(fd.get(), model.st_uid, model.st_gid) != 0) (void)::fchown(fd.get(), static_cast<uid_t>(-1), model.st_gid);
    }
  } else {
    mode = 0666 & ~current_umask();
  }
  if (::fchmod(fd.get(), mode) != 0) return fail("cannot set file mode", errno);

  if (!write_all(fd.get(), content)) return fail("cannot write file", errno);
  if (options.durable && ::fsync(fd.get()) != 0) return fail("cannot flush file", errno);
  if (::close(fd.release()) != 0) return fail("cannot close file", errno);
  if (options.no_replace) {
    // link() never replaces: an existing file makes it fail with EEXIST, atomically.
    if (::link(tmp.c_str(), path.c_str()) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      if (err != EEXIST) return io_error(requested, "cannot move file into place", err);
      Diagnostic d = io_error(requested, "file exists", err);
      d.code = "file-exists";
      return d;
    }
    ::unlink(tmp.c_str());
  } else if (::rename(tmp.c_str(), path.c_str()) != 0) {
    return fail("cannot move file into place", errno);
  }
  if (options.durable) {
    FileDescriptor dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dfd.get() >= 0) ::fsync(dfd.get());
  }
  return std::nullopt;
}

std::optional<Diagnostic> copy_file_atomic(const fs::path& from, const fs::path& to, const WriteOptions& options) {
  auto content = read_file(from, UINT64_MAX);
  if (!content) return content.diagnostics().front();
  WriteOptions o = options;
  if (o.metadata_from.empty()) o.metadata_from = from;
  return write_file_atomic(to, *content, o);
}

std::optional<int> temporary_file_writer(std::string_view name) {
  if (name.size() < 2 || name[0] != '.') return std::nullopt;
  // ...".gpuport-" <pid> "-" 6 characters of mkstemp.
  const auto mark = name.rfind(kTemporaryMark);
  if (mark == std::string_view::npos || name.size() < mark + kTemporaryMark.size() + 8) return std::nullopt;
  const std::string_view tail = name.substr(mark + kTemporaryMark.size());
  const auto dash = tail.find('-');
  if (dash == 0 || dash == std::string_view::npos || tail.size() - dash - 1 != 6) return std::nullopt;
  const std::string_view digits = tail.substr(0, dash);
  if (digits.find_first_not_of("0123456789") != std::string_view::npos || digits.size() > 9) return std::nullopt;
  return std::stoi(std::string(digits));
}

std::size_t remove_entries_of_ended_processes(const fs::path& folder, std::optional<int> (*owner)(std::string_view name),
                                              bool files_too) {
  std::size_t removed = 0;
  DIR* d = ::opendir(folder.c_str());
  if (d == nullptr) return 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    const auto writer = owner(name);
    if (!writer) continue;
    const pid_t pid = static_cast<pid_t>(*writer);
    if (pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;  // its process still runs
    const fs::path entry = folder / std::string(name);
    struct stat st {};
    if (::lstat(entry.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode) && st.st_uid == ::geteuid()) {
      std::error_code ec;
      fs::remove_all(entry, ec);
      removed += !ec;
    } else if (files_too && S_ISREG(st.st_mode) && ::unlink(entry.c_str()) == 0) {
      ++removed;
    }
  }
  ::closedir(d);
  return removed;
}

std::size_t remove_stale_temporaries(const fs::path& folder) {
  return remove_entries_of_ended_processes(folder, temporary_file_writer, true);
}

}  // namespace gpuport
