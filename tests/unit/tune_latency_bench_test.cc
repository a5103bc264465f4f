// gpuport latency-bench (src/tune/latency_bench.h): the output parser (good lines, malformed lines
// with their line numbers), the latency column and the override file (round trip, bad files), the
// generated source, and the SASS of the built benchmark: with nvcc 11.8, cuobjdump and nvdisasm
// 11.8 it is built for sm_90 and every kernel's timed chain must be its opcode (SKIPPED without
// them; it cannot run without a GPU: scripts/device/latency_bench.sh does that).
#include "tune/latency_bench.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sass/parser.h"

namespace gpuport::tune {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint32_t> error_lines(const std::vector<Diagnostic>& errors) {
  std::vector<std::uint32_t> lines;
  for (const auto& e : errors) lines.push_back(e.location.line);
  return lines;
}

TEST(LatencyBenchParse, GoodLines) {
  const std::string text =
      "building...\n"
      "LATBENCH gpu=\"NVIDIA H200\" sm=90 sms=132 clock_mhz=1980 l2_bytes=52428800 warps=4 reps=5 empty=6\n"
      "LATBENCH op=FFMA kind=latency cycles=4.00 links=1024\r\n"
      "LATBENCH op=MUFU.EX2 kind=latency cycles=17.60 links=1024\n"
      "LATBENCH op=ISETP+SEL kind=latency cycles=9.50 links=1024\n"
      "LATBENCH op=LDG kind=dram cycles=579.30 links=256\n"
      "LATBENCHX op=FFMA kind=latency\n"
      "LATBENCH op=FFMA kind=throughput cycles=1.00 links=1024";
  const LatencyBenchOutput out = parse_latency_output(text, "run.out");
  EXPECT_TRUE(out.errors.empty()) << format_diagnostic(out.errors.front());
  EXPECT_EQ(out.gpu, "NVIDIA H200");
  EXPECT_EQ(out.sm, 90);
  EXPECT_EQ(out.empty_cycles, 6.0);
  ASSERT_EQ(out.measurements.size(), 5u);
  EXPECT_EQ(out.measurements[0].op, "FFMA");
  EXPECT_EQ(out.measurements[0].kind, "latency");
  EXPECT_DOUBLE_EQ(out.measurements[0].cycles, 4.0);
  EXPECT_EQ(out.measurements[0].links, 1024);
  EXPECT_EQ(out.measurements[0].line, 3u);
  EXPECT_EQ(out.measurements[1].op, "MUFU.EX2");
  EXPECT_EQ(out.measurements[2].op, "ISETP+SEL");
  EXPECT_EQ(out.measurements[3].kind, "dram");
  EXPECT_DOUBLE_EQ(out.measurements[3].cycles, 579.3);
  EXPECT_EQ(out.measurements[3].links, 256);
  EXPECT_EQ(out.measurements[4].kind, "throughput");
  EXPECT_EQ(out.measurements[4].line, 8u);
}

TEST(LatencyBenchParse, MalformedLinesNameTheirLine) {
  const std::string text =
      "LATBENCH op=FFMA kind=latency cycles=abc links=1024\n"  // 1
      "LATBENCH op=ffma kind=latency cycles=4 links=1\n"       // 2: not an opcode
      "LATBENCH op=FFMA kind=fast cycles=4 links=1\n"          // 3
      "LATBENCH op=FFMA kind=latency cycles=4\n"               // 4: no links
      "LATBENCH op=FFMA kind=latency cycles=4 links=0\n"       // 5
      "LATBENCH op=FFMA junk kind=latency cycles=4 links=1\n"  // 6
      "LATBENCH gpu=\"X\" sm=ninety\n"                         // 7
      "LATBENCH error: cudaMalloc(&d_in, 4) failed: out of memory (latency_bench.cu:9)\n"  // 8
      "LATBENCH op=FFMA kind=latency cycles=nan links=1\n"     // 9
      "LATBENCH op=MUFU..EX2 kind=latency cycles=1 links=1\n"  // 10
      "LATBENCH kind=latency cycles=1 links=1\n"               // 11: no op
      "LATBENCH op=FFMA kind=latency cycles=4.00 links=16\n";  // 12: fine
  const LatencyBenchOutput out = parse_latency_output(text, "run.out");
  EXPECT_EQ(error_lines(out.errors), (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  ASSERT_EQ(out.measurements.size(), 1u);
  EXPECT_EQ(out.measurements[0].line, 12u);
  for (const auto& e : out.errors) {
    EXPECT_EQ(e.location.file, "run.out");
    EXPECT_EQ(e.code, e.location.line == 8 ? "latency-bench-error" : "bad-latency-output") << e.message;
  }
  EXPECT_NE(out.errors[0].message.find("cycles="), std::string::npos) << out.errors[0].message;
  EXPECT_NE(out.errors[2].message.find("kind 'fast'"), std::string::npos) << out.errors[2].message;
  EXPECT_NE(out.errors[5].message.find("'junk'"), std::string::npos) << out.errors[5].message;
  EXPECT_NE(out.errors[7].message.find("out of memory"), std::string::npos);
  EXPECT_EQ(format_diagnostic(out.errors[0]).rfind("run.out:1:1: error: malformed LATBENCH line", 0), 0u)
      << format_diagnostic(out.errors[0]);
  EXPECT_TRUE(out.gpu.empty());
}

LatencyBenchOutput sample_output() {
  return parse_latency_output(
      "LATBENCH gpu=\"NVIDIA H200\" sm=90 sms=132 clock_mhz=1980 l2_bytes=52428800 warps=4 reps=5 empty=6\n"
      "LATBENCH op=FFMA kind=latency cycles=4.00 links=1024\n"
      "LATBENCH op=FFMA kind=throughput cycles=1.00 links=1024\n"
      "LATBENCH op=IMAD kind=latency cycles=4.01 links=1024\n"
      "LATBENCH op=ISETP+SEL kind=latency cycles=9.50 links=1024\n"
      "LATBENCH op=SEL kind=latency cycles=4.25 links=1024\n"
      "LATBENCH op=MUFU.EX2 kind=latency cycles=17.60 links=1024\n"
      "LATBENCH op=MUFU.RSQ kind=latency cycles=18.10 links=1024\n"
      "LATBENCH op=HFMA2 kind=throughput cycles=1.00 links=1024\n"
      "LATBENCH op=VOTE kind=latency cycles=-0.30 links=1024\n"
      "LATBENCH op=LDG kind=latency cycles=33.40 links=256\n"
      "LATBENCH op=LDG kind=l2 cycles=262.70 links=256\n"
      "LATBENCH op=LDG kind=dram cycles=579.30 links=256\n");
}

TEST(LatencyBenchRows, VariantsPairsDramAndRounding) {
  const LatencyBenchOutput out = sample_output();
  ASSERT_TRUE(out.errors.empty());
  const std::vector<LatencyRow> rows = latency_table_rows(out);
  std::vector<std::string> opcodes;
  for (const auto& r : rows) opcodes.push_back(r.opcode);
  // Sorted; throughput-only HFMA2 gives no row; ISETP comes from the pair.
  EXPECT_EQ(opcodes, (std::vector<std::string>{"FFMA", "IMAD", "ISETP", "LDG", "MUFU", "SEL", "VOTE"}));
  auto row = [&](std::string_view opcode) {
    for (const auto& r : rows)
      if (r.opcode == opcode) return r;
    return LatencyRow{};
  };
  EXPECT_EQ(row("FFMA").cycles, 4);   // an exact figure stays
  EXPECT_EQ(row("IMAD").cycles, 5);   // rounded up
  EXPECT_EQ(row("ISETP").cycles, 6);  // 9.50 - 4.25 = 5.25
  EXPECT_DOUBLE_EQ(row("ISETP").measured, 5.25);
  EXPECT_EQ(row("ISETP").source, "ISETP+SEL - SEL");
  EXPECT_EQ(row("SEL").cycles, 5);
  EXPECT_EQ(row("MUFU").cycles, 19);  // the larger variant
  EXPECT_EQ(row("MUFU").source, "max of MUFU.EX2, MUFU.RSQ");
  EXPECT_EQ(row("LDG").cycles, 580);  // dram, not the L1 hit
  EXPECT_EQ(row("LDG").source, "LDG dram");
  EXPECT_EQ(row("VOTE").cycles, 1);  // never below one cycle

  // A pair whose parts are both unmeasured gives nothing.
  const auto alone = parse_latency_output("LATBENCH op=ISETP+SEL kind=latency cycles=9.50 links=1024\n");
  EXPECT_TRUE(latency_table_rows(alone).empty());
  // B+A form: the measured part may be either one.
  const auto other = parse_latency_output(
      "LATBENCH op=SEL+ISETP kind=latency cycles=9.50 links=1024\nLATBENCH op=SEL kind=latency cycles=4.00 links=8\n");
  const auto other_rows = latency_table_rows(other);
  ASSERT_EQ(other_rows.size(), 2u);
  EXPECT_EQ(other_rows[0].opcode, "ISETP");
  EXPECT_EQ(other_rows[0].cycles, 6);
}

TEST(LatencyBenchRows, TableListsMeasurementsAndColumn) {
  const std::string table = format_latency_table(sample_output());
  EXPECT_NE(table.find("GPU: NVIDIA H200 (sm_90), empty timing 6 cycles"), std::string::npos) << table;
  EXPECT_NE(table.find("FFMA         throughput       1.00   1024"), std::string::npos) << table;
  EXPECT_NE(table.find("LDG          l2             262.70    256"), std::string::npos) << table;
  // Beside data/tune/opcodes.tsv's figure (LDG 500, MUFU 20 there).
  EXPECT_NE(table.find("LDG           580      500  LDG dram (579.30)"), std::string::npos) << table;
  EXPECT_NE(table.find("MUFU           19       20  max of MUFU.EX2, MUFU.RSQ (18.10)"), std::string::npos) << table;
  EXPECT_NE(format_latency_table(parse_latency_output("nothing\n")).find("no LATBENCH measurements"),
            std::string::npos);
}

TEST(LatencyBenchOverrides, RoundTrip) {
  const LatencyBenchOutput out = sample_output();
  const std::string file = write_latency_overrides(out);
  EXPECT_EQ(file.rfind("# measured by gpuport latency-bench on NVIDIA H200 (sm_90)\n", 0), 0u) << file;
  EXPECT_NE(file.find("\nLDG\t580\n"), std::string::npos) << file;
  const LatencyOverrides back = parse_latency_overrides(file, "latency-sm_90.tsv");
  EXPECT_TRUE(back.errors.empty()) << format_diagnostic(back.errors.front());
  EXPECT_EQ(back.gpu, "NVIDIA H200");
  EXPECT_EQ(back.sm, 90);
  const auto rows = latency_table_rows(out);
  ASSERT_EQ(back.rows.size(), rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(back.rows[i].opcode, rows[i].opcode);
    EXPECT_EQ(back.rows[i].cycles, rows[i].cycles);
  }
  // Written twice, the same bytes.
  EXPECT_EQ(write_latency_overrides(out), file);
}

TEST(LatencyBenchOverrides, HandWrittenFile) {
  const LatencyOverrides o = parse_latency_overrides(
      "# hand-written\r\n\r\n  # indented comment\nFFMA\t4\r\nIMAD\t5\n\nLDG\t612");
  EXPECT_TRUE(o.errors.empty()) << format_diagnostic(o.errors.front());
  EXPECT_TRUE(o.gpu.empty());
  EXPECT_EQ(o.sm, 0);
  ASSERT_EQ(o.rows.size(), 3u);
  EXPECT_EQ(o.rows[2].opcode, "LDG");
  EXPECT_EQ(o.rows[2].cycles, 612);
}

TEST(LatencyBenchOverrides, BadLinesNameTheirLine) {
  const std::string text =
      "# measured by gpuport latency-bench on X (sm_90)\n"  // 1
      "FFMA 4\n"                                            // 2: no tab
      "ffma\t4\n"                                           // 3: not upper case
      "MUFU.EX2\t19\n"                                      // 4: a modifier
      "FFMA\t4.5\n"                                         // 5: not an integer
      "FFMA\t0\n"                                           // 6: below 1
      "IMAD\t5\textra\n"                                    // 7: three fields
      "IMAD\t5\n"                                           // 8: fine
      "IMAD\t6\n"                                           // 9: twice
      "\n"                                                  // 10
      "LDG\t100001\n";                                      // 11: above 100000
  const LatencyOverrides o = parse_latency_overrides(text, "over.tsv");
  EXPECT_EQ(error_lines(o.errors), (std::vector<std::uint32_t>{2, 3, 4, 5, 6, 7, 9, 11}));
  for (const auto& e : o.errors) {
    EXPECT_EQ(e.code, "bad-latency-override");
    EXPECT_EQ(e.location.file, "over.tsv");
  }
  EXPECT_NE(o.errors[6].message.find("twice"), std::string::npos) << o.errors[6].message;
  ASSERT_EQ(o.rows.size(), 1u);
  EXPECT_EQ(o.rows[0].opcode, "IMAD");
  EXPECT_EQ(o.rows[0].cycles, 5);
  EXPECT_EQ(o.gpu, "X");
  EXPECT_EQ(o.sm, 90);
}

TEST(LatencyBenchSource, EveryKernelIsDefinedAndTimed) {
  const std::string src = generate_latency_benchmark();
  const auto kernels = latency_kernels();
  std::set<std::string> names, ops;
  for (const auto& k : kernels) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    ops.insert(k.op);
    EXPECT_NE(src.find(fmt::format("extern \"C\" __global__ void {}(", k.name)), std::string::npos) << k.name;
    EXPECT_NE(src.find(fmt::format("{{\"{}\", \"{}\", {}, {},", k.op, k.kind, k.name, k.links)), std::string::npos)
        << k.name;
    EXPECT_EQ(k.dependent, k.kind != "throughput") << k.name;
  }
  // What the brief of the benchmark asks for: each of these operations is measured.
  for (const char* op : {"IMAD", "IADD3", "LOP3", "SHF", "FFMA", "FADD", "FMUL", "HFMA2", "DFMA", "DADD", "MUFU.EX2",
                         "MUFU.RSQ", "I2FP", "F2I", "I2F.F64", "POPC", "FLO", "BREV", "SHFL", "LDS", "LDG", "LDC",
                         "ISETP+SEL", "SEL"})
    EXPECT_TRUE(ops.count(op)) << op;
  for (const char* kind : {"l2", "dram"})
    EXPECT_NE(src.find(fmt::format("{{\"LDG\", \"{}\",", kind)), std::string::npos) << kind;
  EXPECT_NE(src.find("void latency_empty("), std::string::npos);
  EXPECT_NE(src.find("clock64()"), std::string::npos);
  EXPECT_NE(src.find("LATBENCH op=%s kind=%s cycles=%.2f links=%d"), std::string::npos);
  EXPECT_NE(src.find("LATBENCH error: %s failed"), std::string::npos);
  EXPECT_NE(src.find("CHECK(cudaDeviceSynchronize())"), std::string::npos);
  EXPECT_EQ(src.find("#include <random>"), std::string::npos);  // breaks nvcc 11.8 with libstdc++ 12
  EXPECT_EQ(generate_latency_benchmark(), src);                 // deterministic
}

TEST(LatencyBenchSource, LinksFollowTheOptions) {
  LatencyBenchOptions o;
  o.links = 100;
  o.memory_links = 10;
  o.independent_chains = 8;
  auto find = [&](std::string_view name) {
    for (const auto& k : latency_kernels(o))
      if (k.name == name) return k;
    return LatencyKernel{};
  };
  EXPECT_EQ(find("latency_ffma").chain_links, 100);
  EXPECT_EQ(find("latency_lop3").chain_links, 50);  // two LOP3 per link
  EXPECT_EQ(find("latency_lop3").links, 100);
  EXPECT_EQ(find("throughput_lop3").links, 96);  // 50 links rounded down to 6 per accumulator
  EXPECT_EQ(find("throughput_ffma").links, 96);
  EXPECT_EQ(find("latency_isetp_sel").links, 100);
  EXPECT_EQ(find("latency_ldg_dram").links, 10);
  EXPECT_EQ(find("throughput_lds").links, 8);
  const std::string src = generate_latency_benchmark(o);
  EXPECT_NE(src.find("for (int i = 0; i < 50; ++i)"), std::string::npos);
  // cvt.rn.f32.s32 is I2FP from sm_86 on, I2F before.
  EXPECT_EQ(find("latency_i2f_f32").op, "I2FP");
  o.arch = 80;
  EXPECT_EQ(find("latency_i2f_f32").op, "I2F");
  EXPECT_EQ(find("latency_i2f_f32").opcodes, (std::vector<std::pair<std::string, int>>{{"I2F", 1}}));
  EXPECT_NE(generate_latency_benchmark(o).find("{\"I2F\", \"latency\", latency_i2f_f32,"), std::string::npos);
  EXPECT_NE(src.find("{\"LOP3\", \"throughput\", throughput_lop3, 96, kStartNone}"), std::string::npos);
  EXPECT_NE(src.find("constexpr int kMemoryLinks = 10;"), std::string::npos);
}

// A hand-made function for the inspection: two clock reads around the instructions in `body`.
sass::SassProgram program_of(const std::string& name, const std::vector<std::string>& body) {
  sass::SassFunction f;
  f.name = name;
  std::vector<std::string> all = {"MOV R4, R9 ;", "CS2R R2, SR_CLOCKLO ;"};
  all.insert(all.end(), body.begin(), body.end());
  all.push_back("CS2R R10, SR_CLOCKLO ;");
  for (std::size_t i = 0; i < all.size(); ++i) {
    sass::SassInstruction inst;
    EXPECT_TRUE(sass::parse_instruction_text(all[i], inst)) << all[i];
    inst.address = 16 * i;
    f.instructions.push_back(inst);
  }
  sass::SassProgram p;
  p.functions.push_back(f);
  return p;
}

TEST(LatencyBenchInspect, ChainsCountsAndBreaks) {
  LatencyKernel k;
  k.name = "latency_ffma";
  k.op = "FFMA";
  k.kind = "latency";
  k.opcodes = {{"FFMA", 1}};
  k.chain_links = 3;
  k.links = 3;
  const auto good = inspect_latency_kernels(
      program_of("latency_ffma", {"FFMA R4, R4, R5, R6 ;", "IADD3 R7, R7, 0x1, RZ ;", "FFMA R4, R5, R4, R6 ;",
                                  "FFMA R8, R4, R5, R6 ;"}),
      {k});
  ASSERT_EQ(good.size(), 1u);
  EXPECT_TRUE(good[0].problem.empty()) << good[0].problem;
  EXPECT_TRUE(good[0].chained);
  EXPECT_EQ(good[0].counts, (std::vector<std::pair<std::string, int>>{{"FFMA", 3}}));

  // The third FFMA reads nothing the second wrote.
  const auto broken = inspect_latency_kernels(
      program_of("latency_ffma", {"FFMA R4, R4, R5, R6 ;", "FFMA R4, R5, R4, R6 ;", "FFMA R8, R9, R5, R6 ;"}), {k});
  EXPECT_FALSE(broken[0].chained);
  EXPECT_NE(broken[0].problem.find("dependent chain"), std::string::npos) << broken[0].problem;
  // ... which a throughput kernel may do.
  LatencyKernel t = k;
  t.dependent = false;
  const auto independent = inspect_latency_kernels(
      program_of("latency_ffma", {"FFMA R4, R4, R5, R6 ;", "FFMA R4, R5, R4, R6 ;", "FFMA R8, R9, R5, R6 ;"}), {t});
  EXPECT_TRUE(independent[0].problem.empty()) << independent[0].problem;

  // Too few: ptxas folded links away.
  const auto folded = inspect_latency_kernels(program_of("latency_ffma", {"FFMA R4, R4, R5, R6 ;"}), {k});
  EXPECT_NE(folded[0].problem.find("1 FFMA in the timed region, expected at least 3"), std::string::npos)
      << folded[0].problem;
  // Missing kernel; no clock reads.
  EXPECT_EQ(inspect_latency_kernels(program_of("other", {}), {k})[0].problem, "not in the listing");
  sass::SassProgram no_clock = program_of("latency_ffma", {"FFMA R4, R4, R5, R6 ;"});
  no_clock.functions[0].instructions.erase(no_clock.functions[0].instructions.begin() + 1);
  EXPECT_NE(inspect_latency_kernels(no_clock, {k})[0].problem.find("clock read"), std::string::npos);
}

// The benchmark built once (nvcc 11.8, sm_90, the default options) and its SASS.
struct BuiltBenchmark {
  std::string skip;  // why the SASS tests cannot run here
  std::string failure;
  BenchmarkDisassembly sass;
};

const BuiltBenchmark& built_benchmark() {
  static const BuiltBenchmark b = [] {
    BuiltBenchmark r;
    const sass::Toolchain tc = sass::detect_toolchain(sass::ToolchainId::cuda11);
    for (sass::Tool tool : {sass::Tool::nvcc, sass::Tool::cuobjdump, sass::Tool::nvdisasm})
      if (auto why = tc.unavailable(tool)) {
        r.skip = fmt::format("SKIPPED: needs CUDA 11.8's {}: {}", sass::tool_name(tool), *why);
        return r;
      }
    const fs::path dir = fs::temp_directory_path() / fmt::format("gpuport-latbench-test-{}", ::getpid());
    fs::create_directories(dir);
    std::ofstream(dir / "latency_bench.cu") << generate_latency_benchmark();
    const sass::ToolRun built = build_latency_benchmark(dir / "latency_bench.cu", dir / "latency_bench", 90);
    if (!built.ok) {
      r.failure = built.message;
    } else {
      r.sass = disassemble_latency_benchmark(dir / "latency_bench");
      if (!r.sass.ok) r.failure = r.sass.message;
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return r;
  }();
  return b;
}

TEST(LatencyBenchSass, EveryTimedChainIsItsOpcodeOnSm90) {
  const BuiltBenchmark& b = built_benchmark();
  if (!b.skip.empty()) GTEST_SKIP() << b.skip;
  ASSERT_TRUE(b.failure.empty()) << b.failure;
  const auto kernels = latency_kernels();
  const auto evidence = inspect_latency_kernels(b.sass.program, kernels);
  ASSERT_EQ(evidence.size(), kernels.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const KernelEvidence& e = evidence[i];
    EXPECT_TRUE(e.found) << e.kernel;
    EXPECT_TRUE(e.problem.empty()) << e.kernel << ": " << e.problem;
    for (std::size_t c = 0; c < kernels[i].opcodes.size(); ++c)
      EXPECT_GE(e.counts[c].second, kernels[i].chain_links * kernels[i].opcodes[c].second)
          << e.kernel << " " << e.counts[c].first;
    if (kernels[i].dependent) {
      EXPECT_TRUE(e.chained) << e.kernel;
    }
  }
  // ptxas's own view, from the control codes: a fixed-latency chain waits by stall counts (which is
  // what the GPU will measure for it), a variable-latency one on scoreboards.
  auto of = [&](std::string_view name) {
    for (const auto& e : evidence)
      if (e.kernel == name) return e;
    return KernelEvidence{};
  };
  EXPECT_FALSE(of("latency_ffma").scoreboarded);
  EXPECT_GE(of("latency_ffma").stall_cycles_per_link, 2.0);
  EXPECT_LE(of("throughput_ffma").stall_cycles_per_link, of("latency_ffma").stall_cycles_per_link);
  for (const char* name : {"latency_mufu_ex2", "latency_lds", "latency_ldg_dram", "latency_ldc", "latency_shfl"})
    EXPECT_TRUE(of(name).scoreboarded) << name;
  if (HasFailure()) std::cout << format_kernel_evidence(evidence);
}

TEST(LatencyBenchSass, InspectionRejectsWrongExpectations) {
  const BuiltBenchmark& b = built_benchmark();
  if (!b.skip.empty()) GTEST_SKIP() << b.skip;
  ASSERT_TRUE(b.failure.empty()) << b.failure;
  auto kernel = [](std::string_view name) {
    for (const auto& k : latency_kernels())
      if (k.name == name) return k;
    return LatencyKernel{};
  };
  LatencyKernel wrong_opcode = kernel("latency_ffma");
  wrong_opcode.opcodes = {{"DFMA", 1}};
  LatencyKernel independent = kernel("throughput_ffma");
  independent.dependent = true;  // sixteen accumulators are not one chain
  LatencyKernel missing = kernel("latency_ffma");
  missing.name = "latency_nothing";
  const auto evidence = inspect_latency_kernels(b.sass.program, {wrong_opcode, independent, missing});
  EXPECT_NE(evidence[0].problem.find("0 DFMA in the timed region"), std::string::npos) << evidence[0].problem;
  EXPECT_NE(evidence[1].problem.find("dependent chain"), std::string::npos) << evidence[1].problem;
  EXPECT_EQ(evidence[2].problem, "not in the listing");
}

}  // namespace
}  // namespace gpuport::tune
