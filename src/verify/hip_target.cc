#include "verify/hip_target.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

namespace gpuport::verify {
namespace fs = std::filesystem;

namespace {

fs::path unpacked_root(const char* variable, std::string_view folder) {
  if (const char* env = std::getenv(variable); env && *env) return env;
  return fs::path(GPUPORT_SOURCE_BUILD_DIR) / folder;
}

}  // namespace

const std::vector<std::string>& hip_versions() {
  static const std::vector<std::string> versions = {"6.4", "5.2", "5.7", "6.2"};
  return versions;
}

std::optional<HipTarget> hip_target(std::string_view version) {
  HipTarget t;
  t.version = std::string(version);
  if (version == "5.2") return t;
  if (version == "5.7") {
    // Debian 13's libamdhip64-dev 5.7 is among the packages scripts/fetch-rocm-headers unpacks.
    t.root = unpacked_root("GPUPORT_HIP57_ROOT", "rocm-headers");
    t.fetch_command = "scripts/fetch-rocm-headers";
    return t;
  }
  if (version == "6.4" || version == "6.2") {
    t.root = unpacked_root("GPUPORT_HIP64_ROOT", "rocm-6.4");
    t.fetch_command = "scripts/fetch-rocm-6.4";
    // No HIP 6.2 is packaged anywhere these machines reach: its names are a subset of 6.4's.
    if (version == "6.2") t.note = "HIP 6.2's names, built against HIP 6.4 (no HIP 6.2 is packaged)";
    return t;
  }
  return std::nullopt;
}

void refresh_system_view(const fs::path& root, const fs::path& system_dir) {
  std::error_code ec;
  const fs::path view = root / "system-include";
  const auto system_time = fs::last_write_time(system_dir, ec);
  if (ec) return;
  const auto view_time = fs::last_write_time(view, ec);
  if (ec || view_time >= system_time) return;
  for (const auto& entry : fs::directory_iterator(system_dir, ec)) {
    const auto name = entry.path().filename();
    if (name == "cuda" || name == "nv" || name == "cub" || name == "cccl") continue;
    if (fs::exists(root / "usr/include" / name, ec)) continue;
    fs::create_symlink(entry.path(), view / name, ec);  // EEXIST: already there
  }
  for (const auto& entry : fs::directory_iterator(view, ec))
    if (!fs::exists(entry.path(), ec)) fs::remove(entry.path(), ec);  // its target is gone
  fs::last_write_time(view, fs::file_time_type::clock::now(), ec);
}

std::string HipTarget::map_layer() const { return version == "5.2" ? std::string() : version; }

std::vector<std::string> HipTarget::clang_flags() const {
  if (root.empty()) return {"--rocm-path=/usr"};
  refresh_system_view(root);
  return {"@" + (root / "clang-hip.rsp").string()};
}

std::vector<std::string> HipTarget::link_flags() const {
  if (root.empty()) return {"-lamdhip64"};
  // sid's libraries need glibc 2.38: their own undefined symbols are left to run time, where
  // gpuport run starts the program with sid's loader.
  return {"-L" + library_dir().string(), "-Wl,--unresolved-symbols=ignore-in-shared-libs", "-lamdhip64"};
}

fs::path HipTarget::library_dir() const {
  return root.empty() ? fs::path("/usr/lib/x86_64-linux-gnu") : root / "usr/lib/x86_64-linux-gnu";
}

bool HipTarget::can_link(std::string_view lib) const {
  std::error_code ec;
  return lib.starts_with("-l") && fs::exists(library_dir() / fmt::format("lib{}.so", lib.substr(2)), ec);
}

std::optional<std::string> HipTarget::unavailable() const {
  if (root.empty()) {
    if (!fs::exists("/usr/include/hip/hip_runtime.h")) return "HIP headers not found (install libamdhip64-dev)";
    return std::nullopt;
  }
  std::error_code ec;
  if (!fs::exists(root / "clang-hip.rsp", ec) || !fs::exists(root / "usr/include/hip/hip_runtime.h", ec))
    return fmt::format("HIP {} not found in {} (run {})", version, root.string(), fetch_command);
  return std::nullopt;
}

std::vector<LibraryLink> library_links(std::string_view text) {
  struct Row {
    std::string_view header;
    LibraryLink link;
  };
  static const Row kRows[] = {
      {"cublas_v2.h", {"hipBLAS", "-lcublas", "-lhipblas"}},   {"cublas.h", {"hipBLAS", "-lcublas", "-lhipblas"}},
      {"cusparse.h", {"hipSPARSE", "-lcusparse", "-lhipsparse"}}, {"cusparse_v2.h", {"hipSPARSE", "-lcusparse", "-lhipsparse"}},
      {"curand.h", {"hipRAND", "-lcurand", "-lhiprand"}},       {"cufft.h", {"hipFFT", "-lcufft", "-lhipfft"}},
      {"cufftXt.h", {"hipFFT", "-lcufft", "-lhipfft"}},        {"cusolverDn.h", {"hipSOLVER", "-lcusolver", "-lhipsolver"}},
  };
  std::vector<LibraryLink> out;
  for (const auto& row : kRows) {
    bool named = false;
    for (const char open : {'<', '"'}) {
      const std::string include = std::string(1, open) + std::string(row.header) + (open == '<' ? ">" : "\"");
      for (std::size_t at = text.find(include); at != std::string_view::npos && !named; at = text.find(include, at + 1)) {
        // `#include` and the name on one line, nothing but spaces between
        std::size_t line = text.rfind('\n', at);
        line = line == std::string_view::npos ? 0 : line + 1;
        std::string_view head = text.substr(line, at - line);
        while (!head.empty() && (head.back() == ' ' || head.back() == '\t')) head.remove_suffix(1);
        while (!head.empty() && (head.front() == ' ' || head.front() == '\t')) head.remove_prefix(1);
        if (head.starts_with("#") && head.ends_with("include")) named = true;
      }
    }
    if (named && std::none_of(out.begin(), out.end(), [&](const LibraryLink& l) { return l.label == row.link.label; }))
      out.push_back(row.link);
  }
  return out;
}

}  // namespace gpuport::verify
