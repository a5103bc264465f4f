// The CUDA toolkit folder of `gpuport nvcc` (see cuda_toolkit.h): generated from the translation
// tables of one HIP version, so that host code compiled outside nvcc sees the same names the
// translator writes.
#include "verify/cuda_toolkit.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "common/file_io.h"
#include "common/process.h"
#include "source/compat.h"
#include "verify/nvcc_driver.h"

namespace gpuport::verify {
namespace fs = std::filesystem;

namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

Diagnostic folder_error(const fs::path& path, const std::string& message) {
  Diagnostic d;
  d.code = "io-error";
  d.message = message;
  d.location.file = path.string();
  return d;
}

// The folder holding HIP's headers (hip/, hipblas/, thrust/, ...) for an unpacked HIP; the
// system's HIP is on the host compiler's default path already.
fs::path hip_include_dir(const HipTarget& hip) { return hip.root.empty() ? fs::path() : hip.root / "usr" / "include"; }

// The include guards of CUDA's headers (as CUDA 12 and 13 spell them), defined by the headers
// here as by CUDA's own: code tests them (`#ifndef __DRIVER_TYPES_H__` before declaring
// cudaStream_t itself, as GPUJPEG's public header does). A header also defines the guards of
// the headers CUDA's includes.
std::string cuda_guards(std::string_view header) {
  static const std::map<std::string_view, std::vector<std::string_view>> kGuards = {
      {"cuda_runtime.h", {"__CUDA_RUNTIME_H__", "__CUDA_RUNTIME_API_H__", "__DRIVER_TYPES_H__", "__VECTOR_TYPES_H__"}},
      {"cuda_runtime_api.h", {"__CUDA_RUNTIME_API_H__", "__DRIVER_TYPES_H__", "__VECTOR_TYPES_H__"}},
      {"builtin_types.h", {"__DRIVER_TYPES_H__", "__VECTOR_TYPES_H__"}},
      {"driver_types.h", {"__DRIVER_TYPES_H__"}},
      {"vector_types.h", {"__VECTOR_TYPES_H__"}},
      {"cuda.h", {"__cuda_cuda_h__"}},
  };
  std::string out;
  if (const auto it = kGuards.find(header); it != kGuards.end())
    for (auto g : it->second) out += fmt::format("#ifndef {0}\n#define {0}\n#endif\n", g);
  return out;
}

// The function a translation calls for this row: a shim's where the row's HIP function would
// not keep CUDA's meaning (hipGetDeviceProperties' compute capability).
std::string_view shim_call(const maps::ApiEntry& e) {
  const auto shim = e.kind == maps::Kind::function ? source::shim_name_for(e.hip) : std::string_view();
  return shim.empty() ? std::string_view(e.hip) : shim;
}

// The shims a translation writes into a file that includes `header` (NVTX's), or that calls a
// function of the header's family whose HIP counterpart is a shim's (cublasSetMathMode is
// gpuport_hipblasSetMathMode, which gpuport/cuda_names.h names), for host code that includes it
// without being translated.
std::string shims_for(const maps::ApiMap& map, std::string_view header) {
  // The family the tables give the functions the header declares.
  std::string_view family;
  for (std::string_view library : {"cublas", "curand", "cufft", "cusparse", "cusolver"})
    if (header.starts_with(library)) family = library;
  if (header.starts_with("cuda_runtime")) family = "runtime";
  const std::uint32_t header_bits = source::shim_for_header(header);
  std::uint32_t call_bits = 0;
  for (const auto& e : map.entries())
    if (!family.empty() && e.kind == maps::Kind::function && e.family == family && e.status != maps::Status::unsupported &&
        shim_call(e).starts_with("gpuport_"))
      call_bits |= source::shim_for_call(shim_call(e));
  call_bits &= ~header_bits;
  std::string out, calls;
  const auto all = source::shims();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (header_bits & (1u << i)) out += std::string(all[i].text);
    if (call_bits & (1u << i)) calls += std::string(all[i].text);
  }
  // The functions' shims are written for translated sources, which are C++ (a C file that calls
  // them through the toolkit's names does not compile).
  if (!calls.empty()) out += "#if defined(__cplusplus)\n" + calls + "#endif\n";
  return out;
}

// The arguments a1..an of a call with n arguments as one of the translator's call rules leaves
// them, and the function it calls; std::nullopt when the rules say there is no HIP form.
std::optional<std::string> rewritten_call(const maps::ApiEntry& e, std::span<const maps::CallRule> rules, int n) {
  std::string callee = e.hip;
  std::vector<std::string> args;
  for (int i = 1; i <= n; ++i) args.push_back(fmt::format("a{}", i));
  std::vector<bool> dropped(args.size(), false);
  for (const auto& r : rules) {
    if (r.argc != -1 && r.argc != n) continue;
    const bool in_range = r.index >= 0 && r.index < n;
    switch (r.action) {
      case maps::CallAction::unsupported: return std::nullopt;
      case maps::CallAction::rename: callee = r.value; break;
      case maps::CallAction::append: args.push_back(r.value); dropped.push_back(false); break;
      case maps::CallAction::drop: if (in_range) dropped[static_cast<std::size_t>(r.index)] = true; break;
      case maps::CallAction::wrap:
        if (in_range) args[static_cast<std::size_t>(r.index)] = fmt::format("{}({})", r.value, args[static_cast<std::size_t>(r.index)]);
        break;
      default: break;  // type-dependent reports and the reversed tables' rules: nothing to rewrite
    }
  }
  std::string call = callee + "(";
  bool first = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (dropped[i]) continue;
    call += (first ? "" : ", ") + args[i];
    first = false;
  }
  return call + ")";
}

// A tag of HIP's opaque handles (struct ihipStream_t), which C code sees by CUDA's tag.
bool reversed_in_c(const maps::ApiEntry& e) {
  return e.kind == maps::Kind::tag && e.status != maps::Status::unsupported && e.hip.starts_with("ihip") && is_identifier(e.cuda);
}

}  // namespace

std::string cuda_tags_header(const maps::ApiMap& map) {
  std::set<std::string> lines;  // sorted: the file does not change with the tables' order
  for (const auto& e : map.entries())
    if (reversed_in_c(e) && is_identifier(e.hip)) lines.insert(fmt::format("#define {} {}\n", e.hip, e.cuda));
  std::string out =
      "/* Written by gpuport nvcc --toolkit: in C, HIP's handle structs by CUDA's tags, so that a header\n"
      "   that declared struct CUstream_st before the runtime agrees with it (C links no name by its tag). */\n"
      "#pragma once\n"
      "#if !defined(__cplusplus)\n";
  for (const auto& l : lines) out += l;
  return out + "#endif\n";
}

std::string cuda_names_header(const maps::ApiMap& map) {
  std::set<std::string> lines;  // sorted: the file does not change with the tables' order
  std::set<std::string> dispatched;
  constexpr int kMaxArguments = 20;  // cuBLAS calls take up to 19
  for (const auto& e : map.entries()) {
    if (e.status == maps::Status::unsupported) continue;
    if (e.kind != maps::Kind::function && e.kind != maps::Kind::type && e.kind != maps::Kind::constant &&
        e.kind != maps::Kind::tag)
      continue;
    if (!is_identifier(e.cuda) || !is_identifier(e.hip)) continue;
    if (reversed_in_c(e)) {  // C: cuda_tags.h names HIP's tag as CUDA's
      lines.insert(fmt::format("#if defined(__cplusplus)\n#define {} {}\n#endif\n", e.cuda, e.hip));
      continue;
    }
    const auto rules = map.call_rules(e.cuda);
    if (rules.empty() || e.kind != maps::Kind::function) {
      // A shim's function is in the C++ headers only (shims_for): C calls HIP's.
      if (const auto shim = shim_call(e); shim != e.hip)
        lines.insert(fmt::format("#if defined(__cplusplus)\n#define {0} {1}\n#else\n#define {0} {2}\n#endif\n", e.cuda, shim, e.hip));
      else if (e.cuda != e.hip)
        lines.insert(fmt::format("#define {} {}\n", e.cuda, e.hip));
      continue;
    }
    // A call the translator rewrites by its number of arguments: the macro counts them and
    // expands to the rewritten call (an argument count with no HIP form expands to a name that
    // says so, which does not compile).
    std::string block = fmt::format("#define {0}(...) GPUPORT_CALL(gpuport_{0}_, __VA_ARGS__)\n", e.cuda);
    for (int n = 1; n <= kMaxArguments; ++n) {
      std::string params;
      for (int i = 1; i <= n; ++i) params += fmt::format("{}a{}", i > 1 ? ", " : "", i);
      const auto call = rewritten_call(e, rules, n);
      block += fmt::format("#define gpuport_{}_{}({}) {}\n", e.cuda, n, params,
                           call ? *call : fmt::format("GPUPORT_NO_HIP_FORM_OF_{}_WITH_{}_ARGUMENTS", e.cuda, n));
    }
    dispatched.insert(block);
  }
  std::string out =
      "/* Written by gpuport nvcc --toolkit from gpuport's translation tables: CUDA's names as HIP's,\n"
      "   for host code compiled without nvcc; calls the translator rewrites by their arguments are\n"
      "   rewritten the same way here. */\n"
      "#pragma once\n";
  for (const auto& l : lines) out += l;
  if (!dispatched.empty()) {
    std::string counts, places;
    for (int i = kMaxArguments; i >= 0; --i) counts += fmt::format(", {}", i);
    for (int i = 1; i <= kMaxArguments; ++i) places += fmt::format("_{}, ", i);
    out += fmt::format("#define GPUPORT_ARGC(...) GPUPORT_ARGC_(__VA_ARGS__{})\n", counts);
    out += fmt::format("#define GPUPORT_ARGC_({}N, ...) N\n", places);
    out +=
        "#define GPUPORT_CAT(a, b) GPUPORT_CAT_(a, b)\n"
        "#define GPUPORT_CAT_(a, b) a##b\n"
        "#define GPUPORT_CALL(name, ...) GPUPORT_CAT(name, GPUPORT_ARGC(__VA_ARGS__))(__VA_ARGS__)\n";
    for (const auto& d : dispatched) out += d;
  }
  return out;
}

std::vector<std::string> toolkit_run_link_flags(const HipTarget& hip, const fs::path& runtime_dir, const fs::path& rocm_library_dir) {
  const fs::path libs = rocm_library_dir / "usr" / "lib" / "x86_64-linux-gnu";
  std::error_code ec;
  if (hip.root.empty() || rocm_library_dir.empty() || !fs::exists(libs / "ld-linux-x86-64.so.2", ec)) return {};
  // --no-as-needed: a library linked for what it loads is kept (the toolkit's libcublas links
  // rocBLAS beside hipBLAS, and hipBLAS's own RUNPATH would not find it).
  return {"-Wl,--dynamic-linker=" + (libs / "ld-linux-x86-64.so.2").string(), "-Wl,--disable-new-dtags", "-Wl,--no-as-needed",
          fmt::format("-Wl,-rpath,{}:{}", fs::absolute(runtime_dir, ec).string(), libs.string()),
          "-Wl,--unresolved-symbols=ignore-in-shared-libs"};
}

std::vector<std::string> toolkit_base_link_flags(const fs::path& runtime_dir) {
  std::error_code ec;
  return {"-Wl,--disable-new-dtags", "-Wl,-rpath," + fs::absolute(runtime_dir, ec).string()};
}

bool link_needs_rocm_libraries(const std::vector<std::string>& args, const std::vector<fs::path>& rocm_folders) {
  if (rocm_folders.empty()) return false;
  std::set<std::string, std::less<>> hip_libraries;
  for (const auto& [cuda, hip] : cuda_libraries()) hip_libraries.insert(hip.begin(), hip.end());
  std::vector<fs::path> dirs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-L" && i + 1 < args.size()) dirs.emplace_back(args[i + 1]);
    else if (args[i].starts_with("-L") && args[i].size() > 2) dirs.emplace_back(args[i].substr(2));
  }
  if (const char* library_path = std::getenv("LIBRARY_PATH"))
    for (std::string_view rest = library_path; !rest.empty();) {
      const auto colon = rest.find(':');
      if (colon != 0) dirs.emplace_back(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
  std::error_code ec;
  auto refers_to_sid = [&](const fs::path& file) {
    if (!fs::is_regular_file(file, ec)) return false;
    const auto bytes = read_file(file, 1ull << 31);
    return bytes && std::any_of(rocm_folders.begin(), rocm_folders.end(), [&](const fs::path& folder) {
             return !folder.empty() && bytes->find(folder.string()) != std::string::npos;
           });
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string name;
    if (a == "-l" && i + 1 < args.size()) name = args[++i];
    else if (a.starts_with("-l") && a.size() > 2) name = a.substr(2);
    if (!name.empty()) {
      if (hip_libraries.count(name)) return true;
      // The library the linker takes: the first folder's that holds one (only it is read).
      for (const auto& d : dirs)
        if (const fs::path file = d / ("lib" + name + ".so"); fs::exists(file, ec)) {
          if (refers_to_sid(file)) return true;
          break;
        }
      continue;
    }
    if (!a.starts_with("-") && a.find(".so") != std::string::npos && refers_to_sid(a)) return true;
  }
  return false;
}

std::vector<std::string> as_ld_options(const std::vector<std::string>& compiler_flags) {
  std::vector<std::string> out;
  for (const auto& f : compiler_flags) {
    if (!f.starts_with("-Wl,")) continue;
    const std::string option = f.substr(4);
    if (option.starts_with("-rpath,")) {
      out.push_back("-rpath");
      out.push_back(option.substr(7));
    } else {
      out.push_back(option);
    }
  }
  return out;
}

namespace {

// bin/gpuportenv: what SCALE's scaleenv is to SCALE's folder.
std::string environment_script(const CudaToolkitFolder& folder) {
  std::error_code ec;
  const fs::path dir = fs::absolute(folder.dir, ec);
  const auto q = [](const fs::path& p) { return shell_quote(p.string()); };
  std::string out = fmt::format(
      "# Written by gpuport nvcc --toolkit: `. {0}/bin/gpuportenv` points builds at this CUDA toolkit\n"
      "# folder (HIP {1}, AMD gfx1100); the programs they link run on gpuport's emulator when started.\n"
      "export CUDA_HOME={2} CUDA_PATH={2} CUDA_ROOT={2} CUDA_DIR={2}\n"
      "export CUDA_BIN_PATH={3} CUDA_INC_DIR={4}\n"
      "export CUDACXX={5} CUDA_CXX={5} CUCC={5}\n"
      "export PATH={3}\"${{PATH:+:$PATH}}\"\n"
      "export LD_LIBRARY_PATH={6}:{7}\"${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}\"\n"
      "export LIBRARY_PATH={7}\"${{LIBRARY_PATH:+:$LIBRARY_PATH}}\"\n"
      "export CPATH={4}\"${{CPATH:+:$CPATH}}\"\n",
      dir.string(), folder.hip.version, q(dir), q(dir / "bin"), q(dir / "include"), q(dir / "bin" / "nvcc"),
      q(fs::absolute(folder.hip_library, ec).parent_path()), q(dir / "lib64"));
  if (!folder.run_link_flags.empty()) {
    out += fmt::format(
        "# ROCm {}'s libraries are Debian sid's and need its glibc: the compilers link with the toolkit's ld,\n"
        "# which starts the programs that reach them with sid's loader.\n"
        "export LDFLAGS={}\"${{LDFLAGS:+ $LDFLAGS}}\"\n",
        folder.hip.version, shell_quote("-B" + (dir / "libexec" / "gpuport-ld").string() + "/"));
  }
  return out;
}

}  // namespace

std::optional<Diagnostic> write_cuda_toolkit_folder(const CudaToolkitFolder& folder, const maps::ApiMap& map) {
  const fs::path& dir = folder.dir;
  std::error_code ec;
  for (const char* sub : {"bin", "include/gpuport", "lib64", "lib", "nvvm/libdevice"}) {
    fs::create_directories(dir / sub, ec);
    if (ec) return folder_error(dir / sub, fmt::format("cannot make the folder: {}", ec.message()));
  }
  // The folder may move: the script finds itself.
  const std::string nvcc = fmt::format(
      "#!/bin/sh\n# Written by gpuport nvcc --toolkit: nvcc's command line, built for AMD gfx1100.\n"
      "root=$(CDPATH= cd -- \"$(dirname -- \"$0\")/..\" && pwd)\nexec {} --toolkit-root \"$root\" \"$@\"\n",
      folder.gpuport_command);
  // The host link command gpuport nvcc links programs with here, and CMake after it (it reads it
  // from `nvcc -v`): clang's link with HIP's runtime, the device link of -fgpu-rdc objects.
  const std::string host_link = fmt::format(
      "#!/bin/sh\n# Written by gpuport nvcc --toolkit: a host link line, linked by clang for AMD gfx1100.\n"
      "root=$(CDPATH= cd -- \"$(dirname -- \"$0\")/..\" && pwd)\nexec {} --toolkit-root \"$root\" --host-link \"$@\"\n",
      folder.gpuport_command);
  // GNU ld for the compilers that gpuportenv's LDFLAGS point here (-B): the run link options, sid's
  // only for links that reach sid's libraries.
  const std::string ld = fmt::format(
      "#!/bin/sh\n# Written by gpuport nvcc --toolkit: GNU ld with the options that start programs on the emulator.\n"
      "root=$(CDPATH= cd -- \"$(dirname -- \"$0\")/../..\" && pwd)\nexec {} --toolkit-root \"$root\" --ld \"$@\"\n",
      folder.gpuport_command);
  fs::create_directories(dir / "libexec" / "gpuport-ld", ec);
  if (ec) return folder_error(dir / "libexec" / "gpuport-ld", fmt::format("cannot make the folder: {}", ec.message()));
  if (auto err = write_file_atomic(dir / "bin" / "gpuportenv", environment_script(folder))) return err;
  for (const auto& [name, text] : {std::pair<const char*, const std::string&>{"bin/nvcc", nvcc}, {"bin/nvcc-host-link", host_link},
                                   {"libexec/gpuport-ld/ld", ld}}) {
    if (auto err = write_file_atomic(dir / name, text)) return err;
    fs::permissions(dir / name, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                    fs::perms::others_read | fs::perms::others_exec, ec);
  }

  // GNU ld reads a file it cannot take as an object or archive as a linker script.
  const std::string script = fmt::format("/* Written by gpuport nvcc --toolkit: CUDA's runtime is HIP's here. */\nINPUT({})\n",
                                         fs::absolute(folder.hip_library, ec).string());
  for (const char* sub : {"lib64", "lib"}) {
    for (const char* name : {"libcudart.so", "libcudart_static.a", "libcuda.so"})
      if (auto err = write_file_atomic(dir / sub / name, script)) return err;
    // Device code is linked by clang with each object; CMake links CUDA programs with this too.
    if (auto err = write_file_atomic(dir / sub / "libcudadevrt.a",
                                     "/* Written by gpuport nvcc --toolkit: clang links device code itself. */\n"))
      return err;
  }
  // CUDA's math libraries, for FindCUDAToolkit's CUDA::curand and the like: HIP's where this
  // HIP can link them (the host link command links with their own libraries unresolved, as
  // gpuport nvcc does); NVTX is a shim in the sources and links nothing.
  for (const auto& [cuda, hip] : cuda_libraries()) {
    if (cuda == "cudart" || cuda == "cudart_static" || cuda == "cuda" || cuda == "cudadevrt") continue;  // written above
    std::string text;
    if (hip.empty()) {
      text = fmt::format("/* Written by gpuport nvcc --toolkit: CUDA's lib{} links nothing here. */\n", cuda);
    } else if (folder.hip.can_link("-l" + hip.front())) {
      std::string inputs;
      for (const auto& lib : hip)
        if (folder.hip.can_link("-l" + lib)) inputs += (inputs.empty() ? "" : " ") + (folder.hip.library_dir() / fmt::format("lib{}.so", lib)).string();
      text = fmt::format("/* Written by gpuport nvcc --toolkit: CUDA's lib{} is HIP's lib{}. */\nINPUT({})\n", cuda, fmt::join(hip, " and lib"),
                         inputs);
    } else {
      continue;  // no HIP library to stand for it here: a link that needs it says so
    }
    for (const char* sub : {"lib64", "lib"})
      if (auto err = write_file_atomic(dir / sub / fmt::format("lib{}.so", cuda), text)) return err;
  }
  if (auto err = write_file_atomic(dir / "nvvm" / "libdevice" / "README",
                                   "Written by gpuport nvcc --toolkit: CMake looks for this folder. Device code is "
                                   "linked with ROCm's device libraries.\n"))
    return err;

  // include/: HIP's folders linked in, then a header of CUDA's for each header row, where no
  // HIP folder of the same name is (thrust/ is rocThrust's, under CUDA's name).
  std::set<std::string> hip_folders;
  if (const fs::path hip_include = hip_include_dir(folder.hip); !hip_include.empty() && fs::is_directory(hip_include, ec)) {
    for (const auto& entry : fs::directory_iterator(hip_include, ec)) {
      const std::string name = entry.path().filename().string();
      const fs::path link = dir / "include" / name;
      if (fs::is_symlink(link, ec)) fs::remove(link, ec);
      if (fs::exists(link, ec)) continue;  // the user's own, or ours from an earlier run: not touched
      fs::create_symlink(entry.path(), link, ec);
      if (ec) return folder_error(link, fmt::format("cannot link HIP's {}: {}", name, ec.message()));
      hip_folders.insert(name);
    }
  }
  if (auto err = write_file_atomic(dir / "include" / "gpuport" / "cuda_names.h", cuda_names_header(map))) return err;
  if (auto err = write_file_atomic(dir / "include" / "gpuport" / "cuda_tags.h", cuda_tags_header(map))) return err;
  for (const auto& e : map.entries()) {
    if (e.kind != maps::Kind::header || e.status == maps::Status::unsupported || e.cuda == e.hip) continue;
    if (!e.cuda.ends_with(".h") || e.cuda.find("..") != std::string::npos || e.cuda.starts_with("/")) continue;
    const fs::path rel(e.cuda);
    if (hip_folders.count(rel.begin()->string()) || rel.begin()->string() == "gpuport") continue;
    const std::string text = fmt::format(
        "/* Written by gpuport nvcc --toolkit: CUDA's <{0}> for host code compiled without nvcc is HIP's\n"
        "   <{1}>, with CUDA's names defined as HIP's. */\n"
        "#pragma once\n"
        "#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)\n"
        "#define __HIP_PLATFORM_AMD__ 1\n"
        "#endif\n"
        "#include <gpuport/cuda_tags.h>\n"
        "#include <{1}>\n"
        "#include <gpuport/cuda_names.h>\n"
        "{2}"
        "/* CUDA's API is not [[nodiscard]]; HIP 6's is, and code written for CUDA ignores results. */\n"
        "#if defined(__GNUC__)\n"
        "#pragma GCC diagnostic ignored \"-Wunused-result\"\n"
        "#endif\n",
        e.cuda, e.hip, cuda_guards(e.cuda) + shims_for(map, e.cuda));
    fs::create_directories((dir / "include" / rel).parent_path(), ec);
    if (auto err = write_file_atomic(dir / "include" / rel, text)) return err;
  }
  return std::nullopt;
}

}  // namespace gpuport::verify
