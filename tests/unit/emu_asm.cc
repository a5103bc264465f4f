#include "emu_asm.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "common/process.h"

namespace gpuport::emu::testing {
namespace fs = std::filesystem;

std::string asm_source(const AsmKernel& k) {
  const unsigned wave = k.wave64 ? 64 : 32;
  std::string s;
  s += ".amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n.text\n.globl k\n.p2align 8\n.type k,@function\nk:\n";
  if (k.prologue)
    s += "  s_load_b128 s[4:7], s[0:1], 0x0\n"
         "  s_load_b64 s[8:9], s[0:1], 0x10\n"
         "  s_load_b32 s10, s[0:1], 0x18\n"
         "  v_lshlrev_b32 v1, 2, v0\n"
         "  s_waitcnt lgkmcnt(0)\n";
  s += k.body;
  if (!k.body.empty() && k.body.back() != '\n') s += '\n';
  s += "  s_endpgm\n.Lk_end:\n.size k, .Lk_end-k\n\n.rodata\n.p2align 6\n.amdhsa_kernel k\n";
  s += "  .amdhsa_user_sgpr_kernarg_segment_ptr 1\n";
  s += fmt::format("  .amdhsa_next_free_vgpr {}\n  .amdhsa_next_free_sgpr 100\n", k.vgprs);
  s += fmt::format("  .amdhsa_wavefront_size32 {}\n", k.wave64 ? 0 : 1);
  s += "  .amdhsa_kernarg_size 32\n";
  s += fmt::format("  .amdhsa_group_segment_fixed_size {}\n", k.lds_bytes);
  s += fmt::format("  .amdhsa_private_segment_fixed_size {}\n", k.scratch_bytes);
  if (k.scratch_bytes) s += "  .amdhsa_enable_private_segment 1\n";
  s += fmt::format("  .amdhsa_float_denorm_mode_32 {}\n  .amdhsa_float_denorm_mode_16_64 {}\n", k.float_denorm_32, k.float_denorm_16_64);
  s += fmt::format("  .amdhsa_ieee_mode {}\n  .amdhsa_dx10_clamp {}\n", k.ieee_mode ? 1 : 0, k.dx10_clamp ? 1 : 0);
  s += ".end_amdhsa_kernel\n\n.amdgpu_metadata\n---\namdhsa.version: [1, 2]\namdhsa.target: amdgcn-amd-amdhsa--gfx1100\namdhsa.kernels:\n";
  s += "  - .name: k\n    .symbol: k.kd\n    .kernarg_segment_size: 32\n    .kernarg_segment_align: 8\n";
  s += fmt::format("    .group_segment_fixed_size: {}\n    .private_segment_fixed_size: {}\n", k.lds_bytes, k.scratch_bytes);
  s += fmt::format("    .wavefront_size: {}\n    .sgpr_count: 100\n    .vgpr_count: {}\n    .max_flat_workgroup_size: 1024\n", wave,
                   k.vgprs);
  s += "    .args:\n"
       "      - { .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global }\n"
       "      - { .offset: 8, .size: 8, .value_kind: global_buffer, .address_space: global }\n"
       "      - { .offset: 16, .size: 8, .value_kind: global_buffer, .address_space: global }\n"
       "      - { .offset: 24, .size: 4, .value_kind: by_value }\n";
  s += "...\n.end_amdgpu_metadata\n";
  return s;
}

AsmRun run_asm(const AsmKernel& kernel, const AsmLaunch& launch) {
  AsmRun run;
  const fs::path mc = find_program("llvm-mc-19"), lld = find_program("ld.lld-19");
  if (mc.empty() || lld.empty()) {
    run.skip_reason = "needs llvm-mc-19 (llvm-19) and ld.lld-19 (lld-19)";
    return run;
  }
  static std::atomic<int> counter{0};
  const fs::path base = fs::temp_directory_path() / fmt::format("gpuport-emu-asm-{}-{}", ::getpid(), counter++);
  const fs::path source = base.string() + ".s", object = base.string() + ".o", code = base.string() + ".hsaco";
  struct Cleanup {
    std::vector<fs::path> paths;
    ~Cleanup() {
      std::error_code ec;
      for (const auto& p : paths) fs::remove(p, ec);
    }
  } cleanup{{source, object, code}};
  {
    FILE* f = std::fopen(source.c_str(), "w");
    if (!f) {
      run.error = "cannot write " + source.string();
      return run;
    }
    const std::string text = asm_source(kernel);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  auto a = run_process({mc.string(), "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx1100", kernel.wave64 ? "-mattr=+wavefrontsize64" : "-mattr=+wavefrontsize32",
                        "-filetype=obj", source.string(), "-o", object.string()});
  if (!a.succeeded()) {
    run.error = "llvm-mc-19: " + a.err;
    return run;
  }
  auto l = run_process({lld.string(), "-shared", object.string(), "-o", code.string()});
  if (!l.succeeded()) {
    run.error = "ld.lld-19: " + l.err;
    return run;
  }
  auto co = amdgpu::load_code_object(code.string());
  if (!co) {
    run.error = co.diagnostics()[0].message;
    return run;
  }
  auto d = amdgpu::Disassembler::create(kernel.wave64);
  if (!d) {
    run.error = d.diagnostics()[0].message;
    return run;
  }
  const amdgpu::Kernel* k = co->find_kernel("k");
  if (!k) {
    run.error = "the code object has no kernel k";
    return run;
  }
  auto prepared = prepare_kernel(*co, *k, **d);
  if (!prepared) {
    for (const auto& e : prepared.diagnostics()) run.error += e.message + "\n";
    return run;
  }
  // The kernel runs on each tier with the same buffers; what the JIT computes must be what the
  // interpreter computes, bit for bit (memory, the error or fault, the counts).
  AsmRun tiers[3];
  std::string normalised_errors[3];
  const int runs = launch.jit_hot ? 3 : 2;
  jit_set_compile_helper(launch.compile_helper ? GPUPORT_BINARY_DIR "/bin/gpuport" : "");
  for (int t = 0; t < runs; ++t) {
    AsmRun& r = tiers[t];
    if (t == 2 && launch.compile_helper)  // the helper's code linked before the run that starts compiled
      for (int tries = 0; tries < 6000 && !(*prepared)->jit_entry.load(); ++tries) {
        bool waiting = true;
        if (JitEntry e = jit_compile_hot(**prepared, &(*prepared)->jit_error, waiting)) (*prepared)->jit_entry.store(e);
        else if (!waiting) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    AddressSpace memory;
    memory.add(reinterpret_cast<std::uint64_t>(co->memory.data()), co->memory.size(), AddressSpace::Kind::code_object, "code object");
    std::vector<std::uint32_t> in = launch.in, aux = launch.aux;
    if (in.empty()) in.push_back(0);
    if (aux.empty()) aux.push_back(0);
    std::vector<std::uint32_t> out = launch.out_init;
    out.resize(std::max<std::size_t>(launch.out_words, std::max<std::size_t>(out.size(), 1)), 0);
    // The three buffers in one block, each at a 256-byte boundary with 256 bytes between them,
    // so that the runs of both tiers see addresses alike in their low bits (image and buffer
    // descriptors built from them) and faults name the same nearest buffer at the same distance.
    auto words = [](std::size_t n) { return (n + 63) / 64 * 64 + 64; };
    std::vector<std::uint32_t> storage(words(in.size()) + words(out.size()) + words(aux.size()) + 64, 0);
    auto* first = reinterpret_cast<std::uint32_t*>((reinterpret_cast<std::uintptr_t>(storage.data()) + 255) & ~std::uintptr_t(255));
    std::uint32_t* in_p = first;
    std::uint32_t* out_p = in_p + words(in.size());
    std::uint32_t* aux_p = out_p + words(out.size());
    std::copy(in.begin(), in.end(), in_p);
    std::copy(out.begin(), out.end(), out_p);
    std::copy(aux.begin(), aux.end(), aux_p);
    memory.add(reinterpret_cast<std::uint64_t>(in_p), in.size() * 4, AddressSpace::Kind::device, "in");
    memory.add(reinterpret_cast<std::uint64_t>(out_p), out.size() * 4, AddressSpace::Kind::device, "out");
    memory.add(reinterpret_cast<std::uint64_t>(aux_p), aux.size() * 4, AddressSpace::Kind::device, "aux");
    Launch L;
    L.grid = {launch.groups, 1, 1};
    L.block = {launch.threads, 1, 1};
    L.jobs = launch.jobs;
    L.timeout_seconds = 20;
    L.jit = t == 0 ? JitMode::never : launch.jit_hot ? JitMode::hot : JitMode::always;
    L.jit_hot = launch.jit_hot;
    L.max_instructions = launch.max_instructions;
    L.kernarg.assign(32, 0);
    const std::uint64_t pointers[3] = {reinterpret_cast<std::uint64_t>(in_p), reinterpret_cast<std::uint64_t>(out_p),
                                       reinterpret_cast<std::uint64_t>(aux_p)};
    std::memcpy(L.kernarg.data(), pointers, sizeof(pointers));
    std::memcpy(L.kernarg.data() + 24, &launch.n, 4);
    auto result = run_kernel(**prepared, std::move(L), memory, reinterpret_cast<std::uint64_t>(co->memory.data()));
    if (!result) {
      // The buffers' addresses differ between the runs: faults are compared without them.
      for (const auto& e : result.diagnostics()) {
        r.error += e.message + "\n";
        normalised_errors[t] += std::regex_replace(e.message, std::regex("0x[0-9a-f]{6,}"), "0x...") + "\n";
      }
    } else {
      r.stats = *result;
    }
    std::copy(out_p, out_p + out.size(), out.begin());
    std::copy(aux_p, aux_p + aux.size(), aux.begin());
    r.out = std::move(out);
    r.aux = std::move(aux);
  }
  jit_set_compile_helper("");
  AsmRun& run_interpreted = tiers[0];
  std::string differences;
  std::size_t listed = 0;
  if (!(*prepared)->jit_error.empty()) differences += "the kernel was not compiled: " + (*prepared)->jit_error + "\n";
  else if (!(*prepared)->jit_entry.load()) differences += "the kernel was not compiled\n";
  for (int t = 1; t < runs; ++t) {
    const AsmRun& jit = tiers[t];
    if (normalised_errors[t] != normalised_errors[0]) differences += "error: interpreter '" + run_interpreted.error + "', JIT '" + jit.error + "'\n";
    for (std::size_t i = 0; i < jit.out.size(); ++i)
      if (jit.out[i] != run_interpreted.out[i] && ++listed <= 8)
        differences += fmt::format("out[{}]: interpreter {:#x}, JIT {:#x}\n", i, run_interpreted.out[i], jit.out[i]);
    for (std::size_t i = 0; i < jit.aux.size(); ++i)
      if (jit.aux[i] != run_interpreted.aux[i] && ++listed <= 8)
        differences += fmt::format("aux[{}]: interpreter {:#x}, JIT {:#x}\n", i, run_interpreted.aux[i], jit.aux[i]);
    if (jit.stats.instructions != run_interpreted.stats.instructions || jit.stats.lane_instructions != run_interpreted.stats.lane_instructions)
      differences += fmt::format("counts: interpreter {} / {}, JIT {} / {}\n", run_interpreted.stats.instructions,
                                 run_interpreted.stats.lane_instructions, jit.stats.instructions, jit.stats.lane_instructions);
  }
  run = std::move(run_interpreted);
  run.jit_stats = tiers[1].stats;
  if (!differences.empty()) run.error += "the JIT tier differs from the interpreter:\n" + differences;
  return run;
}

}  // namespace gpuport::emu::testing
