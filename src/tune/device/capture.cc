// Captures one launch of one kernel from a CUDA program for `gpuport tune`'s measurement
// harness: compiled and linked into the user's program (nvcc 11.8, host code as C++14) with
//   -Xlinker --wrap=cudaLaunchKernel -Xlinker --export-dynamic -ldl
// so that every cudaLaunchKernel of the program comes here first. It changes nothing the program
// does: every launch goes on to the real cudaLaunchKernel, and a capture that fails says
// "GPUPORT_TUNE capture error: ..." on stderr and lets the program continue.
//
// Environment (nothing happens unless GPUPORT_TUNE_CAPTURE is set):
//   GPUPORT_TUNE_CAPTURE=FILE          where the capture goes (written atomically: temp + rename)
//   GPUPORT_TUNE_KERNEL=NAME           the kernel's mangled name (its host stub is found by dladdr)
//   GPUPORT_TUNE_PARAM_SIZES=8,8,4     bytes of each kernel parameter, in order (from the cubin)
//   GPUPORT_TUNE_LAUNCH=N              which launch of that kernel to capture (default 0: the first)
//   GPUPORT_TUNE_GLOBALS=name:size,... module-scope __device__/__constant__ variables to capture,
//                                      by their names in the cubin (a size, when given, is checked)
// On the chosen launch: the device is synchronised; every 8-byte parameter that the driver knows
// as a device pointer has its whole allocation copied (once per allocation) and is recorded as
// (allocation, offset); the globals are found by name in the kernel's own module and copied; the
// kernel runs; the device is synchronised and the same memory is copied again as the reference
// "after" state.
// The file layout is the one src/tune/capture_format.h reads (version GPTCAP01).
//
// Limitations: pointers stored inside buffers (arrays of pointers, structs with pointers) are
// copied as plain bytes and not relocated, so a replay of such a kernel reads the program's old
// addresses (the harness reports replay-mismatch or a fault); memory reached only through such
// pointers, textures/surfaces and globals not named in GPUPORT_TUNE_GLOBALS are not captured; a
// parameter that is a device pointer only by coincidence (an integer that happens to be an
// address) is taken for a pointer. The allocation is what cuPointerGetAttribute reports as the
// pointer's address range (for memory from a stream-ordered pool that may be the whole pool).
// Only launches through cudaLaunchKernel are seen: <<<>>> in a default build is one, but
// cooperative launches, graphs and --default-stream per-thread builds (cudaLaunchKernel_ptsz)
// are not, and the exit note then says the launch never happened.
//
// Built with GPUPORT_TUNE_CAPTURE_FORMAT_ONLY defined, only the CUDA-free part is compiled (the
// encoder and the environment parsers): the unit tests read what this encoder writes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace gpuport_tune_capture {

struct Param {
  std::string bytes;
  bool is_pointer = false;
  std::uint32_t buffer = 0;
  std::uint64_t offset = 0;
};

struct Buffer {
  std::uint64_t address = 0;  // the allocation's base in the program
  std::string before, after;
};

struct Global {
  std::string name;
  std::string before, after;
};

struct Launch {
  std::string kernel;
  std::uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::uint64_t shared_bytes = 0;
  std::vector<Param> params;
  std::vector<Buffer> buffers;
  std::vector<Global> globals;
};

inline void put_u8(std::string& out, std::uint8_t v) { out.push_back(static_cast<char>(v)); }
inline void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) put_u8(out, static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) put_u8(out, static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void put_str(std::string& out, const std::string& s) {
  put_u32(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}
inline void put_blob(std::string& out, const std::string& s) {
  put_u64(out, s.size());
  out += s;
}

// The capture file (see src/tune/capture_format.h for the layout).
inline std::string encode_capture(const Launch& launch) {
  std::string out = "GPTCAP01";
  put_str(out, launch.kernel);
  for (int i = 0; i < 3; ++i) put_u32(out, launch.grid[i]);
  for (int i = 0; i < 3; ++i) put_u32(out, launch.block[i]);
  put_u64(out, launch.shared_bytes);
  put_u32(out, static_cast<std::uint32_t>(launch.params.size()));
  for (const Param& p : launch.params) {
    put_blob(out, p.bytes);
    put_u8(out, p.is_pointer ? 1 : 0);
    if (p.is_pointer) {
      put_u32(out, p.buffer);
      put_u64(out, p.offset);
    }
  }
  put_u32(out, static_cast<std::uint32_t>(launch.buffers.size()));
  for (const Buffer& b : launch.buffers) {
    put_u64(out, b.address);
    put_blob(out, b.before);
    put_blob(out, b.after);
  }
  put_u32(out, static_cast<std::uint32_t>(launch.globals.size()));
  for (const Global& g : launch.globals) {
    put_str(out, g.name);
    put_blob(out, g.before);
    put_blob(out, g.after);
  }
  return out;
}

// A decimal number that fills all of `text`; false for anything else (empty, sign, junk, overflow).
inline bool parse_unsigned(const std::string& text, std::uint64_t& value) {
  if (text.empty() || text.size() > 19) return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  std::string::size_type start = 0;
  for (;;) {
    const std::string::size_type end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

// "8,8,4" -> {8, 8, 4}; "" -> {} (a kernel without parameters). False with `error` set otherwise.
inline bool parse_param_sizes(const std::string& text, std::vector<std::uint64_t>& sizes, std::string& error) {
  sizes.clear();
  for (const std::string& part : split(text, ',')) {
    std::uint64_t size = 0;
    if (!parse_unsigned(part, size) || size == 0 || size > 32764) {
      error = "GPUPORT_TUNE_PARAM_SIZES: '" + part + "' is not a parameter size in bytes (1..32764)";
      return false;
    }
    sizes.push_back(size);
  }
  return true;
}

struct GlobalSpec {
  std::string name;
  std::uint64_t size = 0;  // 0: ask the runtime
};

// "name:size,name" -> specs. False with `error` set for an empty name or a bad size.
inline bool parse_global_specs(const std::string& text, std::vector<GlobalSpec>& specs, std::string& error) {
  specs.clear();
  for (const std::string& part : split(text, ',')) {
    GlobalSpec spec;
    const std::string::size_type colon = part.rfind(':');
    spec.name = part.substr(0, colon);
    if (colon != std::string::npos && (!parse_unsigned(part.substr(colon + 1), spec.size) || spec.size == 0)) {
      error = "GPUPORT_TUNE_GLOBALS: '" + part + "' has no valid size after ':'";
      return false;
    }
    if (spec.name.empty()) {
      error = "GPUPORT_TUNE_GLOBALS: an entry has no name";
      return false;
    }
    specs.push_back(spec);
  }
  return true;
}

}  // namespace gpuport_tune_capture

#ifndef GPUPORT_TUNE_CAPTURE_FORMAT_ONLY

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>

extern "C" cudaError_t __real_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                               size_t shared_bytes, cudaStream_t stream);

namespace gpuport_tune_capture {
namespace {

// From CUDA 11.8's cuda.h (CUpointer_attribute), so that this file needs only the runtime's headers.
const int kPointerAttributeRangeStartAddr = 11;
const int kPointerAttributeRangeSize = 12;
typedef int (*PointerGetAttributeFn)(void* data, int attribute, unsigned long long pointer);
typedef int (*FuncGetModuleFn)(void** module, cudaFunction_t function);
typedef int (*ModuleGetGlobalFn)(unsigned long long* address, size_t* bytes, void* module, const char* name);

struct Config {
  bool enabled = false;
  std::string file, kernel, error;
  std::vector<std::uint64_t> param_sizes;
  std::uint64_t launch = 0;
  std::vector<GlobalSpec> globals;
};

// Everything the wrapper keeps between launches. Never freed: the exit handler reads it after
// static destructors of other files may have run.
struct State {
  std::mutex mutex;
  Config config;
  std::uint64_t target_launches = 0;       // launches of the target kernel seen so far
  bool captured = false;                   // the chosen launch has been handled (written or failed)
  std::vector<std::string> other_kernels;  // a few other kernels launched, for the exit note
};

void report_error(const std::string& message) {
  std::fprintf(stderr, "GPUPORT_TUNE capture error: %s\n", message.c_str());
  std::fflush(stderr);
}

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

Config read_config() {
  Config c;
  c.file = env("GPUPORT_TUNE_CAPTURE");
  if (c.file.empty()) return c;
  c.enabled = true;
  c.kernel = env("GPUPORT_TUNE_KERNEL");
  if (c.kernel.empty()) c.error = "GPUPORT_TUNE_KERNEL is not set";
  if (c.error.empty()) parse_param_sizes(env("GPUPORT_TUNE_PARAM_SIZES"), c.param_sizes, c.error);
  if (c.error.empty()) parse_global_specs(env("GPUPORT_TUNE_GLOBALS"), c.globals, c.error);
  const std::string launch = env("GPUPORT_TUNE_LAUNCH");
  if (c.error.empty() && !launch.empty() && !parse_unsigned(launch, c.launch))
    c.error = "GPUPORT_TUNE_LAUNCH: '" + launch + "' is not a launch index";
  return c;
}

void report_missed_launch();

State& state() {
  static State* s = [] {
    State* created = new State;
    created->config = read_config();
    if (created->config.enabled) {
      if (!created->config.error.empty()) report_error(created->config.error + "; nothing will be captured");
      std::atexit(report_missed_launch);
    }
    return created;
  }();
  return *s;
}

// At exit: say so when the chosen launch never happened, which otherwise looks like success.
void report_missed_launch() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.captured || !s.config.error.empty()) return;
  std::string others;
  for (const std::string& name : s.other_kernels) others += (others.empty() ? "" : ", ") + name;
  report_error("kernel " + s.config.kernel + ": launch " + std::to_string(s.config.launch) +
               " never happened (the program launched it " + std::to_string(s.target_launches) +
               " times; other kernels launched: " + (others.empty() ? "none" : others) + "); nothing written to " +
               s.config.file);
}

// The mangled name of the kernel whose host stub is `func` (exported by --export-dynamic); empty
// when no exported symbol starts exactly there.
std::string kernel_name(const void* func) {
  Dl_info info;
  if (dladdr(func, &info) == 0 || info.dli_sname == nullptr || info.dli_saddr != func) return "";
  return info.dli_sname;
}

bool cuda_ok(cudaError_t result, const std::string& what, std::string& error) {
  if (result == cudaSuccess) return true;
  error = what + ": " + cudaGetErrorName(result) + " (" + cudaGetErrorString(result) + ")";
  return false;
}

bool copy_from_device(std::uint64_t address, std::uint64_t size, std::string& bytes, std::string& error) {
  bytes.assign(size, '\0');
  if (size == 0) return true;
  return cuda_ok(cudaMemcpy(&bytes[0], reinterpret_cast<const void*>(address), size, cudaMemcpyDefault),
                 "copying " + std::to_string(size) + " bytes from device address " + std::to_string(address), error);
}

// A driver entry point from the libcuda.so.1 the runtime has loaded already (RTLD_NOLOAD finds
// it without loading another); nullptr when there is none.
template <class Function>
Function driver_function(const char* name) {
  void* driver = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_NOW);
  return driver ? reinterpret_cast<Function>(dlsym(driver, name)) : nullptr;
}

// A captured global's device address and size. nvcc 11.8 gives the host shadows of
// __device__/__constant__ variables internal linkage (`__device__ int n;` has the host symbol
// _ZL1n, a local symbol that no dlsym finds), so the variable is looked up by its device name in
// the kernel's own module (cudaGetFuncBySymbol -> cuFuncGetModule -> cuModuleGetGlobal), the way
// the harness finds it in each cubin. A name that is not in the module but is an exported host
// shadow (dlsym) is copied through the runtime instead (GlobalAddress::shadow).
struct GlobalAddress {
  unsigned long long device = 0;
  const void* shadow = nullptr;
  std::uint64_t size = 0;
};

// Where the global is in the kernel's module; false with `error` set when it is not there.
bool find_in_module(const void* kernel, const std::string& name, GlobalAddress& where, std::string& error) {
  FuncGetModuleFn func_get_module = driver_function<FuncGetModuleFn>("cuFuncGetModule");
  ModuleGetGlobalFn module_get_global = driver_function<ModuleGetGlobalFn>("cuModuleGetGlobal_v2");
  if (func_get_module == nullptr || module_get_global == nullptr) {
    error = "cuFuncGetModule/cuModuleGetGlobal_v2 not found in the loaded libcuda.so.1";
    return false;
  }
  cudaFunction_t function = nullptr;
  if (!cuda_ok(cudaGetFuncBySymbol(&function, kernel), "cudaGetFuncBySymbol", error)) return false;
  void* module = nullptr;
  const int found_module = func_get_module(&module, function);
  if (found_module != 0) {
    error = "cuFuncGetModule failed (CUresult " + std::to_string(found_module) + ")";
    return false;
  }
  size_t size = 0;
  const int found_global = module_get_global(&where.device, &size, module, name.c_str());
  if (found_global != 0) {
    error = "not in the kernel's module (cuModuleGetGlobal: CUresult " + std::to_string(found_global) + ")";
    return false;
  }
  where.size = size;
  return true;
}

bool find_global(const void* kernel, const GlobalSpec& spec, GlobalAddress& where, std::string& error) {
  std::string module_error;
  if (!find_in_module(kernel, spec.name, where, module_error)) {
    where.shadow = dlsym(RTLD_DEFAULT, spec.name.c_str());
    if (where.shadow == nullptr) {
      error = "global " + spec.name + ": " + module_error + ", and no exported host shadow of that name";
      return false;
    }
    size_t size = spec.size;
    if (size == 0 && !cuda_ok(cudaGetSymbolSize(&size, where.shadow), "cudaGetSymbolSize(" + spec.name + ")", error))
      return false;
    where.size = size;
  }
  if (spec.size != 0 && spec.size != where.size) {
    error = "global " + spec.name + " is " + std::to_string(where.size) + " bytes, GPUPORT_TUNE_GLOBALS says " +
            std::to_string(spec.size);
    return false;
  }
  return true;
}

bool copy_global(const std::string& name, const GlobalAddress& where, std::string& bytes, std::string& error) {
  if (where.shadow == nullptr) return copy_from_device(where.device, where.size, bytes, error);
  bytes.assign(where.size, '\0');
  return cuda_ok(cudaMemcpyFromSymbol(&bytes[0], where.shadow, where.size, 0, cudaMemcpyDeviceToHost),
                 "cudaMemcpyFromSymbol(" + name + ")", error);
}

// The launch's parameters, buffers and globals before it runs.
bool capture_before(const Config& config, const void* kernel, void** args, Launch& launch,
                    std::vector<GlobalAddress>& globals, std::string& error) {
  if (!cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize before the launch", error)) return false;
  PointerGetAttributeFn get_attribute = driver_function<PointerGetAttributeFn>("cuPointerGetAttribute");
  if (get_attribute == nullptr) {
    error = "cuPointerGetAttribute not found in the loaded libcuda.so.1";
    return false;
  }
  for (std::size_t i = 0; i < config.param_sizes.size(); ++i) {
    Param p;
    p.bytes.assign(static_cast<const char*>(args[i]), config.param_sizes[i]);
    if (p.bytes.size() == 8) {
      unsigned long long value = 0;
      std::memcpy(&value, p.bytes.data(), 8);
      unsigned long long start = 0;
      size_t size = 0;
      if (value != 0 && get_attribute(&start, kPointerAttributeRangeStartAddr, value) == 0 &&
          get_attribute(&size, kPointerAttributeRangeSize, value) == 0 && size > 0 && value >= start &&
          value - start <= size) {
        p.is_pointer = true;
        p.offset = value - start;
        std::size_t index = 0;
        while (index < launch.buffers.size() && launch.buffers[index].address != start) ++index;
        if (index == launch.buffers.size()) {
          Buffer b;
          b.address = start;
          if (!copy_from_device(start, size, b.before, error)) return false;
          launch.buffers.push_back(b);
        }
        p.buffer = static_cast<std::uint32_t>(index);
      }
    }
    launch.params.push_back(p);
  }
  for (const GlobalSpec& spec : config.globals) {
    GlobalAddress where;
    Global g;
    g.name = spec.name;
    if (!find_global(kernel, spec, where, error) || !copy_global(spec.name, where, g.before, error)) return false;
    globals.push_back(where);
    launch.globals.push_back(g);
  }
  return true;
}

// The same memory after the launch has finished.
bool capture_after(const std::vector<GlobalAddress>& globals, Launch& launch, std::string& error) {
  if (!cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize after the launch", error)) return false;
  for (Buffer& b : launch.buffers)
    if (!copy_from_device(b.address, b.before.size(), b.after, error)) return false;
  for (std::size_t i = 0; i < launch.globals.size(); ++i)
    if (!copy_global(launch.globals[i].name, globals[i], launch.globals[i].after, error)) return false;
  return true;
}

bool write_atomically(const std::string& file, const std::string& bytes, std::string& error) {
  const std::string temp = file + ".tmp." + std::to_string(static_cast<long>(getpid()));
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot create " + temp + ": " + std::strerror(errno);
    return false;
  }
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool written = done == bytes.size() && fsync(fd) == 0;
  const int saved = errno;
  close(fd);
  if (!written || std::rename(temp.c_str(), file.c_str()) != 0) {
    error = "cannot write " + file + ": " + std::strerror(written ? errno : saved);
    unlink(temp.c_str());
    return false;
  }
  return true;
}

std::string dims(const std::uint32_t d[3]) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

// Is this launch the one to capture? Counts the target kernel's launches either way.
bool is_chosen_launch(State& s, const std::string& name) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (name != s.config.kernel) {
    if (s.other_kernels.size() < 8 && !name.empty()) {
      bool known = false;
      for (const std::string& k : s.other_kernels) known = known || k == name;
      if (!known) s.other_kernels.push_back(name);
    }
    return false;
  }
  const bool chosen = !s.captured && s.target_launches == s.config.launch;
  ++s.target_launches;
  if (chosen) s.captured = true;
  return chosen;
}

}  // namespace
}  // namespace gpuport_tune_capture

extern "C" cudaError_t __wrap_cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                                               size_t shared_bytes, cudaStream_t stream) {
  using namespace gpuport_tune_capture;
  State& s = state();
  if (!s.config.enabled || !s.config.error.empty() || !is_chosen_launch(s, kernel_name(func)))
    return __real_cudaLaunchKernel(func, grid, block, args, shared_bytes, stream);

  Launch launch;
  launch.kernel = s.config.kernel;
  const std::uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  for (int i = 0; i < 3; ++i) {
    launch.grid[i] = g[i];
    launch.block[i] = b[i];
  }
  launch.shared_bytes = shared_bytes;
  std::string error;
  std::vector<GlobalAddress> globals;
  if (!capture_before(s.config, func, args, launch, globals, error)) {
    report_error(s.config.kernel + ": " + error + "; nothing written");
    return __real_cudaLaunchKernel(func, grid, block, args, shared_bytes, stream);
  }
  const cudaError_t result = __real_cudaLaunchKernel(func, grid, block, args, shared_bytes, stream);
  if (result != cudaSuccess) {
    report_error(s.config.kernel + ": the launch failed (" + cudaGetErrorName(result) + "); nothing written");
    return result;
  }
  if (!capture_after(globals, launch, error)) {
    report_error(s.config.kernel + ": " + error + "; nothing written");
    return result;
  }
  const std::string bytes = encode_capture(launch);
  if (!write_atomically(s.config.file, bytes, error)) {
    report_error(s.config.kernel + ": " + error);
    return result;
  }
  std::uint64_t state_bytes = 0;
  for (const Buffer& buffer : launch.buffers) state_bytes += buffer.before.size();
  for (const Global& global : launch.globals) state_bytes += global.before.size();
  std::fprintf(stderr, "GPUPORT_TUNE capture: %s grid=%s block=%s shmem=%llu params=%zu buffers=%zu bytes=%llu -> %s\n",
               launch.kernel.c_str(), dims(launch.grid).c_str(), dims(launch.block).c_str(),
               static_cast<unsigned long long>(launch.shared_bytes), launch.params.size(), launch.buffers.size(),
               static_cast<unsigned long long>(state_bytes), s.config.file.c_str());
  std::fflush(stderr);
  return result;
}

#endif  // GPUPORT_TUNE_CAPTURE_FORMAT_ONLY
