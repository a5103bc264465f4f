// Parser throughput: parses every committed listing (or the files/folders given) N times on one
// thread and prints instructions per second. Issue 4's goal is at least 2 million per second.
//
//   gpuport-sass-bench [--repeat N] [PATH...]     (default: tests/sass/listings, N = 20)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "sass/parser.h"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  int repeat = 20;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else inputs.emplace_back(a);
  }
  if (inputs.empty()) inputs.emplace_back(fs::path(GPUPORT_SOURCE_DIR) / "tests" / "sass" / "listings");
  std::vector<fs::path> files;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(in))
        if (e.is_regular_file() && e.path().extension() == ".sass") files.push_back(e.path());
    } else {
      files.push_back(in);
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> texts;
  std::size_t bytes = 0;
  for (const auto& f : files) {
    auto r = gpuport::read_file(f, 1ull << 30);
    if (!r) {
      std::fprintf(stderr, "gpuport-sass-bench: cannot read %s\n", f.string().c_str());
      return 2;
    }
    bytes += r->size();
    texts.push_back(std::move(*r));
  }
  if (texts.empty()) {
    std::fprintf(stderr, "gpuport-sass-bench: no .sass listings found\n");
    return 2;
  }
  std::size_t instructions = 0, diagnostics = 0;
  for (const auto& t : texts) {  // warm-up pass, also counts
    auto r = gpuport::sass::parse_sass(t);
    for (const auto& p : r.programs) instructions += p.instruction_count();
    diagnostics += r.diagnostics.size();
  }
  auto start = std::chrono::steady_clock::now();
  std::size_t sink = 0;
  for (int i = 0; i < repeat; ++i)
    for (const auto& t : texts) sink += gpuport::sass::parse_sass(t).programs.size();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double per_second = static_cast<double>(instructions) * repeat / seconds;
  std::printf("files %zu, %.1f MB, %zu instructions, %zu diagnostics, %d repeats, %.3f s\n", texts.size(),
              bytes / 1e6, instructions, diagnostics, repeat, seconds);
  std::printf("%.2f million instructions/s, %.1f MB/s (single thread)%s\n", per_second / 1e6,
              static_cast<double>(bytes) * repeat / seconds / 1e6, sink == 0 ? " (no programs)" : "");
  return 0;
}
