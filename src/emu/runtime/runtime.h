// The parts of the emulator's HIP runtime (libamdhip64.so.5 of `gpuport run`) that its source
// files share: the runtime's state (registered code objects, kernels, variables, allocations,
// streams, events), allocation into the emulator's checked address space, and kernel launch.
// Internal to the library: nothing here is exported (the version script keeps only HIP's ABI).
#pragma once

#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>

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

struct ihipStream_t {
  unsigned int flags = 0;
  int priority = 0;
};
struct ihipEvent_t {
  unsigned int flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
};

namespace gpuport::emu::hip {

using emu::AddressSpace;
using emu::Launch;


// A process exit status distinct from a program's own failures: the emulator stopped a kernel.
constexpr int kKernelFaultExit = 70;

struct Module {
  std::unique_ptr<gpuport::amdgpu::CodeObject> code_object;
  std::map<std::string, std::shared_ptr<gpuport::emu::PreparedKernel>> prepared;
  std::string load_error;
};

struct Function {
  Module* module = nullptr;
  std::string name;
};

struct Variable {
  Module* module = nullptr;
  std::string name;
  std::size_t size = 0;
};

struct KernelStats {
  std::uint64_t launches = 0, instructions = 0, lane_instructions = 0;
  double seconds = 0;
};

struct Runtime {
  std::recursive_mutex mutex;
  AddressSpace memory;
  std::unique_ptr<gpuport::amdgpu::Disassembler> disassembler32, disassembler64;
  std::vector<std::unique_ptr<Module>> modules;
  std::unordered_map<const void*, Function> functions;
  std::unordered_map<const void*, Variable> variables;
  std::map<std::uintptr_t, std::size_t> allocations;  // device and host blocks the runtime owns
  std::set<ihipStream_t*> streams;
  std::set<ihipEvent_t*> events;
  std::map<std::string, KernelStats> stats;
  unsigned jobs = 0;
  double timeout = 0;
  std::string stats_path;
  int current_device = 0;
  unsigned device_flags = 0;
  std::set<std::string> unsupported_said;

  Runtime() {
    if (const char* j = std::getenv("GPUPORT_RUN_JOBS")) jobs = static_cast<unsigned>(std::max(1, std::atoi(j)));
    if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
    if (const char* t = std::getenv("GPUPORT_RUN_TIMEOUT")) timeout = std::atof(t);
    if (const char* s = std::getenv("GPUPORT_RUN_STATS")) stats_path = s;
  }
  void write_stats() {
    if (stats_path.empty() || stats.empty()) return;
    std::string text = "# gpuport run: per-kernel statistics (gfx1100, emulated)\n# kernel\tlaunches\tinstructions\tlane_instructions\tseconds\tlane_instructions_per_second\n";
    for (const auto& [name, s] : stats)
      text += fmt::format("{}\t{}\t{}\t{}\t{:.6f}\t{:.0f}\n", name, s.launches, s.instructions, s.lane_instructions, s.seconds,
                          s.seconds > 0 ? s.lane_instructions / s.seconds : 0.0);
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

// Zeroed memory registered with the emulator's address space as `kind` (every kernel access to
// it is checked); released with release(), which keeps the block for use-after-free reports.
void* allocate(size_t size, AddressSpace::Kind kind, const char* what);
hipError_t release(void* p);

// The module of a registered fat binary (its gfx1100 code object, or why there is none).
Module* load_module(const void* bundle);
const amdgpu::CodeObject::Symbol* find_global(const Module& m, const std::string& name);
// The device address of a registered __device__/__constant__ variable (its size in *size).
void* device_address_of(const void* symbol, size_t* size);
// The kernel a host stub stands for, or null. Called with the runtime's lock held.
const amdgpu::Kernel* kernel_of(const void* function);
// Connects the services a kernel's hidden arguments ask for: the hostcall buffer and its
// interrupt handler (device printf, assert messages, malloc's slabs) and the device heap.
void attach_services(const amdgpu::Kernel& kernel, Launch& launch);
std::uint64_t device_heap();
// Runs `function` (a registered host stub) on the emulator; args as hipLaunchKernel takes them.
hipError_t launch(const void* function, dim3 grid, dim3 block, void** args, size_t shared);

}  // namespace gpuport::emu::hip
