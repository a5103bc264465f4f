// libFuzzer target for the AMDGPU code-object reader: any bytes in as `gpuport amdgpu`, `gpuport
// run --coverage` and the runtime's hipModuleLoad read them (a clang offload bundle, a HIP
// executable's .hip_fatbin, or an AMDGPU ELF with its msgpack metadata note and kernel
// descriptors). No crash and no sanitizer report; a refusal says why; an accepted code object
// keeps every promise the emulator relies on (each kernel's code inside the loaded image and an
// executable section, kernels apart, arguments inside the kernarg segment, the metadata's wave
// size the descriptor's), and its kernels decode and prepare for the interpreter without a crash.
// The same bytes go through the host ELF's dynamic-section reader (DT_NEEDED, DT_RUNPATH).
// Seeds: tests/fuzz/make_code_object_seeds.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "emu/interpreter.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "code_object_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

const gpuport::amdgpu::Disassembler& disassembler(bool wave64) {
  static auto d32 = gpuport::amdgpu::Disassembler::create(false);
  static auto d64 = gpuport::amdgpu::Disassembler::create(true);
  auto& d = wave64 ? d64 : d32;
  if (!d) fail("no disassembler", "");
  return **d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuport::amdgpu;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (auto entries = read_offload_bundle(bytes, "fuzz")) {
    for (const auto& e : *entries)
      if (e.offset > size || e.size > size - e.offset) fail("bundle entry outside the bundle", e.triple);
  } else if (entries.diagnostics().empty()) {
    fail("refused without a reason", "read_offload_bundle");
  }
  // The dynamic section `gpuport run` reads to pick the runtime and follow a program's libraries.
  if (auto dynamic = dynamic_section(bytes, "fuzz")) {
    for (const auto& name : dynamic->needed)
      if (name.size() > size) fail("a DT_NEEDED name longer than the file", name.substr(0, 64));
  } else if (dynamic.diagnostics().empty()) {
    fail("refused without a reason", "dynamic_section");
  }
  auto co = load_code_object_from_bytes(bytes, "fuzz");
  if (!co) {
    if (co.diagnostics().empty() || co.diagnostics().front().message.empty()) fail("refused without a reason", "load_code_object");
    return 0;
  }
  for (std::size_t i = 0; i < co->kernels.size(); ++i) {
    const Kernel& k = co->kernels[i];
    if (k.code_size == 0 || k.code_address > co->memory.size() || k.code_size > co->memory.size() - k.code_address)
      fail("kernel code outside the image", k.name);
    if (i + 1 < co->kernels.size() && co->kernels[i + 1].code_address < k.code_address + k.code_size)
      fail("kernels overlap", k.name);
    for (const auto& a : k.arguments)
      if (std::uint64_t(a.offset) + a.size > k.kernarg_segment_size) fail("argument outside the kernarg segment", k.name);
    if (k.wavefront_size != (k.descriptor.wave32 ? 32u : 64u)) fail("wave size disagrees with the descriptor", k.name);
    if (k.code_size > (64u << 10)) continue;  // decoding is linear; keep executions fast
    (void)disassembler(!k.descriptor.wave32).decode(*co, k);
    (void)gpuport::emu::prepare_kernel(*co, k, disassembler(!k.descriptor.wave32));
  }
  return 0;
}
