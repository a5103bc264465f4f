// What gpuport does when it is ended by SIGINT, SIGTERM, SIGHUP or SIGQUIT: it kills the process
// group of every child it runs and waits for the groups to empty, removes every temporary file
// and folder it has made, and then dies by the same signal (the shell sees the status it would
// have seen without the handler). A signal the shell started gpuport with ignored (`nohup`)
// stays ignored. The handler may neither lock nor allocate: children and temporaries are kept
// in fixed arrays of atomics, and folders are removed with raw system calls.
// SIGKILL cannot be handled: the kernel kills the direct children (PR_SET_PDEATHSIG, set by
// the process runner), and what is left on disk is removed by the next run (file_io.h's stale
// temporaries, temporary.h's stale folders).
#pragma once

#include <csignal>
#include <sys/types.h>

#include <cstddef>
#include <filesystem>

namespace gpuport {

// Installs the handler for the four ending signals, once; later calls do nothing.
void install_ending_signal_handlers();

// The process groups of running children. register_child_group returns a slot (kNoSlot when
// all are taken: the child then runs unprotected).
inline constexpr std::size_t kNoSlot = static_cast<std::size_t>(-1);
std::size_t register_child_group(pid_t group);
void unregister_child_group(std::size_t slot);

// Holds the ending signals back in this thread while it lives (they are delivered when it
// goes), and makes a handler running in another thread wait until it goes, so that a step such
// as "make a temporary, then register it" or "fork a child, then register it" cannot be cut in
// two. Made while gpuport is being ended, it waits for the end instead of returning.
class EndingSignalsBlocked {
 public:
  EndingSignalsBlocked();
  ~EndingSignalsBlocked();
  EndingSignalsBlocked(const EndingSignalsBlocked&) = delete;
  EndingSignalsBlocked& operator=(const EndingSignalsBlocked&) = delete;
  // The mask from before, for a forked child to restore before exec.
  const sigset_t& previous() const { return previous_; }

 private:
  sigset_t previous_;
};

// Whether `sig`'s handler is the one installed here (a forked child resets it before exec).
bool is_ending_signal_handler(int sig);

// Kills the process group of every registered child (SIGKILL) and waits, up to two seconds,
// until those groups are empty, reaping the direct children. Async-signal-safe.
void kill_running_children();

// A temporary file or folder, removed (a folder with all it holds) if gpuport is ended by a
// signal while the registration lives. The registration itself removes nothing: the owner
// removes or renames the path. A path that no longer exists when the signal comes (renamed into
// place) is harmless: temporary names are unique.
class TemporaryRegistration {
 public:
  TemporaryRegistration() = default;
  explicit TemporaryRegistration(const std::filesystem::path& path);
  ~TemporaryRegistration();
  TemporaryRegistration(TemporaryRegistration&& other) noexcept;
  TemporaryRegistration& operator=(TemporaryRegistration&& other) noexcept;
  TemporaryRegistration(const TemporaryRegistration&) = delete;
  TemporaryRegistration& operator=(const TemporaryRegistration&) = delete;
  // Ends the registration early (the path was renamed into place or removed).
  void release();

 private:
  std::size_t slot_ = kNoSlot;
};

// Removes every registered temporary (what the handler does); async-signal-safe. For tests.
void remove_registered_temporaries();

// Removes `path` and, when it is a folder, everything under it, without following symlinks,
// using only async-signal-safe calls. True when nothing is left.
bool remove_tree_signal_safe(const char* path);

}  // namespace gpuport
