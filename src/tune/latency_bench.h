// `gpuport latency-bench`: a generated CUDA microbenchmark that measures, on the GPU, the SASS
// latencies that `gpuport tune` assumes (the latency column of data/tune/opcodes.tsv), and the
// override file that carries the measured figures to the tuner. One kernel per operation: one
// warp runs a long chain of dependent operations (inline PTX, `asm volatile`, operands read from
// memory) between two clock64() reads; cycles per link = (chain - empty timing) / links. A second
// kernel runs the same operation on independent accumulators (one warp's issue interval).
// Promise: every kernel's timed chain is the intended SASS opcode, which inspect_latency_kernels
// checks on the disassembly; output and override files are parsed back with line numbers.
// Measured on sm_90 (checked with ptxas/nvdisasm 11.8; sm_70..sm_89 build and check too): IMAD,
// IADD3, LOP3, SHF, ISETP (from an ISETP+SEL pair minus SEL), SEL, POPC, FLO, BREV, FFMA, FADD,
// FMUL, HFMA2 (ptxas alternates HFMA2 and HFMA2.MMA: their mean), DFMA, DADD, DMUL, MUFU (EX2,
// RSQ), I2FP (cvt.rn.f32.s32 on sm_86+; I2F before), I2F and F2I (f32 and f64 forms), SHFL, LDS,
// LDG (L1 hit, L2 hit, DRAM), LDC. None of the operations asked for had to be dropped; where the
// plain PTX would fold (an xor chain, one select predicate, a warp-uniform shuffle) the link is
// shaped so that it cannot (latency_bench.cc says how).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"
#include "sass/program.h"
#include "sass/toolchain.h"

namespace gpuport::tune {

struct LatencyBenchOptions {
  int arch = 90;                // sm_XX: what the chains compile to (cvt.rn.f32.s32 is I2FP from sm_86, I2F before)
  int links = 1024;             // dependent operations per timed ALU chain (also the ops per throughput run)
  int memory_links = 256;       // dependent loads per timed memory chain
  int repetitions = 5;          // timed chains per launch, after one untimed warm-up chain
  int warps = 4;                // launches of one warp each, one at a time; the median is over all
  int independent_chains = 16;  // accumulators of the throughput kernels
};

// One kernel of the benchmark and what its timed chain must be made of.
struct LatencyKernel {
  std::string name;  // "latency_ffma", "throughput_ffma", "latency_ldg_dram"
  std::string op;    // the output's op=: the SASS opcode ("FFMA"), a variant ("MUFU.EX2") or a pair ("ISETP+SEL")
  std::string kind;  // latency, throughput, l2, dram
  // Base opcodes of the chain and how many of each one link holds (ISETP+SEL: ISETP 1, SEL 1).
  std::vector<std::pair<std::string, int>> opcodes;
  int links = 0;          // the output's links=: measured operations (op units) in one timed chain
  int chain_links = 0;    // PTX links in one timed chain
  bool dependent = true;  // latency kinds: each chain instruction reads what the previous one wrote
};

// The kernels generate_latency_benchmark writes, in output order.
std::vector<LatencyKernel> latency_kernels(const LatencyBenchOptions& options = {});

// The CUDA source (host and device). Its output, one line each:
//   LATBENCH gpu="<name>" sm=<major*10+minor> sms=<n> clock_mhz=<n> l2_bytes=<n> warps=<n> reps=<n> empty=<cycles>
//   LATBENCH op=<OP> kind=<latency|throughput|l2|dram> cycles=<cycles per link, 2 decimals> links=<n>
// Every CUDA call is checked: on failure it prints "LATBENCH error: ..." and exits 1.
std::string generate_latency_benchmark(const LatencyBenchOptions& options = {});

// Builds `source` into `executable` with nvcc 11.8 (-O3 -arch=sm_XX), as divergence-bench does.
sass::ToolRun build_latency_benchmark(const std::filesystem::path& source, const std::filesystem::path& executable,
                                      int arch, std::chrono::seconds timeout = std::chrono::seconds(600));

// The built executable's SASS: its cubins extracted into a private temporary folder (cuobjdump -xelf 11.8; its
// -sass takes minutes on this much code) and the one that holds the benchmark's kernels
// disassembled (nvdisasm 11.8) and parsed. ok false: `message` says which tool is missing or
// failed, or that no cubin has the kernels.
struct BenchmarkDisassembly {
  bool ok = false;
  std::string message;
  std::string listing;  // nvdisasm -hex text
  sass::SassProgram program;
};
BenchmarkDisassembly disassemble_latency_benchmark(const std::filesystem::path& executable);

// What the disassembly shows for one kernel: the opcodes between its first two clock reads (the
// timed chain of the timed-repetition loop).
struct KernelEvidence {
  std::string kernel;
  bool found = false;                                // the function is in the listing
  std::vector<std::pair<std::string, int>> counts;  // expected opcode -> instances in the timed region
  bool chained = false;      // each chain instruction reads a register the previous one wrote
  // What ptxas encoded (nvdisasm -hex listings): the stall counts of the timed region per measured
  // op. For a chain of fixed-latency instructions (no scoreboard) this is what the GPU will
  // measure: the hardware waits as long as ptxas says, so such a figure is ptxas's latency.
  double stall_cycles_per_link = 0;
  bool scoreboarded = false;  // a chain instruction sets a scoreboard (variable latency)
  std::string problem;        // empty when the kernel's chain is what LatencyKernel says
};

// Checks every kernel of `kernels` in `program` (nvdisasm or cuobjdump -sass, parsed): at least
// chain_links x the per-link count of each expected opcode between the clock reads, and for
// `dependent` kernels an unbroken def-use chain through them (each reads what the previous wrote).
std::vector<KernelEvidence> inspect_latency_kernels(const sass::SassProgram& program,
                                                    const std::vector<LatencyKernel>& kernels);
// One line per kernel: "latency_ffma  FFMA 1024  dependent chain  stalls 4.00/link" or the problem.
std::string format_kernel_evidence(const std::vector<KernelEvidence>& evidence);

struct LatencyMeasurement {
  std::string op;    // as printed: FFMA, MUFU.EX2, ISETP+SEL
  std::string kind;  // latency, throughput, l2, dram
  double cycles = 0;
  int links = 0;
  std::size_t line = 0;  // in the output
};

struct LatencyBenchOutput {
  std::string gpu;  // from the header; empty when absent
  int sm = 0;
  double empty_cycles = 0;
  std::vector<LatencyMeasurement> measurements;  // in output order
  // "LATBENCH error" lines and malformed LATBENCH lines, with their line numbers (code
  // bad-latency-output; the benchmark's own failures: latency-bench-error).
  std::vector<Diagnostic> errors;
};

// Reads the benchmark's output; lines that do not start with "LATBENCH" are ignored. `file`
// names the input in the diagnostics.
LatencyBenchOutput parse_latency_output(std::string_view text, const std::string& file = "<output>");

// One row of the latency column: the opcode and its measured latency rounded up.
struct LatencyRow {
  std::string opcode;
  int cycles = 0;
  double measured = 0;  // the figure the row was rounded up from
  std::string source;   // how: "FFMA latency", "max of MUFU.EX2, MUFU.RSQ", "ISETP+SEL - SEL", "LDG dram"
};

// Rows for the measured opcodes, sorted by opcode. Only the latency kinds count (not
// throughput). Variants of one opcode (MUFU.EX2, MUFU.RSQ) give their largest figure: the column
// is an upper bound for the legality rules. A pair A+B gives A = pair - B when B is measured on
// its own. An opcode measured with kind=dram (LDG) takes that figure: the column's default for
// global loads assumes a miss; the l1 (kind=latency) and l2 figures stay in the printed table.
std::vector<LatencyRow> latency_table_rows(const LatencyBenchOutput& output);

// The printed table of --from-output: op, kind, cycles, links, and the rows beside the current
// data/tune/opcodes.tsv figures.
std::string format_latency_table(const LatencyBenchOutput& output);

// The override file (data/tune/latency-sm_90.tsv style): a "# measured by gpuport latency-bench
// on <gpu> (sm_<sm>)" line, comment lines, then OPCODE<TAB>cycles per row.
std::string write_latency_overrides(const LatencyBenchOutput& output);

struct LatencyOverride {
  std::string opcode;
  int cycles = 0;
};

struct LatencyOverrides {
  std::string gpu;  // from the "# measured by" line, when there is one
  int sm = 0;
  std::vector<LatencyOverride> rows;  // in file order
  std::vector<Diagnostic> errors;     // code bad-latency-override, with the line number
};

// Parses an override file: blank lines and '#' comments skipped; each other line is
// OPCODE<TAB>cycles (an upper-case SASS opcode, an integer 1..100000); a repeated opcode is an
// error.
LatencyOverrides parse_latency_overrides(std::string_view text, const std::string& file = "<overrides>");

}  // namespace gpuport::tune
