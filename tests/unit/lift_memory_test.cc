// The memory family of the SASS lifter on hand-written sm_80 listings: which LLVM memory
// operations each form becomes (atomic operation, type, ordering and scope; strong accesses;
// bank-3 and __device__ variables under their own names), and which forms are refused. What the
// operations compute is checked by execution in tests/golden/asm/memory-*.test.
#include <gtest/gtest.h>

#include <string>

#include "lift/lower.h"
#include "lift/sass_lift.h"
#include "sass/parser.h"

namespace gpuport::lift {
namespace {

// Lifts one kernel `k` (parameters: two 8-byte pointers) whose body is `body` (nvdisasm lines);
// returns the module's text, or the findings' messages when it was refused.
struct Lifted {
  bool ok = false;
  std::string ir;
  std::string findings;
};
Lifted lift(const std::string& body, const KernelInfo* extra = nullptr, LiftTarget target = LiftTarget::gfx1100_wave32) {
  const std::string listing = "\t.headerflags\t@\"EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)\"\n"
                              "\t.section\t.text.k\n"
                              "        .other          k,@\"STO_CUDA_ENTRY STV_DEFAULT\"\n"
                              "k:\n.text.k:\n" +
                              body + "        /*0f00*/                   EXIT ;\n";
  sass::SassParseOptions po;
  po.arch = 80;
  auto parsed = sass::parse_sass(listing, po);
  Lifted out;
  if (parsed.programs.empty() || parsed.programs[0].functions.empty()) {
    out.findings = "the listing did not parse";
    return out;
  }
  auto made = make_lift_module("test", target, target == LiftTarget::nvptx ? 80 : 0);
  if (!made) {
    out.findings = "no lift module";
    return out;
  }
  LiftModule module = std::move(made.value());
  LiftRequest request;
  request.program = &parsed.programs[0];
  request.kernel = &parsed.programs[0].functions[0];
  request.arch = 80;
  request.target = target;
  if (extra != nullptr) request.info = *extra;
  request.info.name = "k";
  request.info.parameters = {{0, 8, 8, true}, {8, 8, 8, true}};
  request.info.local_bytes = 16;
  request.source_name = "test.sass";
  LiftResult lifted = lift_kernel(*module.module, request);
  for (const auto& f : lifted.findings) out.findings += f.message + "\n";
  out.ok = lifted.function != nullptr;
  if (out.ok) {
    // Unoptimised: the memory operations stay as the handlers emitted them.
    if (auto problems = finalize_module(module, false); !problems.empty()) {
      out.ok = false;
      out.findings += problems.front().message;
    }
    out.ir = module_text(module);
  }
  return out;
}

// R2:R3 = the first parameter (a global pointer), R4 = 5.
const std::string kSetup =
    "        /*0000*/                   MOV R2, c[0x0][0x160] ;\n"
    "        /*0010*/                   MOV R3, c[0x0][0x164] ;\n"
    "        /*0020*/                   MOV R4, 0x5 ;\n"
    "        /*0030*/                   MOV R6, 0x7 ;\n";

std::string line(int address, const std::string& text) {
  char a[16];
  std::snprintf(a, sizeof a, "%04x", address);
  return std::string("        /*") + a + "*/                   " + text + " ;\n";
}

TEST(LiftMemory, GlobalAtomicsBecomeScopedAtomicrmw) {
  const Lifted l = lift(kSetup + line(0x40, "ATOMG.E.ADD.STRONG.GPU PT, R8, [R2.64], R4") +
                        line(0x50, "ATOMG.E.MIN.S32.STRONG.GPU PT, R9, [R2.64+0x4], R4") +
                        line(0x60, "ATOMG.E.MAX.STRONG.GPU PT, R10, [R2.64+0x8], R4") +
                        line(0x70, "ATOMG.E.INC.STRONG.GPU PT, R11, [R2.64+0xc], R4") +
                        line(0x80, "ATOMG.E.DEC.STRONG.GPU PT, R12, [R2.64+0x10], R4") +
                        line(0x90, "ATOMG.E.EXCH.64.STRONG.GPU PT, R14, [R2.64+0x18], R4") +
                        line(0xa0, "ATOMG.E.MAX.S64.STRONG.GPU PT, R16, [R2.64+0x20], R4") +
                        line(0xb0, "RED.E.ADD.STRONG.SYS [R2.64+0x28], R4") + line(0xc0, "REDG.E.XOR.STRONG.SM [R2.64+0x2c], R4") +
                        line(0xd0, "RED.E.ADD.F64.RN.STRONG.GPU [R2.64+0x30], R4") +
                        line(0xe0, "ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, R18, [R2.64+0x38], R4") +
                        line(0xf0, "ATOM.E.ADD.BF16x2.RN.STRONG.GPU P1, R19, [R2.64+0x3c], R4") +
                        line(0x100, "ATOMG.E.ADD.F32.RN.STRONG.GPU PT, R20, [R2.64+0x40], R4"));
  ASSERT_TRUE(l.ok) << l.findings;
  for (const char* want : {"atomicrmw add ptr addrspace(1) %", "atomicrmw min ptr addrspace(1)", "atomicrmw umax ptr addrspace(1)",
                           "atomicrmw uinc_wrap ptr addrspace(1)", "atomicrmw udec_wrap ptr addrspace(1)",
                           "atomicrmw xchg ptr addrspace(1) %", "atomicrmw max ptr addrspace(1)", "atomicrmw xor ptr addrspace(1)",
                           "atomicrmw fadd ptr {{.*}}, double", "atomicrmw fadd ptr {{.*}}, <2 x half>",
                           "atomicrmw fadd ptr {{.*}}, <2 x bfloat>", "atomicrmw fadd ptr addrspace(1) {{.*}}, float"}) {
    std::string w = want;
    if (const auto at = w.find("{{.*}}"); at != std::string::npos) {
      // prefix ... suffix on one line
      const std::string prefix = w.substr(0, at), suffix = w.substr(at + 6);
      bool found = false;
      for (std::size_t p = l.ir.find(prefix); p != std::string::npos && !found; p = l.ir.find(prefix, p + 1)) {
        const std::size_t end = l.ir.find('\n', p);
        found = l.ir.substr(p, end - p).find(suffix) != std::string::npos;
      }
      EXPECT_TRUE(found) << want << "\n" << l.ir;
    } else {
      EXPECT_NE(l.ir.find(w), std::string::npos) << want << "\n" << l.ir;
    }
  }
  // 64-bit forms use the register pair; scopes: .GPU agent, .SYS system (no syncscope), .SM workgroup.
  EXPECT_NE(l.ir.find("atomicrmw xchg ptr addrspace(1) %"), std::string::npos);
  EXPECT_NE(l.ir.find(", i64 %"), std::string::npos);
  EXPECT_NE(l.ir.find("syncscope(\"agent\") monotonic"), std::string::npos);
  EXPECT_NE(l.ir.find("syncscope(\"workgroup\") monotonic"), std::string::npos);
  bool system_scope = false;
  for (std::size_t p = l.ir.find("atomicrmw add"); p != std::string::npos; p = l.ir.find("atomicrmw add", p + 1)) {
    const std::string one = l.ir.substr(p, l.ir.find('\n', p) - p);
    system_scope = system_scope || (one.find("syncscope") == std::string::npos && one.find(" monotonic") != std::string::npos);
  }
  EXPECT_TRUE(system_scope) << l.ir;
}

TEST(LiftMemory, CompareAndSwapForms) {
  // nvdisasm prints the .CAS address without .64: it is a 64-bit pair all the same.
  const Lifted l = lift(kSetup + line(0x40, "ATOMG.E.CAS.STRONG.GPU PT, R8, [R2], R4, R6") +
                        line(0x50, "ATOMG.E.CAS.64.STRONG.GPU PT, R10, [R2+0x8], R4, R6") +
                        line(0x60, "ATOMS.CAST.SPIN R12, [R4], R6, R6") + line(0x70, "ATOMS.CAS.64 R14, [R4+0x10], R4, R6"));
  ASSERT_TRUE(l.ok) << l.findings;
  EXPECT_NE(l.ir.find("cmpxchg ptr addrspace(1) %"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("i32 %"), std::string::npos);
  EXPECT_NE(l.ir.find("cmpxchg ptr addrspace(3)"), std::string::npos) << l.ir;
  // The 64-bit address is R2 | R3 << 32 (a zext of R3 shifted by 32).
  EXPECT_NE(l.ir.find("shl i64"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("syncscope(\"workgroup\") monotonic monotonic"), std::string::npos) << l.ir;
}

TEST(LiftMemory, FtzFloatAddIsACasLoopWithTheFtzAdd) {
  const Lifted l = lift(kSetup + line(0x40, "RED.E.ADD.F32.FTZ.RN.STRONG.GPU [R2.64], R4"));
  ASSERT_TRUE(l.ok) << l.findings;
  EXPECT_NE(l.ir.find("atomic.retry"), std::string::npos) << l.ir;
  // The semantics' FTZ add (inlined): inputs and result flushed below the smallest normal (2^-126).
  EXPECT_NE(l.ir.find("fadd float", l.ir.find("atomic.retry:")), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("fcmp olt float %", l.ir.find("atomic.retry:")), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("0x3810000000000000", l.ir.find("atomic.retry:")), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("cmpxchg ptr %"), std::string::npos) << l.ir;
  EXPECT_EQ(l.ir.find("atomicrmw fadd"), std::string::npos) << l.ir;
}

TEST(LiftMemory, StrongAccessesAreScopedAtomicLoadsAndStores) {
  const Lifted l = lift(kSetup + line(0x40, "LDG.E.STRONG.GPU R8, [R2.64]") + line(0x50, "STG.E.STRONG.SYS [R2.64+0x4], R8") +
                        line(0x60, "LD.E.64.STRONG.SM R10, [R2.64+0x8]") + line(0x70, "STG.E.128.STRONG.GPU [R2.64+0x10], R8") +
                        line(0x80, "LDG.E.U8.CONSTANT R12, [R2.64+0x20]") + line(0x90, "LDG.E.S16.EF R13, [R2.64+0x22]"));
  ASSERT_TRUE(l.ok) << l.findings;
  EXPECT_NE(l.ir.find("load atomic i32, ptr addrspace(1) %"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("syncscope(\"agent\") monotonic, align 4"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("store atomic i32"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("load atomic i64, ptr %"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("store volatile <4 x i32>"), std::string::npos) << l.ir;  // 128 bits: volatile
  EXPECT_NE(l.ir.find("load i8, ptr addrspace(1)"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("load i16, ptr addrspace(1)"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("sext i16"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("zext i8"), std::string::npos) << l.ir;
}

TEST(LiftMemory, ConstantBankThreeAndDeviceVariablesAreNamedGlobals) {
  KernelInfo info;
  info.constant_banks[3] = {1, 0, 0, 0, 0xfe, 0xff, 0, 0, 9, 9, 9, 9};
  info.variables = {{"first", 3, 0, 4, {1, 0, 0, 0}}, {"second", 3, 4, 8, {0xfe, 0xff, 0, 0, 9, 9, 9, 9}},
                    {"counter", 0, 0, 4, {}}, {"table", 0, 0, 8, {1, 2, 3, 4, 5, 6, 7, 8}}};
  const Lifted l = lift(kSetup + line(0x40, "LDC.S16 R8, c[0x3][R4+0x4]") + line(0x50, "LDC.64 R10, c[0x3][0x4]") +
                            line(0x60, "ULDC UR4, c[0x3][0x0]") + line(0x70, "LDC.U8 R12, c[0x3][RZ]") +
                            line(0x80, "MOV R14, 32@lo(counter)") + line(0x90, "MOV R15, 32@hi(counter)") +
                            line(0xa0, "UMOV UR6, 32@lo((table+0x4))") + line(0xb0, "STG.E [R14.64], R8") +
                            line(0xc0, "MOV R16, UR6") + line(0xd0, "STG.E [R14.64+0x4], R16"),
                        &info);
  ASSERT_TRUE(l.ok) << l.findings;
  // A name without mangling is also registered as a static's (_ZL<length><name>).
  EXPECT_NE(l.ir.find("@_ZL5first = protected alias [4 x i8], ptr addrspace(4) @__gpuport_constant_bank3"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@_ZL7counter = protected alias [4 x i8], ptr addrspace(1) @counter"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@__gpuport_constant_bank3 = private addrspace(4) externally_initialized global [12 x i8] "
                      "c\"\\01\\00\\00\\00\\FE\\FF\\00\\00\\09\\09\\09\\09\""),
            std::string::npos)
      << l.ir;
  EXPECT_NE(l.ir.find("@first = protected alias [4 x i8], ptr addrspace(4) @__gpuport_constant_bank3"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@second = protected alias [8 x i8], getelementptr (i8, ptr addrspace(4) @__gpuport_constant_bank3, i64 4)"),
            std::string::npos)
      << l.ir;
  EXPECT_NE(l.ir.find("@counter = protected addrspace(1) externally_initialized global [4 x i8] zeroinitializer"), std::string::npos)
      << l.ir;
  EXPECT_NE(l.ir.find("@table = protected addrspace(1) externally_initialized global [8 x i8] c\"\\01\\02\\03\\04\\05\\06\\07\\08\""),
            std::string::npos)
      << l.ir;
  EXPECT_NE(l.ir.find("ptrtoint (ptr addrspace(1) @counter to i64)"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("add (i64 ptrtoint (ptr addrspace(1) @table to i64), i64 4)"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("load i16, ptr addrspace(4)"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("load i64, ptr addrspace(4)"), std::string::npos) << l.ir;
}

TEST(LiftMemory, AnonymousNamespaceVariablesGetClangsNames) {
  // nvcc's names for variables in anonymous namespaces (from a cubin of names.cu); clang's host
  // code registers them as _ZN12_GLOBAL__N_13a_yE and _ZN2ns12_GLOBAL__N_13n_dE.
  KernelInfo info;
  info.constant_banks[3] = {0, 0, 0, 0, 0, 0, 0, 0};
  info.variables = {{"_ZN38_INTERNAL_195921c1_8_names_cu_208e454540_GLOBAL__N__195921c1_8_names_cu_208e45453a_yE", 3, 0, 8, {}},
                    {"_ZN38_INTERNAL_195921c1_8_names_cu_208e45452ns40_GLOBAL__N__195921c1_8_names_cu_208e45453n_dE", 0, 0, 4, {}},
                    {"_ZN2ns3n_zE", 0, 0, 4, {}}};
  const Lifted l = lift(kSetup + line(0x40, "LDC R8, c[0x3][0x4]") +
                            line(0x50, "MOV R10, 32@lo(_ZN38_INTERNAL_195921c1_8_names_cu_208e45452ns40_GLOBAL__N__195921c1_8_names_cu_208e45453n_dE)") +
                            line(0x60, "MOV R11, 32@hi(_ZN38_INTERNAL_195921c1_8_names_cu_208e45452ns40_GLOBAL__N__195921c1_8_names_cu_208e45453n_dE)") +
                            line(0x70, "STG.E [R10.64], R8") + line(0x80, "MOV R12, 32@lo(_ZN2ns3n_zE)") + line(0x90, "MOV R13, 32@hi(_ZN2ns3n_zE)") +
                            line(0xa0, "STG.E [R12.64], R8"),
                        &info);
  ASSERT_TRUE(l.ok) << l.findings;
  EXPECT_NE(l.ir.find("@_ZN12_GLOBAL__N_13a_yE = protected alias [8 x i8]"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@_ZN2ns12_GLOBAL__N_13n_dE = protected addrspace(1) externally_initialized global [4 x i8]"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@_ZN2ns3n_zE = protected addrspace(1)"), std::string::npos) << l.ir;
  EXPECT_EQ(l.ir.find("_INTERNAL_"), std::string::npos) << l.ir;
}

TEST(LiftMemory, NvptxRoundTripKeepsEachConstantVariableApart) {
  // PTX has no data aliases: each __constant__ variable is a .const global under the cubin's name
  // (nvcc's host code registers those), and c[0x3][R+offset] reads the variable holding offset.
  KernelInfo info;
  info.constant_banks[3] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0};
  info.variables = {{"first", 3, 0, 4, {1, 0, 0, 0}}, {"second", 3, 4, 8, {2, 0, 0, 0, 3, 0, 0, 0}}};
  const Lifted l = lift(kSetup + line(0x40, "LDC R8, c[0x3][R4+0x4]") + line(0x50, "STG.E [R2.64], R8") +
                            line(0x60, "LDC R9, c[0x3][0x0]") + line(0x70, "STG.E [R2.64+0x4], R9"),
                        &info, LiftTarget::nvptx);
  ASSERT_TRUE(l.ok) << l.findings;
  EXPECT_NE(l.ir.find("@second = addrspace(4) externally_initialized global [8 x i8]"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@first = addrspace(4) externally_initialized global [4 x i8]"), std::string::npos) << l.ir;
  EXPECT_EQ(l.ir.find("alias"), std::string::npos) << l.ir;
  EXPECT_EQ(l.ir.find("_ZL"), std::string::npos) << l.ir;
  const Lifted outside = lift(kSetup + line(0x40, "LDC R8, c[0x3][0xc]"), &info, LiftTarget::nvptx);
  EXPECT_FALSE(outside.ok);
  EXPECT_NE(outside.findings.find("c[0x3][0xc] lies in no __constant__ variable"), std::string::npos) << outside.findings;
}

TEST(LiftMemory, PrintfStringsAndReturnAddresses) {
  // What nvcc emits around printf: the format string ($str, in .nv.global.init) by relocation,
  // and the return address of the CALL.ABS in R20/R21 as (kernel + label@srel).
  KernelInfo info;
  info.variables = {{"$str", 0, 8, 4, {'h', 'i', '\n', 0}}};
  const Lifted l = lift(kSetup + line(0x40, "MOV R8, 32@lo($str)") + line(0x50, "MOV R9, 32@hi($str)") +
                            line(0x60, "MOV R20, 32@lo((k + .L_x_0@srel))") + line(0x70, "MOV R21, 32@hi((k + .L_x_0@srel))") +
                            line(0x80, "STG.E [R8.64], R20") + line(0x90, "STG.E [R8.64+0x4], R21") + ".L_x_0:\n" +
                            line(0xa0, "MOV R10, 32@lo((k + .L_x_9@srel))"),
                        &info);
  EXPECT_FALSE(l.ok);  // .L_x_9 is no label of the listing
  EXPECT_NE(l.findings.find("whose label is not in the listing"), std::string::npos) << l.findings;
  const Lifted ok = lift(kSetup + line(0x40, "MOV R8, 32@lo($str)") + line(0x50, "MOV R9, 32@hi($str)") +
                             line(0x60, "MOV R20, 32@lo((k + .L_x_0@srel))") + line(0x70, "MOV R21, 32@hi((k + .L_x_0@srel))") +
                             line(0x80, "STG.E [R8.64], R20") + line(0x90, "STG.E [R8.64+0x4], R21") + ".L_x_0:\n" +
                             line(0xa0, "MOV R10, 0x1"),
                         &info);
  ASSERT_TRUE(ok.ok) << ok.findings;
  EXPECT_NE(ok.ir.find("@\"$str\" = protected addrspace(1) externally_initialized global [4 x i8] c\"hi\\0A\\00\""), std::string::npos)
      << ok.ir;
  EXPECT_EQ(ok.ir.find("_ZL4$str"), std::string::npos) << ok.ir;
  EXPECT_NE(ok.ir.find("store i32 160, ptr addrspace(1)"), std::string::npos) << ok.ir;  // .L_x_0 is at 0xa0
}

TEST(LiftMemory, AsyncCopyForms) {
  const Lifted l = lift(kSetup + line(0x40, "LDGSTS.E.BYPASS.128 [R4], [R2.64]") +
                        line(0x50, "LDGSTS.E.BYPASS.128.ZFILL [R4+0x10], [R2.64], P0") + line(0x60, "LDGSTS.E [R4+0x20], [R2.64], !P1") +
                        line(0x70, "LDGDEPBAR") + line(0x80, "DEPBAR.LE SB0, 0x0"));
  ASSERT_TRUE(l.ok) << l.findings;
  EXPECT_NE(l.ir.find("load <16 x i8>, ptr addrspace(1)"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@llvm.masked.load.v16i8.p1("), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("@llvm.masked.load.v4i8.p1("), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("store <16 x i8>"), std::string::npos) << l.ir;
  EXPECT_NE(l.ir.find("store <4 x i8>"), std::string::npos) << l.ir;
}

TEST(LiftMemory, AddressSpaceQueries) {
  const Lifted l = lift(kSetup + line(0x40, "QSPC.E.S P0, RZ, [R2]") + line(0x50, "QSPC.E.G P1, RZ, [R2]") +
                        line(0x60, "@P0 STG.E [R2.64], R4") + line(0x70, "@P1 STG.E [R2.64+0x4], R4"));
  ASSERT_TRUE(l.ok) << l.findings;
  // The high word of the address against the high word of the shared window's generic base.
  EXPECT_NE(l.ir.find("lshr i64 ptrtoint (ptr addrspacecast (ptr addrspace(3) @k.dynamic_shared to ptr) to i64), 32"), std::string::npos)
      << l.ir;
  EXPECT_NE(l.ir.find("addrspacecast ptr addrspace(5) %local to ptr"), std::string::npos) << l.ir;  // .G: not local either
}

TEST(LiftMemory, MembarScopesUseTheFenceHook) {
  const Lifted l = lift(line(0x0, "MEMBAR.SC.GPU") + line(0x10, "MEMBAR.ALL.CTA") + line(0x20, "MEMBAR.SC.SYS") + line(0x30, "ERRBAR") +
                        line(0x40, "CGAERRBAR") + line(0x50, "CCTL.IVALL"));
  ASSERT_TRUE(l.ok) << l.findings;
  // The gfx1100 fence hook, inlined: sequentially consistent at the agent, work-group and system scopes.
  const std::size_t agent = l.ir.find("fence syncscope(\"agent\") seq_cst");
  const std::size_t group = l.ir.find("fence syncscope(\"workgroup\") seq_cst");
  const std::size_t system = l.ir.find("fence seq_cst");
  ASSERT_NE(agent, std::string::npos) << l.ir;
  ASSERT_NE(group, std::string::npos) << l.ir;
  ASSERT_NE(system, std::string::npos) << l.ir;
  EXPECT_LT(agent, group);
  EXPECT_LT(group, system);
}

TEST(LiftMemory, UnknownFormsAreRefused) {
  struct Case {
    const char* text;
    const char* reason;
  };
  for (const Case& c : {Case{"LDG.E.ZZ R8, [R2.64]", "modifier .ZZ of LDG"}, Case{"ATOMG.E.ADD.F32.FTZ.RZ.STRONG.GPU PT, R8, [R2.64], R4", "modifier .RZ"},
                        Case{"ATOMG.E.MIN.F32.STRONG.GPU PT, R8, [R2.64], R4", "a float atomic other than .ADD"},
                        Case{"ATOMS.POPC.INC.32 R8, [R4]", "ATOMS.POPC.INC with a result"},
                        Case{"MEMBAR.SC", "MEMBAR without a scope"},
                        Case{"MOV R8, 32@lo(nowhere)", "not a __device__ or __constant__ variable"},
                        Case{"LDC R8, c[0x3][0x0]", "constant bank 3 is not available"},
                        Case{"ATOMG.E.INC.64.STRONG.GPU PT, R8, [R2.64], R4", "a 64-bit .INC/.DEC"}}) {
    const Lifted l = lift(kSetup + line(0x40, c.text));
    EXPECT_FALSE(l.ok) << c.text;
    EXPECT_NE(l.findings.find(c.reason), std::string::npos) << c.text << ": " << l.findings;
  }
}

}  // namespace
}  // namespace gpuport::lift
