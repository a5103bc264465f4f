// Memory instructions: global (LDG/STG), generic (LD/ST), shared (LDS/STS), local (LDL/STL),
// constant (LDC/ULDC). Atomics are in this family too.
#include <fmt/format.h>

#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

// The access width and signedness of a load or store from its modifiers: .U8 .S8 .U16 .S16
// (sub-word), .64 .128 (several registers), default 32 bits.
struct Width {
  unsigned bytes = 4;
  bool sign_extend = false;
};
Width access_width(const SassInstruction& ins) {
  Width w;
  for (auto m : ins.modifiers) {
    if (m == "U8") w = {1, false};
    else if (m == "S8") w = {1, true};
    else if (m == "U16") w = {2, false};
    else if (m == "S16") w = {2, true};
    else if (m == "64") w = {8, false};
    else if (m == "128") w = {16, false};
  }
  return w;
}

const SassOperand* memory_operand(const SassInstruction& ins) {
  for (const auto& op : ins.operands)
    if (op.kind == OperandKind::memory) return &op;
  return nullptr;
}

enum class Space { global, generic, shared, local };

llvm::Value* pointer(LiftContext& cx, const SassInstruction& ins, Space space, const SassOperand& mem) {
  switch (space) {
    case Space::global:
    case Space::generic: {
      // sm_75 and older print a 64-bit base without .64; .E says the address is 64 bits.
      const bool wide = cx.arch() < 80 && ins.has_modifier("E");
      llvm::Value* a = cx.address(mem.address, wide);
      return space == Space::global ? cx.global_pointer(a) : cx.generic_pointer(a);
    }
    case Space::shared: return cx.shared_pointer(cx.builder().CreateTrunc(cx.address(mem.address), cx.i32()));
    case Space::local: return cx.local_pointer(cx.builder().CreateTrunc(cx.address(mem.address), cx.i32()));
  }
  return nullptr;
}

// The register destinations (or sources) of a multi-register access: Rn, Rn+1, ...
bool lift_load(LiftContext& cx, const SassInstruction& ins, Space space) {
  const SassOperand* mem = memory_operand(ins);
  if (mem == nullptr || ins.operands.empty()) return cx.refuse("a load without an address");
  const Width w = access_width(ins);
  auto& b = cx.builder();
  llvm::Value* p = pointer(cx, ins, space, *mem);
  const SassOperand& d = ins.operands[0];
  const bool strong = ins.has_modifier("STRONG") || ins.has_modifier("VOLATILE");
  if (w.bytes < 4) {
    llvm::Type* t = b.getIntNTy(w.bytes * 8);
    auto* load = b.CreateLoad(t, p);
    load->setAlignment(llvm::Align(w.bytes));
    if (strong) load->setVolatile(true);
    cx.write(d, w.sign_extend ? b.CreateSExt(load, cx.i32()) : b.CreateZExt(load, cx.i32()));
    return true;
  }
  const unsigned words = w.bytes / 4;
  if (d.kind != OperandKind::reg && d.kind != OperandKind::uniform_reg) return cx.refuse("a load into something not a register");
  if (words == 1) {
    auto* load = b.CreateLoad(cx.i32(), p);
    load->setAlignment(llvm::Align(4));
    if (strong) load->setVolatile(true);
    cx.write(d, load);
    return true;
  }
  auto* vt = llvm::FixedVectorType::get(cx.i32(), words);
  auto* load = b.CreateLoad(vt, p);
  load->setAlignment(llvm::Align(w.bytes));
  if (strong) load->setVolatile(true);
  for (unsigned i = 0; i < words; ++i)
    if (d.index != 255) cx.set_reg(d.kind == OperandKind::uniform_reg, d.index + i, b.CreateExtractElement(load, i));
  return true;
}

bool lift_store(LiftContext& cx, const SassInstruction& ins, Space space) {
  const SassOperand* mem = memory_operand(ins);
  if (mem == nullptr || ins.operands.size() < 2) return cx.refuse("a store without an address or a value");
  const Width w = access_width(ins);
  auto& b = cx.builder();
  const SassOperand& v = ins.operands.back();
  llvm::Value* p = pointer(cx, ins, space, *mem);
  const bool strong = ins.has_modifier("STRONG") || ins.has_modifier("VOLATILE");
  if (w.bytes < 4) {
    auto* store = b.CreateStore(b.CreateTrunc(cx.read(v), b.getIntNTy(w.bytes * 8)), p);
    store->setAlignment(llvm::Align(w.bytes));
    if (strong) store->setVolatile(true);
    return true;
  }
  const unsigned words = w.bytes / 4;
  if (words == 1) {
    auto* store = b.CreateStore(cx.read(v), p);
    store->setAlignment(llvm::Align(4));
    if (strong) store->setVolatile(true);
    return true;
  }
  llvm::Value* vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(cx.i32(), words));
  for (unsigned i = 0; i < words; ++i) {
    llvm::Value* word = v.is_zero_register() ? cx.u32(0) : cx.reg(v.kind == OperandKind::uniform_reg, v.index + i);
    vec = b.CreateInsertElement(vec, word, i);
  }
  auto* store = b.CreateStore(vec, p);
  store->setAlignment(llvm::Align(w.bytes));
  if (strong) store->setVolatile(true);
  return true;
}

// LDC[.64] d, c[bank][offset] / ULDC[.64]
bool lift_ldc(LiftContext& cx, const SassInstruction& ins) {
  if (ins.operands.size() < 2 || ins.operands[1].kind != OperandKind::constant) return cx.refuse("LDC without a constant operand");
  if (ins.has_modifier("64")) cx.write64(ins.operands[0], cx.read64(ins.operands[1]));
  else if (access_width(ins).bytes != 4) return cx.refuse("a sub-word constant load");
  else cx.write(ins.operands[0], cx.read(ins.operands[1]));
  return true;
}

}  // namespace

void register_memory_handlers(HandlerTable& t) {
  t["LDG"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_load(cx, ins, Space::global); };
  t["STG"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_store(cx, ins, Space::global); };
  t["LD"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_load(cx, ins, Space::generic); };
  t["ST"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_store(cx, ins, Space::generic); };
  t["LDS"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_load(cx, ins, Space::shared); };
  t["STS"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_store(cx, ins, Space::shared); };
  t["LDL"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_load(cx, ins, Space::local); };
  t["STL"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_store(cx, ins, Space::local); };
  t["LDC"] = lift_ldc;
  t["ULDC"] = lift_ldc;
}

}  // namespace gpuport::lift
