#include "tune/tune.h"

#include <elf.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <cstring>
#include <map>
#include <set>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/temporary.h"
#include "common/json.h"
#include "common/process.h"
#include "sass/cubin.h"
#include "sass/indirect_branches.h"
#include "sass/parser.h"
#include "sass/printer.h"
#include "sass/toolchain.h"
#include "tune/latency_bench.h"
#include "tune/proof.h"
#include "tune/rewrite.h"

namespace gpuport::tune {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uint64_t kMaxInputBytes = 256u << 20;

Diagnostic error(const std::string& file, std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location = {file, 0, 0};
  return d;
}

std::string hex_address(std::uint64_t a) {
  char b[24];
  std::snprintf(b, sizeof b, "/*%04llx*/", static_cast<unsigned long long>(a));
  return b;
}

// The listing of `cubin` by its own toolchain's nvdisasm, with jump tables resolved.
Result<sass::SassProgram> disassemble(const sass::Toolchain& tc, const fs::path& cubin_path, std::string_view bytes) {
  auto run = sass::disassemble_cubin(tc, cubin_path);
  if (!run.ok) return error(cubin_path.string(), "tool-failed", run.message);
  sass::SassParseOptions options;
  options.file_name = cubin_path.string();
  auto parsed = sass::parse_sass(run.output, options);
  if (!parsed.ok() || parsed.programs.size() != 1) {
    auto r = Result<sass::SassProgram>::failure(parsed.diagnostics);
    if (r.diagnostics().empty()) r.diagnostics().push_back(error(cubin_path.string(), "bad-listing", "nvdisasm's listing has no program"));
    return r;
  }
  sass::SassProgram program = std::move(parsed.programs.front());
  auto cubin = sass::read_cubin(bytes, cubin_path.string());
  if (cubin.ok()) sass::resolve_indirect_branches(program, *cubin.cubin, bytes);
  return program;
}

// Why the cubin at `path` (holding `bytes`) is not the kernel `function` reordered to `order`
// with `stalls` raised, legally: empty when proved. The proof reads the bytes back with
// nvdisasm and cuobjdump -elf (proof.h).
std::vector<std::string> prove_candidate(const sass::Toolchain& tc, const KernelSchedule& schedule, const sass::SassFunction& function,
                                         const std::map<std::string, std::vector<std::uint32_t>>& original_lists, const fs::path& path,
                                         std::string_view bytes, const Order& order, const StallPlan& stalls) {
  std::vector<std::string> problems;
  auto again = disassemble(tc, path, bytes);
  const sass::SassFunction* g = again ? again->find_function(function.name) : nullptr;
  if (g == nullptr)
    return {"the rewritten cubin does not disassemble to the kernel" +
            (again.diagnostics().empty() ? std::string() : ": " + format_diagnostic(again.diagnostics().front()))};
  ReorderProof proof = prove_reordering(schedule, *g, stalls);
  problems = proof.problems;
  if (proof.proved() && proof.recovered != order) problems.push_back("the disassembly shows another order than the one written");
  if (!problems.empty()) return problems;
  auto elf = sass::dump_elf(tc, path);
  if (!elf.ok) return {elf.message};
  return check_offset_lists(original_lists, offset_lists_from_cuobjdump(elf.output, function.name), function, *g, proof.recovered);
}

// The entry named exactly `name`, or the only entry whose name contains it.
const sass::SassFunction* find_kernel(const sass::SassProgram& program, const std::string& name, std::string& why) {
  if (const sass::SassFunction* f = program.find_function(name)) return f;
  std::vector<const sass::SassFunction*> matches;
  std::string entries;
  for (const sass::SassFunction& f : program.functions) {
    if (!f.is_entry) continue;
    entries += (entries.empty() ? "" : ", ") + f.name;
    if (name.empty() || f.name.find(name) != std::string::npos) matches.push_back(&f);
  }
  if (matches.size() == 1) return matches.front();
  why = (matches.empty() ? "no kernel matches '" + name + "'" : "'" + name + "' names more than one kernel") +
        "; the kernels are: " + entries;
  return nullptr;
}

// The instructions that moved, farthest first (a rotation moves one instruction far and shifts
// its neighbours by one slot: the far one is what a reader wants to see).
std::vector<std::string> describe_moves(const sass::SassFunction& f, const Order& order, std::size_t limit) {
  std::vector<std::pair<long, std::string>> moves;
  for (std::size_t slot = 0; slot < order.size(); ++slot) {
    if (order[slot] == slot) continue;
    long displacement = static_cast<long>(slot) - static_cast<long>(order[slot]);
    const sass::SassInstruction& inst = f.instructions[order[slot]];
    moves.push_back({-std::labs(displacement), sass::print_instruction(inst) + "  " + hex_address(inst.address) + " -> " +
                                                   hex_address(16 * slot) + (displacement < 0 ? " (up " : " (down ") +
                                                   std::to_string(std::labs(displacement)) + ")"});
  }
  std::stable_sort(moves.begin(), moves.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < moves.size() && i < limit; ++i) out.push_back(moves[i].second);
  return out;
}

// Parameter sizes in ordinal order, and module globals a launch can read (name:size), for the
// capture hook.
std::string parameter_sizes(const sass::CubinKernel& kernel) {
  std::vector<sass::KernelParameter> params = kernel.parameters;
  std::sort(params.begin(), params.end(), [](const auto& a, const auto& b) { return a.ordinal < b.ordinal; });
  std::string out;
  for (const auto& p : params) out += (out.empty() ? "" : ",") + std::to_string(p.size);
  return out;
}
std::string module_globals(const sass::Cubin& cubin) {
  std::string out;
  for (const sass::CubinSymbol& s : cubin.symbols) {
    if ((s.info & 0xf) != STT_OBJECT || s.section >= cubin.sections.size() || s.size == 0) continue;
    const std::string& section = cubin.sections[s.section].name;
    if (section.starts_with(".nv.global") || section == ".nv.constant3")
      out += (out.empty() ? "" : ",") + s.name + ":" + std::to_string(s.size);
  }
  return out;
}

std::string harness_path() { return std::string(GPUPORT_BINARY_DIR) + "/bin/gpuport-tune-harness"; }
std::string capture_source_path() { return std::string(GPUPORT_SOURCE_DIR) + "/src/tune/device/capture.cc"; }

// What tune.json says a prepared folder holds. Only names inside the folder count: a manifest
// that came back from a GPU machine is input like any other.
constexpr std::string_view kMadeBy = "gpuport tune --prepare";

bool is_name_inside(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find('\0') != std::string::npos) return false;
  const fs::path p(name);
  for (const fs::path& part : p)
    if (part == ".." || part == "." || part.empty()) return false;
  return true;
}

// The candidate file a manifest row may name: candidates/<id>.cubin, the id of plain characters.
bool is_candidate_file(const std::string& id, const std::string& file) {
  if (id.empty() || id.size() > 64 || id.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != std::string::npos)
    return false;
  return file == "candidates/" + id + ".cubin";
}

// The files an earlier --prepare made in `dir` (from its tune.json), or why `dir` may not be
// prepared into: a folder that holds anything and is not a tune folder is the user's.
struct EarlierPreparation {
  bool exists = false;                // the folder exists (empty or a tune folder)
  bool empty = true;
  std::vector<std::string> files;     // relative names, each inside the folder
  std::string kernel;
};

Result<EarlierPreparation> inspect_work_dir(const fs::path& dir) {
  EarlierPreparation e;
  std::error_code ec;
  const auto status = fs::symlink_status(dir, ec);
  if (ec || !fs::exists(status)) return e;
  if (!fs::is_directory(status))
    return error(dir.string(), "tune-folder-not-ours", "exists and is not a folder: name a new or empty folder for --prepare");
  e.exists = true;
  e.empty = fs::is_empty(dir, ec);
  if (e.empty) return e;
  auto text = read_file(dir / "tune.json", 64u << 20);
  json manifest = text ? json::parse(*text, nullptr, false) : json();
  const bool ours = manifest.is_object() && manifest.contains("candidates") && manifest["candidates"].is_array() &&
                    manifest.contains("kernel") && manifest["kernel"].is_string();
  if (!ours)
    return error(dir.string(), "tune-folder-not-ours",
                 "is not empty and is not a folder gpuport tune --prepare made (no tune.json of gpuport's): nothing in it was "
                 "changed; name a new or empty folder");
  e.kernel = manifest["kernel"].get<std::string>();
  std::vector<std::string> names;
  if (manifest.contains("files") && manifest["files"].is_array()) {
    for (const json& f : manifest["files"])
      if (f.is_string()) names.push_back(f.get<std::string>());
  } else {
    // Made before tune.json listed its files: the names --prepare has always written.
    names = {"original.cubin", "tune.json", "harness.args", "capture.env", "program.args", "tune-harness", "program"};
    for (const json& c : manifest["candidates"])
      if (c.is_object() && c.contains("file") && c["file"].is_string()) names.push_back(c["file"].get<std::string>());
    if (manifest.contains("rejected") && manifest["rejected"].is_array())
      for (const json& r : manifest["rejected"])
        if (r.is_string()) names.push_back("candidates/" + r.get<std::string>().substr(0, r.get<std::string>().find(':')) + ".rejected");
  }
  // What the GPU step wrote for the earlier candidates: stale once they are replaced.
  for (const char* gpu_output : {"measurements.tsv", "harness.log"}) names.push_back(gpu_output);
  for (const std::string& n : names)
    if (is_name_inside(n)) e.files.push_back(n);
  return e;
}

// Every file under `root`, as names relative to it.
std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (!it->is_directory()) out.push_back(fs::relative(it->path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

// Moves the staged preparation into `dir`: the whole folder when `dir` is new or empty, else
// file by file after the earlier preparation's files are removed. Nothing is removed when a
// new file would replace one the earlier preparation did not make.
std::optional<Diagnostic> commit_preparation(const fs::path& stage, const fs::path& dir, const EarlierPreparation& earlier,
                                             const std::vector<std::string>& made, bool rebuilt_program) {
  std::error_code ec;
  if (!earlier.exists || earlier.empty) {
    if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
    // The staging folder was made private (0700); the prepared folder gets the usual mode.
    fs::permissions(stage, static_cast<fs::perms>(0777 & ~current_umask()), ec);
    if (::rename(stage.c_str(), dir.c_str()) != 0)
      return error(dir.string(), "io-error", std::string("cannot move the prepared folder into place: ") + std::strerror(errno));
    return std::nullopt;
  }
  std::set<std::string> owned(earlier.files.begin(), earlier.files.end());
  if (rebuilt_program) owned.insert("capture.bin");  // the program's capture: made again by the new program
  for (const std::string& f : made)
    if (!owned.count(f) && fs::exists(fs::symlink_status(dir / f, ec)))
      return error((dir / f).string(), "tune-folder-not-ours",
                   "was not made by the earlier gpuport tune --prepare in this folder and would be replaced: nothing was changed");
  for (const std::string& f : owned) fs::remove(dir / f, ec);
  for (const std::string& f : made) {
    fs::create_directories((dir / f).parent_path(), ec);
    if (::rename((stage / f).c_str(), (dir / f).c_str()) != 0)
      return error((dir / f).string(), "io-error", std::string("cannot move into place: ") + std::strerror(errno));
  }
  return std::nullopt;
}

// What is said about the staged files names the prepared folder and the user's input instead.
void name_user_paths(PrepareResult& result, const fs::path& stage, const fs::path& dir, const std::string& original_name) {
  auto rename_in = [&](std::string& text) {
    for (const auto& [from, to] : {std::pair{(stage / "original.cubin").string(), original_name}, {stage.string(), dir.string()}})
      for (std::size_t at; !from.empty() && (at = text.find(from)) != std::string::npos;) text.replace(at, from.size(), to);
  };
  for (Diagnostic& d : result.diagnostics) {
    rename_in(d.location.file);
    rename_in(d.message);
  }
  rename_in(result.program_note);
}

}  // namespace

Result<CostModel> read_calibration(const fs::path& file) {
  auto text = read_file(file, 1 << 20);
  if (!text) return Result<CostModel>::failure(text.diagnostics());
  json j = json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.contains("scale") || !j["scale"].is_object())
    return error(file.string(), "bad-calibration", "not a calibration.json written by gpuport tune --measure");
  CostModel model;
  for (int c = 0; c < kLatencyClasses; ++c) {
    std::string name(latency_class_name(static_cast<LatencyClass>(c)));
    if (!j["scale"].contains(name) || !j["scale"][name].is_number())
      return error(file.string(), "bad-calibration", "the scale of class '" + name + "' is missing");
    double v = j["scale"][name].get<double>();
    if (!(v > 0 && v < 1000)) return error(file.string(), "bad-calibration", "the scale of class '" + name + "' is out of range");
    model.scale[c] = v;
  }
  return model;
}

namespace {

// The preparation itself, into `dir` (a staging folder): everything --prepare writes.
// `original_name` says what original.cubin is to the user, for messages.
PrepareResult prepare_staged(const TuneRequest& request, const fs::path& dir, std::string& original_name) {
  PrepareResult result;
  const std::string input_name = request.input.string();
  original_name = input_name;
  auto fail = [&](std::string code, std::string message) {
    result.diagnostics.push_back(error(input_name, std::move(code), std::move(message)));
    return result;
  };
  std::error_code ec;
  fs::create_directories(dir / "candidates", ec);
  if (ec) return fail("io-error", "cannot create " + (dir / "candidates").string() + ": " + ec.message());

  auto input = read_file(request.input, kMaxInputBytes);
  if (!input) {
    result.diagnostics = input.diagnostics();
    return result;
  }
  const fs::path original_path = dir / "original.cubin";
  const bool from_source = !sass::is_elf(*input);
  if (from_source) original_name = input_name + " (compiled for sm_" + std::to_string(request.arch) + ")";
  sass::Toolchain tc;
  if (!from_source) {
    auto id = sass::identify_cubin(*input);
    if (!id) return fail("not-a-cubin", "an ELF file but not a CUDA cubin");
    if (id->arch < 70 || id->arch > 90)
      return fail("tune-arch", "sm_" + std::to_string(id->arch) + ": tuning covers sm_70..sm_90 (Blackwell's 64-bit integer " +
                                   "forms are not yet in the def-use width table)");
    tc = sass::detect_toolchain(id->toolchain);
    if (auto err = write_file_atomic(original_path, *input, {.durable = false})) {
      result.diagnostics.push_back(*err);
      return result;
    }
  } else {
    if (request.arch < 70 || request.arch > 90)
      return fail("tune-arch", "sm_" + std::to_string(request.arch) + ": tuning covers sm_70..sm_90");
    tc = sass::detect_toolchain(sass::default_toolchain(request.arch));
    sass::CompileOptions options;
    options.include_dirs.push_back(request.input.parent_path().empty() ? fs::path(".") : request.input.parent_path());
    options.extra_flags = request.nvcc_flags;
    auto run = sass::compile_cubin(tc, request.input, request.arch, original_path, options);
    if (!run.ok) return fail("tool-failed", run.message);
  }
  auto original_bytes = read_file(original_path, kMaxInputBytes);
  if (!original_bytes) {
    result.diagnostics = original_bytes.diagnostics();
    return result;
  }
  auto cubin = sass::read_cubin(*original_bytes, original_name);
  if (!cubin.ok()) {
    result.diagnostics = cubin.diagnostics;
    return result;
  }
  auto program = disassemble(tc, original_path, *original_bytes);
  if (!program) {
    result.diagnostics = program.diagnostics();
    return result;
  }
  std::string why;
  const sass::SassFunction* function = find_kernel(*program, request.kernel, why);
  if (function == nullptr) return fail("tune-no-kernel", why);
  result.kernel = function->name;
  TuneOpcodeTable table = builtin_tune_opcode_table();
  std::vector<std::pair<std::string, int>> latency_rows;
  if (!request.latencies.empty()) {
    auto text = read_file(request.latencies, 1 << 20);
    if (!text) {
      result.diagnostics = text.diagnostics();
      return result;
    }
    LatencyOverrides overrides = parse_latency_overrides(*text, request.latencies.string());
    if (!overrides.errors.empty()) {
      result.diagnostics = overrides.errors;
      return result;
    }
    for (const LatencyOverride& o : overrides.rows) latency_rows.emplace_back(o.opcode, o.cycles);
    std::vector<std::pair<std::string, int>>& rows = latency_rows;
    std::vector<std::string> unknown;
    table = with_latencies(table, rows, &unknown);
    for (const std::string& u : unknown) {
      Diagnostic d = error(request.latencies.string(), "tune-latency-unknown", u + " has no row in data/tune/opcodes.tsv: its latency is not used");
      d.severity = Severity::warning;
      result.diagnostics.push_back(d);
    }
  }
  KernelSchedule schedule = analyse_schedule(*function, program->arch, table);
  if (!schedule.problems.empty()) return fail("tune-not-schedulable", function->name + ": " + schedule.problems.front());
  result.instructions = function->instructions.size();
  result.blocks = schedule.blocks.size();
  for (const BlockSchedule& b : schedule.blocks) {
    result.movable_blocks += b.movable();
    result.dependences += b.dependences.size();
  }

  SearchOptions options;
  options.candidates = request.candidates;
  options.steps = request.search_steps;
  options.seed = request.seed;
  options.time_limit_s = request.search_seconds;
  CostModel model;
  if (!request.calibration.empty()) {
    auto calibrated = read_calibration(request.calibration);
    if (!calibrated) {
      result.diagnostics = calibrated.diagnostics();
      return result;
    }
    model = *calibrated;
  }
  SearchResult search = search_schedules(schedule, model, options);
  result.original_cycles = search.original_cycles;

  auto original_elf = sass::dump_elf(tc, original_path);
  if (!original_elf.ok) return fail("tool-failed", original_elf.message);
  const auto original_lists = offset_lists_from_cuobjdump(original_elf.output, function->name);
  json candidates = json::array();
  for (const Candidate& c : search.candidates) {
    RewriteResult rewritten = rewrite_cubin(*original_bytes, original_path.string(), *function, c.order, c.stalls);
    if (!rewritten.ok()) {
      // The kernel itself cannot be rewritten (an .nv.info layout not handled): no candidate can.
      result.diagnostics = rewritten.diagnostics;
      return result;
    }
    PreparedCandidate prepared;
    prepared.candidate = c;
    prepared.file = "candidates/" + c.id + ".cubin";
    prepared.reuse_cleared = rewritten.reuse_cleared;
    prepared.stalls_written = rewritten.stalls_written;
    prepared.nvinfo_offsets = rewritten.nvinfo_offsets;
    prepared.relocations = rewritten.relocations;
    const fs::path path = dir / prepared.file;
    if (auto err = write_file_atomic(path, rewritten.bytes, {.durable = false})) {
      result.diagnostics.push_back(*err);
      return result;
    }
    // The proof, from the disassembler's reading of the bytes just written.
    const std::vector<std::string> problems =
        prove_candidate(tc, schedule, *function, original_lists, path, rewritten.bytes, c.order, c.stalls);
    if (!problems.empty()) {
      // Kept beside the others, out of the measured set, for a bug report.
      fs::rename(path, dir / "candidates" / (c.id + ".rejected"), ec);
      result.rejected.push_back(c.id + ": " + problems.front());
      continue;
    }
    prepared.moves = describe_moves(*function, c.order, 12);
    json j = {{"id", c.id},
              {"file", prepared.file},
              {"strategy", c.strategy},
              {"model_cycles", c.model_cycles},
              {"model_gain", c.model_gain},
              {"moved", c.moved},
              {"reuse_cleared", prepared.reuse_cleared},
              {"stalls_raised", c.stalls_raised},
              {"stalls", c.stalls},
              {"nvinfo_offsets", prepared.nvinfo_offsets},
              {"relocations", prepared.relocations},
              {"moves", prepared.moves},
              {"order", c.order}};
    candidates.push_back(std::move(j));
    result.candidates.push_back(std::move(prepared));
  }

  // The GPU step's inputs: the program with its launch capture (from a .cu), and the harness.
  const sass::CubinKernel* kernel = cubin.cubin->find_kernel(function->name);
  std::vector<std::string> harness_args = {"--capture", "capture.bin", "--kernel", function->name, "--original",
                                           "original.cubin", "--repeat", std::to_string(request.repeat),
                                           "--out", "measurements.tsv", "--log", "harness.log"};
  for (const PreparedCandidate& p : result.candidates) harness_args.push_back(p.file);
  std::string args_text;
  for (const std::string& a : harness_args) args_text += a + "\n";
  std::string env_text = "GPUPORT_TUNE_CAPTURE=capture.bin\nGPUPORT_TUNE_KERNEL=" + function->name + "\n";
  if (kernel != nullptr) env_text += "GPUPORT_TUNE_PARAM_SIZES=" + parameter_sizes(*kernel) + "\n";
  std::string globals = module_globals(*cubin.cubin);
  if (!globals.empty()) env_text += "GPUPORT_TUNE_GLOBALS=" + globals + "\n";
  std::string run_args;
  for (const std::string& a : request.program_args) run_args += a + "\n";
  for (auto [name, text] : {std::pair{"harness.args", &args_text}, {"capture.env", &env_text}, {"program.args", &run_args}})
    if (auto err = write_file_atomic(dir / name, *text, {.durable = false})) {
      result.diagnostics.push_back(*err);
      return result;
    }
  if (fs::exists(harness_path())) fs::copy_file(harness_path(), dir / "tune-harness", fs::copy_options::overwrite_existing, ec);
  if (from_source) {
    std::vector<std::string> flags = request.nvcc_flags;
    flags.insert(flags.end(), {"-O3", "-arch=sm_" + std::to_string(request.arch),
                               "-I" + (request.input.parent_path().empty() ? std::string(".") : request.input.parent_path().string()),
                               capture_source_path(), "-Xlinker", "--wrap=cudaLaunchKernel", "-Xlinker", "--export-dynamic", "-ldl"});
    auto built = sass::build_executable(tc, request.input, dir / "program", flags);
    result.program_built = built.ok;
    result.program_note = built.ok ? "built " + (dir / "program").string() + " with the launch capture" : built.message;
  } else {
    result.program_note = "a cubin alone has no inputs: put a capture (made by the program's run) at " + (dir / "capture.bin").string();
  }
  json manifest = {{"kernel", function->name},
                   {"arch", program->arch},
                   {"input", input_name},
                   {"instructions", result.instructions},
                   {"blocks", result.blocks},
                   {"dependences", result.dependences},
                   {"original_cycles", result.original_cycles},
                   {"legal_moves_tried", search.legal_moves_tried},
                   {"legal_moves_accepted", search.legal_moves_accepted},
                   {"search_stopped_by_time", search.stopped_by_time},
                   {"candidates", candidates},
                   {"latencies", latency_rows},
                   {"rejected", result.rejected}};
  // What this folder holds of gpuport's: a later --prepare into it replaces exactly these.
  std::vector<std::string> files = files_under(dir);
  files.push_back("tune.json");
  manifest["made_by"] = kMadeBy;
  manifest["files"] = files;
  if (auto err = write_file_atomic(dir / "tune.json", dump_json(manifest, 1), {.durable = false})) result.diagnostics.push_back(*err);
  return result;
}

}  // namespace

PrepareResult prepare_tuning(const TuneRequest& request) {
  PrepareResult result;
  const fs::path& dir = request.work_dir;
  auto earlier = inspect_work_dir(dir);
  if (!earlier) {
    result.diagnostics = earlier.diagnostics();
    return result;
  }
  // Everything is made in a staging folder beside `dir` and moved into place only when the
  // preparation succeeded: a failure (or a signal) leaves `dir` as it was.
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  // Missing parent folders are made, and removed again (while empty) when the preparation fails.
  std::vector<fs::path> made_parents;
  for (fs::path p = parent; !p.empty() && !fs::exists(fs::symlink_status(p)); p = p.parent_path()) {
    made_parents.push_back(p);
    if (p == p.parent_path()) break;
  }
  struct RemoveMadeParents {
    const std::vector<fs::path>& folders;
    bool keep = false;
    ~RemoveMadeParents() {
      std::error_code ignored;
      if (!keep)
        for (const fs::path& p : folders) fs::remove(p, ignored);  // deepest first; only while empty
    }
  } cleanup{made_parents};
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) {
    result.diagnostics.push_back(error(dir.string(), "io-error", "cannot make the folder " + parent.string() + ": " + ec.message()));
    return result;
  }
  remove_stale_temporaries(parent);
  TemporaryFolder stage = TemporaryFolder::make_beside(dir);
  if (stage.empty()) {
    result.diagnostics.push_back(error(dir.string(), "io-error", std::string("cannot make a staging folder beside it: ") + std::strerror(errno)));
    return result;
  }
  std::string original_name;
  result = prepare_staged(request, stage.path(), original_name);
  name_user_paths(result, stage.path(), dir, original_name);
  if (!result.ok()) return result;
  if (auto err = commit_preparation(stage.path(), dir, *earlier, files_under(stage.path()), result.program_built)) {
    result.diagnostics.push_back(*err);
    return result;
  }
  cleanup.keep = true;
  if (earlier->exists && !earlier->empty) {
    Diagnostic note = error(dir.string(), "tune-folder-replaced",
                            "held an earlier preparation (kernel " + earlier->kernel + "): its files and measurements were replaced");
    note.severity = Severity::note;
    result.diagnostics.push_back(note);
  }
  return result;
}

RunResult run_prepared(const fs::path& dir, double budget_s) {
  RunResult r;
  // Is there a GPU? The harness asks the driver (a machine may have libcuda and no device).
  {
    ProcessOptions probe;
    probe.timeout = std::chrono::seconds(60);
    auto run = run_process({fs::absolute(dir / "tune-harness").string(), "--probe"}, probe);
    if (run.exit_code == 3) {
      r.no_gpu = true;
      std::string why = run.err;
      while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
      r.message = why.empty() ? "no CUDA device here" : why;
      return r;
    }
    if (!run.succeeded()) {
      r.message = "`" + run.command_line + "` " + run.outcome() + ": " + run.err.substr(0, 2000);
      return r;
    }
  }
  auto lines = [&](const char* name) {
    std::vector<std::string> out;
    auto text = read_file(dir / name, 1 << 20);
    if (!text) return out;
    std::string_view t = *text;
    while (!t.empty()) {
      std::size_t nl = t.find('\n');
      std::string_view line = t.substr(0, nl);
      if (!line.empty()) out.emplace_back(line);
      t = nl == std::string_view::npos ? std::string_view{} : t.substr(nl + 1);
    }
    return out;
  };
  ProcessOptions po;
  po.working_directory = dir;
  po.timeout = std::chrono::minutes(10);
  std::error_code ec;
  if (fs::exists(dir / "program") && !fs::exists(dir / "capture.bin", ec)) {
    for (const std::string& kv : lines("capture.env")) {
      std::size_t eq = kv.find('=');
      if (eq != std::string::npos) po.environment[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    std::vector<std::string> argv{fs::absolute(dir / "program").string()};
    for (const std::string& a : lines("program.args")) argv.push_back(a);
    auto run = run_process(argv, po);
    if (!fs::exists(dir / "capture.bin", ec)) {
      r.message = "the program made no capture (" + run.outcome() + "): " + run.err.substr(0, 2000);
      return r;
    }
    po.environment.clear();
  }
  std::vector<std::string> argv{fs::absolute(dir / "tune-harness").string()};
  for (const std::string& a : lines("harness.args")) argv.push_back(a);
  po.timeout = std::chrono::milliseconds(static_cast<long long>(budget_s * 1000));
  auto run = run_process(argv, po);
  r.output = run.out;
  r.no_gpu = run.exit_code == 3;
  r.ok = run.succeeded();
  if (!r.ok) r.message = "`" + run.command_line + "` " + run.outcome() + ": " + run.err.substr(0, 2000);
  return r;
}

MeasureResult measure_tuning(const fs::path& dir, const fs::path& output) {
  MeasureResult m;
  auto fail = [&](const fs::path& file, std::string code, std::string message) {
    m.diagnostics.push_back(error(file.string(), std::move(code), std::move(message)));
    return m;
  };
  auto manifest_text = read_file(dir / "tune.json", 64u << 20);
  if (!manifest_text) {
    m.diagnostics = manifest_text.diagnostics();
    return m;
  }
  json manifest = json::parse(*manifest_text, nullptr, false);
  if (manifest.is_discarded() || !manifest.contains("candidates")) return fail(dir / "tune.json", "bad-manifest", "not a tune.json made by gpuport tune --prepare");
  m.kernel = manifest.value("kernel", "");
  auto table_text = read_file(dir / "measurements.tsv", 16u << 20);
  if (!table_text) {
    m.diagnostics = table_text.diagnostics();
    return m;
  }
  auto rows = read_measurements(*table_text, (dir / "measurements.tsv").string());
  if (!rows) {
    m.diagnostics = rows.diagnostics();
    return m;
  }
  const Measurement* original = nullptr;
  std::map<std::string, const Measurement*> by_id;
  for (const Measurement& row : *rows) {
    if (row.id == "original") original = &row;
    else by_id[row.id] = &row;
  }
  if (original == nullptr || original->status != "ok" || original->median_us <= 0)
    return fail(dir / "measurements.tsv", "bad-measurements", "no valid measurement of the original kernel");
  m.original_us = original->median_us;
  m.original_mad_us = original->mad_us;
  m.chosen = "original";
  std::string chosen_file = "original.cubin";
  const json* chosen_row = nullptr;
  for (const json& c : manifest["candidates"]) {
    // Only candidates/<id>.cubin inside this folder: a manifest naming any other file (an
    // absolute path, ../) is refused before anything is read or written.
    if (!c.is_object() || !c.contains("id") || !c["id"].is_string() || !c.contains("file") || !c["file"].is_string() ||
        !is_candidate_file(c["id"].get<std::string>(), c["file"].get<std::string>()))
      return fail(dir / "tune.json", "bad-manifest",
                  "a candidate row names " + (c.is_object() && c.contains("file") ? c["file"].dump() : std::string("no file")) +
                      ", not candidates/<id>.cubin of its own id: nothing was written");
    MeasuredCandidate mc;
    mc.id = c.value("id", "");
    mc.strategy = c.value("strategy", "");
    mc.model_gain = c.value("model_gain", 0.0);
    mc.moved = c.value("moved", std::size_t{0});
    mc.moves = c.value("moves", std::vector<std::string>{});
    auto it = by_id.find(mc.id);
    if (it == by_id.end()) {
      mc.status = "not-measured";
    } else {
      mc.status = it->second->status;
      mc.detail = it->second->detail;
      mc.median_us = it->second->median_us;
      mc.mad_us = it->second->mad_us;
      if (mc.status == "ok" && mc.median_us > 0) mc.gain = m.original_us / mc.median_us - 1;
    }
    const double noise = 3 * std::max(mc.mad_us, m.original_mad_us) / m.original_us;
    if (mc.status == "ok" && mc.gain > std::max(kMinimumGain, noise) && mc.gain > m.chosen_gain) {
      m.chosen = mc.id;
      m.chosen_gain = mc.gain;
      chosen_file = c.value("file", "");
      chosen_row = &c;
    }
    m.candidates.push_back(std::move(mc));
  }
  // The files read are regular files of this folder, not links out of it.
  for (const std::string& name : {std::string("original.cubin"), chosen_file}) {
    struct stat st {};
    if (::lstat((dir / name).c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      return fail(dir / name, "bad-manifest", "is not a regular file of the prepared folder (a link or missing): nothing was written");
  }
  auto original_bytes = read_file(dir / "original.cubin", 256u << 20);
  if (!original_bytes) {
    m.diagnostics = original_bytes.diagnostics();
    return m;
  }
  auto id = sass::identify_cubin(*original_bytes);
  if (!id) return fail(dir / "original.cubin", "not-a-cubin", "is not a CUDA cubin: nothing was written");
  const sass::Toolchain tc = sass::detect_toolchain(id->toolchain);
  auto program = disassemble(tc, dir / "original.cubin", *original_bytes);
  const sass::SassFunction* f = program ? program->find_function(m.kernel) : nullptr;
  if (f == nullptr) return fail(dir / "original.cubin", "tune-no-kernel", "does not hold the kernel " + m.kernel + ": nothing was written");
  auto latencies = manifest.value("latencies", std::vector<std::pair<std::string, int>>{});
  const KernelSchedule schedule = analyse_schedule(*f, program->arch, with_latencies(builtin_tune_opcode_table(), latencies));

  // The winner is proved again before it is written: the folder went to another machine and
  // came back, and the proof is cheap.
  auto chosen_bytes = read_file(dir / chosen_file, 256u << 20);
  if (!chosen_bytes) {
    m.diagnostics = chosen_bytes.diagnostics();
    return m;
  }
  if (chosen_row != nullptr) {
    auto original_elf = sass::dump_elf(tc, dir / "original.cubin");
    if (!original_elf.ok) return fail(dir / "original.cubin", "tool-failed", original_elf.message);
    const auto problems = prove_candidate(tc, schedule, *f, offset_lists_from_cuobjdump(original_elf.output, f->name), dir / chosen_file,
                                          *chosen_bytes, chosen_row->value("order", Order{}), chosen_row->value("stalls", StallPlan{}));
    if (!problems.empty())
      return fail(dir / chosen_file, "tune-proof-failed",
                  "the measured winner " + m.chosen + " is no longer a proved reordering of original.cubin (" + problems.front() +
                      "): nothing was written");
  }
  if (auto err = write_file_atomic(output, *chosen_bytes)) {
    m.diagnostics.push_back(*err);
    return m;
  }
  // Recalibration: the model's class latencies fitted to the measured ratios.
  std::vector<CalibrationSample> samples;
  json calibration = json::object();
  {
    const json& rows = manifest["candidates"];
    for (std::size_t i = 0; i < m.candidates.size(); ++i)
      if (m.candidates[i].status == "ok" && m.candidates[i].median_us > 0)
        samples.push_back({rows[i].value("order", Order{}), m.candidates[i].median_us / m.original_us, rows[i].value("stalls", StallPlan{})});
    CostModel fitted = calibrate(schedule, CostModel{}, samples, &m.calibration_error_before, &m.calibration_error_after);
    for (int c = 0; c < kLatencyClasses; ++c)
      calibration["scale"][std::string(latency_class_name(static_cast<LatencyClass>(c)))] = fitted.scale[c];
    calibration["samples"] = samples.size();
    calibration["squared_error_before"] = m.calibration_error_before;
    calibration["squared_error_after"] = m.calibration_error_after;
    (void)write_file_atomic(dir / "calibration.json", calibration.dump(1) + "\n", {.durable = false});
  }
  // The report.
  std::string& out = m.report;
  char line[512];
  std::snprintf(line, sizeof line, "kernel %s: original %.3f us (MAD %.3f)\n", m.kernel.c_str(), m.original_us, m.original_mad_us);
  out += line;
  std::snprintf(line, sizeof line, "%-10s %-14s %10s %12s %9s %7s  %s\n", "candidate", "status", "model", "measured us", "gain", "moved",
                "strategy");
  out += line;
  for (const MeasuredCandidate& c : m.candidates) {
    std::snprintf(line, sizeof line, "%-10s %-14s %+9.1f%% %12.3f %+8.1f%% %7zu  %s\n", c.id.c_str(), c.status.c_str(),
                  100 * c.model_gain, c.median_us, 100 * c.gain, c.moved, c.strategy.c_str());
    out += line;
  }
  if (m.chosen == "original") {
    out += "kept the original: no candidate beat it by more than " + std::to_string(static_cast<int>(100 * kMinimumGain)) +
           "% and three times the noise\n";
  } else {
    std::snprintf(line, sizeof line, "kept %s: %+.1f%% measured\n", m.chosen.c_str(), 100 * m.chosen_gain);
    out += line;
    for (const MeasuredCandidate& c : m.candidates)
      if (c.id == m.chosen)
        for (const std::string& move : c.moves) out += "  " + move + "\n";
  }
  if (!samples.empty()) {
    std::snprintf(line, sizeof line, "cost model recalibrated on %zu measurements: squared error %.4g -> %.4g (calibration.json)\n",
                  samples.size(), m.calibration_error_before, m.calibration_error_after);
    out += line;
  }
  out += "wrote " + output.string() + "\n";
  return m;
}

}  // namespace gpuport::tune
