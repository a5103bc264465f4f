// The SASS lifter's core: the kernel function and its storage, operand access, control flow
// (blocks of the CFG, guards, branches, subroutine calls and returns, exits), and the dispatch of
// every other instruction to its family's handler (lift_*.cc). See sass_lift.h.
#include "lift/sass_lift.h"

#include <fmt/format.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/CFG.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "lift/lift_context.h"
#include "sass/cfg.h"
#include "sass/printer.h"

namespace gpuport::lift {

extern const char* const kCbank0Table;  // data/lift/cbank0.tsv, compiled in

namespace {

std::uint32_t parse_number(std::string_view s) {
  std::uint32_t v = 0;
  if (s.starts_with("0x")) std::from_chars(s.data() + 2, s.data() + s.size(), v, 16);
  else std::from_chars(s.data(), s.data() + s.size(), v, 10);
  return v;
}

std::map<int, ArchFacts> load_arch_facts() {
  std::map<int, ArchFacts> out;
  std::string_view text = kCbank0Table;
  while (!text.empty()) {
    const auto eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string_view> cells;
    for (std::size_t start = 0;;) {
      const auto tab = line.find('\t', start);
      cells.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
      if (tab == std::string_view::npos) break;
      start = tab + 1;
    }
    if (cells.size() != 5) continue;
    const int lo = static_cast<int>(parse_number(cells[0])), hi = static_cast<int>(parse_number(cells[1]));
    const std::uint32_t offset = parse_number(cells[2]), bytes = parse_number(cells[3]);
    for (int arch = lo; arch <= hi; ++arch) {
      ArchFacts& f = out[arch];
      if (cells[4] == "parameters") f.parameter_base = offset;
      else if (cells[4] == "shared_base") f.shared_window_offset = offset;
      else f.slots[offset] = {std::string(cells[4]), bytes};
    }
  }
  return out;
}

std::string instruction_text(const sass::SassInstruction& ins) {
  std::string t = sass::print_instruction(ins);
  while (!t.empty() && (t.back() == ' ' || t.back() == ';')) t.pop_back();
  const auto start = t.find_first_not_of(' ');
  return start == std::string::npos ? t : t.substr(start);
}

}  // namespace

const ArchFacts& arch_facts(int arch) {
  static const std::map<int, ArchFacts> facts = load_arch_facts();
  static const ArchFacts none;
  const auto it = facts.find(arch);
  return it == facts.end() ? none : it->second;
}

// ---- LiftContext --------------------------------------------------------------------------------

LiftContext::LiftContext(llvm::Module& module, llvm::Function& function, const LiftRequest& request)
    : module_(module), function_(function), request_(request), facts_(&arch_facts(request.arch)),
      builder_(module.getContext()), entry_(module.getContext()) {
  auto& entry_block = function.getEntryBlock();
  entry_.SetInsertPoint(&entry_block, entry_block.begin());
}

llvm::AllocaInst* LiftContext::slot(std::map<unsigned, llvm::AllocaInst*>& file, unsigned index, llvm::Type* type,
                                    const char* prefix) {
  auto& s = file[index];
  if (s == nullptr) {
    auto& entry_block = function_.getEntryBlock();
    entry_.SetInsertPoint(&entry_block, entry_block.getFirstInsertionPt());
    s = entry_.CreateAlloca(type, nullptr, fmt::format("{}{}", prefix, index));
    // Registers start as 0, not undef: SASS reads a register before writing it only in code
    // whose result does not depend on it, and a defined value keeps the optimiser honest.
    entry_.CreateStore(llvm::Constant::getNullValue(type), s);
  }
  return s;
}

llvm::Value* LiftContext::reg(bool uniform, unsigned index) {
  if (index == sass::kZeroRegister) return u32(0);
  auto* s = slot(uniform ? uniform_registers_ : registers_, index, i32(), uniform ? "UR" : "R");
  return builder_.CreateLoad(i32(), s);
}

void LiftContext::set_reg(bool uniform, unsigned index, llvm::Value* value) {
  if (index == sass::kZeroRegister) return;
  value = convert(value, i32());
  builder_.CreateStore(value, slot(uniform ? uniform_registers_ : registers_, index, i32(), uniform ? "UR" : "R"));
}

llvm::Value* LiftContext::pred(bool uniform, unsigned index) {
  if (index == 7) return flag(true);
  return builder_.CreateLoad(i1(), slot(uniform ? uniform_predicates_ : predicates_, index, i1(), uniform ? "UP" : "P"));
}

void LiftContext::set_pred(bool uniform, unsigned index, llvm::Value* value) {
  if (index == 7) return;
  builder_.CreateStore(convert(value, i1()), slot(uniform ? uniform_predicates_ : predicates_, index, i1(), uniform ? "UP" : "P"));
}

llvm::Value* LiftContext::convert(llvm::Value* v, llvm::Type* to) {
  llvm::Type* from = v->getType();
  if (from == to) return v;
  if (to->isIntegerTy(1)) {
    if (from->isIntegerTy()) return builder_.CreateICmpNE(v, llvm::Constant::getNullValue(from));
  }
  if (to->isIntegerTy() && from->isIntegerTy()) return builder_.CreateZExtOrTrunc(v, to);
  if (to->isFloatingPointTy() && from->isIntegerTy() && from->getPrimitiveSizeInBits() == to->getPrimitiveSizeInBits())
    return builder_.CreateBitCast(v, to);
  if (to->isIntegerTy() && from->isFloatingPointTy() && from->getPrimitiveSizeInBits() == to->getPrimitiveSizeInBits())
    return builder_.CreateBitCast(v, to);
  if (to->isPointerTy() && from->isPointerTy()) return builder_.CreateAddrSpaceCast(v, to);
  if (to->isPointerTy() && from->isIntegerTy()) return builder_.CreateIntToPtr(v, to);
  if (to->isIntegerTy() && from->isPointerTy()) return builder_.CreatePtrToInt(v, to);
  return builder_.CreateBitOrPointerCast(v, to);
}

llvm::Value* LiftContext::constant_bank(std::uint32_t bank, std::int64_t offset, unsigned bytes, llvm::Value* index) {
  llvm::Type* type = builder_.getIntNTy(bytes * 8);
  if (bank == 0) {
    const std::uint32_t base = facts_->parameter_base;
    if (base != 0 && offset >= base) {
      // The parameter block: arguments stored at their offsets at entry (SROA folds the loads).
      llvm::Value* at = u32(static_cast<std::uint64_t>(offset - base));
      if (index != nullptr) at = builder_.CreateAdd(at, convert(index, i32()));
      if (index == nullptr && static_cast<std::uint64_t>(offset - base) + bytes > parameter_block_size) {
        refuse(fmt::format("c[0x0][{:#x}] reads past the kernel's {} bytes of parameters", offset, parameter_block_size));
        return llvm::PoisonValue::get(type);
      }
      return builder_.CreateLoad(type, builder_.CreateGEP(i8(), parameter_block, at));
    }
    if (index != nullptr) {
      refuse(fmt::format("a register-indexed read of constant bank 0 below the parameters (c[0x0][R+{:#x}])", offset));
      return llvm::PoisonValue::get(type);
    }
    auto it = facts_->slots.upper_bound(static_cast<std::uint32_t>(offset));
    if (it != facts_->slots.begin()) --it;
    if (it != facts_->slots.end() && offset >= it->first && offset + bytes <= it->first + it->second.second) {
      const std::string& what = it->second.first;
      const std::uint32_t within = static_cast<std::uint32_t>(offset - it->first);
      llvm::Value* value = nullptr;
      if (what.starts_with("block_size.")) value = hook("block_size", {u32(what.back() - 'x')});
      else if (what.starts_with("grid_size.")) value = hook("grid_size", {u32(what.back() - 'x')});
      else if (what == "stack_top") value = u32(local_size);
      else if (what == "global_descriptor") value = u64(0);  // desc[URx]: the hardware's, not ours
      else if (what == "shared_window") value = builder_.CreatePtrToInt(generic_shared_base(), i64());
      else if (what == "local_window") value = builder_.CreatePtrToInt(generic_local_base(), i64());
      if (value != nullptr) {
        value = convert(value, builder_.getIntNTy(it->second.second * 8));
        if (within != 0) value = builder_.CreateLShr(value, within * 8);
        return builder_.CreateZExtOrTrunc(value, type);
      }
    }
    refuse(fmt::format("constant bank 0 offset {:#x} has no known meaning on sm_{}", offset, request_.arch));
    return llvm::PoisonValue::get(type);
  }
  // __constant__ variables (3): host-writable globals of the module (lift_memory.cc).
  if (bank == 3) {
    llvm::Value* at = u32(static_cast<std::uint64_t>(offset));
    if (index != nullptr) at = builder_.CreateAdd(at, convert(index, i32()));
    if (llvm::Value* p = constant_variable_pointer(*this, static_cast<std::uint64_t>(offset), at)) return builder_.CreateLoad(type, p);
    return llvm::PoisonValue::get(type);
  }
  // Read-only banks (2: the compiler's constants and jump tables).
  if (llvm::GlobalVariable* g = bank_global(bank)) {
    llvm::Value* at = u32(static_cast<std::uint64_t>(offset));
    if (index != nullptr) at = builder_.CreateAdd(at, convert(index, i32()));
    return builder_.CreateLoad(type, builder_.CreateGEP(i8(), g, at));
  }
  refuse(fmt::format("constant bank {} is not available (its data comes from the cubin)", bank));
  return llvm::PoisonValue::get(type);
}

llvm::GlobalVariable* LiftContext::bank_global(std::uint32_t bank) {
  auto found = bank_globals_.find(bank);
  if (found != bank_globals_.end()) return found->second;
  llvm::GlobalVariable* g = nullptr;
  const auto& info = request_.info;
  const auto data = info.constant_banks.find(bank);
  if (data != info.constant_banks.end()) {
    // A private copy of the bank in the target's constant space (the module's variables that
    // the host can write are separate globals, see ModuleVariable). Where the loader writes an
    // address into the bank (bank 4), the copy holds that global's address as a relocated
    // pointer: a packed struct of the bytes between and the pointers.
    const std::vector<std::uint8_t>& bytes = data->second;
    std::vector<llvm::Constant*> pieces;
    std::uint64_t at = 0;
    auto add_bytes = [&](std::uint64_t end) {
      if (end <= at) return;
      pieces.push_back(llvm::ConstantDataArray::get(context(), llvm::ArrayRef<std::uint8_t>(bytes.data() + at, end - at)));
      at = end;
    };
    const auto relocations = info.bank_relocations.find(bank);
    if (relocations != info.bank_relocations.end()) {
      for (const auto& r : relocations->second) {
        if (r.type != 2 || r.offset < at || r.offset + 8 > bytes.size()) {
          refuse(fmt::format("relocation type {} of {} at c[{:#x}][{:#x}] is not supported", r.type, r.symbol, bank, r.offset));
          continue;
        }
        llvm::Constant* symbol = variable_address(*this, r.symbol);
        if (symbol == nullptr) continue;
        add_bytes(r.offset);
        llvm::Constant* address = llvm::ConstantExpr::getAdd(llvm::ConstantExpr::getPtrToInt(symbol, i64()),
                                                              llvm::ConstantInt::get(i64(), static_cast<std::uint64_t>(r.addend)));
        pieces.push_back(address);
        at += 8;
      }
    }
    add_bytes(bytes.size());
    // One piece: the bytes as they are (an empty bank, too); with addresses, a packed struct.
    llvm::Constant* init = pieces.size() == 1 && llvm::isa<llvm::ConstantDataArray>(pieces[0])
                               ? pieces[0]
                               : llvm::ConstantStruct::getAnon(context(), pieces, /*Packed=*/true);
    g = new llvm::GlobalVariable(module_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                 fmt::format("{}.bank{}", request_.info.name, bank), nullptr,
                                 llvm::GlobalValue::NotThreadLocal, 4);
    g->setAlignment(llvm::Align(16));
  }
  bank_globals_[bank] = g;
  return g;
}

llvm::Value* LiftContext::constant_operand(const sass::SassOperand& c, std::int64_t extra, unsigned bytes) {
  // c[bank][offset], or c[bank][R + offset] with the register read here (RZ/URZ: no index).
  const auto& base = c.address.base;
  llvm::Value* index = nullptr;
  if (base.present && base.index != sass::kZeroRegister) index = reg(base.kind == sass::OperandKind::uniform_reg, base.index);
  const std::int64_t offset = base.present ? (c.address.has_offset ? c.address.offset : 0) : c.value;
  return constant_bank(c.bank, offset + extra, bytes, index);
}

llvm::Value* LiftContext::read(const sass::SassOperand& op) {
  using K = sass::OperandKind;
  switch (op.kind) {
    case K::reg: return reg(false, op.index);
    case K::uniform_reg: return reg(true, op.index);
    case K::immediate:
      if (op.is_float) return builder_.CreateBitCast(llvm::ConstantFP::get(f32(), static_cast<float>(op.float_value)), i32());
      if (op.text.find("@") != std::string_view::npos) return relocated_immediate(*this, op);  // 32@lo(symbol): lift_memory.cc
      return u32(static_cast<std::uint64_t>(op.value));
    case K::constant: return constant_operand(op, 0, 4);
    case K::predicate:
    case K::uniform_predicate: return builder_.CreateZExt(read_predicate(op), i32());
    default:
      refuse(fmt::format("operand '{}' of kind {} cannot be read as a value", std::string_view(op.text),
                         sass::operand_kind_name(op.kind)));
      return llvm::PoisonValue::get(i32());
  }
}

llvm::Value* LiftContext::read_int(const sass::SassOperand& op) {
  llvm::Value* v = read(op);
  if (op.absolute) v = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, v, flag(false));
  if (op.bitwise_not) v = builder_.CreateNot(v);
  if (op.negate) v = builder_.CreateNeg(v);
  return v;
}

// nvdisasm prints the immediates of float instructions as numbers: "0.5", "-1", "3", "+INF"; only a
// hexadecimal immediate ("0x7fffffff") gives the bits.
std::optional<double> float_immediate(const sass::SassOperand& op) {
  if (op.kind != sass::OperandKind::immediate) return std::nullopt;
  if (op.is_float) return op.float_value;
  if (op.text.starts_with("0x") || op.text.starts_with("-0x") || op.text.find("@") != std::string_view::npos) return std::nullopt;
  return static_cast<double>(op.value);
}

llvm::Value* LiftContext::read_float(const sass::SassOperand& op) {
  llvm::Value* v;
  if (auto imm = float_immediate(op)) v = llvm::ConstantFP::get(f32(), static_cast<float>(*imm));
  else v = builder_.CreateBitCast(read(op), f32());
  if (op.absolute) v = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  if (op.negate) v = builder_.CreateFNeg(v);
  return v;
}

llvm::Value* LiftContext::read64(const sass::SassOperand& op) {
  using K = sass::OperandKind;
  switch (op.kind) {
    case K::reg:
    case K::uniform_reg: {
      const bool uniform = op.kind == K::uniform_reg;
      if (op.index == sass::kZeroRegister) return u64(0);
      llvm::Value* lo = builder_.CreateZExt(reg(uniform, op.index), i64());
      llvm::Value* hi = builder_.CreateZExt(reg(uniform, op.index + 1), i64());
      return builder_.CreateOr(lo, builder_.CreateShl(hi, 32));
    }
    case K::immediate:
      if (op.is_float) return builder_.CreateBitCast(llvm::ConstantFP::get(f64(), op.float_value), i64());
      return u64(static_cast<std::uint64_t>(op.value));
    case K::constant: return constant_operand(op, 0, 8);
    default:
      refuse(fmt::format("operand '{}' cannot be read as a 64-bit value", std::string_view(op.text)));
      return llvm::PoisonValue::get(i64());
  }
}

llvm::Value* LiftContext::read_double(const sass::SassOperand& op) {
  llvm::Value* v;
  if (auto imm = float_immediate(op)) v = llvm::ConstantFP::get(f64(), *imm);
  else v = builder_.CreateBitCast(read64(op), f64());
  if (op.absolute) v = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v);
  if (op.negate) v = builder_.CreateFNeg(v);
  return v;
}

llvm::Value* LiftContext::read_predicate(const sass::SassOperand& op) {
  using K = sass::OperandKind;
  llvm::Value* v;
  if (op.kind == K::predicate || op.kind == K::uniform_predicate) v = pred(op.kind == K::uniform_predicate, op.index);
  else v = convert(read(op), i1());
  return op.logical_not ? builder_.CreateNot(v) : v;
}

void LiftContext::write(const sass::SassOperand& op, llvm::Value* value) {
  using K = sass::OperandKind;
  if (op.kind == K::reg || op.kind == K::uniform_reg) return set_reg(op.kind == K::uniform_reg, op.index, value);
  if (op.kind == K::predicate || op.kind == K::uniform_predicate) return set_pred(op.kind == K::uniform_predicate, op.index, value);
  refuse(fmt::format("operand '{}' cannot be written", std::string_view(op.text)));
}

void LiftContext::write64(const sass::SassOperand& op, llvm::Value* value) {
  using K = sass::OperandKind;
  if (op.kind != K::reg && op.kind != K::uniform_reg) {
    refuse("a 64-bit result needs a register pair");
    return;
  }
  const bool uniform = op.kind == K::uniform_reg;
  if (op.index == sass::kZeroRegister) return;
  value = convert(value, i64());
  set_reg(uniform, op.index, builder_.CreateTrunc(value, i32()));
  set_reg(uniform, op.index + 1, builder_.CreateTrunc(builder_.CreateLShr(value, 32), i32()));
}

void LiftContext::write_predicate(const sass::SassOperand& op, llvm::Value* value) {
  using K = sass::OperandKind;
  if (op.kind == K::predicate || op.kind == K::uniform_predicate) return set_pred(op.kind == K::uniform_predicate, op.index, value);
  refuse(fmt::format("operand '{}' is not a predicate", std::string_view(op.text)));
}

llvm::Function* LiftContext::semantic_function(const std::string& full_name) {
  llvm::Function* f = module_.getFunction(full_name);
  if (f == nullptr || f->isDeclaration()) {
    refuse(fmt::format("no semantic function {} in the semantics bitcode", full_name));
    return nullptr;
  }
  return f;
}

llvm::Value* LiftContext::semantic(std::string_view name, std::vector<llvm::Value*> args) {
  return call_named(fmt::format("gpuport_sass_{}", name), std::move(args));
}

llvm::Value* LiftContext::hook(std::string_view name, std::vector<llvm::Value*> args) {
  return call_named(fmt::format("gpuport_hook_{}", name), std::move(args));
}

llvm::Value* LiftContext::call_named(const std::string& full_name, std::vector<llvm::Value*> args) {
  llvm::Function* f = semantic_function(full_name);
  if (f == nullptr) return nullptr;
  llvm::FunctionType* type = f->getFunctionType();
  if (type->getNumParams() != args.size()) {
    refuse(fmt::format("{} takes {} arguments, the lifter passed {}", full_name, type->getNumParams(), args.size()));
    return llvm::PoisonValue::get(type->getReturnType());
  }
  for (unsigned i = 0; i < args.size(); ++i) args[i] = convert(args[i], type->getParamType(i));
  return builder_.CreateCall(f, args);
}

llvm::Value* LiftContext::out_flag() {
  auto& entry_block = function_.getEntryBlock();
  entry_.SetInsertPoint(&entry_block, entry_block.getFirstInsertionPt());
  auto* s = entry_.CreateAlloca(i1(), nullptr, "flag");
  entry_.CreateStore(flag(false), s);
  return s;
}

llvm::Value* LiftContext::load_flag(llvm::Value* slot) { return builder_.CreateLoad(i1(), slot); }

llvm::Value* LiftContext::address(const sass::MemoryAddress& a, bool wide_base, bool wide_index) {
  using K = sass::OperandKind;
  llvm::Value* sum = u64(static_cast<std::uint64_t>(a.has_offset ? a.offset : 0));
  auto add_register = [&](const sass::AddressRegister& r, bool wide) {
    if (!r.present) return;
    const bool uniform = r.kind == K::uniform_reg;
    llvm::Value* v;
    if (wide) {
      sass::SassOperand pair;
      pair.kind = uniform ? K::uniform_reg : K::reg;
      pair.index = r.index;
      v = read64(pair);
    } else {
      v = builder_.CreateZExt(reg(uniform, r.index), i64());
      if (r.suffix == ".X4") v = builder_.CreateShl(v, 2);
      else if (r.suffix == ".X8") v = builder_.CreateShl(v, 3);
      else if (r.suffix == ".X16") v = builder_.CreateShl(v, 4);
    }
    sum = builder_.CreateAdd(sum, v);
  };
  add_register(a.base, a.wide || wide_base);
  add_register(a.index, wide_index || a.index.suffix == ".64");
  return sum;
}

llvm::Value* LiftContext::global_pointer(llvm::Value* address64) {
  return builder_.CreateIntToPtr(address64, builder_.getPtrTy(1));
}

llvm::Value* LiftContext::generic_pointer(llvm::Value* address64) {
  return builder_.CreateIntToPtr(address64, builder_.getPtrTy(0));
}

llvm::Value* LiftContext::shared_base() {
  if (shared_block == nullptr) {
    // Static shared data first, at the offset the SASS addresses it (sm_90 leaves the first 1 KiB
    // of its shared window unused), rounded to 16 bytes; dynamic shared memory follows it, as the
    // runtime allocates it after the kernel's fixed LDS.
    std::uint64_t bytes = facts_->shared_window_offset + request_.info.static_shared_bytes;
    bytes = (bytes + 15) / 16 * 16;
    if (bytes == 0) {
      shared_block = new llvm::GlobalVariable(module_, llvm::ArrayType::get(i8(), 0), false, llvm::GlobalValue::ExternalLinkage,
                                              nullptr, fmt::format("{}.dynamic_shared", request_.info.name), nullptr,
                                              llvm::GlobalValue::NotThreadLocal, 3);
    } else {
      auto* type = llvm::ArrayType::get(i8(), bytes);
      shared_block = new llvm::GlobalVariable(module_, type, false, llvm::GlobalValue::InternalLinkage,
                                              llvm::PoisonValue::get(type), fmt::format("{}.shared", request_.info.name), nullptr,
                                              llvm::GlobalValue::NotThreadLocal, 3);
    }
    shared_block->setAlignment(llvm::Align(16));
  }
  return shared_block;
}

llvm::Value* LiftContext::shared_pointer(llvm::Value* offset32) {
  return builder_.CreateGEP(i8(), shared_base(), convert(offset32, i32()));
}

llvm::Value* LiftContext::generic_shared_base() {
  return builder_.CreateAddrSpaceCast(shared_base(), builder_.getPtrTy(0));
}

llvm::Value* LiftContext::local_pointer(llvm::Value* offset32) {
  if (local_block == nullptr) {
    refuse("local memory is used but the kernel's local size is unknown");
    return llvm::PoisonValue::get(builder_.getPtrTy(5));
  }
  return builder_.CreateGEP(i8(), local_block, convert(offset32, i32()));
}

llvm::Value* LiftContext::generic_local_base() {
  if (local_block == nullptr) {
    refuse("local memory is used but the kernel's local size is unknown");
    return llvm::PoisonValue::get(builder_.getPtrTy(0));
  }
  return builder_.CreateAddrSpaceCast(local_block, builder_.getPtrTy(0));
}

bool LiftContext::refuse(const std::string& why) {
  ok_ = false;
  Diagnostic d;
  d.severity = Severity::error;
  d.code = "unsupported-instruction";
  const std::string kernel = request_.kernel != nullptr ? request_.kernel->name : request_.info.name;  // nvcc's name, as the listing says
  if (current_ != nullptr) {
    d.message = fmt::format("kernel {}: {} at byte offset {:#06x}{} ({})", kernel, why, current_->address,
                            current_function_ != nullptr && current_function_->name != kernel
                                ? fmt::format(" of {}", current_function_->name)
                                : std::string(),
                            instruction_text(*current_));
    d.location = {request_.source_name, current_->line, 0};
  } else {
    d.message = fmt::format("kernel {}: {}", kernel, why);
    d.location = {request_.source_name, 0, 0};
  }
  // One finding per instruction and reason is enough.
  for (const auto& f : findings_)
    if (f.message == d.message) return false;
  findings_.push_back(std::move(d));
  return false;
}

// ---- modifiers shared by the families -------------------------------------------------------------

int integer_compare_code(const sass::SassInstruction& ins) {
  static const std::pair<std::string_view, int> codes[] = {{"F", 0}, {"LT", 1}, {"EQ", 2}, {"LE", 3},
                                                           {"GT", 4}, {"NE", 5}, {"GE", 6}, {"T", 7}};
  for (auto m : ins.modifiers)
    for (auto [name, code] : codes)
      if (m == name) return code;
  return -1;
}

int float_compare_code(const sass::SassInstruction& ins) {
  static const std::pair<std::string_view, int> codes[] = {
      {"F", 0},    {"LT", 1},   {"EQ", 2},   {"LE", 3},   {"GT", 4},   {"NE", 5},   {"GE", 6},  {"NUM", 7},
      {"NAN", 8},  {"LTU", 9},  {"EQU", 10}, {"LEU", 11}, {"GTU", 12}, {"NEU", 13}, {"GEU", 14}, {"T", 15}};
  for (auto m : ins.modifiers)
    for (auto [name, code] : codes)
      if (m == name) return code;
  return -1;
}

int boolean_op_code(const sass::SassInstruction& ins) {
  for (auto m : ins.modifiers) {
    if (m == "AND") return 0;
    if (m == "OR") return 1;
    if (m == "XOR") return 2;
  }
  return -1;
}

// ---- the kernel ------------------------------------------------------------------------------------

namespace {

const HandlerTable& handlers() {
  static const HandlerTable table = [] {
    HandlerTable t;
    register_integer_handlers(t);
    register_float_handlers(t);
    register_memory_handlers(t);
    register_warp_handlers(t);
    register_special_handlers(t);
    register_mma_handlers(t);
    return t;
  }();
  return table;
}

// Instructions that only schedule, order or reconverge the warp: nothing for one thread to do.
bool is_no_op(const sass::SassInstruction& ins) {
  static const std::set<std::string, std::less<>> ops = {"NOP", "BSSY", "BSYNC", "BREAK", "WARPSYNC", "YIELD", "DEPBAR",
                                                          "BMOV", "ERRBAR", "CCTL", "CCTLL", "PMTRIG", "ENDCOLLECTIVE"};
  if (ins.opcode == "WARPSYNC" && ins.has_modifier("COLLECTIVE")) return false;
  return ops.contains(ins.opcode);
}

// One function of the listing with its CFG and where its blocks are in the LLVM function.
struct LiftedFunction {
  const sass::SassFunction* function = nullptr;
  sass::ControlFlowGraph cfg;
  std::vector<llvm::BasicBlock*> blocks;  // by CFG block id (the virtual exit: nullptr)
};

// A subroutine entry (a CALL target): its return-site variable and the blocks calls return to.
struct Subroutine {
  std::size_t function = 0;   // index into the lifted functions
  std::uint64_t address = 0;  // of its first instruction
  llvm::AllocaInst* return_site = nullptr;
  std::vector<llvm::BasicBlock*> return_blocks;  // by call-site number
  llvm::BasicBlock* entry = nullptr;             // where calls enter it
  std::vector<llvm::BranchInst*> calls;          // by call-site number: the branch to `entry`
  std::vector<llvm::Instruction*> returns;       // each RET's dispatch over the call sites
};

class KernelLifter {
 public:
  KernelLifter(llvm::Module& module, const LiftRequest& request) : module_(module), request_(request) {}

  LiftResult run();

 private:
  llvm::Function* make_function();
  std::size_t add_function(const sass::SassFunction* f);
  bool collect_functions();
  void lift_block(std::size_t fi, std::size_t bi);
  llvm::BasicBlock* block_at(std::size_t fi, std::size_t instruction_index);
  llvm::BasicBlock* block_of_label(std::size_t fi, std::string_view label);
  Subroutine* subroutine_for_call(std::size_t fi, const sass::SassInstruction& call);
  Subroutine* subroutine_of_return(std::size_t fi, const sass::SassInstruction& ret);
  std::optional<std::size_t> numeric_call_target(std::size_t fi, const sass::SassInstruction& call) const;
  bool is_subroutine_entry(std::size_t fi, std::size_t index) const;
  void terminate(std::size_t fi, std::size_t bi, const sass::SassInstruction& last, bool last_lifted);
  void finish_returns();
  void inline_subroutines();

  struct PendingReturn {
    std::size_t function;
    const sass::SassInstruction* instruction;
    llvm::BasicBlock* block;
    llvm::Value* condition;
    llvm::BasicBlock* next;
  };
  std::vector<PendingReturn> pending_returns_;

  llvm::Module& module_;
  const LiftRequest& request_;
  llvm::Function* function_ = nullptr;
  std::unique_ptr<LiftContext> cx_;
  std::vector<LiftedFunction> functions_;
  std::vector<Subroutine> subroutines_;
  llvm::BasicBlock* exit_ = nullptr;
  std::size_t instructions_ = 0;
};

llvm::Function* KernelLifter::make_function() {
  auto& ctx = module_.getContext();
  std::vector<llvm::Type*> params;
  for (const auto& p : request_.info.parameters) {
    llvm::Type* t;
    if (p.pointer && p.size == 8) t = llvm::PointerType::get(ctx, 1);
    else if (p.size == 1 || p.size == 2 || p.size == 4 || p.size == 8) t = llvm::Type::getIntNTy(ctx, p.size * 8);
    else {
      // A struct by value: an array of elements with the struct's alignment, so that the
      // argument lands at the offset HIP's host code packs it at (the C layout of the same
      // signature); an i8 array would be packed at any byte.
      const std::uint32_t align = p.size % p.alignment == 0 ? p.alignment : 1;
      llvm::Type* element = align == 16  ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(llvm::Type::getInt32Ty(ctx), 4))
                            : align >= 2 ? static_cast<llvm::Type*>(llvm::Type::getIntNTy(ctx, align * 8))
                                         : static_cast<llvm::Type*>(llvm::Type::getInt8Ty(ctx));
      t = llvm::ArrayType::get(element, p.size / std::max<std::uint32_t>(align, 1));
    }
    params.push_back(t);
  }
  auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false);
  auto* f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, request_.info.name, module_);
  if (is_amdgpu(request_.target)) {
    f->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
    f->setVisibility(llvm::GlobalValue::ProtectedVisibility);
  } else {
    // NVPTX kernels: the calling convention, and the nvvm.annotations entry LLVM 19 also reads.
    f->setCallingConv(llvm::CallingConv::PTX_Kernel);
    llvm::NamedMDNode* annotations = module_.getOrInsertNamedMetadata("nvvm.annotations");
    annotations->addOperand(llvm::MDNode::get(ctx, {llvm::ValueAsMetadata::get(f), llvm::MDString::get(ctx, "kernel"),
                                                    llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), 1))}));
  }
  for (unsigned i = 0; i < params.size(); ++i) f->getArg(i)->setName(fmt::format("param{}", i));
  // CUDA blocks have up to 1024 threads.
  if (is_amdgpu(request_.target)) f->addFnAttr("amdgpu-flat-work-group-size", "1,1024");
  // The target's CPU and features, as the semantics were compiled with, so that they inline.
  if (llvm::Function* any = module_.getFunction("gpuport_hook_lane_id")) {
    for (const char* a : {"target-cpu", "target-features"})
      if (any->hasFnAttribute(a)) f->addFnAttr(any->getFnAttribute(a));
  }
  return f;
}

std::size_t KernelLifter::add_function(const sass::SassFunction* f) {
  for (std::size_t i = 0; i < functions_.size(); ++i)
    if (functions_[i].function == f) return i;
  LiftedFunction lf;
  lf.function = f;
  lf.cfg = sass::build_cfg(*f, request_.arch);
  functions_.push_back(std::move(lf));
  return functions_.size() - 1;
}

// The kernel and every function of the listing it calls, directly or not.
bool KernelLifter::collect_functions() {
  add_function(request_.kernel);
  for (std::size_t i = 0; i < functions_.size(); ++i) {
    for (const auto& call : functions_[i].cfg.calls) {
      if (functions_[i].cfg.block_of_label(call.callee)) continue;  // a subroutine inside the function
      const sass::SassFunction* callee = request_.program ? request_.program->find_function(call.callee) : nullptr;
      if (callee != nullptr) add_function(callee);
    }
  }
  return true;
}

llvm::BasicBlock* KernelLifter::block_at(std::size_t fi, std::size_t instruction_index) {
  auto& lf = functions_[fi];
  if (instruction_index >= lf.cfg.block_of.size()) return exit_;
  return lf.blocks[lf.cfg.block_of[instruction_index]];
}

llvm::BasicBlock* KernelLifter::block_of_label(std::size_t fi, std::string_view label) {
  auto& lf = functions_[fi];
  if (auto b = lf.cfg.block_of_label(label)) return lf.blocks[*b];
  return nullptr;
}

Subroutine* KernelLifter::subroutine_for_call(std::size_t fi, const sass::SassInstruction& call) {
  // The callee: a label of this function, or another function of the listing.
  std::string callee;
  for (const auto& op : call.operands)
    if (op.kind == sass::OperandKind::label) callee = std::string(std::string_view(op.text));
  if (callee.size() > 3 && callee.starts_with("`(") && callee.ends_with(")")) callee = callee.substr(2, callee.size() - 3);
  std::size_t target_function = fi;
  std::uint64_t address = 0;
  if (const auto at = numeric_call_target(fi, call)) {
    address = functions_[fi].function->instructions[*at].address;
  } else if (auto b = functions_[fi].cfg.block_of_label(callee)) {
    address = functions_[fi].function->instructions[functions_[fi].cfg.blocks[*b].first].address;
  } else {
    bool found = false;
    for (std::size_t i = 0; i < functions_.size(); ++i)
      if (functions_[i].function->name == callee) target_function = i, found = true;
    if (!found) return nullptr;
  }
  for (auto& s : subroutines_)
    if (s.function == target_function && s.address == address) return &s;
  Subroutine s;
  s.function = target_function;
  s.address = address;
  llvm::IRBuilder<> entry(&function_->getEntryBlock(), function_->getEntryBlock().begin());
  s.return_site = entry.CreateAlloca(entry.getInt32Ty(), nullptr, "return_site");
  subroutines_.push_back(std::move(s));
  return &subroutines_.back();
}

// cuobjdump prints a call's target as an address where nvdisasm names it. The instruction index
// of such a target in this function, or nullopt (a named target, or none).
std::optional<std::size_t> KernelLifter::numeric_call_target(std::size_t fi, const sass::SassInstruction& call) const {
  for (const auto& op : call.operands) {
    if (op.kind != sass::OperandKind::label || !std::string_view(op.text).starts_with("0x")) continue;
    const std::size_t i = functions_[fi].function->find_instruction(static_cast<std::uint64_t>(op.value));
    if (i != sass::SassFunction::npos) return i;
  }
  return std::nullopt;
}

// Whether instruction `index` starts a subroutine, for calls whose target has no name: a
// subroutine is laid out after the code before it ends (an unguarded EXIT, RET or branch) and
// reaches a RET before any EXIT in address order. nvcc also uses
// CALL.REL.NOINC as a jump (a loop exit); nvdisasm names those targets .L_x_N, cuobjdump does not.
bool KernelLifter::is_subroutine_entry(std::size_t fi, std::size_t index) const {
  const auto& ins = functions_[fi].function->instructions;
  if (index == 0 || index >= ins.size()) return false;
  const auto& before = ins[index - 1];
  const bool unguarded = !before.guard || before.guard->index == 7;
  // Code before it ends: an unguarded EXIT, RET, or branch (the kernel's closing self-branch, or
  // the back edge that follows a call site, as in `CALL.REL.NOINC 0x5a0; BRA 0x4b0; <0x5a0: ...>`).
  const bool ends = unguarded && !sass::is_conditional(before) &&
                    (before.opcode == "EXIT" || before.opcode == "RET" || before.opcode == "BRA" || before.opcode == "JMP");
  if (!ends) return false;
  for (std::size_t i = index; i < ins.size(); ++i) {
    if (ins[i].opcode == "RET") return true;
    if (ins[i].opcode == "EXIT") return false;
  }
  return false;
}

Subroutine* KernelLifter::subroutine_of_return(std::size_t fi, const sass::SassInstruction& ret) {
  // The subroutine of this function whose first instruction is the last one at or before the RET.
  Subroutine* best = nullptr;
  for (auto& s : subroutines_)
    if (s.function == fi && s.address <= ret.address && (best == nullptr || s.address > best->address)) best = &s;
  return best;
}

void KernelLifter::terminate(std::size_t fi, std::size_t bi, const sass::SassInstruction& last, bool last_lifted) {
  auto& b = cx_->builder();
  auto& lf = functions_[fi];
  const auto& block = lf.cfg.blocks[bi];
  const std::size_t next_index = block.last + 1;
  auto next = [&] { return block_at(fi, next_index); };
  if (last_lifted) {  // not a transfer: fall through
    b.CreateBr(next());
    return;
  }
  cx_->set_current(lf.function, &last);
  // The guard of a transfer, and BRA's own predicate operand.
  llvm::Value* condition = nullptr;
  if (last.guard && last.guard->index != 7) {
    condition = cx_->pred(last.guard->uniform, last.guard->index);
    if (last.guard->negated) condition = b.CreateNot(condition);
  } else if (last.guard && last.guard->negated) {
    condition = cx_->flag(false);  // @!PT: never
  }
  auto taken_when = [&](llvm::Value* c) {
    if (condition == nullptr) return c;
    return static_cast<llvm::Value*>(b.CreateAnd(condition, c));
  };
  const std::string& op = last.opcode;
  if (op == "EXIT" || op == "KILL") {
    if (condition == nullptr) b.CreateBr(exit_);
    else b.CreateCondBr(condition, exit_, next());
    return;
  }
  if (op == "BRA" || op == "JMP") {
    llvm::BasicBlock* target = nullptr;
    llvm::Value* extra = nullptr;
    for (const auto& o : last.operands) {
      if (o.kind == sass::OperandKind::label) {
        std::string label(std::string_view(o.text));
        if (label.starts_with("`(") && label.ends_with(")")) label = label.substr(2, label.size() - 3);
        target = block_of_label(fi, label);
        if (target == nullptr && o.value != 0) target = block_at(fi, lf.function->find_instruction(static_cast<std::uint64_t>(o.value)));
      } else if (o.kind == sass::OperandKind::predicate || o.kind == sass::OperandKind::uniform_predicate) {
        extra = cx_->read_predicate(o);
      } else if (last.has_modifier("DIV") || last.has_modifier("CONV")) {
        // BRA.DIV mask, target: taken when the warp is not converged on `mask`; .CONV when it is.
        llvm::Value* active = cx_->hook("active_mask", {});
        llvm::Value* mask = cx_->read_int(o);
        llvm::Value* converged = b.CreateICmpEQ(b.CreateAnd(active, mask), mask);
        extra = last.has_modifier("DIV") ? b.CreateNot(converged) : converged;
      }
    }
    if (target == nullptr) {
      cx_->refuse("a branch whose target is not an instruction of the function");
      b.CreateBr(exit_);
      return;
    }
    llvm::Value* c = extra != nullptr ? taken_when(extra) : condition;
    if (c == nullptr) b.CreateBr(target);
    else b.CreateCondBr(c, target, next());
    return;
  }
  if (op == "BRX" || op == "JMX") {
    const auto found = std::find_if(lf.function->indirect_targets.begin(), lf.function->indirect_targets.end(),
                                    [&](const auto& t) { return t.first == last.address; });
    std::vector<std::uint64_t> targets;
    if (found != lf.function->indirect_targets.end()) targets = found->second;
    else
      for (const auto& name : sass::branch_targets(last.annotation))
        if (auto blk = lf.cfg.block_of_label(name)) targets.push_back(lf.function->instructions[lf.cfg.blocks[*blk].first].address);
    if (targets.empty() || last.operands.empty()) {
      cx_->refuse("an indirect branch whose targets are unknown (its cubin's jump table is needed)");
      b.CreateBr(exit_);
      return;
    }
    // BRX Rn imm: to Rn + (the next instruction's address) + imm; JMX Rn imm: to Rn + imm.
    llvm::Value* to = b.CreateZExt(cx_->read(last.operands[0]), cx_->i64());
    std::int64_t displacement = 0;
    if (last.operands.size() > 1 && last.operands[1].kind == sass::OperandKind::immediate) displacement = last.operands[1].value;
    const std::uint64_t width = 16;
    const std::int64_t base = op == "BRX" ? static_cast<std::int64_t>(last.address + width) + displacement : displacement;
    to = b.CreateAdd(to, cx_->u64(static_cast<std::uint64_t>(base)));
    llvm::BasicBlock* bad = llvm::BasicBlock::Create(module_.getContext(), "bad_indirect", function_);
    {
      llvm::IRBuilder<> t(bad);
      t.CreateUnreachable();
    }
    llvm::BasicBlock* dispatch = b.GetInsertBlock();
    if (condition != nullptr) {
      dispatch = llvm::BasicBlock::Create(module_.getContext(), "indirect", function_);
      b.CreateCondBr(condition, dispatch, next());
      b.SetInsertPoint(dispatch);
    }
    auto* sw = b.CreateSwitch(to, bad, static_cast<unsigned>(targets.size()));
    std::set<std::uint64_t> seen;
    for (std::uint64_t t : targets) {
      if (!seen.insert(t).second) continue;
      const std::size_t index = lf.function->find_instruction(t);
      if (index == sass::SassFunction::npos) continue;
      sw->addCase(cx_->builder().getInt64(t), block_at(fi, index));
    }
    return;
  }
  if (op == "CALL" || op == "CAL") {
    if (const auto at = numeric_call_target(fi, last); at && !is_subroutine_entry(fi, *at)) {
      // A jump (see is_subroutine_entry), to the start of a block.
      if (lf.cfg.blocks[lf.cfg.block_of[*at]].first != *at) {
        cx_->refuse("a call whose target does not start a block");
        b.CreateBr(exit_);
        return;
      }
      if (condition == nullptr) b.CreateBr(block_at(fi, *at));
      else b.CreateCondBr(condition, block_at(fi, *at), next());
      return;
    }
    Subroutine* s = subroutine_for_call(fi, last);
    if (s == nullptr) {
      // A CUDA library function the kernel calls by name (vprintf, __assertfail): its effect in
      // place, then on to the return address, the next instruction (lift_special.cc).
      if (is_library_call(last)) {
        if (condition != nullptr) {
          auto* call_block = llvm::BasicBlock::Create(module_.getContext(), "library_call", function_);
          b.CreateCondBr(condition, call_block, next());
          b.SetInsertPoint(call_block);
        }
        lift_library_call(*cx_, last);
        if (b.GetInsertBlock()->getTerminator() == nullptr) b.CreateBr(next());
        return;
      }
      cx_->refuse("a call of a function that is not in the listing (an external function: vprintf, malloc, ...)");
      b.CreateBr(next());
      return;
    }
    llvm::BasicBlock* entry;
    if (s->address == 0 && s->function != fi) entry = functions_[s->function].blocks[functions_[s->function].cfg.entry];
    else entry = block_at(s->function, functions_[s->function].function->find_instruction(s->address));
    const auto site = static_cast<std::uint32_t>(s->return_blocks.size());
    s->return_blocks.push_back(next());
    llvm::BasicBlock* call_block = b.GetInsertBlock();
    if (condition != nullptr) {
      call_block = llvm::BasicBlock::Create(module_.getContext(), "call", function_);
      b.CreateCondBr(condition, call_block, next());
      b.SetInsertPoint(call_block);
    }
    b.CreateStore(b.getInt32(site), s->return_site);
    s->entry = entry;
    s->calls.push_back(b.CreateBr(entry));
    return;
  }
  if (op == "RET") {
    // Resolved once every call is known (finish_returns); leave a marker.
    pending_returns_.push_back({fi, &last, b.GetInsertBlock(), condition, next()});
    return;
  }
  if (op == "BPT") {
    cx_->hook("trap", {});
    b.CreateUnreachable();
    return;
  }
  if (op == "WARPSYNC" || op == "BSYNC" || op == "BREAK" || op == "BSSY") {  // the per-thread model needs no reconvergence
    b.CreateBr(next());
    return;
  }
  cx_->refuse(fmt::format("control transfer {} is not supported", op));
  b.CreateBr(next());
}

// A RET goes back to whichever call entered its subroutine: a switch over the call sites.
void KernelLifter::finish_returns() {
  auto& b = cx_->builder();
  for (const auto& r : pending_returns_) {
    cx_->set_current(functions_[r.function].function, r.instruction);
    b.SetInsertPoint(r.block);
    Subroutine* s = subroutine_of_return(r.function, *r.instruction);
    if (s == nullptr || s->return_blocks.empty()) {
      if (r.function == 0 && s == nullptr) cx_->refuse("a RET outside every called subroutine");
      b.CreateUnreachable();
      continue;
    }
    llvm::BasicBlock* dispatch = r.block;
    if (r.condition != nullptr) {
      dispatch = llvm::BasicBlock::Create(module_.getContext(), "return", function_);
      b.CreateCondBr(r.condition, dispatch, r.next);
      b.SetInsertPoint(dispatch);
    }
    if (s->return_blocks.size() == 1) {
      b.CreateBr(s->return_blocks[0]);
      continue;
    }
    llvm::Value* site = b.CreateLoad(b.getInt32Ty(), s->return_site);
    auto* sw = b.CreateSwitch(site, s->return_blocks[0], static_cast<unsigned>(s->return_blocks.size() - 1));
    for (std::size_t i = 1; i < s->return_blocks.size(); ++i) sw->addCase(b.getInt32(static_cast<std::uint32_t>(i)), s->return_blocks[i]);
    s->returns.push_back(sw);
  }
  inline_subroutines();
}

// A subroutine with several call sites is one body whose RETs switch over the sites: a cycle
// through every call site (site 1 -> body -> return 1 -> ... -> site 2 -> body), which AMDGPU's
// StructurizeCFG cannot untangle in reasonable time (monte-carlo/option_pricing: 180 calls of
// one slow path). So each call site gets a copy of the body whose RETs branch straight back,
// innermost subroutines first, as nvcc's own inliner would have done; the switch stays for
// recursion and past a size budget.
void KernelLifter::inline_subroutines() {
  constexpr std::size_t budget = 400000;  // IR instructions the copies may add in all
  std::size_t added = 0;
  std::set<Subroutine*> open;
  for (auto& s : subroutines_)
    if (s.returns.size() > 0 && s.calls.size() > 1 && s.entry != nullptr) open.insert(&s);
  std::map<llvm::Instruction*, Subroutine*> dispatch_of;
  std::map<llvm::BasicBlock*, Subroutine*> call_block_of;
  for (Subroutine* s : open) {
    for (llvm::Instruction* r : s->returns) dispatch_of[r] = s;
    for (llvm::BranchInst* c : s->calls) call_block_of[c->getParent()] = s;
  }
  // The blocks a call of `s` runs: from its entry up to its own returns (and those of
  // subroutines not yet inlined, whose switches lead anywhere).
  auto body_of = [&](Subroutine* s) {
    std::vector<llvm::BasicBlock*> body;
    std::set<llvm::BasicBlock*> seen{s->entry};
    std::vector<llvm::BasicBlock*> work{s->entry};
    while (!work.empty()) {
      llvm::BasicBlock* bb = work.back();
      work.pop_back();
      body.push_back(bb);
      llvm::Instruction* t = bb->getTerminator();
      if (t == nullptr || dispatch_of.contains(t)) continue;
      for (llvm::BasicBlock* next : llvm::successors(bb))
        if (next != exit_ && seen.insert(next).second) work.push_back(next);
    }
    return body;
  };
  for (bool progress = true; progress && !open.empty();) {
    progress = false;
    for (Subroutine* s : std::vector<Subroutine*>(open.begin(), open.end())) {
      const auto body = body_of(s);
      // Innermost first: a body that calls a subroutine still open waits (a recursive one
      // never stops waiting and keeps its switch).
      bool calls_open = false;
      std::size_t size = 0;
      for (llvm::BasicBlock* bb : body) {
        auto c = call_block_of.find(bb);
        if (c != call_block_of.end() && open.contains(c->second)) calls_open = true;
        // Code that reaches another open subroutine's RET without calling it: leave as is.
        if (auto d = dispatch_of.find(bb->getTerminator()); d != dispatch_of.end() && d->second != s) calls_open = true;
        size += bb->size();
      }
      if (calls_open) continue;
      if (added + size * (s->calls.size() - 1) > budget) continue;
      added += size * (s->calls.size() - 1);
      auto route = [&](llvm::Instruction* dispatch, llvm::BasicBlock* to) {
        llvm::BranchInst::Create(to, dispatch);
        dispatch_of.erase(dispatch);
        dispatch->eraseFromParent();
      };
      for (std::size_t site = 1; site < s->calls.size(); ++site) {
        llvm::ValueToValueMapTy map;
        std::vector<llvm::BasicBlock*> copies;
        for (llvm::BasicBlock* bb : body) {
          llvm::BasicBlock* copy = llvm::CloneBasicBlock(bb, map, fmt::format(".c{}", site), function_);
          map[bb] = copy;
          copies.push_back(copy);
        }
        llvm::remapInstructionsInBlocks(copies, map);
        for (llvm::Instruction* r : s->returns) {
          auto* copy = llvm::cast<llvm::Instruction>(map[r]);
          llvm::BranchInst::Create(s->return_blocks[site], copy);
          copy->eraseFromParent();
        }
        s->calls[site]->setSuccessor(0, llvm::cast<llvm::BasicBlock>(map[s->entry]));
      }
      for (llvm::Instruction* r : s->returns) route(r, s->return_blocks[0]);
      s->returns.clear();
      open.erase(s);
      progress = true;
    }
  }
}

void KernelLifter::lift_block(std::size_t fi, std::size_t bi) {
  auto& lf = functions_[fi];
  const auto& block = lf.cfg.blocks[bi];
  auto& b = cx_->builder();
  b.SetInsertPoint(lf.blocks[bi]);
  const auto& table = handlers();
  for (std::size_t i = block.first; i <= block.last; ++i) {
    const auto& ins = lf.function->instructions[i];
    cx_->set_current(lf.function, &ins);
    ++instructions_;
    const sass::ControlKind kind = lf.cfg.control_of.size() > i ? lf.cfg.control_of[i] : sass::ControlKind::none;
    const bool transfer = kind != sass::ControlKind::none && kind != sass::ControlKind::barrier_set &&
                          kind != sass::ControlKind::barrier_sync && kind != sass::ControlKind::barrier_break &&
                          !(kind == sass::ControlKind::warpsync && !ins.has_modifier("COLLECTIVE"));
    if (i == block.last && transfer) {
      terminate(fi, bi, ins, false);
      return;
    }
    if (ins.undecoded) {
      cx_->refuse("an instruction the disassembler could not decode");
      continue;
    }
    if (is_no_op(ins)) continue;
    if (transfer) {
      cx_->refuse("a control transfer inside a block");
      continue;
    }
    const auto h = table.find(ins.opcode);
    if (h == table.end()) {
      cx_->refuse(fmt::format("no semantics for {}", ins.opcode));
      continue;
    }
    // A guard: the instruction runs in a block of its own.
    llvm::BasicBlock* after = nullptr;
    if (ins.guard && !(ins.guard->index == 7 && !ins.guard->negated)) {
      if (ins.guard->index == 7) continue;  // @!PT: never runs
      llvm::Value* c = cx_->pred(ins.guard->uniform, ins.guard->index);
      if (ins.guard->negated) c = b.CreateNot(c);
      auto* then = llvm::BasicBlock::Create(module_.getContext(), "guarded", function_);
      after = llvm::BasicBlock::Create(module_.getContext(), "", function_);
      b.CreateCondBr(c, then, after);
      b.SetInsertPoint(then);
    }
    h->second(*cx_, ins);
    if (after != nullptr) {
      b.CreateBr(after);
      b.SetInsertPoint(after);
    }
  }
  terminate(fi, bi, lf.function->instructions[block.last], true);
}

LiftResult KernelLifter::run() {
  LiftResult result;
  function_ = make_function();
  auto& ctx = module_.getContext();
  auto* entry = llvm::BasicBlock::Create(ctx, "entry", function_);
  exit_ = llvm::BasicBlock::Create(ctx, "exit", function_);
  llvm::IRBuilder<>(exit_).CreateRetVoid();
  cx_ = std::make_unique<LiftContext>(module_, *function_, request_);
  auto& b = cx_->builder();
  b.SetInsertPoint(entry);

  // The parameter block, as constant bank 0 holds it from parameter_base on.
  std::uint32_t block_size = 0;
  for (const auto& p : request_.info.parameters) block_size = std::max(block_size, p.offset + p.size);
  cx_->parameter_block_size = block_size;
  cx_->parameter_block = b.CreateAlloca(llvm::ArrayType::get(cx_->i8(), std::max<std::uint32_t>(block_size, 1)), nullptr, "parameters");
  for (unsigned i = 0; i < request_.info.parameters.size(); ++i)
    b.CreateStore(function_->getArg(i), b.CreateGEP(cx_->i8(), cx_->parameter_block, cx_->u32(request_.info.parameters[i].offset)));
  if (request_.info.local_bytes > 0) {
    cx_->local_size = (request_.info.local_bytes + 15) / 16 * 16;
    auto* a = b.CreateAlloca(llvm::ArrayType::get(cx_->i8(), cx_->local_size), nullptr, "local");
    a->setAlignment(llvm::Align(16));
    cx_->local_block = a;
  }

  collect_functions();
  for (auto& lf : functions_) {
    lf.blocks.assign(lf.cfg.blocks.size(), nullptr);
    for (std::size_t i = 0; i < lf.cfg.blocks.size(); ++i) {
      if (lf.cfg.blocks[i].is_virtual_exit) continue;
      lf.blocks[i] = llvm::BasicBlock::Create(ctx, fmt::format("{}.{:04x}", lf.function == request_.kernel ? "" : lf.function->name,
                                                                lf.function->instructions[lf.cfg.blocks[i].first].address),
                                              function_);
    }
  }
  if (functions_[0].function->instructions.empty()) {
    cx_->refuse("the kernel has no instructions");
  } else {
    b.CreateBr(functions_[0].blocks[functions_[0].cfg.entry]);
    for (std::size_t fi = 0; fi < functions_.size(); ++fi)
      for (std::size_t bi = 0; bi < functions_[fi].cfg.blocks.size(); ++bi)
        if (!functions_[fi].cfg.blocks[bi].is_virtual_exit) lift_block(fi, bi);
    finish_returns();
  }
  result.findings = cx_->findings();
  result.instructions = instructions_;
  if (!cx_->ok()) {
    function_->eraseFromParent();
    return result;
  }
  result.function = function_;
  return result;
}

}  // namespace

LiftResult lift_kernel(llvm::Module& module, const LiftRequest& request) {
  KernelLifter lifter(module, request);
  return lifter.run();
}

std::vector<std::string> lifted_opcodes() {
  std::vector<std::string> out;
  for (const auto& [name, h] : handlers()) out.push_back(name);
  return out;
}

}  // namespace gpuport::lift
