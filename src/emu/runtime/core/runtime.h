// The core of the emulator's HIP runtime (libamdhip64.so.5 and .so.6 of `gpuport run`): its state
// (registered code objects, kernels, variables, allocations, streams, events), allocation into
// the emulator's checked address space, code objects and what the program registers from them,
// and kernel launch. The HIP entry points (emu/runtime/hip/) are thin files over this core and
// call into it; the core never calls an entry point (tests/runtime_layers.py checks both).
// Internal to the library: nothing here is exported (the version script keeps only HIP's ABI).
#pragma once

#include "emu/runtime/abi.h"  // first: HIP's headers, for the ABI this build implements

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "emu/interpreter.h"

namespace gpuport::emu::hip {

using emu::AddressSpace;
using emu::Launch;

// The device memory the emulated GPU reports (hipMemGetInfo, totalGlobalMem); no allocation
// may be larger.
constexpr size_t kDeviceMemoryBytes = 24ull << 30;

// A process exit status distinct from a program's own failures: the emulator stopped a kernel.
constexpr int kKernelFaultExit = 70;

struct Module;

// A kernel of a module: what a registered host stub stands for, and what hipModuleGetFunction
// hands out (a hipFunction_t is a Function*).
struct Function {
  Module* module = nullptr;
  std::string name;
};

// A code object the runtime has loaded: a fat binary the program registered at start-up, or one
// loaded with hipModuleLoad*. Both kinds launch through the same path (make_launch/run_launch).
struct Module {
  std::unique_ptr<gpuport::amdgpu::CodeObject> code_object;
  std::map<std::string, std::shared_ptr<gpuport::emu::PreparedKernel>> prepared;
  std::string load_error;
  hipError_t load_status = hipSuccess;  // why load_error: hipErrorInvalidImage, hipErrorNoBinaryForGpu
  // Handles given out by hipModuleGetFunction, by kernel name; they live as long as the module.
  std::map<std::string, std::unique_ptr<Function>, std::less<>> functions;
};

struct Variable {
  Module* module = nullptr;
  std::string name;
  std::size_t size = 0;
};

struct KernelStats {
  std::uint64_t launches = 0, instructions = 0, lane_instructions = 0;
  std::uint64_t compiled_instructions = 0;  // of `instructions`, those the JIT tier's code ran
  double seconds = 0;
};

struct Runtime {
  std::recursive_mutex mutex;
  AddressSpace memory;
  std::unique_ptr<gpuport::amdgpu::Disassembler> disassembler32, disassembler64;
  std::vector<std::unique_ptr<Module>> modules;
  std::unordered_map<const void*, Function> functions;  // host stubs the program registered
  std::set<const void*> function_handles;                // hipFunction_t handles of loaded modules
  std::unordered_map<const void*, Variable> variables;
  std::map<std::uintptr_t, std::size_t> allocations;  // device and host blocks the runtime owns
  // Device blocks of 1 MiB or more are mappings of their own (their mapped bytes, by start); from
  // kLazyZeroBytes on, zero pages until written.
  std::map<std::uintptr_t, std::size_t> mapped;
  std::set<ihipStream_t*> streams;
  std::set<ihipEvent_t*> events;
  std::map<std::string, KernelStats> stats;
  unsigned jobs = 0;
  double timeout = 0;
  std::uint64_t max_instructions = 0;  // GPUPORT_RUN_MAX_INSTRUCTIONS: per wave (0: no limit)
  gpuport::emu::JitMode jit = gpuport::emu::JitMode::hot;  // GPUPORT_RUN_JIT
  std::string jit_cache;                                   // GPUPORT_RUN_JIT_CACHE (--cache)
  // --jit compare: every launch on both tiers (emu/compare_tiers.h); the launches compared, and
  // those run on the interpreter only, by reason.
  bool jit_compare = false;
  std::uint64_t jit_hot = 0;  // GPUPORT_JIT_HOT (0: the emulator's default)
  std::uint64_t compared = 0;
  std::map<std::string, std::uint64_t> not_compared;
  std::string stats_path;
  // gpuport run --memcheck (leaks at exit) and --initcheck (reads of LDS never written): findings
  // go to stderr and, one per line, to findings_path, which gpuport run counts.
  std::string findings_path;
  bool check_leaks = false, check_lds_init = false;
  std::map<std::uintptr_t, const char*> origin;  // what allocated each block of `allocations`
  void report_finding(const std::string& what) {
    std::fflush(stdout);
    std::fprintf(stderr, "gpuport run: %s\n", what.c_str());
    if (FILE* f = findings_path.empty() ? nullptr : std::fopen(findings_path.c_str(), "a")) {
      std::fprintf(f, "%s\n", what.c_str());
      std::fclose(f);
    }
  }
  int current_device = 0;
  unsigned device_flags = 0;
  std::set<std::string> unsupported_said;

  Runtime() {
    if (const char* j = std::getenv("GPUPORT_RUN_JOBS")) jobs = static_cast<unsigned>(std::max(1, std::atoi(j)));
    if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
    if (const char* t = std::getenv("GPUPORT_RUN_TIMEOUT")) timeout = std::atof(t);
    if (const char* m = std::getenv("GPUPORT_RUN_MAX_INSTRUCTIONS")) max_instructions = std::strtoull(m, nullptr, 10);
    if (const char* j = std::getenv("GPUPORT_RUN_JIT")) {
      jit_compare = std::string_view(j) == "compare";
      if (!jit_compare && !gpuport::emu::parse_jit_mode(j, jit))
        fail(std::string("GPUPORT_RUN_JIT=") + j + ": not never, hot, always or compare");
    }
    if (const char* c = std::getenv("GPUPORT_RUN_JIT_CACHE")) gpuport::emu::jit_set_cache_dir(jit_cache = c);
    if (const char* h = std::getenv("GPUPORT_RUN_JIT_HELPER")) gpuport::emu::jit_set_compile_helper(h);
    // For tests and study: the wave-instructions after which --jit hot compiles a kernel.
    if (const char* h = std::getenv("GPUPORT_JIT_HOT")) jit_hot = std::strtoull(h, nullptr, 10);
    if (const char* s = std::getenv("GPUPORT_RUN_STATS")) stats_path = s;
    if (const char* f = std::getenv("GPUPORT_RUN_FINDINGS")) findings_path = f;
    check_leaks = std::getenv("GPUPORT_RUN_LEAKS") != nullptr;
    check_lds_init = std::getenv("GPUPORT_RUN_INITCHECK") != nullptr;
  }
  void write_stats() {
    if (stats_path.empty() || stats.empty()) return;
    std::string text = "# gpuport run: per-kernel statistics (gfx1100, emulated)\n# kernel\tlaunches\tinstructions\tlane_instructions\tseconds\tlane_instructions_per_second\n";
    for (const auto& [name, s] : stats)
      text += fmt::format("{}\t{}\t{}\t{}\t{:.6f}\t{:.0f}\n", name, s.launches, s.instructions, s.lane_instructions, s.seconds,
                          s.seconds > 0 ? s.lane_instructions / s.seconds : 0.0);
    // Kernels compiled before their first launch (--jit always) are timed without it.
    const auto jit_totals = gpuport::emu::jit_totals();
    text += fmt::format("# jit: {} kernel(s) compiled in {:.3f} s, {} taken from the cache", jit_totals.compiled,
                        jit_totals.compile_seconds, jit_totals.reused);
    if (jit_totals.background) text += fmt::format(" ({} by the compile helper while the interpreter went on)", jit_totals.background);
    if (!jit_cache.empty())
      text += fmt::format(", {} loaded from the cache folder in {:.3f} s", jit_totals.loaded, jit_totals.load_seconds);
    text += '\n';
    std::uint64_t all = 0, compiled = 0;
    for (const auto& [name, s] : stats) {
      all += s.instructions;
      compiled += s.compiled_instructions;
    }
    if (compiled)
      text += fmt::format("# jit: {} of the {} wave-instructions ran in compiled code ({:.1f}%)\n", compiled, all, 100.0 * compiled / all);
    if (!jit_totals.cache_failure.empty()) text += "# jit: the cache folder: " + jit_totals.cache_failure + "\n";
    if (jit_compare) {
      text += fmt::format("# jit compare: {} launch(es) alike on both tiers\n", compared);
      for (const auto& [why, n] : not_compared) text += fmt::format("# jit compare: {} launch(es) on the interpreter only: {}\n", n, why);
    }
    if (stats_path == "-") {
      std::fputs(text.c_str(), stderr);
      return;
    }
    if (FILE* f = std::fopen(stats_path.c_str(), "w")) {
      std::fputs(text.c_str(), f);
      std::fclose(f);
    }
  }

  const gpuport::amdgpu::Disassembler& disassembler(bool wave64) {
    auto& d = wave64 ? disassembler64 : disassembler32;
    if (!d) {
      auto r = gpuport::amdgpu::Disassembler::create(wave64);
      if (!r) fail(r.diagnostics().empty() ? "LLVM's AMDGPU disassembler is not available" : r.diagnostics()[0].message);
      d = std::move(*r);
    }
    return *d;
  }

  [[noreturn]] void fail(const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "gpuport run: %s\n", message.c_str());
    write_stats();
    std::fflush(stderr);
    std::_Exit(kKernelFaultExit);
  }

  void say_unsupported(const std::string& what) {
    std::lock_guard lock(mutex);
    if (unsupported_said.insert(what).second)
      std::fprintf(stderr, "gpuport run: %s is not implemented by the emulator's HIP runtime (returns hipErrorNotSupported)\n",
                   what.c_str());
  }
};

Runtime& runtime();

// Records `e` as the thread's last error (hipGetLastError) unless it is hipSuccess; returns it.
hipError_t ret(hipError_t e);
extern thread_local hipError_t last_error;

// The name of an error code ("hipErrorInvalidValue") and its description (hipGetErrorName,
// hipGetErrorString).
const char* error_name(hipError_t e);
const char* error_string(hipError_t e);

// A call the runtime refuses with `e` for `reason` (what cannot exist on the emulated device):
// says "gpuport run: <call>: <reason> (returns <e>)" on stderr once per call and reason.
hipError_t refuse(const std::string& call, const std::string& reason, hipError_t e);
// The same for a call that returns no hipError_t: `outcome` says what it does instead.
void say_refused(const std::string& call, const std::string& reason, const std::string& outcome);

// Zeroed memory registered with the emulator's address space as `kind` (every kernel access to
// it is checked); released with release(), which keeps the block for use-after-free reports.
void* allocate(size_t size, AddressSpace::Kind kind, const char* what);
// The name hipMallocManaged's blocks carry in the address space (range attributes, pointer
// attributes tell managed memory by it).
inline constexpr const char* kManagedAllocation = "hipMallocManaged";
hipError_t release(void* p);
// Device blocks from this size on are zero pages until written (host memory is used only where
// written: gpu-burn sizes its buffer by hipMemGetInfo, 19 GiB of the emulated 24, and writes a
// few matrices of it); smaller ones are present from the start, as a GPU's memory is.
inline constexpr size_t kLazyZeroBytes = size_t(1) << 30;
// Fills [p, p + bytes) with zero bytes; in a mapped device block, only the pages the process
// holds (in memory or swapped out): the others are the zero pages the block was mapped with, so
// that hipMemset(p, 0, n) of a block nothing has written touches nothing.
void fill_zero(void* p, size_t bytes);
// Whether the process maps every byte of [address, address + bytes) readable (and writable, with
// `write`): the program's own host memory, which the runtime did not allocate, checked before a
// copy touches it (from /proc/self/maps, read again when the copy of it does not cover the range).
bool host_memory_accessible(std::uintptr_t address, size_t bytes, bool write);
// Device memory for the program (hipMalloc, hipMallocManaged with kManagedAllocation): null for
// size 0; refused while a capture forbids potentially unsafe calls (allocation may synchronize).
hipError_t allocate_device(void** p, size_t size, const char* what);
// The bytes the runtime's blocks hold (hipMemGetInfo).
size_t device_memory_in_use();
// Pinned host memory, and host memory the program registers, with the flags it was given
// (hipHostGetFlags reads them back for any address inside the block).
hipError_t allocate_host(void** p, size_t size, unsigned flags, const char* what);
hipError_t release_host(void* p);
void register_host(void* p, size_t size, unsigned flags);
void unregister_host(void* p);
hipError_t host_flags_of(const void* p, unsigned* flags);

// A module from an image in memory: a gfx1100 code object (ELF), a clang offload bundle, or a
// HIP executable whose .hip_fatbin holds one. On failure the module keeps load_error and
// load_status and has no code object; its image is registered with the address space otherwise.
Module* load_module(std::string_view image, const std::string& origin);
// Unloads a module of hipModuleLoad*: its image is marked freed, its function handles die.
void unload_module(Module* module);
// The bytes a clang offload bundle in memory spans (where its last entry ends); 0 when `image`
// is not one.
std::size_t offload_bundle_size(const void* image);
// The module of a registered fat binary (its gfx1100 code object, or why there is none).
Module* load_module(const void* bundle);
// What clang's start-up code registers from a module: a kernel's host stub, a device variable's
// host shadow, and a __managed__ variable (its memory, which the device symbol then points to).
void register_function(Module* module, const void* host_function, const char* device_name);
void register_variable(Module* module, const void* host_variable, const char* device_name, size_t size);
void* register_managed_variable(Module* module, const char* name, const void* initial, size_t size);
const amdgpu::CodeObject::Symbol* find_global(const Module& m, const std::string& name);
// The device address of a registered __device__/__constant__ variable (its size in *size).
void* device_address_of(const void* symbol, size_t* size);
// The kernel `function` names: a host stub the program registered, or (when `handles`) a
// hipFunction_t of a loaded module; null when it names none. Called with the runtime's lock held.
const Function* find_function(const void* function, bool handles = true);
// The kernel a host stub or function handle stands for, or null (no gfx1100 code object).
// Called with the runtime's lock held.
const amdgpu::Kernel* kernel_of(const void* function);
// Connects the services a kernel's hidden arguments ask for: the hostcall buffer and its
// interrupt handler (device printf, assert messages, malloc's slabs) and the device heap.
void attach_services(const amdgpu::Kernel& kernel, Launch& launch);
std::uint64_t device_heap();

// A kernel launch with its explicit arguments copied when it is issued: what runs, and what a
// graph's kernel node keeps (so that captured arguments keep the values they had).
struct KernelLaunch {
  const void* function = nullptr;  // a host stub or a hipFunction_t, as the program named it
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  unsigned shared = 0;                       // dynamic LDS bytes
  std::vector<std::uint8_t> arguments;       // explicit arguments at their kernarg offsets
  std::vector<std::uint32_t> offsets;        // each explicit argument's offset in `arguments`
};
// Validates the configuration and copies the arguments: `kernel_params` (one pointer per
// explicit argument) or `extra` (HIP_LAUNCH_PARAM_BUFFER_POINTER/SIZE/END: the kernarg bytes).
hipError_t make_launch(KernelLaunch& launch, void** kernel_params, void** extra);
// Runs a launch made by make_launch on the emulator (the caller orders it: see submit()).
hipError_t run_launch(const KernelLaunch& launch);
// hipLaunchKernel and its relatives: a launch of a registered kernel (its arguments one pointer
// each in `args`, or the kernarg bytes in `extra`, as make_launch takes them), submitted to
// `stream`.
hipError_t launch(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream,
                  void** extra = nullptr);

// The launch configurations of <<<>>> (__hipPushCallConfiguration, __hipPopCallConfiguration),
// per thread; popping with none pushed is hipErrorInvalidConfiguration.
void push_call_configuration(dim3 grid, dim3 block, size_t shared, hipStream_t stream);
hipError_t pop_call_configuration(dim3* grid, dim3* block, size_t* shared, hipStream_t* stream);

// hipModuleLaunchKernel and its relatives: a launch of a function handle of a loaded module
// (kernelParams or the `extra` buffer), between the records of `start` and `stop` when given.
hipError_t launch_handle(hipFunction_t f, dim3 grid, dim3 block, size_t shared, hipStream_t stream, void** params, void** extra,
                         hipEvent_t start, hipEvent_t stop);

// What hipFuncGetAttributes reports for a kernel, and occupancy on one CU.
hipFuncAttributes attributes_of(const amdgpu::Kernel& kernel);
int blocks_per_cu(const amdgpu::Kernel& kernel, int block_size, size_t dynamic);
void max_potential_block_size(const amdgpu::Kernel& kernel, size_t dynamic, int limit, int* grid_size, int* block_size);

}  // namespace gpuport::emu::hip
