// libFuzzer target for `gpuport asm`'s front end on text: any bytes in as cuobjdump -sass or
// nvdisasm text (CASS-style input without its cubin), parsed and lifted to LLVM IR for gfx1100.
// No crash, no sanitizer report, no LLVM assertion; all or nothing per output: an output is
// produced only when every kernel of it was translated, and a kernel refused says why.
// Seeds: the cuobjdump and nvdisasm listings under tests/sass and tests/golden/asm/Inputs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lift/asm_translate.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "asm_text_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (256u << 10)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.starts_with("\x7f" "ELF")) return 0;  // cubins are the SASS fuzz target's
  gpuport::lift::AsmOptions options;
  options.want_ir = true;
  options.want_code_object = false;
  options.want_bundle = false;
  options.optimize = false;
  const auto result = gpuport::lift::translate_machine_code("fuzz.sass", text, options);
  for (const auto& out : result.outputs) {
    bool all = !out.kernels.empty();
    for (const auto& k : out.kernels) {
      if (!k.ok && k.findings.empty()) fail("kernel refused without a reason", k.name);
      all = all && k.ok;
    }
    if (out.ok && !all) fail("an output with a refused kernel", out.name);
    if (out.ok && out.ir.find("define") == std::string::npos) fail("an output without a kernel definition", out.name);
  }
  return 0;
}
