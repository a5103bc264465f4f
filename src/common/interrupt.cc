#include "common/interrupt.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sys/wait.h>
#include <unistd.h>

namespace gpuport {
namespace {

constexpr int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// Child process groups; 0 marks a free slot.
constexpr std::size_t kMaxChildren = 2048;
std::atomic<pid_t> g_child_groups[kMaxChildren];

// Temporaries. A slot is claimed (state 1), given a new generation and its path, then made
// active (state 2); the handler copies an active slot's path and uses the copy only if the
// generation and state did not change meanwhile (another thread may release and reuse the slot
// while the handler reads it).
constexpr std::size_t kMaxTemporaries = 512;
constexpr std::size_t kMaxPath = 4096;
struct TemporarySlot {
  std::atomic<int> state{0};
  std::atomic<std::uint64_t> generation{0};
  char path[kMaxPath];
};
TemporarySlot g_temporaries[kMaxTemporaries];

// A thread that makes a temporary or starts a child holds back the signals in itself, but the
// handler may run in another thread meanwhile: `g_making` counts the threads between making
// something and registering it, and `g_ending`, set by the handler, stops new ones. The handler
// waits for the count to drop before it looks at the registries, so nothing made is missed.
std::atomic<int> g_making{0};
std::atomic<bool> g_ending{false};

void sleep_ms(long ms);

void on_ending_signal(int sig) {
  const int saved = errno;
  g_ending.store(true);
  for (int waited = 0; waited < 1000 && g_making.load() > 0; ++waited) sleep_ms(1);
  kill_running_children();
  remove_registered_temporaries();
  errno = saved;
  // SA_RESETHAND put the default action back; the signal, blocked while the handler runs, ends
  // gpuport when the handler returns.
  ::raise(sig);
}

void sleep_ms(long ms) {
  timespec t{0, ms * 1000000L};
  while (::nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

bool remove_at(int dir, const char* name, int depth) {
  if (::unlinkat(dir, name, 0) == 0 || errno == ENOENT) return true;
  if (errno != EISDIR && errno != EPERM) return false;
  if (depth > 64) return false;
  const int fd = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  // Entries removed while the folder is read may make getdents skip others: read it again
  // until a pass finds nothing left to remove.
  for (int pass = 0; pass < 64; ++pass) {
    if (::lseek(fd, 0, SEEK_SET) != 0) break;
    bool any = false;
    alignas(8) char buffer[2048];
    for (;;) {
      const ssize_t n = ::getdents64(fd, buffer, sizeof buffer);
      if (n <= 0) break;
      for (ssize_t at = 0; at < n;) {
        const auto* e = reinterpret_cast<const dirent64*>(buffer + at);
        at += e->d_reclen;
        if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0) continue;
        any = true;
        remove_at(fd, e->d_name, depth + 1);
      }
    }
    if (!any) break;
  }
  ::close(fd);
  return ::unlinkat(dir, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

}  // namespace

void install_ending_signal_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kEndingSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0) continue;
      if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;  // ignored (nohup) or someone else's
      struct sigaction sa {};
      sa.sa_handler = on_ending_signal;
      sigemptyset(&sa.sa_mask);
      // The other ending signals wait while the handler runs: one cleanup at a time.
      for (int other : kEndingSignals) sigaddset(&sa.sa_mask, other);
      sa.sa_flags = SA_RESETHAND | SA_RESTART;
      ::sigaction(sig, &sa, nullptr);
    }
  });
}

EndingSignalsBlocked::EndingSignalsBlocked() {
  sigset_t ending;
  sigemptyset(&ending);
  for (int sig : kEndingSignals) sigaddset(&ending, sig);
  ::pthread_sigmask(SIG_BLOCK, &ending, &previous_);
  g_making.fetch_add(1);
  if (g_ending.load()) {
    // gpuport is being ended by another thread's handler: make nothing more, wait for the end.
    g_making.fetch_sub(1);
    for (;;) ::pause();
  }
}

EndingSignalsBlocked::~EndingSignalsBlocked() {
  g_making.fetch_sub(1);
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

bool is_ending_signal_handler(int sig) {
  struct sigaction sa {};
  return ::sigaction(sig, nullptr, &sa) == 0 && sa.sa_handler == on_ending_signal;
}

std::size_t register_child_group(pid_t group) {
  for (std::size_t i = 0; i < kMaxChildren; ++i) {
    pid_t expected = 0;
    if (g_child_groups[i].compare_exchange_strong(expected, group)) return i;
  }
  return kNoSlot;
}

void unregister_child_group(std::size_t slot) {
  if (slot < kMaxChildren) g_child_groups[slot].store(0);
}

void kill_running_children() {
  bool any = false;
  for (auto& slot : g_child_groups)
    if (pid_t g = slot.load(); g > 0) {
      ::kill(-g, SIGKILL);
      any = true;
    }
  if (!any) return;
  // Wait until every group is empty, so that nothing a child was writing appears after the
  // temporaries are removed. The group leader is gpuport's own child: reap it, or its zombie
  // keeps the group alive. Members it left behind are reaped by init.
  for (int waited = 0; waited < 2000; ++waited) {
    bool alive = false;
    for (auto& slot : g_child_groups) {
      const pid_t g = slot.load();
      if (g <= 0) continue;
      int status = 0;
      ::waitpid(g, &status, WNOHANG);
      if (::kill(-g, 0) == 0 || errno != ESRCH) alive = true;
    }
    if (!alive) return;
    sleep_ms(1);
  }
}

TemporaryRegistration::TemporaryRegistration(const std::filesystem::path& path) {
  const std::string& text = path.native();
  if (text.empty() || text.size() >= kMaxPath) return;
  install_ending_signal_handlers();
  for (std::size_t i = 0; i < kMaxTemporaries; ++i) {
    int expected = 0;
    TemporarySlot& s = g_temporaries[i];
    if (!s.state.compare_exchange_strong(expected, 1)) continue;
    s.generation.fetch_add(1);
    std::memcpy(s.path, text.c_str(), text.size() + 1);
    s.state.store(2, std::memory_order_release);
    slot_ = i;
    return;
  }
}

TemporaryRegistration::~TemporaryRegistration() { release(); }

TemporaryRegistration::TemporaryRegistration(TemporaryRegistration&& other) noexcept : slot_(other.slot_) { other.slot_ = kNoSlot; }

TemporaryRegistration& TemporaryRegistration::operator=(TemporaryRegistration&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = other.slot_;
    other.slot_ = kNoSlot;
  }
  return *this;
}

void TemporaryRegistration::release() {
  if (slot_ == kNoSlot) return;
  g_temporaries[slot_].state.store(0, std::memory_order_release);
  slot_ = kNoSlot;
}

void remove_registered_temporaries() {
  char path[kMaxPath];
  for (TemporarySlot& s : g_temporaries) {
    if (s.state.load(std::memory_order_acquire) != 2) continue;
    const std::uint64_t generation = s.generation.load(std::memory_order_acquire);
    std::memcpy(path, s.path, kMaxPath);
    path[kMaxPath - 1] = '\0';
    if (s.state.load(std::memory_order_acquire) != 2 || s.generation.load(std::memory_order_acquire) != generation) continue;
    remove_tree_signal_safe(path);
  }
}

bool remove_tree_signal_safe(const char* path) { return remove_at(AT_FDCWD, path, 0); }

}  // namespace gpuport
