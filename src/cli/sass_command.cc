// gpuport sass: reads SASS from .cu, cubin, executable/fatbinary or disassembler text and
// prints a summary or the parsed program. Argument handling and printing only; the work is in
// sass/listing_source.h (tools) and sass/parser.h.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/file_io.h"
#include "common/json.h"
#include "common/process.h"
#include "sass/divergence.h"
#include "sass/indirect_branches.h"
#include "sass/listing_source.h"
#include "sass/parser.h"
#include "sass/printer.h"
#include "sass/program.h"

namespace gpuport::cli {
namespace fs = std::filesystem;

namespace {

// What `gpuport sass` reports for each program: a summary, the parsed program, or the
// divergence analysis (reconvergence mechanisms and points per branch, sass/divergence.h).
enum class SassReport { summary, print, divergence };

struct SassArguments {
  std::vector<std::string> inputs;
  bool print = false;
  bool divergence = false;
  std::string format = "text";
  bool encoding = false;
  std::string archs;
  std::string toolchain = "auto";
  std::vector<std::string> include_dirs;
  std::string save_dir;
  std::string svg_dir;
};

constexpr std::uint64_t kMaxInputBytes = 1ull << 30;

// Renders one function's DOT graph with Graphviz into DIR/<input stem>.sm_<arch>.<function>.svg
// (atomically); false, with a message, when dot fails or the file cannot be written.
bool write_svg(const std::filesystem::path& dot, const std::string& dir, const std::string& input, int arch,
               const std::string& function, const std::string& graph) {
  std::string name = fmt::format("{}.sm_{}.{}", std::filesystem::path(input).stem().string(), arch,
                                 function.empty() ? "anonymous" : function);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  // Mangled template names run to hundreds of characters, over the 255 bytes of a file name:
  // keep the start and add a hash of the whole, so that names stay distinct.
  constexpr std::size_t kMaxStem = 200;
  if (name.size() > kMaxStem) {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
    name = fmt::format("{}-{:016x}", name.substr(0, kMaxStem - 17), h);
  }
  const std::filesystem::path target = std::filesystem::path(dir) / (name + ".svg");
  const std::filesystem::path source = std::filesystem::path(dir) / (name + ".dot.tmp");
  if (auto err = write_file_atomic(source, graph, {.durable = false})) {
    std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
    return false;
  }
  ProcessOptions options;
  options.timeout = std::chrono::seconds(120);
  options.max_output_bytes = 256u << 20;
  auto r = run_process({dot.string(), "-Tsvg", source.string()}, options);
  std::error_code ec;
  std::filesystem::remove(source, ec);
  if (!r.succeeded()) {
    std::fprintf(stderr, "%s: error: %s: %s %s [tool-failed]\n", target.string().c_str(), r.command_line.c_str(),
                 r.outcome().c_str(), r.err.c_str());
    return false;
  }
  if (auto err = write_file_atomic(target, r.out, {.durable = false})) {
    std::fprintf(stderr, "%s\n", format_diagnostic(*err).c_str());
    return false;
  }
  return true;
}

void print_diagnostics(const std::vector<Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::fprintf(stderr, "%s\n", format_diagnostic(d).c_str());
}

int usage(const std::string& message) {
  std::fprintf(stderr, "gpuport sass: %s\n", message.c_str());
  return 2;
}

// One line per function; with the cubin, also what only its .nv.info says (parameters, shared
// memory, stack, barriers).
std::string summarise(const sass::SassProgram& program, const sass::Cubin* cubin) {
  std::string out;
  for (const auto& f : program.functions) {
    out += fmt::format("{} {}: {} instructions, {} labels", f.is_entry ? "kernel" : "function", f.name,
                       f.instructions.size(), f.labels.size());
    if (f.register_count >= 0) out += fmt::format(", {} registers", f.register_count);
    if (const sass::CubinKernel* k = cubin != nullptr ? cubin->find_kernel(f.name) : nullptr) {
      std::uint32_t bytes = 0;
      for (const auto& p : k->parameters) bytes = std::max<std::uint32_t>(bytes, p.offset + p.size);
      if (!k->parameters.empty()) out += fmt::format(", {} parameters ({} bytes)", k->parameters.size(), bytes);
      out += fmt::format(", {} bytes shared", k->shared_memory_size);
      if (k->max_stack_size) out += fmt::format(", stack {} bytes", *k->max_stack_size);
      if (k->num_barriers) out += fmt::format(", {} barrier{}", *k->num_barriers, *k->num_barriers == 1 ? "" : "s");
    }
    out += "\n";
  }
  if (program.functions.empty()) out += "no functions\n";
  return out;
}

int run_sass(const SassArguments& a) {
  sass::ListingRequest request;
  std::vector<int> wanted_archs;
  if (!a.archs.empty()) {
    std::string_view rest = a.archs;
    while (!rest.empty()) {
      auto comma = rest.find_first_of(", ");
      std::string_view item = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (item.empty()) continue;
      int arch = sass::parse_arch(item);
      if (arch < 50 || arch > 120) return usage(fmt::format("--arch: '{}' is not an arch (sm_50..sm_120)", item));
      wanted_archs.push_back(arch);
    }
    request.archs = wanted_archs;
  }
  if (a.toolchain != "auto") {
    request.toolchain = sass::parse_toolchain_name(a.toolchain);
    if (!request.toolchain) return usage("--toolchain: expected cuda11, cuda13 or auto, not '" + a.toolchain + "'");
  }
  for (const auto& d : a.include_dirs) request.compile.include_dirs.emplace_back(d);
  if (!a.save_dir.empty()) request.save_dir = a.save_dir;
  const SassReport report =
      a.divergence ? SassReport::divergence : a.print ? SassReport::print : SassReport::summary;
  if (a.format != "text" && a.format != "json" && a.format != "dot")
    return usage("--format: expected text, json or dot, not '" + a.format + "'");
  std::filesystem::path dot;
  if (!a.svg_dir.empty()) {
    if (!a.divergence) return usage("--svg needs --divergence");
    dot = find_program("dot");
    if (dot.empty()) {
      std::fprintf(stderr, "gpuport sass: --svg needs Graphviz's `dot` on PATH (apt-get install graphviz)\n");
      return 2;
    }
    std::error_code ec;
    std::filesystem::create_directories(a.svg_dir, ec);
    if (ec) {
      std::fprintf(stderr, "%s: error: cannot make the folder: %s [io-error]\n", a.svg_dir.c_str(), ec.message().c_str());
      return 2;
    }
  }
  sass::SassPrintOptions print_options;
  print_options.encoding = a.encoding;

  int status = 0;
  bool first = true;
  nlohmann::ordered_json json_document = nlohmann::ordered_json::array();
  std::string content;
  for (const auto& input : a.inputs) {
    if (auto err = read_file_into(input, kMaxInputBytes, content)) {
      print_diagnostics({*err});
      status = 2;
      continue;
    }
    if (content.empty()) {
      std::fprintf(stderr, "%s: error: empty file: no SASS, cubin or CUDA source in it [empty-input]\n", input.c_str());
      status = 2;
      continue;
    }
    auto listings = sass::obtain_listings(input, content, request);
    if (!listings.diagnostics.empty()) {
      print_diagnostics(listings.diagnostics);
      status = 2;
    }
    for (const auto& listing : listings.listings) {
      sass::SassParseOptions po;
      po.file_name = listing.name;
      po.arch = listing.arch;
      auto parsed = sass::parse_sass(listing.text, po);
      std::optional<sass::Cubin> cubin;
      if (!listing.cubin.empty()) {
        // Jump tables: the targets of BRX/JMX that nvdisasm 11.8 leaves unnamed.
        auto read = sass::read_cubin(listing.cubin, listing.cubin_name.empty() ? listing.name : listing.cubin_name);
        // What the reader could not decode is said: facts (parameters, jump tables) are missing.
        print_diagnostics(read.diagnostics);
        if (has_errors(read.diagnostics)) status = std::max(status, 1);
        cubin = std::move(read.cubin);
        if (cubin)
          for (auto& program : parsed.programs)
            for (const auto& why : sass::resolve_indirect_branches(program, *cubin, listing.cubin))
              parsed.diagnostics.push_back(
                  {Severity::warning, "sass-indirect-branch", why, {listing.name, 0, 0}, {}});
      }
      print_diagnostics(parsed.diagnostics);
      if (!parsed.ok()) status = std::max(status, 1);
      for (const auto& program : parsed.programs) {
        const int arch = program.arch ? program.arch : listing.arch;
        if (!wanted_archs.empty() && std::find(wanted_archs.begin(), wanted_archs.end(), arch) == wanted_archs.end())
          continue;
        if (program.functions.empty()) continue;  // e.g. the empty sm_XX cubin an executable's fatbinary can hold
        std::vector<sass::DivergenceReport> reports;
        std::vector<std::string> graphs;  // DOT per function, drawn once for --format dot and --svg
        if (report == SassReport::divergence) {
          for (const auto& f : program.functions) reports.push_back(sass::analyze_divergence(f, arch));
          if (a.format == "dot" || !dot.empty())
            for (std::size_t k = 0; k < reports.size(); ++k)
              graphs.push_back(sass::divergence_dot(reports[k], program.functions[k]));
          if (!dot.empty())
            for (std::size_t k = 0; k < reports.size(); ++k)
              if (!write_svg(dot, a.svg_dir, input, arch, program.functions[k].name, graphs[k])) status = 2;
          if (a.format == "json") {
            // One JSON document for the whole run, printed at the end: an array of
            // {input, arch, toolchain, tools, functions}.
            nlohmann::ordered_json entry;
            entry["input"] = input;
            entry["arch"] = arch;
            entry["toolchain"] = listing.toolchain ? std::string(sass::toolchain_name(*listing.toolchain)) : "";
            entry["tools"] = listing.tools;
            entry["functions"] = sass::divergence_json_value(reports);
            json_document.push_back(std::move(entry));
            continue;
          }
        }
        std::string out = first ? "" : "\n";
        first = false;
        out += fmt::format("// {}: sm_{}", input, arch);
        if (listing.toolchain)
          out += fmt::format(" ({}: {})", sass::toolchain_name(*listing.toolchain), listing.tools);
        out += "\n";
        switch (report) {
          case SassReport::summary: out += summarise(program, cubin ? &*cubin : nullptr); break;
          case SassReport::print: out += sass::print_program(program, print_options); break;
          case SassReport::divergence:
            for (std::size_t k = 0; k < reports.size(); ++k)
              out += a.format == "dot" ? graphs[k] : sass::divergence_text(reports[k]);
            break;
        }
        write_stdout(out);
      }
    }
  }
  if (a.divergence && a.format == "json") {
    const std::string text = dump_json(std::move(json_document));
    write_stdout(text);
  }
  return status;
}

}  // namespace

Action add_sass_command(CLI::App& app) {
  auto args = std::make_shared<SassArguments>();
  CLI::App* cmd = app.add_subcommand("sass", "Read NVIDIA SASS from .cu, cubin, executable/fatbinary or nvdisasm text");
  cmd->footer(
      "Inputs: .cu (compiled for each --arch with its toolchain: cuda11 = Debian CUDA 11.8 for sm_50..sm_90,\n"
      "cuda13 = /usr/local/cuda + the nvidia-cuda-nvdisasm/-cuobjdump wheels for sm_75..sm_120), .cubin\n"
      "(disassembled by the nvdisasm of the CUDA that made it), executables/objects/fatbinaries (cuobjdump\n"
      "-sass), and nvdisasm or cuobjdump text.\n"
      "Exit status: 0 ok; 1 the listing has parse errors or the cubin parts the reader cannot decode; 2 usage,\n"
      "I/O, an empty input, or a tool missing or failing.");
  cmd->add_option("inputs", args->inputs, "Files to read")->required();
  cmd->add_flag("--print", args->print, "Print each parsed program as nvdisasm text (instead of a summary)");
  cmd->add_flag("--divergence", args->divergence,
                "Report per conditional branch: divergent or uniform, reconvergence mechanism and point");
  cmd->add_option("--format", args->format, "With --divergence: text, json or dot")->capture_default_str();
  cmd->add_flag("--encoding", args->encoding, "With --print: also print the encoding words");
  cmd->add_option("--arch", args->archs,
                  "Archs, comma-separated (sm_61,sm_80); .cu default: sm_61 sm_70 sm_75 sm_80 sm_86 sm_89 sm_90 "
                  "sm_100 sm_120. For other inputs: only these archs are shown");
  cmd->add_option("--toolchain", args->toolchain, "cuda11, cuda13 or auto (11.8 up to sm_90, 13 beyond)")
      ->capture_default_str();
  // One folder per -I: `-I DIR FILE` must not take FILE as a second folder.
  cmd->add_option("-I", args->include_dirs, "Include folder for compiling .cu inputs")->allow_extra_args(false);
  cmd->add_option("--save-temps", args->save_dir, "Keep the cubins and listings made from the inputs in DIR");
  cmd->add_option("--svg", args->svg_dir,
                  "With --divergence: also draw each function's CFG (divergent branches and reconvergence points "
                  "marked) as DIR/<input>.sm_<arch>.<function>.svg with Graphviz's dot");
  return [args] { return run_sass(*args); };
}

}  // namespace gpuport::cli
