// The HIP a translation targets: which names it may use (the table layers up to its version,
// data/maps/hip-<version>/) and the compiler set that builds and links it for gfx1100.
//   5.2  Debian 12's HIP, installed in /usr (clang --rocm-path=/usr)
//   5.7  Debian 13's HIP, unpacked by scripts/fetch-rocm-headers into build/rocm-headers
//   6.4  Debian sid's HIP, unpacked by scripts/fetch-rocm-6.4 into build/rocm-6.4 (the default)
// An unpacked HIP is compiled with its clang-hip.rsp (scripts/make-hip64-includes), an include
// list that holds that HIP alone: /usr/include has Debian 12's HIP 5.2, which must not be found
// beside it. Programs link against the unpacked libamdhip64 and its libraries' stubs; they run on
// gpuport's emulator runtime for that ABI (libamdhip64.so.5 or .so.6).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport::verify {

struct HipTarget {
  std::string version;          // "5.2", "5.7", "6.2", "6.4"
  std::filesystem::path root;   // empty: the system's HIP (/usr); else an unpacked tree with clang-hip.rsp
  std::string fetch_command;    // what unpacks `root` (empty for the system's HIP)
  std::string note;             // how this version is built here, when it is not built as itself

  // The table layer to load (maps::LoadOptions::hip_version): "" for 5.2, the default tables.
  std::string map_layer() const;
  // The clang flags (after `-x hip`) that select this HIP's headers and ROCm path.
  std::vector<std::string> clang_flags() const;
  // The flags that link a program against this HIP's libamdhip64 (and, for an unpacked HIP,
  // its libraries in the same folder).
  std::vector<std::string> link_flags() const;
  // Folder holding library headers Debian 12 lacks, for the system's HIP only (build/rocm-headers).
  bool uses_library_headers() const { return root.empty(); }
  // HIP 6's hip_runtime.h stops a wave64 device compile for gfx10 and gfx11 (#error); 5.x's builds it.
  bool wave64_on_gfx11() const { return version.starts_with("5."); }
  // Whether a program can link `lib` ("-lhipblas") against this HIP: the library is in its
  // library folder (Debian 12 packages hipRAND and hipSPARSE 5.3 for HIP 5.2, sid all of them
  // for 6.4; the Debian 13 tree holds headers only).
  bool can_link(std::string_view lib) const;
  // The folder this HIP's libraries are in (the system's, or the unpacked tree's).
  std::filesystem::path library_dir() const;
  // Why this HIP cannot be compiled against here; std::nullopt when it can.
  std::optional<std::string> unavailable() const;
};

// A CUDA library a program uses and its HIP counterpart: what each side links.
struct LibraryLink {
  std::string label;      // "hipBLAS"
  std::string cuda_lib;   // "-lcublas"
  std::string hip_lib;    // "-lhipblas"
};
// The libraries a CUDA source's #includes name (cublas_v2.h, cusparse.h, curand.h, cufft.h,
// cusolverDn.h); header-only ones (CUB, Thrust, curand_kernel.h) need no link.
std::vector<LibraryLink> library_links(std::string_view cuda_source);

// clang-hip.rsp searches ROOT/system-include, a view of /usr/include (one link per entry)
// without what HIP brings its own of and without NVIDIA's libcu++ and CUB;
// scripts/make-hip64-includes writes it when the tree is unpacked, and this keeps it current by
// the same rule (clang_flags() calls it): a package installed since (a project's Boost or glog)
// gets its link, an entry removed loses its own. Each link is made or removed on its own (atomic
// steps), so compiles running side by side may all do it; nothing happens while `system_dir` is
// older than the view.
void refresh_system_view(const std::filesystem::path& root, const std::filesystem::path& system_dir = "/usr/include");

// The versions `--hip-version` accepts, the default first.
const std::vector<std::string>& hip_versions();
inline constexpr std::string_view kDefaultHipVersion = "6.4";

// The target for `version`; std::nullopt for a version gpuport does not know. Unpacked roots are
// found through $GPUPORT_HIP64_ROOT / $GPUPORT_HIP57_ROOT, else the source tree's build/ folder.
std::optional<HipTarget> hip_target(std::string_view version);

}  // namespace gpuport::verify
