// The operands of one gfx1100 instruction, read from the assembly LLVM's printer writes (the
// syntax of AMD's RDNA3 ISA guide): registers, inline constants, literals, input modifiers
// (neg, abs, sext) and the trailing instruction modifiers (offset:, glc, clamp, dpp controls...).
// Parsed once per instruction when a kernel is prepared, never while it runs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport::emu {

// Operand encodings of the ISA's scalar source field (SSRC/SRC0), which the emulator also uses
// to index a wave's scalar register file.
namespace encoding {
constexpr std::uint16_t vcc_lo = 106, vcc_hi = 107, ttmp0 = 108, null = 124, m0 = 125, exec_lo = 126, exec_hi = 127;
constexpr std::uint16_t shared_base = 235, shared_limit = 236, private_base = 237, private_limit = 238;
constexpr std::uint16_t scc = 253, vgpr0 = 256;
}  // namespace encoding

struct Operand {
  enum class Kind : std::uint8_t {
    none,
    sgpr,        // scalar register file by encoding (s0..s105, vcc, ttmp, m0, exec, null)
    vgpr,        // v<reg>
    int_const,   // inline integer constant -16..64
    float_const, // inline float constant (0.5, 1.0, ... 1/(2pi)): its value depends on the type
    literal,     // 32-bit literal
    scc,         // the SCC bit as a source
    aperture,    // src_shared_base/limit, src_private_base/limit
    off,         // "off": no register (global saddr, scratch vaddr)
    label,       // branch target (s_cbranch_* / s_branch immediate, in words)
    vgpr_list,   // MIMG non-sequential address [v4, v2, v9]: `width` VGPRs, the i-th in bits 8i..8i+7 of value
  };
  Kind kind = Kind::none;
  std::uint16_t reg = 0;   // sgpr: encoding; vgpr: index; aperture: encoding
  std::uint8_t width = 1;  // 32-bit registers
  bool neg = false, abs = false, sext = false;
  bool high16 = false;     // v1.h (true16 high half)
  std::int64_t value = 0;  // int_const / literal / label
  double fvalue = 0;       // float_const
};

// Modifiers after the operands. Unknown ones are kept by name so that a handler that does not
// implement one can refuse the instruction instead of ignoring it.
struct Modifiers {
  std::int64_t offset = 0, offset0 = 0, offset1 = 0;
  bool glc = false, slc = false, dlc = false, clamp = false, gds = false;
  int omod = 0;  // 0 none, 1 mul:2, 2 mul:4, 3 div:2
  std::uint32_t op_sel = 0, op_sel_hi = 0, neg_lo = 0, neg_hi = 0;
  bool op_sel_hi_given = false;
  // DPP16: the control (dpp_control below) and its value (quad_perm: four 2-bit selects, lane 0's
  // in bits 1:0; row_shl/shr/ror: the count; row_share/xmask: the lane), the masks, bound_ctrl:1
  // and fi:1. DPP8: the eight 3-bit selects and fi:1 (fetch_inactive). semantics_dpp.cc runs them.
  bool dpp = false;
  std::uint32_t dpp_ctrl_kind = 0;
  std::uint32_t dpp_value = 0;
  std::uint32_t row_mask = 0xf, bank_mask = 0xf;
  bool bound_ctrl = false, fetch_inactive = false;
  bool dpp8 = false;
  std::uint8_t dpp8_lanes[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<std::string> unknown;
};

// Modifiers::dpp_ctrl_kind: the DPP16 controls LLVM prints for gfx11.
namespace dpp_control {
constexpr std::uint32_t quad_perm = 1, row_shl = 2, row_shr = 3, row_ror = 4, row_mirror = 5, row_half_mirror = 6,
                        row_share = 7, row_xmask = 8;
}

struct ParsedInstruction {
  std::string mnemonic;  // without the encoding suffix (_e32, _e64, _dpp, _sdwa)
  std::string suffix;    // "e32", "e64", "dpp", ... or empty
  std::vector<Operand> operands;
  Modifiers modifiers;
  // VOPD: the second (Y) half, "v_dual_fmac_f32 ... :: v_dual_mov_b32 ..."
  std::unique_ptr<ParsedInstruction> vopd_y;
};

// Parses `text` (as llvm-objdump prints it); an error message when the syntax is not understood.
std::optional<std::string> parse_instruction(std::string_view text, ParsedInstruction& out);

}  // namespace gpuport::emu
