#include "tune/tune.h"

#include <elf.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
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

PrepareResult prepare_tuning(const TuneRequest& request) {
  PrepareResult result;
  const fs::path& dir = request.work_dir;
  const std::string input_name = request.input.string();
  auto fail = [&](std::string code, std::string message) {
    result.diagnostics.push_back(error(input_name, std::move(code), std::move(message)));
    return result;
  };
  std::error_code ec;
  fs::create_directories(dir / "candidates", ec);
  if (ec) return fail("io-error", "cannot create " + (dir / "candidates").string() + ": " + ec.message());
  for (const auto& e : fs::directory_iterator(dir / "candidates", ec))
    if (e.path().extension() == ".cubin" || e.path().extension() == ".rejected") fs::remove(e.path(), ec);

  auto input = read_file(request.input, kMaxInputBytes);
  if (!input) {
    result.diagnostics = input.diagnostics();
    return result;
  }
  const fs::path original_path = dir / "original.cubin";
  const bool from_source = !sass::is_elf(*input);
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
  auto cubin = sass::read_cubin(*original_bytes, original_path.string());
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
    std::vector<std::string> problems;
    auto again = disassemble(tc, path, rewritten.bytes);
    const sass::SassFunction* g = again ? again->find_function(function->name) : nullptr;
    if (g == nullptr) {
      problems.push_back("the rewritten cubin does not disassemble to the kernel" +
                         (again.diagnostics().empty() ? std::string() : ": " + format_diagnostic(again.diagnostics().front())));
    } else {
      ReorderProof proof = prove_reordering(schedule, *g, c.stalls);
      problems = proof.problems;
      if (proof.proved() && proof.recovered != c.order) problems.push_back("the disassembly shows another order than the one written");
      if (problems.empty()) {
        auto elf = sass::dump_elf(tc, path);
        if (!elf.ok) problems.push_back(elf.message);
        else
          problems = check_offset_lists(original_lists, offset_lists_from_cuobjdump(elf.output, function->name), *function, *g,
                                        proof.recovered);
      }
    }
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
  if (auto err = write_file_atomic(dir / "tune.json", manifest.dump(1) + "\n", {.durable = false})) result.diagnostics.push_back(*err);
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
  for (const json& c : manifest["candidates"]) {
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
    }
    m.candidates.push_back(std::move(mc));
  }
  // The output: the measured winner, or the original when nothing won.
  auto chosen_bytes = read_file(dir / chosen_file, 256u << 20);
  if (!chosen_bytes) {
    m.diagnostics = chosen_bytes.diagnostics();
    return m;
  }
  if (auto err = write_file_atomic(output, *chosen_bytes)) {
    m.diagnostics.push_back(*err);
    return m;
  }
  // Recalibration: the model's class latencies fitted to the measured ratios.
  auto original_bytes = read_file(dir / "original.cubin", 256u << 20);
  std::vector<CalibrationSample> samples;
  json calibration = json::object();
  if (original_bytes) {
    auto id = sass::identify_cubin(*original_bytes);
    sass::Toolchain tc = sass::detect_toolchain(id ? id->toolchain : sass::ToolchainId::cuda11);
    auto program = disassemble(tc, dir / "original.cubin", *original_bytes);
    const sass::SassFunction* f = program ? program->find_function(m.kernel) : nullptr;
    if (f != nullptr) {
      auto latencies = manifest.value("latencies", std::vector<std::pair<std::string, int>>{});
      KernelSchedule schedule = analyse_schedule(*f, program->arch, with_latencies(builtin_tune_opcode_table(), latencies));
      for (std::size_t i = 0; i < m.candidates.size(); ++i)
        if (m.candidates[i].status == "ok" && m.candidates[i].median_us > 0)
          samples.push_back({manifest["candidates"][i]["order"].get<Order>(), m.candidates[i].median_us / m.original_us,
                             manifest["candidates"][i].value("stalls", StallPlan{})});
      CostModel fitted = calibrate(schedule, CostModel{}, samples, &m.calibration_error_before, &m.calibration_error_after);
      for (int c = 0; c < kLatencyClasses; ++c)
        calibration["scale"][std::string(latency_class_name(static_cast<LatencyClass>(c)))] = fitted.scale[c];
      calibration["samples"] = samples.size();
      calibration["squared_error_before"] = m.calibration_error_before;
      calibration["squared_error_after"] = m.calibration_error_after;
      (void)write_file_atomic(dir / "calibration.json", calibration.dump(1) + "\n", {.durable = false});
    }
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
