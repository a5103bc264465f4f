#include "common/file_io.h"

#include <cerrno>
#include <cstring>
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

}  // namespace

std::optional<Diagnostic> read_file_into(const fs::path& path, std::uint64_t max_bytes, std::string& content) {
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return io_error(path, "cannot open file", errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return io_error(path, "cannot stat file", errno);
  if (S_ISDIR(st.st_mode)) return io_error(path, "cannot read file", EISDIR);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    Diagnostic d;
    d.code = "file-too-large";
    d.message = fmt::format("file is {} bytes, over the limit of {} bytes (raise it with --max-file-size)",
                            st.st_size, max_bytes);
    d.location.file = path.string();
    return d;
  }
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

std::optional<Diagnostic> write_file_atomic(const fs::path& path, std::string_view content, bool durable) {
  std::error_code ec;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  fs::create_directories(dir, ec);
  if (ec) return io_error(dir, "cannot create folder", ec.value());

  std::string tmpl = (dir / ("." + path.filename().string() + ".gpuport-XXXXXX")).string();
  FileDescriptor fd(::mkstemp(tmpl.data()));
  if (fd.get() < 0) return io_error(path, "cannot create temporary file", errno);
  const fs::path tmp(tmpl);
  auto fail = [&](std::string_view what, int err) {
    ::unlink(tmp.c_str());
    return io_error(path, what, err);
  };

  mode_t mode = 0644;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd.get(), mode) != 0) return fail("cannot set file mode", errno);

  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write file", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  if (durable && ::fsync(fd.get()) != 0) return fail("cannot flush file", errno);
  if (::close(fd.release()) != 0) return fail("cannot close file", errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return fail("cannot move file into place", errno);
  if (durable) {
    FileDescriptor dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dfd.get() >= 0) ::fsync(dfd.get());
  }
  return std::nullopt;
}

std::optional<Diagnostic> copy_file_atomic(const fs::path& from, const fs::path& to, bool durable) {
  auto content = read_file(from, UINT64_MAX);
  if (!content) return content.diagnostics().front();
  return write_file_atomic(to, *content, durable);
}

}  // namespace gpuport
