#include "tune/latency_bench.h"

#include <algorithm>
#include <cstring>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "sass/defuse.h"
#include "sass/parser.h"
#include "tune/tables.h"
#include "common/temporary.h"
#include "common/text.h"

namespace gpuport::tune {
namespace fs = std::filesystem;

namespace {

// The C type, inline-asm constraint and Inputs/Sink field of a chained value.
struct ValueType {
  std::string_view ctype, constraint, field;
};
constexpr ValueType kU32{"unsigned", "r", "u"};
constexpr ValueType kHalf2{"unsigned", "r", "h2"};  // two halves in a 32-bit register (f16x2)
constexpr ValueType kF32{"float", "f", "f"};
constexpr ValueType kF64{"double", "d", "d"};
constexpr ValueType kU64{"unsigned long long", "l", "q"};

// One ALU operation: a link of its chain in PTX (%0 the chained value, %1.. operands read from
// memory before the timed loop). What ptxas 11.8 makes of each on sm_90 was checked on the
// disassembly (tests/unit/tune_latency_bench_test.cc does it again):
//   - two add.s32 fuse into one IADD3 (one add alone would pair up with the next link's);
//   - one xor chain folds away entirely (x^a^a), so LOP3 alternates two operand pairs through a
//     LUT (0x6c) that no two links can merge into one LOP3 (five inputs);
//   - SEL alternates two predicates (one predicate folds a chain of selects: p ? (p ? x : y) : y);
//   - fma.rn.f16x2 alternates HFMA2 and HFMA2.MMA (the two pipes ptxas spreads it over): the
//     figure is their mean;
//   - cvt.rn.f32.s32 is I2FP (the ALU form) from sm_86 and I2F before; the f64 one is I2F on all;
//   - shfl.sync.idx needs a lane source that differs per lane: with one source lane ptxas knows
//     the result is warp-uniform and drops every shuffle but the first.
struct AluOp {
  std::string_view op, slug;
  ValueType type;
  int operands;  // %1..%operands
  std::string_view ptx;
  std::vector<std::pair<std::string, int>> opcodes;  // per link
  int units;                                         // measured op units per link
  bool lane_source = false;                          // %1 is a per-lane source lane (SHFL)
  std::string_view before_sm86;                      // the op (and opcode) below sm_86, when it differs
};

// The op name and opcodes of `op` on sm_`arch`.
std::pair<std::string, std::vector<std::pair<std::string, int>>> resolve(const AluOp& op, int arch) {
  if (arch < 86 && !op.before_sm86.empty())
    return {std::string(op.before_sm86), {{std::string(op.before_sm86), op.opcodes.front().second}}};
  return {std::string(op.op), op.opcodes};
}

const std::vector<AluOp>& alu_ops() {
  static const std::vector<AluOp> ops = {
      {"IMAD", "imad", kU32, 2, "mad.lo.s32 %0, %0, %1, %2;", {{"IMAD", 1}}, 1},
      {"IADD3", "iadd3", kU32, 2, "add.s32 %0, %0, %1;\\n\\tadd.s32 %0, %0, %2;", {{"IADD3", 1}}, 1},
      {"LOP3", "lop3", kU32, 4, "lop3.b32 %0, %0, %1, %2, 0x6c;\\n\\tlop3.b32 %0, %0, %3, %4, 0x6c;", {{"LOP3", 2}}, 2},
      {"SHF", "shf", kU32, 2, "shf.l.clamp.b32 %0, %1, %0, %2;", {{"SHF", 1}}, 1},
      {"ISETP+SEL", "isetp_sel", kU32, 3,
       "{\\n\\t.reg .pred p;\\n\\tsetp.lt.s32 p, %0, %1;\\n\\tselp.b32 %0, %2, %3, p;\\n\\t}",
       {{"ISETP", 1}, {"SEL", 1}}, 1},
      {"SEL", "sel", kU32, 3,
       "{\\n\\t.reg .pred p, q;\\n\\tsetp.ne.s32 p, %3, 0;\\n\\tsetp.gt.s32 q, %3, 5;\\n\\t"
       "selp.b32 %0, %0, %1, p;\\n\\tselp.b32 %0, %0, %2, q;\\n\\t}",
       {{"SEL", 2}}, 2},
      {"POPC", "popc", kU32, 0, "popc.b32 %0, %0;", {{"POPC", 1}}, 1},
      {"FLO", "flo", kU32, 0, "bfind.u32 %0, %0;", {{"FLO", 1}}, 1},
      {"BREV", "brev", kU32, 0, "brev.b32 %0, %0;", {{"BREV", 1}}, 1},
      {"FFMA", "ffma", kF32, 2, "fma.rn.f32 %0, %0, %1, %2;", {{"FFMA", 1}}, 1},
      {"FADD", "fadd", kF32, 1, "add.rn.f32 %0, %0, %1;", {{"FADD", 1}}, 1},
      {"FMUL", "fmul", kF32, 1, "mul.rn.f32 %0, %0, %1;", {{"FMUL", 1}}, 1},
      {"HFMA2", "hfma2", kHalf2, 2, "fma.rn.f16x2 %0, %0, %1, %2;", {{"HFMA2", 1}}, 1},
      {"DFMA", "dfma", kF64, 2, "fma.rn.f64 %0, %0, %1, %2;", {{"DFMA", 1}}, 1},
      {"DADD", "dadd", kF64, 1, "add.rn.f64 %0, %0, %1;", {{"DADD", 1}}, 1},
      {"DMUL", "dmul", kF64, 1, "mul.rn.f64 %0, %0, %1;", {{"DMUL", 1}}, 1},
      {"MUFU.EX2", "mufu_ex2", kF32, 0, "ex2.approx.ftz.f32 %0, %0;", {{"MUFU", 1}}, 1},
      {"MUFU.RSQ", "mufu_rsq", kF32, 0, "rsqrt.approx.ftz.f32 %0, %0;", {{"MUFU", 1}}, 1},
      // The bits of one are the input of the next (the register is reused as it is): the values
      // do not matter to the timing, and no second instruction is needed to convert back.
      {"I2FP", "i2f_f32", kU32, 0, "cvt.rn.f32.s32 %0, %0;", {{"I2FP", 1}}, 1, false, "I2F"},
      {"F2I", "f2i", kU32, 0, "cvt.rzi.s32.f32 %0, %0;", {{"F2I", 1}}, 1},
      {"I2F.F64", "i2f_f64", kU64, 0, "cvt.rn.f64.s64 %0, %0;", {{"I2F", 1}}, 1},
      {"F2I.F64", "f2i_f64", kU64, 0, "cvt.rzi.s64.f64 %0, %0;", {{"F2I", 1}}, 1},
      {"SHFL", "shfl", kU32, 1, "shfl.sync.idx.b32 %0, %0, %1, 0x1f, 0xffffffff;", {{"SHFL", 1}}, 1, true},
  };
  return ops;
}

// The memory chains: pointer chasing, one address per link.
struct MemoryOp {
  std::string_view op, slug, kind;
  ValueType type;
  std::string_view ptx;
  std::string_view start;  // host start mode (see the generated main)
  bool throughput;
};

const std::vector<MemoryOp>& memory_ops() {
  static const std::vector<MemoryOp> ops = {
      // Shared memory: the chase lies in a __shared__ array that the kernel links first.
      {"LDS", "lds", "latency", kU32, "ld.shared.u32 %0, [%0];", "kStartShared", true},
      // Global memory: 256 lines of 128 bytes in random order, visited again by every repetition
      // (after the warm-up one, in L1); .cg skips L1 (L2 hits; ptxas 11.8 makes it
      // LDG.E.64.STRONG.GPU on sm_90, plain ld.global LDG.E.64); the DRAM chase visits random 4 KiB
      // slots of a buffer 8x the L2 (at least 256 MiB), new ones on every repetition and launch,
      // after a kernel that reads 4x the L2 to evict the chase's lines (address translation
      // misses are part of the figure, as they are for any random access).
      {"LDG", "ldg_l1", "latency", kU64, "ld.global.u64 %0, [%0];", "kStartSmall", false},
      {"LDG", "ldg_l2", "l2", kU64, "ld.global.cg.u64 %0, [%0];", "kStartSmall", false},
      {"LDG", "ldg_dram", "dram", kU64, "ld.global.u64 %0, [%0];", "kStartDram", false},
      // Constant bank: a __constant__ array holding the bank addresses of the next slot
      // (ld.const with a 32-bit address is LDC Rd, c[0x3][Ra]).
      {"LDC", "ldc", "latency", kU32, "ld.const.u32 %0, [%0];", "kStartConst", false},
  };
  return ops;
}

int clamp_links(int links) { return std::clamp(links, 1, 16384); }

int chains_of(const LatencyBenchOptions& o) { return std::clamp(o.independent_chains, 1, 32); }

// PTX links per timed chain of `units` op units each, so that the chain has about `links` units;
// throughput kernels round to a multiple of the accumulator count.
int chain_links_of(int links, int units, int chains) {
  int n = std::max(1, clamp_links(links) / std::max(1, units));
  if (chains > 1) n = std::max(1, n / chains) * chains;
  return n;
}

std::string kernel_signature(std::string_view name) {
  return fmt::format(
      "extern \"C\" __global__ void {}(const Inputs* __restrict__ in, Sink* __restrict__ out,\n"
      "    long long* __restrict__ cycles, int reps, unsigned long long start) {{\n",
      name);
}

// The timed-repetition loop around `chain` (repetition 0 warms the instruction cache and, for
// the memory chains, the data caches; it is not recorded).
std::string timed_loop(const std::string& chain) {
  return "#pragma unroll 1\n"
         "  for (int r = 0; r <= reps; ++r) {\n"
         "    const long long t0 = clock64();\n" +
         chain +
         "    const long long t1 = clock64();\n"
         "    if (r > 0 && lane == 0) cycles[r - 1] = t1 - t0;\n"
         "  }\n";
}

// `count` PTX links, unrolled: `chains` accumulators v0.. take turns.
std::string unrolled(int count, int chains, std::string_view ptx, ValueType type,
                     const std::vector<std::string>& inputs) {
  std::string body;
  for (int j = 0; j < chains; ++j) {
    body += fmt::format("      asm volatile(\"{}\" : \"+{}\"(v{})", ptx, type.constraint, j);
    if (!inputs.empty()) {
      body += " :";
      for (std::size_t k = 0; k < inputs.size(); ++k)
        body += fmt::format("{} \"{}\"({})", k ? "," : "", type.constraint, inputs[k]);
    }
    body += ");\n";
  }
  return fmt::format("#pragma unroll\n    for (int i = 0; i < {}; ++i) {{\n{}    }}\n", count / chains, body);
}

std::string sink_stores(ValueType type, int chains) {
  std::string s;
  for (int j = 0; j < chains; ++j) s += fmt::format("  out->{}[{} * 32 + lane] = v{};\n", type.field, j, j);
  return s;
}

}  // namespace

std::vector<LatencyKernel> latency_kernels(const LatencyBenchOptions& o) {
  const int chains = chains_of(o);
  std::vector<LatencyKernel> out;
  for (const AluOp& op : alu_ops()) {
    for (bool throughput : {false, true}) {
      LatencyKernel k;
      k.name = fmt::format("{}_{}", throughput ? "throughput" : "latency", op.slug);
      std::tie(k.op, k.opcodes) = resolve(op, o.arch);
      k.kind = throughput ? "throughput" : "latency";
      k.chain_links = chain_links_of(o.links, op.units, throughput ? chains : 1);
      k.links = k.chain_links * op.units;
      k.dependent = !throughput;
      out.push_back(std::move(k));
    }
  }
  for (const MemoryOp& op : memory_ops()) {
    for (bool throughput : {false, true}) {
      if (throughput && !op.throughput) continue;
      LatencyKernel k;
      k.name = fmt::format("{}_{}", throughput ? "throughput" : "latency", op.slug);
      k.op = std::string(op.op);
      k.kind = throughput ? "throughput" : std::string(op.kind);
      k.opcodes = {{std::string(op.op), 1}};
      k.chain_links = chain_links_of(o.memory_links, 1, throughput ? chains : 1);
      k.links = k.chain_links;
      k.dependent = !throughput;
      out.push_back(std::move(k));
    }
  }
  return out;
}

std::string generate_latency_benchmark(const LatencyBenchOptions& o) {
  const int chains = chains_of(o);
  const std::vector<LatencyKernel> kernels = latency_kernels(o);
  std::string s;
  s += "// Generated by `gpuport latency-bench` (src/tune/latency_bench.cc): SASS latencies for\n"
       "// `gpuport tune`, measured with clock64() around chains of dependent operations, one warp at a\n"
       "// time. Each operation is inline PTX in `asm volatile` with operands read from memory, so the\n"
       "// compiler keeps every link; latency_<op> chains them (each link reads the previous result),\n"
       "// throughput_<op> runs the same links on independent accumulators (one warp's issue rate).\n"
       "// Output: LATBENCH gpu=... header, then LATBENCH op=<OP> kind=<kind> cycles=<per link> links=<n>\n"
       "// with cycles = (median chain - median empty timing) / links over warps x repetitions.\n"
       "#include <cuda_runtime.h>\n#include <algorithm>\n#include <cstdio>\n#include <cstdlib>\n"
       "#include <vector>\n\n"
       "#define CHECK(call)                                                                   \\\n"
       "  do {                                                                                \\\n"
       "    cudaError_t err_ = (call);                                                        \\\n"
       "    if (err_ != cudaSuccess) {                                                        \\\n"
       "      std::printf(\"LATBENCH error: %s failed: %s (%s:%d)\\n\", #call, cudaGetErrorString(err_), \\\n"
       "                  __FILE__, __LINE__);                                                \\\n"
       "      std::exit(1);                                                                   \\\n"
       "    }                                                                                 \\\n"
       "  } while (0)\n\n";
  s += fmt::format(
      "constexpr int kRepetitions = {};\nconstexpr int kWarps = {};\nconstexpr int kMemoryLinks = {};\n"
      "constexpr int kSharedSlots = 256;   // the shared-memory chase: 4-byte slots\n"
      "constexpr int kSmallSlots = 256;    // the L1/L2 chase: 128-byte lines (32 KiB)\n"
      "constexpr int kSmallStride = 128;\n"
      "constexpr int kDramStride = 4096;   // the DRAM chase: one slot per 4 KiB\n"
      "constexpr int kConstSlots = 256;\n\n",
      std::max(1, o.repetitions), std::max(1, o.warps), chain_links_of(o.memory_links, 1, 1));
  s += "// Operands and start values, filled by the host (nothing the compiler can fold).\n"
       "struct Inputs {\n"
       "  unsigned u[64];\n  unsigned h2[64];\n  float f[64];\n  double d[64];\n  unsigned long long q[64];\n"
       "  unsigned lane_source[32];\n  unsigned next_slot[kSharedSlots];\n};\n"
       "// Where the chains' results go, so that none is dead.\n"
       "struct Sink {\n"
       "  unsigned u[32 * 32];\n  unsigned h2[32 * 32];\n  float f[32 * 32];\n  double d[32 * 32];\n"
       "  unsigned long long q[32 * 32];\n};\n\n"
       "__constant__ unsigned latbench_const_chase[kConstSlots];\n\n";

  // ALU kernels.
  for (const AluOp& op : alu_ops()) {
    for (bool throughput : {false, true}) {
      const int k_chains = throughput ? chains : 1;
      const int count = chain_links_of(o.links, op.units, k_chains);
      const std::string name = fmt::format("{}_{}", throughput ? "throughput" : "latency", op.slug);
      s += kernel_signature(name);
      s += "  const int lane = threadIdx.x & 31;\n";
      for (int j = 0; j < k_chains; ++j)
        s += fmt::format("  {} v{} = in->{}[(lane + {}) & 63];\n", op.type.ctype, j, op.type.field, j);
      std::vector<std::string> inputs;
      for (int k = 1; k <= op.operands; ++k) {
        const std::string a = fmt::format("a{}", k);
        if (op.lane_source && k == 1)
          s += fmt::format("  const {} {} = in->lane_source[lane];\n", op.type.ctype, a);
        else
          s += fmt::format("  const {} {} = in->{}[{}];\n", op.type.ctype, a, op.type.field, 31 + k);
        inputs.push_back(a);
      }
      s += timed_loop(unrolled(count, k_chains, op.ptx, op.type, inputs));
      s += sink_stores(op.type, k_chains);
      s += "}\n\n";
    }
  }

  // Memory kernels.
  for (const MemoryOp& op : memory_ops()) {
    for (bool throughput : {false, true}) {
      if (throughput && !op.throughput) continue;
      const int k_chains = throughput ? chains : 1;
      const int count = chain_links_of(o.memory_links, 1, k_chains);
      const std::string name = fmt::format("{}_{}", throughput ? "throughput" : "latency", op.slug);
      s += kernel_signature(name);
      s += "  const int lane = threadIdx.x & 31;\n";
      if (op.start == "kStartShared") {
        s += "  __shared__ unsigned chase[kSharedSlots];\n"
             "  for (int i = lane; i < kSharedSlots; i += 32)\n"
             "    chase[i] = (unsigned)__cvta_generic_to_shared(&chase[in->next_slot[i]]);\n"
             "  __syncwarp();\n";
        for (int j = 0; j < k_chains; ++j)
          s += fmt::format("  unsigned v{} = (unsigned)__cvta_generic_to_shared(&chase[{}]);\n", j,
                           j * (256 / k_chains));
      } else {
        s += fmt::format("  {} v0 = ({})start;\n", op.type.ctype, op.type.ctype);
      }
      s += timed_loop(unrolled(count, k_chains, op.ptx, op.type, {}));
      s += sink_stores(op.type, k_chains);
      s += "}\n\n";
    }
  }

  s += "// Two clock reads with nothing between them: what every timing carries besides its chain.\n";
  s += kernel_signature("latency_empty");
  s += "  const int lane = threadIdx.x & 31;\n" + timed_loop("") + "  (void)in;\n  (void)out;\n  (void)start;\n}\n\n";
  s += "// The bank address of latbench_const_chase (its slots hold bank addresses).\n"
       "extern \"C\" __global__ void latbench_const_base(unsigned* base) {\n"
       "  unsigned b;\n"
       "  asm(\"mov.u32 %0, latbench_const_chase;\" : \"=r\"(b));\n"
       "  *base = b;\n"
       "}\n\n"
       "// Links the DRAM chase: slot order[k] points at slot order[k + 1] (one cycle through all).\n"
       "extern \"C\" __global__ void latbench_link(unsigned long long* buffer, const unsigned* order, unsigned n) {\n"
       "  const unsigned stride = kDramStride / sizeof(unsigned long long);\n"
       "  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)\n"
       "    buffer[(size_t)order[k] * stride] = (unsigned long long)(buffer + (size_t)order[(k + 1) % n] * stride);\n"
       "}\n\n"
       "// Reads a buffer several times the L2 so that the DRAM chase starts with nothing cached.\n"
       "extern \"C\" __global__ void latbench_flush(const unsigned long long* __restrict__ buffer, size_t n,\n"
       "                                            unsigned long long* sink) {\n"
       "  unsigned long long sum = 0;\n"
       "  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)\n"
       "    sum += buffer[i];\n"
       "  if (sum == 0x5eedull) *sink = sum;\n"
       "}\n\n";

  s += "using Kernel = void (*)(const Inputs*, Sink*, long long*, int, unsigned long long);\n"
       "enum Start { kStartNone, kStartShared, kStartSmall, kStartDram, kStartConst };\n"
       "struct Bench {\n  const char* op;\n  const char* kind;\n  Kernel kernel;\n  int links;\n  Start start;\n};\n\n"
       "static const Bench kBenches[] = {\n";
  for (const LatencyKernel& k : kernels) {
    std::string_view start = "kStartNone";
    for (const MemoryOp& m : memory_ops())
      if (k.name == fmt::format("latency_{}", m.slug) || k.name == fmt::format("throughput_{}", m.slug))
        start = m.start;
    s += fmt::format("    {{\"{}\", \"{}\", {}, {}, {}}},\n", k.op, k.kind, k.name, k.links, start);
  }
  s += "};\n\n";

  s += "static long long median(std::vector<long long> v) {\n"
       "  std::sort(v.begin(), v.end());\n"
       "  const size_t n = v.size();\n"
       "  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;\n"
       "}\n\n"
       "// A random cyclic order of 0..n-1: Fisher-Yates with splitmix64 and a fixed seed, so that every\n"
       "// run chases the same addresses (<random> does not compile with nvcc 11.8 and libstdc++ 12).\n"
       "static std::vector<unsigned> cycle_order(unsigned n, unsigned long long seed) {\n"
       "  std::vector<unsigned> order(n);\n"
       "  for (unsigned i = 0; i < n; ++i) order[i] = i;\n"
       "  for (unsigned i = n - 1; i > 0; --i) {\n"
       "    unsigned long long z = (seed += 0x9e3779b97f4a7c15ull);\n"
       "    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;\n"
       "    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;\n"
       "    z ^= z >> 31;\n"
       "    std::swap(order[i], order[z % (i + 1)]);\n"
       "  }\n"
       "  return order;\n"
       "}\n\n"
       "int main() {\n"
       "  int device = 0;\n"
       "  CHECK(cudaGetDevice(&device));\n"
       "  cudaDeviceProp prop;\n"
       "  CHECK(cudaGetDeviceProperties(&prop, device));\n"
       "  const size_t l2 = prop.l2CacheSize > 0 ? (size_t)prop.l2CacheSize : (size_t)(8u << 20);\n"
       "\n"
       "  Inputs h_in;\n"
       "  for (int i = 0; i < 64; ++i) {\n"
       "    h_in.u[i] = 3u + 7u * i;\n"
       "    h_in.h2[i] = 0x3c003c00u + (unsigned)i;  // about (1.0, 1.0) as two halves\n"
       "    h_in.f[i] = 1.0f + 0.001f * i;\n"
       "    h_in.d[i] = 1.0 + 0.001 * i;\n"
       "    h_in.q[i] = 1000ull + 13ull * i;\n"
       "  }\n"
       "  for (int l = 0; l < 32; ++l) h_in.lane_source[l] = (l + 1) & 31;\n"
       "  {\n"
       "    const std::vector<unsigned> order = cycle_order(kSharedSlots, 1);\n"
       "    for (int k = 0; k < kSharedSlots; ++k) h_in.next_slot[order[k]] = order[(k + 1) % kSharedSlots];\n"
       "  }\n"
       "  Inputs* d_in = nullptr;\n"
       "  Sink* d_out = nullptr;\n"
       "  long long* d_cycles = nullptr;\n"
       "  CHECK(cudaMalloc(&d_in, sizeof(Inputs)));\n"
       "  CHECK(cudaMemcpy(d_in, &h_in, sizeof(Inputs), cudaMemcpyHostToDevice));\n"
       "  CHECK(cudaMalloc(&d_out, sizeof(Sink)));\n"
       "  CHECK(cudaMalloc(&d_cycles, kRepetitions * sizeof(long long)));\n"
       "\n"
       "  // The L1/L2 chase.\n"
       "  char* d_small = nullptr;\n"
       "  CHECK(cudaMalloc(&d_small, (size_t)kSmallSlots * kSmallStride));\n"
       "  const std::vector<unsigned> small_order = cycle_order(kSmallSlots, 2);\n"
       "  {\n"
       "    std::vector<unsigned long long> h_small((size_t)kSmallSlots * kSmallStride / 8, 0);\n"
       "    for (int k = 0; k < kSmallSlots; ++k)\n"
       "      h_small[(size_t)small_order[k] * (kSmallStride / 8)] =\n"
       "          (unsigned long long)(d_small + (size_t)small_order[(k + 1) % kSmallSlots] * kSmallStride);\n"
       "    CHECK(cudaMemcpy(d_small, h_small.data(), h_small.size() * 8, cudaMemcpyHostToDevice));\n"
       "  }\n"
       "  const unsigned long long small_start =\n"
       "      (unsigned long long)(d_small + (size_t)small_order[0] * kSmallStride);\n"
       "\n"
       "  // The DRAM chase: 8x the L2, at least 256 MiB; and the buffer that evicts it from the L2.\n"
       "  const size_t big_bytes = std::max((size_t)256 << 20, 8 * l2);\n"
       "  const unsigned big_slots = (unsigned)(big_bytes / kDramStride);\n"
       "  unsigned long long* d_big = nullptr;\n"
       "  unsigned* d_order = nullptr;\n"
       "  CHECK(cudaMalloc(&d_big, big_bytes));\n"
       "  CHECK(cudaMalloc(&d_order, big_slots * sizeof(unsigned)));\n"
       "  const std::vector<unsigned> big_order = cycle_order(big_slots, 3);\n"
       "  CHECK(cudaMemcpy(d_order, big_order.data(), big_slots * sizeof(unsigned), cudaMemcpyHostToDevice));\n"
       "  latbench_link<<<(big_slots + 255) / 256, 256>>>(d_big, d_order, big_slots);\n"
       "  CHECK(cudaGetLastError());\n"
       "  CHECK(cudaDeviceSynchronize());\n"
       "  CHECK(cudaFree(d_order));\n"
       "  const size_t flush_bytes = std::max((size_t)64 << 20, 4 * l2);\n"
       "  unsigned long long* d_flush = nullptr;\n"
       "  CHECK(cudaMalloc(&d_flush, flush_bytes));\n"
       "  CHECK(cudaMemset(d_flush, 0, flush_bytes));\n"
       "  unsigned long long dram_position = 0;  // where the next DRAM launch starts in big_order\n"
       "\n"
       "  // The constant-bank chase.\n"
       "  unsigned* d_base = nullptr;\n"
       "  CHECK(cudaMalloc(&d_base, sizeof(unsigned)));\n"
       "  latbench_const_base<<<1, 1>>>(d_base);\n"
       "  CHECK(cudaGetLastError());\n"
       "  unsigned base = 0;\n"
       "  CHECK(cudaMemcpy(&base, d_base, sizeof base, cudaMemcpyDeviceToHost));\n"
       "  CHECK(cudaFree(d_base));\n"
       "  const std::vector<unsigned> const_order = cycle_order(kConstSlots, 4);\n"
       "  {\n"
       "    std::vector<unsigned> h_const(kConstSlots);\n"
       "    for (int k = 0; k < kConstSlots; ++k)\n"
       "      h_const[const_order[k]] = base + 4u * const_order[(k + 1) % kConstSlots];\n"
       "    CHECK(cudaMemcpyToSymbol(latbench_const_chase, h_const.data(), kConstSlots * sizeof(unsigned)));\n"
       "  }\n"
       "  const unsigned long long const_start = base + 4u * const_order[0];\n"
       "\n"
       "  // Median clock64 difference over kWarps launches of one warp x kRepetitions chains each.\n"
       "  std::vector<long long> cycles(kRepetitions);\n"
       "  auto time_kernel = [&](Kernel kernel, Start start) {\n"
       "    std::vector<long long> all;\n"
       "    for (int w = 0; w < kWarps; ++w) {\n"
       "      unsigned long long start_value = 0;\n"
       "      if (start == kStartSmall) start_value = small_start;\n"
       "      if (start == kStartConst) start_value = const_start;\n"
       "      if (start == kStartDram) {\n"
       "        latbench_flush<<<prop.multiProcessorCount * 4, 256>>>(d_flush, flush_bytes / 8, d_flush);\n"
       "        CHECK(cudaGetLastError());\n"
       "        const size_t slot = big_order[dram_position % big_slots];\n"
       "        start_value = (unsigned long long)(d_big + slot * (kDramStride / 8));\n"
       "        dram_position += (unsigned long long)(kRepetitions + 1) * kMemoryLinks;\n"
       "      }\n"
       "      kernel<<<1, 32>>>(d_in, d_out, d_cycles, kRepetitions, start_value);\n"
       "      CHECK(cudaGetLastError());\n"
       "      CHECK(cudaDeviceSynchronize());\n"
       "      CHECK(cudaMemcpy(cycles.data(), d_cycles, kRepetitions * sizeof(long long), cudaMemcpyDeviceToHost));\n"
       "      all.insert(all.end(), cycles.begin(), cycles.end());\n"
       "    }\n"
       "    return median(all);\n"
       "  };\n"
       "  const long long empty = time_kernel(latency_empty, kStartNone);\n"
       "  std::printf(\"LATBENCH gpu=\\\"%s\\\" sm=%d sms=%d clock_mhz=%d l2_bytes=%zu warps=%d reps=%d \"\n"
       "              \"empty=%lld\\n\",\n"
       "              prop.name, prop.major * 10 + prop.minor, prop.multiProcessorCount, prop.clockRate / 1000, l2,\n"
       "              kWarps, kRepetitions, empty);\n"
       "  std::fflush(stdout);\n"
       "  for (const Bench& b : kBenches) {\n"
       "    const long long t = time_kernel(b.kernel, b.start);\n"
       "    std::printf(\"LATBENCH op=%s kind=%s cycles=%.2f links=%d\\n\", b.op, b.kind,\n"
       "                (double)(t - empty) / b.links, b.links);\n"
       "    std::fflush(stdout);\n"
       "  }\n"
       "  CHECK(cudaFree(d_in));\n"
       "  CHECK(cudaFree(d_out));\n"
       "  CHECK(cudaFree(d_cycles));\n"
       "  CHECK(cudaFree(d_small));\n"
       "  CHECK(cudaFree(d_big));\n"
       "  CHECK(cudaFree(d_flush));\n"
       "  return 0;\n"
       "}\n";
  return s;
}

sass::ToolRun build_latency_benchmark(const fs::path& source, const fs::path& executable, int arch,
                                      std::chrono::seconds timeout) {
  const sass::Toolchain toolchain = sass::detect_toolchain(sass::ToolchainId::cuda11);
  if (!toolchain.covers(arch)) {
    sass::ToolRun out;
    out.message = fmt::format("nvcc 11.8 does not build sm_{} (it covers sm_{}..sm_{})", arch, toolchain.min_arch,
                              toolchain.max_arch);
    return out;
  }
  return sass::build_executable(toolchain, source, executable,
                                {"-std=c++17", "-O3", fmt::format("-arch=sm_{}", arch)}, timeout);
}

// ---------------------------------------------------------------------------------------------
// The disassembly check.

BenchmarkDisassembly disassemble_latency_benchmark(const fs::path& executable) {
  BenchmarkDisassembly out;
  const sass::Toolchain tc = sass::detect_toolchain(sass::ToolchainId::cuda11);
  for (sass::Tool tool : {sass::Tool::cuobjdump, sass::Tool::nvdisasm})
    if (auto why = tc.unavailable(tool)) {
      out.message = *why;
      return out;
    }
  // The cubins are extracted into a private folder of gpuport's, removed afterwards (never into
  // the user's --out folder, which may hold anything).
  const TemporaryFolder temporary = TemporaryFolder::make("latency-bench");
  if (temporary.empty()) {
    out.message = fmt::format("cannot make a temporary folder: {}", std::strerror(errno));
    return out;
  }
  const fs::path& work_dir = temporary.path();
  std::error_code ec;
  if (const sass::ToolRun x = sass::extract_cubins(tc, fs::absolute(executable), work_dir); !x.ok) {
    out.message = x.message;
    return out;
  }
  std::vector<fs::path> cubins;
  for (const auto& entry : fs::directory_iterator(work_dir, ec))
    if (entry.path().extension() == ".cubin") cubins.push_back(entry.path());
  std::sort(cubins.begin(), cubins.end());
  for (const fs::path& cubin : cubins) {
    sass::ToolRun listing = sass::disassemble_cubin(tc, cubin);
    if (!listing.ok) {
      out.message = listing.message;
      continue;
    }
    sass::SassParseOptions po;
    po.file_name = cubin.string();
    auto parsed = sass::parse_sass(listing.output, po);
    for (auto& program : parsed.programs)
      if (program.find_function("latency_empty") != nullptr) {
        out.ok = true;
        out.message.clear();
        out.listing = std::move(listing.output);
        out.program = std::move(program);
        return out;
      }
  }
  if (out.message.empty())
    out.message = fmt::format("no cubin of {} holds the benchmark's kernels", executable.string());
  return out;
}

namespace {

bool is_clock_read(const sass::SassInstruction& inst) {
  for (const sass::SassOperand& op : inst.operands)
    if (op.kind == sass::OperandKind::special_reg && op.text.starts_with("SR_CLOCK")) return true;
  return false;
}

}  // namespace

std::vector<KernelEvidence> inspect_latency_kernels(const sass::SassProgram& program,
                                                    const std::vector<LatencyKernel>& kernels) {
  std::vector<KernelEvidence> out;
  for (const LatencyKernel& k : kernels) {
    KernelEvidence e;
    e.kernel = k.name;
    for (const auto& [opcode, per_link] : k.opcodes) e.counts.emplace_back(opcode, 0);
    const sass::SassFunction* f = program.find_function(k.name);
    if (f == nullptr) {
      e.problem = "not in the listing";
      out.push_back(std::move(e));
      continue;
    }
    e.found = true;
    std::vector<std::size_t> clocks;
    for (std::size_t i = 0; i < f->instructions.size(); ++i)
      if (is_clock_read(f->instructions[i])) clocks.push_back(i);
    if (clocks.size() < 2) {
      e.problem = fmt::format("{} clock read(s), expected two around the timed chain", clocks.size());
      out.push_back(std::move(e));
      continue;
    }
    std::vector<std::size_t> chain;  // instructions of the expected opcodes in the timed region
    int stalls = 0;
    for (std::size_t i = clocks[0] + 1; i < clocks[1]; ++i) {
      const sass::SassInstruction& inst = f->instructions[i];
      if (inst.control) stalls += inst.control->stall;
      for (auto& [opcode, count] : e.counts)
        if (inst.opcode == opcode) {
          ++count;
          chain.push_back(i);
          if (inst.control && inst.control->write_barrier != 7) e.scoreboarded = true;
        }
    }
    if (k.links > 0) e.stall_cycles_per_link = static_cast<double>(stalls) / k.links;
    for (std::size_t c = 0; c < k.opcodes.size(); ++c) {
      const int want = k.chain_links * k.opcodes[c].second;
      if (e.counts[c].second < want && e.problem.empty())
        e.problem = fmt::format("{} {} in the timed region, expected at least {}", e.counts[c].second,
                                e.counts[c].first, want);
    }
    e.chained = chain.size() >= 2;
    for (std::size_t c = 1; c < chain.size() && e.chained; ++c) {
      const sass::InstructionDefUse prev = sass::def_use(f->instructions[chain[c - 1]]);
      const sass::InstructionDefUse cur = sass::def_use(f->instructions[chain[c]]);
      bool reads = false;
      for (const sass::RegisterRef& d : prev.defs)
        if (std::binary_search(cur.uses.begin(), cur.uses.end(), d)) reads = true;
      if (!reads) e.chained = false;
    }
    if (k.dependent && !e.chained && e.problem.empty())
      e.problem = "the timed instructions do not form one dependent chain";
    out.push_back(std::move(e));
  }
  return out;
}

std::string format_kernel_evidence(const std::vector<KernelEvidence>& evidence) {
  std::size_t width = 6;
  for (const auto& e : evidence) width = std::max(width, e.kernel.size());
  std::string s;
  for (const auto& e : evidence) {
    std::string counts;
    for (const auto& [opcode, n] : e.counts) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", opcode, n);
    std::string how = e.chained ? "dependent chain" : "independent";
    how += e.scoreboarded ? ", scoreboarded" : fmt::format(", stalls {:.2f}/link", e.stall_cycles_per_link);
    s += fmt::format("{:<{}}  {:<20} {}\n", e.kernel, width, counts, !e.problem.empty() ? "PROBLEM: " + e.problem : how);
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Output, rows, overrides.

namespace {


bool to_int(std::string_view text, int& value) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && p == text.data() + text.size();
}

Diagnostic line_error(const std::string& file, std::size_t line, std::string code, std::string message) {
  Diagnostic d;
  d.severity = Severity::error;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = file;
  d.location.line = static_cast<std::uint32_t>(line);
  d.location.column = 1;  // the whole line
  return d;
}

// Upper-case letters, digits and '_', starting with a letter; '.' and '+' join such words
// (MUFU.EX2, ISETP+SEL). `joined` false: one plain opcode.
bool is_op_name(std::string_view s, bool joined) {
  if (s.empty()) return false;
  bool word_start = true;
  for (char c : s) {
    if (joined && (c == '.' || c == '+')) {
      if (word_start) return false;
      word_start = true;
      continue;
    }
    const bool upper = c >= 'A' && c <= 'Z', digit = c >= '0' && c <= '9';
    if (!(upper || c == '_' || (digit && !word_start))) return false;
    word_start = false;
  }
  return !word_start;
}

bool is_kind(std::string_view k) { return k == "latency" || k == "throughput" || k == "l2" || k == "dram"; }

std::string_view base_opcode(std::string_view op) { return op.substr(0, op.find('.')); }

template <class F>
void for_each_line(std::string_view text, F f) {
  std::size_t pos = 0, number = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line, ++number);
    pos = end + 1;
  }
}

}  // namespace

LatencyBenchOutput parse_latency_output(std::string_view text, const std::string& file) {
  LatencyBenchOutput out;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    if (!line.starts_with("LATBENCH")) return;
    std::string_view rest = line.substr(8);
    if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') return;  // LATBENCHX: not ours
    if (rest.starts_with(" error")) {
      out.errors.push_back(line_error(file, number, "latency-bench-error", std::string(line)));
      return;
    }
    std::vector<std::string> bare;
    auto f = parse_key_value_fields(rest, &bare);
    auto bad = [&](const std::string& why) {
      out.errors.push_back(
          line_error(file, number, "bad-latency-output", fmt::format("malformed LATBENCH line ({}): {}", why, line)));
    };
    if (f.count("gpu")) {
      int sm = 0;
      if (!to_int(f["sm"], sm)) return bad("sm= is not a number");
      out.gpu = f["gpu"];
      out.sm = sm;
      double empty = 0;
      if (f.count("empty") && parse_finite_double(f["empty"], empty)) out.empty_cycles = empty;
      return;
    }
    if (!bare.empty()) return bad(fmt::format("'{}' is not key=value", bare.front()));
    LatencyMeasurement m;
    m.line = number;
    m.op = f["op"];
    m.kind = f["kind"];
    if (!is_op_name(m.op, true))
      return bad(m.op.empty() ? "no op=" : fmt::format("op '{}' is not a SASS opcode", m.op));
    if (!is_kind(m.kind))
      return bad(m.kind.empty() ? "no kind=" : fmt::format("kind '{}' is not latency, throughput, l2 or dram", m.kind));
    if (!parse_finite_double(f["cycles"], m.cycles)) return bad("cycles= is not a number");
    if (!to_int(f["links"], m.links) || m.links < 1) return bad("links= is not a positive integer");
    out.measurements.push_back(std::move(m));
  });
  return out;
}

std::vector<LatencyRow> latency_table_rows(const LatencyBenchOutput& output) {
  // op -> the figure of each latency kind (the last line wins when an op repeats).
  std::map<std::string, std::map<std::string, double>> by_op;
  for (const auto& m : output.measurements)
    if (m.kind != "throughput") by_op[m.op][m.kind] = m.cycles;
  auto single = [&](const std::string& op, double& value) {
    auto it = by_op.find(op);
    if (it == by_op.end() || !it->second.count("latency")) return false;
    value = it->second.at("latency");
    return true;
  };
  struct Candidate {
    double cycles;
    std::string name;    // the op it comes from
    std::string source;  // how
  };
  // opcode -> candidates; the largest one makes the row.
  std::map<std::string, std::vector<Candidate>> candidates;
  for (const auto& [op, kinds] : by_op) {
    const std::size_t plus = op.find('+');
    if (plus != std::string::npos) {
      if (!kinds.count("latency")) continue;
      const double pair = kinds.at("latency");
      const std::string a = op.substr(0, plus), b = op.substr(plus + 1);
      double other = 0;
      if (single(b, other)) candidates[std::string(base_opcode(a))].push_back({pair - other, op, op + " - " + b});
      else if (single(a, other)) candidates[std::string(base_opcode(b))].push_back({pair - other, op, op + " - " + a});
      continue;
    }
    // A dram figure is the miss the column assumes for the opcode (LDG's default is one).
    const std::string opcode(base_opcode(op));
    if (kinds.count("dram")) candidates[opcode].push_back({kinds.at("dram"), op, op + " dram"});
    else if (kinds.count("latency")) candidates[opcode].push_back({kinds.at("latency"), op, op + " latency"});
  }
  std::vector<LatencyRow> rows;
  for (const auto& [opcode, list] : candidates) {
    const auto best = std::max_element(list.begin(), list.end(),
                                       [](const Candidate& x, const Candidate& y) { return x.cycles < y.cycles; });
    LatencyRow r;
    r.opcode = opcode;
    r.measured = best->cycles;
    r.cycles = std::max(1, static_cast<int>(std::ceil(best->cycles)));
    if (list.size() > 1) {
      std::vector<std::string> names;
      for (const auto& c : list) names.push_back(c.name);
      r.source = fmt::format("max of {}", fmt::join(names, ", "));
    } else {
      r.source = best->source;
    }
    rows.push_back(std::move(r));
  }
  return rows;  // std::map order: sorted by opcode
}

std::string format_latency_table(const LatencyBenchOutput& output) {
  std::string s;
  if (!output.gpu.empty())
    s += fmt::format("GPU: {} (sm_{}), empty timing {:.0f} cycles\n", output.gpu, output.sm, output.empty_cycles);
  if (output.measurements.empty()) return s + "no LATBENCH measurements\n";
  s += fmt::format("{:<12} {:<10} {:>10} {:>6}\n", "op", "kind", "cycles", "links");
  for (const auto& m : output.measurements)
    s += fmt::format("{:<12} {:<10} {:>10.2f} {:>6}\n", m.op, m.kind, m.cycles, m.links);
  const std::vector<LatencyRow> rows = latency_table_rows(output);
  s += fmt::format("\nlatency column (cycles, rounded up) beside data/tune/opcodes.tsv:\n{:<8} {:>8} {:>8}  {}\n",
                   "opcode", "measured", "table", "from");
  const TuneOpcodeTable& table = builtin_tune_opcode_table();
  for (const auto& r : rows) {
    const TuneOpcodeInfo* info = table.find(r.opcode);
    s += fmt::format("{:<8} {:>8} {:>8}  {} ({:.2f})\n", r.opcode, r.cycles,
                     info ? std::to_string(info->latency) : std::string("-"), r.source, r.measured);
  }
  return s;
}

std::string write_latency_overrides(const LatencyBenchOutput& output) {
  std::string s = fmt::format("# measured by gpuport latency-bench on {} (sm_{})\n",
                              output.gpu.empty() ? std::string("an unnamed GPU") : output.gpu, output.sm);
  s += "# OPCODE<TAB>cycles: the latency column of data/tune/opcodes.tsv for this arch, each the measured\n"
       "# cycles per chain link rounded up (variants of an opcode: the largest; a pair A+B: minus B;\n"
       "# LDG: the DRAM figure). Made by `gpuport latency-bench --from-output FILE --write-overrides`.\n";
  for (const auto& r : latency_table_rows(output)) s += fmt::format("{}\t{}\n", r.opcode, r.cycles);
  return s;
}

LatencyOverrides parse_latency_overrides(std::string_view text, const std::string& file) {
  LatencyOverrides out;
  std::set<std::string> seen;
  for_each_line(text, [&](std::string_view line, std::size_t number) {
    auto bad = [&](const std::string& why) {
      out.errors.push_back(line_error(file, number, "bad-latency-override", why));
    };
    std::string_view trimmed = line;
    while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\t')) trimmed.remove_prefix(1);
    if (trimmed.empty()) return;
    if (trimmed.front() == '#') {
      constexpr std::string_view kMeasured = "# measured by gpuport latency-bench on ";
      if (out.gpu.empty() && line.starts_with(kMeasured)) {
        std::string_view rest = line.substr(kMeasured.size());
        const std::size_t open = rest.rfind(" (sm_");
        if (open != std::string_view::npos && rest.ends_with(")")) {
          int sm = 0;
          if (to_int(rest.substr(open + 5, rest.size() - open - 6), sm)) {
            out.gpu = std::string(rest.substr(0, open));
            out.sm = sm;
          }
        }
      }
      return;
    }
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos) return bad(fmt::format("expected OPCODE<TAB>cycles, got '{}'", line));
    const std::string_view opcode = line.substr(0, tab), value = line.substr(tab + 1);
    if (value.find('\t') != std::string_view::npos) return bad("more than two fields");
    if (!is_op_name(opcode, false))
      return bad(fmt::format("'{}' is not a SASS opcode (upper case, no modifiers)", opcode));
    int cycles = 0;
    if (!to_int(value, cycles) || cycles < 1 || cycles > 100000)
      return bad(fmt::format("cycles '{}' is not an integer from 1 to 100000", value));
    if (!seen.insert(std::string(opcode)).second) return bad(fmt::format("'{}' appears twice", opcode));
    out.rows.push_back({std::string(opcode), cycles});
  });
  return out;
}

}  // namespace gpuport::tune
