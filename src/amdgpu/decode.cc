// The LLVM MC objects for amdgcn-amd-amdhsa / gfx1100 are made once per Disassembler; per
// opcode names and per register widths are cached, so decoding a kernel is one MC call and a
// few table lookups per instruction.
#include "amdgpu/decode.h"

#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <fmt/format.h>
#include <cctype>
#include <mutex>
#include <unordered_map>

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUDisassembler();

namespace gpuport::amdgpu {

namespace {

// LLVM 19 prints a 16-bit VOP1/VOP2/VOPC operand whose VGPR field has bit 7 set as
// "v135/*Invalid register, operand has 'VGPR_32_Lo128' register class*/" (src0's class is
// VS_32_Lo128). gfx11 reads that bit as the high half of v0..v127 (RDNA3 ISA, true16 operands):
// v135 is v7.h, written so here (rocPRIM's kernels in rocSPARSE 6.4 compare such halves).
void name_high_halves(std::string& text) {
  static constexpr std::string_view kOpen = "/*Invalid register, operand has '", kClose = "_Lo128' register class*/";
  for (std::size_t at = text.find(kOpen); at != std::string::npos; at = text.find(kOpen, at)) {
    const std::size_t close = text.find(kClose, at);
    std::size_t digits = at;
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(text[digits - 1]))) --digits;
    const bool vgpr = close != std::string::npos && digits > 0 && digits < at && at - digits <= 3 && text[digits - 1] == 'v' &&
                      text.find('*', at + 2) == close + kClose.size() - 2;
    const unsigned number = vgpr ? static_cast<unsigned>(std::stoul(text.substr(digits, at - digits))) : 0;
    if (!vgpr || number < 128 || number > 255) {
      at += kOpen.size();  // left as printed: the emulator refuses the operand
      continue;
    }
    const std::string half = std::to_string(number - 128) + ".h";
    text.replace(digits, close + kClose.size() - digits, half);
    at = digits + half.size();
  }
}

}  // namespace

struct Disassembler::State {
  const llvm::Target* target = nullptr;
  llvm::Triple triple{"amdgcn-amd-amdhsa"};
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asm_info;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
  std::unique_ptr<llvm::MCInstrInfo> instructions;
  std::unique_ptr<llvm::MCContext> context;
  std::unique_ptr<llvm::MCDisassembler> disassembler;
  std::unique_ptr<llvm::MCInstPrinter> printer;
  // Per opcode: the form (name without _gfx11) and the assembly mnemonic; filled on first use.
  mutable std::mutex mutex;
  mutable std::unordered_map<std::uint32_t, std::pair<std::string, std::string>> names;
  mutable std::unordered_map<unsigned, std::uint8_t> widths;

  const std::pair<std::string, std::string>& names_of(std::uint32_t opcode) const {
    std::lock_guard lock(mutex);
    auto it = names.find(opcode);
    if (it != names.end()) return it->second;
    std::string form = instructions->getName(opcode).str();
    for (std::size_t at; (at = form.find("_gfx11")) != std::string::npos;) form.erase(at, 6);
    llvm::MCInst inst;
    inst.setOpcode(opcode);
    std::string mnemonic;
    if (const char* m = printer->getMnemonic(&inst).first) mnemonic = m;
    // The printer's table may hold more than the mnemonic ("v_cmp_eq_f16\tvcc_lo, " for a form with
    // an implicit operand, "scratch_store_b32\toff, ") and the encoding suffix of some forms
    // (v_cmpx_eq_f32_e64_dpp): the mnemonic is the first word, without the suffix.
    mnemonic = mnemonic.substr(0, mnemonic.find_first_of(" \t"));
    for (std::string_view suffix : {"_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa"})
      if (mnemonic.size() > suffix.size() && mnemonic.ends_with(suffix)) {
        mnemonic.resize(mnemonic.size() - suffix.size());
        break;
      }
    if (mnemonic.empty()) {
      // The printer's table has no entry for a few forms (V_MAD_U64_U32_gfx11_e64_gfx11, whose
      // mnemonic it prints from an alias): the form's name in lower case, without the encoding.
      mnemonic = form;
      for (std::string_view suffix : {"_e64", "_e32"})
        if (mnemonic.ends_with(suffix)) mnemonic.resize(mnemonic.size() - suffix.size());
      for (char& c : mnemonic) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return names.emplace(opcode, std::pair(std::move(form), std::move(mnemonic))).first->second;
  }

  // 32-bit registers in `reg`: the size of the register classes that hold it.
  std::uint8_t width_of(unsigned reg) const {
    std::lock_guard lock(mutex);
    auto it = widths.find(reg);
    if (it != widths.end()) return it->second;
    std::uint8_t width = 1;
    for (unsigned c = 0; c < registers->getNumRegClasses(); ++c) {
      const auto& rc = registers->getRegClass(c);
      // The largest class that holds it: SGPR pairs are also in the 1-bit lane-mask classes.
      if (rc.contains(reg))
        width = std::max(width, static_cast<std::uint8_t>(std::max(1u, static_cast<unsigned>(rc.getSizeInBits()) / 32)));
    }
    widths.emplace(reg, width);
    return width;
  }
};

Disassembler::Disassembler() : state_(std::make_unique<State>()) {}
Disassembler::~Disassembler() = default;

Result<std::unique_ptr<Disassembler>> Disassembler::create(bool wave64) {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUDisassembler();
  });
  auto d = std::unique_ptr<Disassembler>(new Disassembler());
  auto& s = *d->state_;
  std::string why;
  s.target = llvm::TargetRegistry::lookupTarget(s.triple.str(), why);
  auto fail = [](std::string message) {
    Diagnostic e;
    e.code = "llvm-amdgpu-missing";
    e.message = std::move(message);
    return e;
  };
  if (!s.target) return fail(fmt::format("LLVM has no AMDGPU target: {}", why));
  s.registers.reset(s.target->createMCRegInfo(s.triple.str()));
  llvm::MCTargetOptions options;
  s.asm_info.reset(s.target->createMCAsmInfo(*s.registers, s.triple.str(), options));
  s.subtarget.reset(s.target->createMCSubtargetInfo(s.triple.str(), "gfx1100", wave64 ? "+wavefrontsize64" : "+wavefrontsize32"));
  s.instructions.reset(s.target->createMCInstrInfo());
  if (!s.registers || !s.asm_info || !s.subtarget || !s.instructions) return fail("LLVM's AMDGPU MC layer could not be set up");
  s.context = std::make_unique<llvm::MCContext>(s.triple, s.asm_info.get(), s.registers.get(), s.subtarget.get());
  s.disassembler.reset(s.target->createMCDisassembler(*s.subtarget, *s.context));
  s.printer.reset(s.target->createMCInstPrinter(s.triple, 0, *s.asm_info, *s.instructions, *s.registers));
  if (!s.disassembler || !s.printer) return fail("LLVM has no AMDGPU disassembler (llvm-19-dev's libLLVM)");
  return d;
}

std::string_view Disassembler::form_name(std::uint32_t opcode) const { return state_->names_of(opcode).first; }
std::string_view Disassembler::mnemonic(std::uint32_t opcode) const { return state_->names_of(opcode).second; }

std::vector<OpcodeInfo> Disassembler::gfx11_opcodes() const {
  std::vector<OpcodeInfo> out;
  const auto& mii = *state_->instructions;
  for (unsigned op = 0; op < mii.getNumOpcodes(); ++op) {
    if (!mii.getName(op).contains("_gfx11")) continue;
    const auto& n = state_->names_of(op);
    out.push_back({op, n.first, n.second});
  }
  return out;
}

Result<KernelCode> Disassembler::decode(const CodeObject& co, const Kernel& kernel) const {
  auto instructions = decode_range(co, kernel.code_address, kernel.code_size, "kernel " + kernel.name);
  if (!instructions) return Result<KernelCode>::failure(instructions.diagnostics());
  KernelCode out;
  out.kernel = &kernel;
  out.instructions = std::move(*instructions);
  return out;
}

Result<std::vector<Instruction>> Disassembler::decode_range(const CodeObject& co, std::uint64_t address, std::uint64_t length,
                                                            std::string_view name) const {
  const auto& s = *state_;
  std::vector<Instruction> out;
  if (address > co.memory.size() || length > co.memory.size() - address) {
    Diagnostic e;
    e.code = "bad-code-object";
    e.message = fmt::format("{}: code [{:#x}, +{:#x}) lies outside the image", name, address, length);
    e.location.file = co.origin;
    return e;
  }
  const llvm::ArrayRef<std::uint8_t> code(co.memory.data() + address, length);
  std::uint64_t at = 0;
  while (at < code.size()) {
    llvm::MCInst inst;
    std::uint64_t size = 0;
    const auto status = s.disassembler->getInstruction(inst, size, code.slice(at), address + at, llvm::nulls());
    if (status != llvm::MCDisassembler::Success || size == 0) {
      // Bytes after the last s_endpgm (or a function's return) that do not decode are padding.
      bool ended = false;
      for (const auto& i : out) ended |= i.form == "S_ENDPGM" || i.form == "S_SETPC_B64_return" || i.form == "S_SETPC_B64";
      if (ended) break;
      std::uint32_t word = 0;
      for (std::size_t b = 0; b < 4 && at + b < code.size(); ++b) word |= static_cast<std::uint32_t>(code[at + b]) << (8 * b);
      Diagnostic e;
      e.code = "bad-instruction";
      e.message = fmt::format("{}: the word {:08x} at byte offset {:#x} is no gfx1100 instruction", name, word, at);
      e.location.file = co.origin;
      return e;
    }
    Instruction i;
    i.address = address + at;
    i.size = static_cast<std::uint32_t>(size);
    i.opcode = inst.getOpcode();
    const auto& names = s.names_of(i.opcode);
    i.form = names.first;
    i.mnemonic = names.second;
    {
      llvm::raw_string_ostream os(i.text);
      s.printer->printInst(&inst, i.address, "", *s.subtarget, os);
    }
    const auto first = i.text.find_first_not_of(" \t");
    i.text.erase(0, first == std::string::npos ? i.text.size() : first);
    for (char& c : i.text)
      if (c == '\t') c = ' ';
    name_high_halves(i.text);
    for (const auto& op : inst) {
      Operand o;
      if (op.isReg()) {
        o.kind = Operand::Kind::reg;
        o.reg = s.registers->getEncodingValue(op.getReg());
        o.width = s.width_of(op.getReg());
      } else if (op.isImm()) {
        o.kind = Operand::Kind::imm;
        o.imm = op.getImm();
      } else if (op.isSFPImm()) {
        o.kind = Operand::Kind::fp_imm;
        o.imm = static_cast<std::int64_t>(op.getSFPImm());
      } else if (op.isDFPImm()) {
        o.kind = Operand::Kind::fp_imm;
        o.imm = static_cast<std::int64_t>(op.getDFPImm());
      }
      i.operands.push_back(o);
    }
    const auto& desc = s.instructions->get(i.opcode);
    for (auto r : desc.implicit_uses()) i.implicit_uses.push_back(s.registers->getEncodingValue(r));
    for (auto r : desc.implicit_defs()) i.implicit_defs.push_back(s.registers->getEncodingValue(r));
    out.push_back(std::move(i));
    at += size;
  }
  while (!out.empty() && out.back().form == "S_CODE_END") out.pop_back();
  return out;
}

}  // namespace gpuport::amdgpu
