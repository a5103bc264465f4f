// The gfx1100 model's readers on inputs made here: offload bundles built byte by byte (valid,
// truncated, entries outside the bundle), and the decoder on hand-written words whose meaning
// the RDNA3 ISA fixes (s_endpgm, v_add_f32_e32, an undecodable word).
#include <algorithm>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"
#include "common/file_io.h"

namespace gpuport::amdgpu {
namespace {

void put64(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>(v >> (8 * i)));
}

// A bundle with the given (triple, payload) entries, laid out as clang-offload-bundler does.
std::string make_bundle(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string header = "__CLANG_OFFLOAD_BUNDLE__";
  put64(header, entries.size());
  std::size_t header_size = header.size();
  for (const auto& e : entries) header_size += 24 + e.first.size();
  std::string body;
  std::string table;
  for (const auto& e : entries) {
    put64(table, header_size + body.size());
    put64(table, e.second.size());
    put64(table, e.first.size());
    table += e.first;
    body += e.second;
  }
  return header + table + body;
}

TEST(OffloadBundle, EntriesAndTheirBytes) {
  const std::string bundle = make_bundle({{"host-x86_64-unknown-linux--", ""}, {"hipv4-amdgcn-amd-amdhsa--gfx1100", "CODE"}});
  auto entries = read_offload_bundle(bundle, "b");
  ASSERT_TRUE(entries.ok());
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[1].triple, "hipv4-amdgcn-amd-amdhsa--gfx1100");
  EXPECT_EQ(bundle.substr((*entries)[1].offset, (*entries)[1].size), "CODE");
}

TEST(OffloadBundle, BadBundlesAreErrorsNotCrashes) {
  EXPECT_FALSE(read_offload_bundle("hello", "x").ok());
  const std::string good = make_bundle({{"hipv4-amdgcn-amd-amdhsa--gfx1100", "CODE"}});
  // Cut anywhere inside the header table: an error, never a read past the end.
  for (std::size_t cut = 24; cut < good.size() - 4; ++cut) {
    auto r = read_offload_bundle(std::string_view(good).substr(0, cut), "cut");
    EXPECT_FALSE(r.ok()) << cut;
  }
  std::string outside = good;
  outside[32] = static_cast<char>(0x7f);  // first entry's offset far past the end
  auto r = read_offload_bundle(outside, "o");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics()[0].message.find("outside the bundle"), std::string::npos);
}

TEST(CodeObject, NotElfIsAnError) {
  auto r = read_code_object("not an elf file at all", "t.co");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics()[0].code, "bad-code-object");
  EXPECT_EQ(r.diagnostics()[0].location.file, "t.co");
}

// DT_NEEDED decides which emulator runtime (libamdhip64.so.5 or .so.6) `gpuport run` loads.
TEST(HostBinary, NeededLibrariesOfThisTestProgram) {
  auto bytes = read_file("/proc/self/exe", 1ull << 31);
  ASSERT_TRUE(bytes.ok());
  auto dynamic = dynamic_section(*bytes, "self");
  ASSERT_TRUE(dynamic.ok());
  const auto* needed = &dynamic->needed;
  EXPECT_NE(std::find(needed->begin(), needed->end(), "libc.so.6"), needed->end());
  // Cut short anywhere, the file is an error or a shorter answer, never a read past its end.
  for (std::size_t cut : {std::size_t{64}, bytes->size() / 3, bytes->size() / 2, bytes->size() - 1}) {
    auto partial = dynamic_section(std::string_view(*bytes).substr(0, cut), "cut");
    if (partial.ok()) {
      EXPECT_LE(partial->needed.size(), needed->size());
    }
  }
  EXPECT_FALSE(dynamic_section("not an elf file", "t").ok());
}

// A code object's image is all the decoder needs: hand-written words at a kernel's address.
CodeObject with_code(std::vector<std::uint32_t> words) {
  CodeObject co;
  co.origin = "hand.co";
  co.memory.resize(0x100 + words.size() * 4);
  std::memcpy(co.memory.data() + 0x100, words.data(), words.size() * 4);
  Kernel k;
  k.name = "k";
  k.code_address = 0x100;
  k.code_size = words.size() * 4;
  co.kernels.push_back(k);
  return co;
}

TEST(Decode, InstructionsWithOperandsAndImplicitRegisters) {
  auto d = Disassembler::create();
  ASSERT_TRUE(d.ok());
  // v_add_f32_e32 v2, v2, v3 (06040702); v_add_co_ci_u32_e32 v3, vcc_lo, s5, v1, vcc_lo
  // (40060205); s_endpgm (bfb00000); then s_code_end padding (bf9f0000), dropped.
  auto co = with_code({0x06040702, 0x40060205, 0xbfb00000, 0xbf9f0000, 0xbf9f0000});
  auto code = (*d)->decode(co, co.kernels[0]);
  ASSERT_TRUE(code.ok());
  ASSERT_EQ(code->instructions.size(), 3u);
  const auto& add = code->instructions[0];
  EXPECT_EQ(add.text, "v_add_f32_e32 v2, v2, v3");
  EXPECT_EQ(add.form, "V_ADD_F32_e32");
  EXPECT_EQ(add.mnemonic, "v_add_f32");  // the encoding suffix is no part of the mnemonic
  EXPECT_EQ(add.address, 0x100u);
  ASSERT_EQ(add.operands.size(), 3u);
  EXPECT_EQ(add.operands[0].kind, Operand::Kind::reg);
  EXPECT_EQ(add.operands[0].reg, 256 + 2);
  EXPECT_EQ(add.operands[2].reg, 256 + 3);
  const auto& addc = code->instructions[1];
  EXPECT_EQ(addc.form, "V_ADD_CO_CI_U32_e32");
  // The carry in and out (VCC_LO, encoding 106) are implicit operands of the e32 form.
  EXPECT_NE(std::find(addc.implicit_uses.begin(), addc.implicit_uses.end(), 106), addc.implicit_uses.end());
  EXPECT_NE(std::find(addc.implicit_defs.begin(), addc.implicit_defs.end(), 106), addc.implicit_defs.end());
  EXPECT_EQ(code->instructions[2].form, "S_ENDPGM");
}

TEST(Decode, HighHalvesOfSixteenBitOperandsAreNamed) {
  auto d = Disassembler::create();
  ASSERT_TRUE(d.ok());
  // v_cmp_eq_u16_e32 vcc_lo, 2, v7 with bit 7 of vsrc1 set (7c750e82): LLVM 19 prints
  // "v135/*Invalid register, ...*/"; gfx11 reads v7's high half.
  auto co = with_code({0x7c750e82, 0xbfb00000});
  auto code = (*d)->decode(co, co.kernels[0]);
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(code->instructions[0].text, "v_cmp_eq_u16_e32 vcc_lo, 2, v7.h");
}

TEST(Decode, RegisterTuplesHaveTheirWidth) {
  auto d = Disassembler::create();
  ASSERT_TRUE(d.ok());
  // s_load_b128 s[4:7], s[0:1], null (f4080100 f8000000); s_endpgm
  auto co = with_code({0xf4080100, 0xf8000000, 0xbfb00000});
  auto code = (*d)->decode(co, co.kernels[0]);
  ASSERT_TRUE(code.ok());
  const auto& load = code->instructions[0];
  EXPECT_EQ(load.size, 8u);
  EXPECT_EQ(load.operands[0].reg, 4);
  EXPECT_EQ(load.operands[0].width, 4);
  EXPECT_EQ(load.operands[1].reg, 0);
  EXPECT_EQ(load.operands[1].width, 2);
  EXPECT_EQ(load.operands[2].reg, 124);  // null
}

TEST(Decode, AnUndecodableWordNamesTheKernelAndOffset) {
  auto d = Disassembler::create();
  ASSERT_TRUE(d.ok());
  auto co = with_code({0x06040702, 0xffffffff, 0xbfb00000});
  auto code = (*d)->decode(co, co.kernels[0]);
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.diagnostics()[0].code, "bad-instruction");
  EXPECT_NE(code.diagnostics()[0].message.find("kernel k: the word ffffffff at byte offset 0x4"), std::string::npos)
      << code.diagnostics()[0].message;
}

TEST(Decode, EveryGfx11FormHasAMnemonic) {
  auto d = Disassembler::create();
  ASSERT_TRUE(d.ok());
  const auto forms = (*d)->gfx11_opcodes();
  EXPECT_GT(forms.size(), 5000u);  // LLVM 19 knows about 7,600 gfx11 encodings
  std::size_t named = 0;
  for (const auto& f : forms) {
    if (!f.mnemonic.empty()) ++named;
    else ADD_FAILURE() << f.form;
  }
  EXPECT_EQ(named, forms.size());
}

}  // namespace
}  // namespace gpuport::amdgpu
