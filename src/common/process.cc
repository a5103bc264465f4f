#include "common/process.h"

#include "common/interrupt.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <mutex>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

extern char** environ;

namespace gpuport {

bool is_plain_argument(std::string_view text) {
  // None of these characters is special to a POSIX shell in an argument position (no
  // expansion, globbing, splitting, quoting or redirection).
  return !text.empty() &&
         text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.,:@%") ==
             std::string_view::npos;
}

std::string shell_quote(const std::string& a) {
  if (is_plain_argument(a)) return a;
  std::string q = "'";
  for (char c : a) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

std::string ProcessResult::outcome() const {
  if (!started) return "could not be started";
  if (timed_out) return "timed out";
  if (signal != 0) return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit {}", exit_code);
}

namespace {

std::vector<std::string> build_environment(const ProcessOptions& options) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    env[std::string(kv.substr(0, eq))] = std::string(kv.substr(eq + 1));
  }
  for (const auto& [key, value] : options.environment) {
    if (value) env[key] = *value;
    else env.erase(key);
  }
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [key, value] : env) out.push_back(key + "=" + value);
  return out;
}

std::string resolve_program(const std::string& name, const ProcessOptions& options) {
  if (name.find('/') != std::string::npos) return name;
  std::string path;
  auto it = options.environment.find("PATH");
  if (it != options.environment.end()) path = it->second.value_or("");
  else if (const char* p = std::getenv("PATH")) path = p;
  else path = "/usr/bin:/bin";
  std::string_view rest = path;
  while (!rest.empty()) {
    auto colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

}  // namespace

std::filesystem::path find_program(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return ::access(name.c_str(), X_OK) == 0 ? std::filesystem::path(name) : std::filesystem::path();
  return resolve_program(name, {});
}

namespace {

// The terminal gpuport holds in the foreground, if any: a pass-through child gets it while it
// runs, so that it can read from it and Ctrl-C and Ctrl-Z reach it.
int foreground_terminal() {
  if (!::isatty(0)) return -1;
  const pid_t holder = ::tcgetpgrp(0);
  return holder > 0 && holder == ::getpgrp() ? 0 : -1;
}

// tcsetpgrp from a process that may be in a background group: SIGTTOU held back meanwhile.
void give_terminal(int fd, pid_t group) {
  sigset_t ttou, previous;
  sigemptyset(&ttou);
  sigaddset(&ttou, SIGTTOU);
  ::pthread_sigmask(SIG_BLOCK, &ttou, &previous);
  ::tcsetpgrp(fd, group);
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  ProcessResult result;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (i) result.command_line += ' ';
    result.command_line += shell_quote(argv[i]);
  }
  if (argv.empty()) return result;
  install_ending_signal_handlers();

  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  const std::string program = resolve_program(argv[0], options);
  if (program.empty()) {
    result.err = fmt::format("cannot run {}: {}", argv[0], std::strerror(ENOENT));
    return result;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_strings = build_environment(options);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const std::string workdir = options.working_directory.string();
  const bool capture = !options.pass_through;
  const int terminal = options.pass_through ? foreground_terminal() : -1;

  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1}, exec_pipe[2];
  auto close_all = [](std::initializer_list<int> fds) {
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  };
  if (capture && ::pipe2(out_pipe, O_CLOEXEC) != 0) return result;
  if (capture && ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    close_all({out_pipe[0], out_pipe[1]});
    return result;
  }
  if (::pipe2(exec_pipe, O_CLOEXEC) != 0) {
    close_all({out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]});
    return result;
  }

  // Ending signals wait until the child is registered, so none can slip between fork and that.
  std::optional<EndingSignalsBlocked> blocked(std::in_place);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
    // The child: a process group of its own, killed if gpuport dies, limits, then exec.
    ::setpgid(0, 0);
    if (terminal >= 0) give_terminal(terminal, ::getpid());  // also here: before it can read the terminal
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
      if (is_ending_signal_handler(sig)) ::signal(sig, SIG_DFL);
    ::pthread_sigmask(SIG_SETMASK, &blocked->previous(), nullptr);
    if (options.max_memory_bytes > 0) {
      struct rlimit limit {};
      limit.rlim_cur = limit.rlim_max = options.max_memory_bytes;
      ::setrlimit(RLIMIT_AS, &limit);
    }
    if (capture) {
      int null_fd = ::open("/dev/null", O_RDONLY);
      if (null_fd >= 0 && null_fd != 0) {
        ::dup2(null_fd, 0);
        ::close(null_fd);
      }
      ::dup2(out_pipe[1], 1);
      ::dup2(err_pipe[1], 2);
    }
    int err = 0;
    if (!workdir.empty() && ::chdir(workdir.c_str()) != 0) err = errno;
    if (err == 0) {
      ::execve(program.c_str(), args.data(), envp.data());
      err = errno;
    }
    ssize_t ignored = ::write(exec_pipe[1], &err, sizeof err);
    (void)ignored;
    ::_exit(127);
  }
  const std::size_t slot = pid > 0 ? register_child_group(pid) : kNoSlot;
  if (pid > 0) ::setpgid(pid, pid);  // also here: no race with a kill before the child's own call
  if (pid > 0 && terminal >= 0) give_terminal(terminal, pid);
  blocked.reset();
  close_all({out_pipe[1], err_pipe[1], exec_pipe[1]});
  auto take_terminal_back = [&] {
    if (terminal >= 0) give_terminal(terminal, ::getpgrp());
  };
  if (pid < 0) {
    const int err = errno;
    close_all({out_pipe[0], err_pipe[0], exec_pipe[0]});
    take_terminal_back();
    result.err = fmt::format("cannot run {}: {}", argv[0], std::strerror(err));
    return result;
  }
  int exec_error = 0;
  ssize_t got_error;
  do {
    got_error = ::read(exec_pipe[0], &exec_error, sizeof exec_error);
  } while (got_error < 0 && errno == EINTR);
  ::close(exec_pipe[0]);
  if (got_error == sizeof exec_error) {
    // exec failed: reap the child and say why.
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    unregister_child_group(slot);
    close_all({out_pipe[0], err_pipe[0]});
    take_terminal_back();
    result.err = fmt::format("cannot run {}: {}", argv[0], std::strerror(exec_error));
    return result;
  }
  result.started = true;

  const bool has_deadline = options.timeout.count() > 0;
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  auto past_deadline = [&] { return has_deadline && std::chrono::steady_clock::now() >= deadline; };
  if (capture) {
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_streams = 2;
    char buffer[65536];
    while (open_streams > 0) {
      long long wait_ms = 1000;
      if (has_deadline) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
          result.timed_out = true;
          break;
        }
        wait_ms = std::min<long long>(left.count(), 1000);
      }
      int n = ::poll(fds, 2, static_cast<int>(wait_ms));
      if (n < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (int i = 0; i < 2; ++i) {
        if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
        ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
        if (got > 0) {
          std::size_t room = options.max_output_bytes - std::min(options.max_output_bytes, sinks[i]->size());
          sinks[i]->append(buffer, std::min<std::size_t>(room, static_cast<std::size_t>(got)));
        } else if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) {
          ::close(fds[i].fd);
          fds[i].fd = -1;
          --open_streams;
        }
      }
    }
    if (result.timed_out) ::kill(-pid, SIGKILL);
    for (auto& f : fds)
      if (f.fd >= 0) ::close(f.fd);
  }

  // Wait for the exit without reaping (WNOWAIT), so that the group is unregistered while its
  // id cannot yet belong to another process; then reap. A pass-through child stopped from its
  // terminal (Ctrl-Z) stops gpuport too, so that the shell gets the terminal back; when the
  // shell continues gpuport, the child gets the terminal and continues.
  while (true) {
    siginfo_t info {};
    const bool poll_only = has_deadline && !result.timed_out;
    int w = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT | (terminal >= 0 ? WSTOPPED : 0) | (poll_only ? WNOHANG : 0));
    if (w < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (info.si_pid == pid && info.si_code == CLD_STOPPED) {
      take_terminal_back();
      ::raise(SIGTSTP);  // gpuport stops here until continued
      give_terminal(terminal, pid);
      ::kill(-pid, SIGCONT);
      continue;
    }
    if (info.si_pid == pid) break;
    // Still running: wait for it within the deadline.
    if (past_deadline()) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      continue;
    }
    ::usleep(capture ? 2000 : 20000);
  }
  unregister_child_group(slot);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  take_terminal_back();
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !result.timed_out) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace gpuport
