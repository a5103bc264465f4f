// Cubin rewriting (src/tune/rewrite.h) proved by re-disassembly (src/tune/proof.h): every single
// move the legality rules allow on the committed sm_80..sm_90 kernels, the search's candidates
// with their .nv.info offset lists read back by cuobjdump -elf, and planted broken rewrites that
// the proof must catch. Needs CUDA 11.8's nvdisasm and cuobjdump (SKIPPED without them).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>

#include "sass/cfg.h"
#include "sass/cubin.h"
#include "sass/indirect_branches.h"
#include "sass/parser.h"
#include "sass/toolchain.h"
#include "tune/proof.h"
#include "tune/rewrite.h"
#include "tune/schedule.h"
#include "tune/search.h"
#include "unit/tune_test_util.h"

namespace gpuport::tune {
namespace {

namespace fs = std::filesystem;
using testing_util::load_listing;
using testing_util::tunable_listings;

struct Tools {
  sass::Toolchain tc;
  std::string why;
};
const Tools& tools() {
  static const Tools t = [] {
    Tools r;
    r.tc = sass::detect_toolchain(sass::ToolchainId::cuda11);
    if (auto w = r.tc.unavailable(sass::Tool::nvdisasm)) r.why = *w;
    else if (auto w2 = r.tc.unavailable(sass::Tool::cuobjdump)) r.why = *w2;
    return r;
  }();
  return t;
}
#define REQUIRE_TOOLS() \
  if (!tools().why.empty()) GTEST_SKIP() << "SKIPPED: needs CUDA 11.8 nvdisasm/cuobjdump: " << tools().why

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("gpuport-tune-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

void write_bytes(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string text_bytes(std::string_view cubin_bytes, const std::string& kernel) {
  auto cubin = sass::read_cubin(cubin_bytes);
  const sass::CubinSection* s = cubin.cubin->find_section(".text." + kernel);
  return std::string(sass::Cubin::section_bytes(cubin_bytes, *s));
}

sass::SassProgram disassemble(const fs::path& cubin) {
  auto run = sass::disassemble_cubin(tools().tc, cubin);
  EXPECT_TRUE(run.ok) << run.message;
  sass::SassParseOptions o;
  o.file_name = cubin.string();
  auto parsed = sass::parse_sass(run.output, o);
  EXPECT_EQ(parsed.programs.size(), 1u);
  sass::SassProgram program = parsed.programs.empty() ? sass::SassProgram{} : parsed.programs.front();
  std::string bytes = sass::testing::read_text(cubin);
  auto c = sass::read_cubin(bytes);
  if (c.ok()) sass::resolve_indirect_branches(program, *c.cubin, bytes);
  return program;
}

// The n instructions from `start` of a raw disassembly of many copies of kernels: addresses and absolute branch targets
// made relative to the chunk again.
sass::SassFunction chunk(const sass::SassFunction& all, std::size_t start, std::size_t n) {
  sass::SassFunction f;
  f.name = "chunk";
  std::uint64_t base = 16 * start;
  for (std::size_t i = start; i < start + n && i < all.instructions.size(); ++i) {
    sass::SassInstruction inst = all.instructions[i];
    inst.address -= base;
    // Branch, call and return targets (labels in cubin listings) are absolute in raw ones.
    // (WARPSYNC's first operand is a lane mask, not a target.)
    const sass::ControlKind kind = sass::control_kind(inst);
    const bool transfers = kind != sass::ControlKind::none;
    for (sass::SassOperand& op : inst.operands)
      if ((op.kind == sass::OperandKind::label ||
           (transfers && op.kind == sass::OperandKind::immediate &&
            !(kind == sass::ControlKind::warpsync && &op == &inst.operands.front()))) &&
          op.text.starts_with("0x") && op.value >= static_cast<std::int64_t>(base) &&
          op.value <= static_cast<std::int64_t>(base + 16 * n)) {
        op.value -= static_cast<std::int64_t>(base);
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(op.value));
        op.text.assign(hex);
      }
    f.instructions.push_back(inst);
  }
  return f;
}

TEST(TuneRewrite, EveryLegalSingleMoveReDisassemblesToTheSameProgram) {
  REQUIRE_TOOLS();
  fs::path dir = temp_dir();
  // nvdisasm takes a third of a second to start: every variant of every kernel of one arch goes
  // into one raw file, disassembled once.
  struct Kernel {
    fs::path path;
    const sass::SassFunction* function;
    std::vector<Order> sample;
    std::vector<StallPlan> stalls;  // per sample: empty, or the raised stalls that pay for it
  };
  std::map<int, std::vector<Kernel>> by_arch;
  std::map<int, std::string> raw_by_arch;
  std::vector<sass::SassProgram> programs;
  programs.reserve(200);
  std::size_t kernels = 0, moves = 0, paid_moves = 0, proved = 0;
  for (const auto& path : tunable_listings()) {
    programs.push_back(load_listing(path));
    const sass::SassProgram& program = programs.back();
    fs::path cubin_path = fs::path(path).replace_extension(".cubin");
    std::string cubin = sass::testing::read_text(cubin_path);
    for (const sass::SassFunction& f : program.functions) {
      KernelSchedule s = analyse_schedule(f, program.arch);
      ASSERT_TRUE(s.problems.empty()) << path;
      // Every legal (from, to) pair of every block, at most 100 per kernel (evenly spread).
      // Also the moves that are legal only with raised stalls, with their stall plans.
      std::vector<Order> variants, paid;
      std::vector<StallPlan> paid_stalls;
      for (const BlockSchedule& b : s.blocks)
        for (std::size_t from = b.first; from < b.first + b.count; ++from)
          for (std::size_t to = b.first; to < b.first + b.count; ++to) {
            if (from == to) continue;
            Order o = identity_order(s);
            if (try_move(s, o, from, to)) {
              variants.push_back(o);
              continue;
            }
            StallPlan st = original_stalls(s);
            if (try_move(s, o, from, to, &st)) {
              paid.push_back(o);
              paid_stalls.push_back(st);
            }
          }
      if (variants.empty() && paid.empty()) continue;
      ++kernels;
      moves += variants.size();
      paid_moves += paid.size();
      Kernel k{path, &f, {}, {}};
      std::size_t stride = variants.size() / 100 + 1;
      for (std::size_t i = 0; i < variants.size(); i += stride) {
        k.sample.push_back(variants[i]);
        k.stalls.emplace_back();
      }
      stride = paid.size() / 30 + 1;
      for (std::size_t i = 0; i < paid.size(); i += stride) {
        k.sample.push_back(paid[i]);
        k.stalls.push_back(paid_stalls[i]);
      }
      std::string& raw = raw_by_arch[program.arch];
      raw += text_bytes(cubin, f.name);
      for (std::size_t v = 0; v < k.sample.size(); ++v) {
        const Order& o = k.sample[v];
        RewriteResult r = rewrite_cubin(cubin, cubin_path.string(), f, o, k.stalls[v]);
        ASSERT_TRUE(r.ok()) << path << ": " << (r.diagnostics.empty() ? "" : r.diagnostics.front().message);
        raw += text_bytes(r.bytes, f.name);
      }
      by_arch[program.arch].push_back(std::move(k));
    }
  }
  for (auto& [arch, list] : by_arch) {
    fs::path raw_path = dir / "moves.bin";
    write_bytes(raw_path, raw_by_arch[arch]);
    auto run = sass::disassemble_raw(tools().tc, raw_path, arch, std::chrono::seconds(300), true);
    ASSERT_TRUE(run.ok) << run.message;
    sass::SassParseOptions po;
    po.arch = arch;
    auto parsed = sass::parse_sass(run.output, po);
    ASSERT_EQ(parsed.programs.size(), 1u);
    ASSERT_EQ(parsed.programs[0].functions.size(), 1u);
    const sass::SassFunction& all = parsed.programs[0].functions[0];
    std::size_t at = 0;  // instructions before the kernel's first chunk
    for (const Kernel& k : list) {
      const std::size_t n = k.function->instructions.size();
      ASSERT_LE(at + n * (k.sample.size() + 1), all.instructions.size()) << k.path;
      sass::SassFunction original = chunk(all, at, n);
      original.indirect_targets = k.function->indirect_targets;
      KernelSchedule raw_schedule = analyse_schedule(original, arch);
      ASSERT_TRUE(raw_schedule.problems.empty()) << k.path << ": " << raw_schedule.problems.front();
      for (std::size_t v = 0; v < k.sample.size(); ++v) {
        ReorderProof proof = prove_reordering(raw_schedule, chunk(all, at + n * (v + 1), n), k.stalls[v]);
        EXPECT_TRUE(proof.proved()) << k.path << " move " << v << ": " << proof.problems.front();
        EXPECT_EQ(proof.recovered, k.sample[v]) << k.path << " move " << v;
        proved += proof.proved();
      }
      at += n * (k.sample.size() + 1);
    }
    EXPECT_EQ(at, all.instructions.size());
  }
  fs::remove_all(dir);
  std::printf("legal single moves: %zu over %zu kernels, and %zu more with raised stalls; %zu sampled and proved by "
              "re-disassembly\n", moves, kernels, paid_moves, proved);
  EXPECT_GT(kernels, 20u);
  EXPECT_GT(proved, 1000u);  // 72 kernels with moves on 2026-12-02
}

TEST(TuneRewrite, CandidatesKeepTheirNvInfoOffsetListsAsCuobjdumpReadsThem) {
  REQUIRE_TOOLS();
  fs::path dir = temp_dir();
  std::size_t candidates = 0, offsets_moved = 0, stalls_written = 0;
  // The target arch only: two tool runs per candidate take a second.
  for (const auto& path : tunable_listings()) {
    if (path.parent_path().filename() != "sm_90") continue;
    sass::SassProgram program = load_listing(path);
    fs::path cubin_path = fs::path(path).replace_extension(".cubin");
    std::string cubin = sass::testing::read_text(cubin_path);
    auto original_elf = sass::dump_elf(tools().tc, cubin_path);
    ASSERT_TRUE(original_elf.ok) << original_elf.message;
    for (const sass::SassFunction& f : program.functions) {
      if (!f.is_entry) continue;
      KernelSchedule s = analyse_schedule(f, program.arch);
      SearchOptions options;
      options.steps = 1500;
      options.candidates = 2;
      SearchResult result = search_schedules(s, CostModel{}, options);
      // Also a candidate whose EXIT block is reordered, when the search left it alone: the offset
      // lists must follow instructions that move.
      for (const Candidate& c : result.candidates) {
        RewriteResult r = rewrite_cubin(cubin, cubin_path.string(), f, c.order, c.stalls);
        ASSERT_TRUE(r.ok()) << path << ": " << r.diagnostics.front().message;
        stalls_written += r.stalls_written;
        EXPECT_EQ(r.bytes.size(), cubin.size());
        fs::path out = dir / "candidate.cubin";
        write_bytes(out, r.bytes);
        sass::SassProgram again = disassemble(out);
        const sass::SassFunction* g = again.find_function(f.name);
        ASSERT_NE(g, nullptr);
        ReorderProof proof = prove_reordering(s, *g, c.stalls);
        ASSERT_TRUE(proof.proved()) << path << " " << c.id << ": " << proof.problems.front();
        EXPECT_EQ(proof.recovered, c.order);
        auto elf = sass::dump_elf(tools().tc, out);
        ASSERT_TRUE(elf.ok) << elf.message;
        auto before = offset_lists_from_cuobjdump(original_elf.output, f.name);
        auto after = offset_lists_from_cuobjdump(elf.output, f.name);
        EXPECT_FALSE(before.empty()) << path << ": no EXIT offsets read";
        auto problems = check_offset_lists(before, after, f, *g, proof.recovered);
        EXPECT_TRUE(problems.empty()) << path << ": " << problems.front();
        offsets_moved += r.nvinfo_offsets;
        ++candidates;
      }
    }
  }
  fs::remove_all(dir);
  std::printf("%zu candidates proved; %zu .nv.info offsets moved with their instructions, %zu stalls raised\n", candidates,
              offsets_moved, stalls_written);
  EXPECT_GT(candidates, 10u);
}

// Instructions named in .nv.info offset lists (COOP_GROUP_INSTR_OFFSETS on sm_90,
// INT_WARP_WIDE_INSTR_OFFSETS on sm_70) moved on purpose: every list follows its instruction.
TEST(TuneRewrite, OffsetListsFollowTheInstructionsTheyName) {
  REQUIRE_TOOLS();
  fs::path dir = temp_dir();
  std::size_t moved_offsets = 0;
  for (const char* name : {"sm_90/warp_scan", "sm_90/reduce_shared", "sm_90/tiled_partition", "sm_70/warp_scan", "sm_70/if_else"}) {
    const fs::path path = sass::testing::listings_root() / (std::string(name) + ".sass");
    sass::SassProgram program = load_listing(path);
    fs::path cubin_path = fs::path(path).replace_extension(".cubin");
    std::string cubin = sass::testing::read_text(cubin_path);
    for (const sass::SassFunction& f : program.functions) {
      auto lists = offset_lists_from_cuobjdump(sass::dump_elf(tools().tc, cubin_path).output, f.name);
      KernelSchedule s = analyse_schedule(f, program.arch);
      // Move every listed instruction that can move, each to the farthest legal slot.
      Order order = identity_order(s);
      for (const auto& [attribute, offsets] : lists) {
        if (attribute == "EIATTR_EXIT_INSTR_OFFSETS") continue;
        for (std::uint32_t offset : offsets) {
          std::size_t index = offset / 16;
          std::size_t slot = std::find(order.begin(), order.end(), index) - order.begin();
          const BlockSchedule& b = s.blocks[s.block_index[slot]];
          for (std::size_t to = b.first; to < b.first + b.count; ++to)
            if (to != slot && try_move(s, order, slot, to)) break;
        }
      }
      if (order == identity_order(s)) continue;
      RewriteResult r = rewrite_cubin(cubin, cubin_path.string(), f, order);
      ASSERT_TRUE(r.ok()) << name;
      moved_offsets += r.nvinfo_offsets;
      fs::path out = dir / "moved.cubin";
      write_bytes(out, r.bytes);
      sass::SassProgram again = disassemble(out);
      const sass::SassFunction* g = again.find_function(f.name);
      ASSERT_NE(g, nullptr);
      ReorderProof proof = prove_reordering(s, *g);
      ASSERT_TRUE(proof.proved()) << name << ": " << proof.problems.front();
      auto after = offset_lists_from_cuobjdump(sass::dump_elf(tools().tc, out).output, f.name);
      auto problems = check_offset_lists(lists, after, f, *g, proof.recovered);
      EXPECT_TRUE(problems.empty()) << name << ": " << problems.front();
    }
  }
  fs::remove_all(dir);
  std::printf("%zu .nv.info offsets moved with their instructions and read back by cuobjdump -elf\n", moved_offsets);
  EXPECT_GT(moved_offsets, 3u);
}

// MBARRIER_INSTR_OFFSETS holds 16-byte records (offset, register, uniform register, kind,
// stride): a cubin with one is rewritten, not refused, and cuobjdump reads the same records back.
TEST(TuneRewrite, MbarrierRecordsAreMappedNotRefused) {
  REQUIRE_TOOLS();
  if (auto why = tools().tc.unavailable(sass::Tool::nvcc)) GTEST_SKIP() << "SKIPPED: needs nvcc 11.8: " << *why;
  fs::path dir = temp_dir();
  const fs::path cubin_path = dir / "mbarrier.cubin";
  auto built = sass::compile_cubin(tools().tc, fs::path(GPUPORT_SOURCE_DIR) / "tests/unit/tune/mbarrier.cu", 90, cubin_path);
  ASSERT_TRUE(built.ok) << built.message;
  std::string cubin = sass::testing::read_text(cubin_path);
  sass::SassProgram program = disassemble(cubin_path);
  const sass::SassFunction* f = program.find_function("_Z6stagedPKfPfi");
  ASSERT_NE(f, nullptr);
  auto lists = offset_lists_from_cuobjdump(sass::dump_elf(tools().tc, cubin_path).output, f->name);
  ASSERT_TRUE(lists.count("EIATTR_MBARRIER_INSTR_OFFSETS"));
  EXPECT_FALSE(lists["EIATTR_MBARRIER_INSTR_OFFSETS"].empty());
  KernelSchedule s = analyse_schedule(*f, 90);
  Order order = identity_order(s);
  bool moved = false;
  for (const BlockSchedule& b : s.blocks)
    for (std::size_t from = b.first; from < b.first + b.count && !moved; ++from)
      for (std::size_t to = b.first; to < b.first + b.count && !moved; ++to) moved = from != to && try_move(s, order, from, to);
  ASSERT_TRUE(moved);
  RewriteResult r = rewrite_cubin(cubin, cubin_path.string(), *f, order);
  ASSERT_TRUE(r.ok()) << r.diagnostics.front().message;
  write_bytes(dir / "moved.cubin", r.bytes);
  sass::SassProgram again = disassemble(dir / "moved.cubin");
  const sass::SassFunction* g = again.find_function(f->name);
  ASSERT_NE(g, nullptr);
  ReorderProof proof = prove_reordering(s, *g);
  ASSERT_TRUE(proof.proved()) << proof.problems.front();
  auto after = offset_lists_from_cuobjdump(sass::dump_elf(tools().tc, dir / "moved.cubin").output, f->name);
  auto problems = check_offset_lists(lists, after, *f, *g, proof.recovered);
  EXPECT_TRUE(problems.empty()) << problems.front();
  fs::remove_all(dir);
}

// The first kernel with a movable block whose instruction at `slot` has a register producer in
// the block: returns the listing, the schedule and a producer/consumer pair.
struct Planted {
  fs::path path;
  sass::SassProgram program;
  std::string cubin;
};

TEST(TuneRewrite, PlantedBrokenRewritesAreCaught) {
  REQUIRE_TOOLS();
  fs::path dir = temp_dir();
  const fs::path path = sass::testing::listings_root() / "sm_90" / "reduce_shared.sass";
  sass::SassProgram program = load_listing(path);
  fs::path cubin_path = fs::path(path).replace_extension(".cubin");
  std::string cubin = sass::testing::read_text(cubin_path);
  const sass::SassFunction& f = program.functions.front();
  KernelSchedule s = analyse_schedule(f, program.arch);
  // (1) A consumer moved above its producer: the rewriter writes what it is told; the proof says no.
  Order bad = identity_order(s);
  bool planted = false;
  for (const BlockSchedule& b : s.blocks) {
    for (const Dependence& d : b.dependences)
      if (d.kind == Dependence::Kind::register_flow && d.after == d.before + 1) {
        std::swap(bad[b.first + d.before], bad[b.first + d.after]);
        planted = true;
        break;
      }
    if (planted) break;
  }
  ASSERT_TRUE(planted);
  RewriteResult r = rewrite_cubin(cubin, cubin_path.string(), f, bad);
  ASSERT_TRUE(r.ok());
  write_bytes(dir / "bad.cubin", r.bytes);
  sass::SassProgram again = disassemble(dir / "bad.cubin");
  ReorderProof proof = prove_reordering(s, again.functions.front());
  ASSERT_FALSE(proof.proved());
  EXPECT_NE(proof.problems.front().find("order"), std::string::npos) << proof.problems.front();
  // (2) A scoreboard wait dropped from an instruction: the instruction is no longer one of the block's.
  std::string broken = cubin;
  const auto text = sass::read_cubin(cubin).cubin->find_section(".text." + f.name);
  for (std::size_t i = 0; i < f.instructions.size(); ++i)
    if (f.instructions[i].control && f.instructions[i].control->wait_mask != 0) {
      char* high = broken.data() + text->offset + 16 * i + 8;
      std::uint64_t w = 0;
      std::memcpy(&w, high, 8);
      w &= ~(0x3fULL << 52);
      std::memcpy(high, &w, 8);
      break;
    }
  write_bytes(dir / "nowait.cubin", broken);
  again = disassemble(dir / "nowait.cubin");
  proof = prove_reordering(s, again.functions.front());
  ASSERT_FALSE(proof.proved());
  EXPECT_NE(proof.problems.front().find("is not among the block's original instructions"), std::string::npos)
      << proof.problems.front();
  // (3) An EXIT offset left stale while the EXIT's block moved: the list no longer names the EXIT.
  auto lists = offset_lists_from_cuobjdump(sass::dump_elf(tools().tc, cubin_path).output, f.name);
  ASSERT_TRUE(lists.count("EIATTR_EXIT_INSTR_OFFSETS"));
  auto stale = lists;
  stale["EIATTR_EXIT_INSTR_OFFSETS"][0] += 16;
  auto problems = check_offset_lists(lists, stale, f, f, identity_order(s));
  EXPECT_FALSE(problems.empty());
  // (4) A raised stall that the bytes do not carry (an encoder slip): the proof decodes the
  // stall and compares it with the plan.
  StallPlan planned = original_stalls(s);
  planned[0] = static_cast<std::uint8_t>(planned[0] + 1);
  RewriteResult unraised = rewrite_cubin(cubin, cubin_path.string(), f, identity_order(s));  // plan not written
  write_bytes(dir / "unraised.cubin", unraised.bytes);
  again = disassemble(dir / "unraised.cubin");
  proof = prove_reordering(s, again.functions.front(), planned);
  ASSERT_FALSE(proof.proved());
  EXPECT_NE(proof.problems.front().find("decoded"), std::string::npos) << proof.problems.front();
  RewriteResult raised = rewrite_cubin(cubin, cubin_path.string(), f, identity_order(s), planned);
  ASSERT_TRUE(raised.ok());
  EXPECT_EQ(raised.stalls_written, 1u);
  write_bytes(dir / "raised.cubin", raised.bytes);
  again = disassemble(dir / "raised.cubin");
  proof = prove_reordering(s, again.functions.front(), planned);
  EXPECT_TRUE(proof.proved()) << proof.problems.front();
  // A stall lowered below the compiled one is refused by the checker.
  StallPlan lowered = original_stalls(s);
  for (std::size_t i = 0; i < lowered.size(); ++i)
    if (lowered[i] > 1) {
      --lowered[i];
      break;
    }
  EXPECT_FALSE(check_order(s, identity_order(s), lowered).empty());
  // (5) A listing that is not the cubin's: refused before anything is written.
  const fs::path other = sass::testing::listings_root() / "sm_90" / "if_else.sass";
  sass::SassProgram other_program = load_listing(other);
  sass::SassFunction renamed = other_program.functions.front();
  renamed.name = f.name;
  RewriteResult refused = rewrite_cubin(cubin, cubin_path.string(), renamed, identity_order(analyse_schedule(renamed, 90)));
  EXPECT_FALSE(refused.ok());
  ASSERT_FALSE(refused.diagnostics.empty());
  EXPECT_EQ(refused.diagnostics.front().code, "tune-listing-mismatch");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpuport::tune
