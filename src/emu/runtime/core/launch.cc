// Kernel launches: a launch is validated and its arguments copied when it is issued
// (make_launch), submitted like every stream-ordered operation, and run on the emulator
// (run_launch), which prepares each kernel once per module. Also the kernel's attributes and
// occupancy on one gfx1100 WGP, and the call configurations of <<<>>>.
#include "emu/runtime/core/queues.h"

#include <cstring>

#include "emu/compare_tiers.h"

namespace gpuport::emu::hip {

namespace {
// --jit compare copies live memory twice per launch: beyond this, a launch runs on the
// interpreter only (and --stats says so).
constexpr std::uint64_t kCompareMemoryLimit = 4ull << 30;
struct CallConfiguration {
  dim3 grid, block;
  size_t shared = 0;
  hipStream_t stream = nullptr;
};
thread_local std::vector<CallConfiguration> call_stack;
}  // namespace

void push_call_configuration(dim3 grid, dim3 block, size_t shared, hipStream_t stream) {
  call_stack.push_back({grid, block, shared, stream});
}

hipError_t pop_call_configuration(dim3* grid, dim3* block, size_t* shared, hipStream_t* stream) {
  if (call_stack.empty()) return ret(hipErrorInvalidConfiguration);
  const auto c = call_stack.back();
  call_stack.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *stream = c.stream;
  return hipSuccess;
}

hipError_t make_launch(KernelLaunch& launch, void** kernel_params, void** extra) {
  auto& rt = runtime();
  std::lock_guard lock(rt.mutex);
  const Function* f = find_function(launch.function);
  if (!f) return ret(hipErrorInvalidDeviceFunction);
  if (!f->module->code_object) rt.fail(f->module->load_error);
  const auto* kernel = f->module->code_object->find_kernel(f->name);
  if (!kernel) rt.fail("kernel " + f->name + " is registered by the program but not in its gfx1100 code object");
  const dim3 g = launch.grid, b = launch.block;
  const std::uint64_t threads = std::uint64_t(b.x) * b.y * b.z;
  const std::uint32_t max_threads = kernel->max_flat_workgroup_size ? kernel->max_flat_workgroup_size : 1024;
  if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z || threads > max_threads || b.x > 1024 || b.y > 1024 || b.z > 1024)
    return ret(hipErrorInvalidConfiguration);
  // The dispatch packet counts work-items per dimension in 32 bits: HIP refuses a launch whose
  // grid (blocks times block size) does not fit, with this error.
  constexpr std::uint64_t kMaxWorkItems = 0xffffffffull;
  if (std::uint64_t(g.x) * b.x > kMaxWorkItems || std::uint64_t(g.y) * b.y > kMaxWorkItems || std::uint64_t(g.z) * b.z > kMaxWorkItems)
    return ret(hipErrorInvalidConfiguration);
  if (std::uint64_t(kernel->group_segment_fixed_size) + launch.shared > 65536) return ret(hipErrorInvalidValue);
  if (kernel_params && extra) return ret(hipErrorInvalidValue);
  launch.arguments.assign(std::max<std::size_t>(kernel->kernarg_segment_size, 16), 0);
  launch.offsets.clear();
  for (const auto& a : kernel->arguments)
    if (!a.value_kind.starts_with("hidden_")) launch.offsets.push_back(a.offset);
  if (extra) {
    // { HIP_LAUNCH_PARAM_BUFFER_POINTER, buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END }
    const void* buffer = nullptr;
    const size_t* size = nullptr;
    for (void** e = extra; *e != HIP_LAUNCH_PARAM_END; e += 2) {
      if (e[0] == HIP_LAUNCH_PARAM_BUFFER_POINTER) buffer = e[1];
      else if (e[0] == HIP_LAUNCH_PARAM_BUFFER_SIZE) size = static_cast<const size_t*>(e[1]);
      else return ret(hipErrorInvalidValue);
    }
    if (!buffer || !size) return ret(hipErrorInvalidValue);
    // A buffer may run past the kernel's kernarg segment (rocBLAS's Tensile launches pad theirs:
    // 116 bytes for a 112-byte segment); the kernel reads only its segment.
    std::memcpy(launch.arguments.data(), buffer, std::min(*size, launch.arguments.size()));
    return hipSuccess;
  }
  std::size_t index = 0;
  for (const auto& a : kernel->arguments) {
    if (a.value_kind.starts_with("hidden_")) continue;
    if (!kernel_params || !kernel_params[index]) return ret(hipErrorInvalidValue);
    if (a.offset + a.size <= launch.arguments.size()) std::memcpy(launch.arguments.data() + a.offset, kernel_params[index], a.size);
    ++index;
  }
  return hipSuccess;
}

hipError_t run_launch(const KernelLaunch& launch) {
  auto& rt = runtime();
  std::shared_ptr<gpuport::emu::PreparedKernel> prepared;
  Module* module = nullptr;
  std::string name;
  {
    std::lock_guard lock(rt.mutex);
    const Function* f = find_function(launch.function);
    if (!f) return ret(hipErrorInvalidDeviceFunction);  // its module was unloaded since
    module = f->module;
    name = f->name;
    if (!module->code_object) rt.fail(module->load_error);
    auto p = module->prepared.find(name);
    if (p != module->prepared.end()) {
      prepared = p->second;
    } else {
      const auto* kernel = module->code_object->find_kernel(name);
      if (!kernel) rt.fail("kernel " + name + " is registered by the program but not in its gfx1100 code object");
      auto r = gpuport::emu::prepare_kernel(*module->code_object, *kernel, rt.disassembler(!kernel->descriptor.wave32));
      if (!r) {
        std::string message;
        for (const auto& d : r.diagnostics()) message += (message.empty() ? "" : "\ngpuport run: ") + d.message;
        rt.fail(message);
      }
      prepared = *r;
      module->prepared[name] = prepared;
    }
  }
  gpuport::emu::Launch L;
  L.grid = {launch.grid.x, launch.grid.y, launch.grid.z};
  L.block = {launch.block.x, launch.block.y, launch.block.z};
  L.dynamic_lds = launch.shared;
  L.jobs = rt.jobs;
  L.timeout_seconds = rt.timeout;
  L.max_instructions = rt.max_instructions;
  L.jit = rt.jit;
  L.jit_hot = rt.jit_hot;
  L.kernarg = launch.arguments;
  L.memcheck = rt.check_lds_init;
  attach_services(*prepared->kernel, L);
  const auto image = reinterpret_cast<std::uint64_t>(module->code_object->memory.data());
  gpuport::Result<gpuport::emu::RunStats> r = gpuport::emu::RunStats{};
  if (rt.jit_compare && !L.memcheck) {
    auto c = gpuport::emu::run_on_both_tiers(*prepared, std::move(L), rt.memory, image, kCompareMemoryLimit);
    if (!c) rt.fail(c.diagnostics()[0].message);
    if (!c->difference.empty()) rt.fail("--jit compare: kernel " + name + ": the compiled code differs from the interpreter: " + c->difference);
    {
      std::lock_guard lock(rt.mutex);
      if (c->not_compared.empty()) ++rt.compared;
      else ++rt.not_compared[c->not_compared];
    }
    r = c->stats;
  } else {
    r = gpuport::emu::run_kernel(*prepared, std::move(L), rt.memory, image);
  }
  if (!r) rt.fail(r.diagnostics()[0].message);
  for (const auto& m : r->memcheck) rt.report_finding("initcheck: " + m);
  std::lock_guard lock(rt.mutex);
  auto& s = rt.stats[name];
  ++s.launches;
  s.instructions += r->instructions;
  s.lane_instructions += r->lane_instructions;
  s.compiled_instructions += r->compiled_instructions;
  s.seconds += r->seconds;
  return hipSuccess;
}

hipError_t launch(const void* function, dim3 grid, dim3 block, void** args, size_t shared, hipStream_t stream, void** extra) {
  Operation op;
  auto& k = op.emplace<KernelLaunch>();
  k.function = function;
  k.grid = grid;
  k.block = block;
  k.shared = static_cast<unsigned>(shared);
  {
    std::lock_guard lock(runtime().mutex);
    if (!find_function(function, false)) return ret(hipErrorInvalidDeviceFunction);
  }
  if (hipError_t e = make_launch(k, args, extra)) return e;
  return submit(stream, std::move(op));
}

hipError_t launch_handle(hipFunction_t f, dim3 grid, dim3 block, size_t shared, hipStream_t stream, void** params, void** extra,
                         hipEvent_t start, hipEvent_t stop) {
  Operation op;
  auto& k = op.emplace<KernelLaunch>();
  {
    std::lock_guard lock(runtime().mutex);
    if (!runtime().function_handles.count(f)) return ret(hipErrorInvalidHandle);
    if ((start && !is_live_event(start)) || (stop && !is_live_event(stop))) return ret(hipErrorInvalidHandle);
  }
  k.function = f;
  k.grid = grid;
  k.block = block;
  k.shared = static_cast<unsigned>(shared);
  if (hipError_t e = make_launch(k, params, extra)) return e;
  if (start)
    if (hipError_t e = submit(stream, EventRecord{start})) return e;
  if (hipError_t e = submit(stream, std::move(op))) return e;
  return stop ? submit(stream, EventRecord{stop}) : hipSuccess;
}

hipFuncAttributes attributes_of(const gpuport::amdgpu::Kernel& k) {
  hipFuncAttributes attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.sharedSizeBytes = k.group_segment_fixed_size;
  attr.localSizeBytes = k.private_segment_fixed_size;
  attr.maxThreadsPerBlock = k.max_flat_workgroup_size ? static_cast<int>(k.max_flat_workgroup_size) : 1024;
  attr.numRegs = static_cast<int>(k.vgpr_count);
  attr.maxDynamicSharedSizeBytes = 65536 - static_cast<int>(k.group_segment_fixed_size);
  attr.binaryVersion = 110;
  attr.ptxVersion = 110;
  return attr;
}

// Occupancy from the kernel's registers and LDS against one gfx1100 WGP-mode CU: 64 KiB of LDS,
// 1536 VGPRs per SIMD lane slot budget (16 waves of up to 96 VGPRs), 2048 threads.
int blocks_per_cu(const gpuport::amdgpu::Kernel& k, int block_size, size_t dynamic) {
  // One "multiprocessor" of the 48 the device reports is a gfx1100 WGP (HIP counts WGPs on RDNA):
  // 4 SIMD32s of 16 wave slots and 1536 VGPRs each (768 in wave64), allocated in granules of 24
  // (12 in wave64), 2048 threads, 128 KiB of LDS (at most 64 KiB for one workgroup).
  if (block_size <= 0) return 0;
  const int wave = k.descriptor.wave32 ? 32 : 64;
  const int waves = (block_size + wave - 1) / wave;
  const int by_threads = 2048 / (waves * wave);
  const size_t lds = k.group_segment_fixed_size + dynamic;
  if (lds > 65536) return 0;
  const int by_lds = lds ? static_cast<int>(131072 / lds) : by_threads;
  const int granule = wave == 32 ? 24 : 12;
  const int vgprs = std::max<int>(1, static_cast<int>(k.vgpr_count));
  const int allocated = (vgprs + granule - 1) / granule * granule;
  const int waves_per_simd = std::min(16, (wave == 32 ? 1536 : 768) / allocated);
  const int by_vgprs = waves_per_simd * 4 / waves;
  return std::max(0, std::min({by_threads, by_lds, by_vgprs}));
}

void max_potential_block_size(const gpuport::amdgpu::Kernel& k, size_t dynamic, int limit, int* grid_size, int* block_size) {
  int best = 0, best_threads = 0;
  const int max_block = std::min<int>(limit > 0 ? limit : 1024, k.max_flat_workgroup_size ? static_cast<int>(k.max_flat_workgroup_size) : 1024);
  for (int b = 32; b <= max_block; b += 32) {
    const int t = blocks_per_cu(k, b, dynamic) * b;
    if (t >= best_threads) best_threads = t, best = b;
  }
  *block_size = best ? best : 32;
  *grid_size = 48 * std::max(1, blocks_per_cu(k, *block_size, dynamic));
}

}  // namespace gpuport::emu::hip
