#include "sass/listing_source.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <fmt/format.h>

#include "common/file_io.h"
#include "common/temporary.h"
#include "sass/parser.h"

namespace gpuport::sass {
namespace fs = std::filesystem;

std::string_view input_kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::cuda_source: return "CUDA source";
    case InputKind::cubin: return "cubin";
    case InputKind::binary: return "executable or fatbinary";
    case InputKind::listing: return "SASS listing";
    case InputKind::unknown_binary: return "binary file";
  }
  return "?";
}

namespace {

bool is_fatbinary(std::string_view bytes) {
  // The fatbinary wrapper's magic 0xBA55ED50, little-endian.
  return bytes.size() >= 4 && std::memcmp(bytes.data(), "\x50\xed\x55\xba", 4) == 0;
}

Diagnostic error(const fs::path& path, std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = path.string();
  return d;
}

// Which toolchain made the CUDA code inside a host binary: the first embedded cubin says (a
// compressed fatbinary hides them; std::nullopt then).
std::optional<ToolchainId> embedded_toolchain(std::string_view bytes) {
  std::size_t pos = 0;
  while ((pos = bytes.find("\x7f" "ELF", pos + 1)) != std::string_view::npos)
    if (auto id = identify_cubin(bytes.substr(pos))) return id->toolchain;
  return std::nullopt;
}

std::string tool_versions(const Toolchain& t, bool compiled, bool disassembled, bool dumped) {
  std::string s;
  auto add = [&](std::string_view name, const std::string& release) {
    s += fmt::format("{}{} {}", s.empty() ? "" : ", ", name, release.empty() ? "?" : release);
  };
  if (compiled) add("nvcc", t.nvcc_release);
  if (disassembled) add("nvdisasm", t.nvdisasm_release);
  if (dumped) add("cuobjdump", t.cuobjdump_release);
  return s;
}

void save(const ListingRequest& request, const fs::path& name, std::string_view content, ListingResult& out) {
  if (request.save_dir.empty()) return;
  if (auto err = write_file_atomic(request.save_dir / name, content, {.durable = false})) out.diagnostics.push_back(*err);
}

constexpr std::uint64_t kMaxCubinBytes = std::uint64_t{1} << 30;

// nvdisasm of `cubin`; the listing keeps the cubin's bytes (already read by the caller) for its
// jump tables.
void disassemble(const fs::path& path, const fs::path& cubin, std::string bytes, const std::string& name,
                 int arch, const Toolchain& t, bool compiled, ListingResult& out) {
  auto r = disassemble_cubin(t, cubin);
  if (!r.ok) {
    out.diagnostics.push_back(error(path, "tool-failed", r.message));
    return;
  }
  Listing l;
  l.name = name;
  l.arch = arch;
  l.toolchain = t.id;
  l.tools = tool_versions(t, compiled, true, false);
  l.text = std::move(r.output);
  l.cubin = std::move(bytes);
  out.listings.push_back(std::move(l));
}

}  // namespace

InputKind classify_input(const fs::path& path, std::string_view bytes) {
  if (identify_cubin(bytes)) return InputKind::cubin;
  if (is_elf(bytes) || is_fatbinary(bytes)) return InputKind::binary;
  if (path.extension() == ".cu") return InputKind::cuda_source;
  if (bytes.find('\0') != std::string_view::npos) return InputKind::unknown_binary;
  return InputKind::listing;
}

ListingResult obtain_listings(const fs::path& path, std::string_view bytes, const ListingRequest& request) {
  ListingResult out;
  const InputKind kind = classify_input(path, bytes);
  switch (kind) {
    case InputKind::listing: {
      Listing l;
      l.name = path.string();
      l.text = std::string(bytes);
      // X.sass beside X.cubin (as --save-temps and scripts/make-sass-listings write them): the
      // cubin's jump tables resolve the BRX targets that nvdisasm 11.8 leaves unnamed.
      if (fs::path c = fs::path(path).replace_extension(".cubin"); path.extension() != ".cubin" && fs::is_regular_file(c)) {
        std::string cubin;
        if (!read_file_into(c, kMaxCubinBytes, cubin) && identify_cubin(cubin)) {
          l.cubin = std::move(cubin);
          l.cubin_name = c.string();
        }
      }
      out.listings.push_back(std::move(l));
      return out;
    }
    case InputKind::unknown_binary:
      out.diagnostics.push_back(error(path, "not-sass-input",
                                      "binary file that is neither a cubin, an executable or object with CUDA code, "
                                      "nor a fatbinary"));
      return out;
    case InputKind::cubin: {
      const auto id = *identify_cubin(bytes);
      ToolchainId tc = request.toolchain.value_or(id.toolchain);
      if (id.toolchain == ToolchainId::cuda13 && tc == ToolchainId::cuda11) {
        out.diagnostics.push_back(error(path, "toolchain-mismatch",
                                        fmt::format("this sm_{} cubin was made by CUDA 13 (ELF ABI version {}); "
                                                    "nvdisasm 11.8 cannot read it: use --toolchain cuda13",
                                                    id.arch, id.abi_version)));
        return out;
      }
      Toolchain t = detect_toolchain(tc);
      if (request.prefer_newest_disassembler && tc == ToolchainId::cuda11 && !request.toolchain) {
        Toolchain newest = detect_toolchain(ToolchainId::cuda13);
        if (!newest.unavailable(Tool::nvdisasm)) t = std::move(newest);
      }
      disassemble(path, path, std::string(bytes), path.string(), id.arch, t, false, out);
      if (!out.listings.empty()) save(request, path.filename().replace_extension(".sass"), out.listings.back().text, out);
      return out;
    }
    case InputKind::binary: {
      std::vector<ToolchainId> order;
      if (request.toolchain) order = {*request.toolchain};
      else if (auto tc = embedded_toolchain(bytes)) order = {*tc};
      else order = {ToolchainId::cuda11, ToolchainId::cuda13};  // compressed: try 11.8's reader first
      std::vector<std::string> failures;
      // First the embedded cubins themselves (cuobjdump -xelf), each disassembled by nvdisasm like
      // a cubin input: labels, BRANCH_TARGETS and the jump tables that `cuobjdump -sass` lacks.
      if (const TemporaryFolder tmp = TemporaryFolder::make("sass"); !tmp.empty())
        for (ToolchainId tc : order) {
          const Toolchain t = detect_toolchain(tc);
          if (t.unavailable(Tool::nvdisasm) || !extract_cubins(t, path, tmp.path()).ok) continue;
          std::vector<fs::path> cubins;
          for (const auto& e : fs::directory_iterator(tmp.path()))
            if (e.path().extension() == ".cubin") cubins.push_back(e.path());
          std::sort(cubins.begin(), cubins.end());
          std::size_t before = out.listings.size();
          bool all = !cubins.empty();
          for (const auto& c : cubins) {
            std::string bytes;
            if (read_file_into(c, kMaxCubinBytes, bytes)) { all = false; break; }
            const auto id = identify_cubin(bytes);
            if (!id || id->toolchain != tc) { all = false; break; }  // another CUDA's cubin: nvdisasm differs
            ListingResult one;
            disassemble(path, c, std::move(bytes), fmt::format("{}@{}", path.string(), c.filename().string()), id->arch,
                        t, false, one);
            if (one.listings.empty()) { all = false; break; }
            one.listings[0].tools = tool_versions(t, false, true, true);
            save(request, path.filename().string() + "." + c.filename().replace_extension(".sass").string(),
                 one.listings[0].text, out);
            out.listings.push_back(std::move(one.listings[0]));
          }
          if (all) return out;
          out.listings.resize(before);  // fall back to cuobjdump -sass
        }
      for (ToolchainId tc : order) {
        const Toolchain t = detect_toolchain(tc);
        auto r = dump_sass(t, path);
        if (!r.ok) {
          failures.push_back(r.message);
          continue;
        }
        Listing l;
        l.name = path.string();
        l.toolchain = tc;
        l.tools = tool_versions(t, false, false, true);
        l.text = std::move(r.output);
        save(request, path.filename().string() + ".sass", l.text, out);
        out.listings.push_back(std::move(l));
        return out;
      }
      std::string all;
      for (const auto& f : failures) all += (all.empty() ? "" : "\n") + f;
      out.diagnostics.push_back(error(path, "tool-failed", all));
      return out;
    }
    case InputKind::cuda_source: {
      const TemporaryFolder tmp = TemporaryFolder::make("sass");
      if (tmp.path().empty()) {
        out.diagnostics.push_back(error(path, "io-error", "cannot make a temporary folder"));
        return out;
      }
      const std::vector<int>& archs = request.archs.empty() ? default_archs() : request.archs;
      std::optional<Toolchain> toolchains[2];
      for (int arch : archs) {
        const ToolchainId tc = request.toolchain.value_or(default_toolchain(arch));
        auto& slot = toolchains[tc == ToolchainId::cuda11 ? 0 : 1];
        if (!slot) slot = detect_toolchain(tc);
        const Toolchain& t = *slot;
        const std::string stem = path.stem().string();
        const fs::path cubin = tmp.path() / fmt::format("{}.sm_{}.cubin", stem, arch);
        auto c = compile_cubin(t, path, arch, cubin, request.compile);
        if (!c.ok) {
          out.diagnostics.push_back(error(path, "tool-failed", fmt::format("sm_{}: {}", arch, c.message)));
          continue;
        }
        const std::size_t before = out.listings.size();
        std::string bytes;
        if (auto err = read_file_into(cubin, kMaxCubinBytes, bytes)) {
          out.diagnostics.push_back(*err);
          continue;
        }
        const Toolchain* disassembler = &t;
        std::optional<Toolchain> newest;
        if (request.prefer_newest_disassembler && t.id == ToolchainId::cuda11) {
          newest = detect_toolchain(ToolchainId::cuda13);
          if (!newest->unavailable(Tool::nvdisasm)) disassembler = &*newest;
        }
        disassemble(path, cubin, std::move(bytes), fmt::format("{}@sm_{}", path.string(), arch), arch, *disassembler,
                    disassembler == &t, out);
        if (disassembler != &t && out.listings.size() > before)
          out.listings.back().tools = tool_versions(t, true, false, false) + ", " + out.listings.back().tools;
        if (!request.save_dir.empty()) {
          std::error_code ec;
          fs::create_directories(request.save_dir, ec);
          fs::copy_file(cubin, request.save_dir / cubin.filename(), fs::copy_options::overwrite_existing, ec);
          if (out.listings.size() > before)
            save(request, fmt::format("{}.sm_{}.sass", stem, arch), out.listings.back().text, out);
        }
      }
      return out;
    }
  }
  return out;
}

std::vector<Diagnostic> redecode_undecoded(SassProgram& program, int arch, const std::string& listing_name) {
  std::vector<Diagnostic> problems;
  auto warn = [&](std::string message) {
    problems.push_back({Severity::warning, "sass-undecoded", std::move(message), {listing_name, 0, 0}, {}});
  };
  std::optional<Toolchain> newest;
  for (auto& f : program.functions) {
    const bool any = std::any_of(f.instructions.begin(), f.instructions.end(), [](const auto& i) { return i.undecoded; });
    if (!any) continue;
    const bool encoded = std::all_of(f.instructions.begin(), f.instructions.end(), [&](const auto& i) {
      return i.encoding_words == 2 && i.address == static_cast<std::uint64_t>(&i - f.instructions.data()) * 16;
    });
    if (!encoded) {
      warn(fmt::format("{}: instructions the disassembler could not decode, without the encodings of the whole function "
                       "to decode them again", f.name));
      continue;
    }
    if (!newest) newest = detect_toolchain(ToolchainId::cuda13);
    if (newest->unavailable(Tool::nvdisasm)) {
      warn(fmt::format("{}: instructions the disassembler could not decode, and no newer nvdisasm (CUDA 13) to decode "
                       "them", f.name));
      continue;
    }
    const TemporaryFolder tmp = TemporaryFolder::make("sass");
    if (tmp.path().empty()) return problems;
    std::string raw;
    raw.reserve(f.instructions.size() * 16);
    for (const auto& i : f.instructions)
      for (std::uint64_t word : i.encoding)
        for (int b = 0; b < 8; ++b) raw.push_back(static_cast<char>((word >> (8 * b)) & 0xff));
    const fs::path file = tmp.path() / "code.bin";
    if (auto err = write_file_atomic(file, raw, {.durable = false})) {
      problems.push_back(*err);
      continue;
    }
    ToolRun run = disassemble_raw(*newest, file, arch);
    if (!run.ok) {
      warn(fmt::format("{}: decoding again failed: {}", f.name, run.message));
      continue;
    }
    SassParseOptions po;
    po.file_name = listing_name;
    po.arch = arch;
    SassParseResult again = parse_sass(run.output, po);
    if (again.programs.empty() || again.programs[0].functions.empty()) {
      warn(fmt::format("{}: the newer nvdisasm's text could not be read", f.name));
      continue;
    }
    const SassFunction& fresh = again.programs[0].functions[0];
    for (auto& i : f.instructions) {
      if (!i.undecoded) continue;
      const std::size_t k = fresh.find_instruction(i.address);
      if (k == SassFunction::npos || fresh.instructions[k].undecoded) {
        warn(fmt::format("{}: the instruction at 0x{:04x} stays undecoded", f.name, i.address));
        continue;
      }
      const std::uint32_t line = i.line;
      i = fresh.instructions[k];
      i.line = line;
    }
  }
  return problems;
}

}  // namespace gpuport::sass
