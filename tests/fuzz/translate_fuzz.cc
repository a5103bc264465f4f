// libFuzzer target for the source lexer and the CUDA -> HIP rewriter, with the real mapping
// tables. Any bytes in: no crash and no sanitizer report, and on every input the translator
// accepts
//   - the lexer is lossless: its tokens give back the input byte for byte;
//   - the translation is accepted again and is a fixed point: translating it changes nothing
//     (so `--in-place` run twice, or a translated tree translated again, is a no-op);
//   - comments survive: every comment of the input appears in the output;
//   - the #include scan (lex::header_names) finds exactly the lexer's header names.
// The first byte picks the options (--fix-warp-size, --launch ggl, --no-runtime-include).
// Built with -DGPUPORT_FUZZ=ON and clang (tests/fuzz/CMakeLists.txt); seed corpus: the golden
// test inputs and the benchmark corpus.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lex/lexer.h"
#include "maps/api_map.h"
#include "source/translator.h"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input, std::string_view detail) {
  std::fprintf(stderr, "translate_fuzz: %s\n--- input (%zu bytes) ---\n%.*s\n--- detail ---\n%.*s\n", what,
               input.size(), static_cast<int>(input.size()), input.data(), static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

const gpuport::maps::ApiMap& map() {
  static auto loaded = gpuport::maps::ApiMap::load_embedded();
  if (!loaded) std::abort();
  return loaded.value();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  gpuport::source::TranslateOptions options;
  options.fix_warp_size = (data[0] & 1) != 0;
  options.launch_style = (data[0] & 2) != 0 ? gpuport::source::LaunchStyle::hip_launch_kernel_ggl
                                            : gpuport::source::LaunchStyle::keep;
  options.add_runtime_include = (data[0] & 4) == 0;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);

  const auto tokens = gpuport::lex::lex(input);
  if (tokens.reassemble() != input) fail("the lexer lost bytes", input, tokens.reassemble());
  {
    // The #include scan (headers only) agrees with the full lexer.
    const auto headers = gpuport::lex::header_names(input);
    std::size_t k = 0;
    for (const auto& t : tokens.tokens()) {
      if (t.kind != gpuport::lex::TokenKind::header_name) continue;
      if (k >= headers.size() || headers[k].offset != t.offset || headers[k].length != t.length)
        fail("header_names() disagrees with lex()", input, tokens.text_of(t));
      ++k;
    }
    if (k != headers.size()) fail("header_names() found a header lex() did not", input, {});
  }

  auto once = gpuport::source::translate_text("fuzz.cu", input, map(), options);
  if (!once.ok) return 0;
  for (const auto& t : tokens.tokens()) {
    if (t.kind != gpuport::lex::TokenKind::line_comment && t.kind != gpuport::lex::TokenKind::block_comment) continue;
    if (once.output.find(tokens.text_of(t)) == std::string::npos) fail("a comment was lost", input, once.output);
  }
  auto twice = gpuport::source::translate_text("fuzz.cu", once.output, map(), options);
  if (!twice.ok) fail("the translation is not accepted as input", input, once.output);
  if (twice.output != once.output) fail("the translation is not a fixed point", once.output, twice.output);
  return 0;
}
