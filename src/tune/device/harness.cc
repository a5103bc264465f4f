// gpuport-tune-harness: measures candidate cubins of one kernel on an NVIDIA GPU by replaying a
// launch that tune/device/capture.cc captured from the real program. Runs on the GPU machine
// with only libc and the CUDA driver (loaded at run time, tune/device/driver_api.h).
//
//   tune-harness --capture FILE --kernel NAME --original CUBIN [--repeat 21] [--warmup 3]
//                [--rtol 0] [--out measurements.tsv] [--log FILE] [--child-timeout 120] CAND.cubin...
//
// Validation: every cubin runs in a child process of its own (this program again, in the hidden
// mode --validate-one), so that a faulting candidate cannot poison the context that times the
// others. The original runs twice: run 1 against the capture's "after" state proves the replay
// faithful (else replay-mismatch, exit 4); run 1 against run 2 finds nondeterminism (then every
// comparison uses a relative float tolerance, 1e-5 unless --rtol says otherwise). Each candidate
// is then ok, load-failed, fault or wrong-output against run 1.
// Timing: one process loads the original and the ok candidates and runs --repeat rounds, each
// visiting them in a deterministic shuffled order (tune/measure_stats.h round_order); every visit
// restores the inputs, flushes L2, and times one launch with events. Warm-up launches first.
// Output: measurements.tsv (tune/measure_stats.h) and the same as a table on stdout, last.
// Exit: 0 done, 1 the timing phase failed, 2 bad usage or unreadable/invalid files, 3 no CUDA
// driver or device, 4 replay-mismatch.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "tune/capture_format.h"
#include "tune/device/driver_api.h"
#include "tune/measure_stats.h"

namespace gpuport::tune {
namespace {

namespace fs = std::filesystem;
using driver::CUcontext;
using driver::CUdeviceptr;
using driver::CUevent;
using driver::CUfunction;
using driver::CUmodule;
using driver::CUresult;

constexpr int kExitDone = 0, kExitTimingFailed = 1, kExitUsage = 2, kExitNoDriver = 3, kExitReplayMismatch = 4;
constexpr double kNondeterministicRtol = 1e-5;
constexpr std::uint64_t kDefaultSharedLimit = 48 * 1024;  // above this a launch must opt in
constexpr std::uint64_t kMinFlushBytes = 64ull << 20;
constexpr std::string_view kResultTag = "GPUPORT_TUNE_RESULT\t";

constexpr const char* kUsage =
    "usage: tune-harness --capture FILE --kernel NAME --original CUBIN [--repeat N] [--warmup N]\n"
    "                    [--rtol X] [--out FILE] [--log FILE] [--child-timeout SECONDS] CANDIDATE.cubin...\n"
    "       tune-harness --probe   (prints the GPU's name; exit 3 when there is none)\n"
    "  --repeat N         timing rounds (default 21); --warmup N: untimed launches of each first (default 3)\n"
    "  --rtol X           compare outputs as floats with this relative tolerance (default 0: bit-equal)\n"
    "  --out FILE         measurements.tsv to write (default ./measurements.tsv)\n"
    "  --log FILE         also write the progress and every child's output there\n"
    "  --child-timeout S  seconds one validation run may take (default 120)\n"
    "exit: 0 done, 1 timing failed, 2 bad usage or files, 3 no CUDA driver/device, 4 replay mismatch\n";

// ---------------------------------------------------------------------------------------------
// Small utilities: files, logging, numbers.

std::optional<std::string> read_whole_file(const std::string& path, std::string& error) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    error = path + ": " + (fs::exists(path, ec) ? "not a regular file" : "no such file");
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    error = path + ": cannot read: " + std::strerror(errno);
    return std::nullopt;
  }
  return bytes;
}

// Temp file in the same folder, fsync, rename: no half-written output, ever.
bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error) {
  const fs::path target(path);
  const fs::path temp = target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(getpid()));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot create " + temp.string() + ": " + std::strerror(errno);
    return false;
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool written = done == bytes.size() && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written || std::rename(temp.c_str(), path.c_str()) != 0) {
    error = "cannot write " + path + ": " + std::strerror(written ? errno : saved);
    ::unlink(temp.c_str());
    return false;
  }
  return true;
}

// Progress lines go to stderr and, with --log, to that file as well.
class Log {
 public:
  bool open(const std::string& path, std::string& error) {
    file_.reset(std::fopen(path.c_str(), "w"));
    if (!file_) error = path + ": cannot open the log: " + std::strerror(errno);
    return file_ != nullptr;
  }
  void line(const std::string& text) {
    std::fprintf(stderr, "%s\n", text.c_str());
    if (file_) {
      std::fprintf(file_.get(), "%s\n", text.c_str());
      std::fflush(file_.get());
    }
  }
  // A child's output: always kept in the log when there is one; without a log it goes to stderr
  // only when it explains a failure (`failed`), since the verdict line says the rest.
  void child_output(const std::string& title, const std::string& text, bool failed) {
    if (!file_ && !failed) return;
    std::FILE* to = file_ ? file_.get() : stderr;
    if (text.empty())
      std::fprintf(to, "--- %s --- (no output)\n", title.c_str());
    else
      std::fprintf(to, "--- %s ---\n%s%s", title.c_str(), text.c_str(), text.back() == '\n' ? "" : "\n");
    std::fflush(to);
  }

 private:
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> file_;
};

template <class Number>
bool parse_number(std::string_view text, Number& value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string format_double(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// ---------------------------------------------------------------------------------------------
// The driver: loading it, one context.

struct Device {
  driver::Api api;
  driver::CUdevice device = 0;
  std::string name;
  int major = 0, minor = 0, l2_bytes = 0;
};

// Loads libcuda.so.1 and finds device 0. Empty on success, else the reason (exit code 3).
std::string open_device(Device& d) {
  if (std::string why = driver::load_api(d.api); !why.empty()) return why;
  if (CUresult r = d.api.cuInit(0); r != driver::kSuccess)
    return (r == driver::kErrorNoDevice ? "no CUDA device: cuInit failed: " : "cuInit failed: ") + d.api.describe(r);
  if (CUresult r = d.api.cuDeviceGet(&d.device, 0); r != driver::kSuccess)
    return "no CUDA device: cuDeviceGet(0) failed: " + d.api.describe(r);
  char name[256] = {};
  if (d.api.cuDeviceGetName(name, sizeof name - 1, d.device) == driver::kSuccess) d.name = name;
  d.api.cuDeviceGetAttribute(&d.major, driver::kAttributeComputeCapabilityMajor, d.device);
  d.api.cuDeviceGetAttribute(&d.minor, driver::kAttributeComputeCapabilityMinor, d.device);
  d.api.cuDeviceGetAttribute(&d.l2_bytes, driver::kAttributeL2CacheSize, d.device);
  return "";
}

// A driver call's failure as text, or nothing.
class Check {
 public:
  explicit Check(const driver::Api& api) : api_(api) {}
  // True when `result` is success; else keeps the first failure ("what: error N: text").
  bool operator()(CUresult result, const std::string& what) {
    if (result == driver::kSuccess) return true;
    if (error_.empty()) error_ = what + ": " + api_.describe(result);
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  const driver::Api& api_;
  std::string error_;
};

class Context {
 public:
  Context(const Device& device, Check& check) : api_(device.api) {
    if (!check(api_.cuCtxCreate(&context_, driver::kContextSchedAuto, device.device), "cuCtxCreate"))
      context_ = nullptr;
  }
  ~Context() {
    if (context_) api_.cuCtxDestroy(context_);
  }
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  bool ok() const { return context_ != nullptr; }

 private:
  const driver::Api& api_;
  CUcontext context_ = nullptr;
};

// ---------------------------------------------------------------------------------------------
// Setting up inputs: the captured buffers on the device and the relocated parameters.

// The capture's buffers on the device: a working copy the kernel runs on, and a pristine copy
// of the "before" state that restore() copies back (device to device) before every launch.
class Inputs {
 public:
  Inputs(const driver::Api& api, const Capture& capture) : api_(api), capture_(capture) {}
  ~Inputs() {
    for (CUdeviceptr p : working_) api_.cuMemFree(p);
    for (CUdeviceptr p : pristine_) api_.cuMemFree(p);
    for (CUdeviceptr p : pristine_globals_) api_.cuMemFree(p);
  }
  Inputs(const Inputs&) = delete;
  Inputs& operator=(const Inputs&) = delete;

  bool allocate(Check& check) {
    for (std::size_t i = 0; i < capture_.buffers.size(); ++i) {
      const std::string& before = capture_.buffers[i].before;
      CUdeviceptr working = 0, pristine = 0;
      const std::string what = "buffer " + std::to_string(i) + " (" + std::to_string(before.size()) + " bytes)";
      if (!check(api_.cuMemAlloc(&working, std::max<std::size_t>(before.size(), 1)), "cuMemAlloc " + what))
        return false;
      working_.push_back(working);
      if (!check(api_.cuMemAlloc(&pristine, std::max<std::size_t>(before.size(), 1)), "cuMemAlloc " + what))
        return false;
      pristine_.push_back(pristine);
      if (!check(api_.cuMemcpyHtoD(pristine, before.data(), before.size()), "cuMemcpyHtoD " + what)) return false;
    }
    for (const CaptureGlobal& g : capture_.globals) {
      CUdeviceptr pristine = 0;
      if (!check(api_.cuMemAlloc(&pristine, std::max<std::size_t>(g.before.size(), 1)), "cuMemAlloc global " + g.name))
        return false;
      pristine_globals_.push_back(pristine);
      if (!check(api_.cuMemcpyHtoD(pristine, g.before.data(), g.before.size()), "cuMemcpyHtoD global " + g.name))
        return false;
    }
    // Pointer parameters point into our copies at the captured offsets; the rest keep their bytes.
    params_.clear();
    for (const CaptureParam& p : capture_.params) {
      std::string bytes = p.bytes;
      if (p.is_pointer) {
        const CUdeviceptr relocated = working_[p.buffer] + p.offset;
        std::memcpy(bytes.data(), &relocated, sizeof relocated);
      }
      params_.push_back(std::move(bytes));
    }
    param_pointers_.clear();
    for (std::string& bytes : params_) param_pointers_.push_back(bytes.data());
    return true;
  }

  // Working buffers back to the "before" state, and the globals of one module (their device
  // addresses in that module).
  bool restore(Check& check, const std::vector<CUdeviceptr>& module_globals) {
    for (std::size_t i = 0; i < working_.size(); ++i)
      if (!check(api_.cuMemcpyDtoD(working_[i], pristine_[i], capture_.buffers[i].before.size()),
                 "restoring buffer " + std::to_string(i)))
        return false;
    for (std::size_t i = 0; i < module_globals.size(); ++i)
      if (!check(api_.cuMemcpyDtoD(module_globals[i], pristine_globals_[i], capture_.globals[i].before.size()),
                 "restoring global " + capture_.globals[i].name))
        return false;
    return true;
  }

  // The working buffers and the module's globals, copied back to the host.
  bool read_back(Check& check, const std::vector<CUdeviceptr>& module_globals, std::vector<std::string>& buffers,
                 std::vector<std::string>& globals) {
    buffers.assign(working_.size(), {});
    globals.assign(module_globals.size(), {});
    for (std::size_t i = 0; i < working_.size(); ++i) {
      buffers[i].resize(capture_.buffers[i].before.size());
      if (!check(api_.cuMemcpyDtoH(buffers[i].data(), working_[i], buffers[i].size()),
                 "reading back buffer " + std::to_string(i)))
        return false;
    }
    for (std::size_t i = 0; i < module_globals.size(); ++i) {
      globals[i].resize(capture_.globals[i].before.size());
      if (!check(api_.cuMemcpyDtoH(globals[i].data(), module_globals[i], globals[i].size()),
                 "reading back global " + capture_.globals[i].name))
        return false;
    }
    return true;
  }

  void** params() { return param_pointers_.data(); }

 private:
  const driver::Api& api_;
  const Capture& capture_;
  std::vector<CUdeviceptr> working_, pristine_, pristine_globals_;
  std::vector<std::string> params_;
  std::vector<void*> param_pointers_;
};

// One cubin loaded: its module, the kernel, and the device addresses of the captured globals.
struct LoadedKernel {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  std::vector<CUdeviceptr> globals;
};

// Empty on success, else why the cubin cannot run the capture (a load-failed detail).
std::string load_kernel(const driver::Api& api, const Capture& capture, const std::string& image, LoadedKernel& k) {
  Check check(api);
  if (!check(api.cuModuleLoadData(&k.module, image.data()), "cuModuleLoadData")) return check.error();
  if (!check(api.cuModuleGetFunction(&k.function, k.module, capture.kernel.c_str()),
             "cuModuleGetFunction(" + capture.kernel + ")"))
    return check.error();
  if (capture.shared_bytes > kDefaultSharedLimit &&
      !check(api.cuFuncSetAttribute(k.function, driver::kFunctionAttributeMaxDynamicShared,
                                    static_cast<int>(capture.shared_bytes)),
             "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " + std::to_string(capture.shared_bytes) + ")"))
    return check.error();
  for (const CaptureGlobal& g : capture.globals) {
    CUdeviceptr address = 0;
    std::size_t size = 0;
    if (!check(api.cuModuleGetGlobal(&address, &size, k.module, g.name.c_str()), "cuModuleGetGlobal(" + g.name + ")"))
      return check.error();
    if (size != g.before.size())
      return "global " + g.name + " is " + std::to_string(size) + " bytes in the module, " +
             std::to_string(g.before.size()) + " in the capture";
    k.globals.push_back(address);
  }
  return "";
}

CUresult launch(const driver::Api& api, const Capture& c, const LoadedKernel& k, Inputs& inputs) {
  return api.cuLaunchKernel(k.function, c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z,
                            static_cast<unsigned>(c.shared_bytes), nullptr, inputs.params(), nullptr);
}

// ---------------------------------------------------------------------------------------------
// Validating one cubin (the child process, --validate-one).

// Which parameters point into buffer `index`, for messages: "buffer 2 (param 2)".
std::string buffer_label(const Capture& c, std::size_t index) {
  std::string params;
  for (std::size_t i = 0; i < c.params.size(); ++i)
    if (c.params[i].is_pointer && c.params[i].buffer == index)
      params += (params.empty() ? "" : ",") + std::to_string(i);
  return "buffer " + std::to_string(index) + (params.empty() ? "" : " (param " + params + ")");
}

// The first difference between two device states (the "after" parts of two captures of the
// same launch), or nothing.
std::optional<std::string> first_difference(const Capture& expected, const Capture& actual, double rtol) {
  if (expected.buffers.size() != actual.buffers.size() || expected.globals.size() != actual.globals.size())
    return "the two states have different numbers of buffers or globals";
  for (std::size_t i = 0; i < expected.buffers.size(); ++i)
    if (auto m = compare_outputs(expected.buffers[i].after, actual.buffers[i].after, rtol))
      return buffer_label(expected, i) + " " + describe_mismatch(*m);
  for (std::size_t i = 0; i < expected.globals.size(); ++i)
    if (auto m = compare_outputs(expected.globals[i].after, actual.globals[i].after, rtol))
      return "global " + expected.globals[i].name + " " + describe_mismatch(*m);
  return std::nullopt;
}

void print_result(const std::string& status, const std::string& detail) {
  std::string line(kResultTag);
  line += status + "\t";
  for (char c : detail) line += c == '\n' || c == '\t' ? ' ' : c;
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

struct ValidateOneOptions {
  std::string cubin, capture, reference, save_output;
  double rtol = 0;
};

// Runs the capture with one cubin and prints one result line (kResultTag status detail):
// ok, load-failed, fault or wrong-output. Infrastructure failures exit 2 or 3 without one.
int validate_one(const ValidateOneOptions& o) {
  std::string error;
  const auto capture_bytes = read_whole_file(o.capture, error);
  const auto image = capture_bytes ? read_whole_file(o.cubin, error) : std::nullopt;
  if (!image) {
    std::fprintf(stderr, "tune-harness: %s\n", error.c_str());
    return kExitUsage;
  }
  Result<Capture> capture = read_capture(*capture_bytes, o.capture);
  if (!capture) {
    std::fprintf(stderr, "tune-harness: %s: %s\n", o.capture.c_str(), capture.diagnostics().front().message.c_str());
    return kExitUsage;
  }
  std::optional<Capture> reference;
  if (!o.reference.empty()) {
    const auto bytes = read_whole_file(o.reference, error);
    Result<Capture> parsed = bytes ? read_capture(*bytes, o.reference) : Result<Capture>(Diagnostic{.message = error});
    if (!parsed) {
      std::fprintf(stderr, "tune-harness: %s: %s\n", o.reference.c_str(), parsed.diagnostics().front().message.c_str());
      return kExitUsage;
    }
    reference = std::move(*parsed);
  }

  Device device;
  if (std::string why = open_device(device); !why.empty()) {
    std::fprintf(stderr, "tune-harness: %s\n", why.c_str());
    return kExitNoDriver;
  }
  const driver::Api& api = device.api;
  Check check(api);
  Context context(device, check);
  if (!context.ok()) {
    std::fprintf(stderr, "tune-harness: %s\n", check.error().c_str());
    return kExitNoDriver;
  }
  LoadedKernel kernel;
  if (std::string why = load_kernel(api, *capture, *image, kernel); !why.empty()) {
    print_result("load-failed", why);
    return kExitDone;
  }
  Inputs inputs(api, *capture);
  if (!inputs.allocate(check) || !inputs.restore(check, kernel.globals)) {
    // Not the cubin's fault, but nothing can be said about it either.
    print_result("fault", "setting up the inputs: " + check.error());
    return kExitDone;
  }
  if (!check(launch(api, *capture, kernel, inputs), "cuLaunchKernel") ||
      !check(api.cuCtxSynchronize(), "the kernel (cuCtxSynchronize)")) {
    print_result("fault", check.error());
    return kExitDone;
  }
  std::vector<std::string> buffers, globals;
  if (!inputs.read_back(check, kernel.globals, buffers, globals)) {
    print_result("fault", check.error());
    return kExitDone;
  }
  Capture output = *capture;
  for (std::size_t i = 0; i < buffers.size(); ++i) output.buffers[i].after = std::move(buffers[i]);
  for (std::size_t i = 0; i < globals.size(); ++i) output.globals[i].after = std::move(globals[i]);
  if (!o.save_output.empty() && !write_file_atomically(o.save_output, write_capture(output), error)) {
    std::fprintf(stderr, "tune-harness: %s\n", error.c_str());
    return kExitUsage;
  }
  if (reference) {
    if (auto difference = first_difference(*reference, output, o.rtol)) {
      print_result("wrong-output", *difference);
      return kExitDone;
    }
  }
  print_result("ok", "");
  return kExitDone;
}

int validate_one_main(const std::vector<std::string>& args) {
  ValidateOneOptions o;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    const std::string& flag = args[i];
    const std::string& value = args[i + 1];
    bool good = true;
    if (flag == "--validate-one")
      o.cubin = value;
    else if (flag == "--capture")
      o.capture = value;
    else if (flag == "--reference")
      o.reference = value;
    else if (flag == "--save-output")
      o.save_output = value;
    else if (flag == "--rtol")
      good = parse_number(value, o.rtol) && o.rtol >= 0;
    else
      good = false;
    if (!good) {
      std::fprintf(stderr, "tune-harness --validate-one: bad argument %s %s\n", flag.c_str(), value.c_str());
      return kExitUsage;
    }
  }
  if (args.size() % 2 != 0 || o.cubin.empty() || o.capture.empty()) {
    std::fprintf(stderr,
                 "tune-harness --validate-one CUBIN --capture FILE [--reference FILE] [--rtol X] "
                 "[--save-output FILE]\n");
    return kExitUsage;
  }
  return validate_one(o);
}

// ---------------------------------------------------------------------------------------------
// The parent: options, child processes, the validation phase.

struct Options {
  std::string capture, kernel, original, out = "measurements.tsv", log;
  int repeat = 21, warmup = 3, child_timeout_s = 120;
  double rtol = 0;
  std::vector<std::string> candidates;
};

// Empty on success, else the usage error.
std::string parse_options(const std::vector<std::string>& args, Options& o) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!a.starts_with("--")) {
      o.candidates.push_back(a);
      continue;
    }
    if (i + 1 >= args.size()) return a + " needs a value";
    const std::string& v = args[++i];
    if (a == "--capture")
      o.capture = v;
    else if (a == "--kernel")
      o.kernel = v;
    else if (a == "--original")
      o.original = v;
    else if (a == "--out")
      o.out = v;
    else if (a == "--log")
      o.log = v;
    else if (a == "--repeat") {
      if (!parse_number(v, o.repeat) || o.repeat < 1) return "--repeat: '" + v + "' is not a count >= 1";
    } else if (a == "--warmup") {
      if (!parse_number(v, o.warmup) || o.warmup < 0) return "--warmup: '" + v + "' is not a count >= 0";
    } else if (a == "--child-timeout") {
      if (!parse_number(v, o.child_timeout_s) || o.child_timeout_s < 1)
        return "--child-timeout: '" + v + "' is not seconds >= 1";
    } else if (a == "--rtol") {
      if (!parse_number(v, o.rtol) || !(o.rtol >= 0) || !std::isfinite(o.rtol))
        return "--rtol: '" + v + "' is not a number >= 0";
    } else {
      return "unknown option " + a;
    }
  }
  if (o.capture.empty()) return "--capture is required";
  if (o.kernel.empty()) return "--kernel is required";
  if (o.original.empty()) return "--original is required";
  return "";
}

// A temporary folder of our own, removed with everything in it.
class WorkFolder {
 public:
  bool create(std::string& error) {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/gpuport-tune-harness-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      error = "cannot create a temporary folder " + pattern + ": " + std::strerror(errno);
      return false;
    }
    path_ = pattern;
    return true;
  }
  ~WorkFolder() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

struct ChildResult {
  std::string status, detail;
};

// Runs this program in --validate-one mode with `args` and waits at most `timeout_s`. The child's
// whole output goes to the log; its last result line is the verdict, and a child that printed
// none (crashed, killed, timed out) is a fault.
ChildResult run_child(const std::vector<std::string>& args, int timeout_s, Log& log, const std::string& title) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {"fault", std::string("pipe: ") + std::strerror(errno)};
  std::vector<std::string> argv_text = {"tune-harness"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return {"fault", std::string("fork: ") + std::strerror(errno)};
  }
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::execv("/proc/self/exe", argv.data());
    std::fprintf(stderr, "exec /proc/self/exe: %s\n", std::strerror(errno));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string output;
  bool timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd p{.fd = fds[0], .events = POLLIN, .revents = 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  ChildResult result;
  std::istringstream lines(output);
  std::string last_other;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(kResultTag)) {
      const std::string rest = line.substr(kResultTag.size());
      const std::size_t tab = rest.find('\t');
      result.status = rest.substr(0, tab);
      result.detail = tab == std::string::npos ? "" : rest.substr(tab + 1);
    } else if (!line.empty()) {
      last_other = line;
    }
  }
  log.child_output(title, output, timed_out || result.status != "ok");
  if (timed_out) return {"fault", "timed out after " + std::to_string(timeout_s) + " s"};
  if (!result.status.empty()) return result;
  std::string how;
  if (WIFSIGNALED(wait_status))
    how = "was killed by signal " + std::to_string(WTERMSIG(wait_status));
  else
    how = "exited with code " + std::to_string(WEXITSTATUS(wait_status));
  return {"fault", "the validation run " + how + " without a verdict" + (last_other.empty() ? "" : ": " + last_other)};
}

std::string stem_of(const std::string& path) { return fs::path(path).stem().string(); }

// Candidate ids: file stems, made unique ("name", "name-2", ...); "original" is taken.
std::vector<std::string> candidate_ids(const std::vector<std::string>& files) {
  std::vector<std::string> ids;
  std::map<std::string, int> used = {{"original", 1}};
  for (const std::string& f : files) {
    std::string id = stem_of(f);
    if (id.empty()) id = "candidate";
    const int n = ++used[id];
    if (n > 1) {
      std::string unique;
      for (int k = n;; ++k) {
        unique = id + "-" + std::to_string(k);
        if (!used.count(unique)) break;
      }
      used[unique] = 1;
      id = unique;
    }
    ids.push_back(id);
  }
  return ids;
}

Measurement unmeasured(const std::string& id, const std::string& file, const std::string& status,
                       const std::string& detail) {
  const double nan = std::nan("");
  return Measurement{.id = id,
                     .file = file,
                     .status = status,
                     .detail = detail,
                     .median_us = nan,
                     .min_us = nan,
                     .mad_us = nan,
                     .runs = 0};
}

struct Validation {
  bool replay_faithful = false;
  bool nondeterministic = false;
  double rtol = 0;              // what candidates were compared with
  std::string original_detail;  // the original row's detail (why the replay failed, or the note)
};

// Runs the original twice and each candidate once, in child processes; fills the status of each
// row (rows[0] is the original).
Validation validate_all(const Options& o, const Capture& capture, std::vector<Measurement>& rows,
                        const WorkFolder& work, Log& log) {
  Validation v;
  const std::string run1 = work.file("original-run1.capture"), run2 = work.file("original-run2.capture");
  const std::vector<std::string> base = {"--capture", o.capture};
  for (const std::string& output : {run1, run2}) {
    std::vector<std::string> args = {"--validate-one", o.original, "--save-output", output};
    args.insert(args.end(), base.begin(), base.end());
    const ChildResult r = run_child(args, o.child_timeout_s, log, "original, " + fs::path(output).stem().string());
    if (r.status != "ok") {
      v.original_detail = "the original's replay ended in " + r.status + ": " + r.detail;
      return v;
    }
  }
  std::string error;
  const auto bytes1 = read_whole_file(run1, error), bytes2 = read_whole_file(run2, error);
  Result<Capture> out1 = bytes1 ? read_capture(*bytes1, run1) : Result<Capture>(Diagnostic{.message = error});
  Result<Capture> out2 = bytes2 ? read_capture(*bytes2, run2) : Result<Capture>(Diagnostic{.message = error});
  if (!out1 || !out2) {
    v.original_detail = "cannot read the original's output: " + (!out1 ? out1 : out2).diagnostics().front().message;
    return v;
  }
  v.nondeterministic = first_difference(*out1, *out2, 0).has_value();
  v.rtol = o.rtol > 0 ? o.rtol : (v.nondeterministic ? kNondeterministicRtol : 0);
  if (v.nondeterministic) {
    v.original_detail = "nondeterministic (two runs differ: " + *first_difference(*out1, *out2, 0) +
                        "); outputs compared with rtol " + format_double(v.rtol);
    log.line("tune-harness: the original is " + v.original_detail);
  }
  if (auto difference = first_difference(capture, *out1, v.rtol)) {
    v.original_detail = "the replay differs from the program's own run: " + *difference +
                        " (pointers inside buffers? memory the capture does not cover?)";
    return v;
  }
  v.replay_faithful = true;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    std::vector<std::string> args = {"--validate-one", rows[i].file,         "--reference", run1,
                                     "--rtol",         format_double(v.rtol)};
    args.insert(args.end(), base.begin(), base.end());
    const ChildResult r = run_child(args, o.child_timeout_s, log, rows[i].id);
    rows[i].status = r.status;
    rows[i].detail = r.detail;
    log.line("tune-harness: " + rows[i].id + ": " + r.status + (r.detail.empty() ? "" : " (" + r.detail + ")"));
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// The timing phase.

// What one timed visit needs besides the kernel: the L2 flush buffer and two events. Every visit
// restores the inputs, overwrites the flush buffer (twice the L2, so that no launch finds the
// previous one's data in the cache), and times the launch alone between the events.
class LaunchTimer {
 public:
  LaunchTimer(const Device& device, const Capture& capture, Inputs& inputs, Check& check)
      : api_(device.api), capture_(capture), inputs_(inputs), check_(check) {
    flush_bytes_ = std::max<std::uint64_t>(2ull * static_cast<std::uint64_t>(device.l2_bytes), kMinFlushBytes);
    ok_ = check(api_.cuMemAlloc(&flush_, flush_bytes_), "cuMemAlloc (L2 flush buffer)") &&
          check(api_.cuEventCreate(&start_, driver::kEventDefault), "cuEventCreate") &&
          check(api_.cuEventCreate(&stop_, driver::kEventDefault), "cuEventCreate");
  }
  ~LaunchTimer() {
    if (flush_) api_.cuMemFree(flush_);
    if (start_) api_.cuEventDestroy(start_);
    if (stop_) api_.cuEventDestroy(stop_);
  }
  LaunchTimer(const LaunchTimer&) = delete;
  LaunchTimer& operator=(const LaunchTimer&) = delete;

  bool ok() const { return ok_; }
  std::size_t flush_bytes() const { return flush_bytes_; }

  // An untimed launch (warm-up).
  bool warm(const LoadedKernel& kernel) {
    return inputs_.restore(check_, kernel.globals) &&
           check_(launch(api_, capture_, kernel, inputs_), "cuLaunchKernel") &&
           check_(api_.cuCtxSynchronize(), "the kernel (cuCtxSynchronize)");
  }

  // One timed launch; `fill` varies the flush buffer's contents from visit to visit.
  bool time(const LoadedKernel& kernel, unsigned char fill, double& microseconds) {
    float ms = 0;
    const bool ok = inputs_.restore(check_, kernel.globals) &&
                    check_(api_.cuMemsetD8(flush_, fill, flush_bytes_), "cuMemsetD8 (L2 flush)") &&
                    check_(api_.cuEventRecord(start_, nullptr), "cuEventRecord") &&
                    check_(launch(api_, capture_, kernel, inputs_), "cuLaunchKernel") &&
                    check_(api_.cuEventRecord(stop_, nullptr), "cuEventRecord") &&
                    check_(api_.cuEventSynchronize(stop_), "the kernel (cuEventSynchronize)") &&
                    check_(api_.cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
    microseconds = static_cast<double>(ms) * 1000.0;
    return ok;
  }

 private:
  const driver::Api& api_;
  const Capture& capture_;
  Inputs& inputs_;
  Check& check_;
  bool ok_ = false;
  CUdeviceptr flush_ = 0;
  std::size_t flush_bytes_ = 0;
  CUevent start_ = nullptr, stop_ = nullptr;
};

struct TimedEntry {
  std::size_t row = 0;
  LoadedKernel kernel;
  std::vector<double> samples_us;
};

// Times every row whose status is ok. Empty on success, else what failed (the row whose launch
// failed says so; the rest are left unmeasured, since a fault may leave the context unusable).
std::string time_all(const Options& o, const Device& device, const Capture& capture,
                     const std::vector<std::string>& images, std::vector<Measurement>& rows, Log& log) {
  const driver::Api& api = device.api;
  Check check(api);
  Context context(device, check);
  if (!context.ok()) return check.error();

  std::vector<TimedEntry> entries;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].status != "ok") continue;
    TimedEntry e;
    e.row = i;
    if (std::string why = load_kernel(api, capture, images[i], e.kernel); !why.empty()) {
      rows[i] = unmeasured(rows[i].id, rows[i].file, "load-failed", "in the timing process: " + why);
      continue;
    }
    entries.push_back(std::move(e));
  }
  Inputs inputs(api, capture);
  if (!inputs.allocate(check)) return check.error();
  LaunchTimer timer(device, capture, inputs, check);
  if (!timer.ok()) return check.error();

  const auto fail = [&](const TimedEntry& e, const std::string& phase) {
    const std::string why = rows[e.row].id + " " + phase + ": " + check.error();
    rows[e.row] = unmeasured(rows[e.row].id, rows[e.row].file, "fault", phase + ": " + check.error());
    return why;
  };
  log.line("tune-harness: timing " + std::to_string(entries.size()) + " kernels, " + std::to_string(o.warmup) +
           " warm-up and " + std::to_string(o.repeat) + " timed launches each, L2 flush " +
           std::to_string(timer.flush_bytes() >> 20) + " MiB");
  for (const TimedEntry& e : entries)
    for (int w = 0; w < o.warmup; ++w)
      if (!timer.warm(e.kernel)) return fail(e, "warm-up");
  for (int round = 0; round < o.repeat; ++round) {
    for (std::size_t index : round_order(entries.size(), static_cast<std::uint64_t>(round))) {
      TimedEntry& e = entries[index];
      double us = 0;
      if (!timer.time(e.kernel, static_cast<unsigned char>(round), us))
        return fail(e, "timing round " + std::to_string(round));
      e.samples_us.push_back(us);
    }
  }
  for (TimedEntry& e : entries) {
    Measurement& m = rows[e.row];
    m.median_us = median(e.samples_us);
    m.min_us = minimum(e.samples_us);
    m.mad_us = median_absolute_deviation(e.samples_us);
    m.runs = static_cast<int>(e.samples_us.size());
    api.cuModuleUnload(e.kernel.module);
  }
  return "";
}

// ---------------------------------------------------------------------------------------------

int finish(const Options& o, const std::vector<Measurement>& rows, Log& log, int code) {
  std::string error;
  if (!write_file_atomically(o.out, write_measurements(rows), error)) {
    log.line("tune-harness: " + error);
    if (code == kExitDone) code = kExitUsage;
  } else {
    log.line("tune-harness: wrote " + o.out);
  }
  std::fflush(stderr);
  std::printf("%s", format_measurement_table(rows).c_str());
  std::fflush(stdout);
  return code;
}

int harness_main(const std::vector<std::string>& args) {
  Options o;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::printf("%s", kUsage);
    return kExitDone;
  }
  // --probe: is there a GPU to measure on? (gpuport tune asks before running the program.)
  if (args.size() == 1 && args[0] == "--probe") {
    Device device;
    if (std::string why = open_device(device); !why.empty()) {
      std::fprintf(stderr, "tune-harness: %s\n", why.c_str());
      return kExitNoDriver;
    }
    std::printf("%s sm_%d%d\n", device.name.c_str(), device.major, device.minor);
    return kExitDone;
  }
  if (std::string why = parse_options(args, o); !why.empty()) {
    std::fprintf(stderr, "tune-harness: %s\n%s", why.c_str(), kUsage);
    return kExitUsage;
  }
  Log log;
  std::string error;
  if (!o.log.empty() && !log.open(o.log, error)) {
    std::fprintf(stderr, "tune-harness: %s\n", error.c_str());
    return kExitUsage;
  }
  // Every file is read (and the capture checked) before the driver is touched.
  const auto capture_bytes = read_whole_file(o.capture, error);
  if (!capture_bytes) {
    log.line("tune-harness: " + error);
    return kExitUsage;
  }
  Result<Capture> capture = read_capture(*capture_bytes, o.capture);
  if (!capture) {
    log.line("tune-harness: " + o.capture + ": " + capture.diagnostics().front().message);
    return kExitUsage;
  }
  if (capture->kernel != o.kernel) {
    log.line("tune-harness: " + o.capture + " captured kernel " + capture->kernel + ", not " + o.kernel);
    return kExitUsage;
  }
  std::vector<Measurement> rows = {unmeasured("original", o.original, "ok", "")};
  const std::vector<std::string> ids = candidate_ids(o.candidates);
  for (std::size_t i = 0; i < o.candidates.size(); ++i) rows.push_back(unmeasured(ids[i], o.candidates[i], "ok", ""));
  std::vector<std::string> images;
  for (const Measurement& row : rows) {
    auto image = read_whole_file(row.file, error);
    if (!image) {
      log.line("tune-harness: " + error);
      return kExitUsage;
    }
    images.push_back(std::move(*image));
  }

  Device device;
  if (std::string why = open_device(device); !why.empty()) {
    log.line("tune-harness: " + why);
    return kExitNoDriver;
  }
  log.line("tune-harness: " + device.name + " (sm_" + std::to_string(device.major) + std::to_string(device.minor) +
           ", L2 " + std::to_string(device.l2_bytes >> 20) + " MiB); kernel " + capture->kernel + ", " +
           std::to_string(capture->buffers.size()) + " buffers, " + std::to_string(capture->state_bytes()) +
           " bytes of state, " + std::to_string(o.candidates.size()) + " candidates");
  WorkFolder work;
  if (!work.create(error)) {
    log.line("tune-harness: " + error);
    return kExitUsage;
  }

  const Validation v = validate_all(o, *capture, rows, work, log);
  rows[0].detail = v.original_detail;
  if (!v.replay_faithful) {
    rows[0].status = "replay-mismatch";
    log.line("tune-harness: replay-mismatch: " + v.original_detail);
    for (std::size_t i = 1; i < rows.size(); ++i)
      rows[i] = unmeasured(rows[i].id, rows[i].file, "skipped", "replay mismatch");
    return finish(o, rows, log, kExitReplayMismatch);
  }
  if (std::string why = time_all(o, device, *capture, images, rows, log); !why.empty()) {
    log.line("tune-harness: the timing phase failed: " + why);
    for (Measurement& row : rows)
      if (row.status == "ok" && row.runs == 0) row = unmeasured(row.id, row.file, "skipped", "timing failed: " + why);
    return finish(o, rows, log, kExitTimingFailed);
  }
  return finish(o, rows, log, kExitDone);
}

}  // namespace
}  // namespace gpuport::tune

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--validate-one") return gpuport::tune::validate_one_main(args);
  return gpuport::tune::harness_main(args);
}
