#include "sass/toolchain.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <sstream>
#include <cstring>
#include <unistd.h>

#include <fmt/format.h>

#include "common/diagnostic.h"
#include "common/nvcc11.h"
#include "common/plain_paths.h"
#include "common/process.h"

namespace gpuport::sass {
namespace fs = std::filesystem;

std::string_view toolchain_name(ToolchainId id) { return id == ToolchainId::cuda11 ? "cuda11" : "cuda13"; }

std::optional<ToolchainId> parse_toolchain_name(std::string_view text) {
  if (text == "cuda11") return ToolchainId::cuda11;
  if (text == "cuda13") return ToolchainId::cuda13;
  return std::nullopt;
}

std::string_view tool_name(Tool tool) {
  switch (tool) {
    case Tool::nvcc: return "nvcc";
    case Tool::nvdisasm: return "nvdisasm";
    case Tool::cuobjdump: return "cuobjdump";
  }
  return "?";
}

namespace {

bool is_executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

fs::path cache_root() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "gpuport";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "gpuport";
  return {};
}

// "Cuda compilation tools, release 11.8, V11.8.89" -> "11.8".
std::string release_of(const fs::path& tool) {
  ProcessOptions o;
  o.timeout = std::chrono::seconds(30);
  auto r = run_process({tool.string(), "--version"}, o);
  const std::string& text = r.out;
  auto pos = text.find("release ");
  if (pos == std::string::npos) return {};
  pos += 8;
  auto end = text.find_first_of(", \n", pos);
  return text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
}

std::string install_hint(ToolchainId id, Tool tool) {
  if (id == ToolchainId::cuda11)
    return "install nvidia-cuda-toolkit from Debian non-free (scripts/bootstrap), and clang-14 as its host compiler";
  if (tool == Tool::nvcc) return "install CUDA 13 at /usr/local/cuda";
  return fmt::format("fetch the PyPI wheel nvidia-cuda-{0} (scripts/fetch-cuda13-tools), or set GPUPORT_{1}13 "
                     "to a CUDA 13 {0}",
                     tool_name(tool), tool == Tool::nvdisasm ? "NVDISASM" : "CUOBJDUMP");
}

}  // namespace

std::vector<fs::path> tool_candidates(ToolchainId id, Tool tool) {
  const std::string name(tool_name(tool));
  std::vector<fs::path> out;
  if (id == ToolchainId::cuda11) {
    out.push_back(fs::path("/usr/lib/nvidia-cuda-toolkit/bin") / name);
    out.push_back(fs::path("/usr/bin") / name);
    return out;
  }
  const std::string env = tool == Tool::nvcc ? "GPUPORT_NVCC13"
                          : tool == Tool::nvdisasm ? "GPUPORT_NVDISASM13" : "GPUPORT_CUOBJDUMP13";
  if (const char* v = std::getenv(env.c_str()); v && *v) out.emplace_back(v);
  out.push_back(fs::path("/usr/local/cuda/bin") / name);
  if (tool != Tool::nvcc) {
    if (fs::path root = cache_root(); !root.empty()) out.push_back(root / (name + "13") / "nvidia/cu13/bin" / name);
  }
  return out;
}

const fs::path& Toolchain::path(Tool tool) const {
  switch (tool) {
    case Tool::nvcc: return nvcc;
    case Tool::nvdisasm: return nvdisasm;
    case Tool::cuobjdump: return cuobjdump;
  }
  return nvcc;
}

std::optional<std::string> Toolchain::unavailable(Tool tool) const {
  const auto& p = path(tool);
  const std::string expected = id == ToolchainId::cuda11 ? "11.8" : "13";
  if (p.empty()) {
    std::string looked;
    for (const auto& c : tool_candidates(id, tool)) looked += (looked.empty() ? "" : ", ") + c.string();
    return fmt::format("{} {} not found (looked in {}): {}", toolchain_name(id), tool_name(tool), looked,
                       install_hint(id, tool));
  }
  const std::string& release = tool == Tool::nvcc       ? nvcc_release
                               : tool == Tool::nvdisasm ? nvdisasm_release
                                                        : cuobjdump_release;
  const bool matches = id == ToolchainId::cuda11 ? release == "11.8" : release.starts_with("13.");
  if (!matches)
    return fmt::format("{} is release '{}', not CUDA {} as {} needs: {}", p.string(), release, expected,
                       toolchain_name(id), install_hint(id, tool));
  if (id == ToolchainId::cuda11 && tool == Tool::nvcc && find_program(host_compiler).empty())
    return fmt::format("{} not found (nvcc 11.8 needs it as host compiler; install clang-14)", host_compiler);
  return std::nullopt;
}

Toolchain detect_toolchain(ToolchainId id) {
  Toolchain t;
  t.id = id;
  if (id == ToolchainId::cuda11) {
    t.min_arch = 50;
    t.max_arch = 90;
    t.host_compiler = "clang-14";
  } else {
    t.min_arch = 75;
    t.max_arch = 120;
  }
  for (Tool tool : {Tool::nvcc, Tool::nvdisasm, Tool::cuobjdump}) {
    fs::path& slot = tool == Tool::nvcc ? t.nvcc : tool == Tool::nvdisasm ? t.nvdisasm : t.cuobjdump;
    for (const auto& c : tool_candidates(id, tool))
      if (is_executable(c)) {
        slot = c;
        break;
      }
  }
  if (!t.nvcc.empty()) t.nvcc_release = release_of(t.nvcc);
  if (!t.nvdisasm.empty()) t.nvdisasm_release = release_of(t.nvdisasm);
  if (!t.cuobjdump.empty()) t.cuobjdump_release = release_of(t.cuobjdump);
  return t;
}

const std::vector<int>& default_archs() {
  static const std::vector<int> archs = {61, 70, 75, 80, 86, 89, 90, 100, 120};
  return archs;
}

ToolchainId default_toolchain(int arch) { return arch <= 90 ? ToolchainId::cuda11 : ToolchainId::cuda13; }

namespace {

std::string trimmed(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// NVIDIA's tools may run their steps through a shell (nvcc does, with names unquoted): they
// are given only plain paths (`plain`), and their messages name the user's files again.
ToolRun run_tool(const std::vector<std::string>& argv, ProcessOptions options, PlainPaths& plain) {
  ToolRun out;
  if (auto err = plain.set_temporary_folder(options.environment)) {
    out.message = format_diagnostic(*err);
    return out;
  }
  auto r = run_process(argv, options);
  out.command_line = plain.restore_command(r.command_line);
  out.ok = r.succeeded();
  out.output = std::move(r.out);
  if (out.ok) {
    if (auto err = plain.commit_outputs()) {
      out.ok = false;
      out.message = format_diagnostic(*err);
    }
  } else {
    std::string detail = plain.restore(trimmed(r.err));
    out.message = fmt::format("`{}` failed ({}){}{}", out.command_line, r.outcome(), detail.empty() ? "" : ":\n",
                              detail);
  }
  return out;
}

ToolRun missing(std::string why) {
  ToolRun r;
  r.message = std::move(why);
  return r;
}

ToolRun missing(const std::vector<Diagnostic>& why) { return missing(format_diagnostic(why.front())); }

// A disassembler looping on a corrupt cubin must not take the machine's memory with it.
constexpr std::uint64_t kDisassemblerMemory = std::uint64_t{8} << 30;

}  // namespace

namespace {

// nvcc SOURCE -o OUTPUT with `flags`, the source's folder and `include_dirs` on the include
// path; with 11.8, its host compiler, cleaned include path and environment.
ToolRun run_nvcc(const Toolchain& toolchain, const fs::path& source, const fs::path& output,
                 const std::vector<std::string>& flags, const std::vector<fs::path>& include_dirs,
                 std::chrono::seconds timeout) {
  std::vector<std::string> cmd = {toolchain.nvcc.string()};
  ProcessOptions po;
  po.timeout = timeout;
  if (toolchain.id == ToolchainId::cuda11) {
    cmd.insert(cmd.end(), {"-ccbin", toolchain.host_compiler});
    const auto host = nvcc11_host_include_flags(toolchain.host_compiler);
    cmd.insert(cmd.end(), host.begin(), host.end());
    po.environment = nvcc11_environment();
  }
  PlainPaths plain;
  // The source's own folder first, as its quoted includes expect (the plain name may be a link
  // elsewhere).
  std::error_code ec;
  std::vector<fs::path> dirs = {fs::absolute(source, ec).parent_path()};
  dirs.insert(dirs.end(), include_dirs.begin(), include_dirs.end());
  auto includes = plain.include_flags(dirs);
  auto input = plain.input(source);
  auto out = plain.output(output);
  if (!includes) return missing(includes.diagnostics());
  if (!input) return missing(input.diagnostics());
  if (!out) return missing(out.diagnostics());
  cmd.insert(cmd.end(), includes->begin(), includes->end());
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  cmd.insert(cmd.end(), {"-o", out->string(), input->string()});
  return run_tool(cmd, po, plain);
}

}  // namespace

ToolRun compile_cubin(const Toolchain& toolchain, const fs::path& source, int arch, const fs::path& cubin,
                      const CompileOptions& options) {
  if (auto why = toolchain.unavailable(Tool::nvcc)) return missing(*why);
  if (!toolchain.covers(arch))
    return missing(fmt::format("{} does not build sm_{} (it covers sm_{}..sm_{})", toolchain_name(toolchain.id), arch,
                               toolchain.min_arch, toolchain.max_arch));
  std::vector<std::string> flags = options.extra_flags;
  flags.insert(flags.end(), {"-cubin", options.optimisation, fmt::format("-arch=sm_{}", arch)});
  return run_nvcc(toolchain, source, cubin, flags, options.include_dirs, options.timeout);
}

ToolRun build_executable(const Toolchain& toolchain, const fs::path& source, const fs::path& executable,
                         const std::vector<std::string>& flags, std::chrono::seconds timeout) {
  if (auto why = toolchain.unavailable(Tool::nvcc)) return missing(*why);
  std::vector<std::string> all = flags;
  all.insert(all.end(), {"-lstdc++", "-lm"});
  return run_nvcc(toolchain, source, executable, all, {}, timeout);
}

ToolRun build_executable_with_device_code(const Toolchain& toolchain, const fs::path& source, int arch,
                                          const fs::path& cubin, const fs::path& ptx, const fs::path& executable,
                                          const fs::path& work_dir, const std::vector<std::string>& flags,
                                          std::chrono::seconds timeout) {
  if (toolchain.id != ToolchainId::cuda11) return missing("the device-code replacement runs nvcc 11.8's steps only");
  if (auto why = toolchain.unavailable(Tool::nvcc)) return missing(*why);
  std::error_code ec;
  fs::create_directories(work_dir, ec);
  // The trajectory: nvcc -dryrun with --keep names every intermediate file in work_dir. The steps
  // run through the shell as nvcc prints them, so the paths must need no quoting.
  const fs::path src = fs::absolute(source, ec), exe = fs::absolute(executable, ec), dir = fs::absolute(work_dir, ec);
  for (const fs::path& p : {src, exe, dir, fs::absolute(cubin, ec), fs::absolute(ptx, ec)}) {
    const std::string t = p.string();
    if (t.find_first_of(" \t\n'\"$`\\;&|<>()*?[]{}!#~") != std::string::npos)
      return missing(fmt::format("{}: the device-code replacement runs nvcc's steps through the shell and needs paths "
                                 "without spaces or shell characters", t));
  }
  std::vector<std::string> cmd = {toolchain.nvcc.string(), "-ccbin", toolchain.host_compiler};
  const auto host = nvcc11_host_include_flags(toolchain.host_compiler);
  cmd.insert(cmd.end(), host.begin(), host.end());
  cmd.push_back("-I" + src.parent_path().string());
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  cmd.insert(cmd.end(), {fmt::format("-arch=sm_{}", arch), "--keep", "--keep-dir", dir.string(), "-dryrun", "-o",
                         exe.string(), src.string(), "-lstdc++", "-lm"});
  ProcessOptions plan_options;
  plan_options.timeout = timeout;
  plan_options.environment = nvcc11_environment();
  plan_options.environment["TMPDIR"] = dir.string();
  const ProcessResult plan = run_process(cmd, plan_options);
  if (!plan.succeeded()) return missing(fmt::format("`{}` failed ({}): {}", plan.command_line, plan.outcome(), plan.err));
  const std::string text = plan.err + plan.out;  // nvcc prints its steps on stderr
  std::map<std::string, std::optional<std::string>> environment = plan_options.environment;
  const std::string cubin_suffix = fmt::format(".sm_{}.cubin", arch);
  bool replaced = false;
  std::string log;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("#$ ")) continue;
    line = line.substr(3);
    // "NAME=value" lines set the environment of the steps after them.
    const auto eq = line.find('=');
    if (eq != std::string::npos && eq > 0 && line.find(' ') > eq &&
        std::all_of(line.begin(), line.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
          return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
        })) {
      environment[line.substr(0, eq)] = line.substr(eq + 1);
      continue;
    }
    // nvcc removes files that may not exist yet (its link registration file): so may we.
    if (line.starts_with("rm ")) line = "rm -f " + line.substr(3);
    ProcessOptions po;
    po.timeout = timeout;
    po.environment = environment;
    po.working_directory = dir;
    const ProcessResult r = run_process({"/bin/sh", "-c", line}, po);
    log += line + "\n";
    if (!r.succeeded()) {
      ToolRun failed;
      failed.command_line = line;
      failed.message = fmt::format("{} ({}): {}{}", line, r.outcome(), r.err, r.out);
      return failed;
    }
    // After ptxas made the program's own cubin, ours takes its place, and our PTX that of cicc.
    if (line.starts_with("ptxas ") && line.find(cubin_suffix) != std::string::npos) {
      auto word_after = [&](std::string_view option) -> std::string {
        auto at = line.find(option);
        if (at == std::string::npos) return "";
        at += option.size();
        while (at < line.size() && line[at] == ' ') ++at;
        const bool quoted = at < line.size() && line[at] == '"';
        if (quoted) ++at;
        auto end = line.find(quoted ? '"' : ' ', at);
        return line.substr(at, end == std::string::npos ? std::string::npos : end - at);
      };
      const std::string made = word_after(" -o ");
      // ptxas's input is the one argument ending in .ptx.
      std::string source_ptx;
      std::istringstream words(line);
      for (std::string w; words >> w;) {
        if (w.size() > 2 && w.front() == '"' && w.back() == '"') w = w.substr(1, w.size() - 2);
        if (w.ends_with(".ptx")) source_ptx = w;
      }
      if (made.empty() || source_ptx.empty()) return missing("cannot read nvcc's ptxas step: " + line);
      fs::copy_file(cubin, made, fs::copy_options::overwrite_existing, ec);
      if (!ec) fs::copy_file(ptx, source_ptx, fs::copy_options::overwrite_existing, ec);
      if (ec) return missing(fmt::format("cannot put the device code in place of {}: {}", made, ec.message()));
      replaced = true;
    }
  }
  if (!replaced) return missing(fmt::format("nvcc's steps for sm_{} have no ptxas step to replace", arch));
  ToolRun done;
  done.ok = true;
  done.output = log;
  done.command_line = plan.command_line;
  return done;
}

ToolRun disassemble_cubin(const Toolchain& toolchain, const fs::path& cubin, std::chrono::seconds timeout) {
  if (auto why = toolchain.unavailable(Tool::nvdisasm)) return missing(*why);
  ProcessOptions po;
  po.timeout = timeout;
  po.max_output_bytes = std::size_t{1} << 30;
  po.max_memory_bytes = kDisassemblerMemory;
  PlainPaths plain;
  auto input = plain.input(cubin);
  if (!input) return missing(input.diagnostics());
  return run_tool({toolchain.nvdisasm.string(), "-hex", input->string()}, po, plain);
}

ToolRun disassemble_raw(const Toolchain& toolchain, const fs::path& binary, int arch, std::chrono::seconds timeout,
                        bool with_encodings) {
  if (auto why = toolchain.unavailable(Tool::nvdisasm)) return missing(*why);
  ProcessOptions po;
  po.timeout = timeout;
  po.max_output_bytes = std::size_t{1} << 30;
  po.max_memory_bytes = kDisassemblerMemory;
  PlainPaths plain;
  auto input = plain.input(binary);
  if (!input) return missing(input.diagnostics());
  std::vector<std::string> argv{toolchain.nvdisasm.string(), "-b", fmt::format("SM{}", arch)};
  if (with_encodings) argv.push_back("-hex");
  argv.push_back(input->string());
  return run_tool(argv, po, plain);
}

namespace {

// cuobjdump runs nvdisasm from PATH: it must find its own toolchain's (CUDA 13's cuobjdump
// with 11.8's nvdisasm fails with "Unknown option").
ProcessOptions cuobjdump_options(const Toolchain& toolchain, std::chrono::seconds timeout) {
  ProcessOptions po;
  po.timeout = timeout;
  po.max_output_bytes = std::size_t{1} << 30;
  po.max_memory_bytes = kDisassemblerMemory;
  if (toolchain.id == ToolchainId::cuda11) {
    po.environment = nvcc11_environment();
  } else {
    std::string path = toolchain.nvdisasm.empty() ? "" : toolchain.nvdisasm.parent_path().string() + ":";
    path += toolchain.cuobjdump.parent_path().string();
    if (const char* inherited = std::getenv("PATH"); inherited && *inherited) path += std::string(":") + inherited;
    po.environment["PATH"] = path;
  }
  return po;
}

}  // namespace

ToolRun extract_cubins(const Toolchain& toolchain, const fs::path& binary, const fs::path& dir,
                       std::chrono::seconds timeout) {
  if (auto why = toolchain.unavailable(Tool::cuobjdump)) return missing(*why);
  ProcessOptions po = cuobjdump_options(toolchain, timeout);
  PlainPaths plain;
  auto input = plain.input(binary);
  auto workdir = plain.input(dir);
  if (!input) return missing(input.diagnostics());
  if (!workdir) return missing(workdir.diagnostics());
  po.working_directory = *workdir;
  return run_tool({toolchain.cuobjdump.string(), "-xelf", "all", input->string()}, po, plain);
}

namespace {

// cuobjdump FLAG FILE.
ToolRun run_cuobjdump(const Toolchain& toolchain, const char* flag, const fs::path& binary, std::chrono::seconds timeout) {
  if (auto why = toolchain.unavailable(Tool::cuobjdump)) return missing(*why);
  ProcessOptions po = cuobjdump_options(toolchain, timeout);
  PlainPaths plain;
  auto input = plain.input(binary);
  if (!input) return missing(input.diagnostics());
  return run_tool({toolchain.cuobjdump.string(), flag, input->string()}, po, plain);
}

}  // namespace

ToolRun dump_sass(const Toolchain& toolchain, const fs::path& binary, std::chrono::seconds timeout) {
  return run_cuobjdump(toolchain, "-sass", binary, timeout);
}

ToolRun dump_elf(const Toolchain& toolchain, const fs::path& binary, std::chrono::seconds timeout) {
  return run_cuobjdump(toolchain, "-elf", binary, timeout);
}

bool is_elf(std::string_view bytes) { return bytes.size() >= 4 && bytes.substr(0, 4) == "\x7f" "ELF"; }

std::optional<CubinIdentity> identify_cubin(std::string_view bytes) {
  // ELF64 header: e_ident[4] class, [7] OSABI, [8] ABI version; e_flags at offset 48.
  if (!is_elf(bytes) || bytes.size() < 64 || bytes[4] != 2) return std::nullopt;
  const auto osabi = static_cast<unsigned char>(bytes[7]);
  if (osabi != 0x33 && osabi != 0x41) return std::nullopt;
  std::uint32_t flags = 0;
  std::memcpy(&flags, bytes.data() + 48, 4);  // little-endian hosts only, as CUDA itself
  CubinIdentity id;
  id.abi_version = static_cast<unsigned char>(bytes[8]);
  // The CUDA 13 layout (ABI version 8) moved the SM number up one byte.
  id.arch = id.abi_version >= 8 ? static_cast<int>((flags >> 8) & 0xff) : static_cast<int>(flags & 0xff);
  id.toolchain = id.abi_version >= 8 || id.arch > 90 ? ToolchainId::cuda13 : ToolchainId::cuda11;
  return id;
}

}  // namespace gpuport::sass
