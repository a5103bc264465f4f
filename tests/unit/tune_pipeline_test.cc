// The `gpuport tune` pipeline (src/tune/tune.h): --prepare on a committed cubin lays out what the
// GPU machine needs, and --measure keeps a candidate only when its measured gain beats the
// noise, never one with a wrong output. The measurements here are written by the test (the rule
// under test is the decision, not a GPU figure); preparing needs CUDA 11.8's tools.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "sass/cubin.h"
#include "sass/toolchain.h"
#include "tune/measure_stats.h"
#include "tune/tables.h"
#include "tune/tune.h"
#include "unit/sass_listing_util.h"
#include "unit/tune_test_util.h"

namespace gpuport::tune {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("gpuport-tune-pipeline-" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) { return sass::testing::read_text(p); }

// A quick preparation of reduce_shared (sm_90) into `work_dir`.
TuneRequest small_request(const fs::path& work_dir) {
  TuneRequest r;
  r.input = sass::testing::listings_root() / "sm_90" / "reduce_shared.cubin";
  r.kernel = "reduce_shared";
  r.candidates = 2;
  r.search_steps = 500;
  r.work_dir = work_dir;
  return r;
}

// A prepared folder for reduce_shared (sm_90), made once.
const fs::path& prepared() {
  static const fs::path dir = [] {
    fs::path d = fresh_dir("prepared");
    TuneRequest r = small_request(d);
    r.candidates = 4;
    r.search_steps = 3000;
    PrepareResult p = prepare_tuning(r);
    EXPECT_TRUE(p.ok()) << (p.diagnostics.empty() ? "" : format_diagnostic(p.diagnostics.front()));
    return d;
  }();
  return dir;
}

bool tools_missing(std::string& why) {
  auto tc = sass::detect_toolchain(sass::ToolchainId::cuda11);
  if (auto w = tc.unavailable(sass::Tool::nvdisasm)) why = *w;
  else if (auto w2 = tc.unavailable(sass::Tool::cuobjdump)) why = *w2;
  return !why.empty();
}
#define REQUIRE_TOOLS()                                                                     \
  do {                                                                                      \
    std::string why;                                                                        \
    if (tools_missing(why)) GTEST_SKIP() << "SKIPPED: needs CUDA 11.8 nvdisasm/cuobjdump: " << why; \
  } while (0)

TEST(TunePipeline, PrepareLaysOutWhatTheGpuMachineRuns) {
  REQUIRE_TOOLS();
  const fs::path& d = prepared();
  nlohmann::json manifest = nlohmann::json::parse(slurp(d / "tune.json"));
  EXPECT_EQ(manifest["kernel"], "reduce_shared");
  ASSERT_FALSE(manifest["candidates"].empty());
  std::string args = slurp(d / "harness.args");
  for (const auto& c : manifest["candidates"]) {
    std::string file = c["file"];
    EXPECT_TRUE(fs::exists(d / file)) << file;
    EXPECT_NE(args.find(file + "\n"), std::string::npos) << file;
    EXPECT_EQ(c["order"].size(), manifest["instructions"].get<std::size_t>());
  }
  EXPECT_NE(args.find("--kernel\nreduce_shared\n"), std::string::npos);
  // The capture hook learns the parameter sizes from the cubin.
  std::string bytes = slurp(d / "original.cubin");
  auto cubin = sass::read_cubin(bytes);
  ASSERT_TRUE(cubin.ok());
  std::string sizes;
  for (const auto& p : cubin.cubin->find_kernel("reduce_shared")->parameters) sizes += std::to_string(p.size) + ",";
  std::string env = slurp(d / "capture.env");
  EXPECT_NE(env.find("GPUPORT_TUNE_KERNEL=reduce_shared\n"), std::string::npos);
  EXPECT_NE(env.find("GPUPORT_TUNE_PARAM_SIZES="), std::string::npos);
  EXPECT_TRUE(fs::exists(d / "tune-harness"));
  EXPECT_FALSE(fs::exists(d / "program"));  // a cubin alone: no program to capture inputs from
}

// Writes measurements.tsv for the prepared folder: the original at 100 us, candidate i as given.
fs::path with_measurements(const std::string& name, const std::vector<Measurement>& candidates, bool with_original = true) {
  fs::path d = fresh_dir(name);
  for (const auto& e : fs::recursive_directory_iterator(prepared())) {
    fs::path to = d / fs::relative(e.path(), prepared());
    if (e.is_directory()) fs::create_directories(to);
    else fs::copy_file(e.path(), to, fs::copy_options::overwrite_existing);
  }
  std::vector<Measurement> rows;
  if (with_original) rows.push_back({"original", "original.cubin", "ok", "", 100.0, 99.0, 0.2, 15});
  rows.insert(rows.end(), candidates.begin(), candidates.end());
  std::ofstream(d / "measurements.tsv") << write_measurements(rows);
  return d;
}

TEST(TunePipeline, MeasureKeepsAWinnerBeyondTheNoise) {
  REQUIRE_TOOLS();
  fs::path d = with_measurements("winner", {{"c01", "candidates/c01.cubin", "ok", "", 97.0, 96.5, 0.2, 15},
                                            {"c02", "candidates/c02.cubin", "ok", "", 90.0, 89.0, 0.3, 15}});
  MeasureResult m = measure_tuning(d, d / "tuned.cubin");
  ASSERT_TRUE(m.ok()) << format_diagnostic(m.diagnostics.front());
  if (!fs::exists(d / "candidates" / "c02.cubin")) GTEST_SKIP() << "SKIPPED: the search made fewer than 2 candidates";
  EXPECT_EQ(m.chosen, "c02");
  EXPECT_NEAR(m.chosen_gain, 100.0 / 90.0 - 1, 1e-9);
  EXPECT_EQ(slurp(d / "tuned.cubin"), slurp(d / "candidates" / "c02.cubin"));
  EXPECT_NE(m.report.find("kept c02"), std::string::npos) << m.report;
  EXPECT_TRUE(fs::exists(d / "calibration.json"));
  // The next batch is ranked by the recalibrated model.
  auto model = read_calibration(d / "calibration.json");
  ASSERT_TRUE(model.ok()) << format_diagnostic(model.diagnostics().front());
  TuneRequest next;
  next.input = d / "original.cubin";
  next.kernel = "reduce_shared";
  next.candidates = 2;
  next.search_steps = 1000;
  next.work_dir = d / "round2";
  next.calibration = d / "calibration.json";
  PrepareResult p = prepare_tuning(next);
  EXPECT_TRUE(p.ok()) << format_diagnostic(p.diagnostics.front());
  std::ofstream(d / "bad.json") << "{\"scale\": {\"global\": -1}}";
  next.calibration = d / "bad.json";
  p = prepare_tuning(next);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.diagnostics.front().code, "bad-calibration");
}

TEST(TunePipeline, MeasureKeepsTheOriginalWhenNothingWinsForSure) {
  REQUIRE_TOOLS();
  // 0.5% faster (below 1%); 5% faster but noisy (MAD 4 us); 20% faster with a wrong output;
  // a fault; and one slower.
  fs::path d = with_measurements("no-winner", {{"c01", "candidates/c01.cubin", "ok", "", 99.5, 99.0, 0.1, 15},
                                               {"c02", "candidates/c02.cubin", "ok", "", 95.0, 90.0, 4.0, 15},
                                               {"c03", "candidates/c03.cubin", "wrong-output", "buffer 0", 80.0, 80.0, 0.1, 1},
                                               {"c04", "candidates/c04.cubin", "fault", "illegal instruction", 0, 0, 0, 0}});
  MeasureResult m = measure_tuning(d, d / "tuned.cubin");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m.chosen, "original");
  EXPECT_EQ(slurp(d / "tuned.cubin"), slurp(d / "original.cubin"));
  EXPECT_NE(m.report.find("kept the original"), std::string::npos);
}

TEST(TunePipeline, MeasureWithoutTheOriginalWritesNothing) {
  REQUIRE_TOOLS();
  fs::path d = with_measurements("no-original", {{"c01", "candidates/c01.cubin", "ok", "", 50.0, 50.0, 0.1, 15}}, false);
  MeasureResult m = measure_tuning(d, d / "tuned.cubin");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.diagnostics.front().message.find("original"), std::string::npos);
  EXPECT_FALSE(fs::exists(d / "tuned.cubin"));
}

TEST(TunePipeline, MeasuredLatenciesReplaceTheTablesBounds) {
  REQUIRE_TOOLS();
  fs::path d = fresh_dir("latencies");
  // Latency 1 for every fixed-latency ALU opcode: no distance needs keeping, so more moves are
  // legal than with the table's bounds (the dependences still hold).
  std::string text = "# test overrides, not a measurement\n";
  for (const char* op : {"IMAD", "IADD3", "LOP3", "SHF", "FFMA", "FADD", "FMUL", "ISETP", "SEL", "MOV", "LEA"})
    text += std::string(op) + "\t1\n";
  text += "NOTANOPCODE\t3\n";
  std::ofstream(d / "latencies.tsv") << text;
  TuneRequest r = small_request(d / "work");
  r.latencies = d / "latencies.tsv";
  PrepareResult p = prepare_tuning(r);
  ASSERT_TRUE(p.ok()) << format_diagnostic(p.diagnostics.front());
  ASSERT_EQ(p.diagnostics.size(), 1u);  // the unknown opcode, as a warning
  EXPECT_EQ(p.diagnostics.front().code, "tune-latency-unknown");
  nlohmann::json manifest = nlohmann::json::parse(slurp(d / "work" / "tune.json"));
  EXPECT_EQ(manifest["latencies"].size(), 12u);
  TuneOpcodeTable table = with_latencies(builtin_tune_opcode_table(), {{"IMAD", 1}, {"NOPE", 2}});
  EXPECT_EQ(table.find("IMAD")->latency, 1);
  EXPECT_EQ(table.find("NOPE"), nullptr);
  // Shorter bounds open moves that the table's bounds refuse.
  sass::SassProgram program = testing_util::load_listing(sass::testing::listings_root() / "sm_90" / "reduce_shared.sass");
  std::vector<std::pair<std::string, int>> ones;
  for (const auto& row : builtin_tune_opcode_table().rows) ones.emplace_back(row.opcode, 1);
  auto legal_moves = [&](const TuneOpcodeTable& t) {
    KernelSchedule s = analyse_schedule(program.functions.front(), 90, t);
    std::size_t n = 0;
    for (const BlockSchedule& b : s.blocks)
      for (std::size_t from = b.first; from < b.first + b.count; ++from)
        for (std::size_t to = b.first; to < b.first + b.count; ++to) {
          Order o = identity_order(s);
          n += from != to && try_move(s, o, from, to);
        }
    return n;
  };
  EXPECT_GT(legal_moves(with_latencies(builtin_tune_opcode_table(), ones)), legal_moves(builtin_tune_opcode_table()));
}

// Every file under `dir` with its bytes: the user's files must come out of a refused or
// repeated --prepare byte for byte.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (!e.is_directory()) files[fs::relative(e.path(), dir).string()] = slurp(e.path());
  return files;
}

bool has_staging_leftovers(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".gpuport-") != std::string::npos) return true;
  return false;
}

TEST(TunePipeline, PrepareRefusesAFolderThatIsNotATuneFolder) {
  REQUIRE_TOOLS();
  fs::path d = fresh_dir("users-folder");
  fs::create_directories(d / "work" / "candidates");
  std::ofstream(d / "work" / "notes.txt") << "mine\n";
  std::ofstream(d / "work" / "candidates" / "c01.cubin") << "my own cubin\n";
  const auto before = snapshot(d / "work");
  TuneRequest r = small_request(d / "work");
  PrepareResult p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.diagnostics.front().code, "tune-folder-not-ours");
  EXPECT_EQ(p.diagnostics.front().location.file, r.work_dir.string());
  EXPECT_EQ(snapshot(d / "work"), before);
  EXPECT_FALSE(has_staging_leftovers(d));
  // A file where the folder should be is refused too.
  std::ofstream(d / "file") << "x";
  r.work_dir = d / "file";
  p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(slurp(d / "file"), "x");
}

TEST(TunePipeline, PrepareAgainReplacesOnlyWhatTheEarlierPreparationMade) {
  REQUIRE_TOOLS();
  fs::path d = with_measurements("again", {{"c01", "candidates/c01.cubin", "ok", "", 97.0, 96.5, 0.2, 15}});
  std::ofstream(d / "notes.txt") << "mine\n";
  std::ofstream(d / "candidates" / "keep.cubin") << "my own cubin\n";
  std::ofstream(d / "calibration.json") << "{\"kept\": true}\n";
  const std::string old_manifest = slurp(d / "tune.json");
  TuneRequest r = small_request(d);
  r.search_steps = 800;
  r.seed = 7;
  PrepareResult p = prepare_tuning(r);
  ASSERT_TRUE(p.ok()) << format_diagnostic(p.diagnostics.front());
  ASSERT_FALSE(p.diagnostics.empty());
  EXPECT_EQ(p.diagnostics.back().code, "tune-folder-replaced");
  EXPECT_EQ(slurp(d / "notes.txt"), "mine\n");
  EXPECT_EQ(slurp(d / "candidates" / "keep.cubin"), "my own cubin\n");
  EXPECT_EQ(slurp(d / "calibration.json"), "{\"kept\": true}\n");
  EXPECT_FALSE(fs::exists(d / "measurements.tsv")) << "measurements of the earlier candidates would be read as the new ones'";
  nlohmann::json manifest = nlohmann::json::parse(slurp(d / "tune.json"));
  EXPECT_NE(slurp(d / "tune.json"), old_manifest);
  EXPECT_EQ(manifest["made_by"], "gpuport tune --prepare");
  std::set<std::string> listed;
  for (const auto& f : manifest["files"]) listed.insert(f.get<std::string>());
  EXPECT_TRUE(listed.count("original.cubin") && listed.count("tune.json") && listed.count("harness.args"));
  EXPECT_FALSE(listed.count("notes.txt") || listed.count("candidates/keep.cubin"));
  for (const auto& c : manifest["candidates"]) EXPECT_TRUE(listed.count(c["file"].get<std::string>())) << c["file"];
  for (const auto& f : listed) EXPECT_TRUE(fs::exists(d / f)) << f;
  EXPECT_FALSE(has_staging_leftovers(d.parent_path()));
  // A name the earlier preparation did not make, where this one writes, is not replaced.
  fs::remove(d / "program.args");
  std::ofstream(d / "program.args") << "mine too\n";
  manifest["files"].erase(std::find(manifest["files"].begin(), manifest["files"].end(), "program.args"));
  std::ofstream(d / "tune.json") << manifest.dump(1);
  const auto before = snapshot(d);
  p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.diagnostics.front().code, "tune-folder-not-ours");
  EXPECT_EQ(snapshot(d), before);
}

TEST(TunePipeline, PrepareOnATruncatedCubinNamesTheUsersFileAndLeavesNothing) {
  REQUIRE_TOOLS();
  fs::path d = fresh_dir("truncated");
  const std::string bytes = slurp(sass::testing::listings_root() / "sm_90" / "reduce_shared.cubin");
  std::ofstream(d / "half.cubin", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  TuneRequest r;
  r.input = d / "half.cubin";
  r.kernel = "reduce_shared";
  r.work_dir = d / "work";
  PrepareResult p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  for (const Diagnostic& diag : p.diagnostics) {
    EXPECT_EQ(diag.location.file.find("original.cubin"), std::string::npos) << format_diagnostic(diag);
    EXPECT_EQ(diag.message.find("original.cubin"), std::string::npos) << format_diagnostic(diag);
  }
  EXPECT_EQ(p.diagnostics.front().location.file, r.input.string()) << format_diagnostic(p.diagnostics.front());
  EXPECT_FALSE(fs::exists(d / "work"));
  EXPECT_FALSE(has_staging_leftovers(d));
  // Parent folders it had to make go again with the failure.
  r.work_dir = d / "new" / "deeper" / "work";
  p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  EXPECT_FALSE(fs::exists(d / "new"));
}

TEST(TunePipeline, MeasureReadsOnlyCandidatesOfTheFolder) {
  REQUIRE_TOOLS();
  const std::vector<Measurement> rows = {{"c01", "candidates/c01.cubin", "ok", "", 90.0, 89.0, 0.3, 15}};
  for (const std::string& file : {std::string("/etc/passwd"), std::string("../../etc/passwd"), std::string("candidates/c02.cubin"),
                                  std::string("original.cubin")}) {
    fs::path d = with_measurements("outside", rows);
    nlohmann::json manifest = nlohmann::json::parse(slurp(d / "tune.json"));
    manifest["candidates"][0]["file"] = file;
    std::ofstream(d / "tune.json") << manifest.dump(1);
    MeasureResult m = measure_tuning(d, d / "tuned.cubin");
    ASSERT_FALSE(m.ok()) << file;
    EXPECT_EQ(m.diagnostics.front().code, "bad-manifest") << file;
    EXPECT_FALSE(fs::exists(d / "tuned.cubin")) << file;
  }
  // A candidate that is a link (out of the folder, or anywhere) is refused too.
  fs::path d = with_measurements("link", rows);
  fs::remove(d / "candidates" / "c01.cubin");
  fs::create_symlink(fs::absolute(d / "original.cubin"), d / "candidates" / "c01.cubin");
  MeasureResult m = measure_tuning(d, d / "tuned.cubin");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.diagnostics.front().code, "bad-manifest");
  EXPECT_FALSE(fs::exists(d / "tuned.cubin"));
}

TEST(TunePipeline, MeasureProvesTheWinnerAgainBeforeWritingIt) {
  REQUIRE_TOOLS();
  fs::path d = with_measurements("reprove", {{"c01", "candidates/c01.cubin", "ok", "", 90.0, 89.0, 0.3, 15}});
  // The winner's bytes swapped for the original's: a cubin, but not the order tune.json says.
  fs::copy_file(d / "original.cubin", d / "candidates" / "c01.cubin", fs::copy_options::overwrite_existing);
  MeasureResult m = measure_tuning(d, d / "tuned.cubin");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.diagnostics.front().code, "tune-proof-failed") << format_diagnostic(m.diagnostics.front());
  EXPECT_FALSE(fs::exists(d / "tuned.cubin"));
}

TEST(TunePipeline, PrepareRefusesWhatItCannotTune) {
  fs::path d = fresh_dir("refused");
  std::ofstream(d / "not-a-cubin.cubin") << "\x7f" "ELF but nothing else";
  TuneRequest r;
  r.input = d / "not-a-cubin.cubin";
  r.work_dir = d / "work";
  PrepareResult p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.diagnostics.front().location.file, r.input.string());
  // Pascal has no per-instruction control codes to move with the instructions.
  r.input = sass::testing::listings_root() / "sm_61" / "if_else.cubin";
  p = prepare_tuning(r);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.diagnostics.front().code, "tune-arch");
}

}  // namespace
}  // namespace gpuport::tune
