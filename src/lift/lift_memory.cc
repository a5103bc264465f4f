// Memory instructions: global (LDG/STG), generic (LD/ST), shared (LDS/STS), local (LDL/STL),
// constant (LDC/ULDC), atomics and reductions (ATOM/ATOMG/ATOMS/RED/REDG), asynchronous copies
// (LDGSTS, done synchronously), memory barriers (MEMBAR), and the module's __constant__ and
// __device__ variables (globals named as the HIP host code registers them).
#include <fmt/format.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <functional>
#include <set>

#include "lift/hip_names.h"
#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

// ---- modifiers ------------------------------------------------------------------------------------

// Modifiers that only steer caches or prefetching and do not change what one thread reads or
// writes: EF evict-first, EL evict-last, EN evict-normal, LU last use, NA no-allocate, CONSTANT
// (the read-only data path of __ldg and const __restrict__ pointers: a plain load is exact, the
// data does not change during the kernel), BYPASS (LDGSTS around L1), LTC64B/LTC128B/LTC256B
// (an L2 prefetch size).
const std::set<std::string_view>& cache_hints() {
  static const std::set<std::string_view> hints = {"EF", "EL", "EN", "LU", "NA", "CONSTANT", "BYPASS", "LTC64B", "LTC128B", "LTC256B"};
  return hints;
}

// The modifiers one instruction may carry; anything else is refused (never ignored).
bool check_modifiers(LiftContext& cx, const SassInstruction& ins, std::initializer_list<std::string_view> allowed, bool hints) {
  for (auto m : ins.modifiers) {
    if (std::find(allowed.begin(), allowed.end(), m) != allowed.end()) continue;
    if (hints && cache_hints().contains(m)) continue;
    return cx.refuse(fmt::format("modifier .{} of {} is not supported", m, ins.opcode));
  }
  return true;
}

// The scope of a strong access or an atomic: .CTA/.SM -> the work-group, .GPU -> the agent,
// .SYS -> the system (LLVM's default scope, ""). `fallback` when the instruction names none.
llvm::SyncScope::ID memory_scope(LiftContext& cx, const SassInstruction& ins, std::string_view fallback) {
  std::string_view scope = fallback;
  if (ins.has_modifier("CTA") || ins.has_modifier("SM")) scope = "workgroup";
  else if (ins.has_modifier("GPU")) scope = "agent";
  else if (ins.has_modifier("SYS")) scope = "";
  if (scope.empty()) return llvm::SyncScope::System;
  return cx.context().getOrInsertSyncScopeID(scope);
}

// A strong (.STRONG.GPU/.SYS/.SM: relaxed at that scope, what volatile and cuda::atomic_ref
// loads and stores compile to) or .MMIO access; a scope alone (sm_70's LDG.E.SYS for volatile)
// says the same.
bool is_strong(const SassInstruction& ins) {
  for (const char* m : {"STRONG", "MMIO", "CTA", "SM", "GPU", "SYS"})
    if (ins.has_modifier(m)) return true;
  return false;
}

const SassOperand* memory_operand(const SassInstruction& ins, std::size_t nth = 0) {
  for (const auto& op : ins.operands)
    if (op.kind == OperandKind::memory && nth-- == 0) return &op;
  return nullptr;
}

bool is_predicate(const SassOperand& op) {
  return op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate;
}

enum class Space { global, generic, shared, local };

// `wide`: the base register is a 64-bit pair even where the listing does not say .64: sm_75 and
// older print a 64-bit base without it (.E says the address is 64 bits), and nvdisasm prints
// every ATOMG/ATOM .CAS address without it. Turing's global accesses add a uniform register to a
// 64-bit base (`LDG.E.SYS R0, [R2.64+UR4]` after `ULDC.64 UR4, c[0x0][0x168]`, where sm_80 on
// write desc[UR][R.64]): that uniform register is a 64-bit pair too.
llvm::Value* pointer(LiftContext& cx, const SassInstruction& ins, Space space, const SassOperand& mem, bool wide = false) {
  switch (space) {
    case Space::global:
    case Space::generic: {
      wide = wide || (cx.arch() < 80 && ins.has_modifier("E"));
      const bool wide_index = wide || mem.address.wide;
      llvm::Value* a = cx.address(mem.address, wide, wide_index && mem.address.index.kind == OperandKind::uniform_reg);
      return space == Space::global ? cx.global_pointer(a) : cx.generic_pointer(a);
    }
    case Space::shared: return cx.shared_pointer(cx.builder().CreateTrunc(cx.address(mem.address), cx.i32()));
    case Space::local: return cx.local_pointer(cx.builder().CreateTrunc(cx.address(mem.address), cx.i32()));
  }
  return nullptr;
}

// ---- loads and stores -------------------------------------------------------------------------------

bool check_load_store_modifiers(LiftContext& cx, const SassInstruction& ins) {
  // LDS.U: nvdisasm prints .U on every shared load of Volta and Turing (sm_70, sm_75: LDS.U,
  // LDS.U.128, LDS.U.U8) and on none from sm_80 on, where the same CUDA compiles to plain LDS.
  // It selects nothing a thread reads; the bytes, width and sign extension are the other
  // modifiers'.
  if (ins.opcode == "LDS" && ins.has_modifier("U"))
    return check_modifiers(cx, ins, {"U", "U8", "S8", "U16", "S16", "32", "64", "128"}, false);
  return check_modifiers(cx, ins, {"E", "U8", "S8", "U16", "S16", "32", "64", "128", "STRONG", "MMIO", "CTA", "SM", "GPU", "SYS"},
                         true);
}

// A load or store of `type` at `p` with the instruction's strength: a strong access of up to 8
// bytes is atomic (monotonic, at the instruction's scope); a strong 128-bit access, which LLVM
// cannot make atomic, is volatile (the hardware does not promise a single-copy-atomic 128-bit
// access either).
void set_strength(LiftContext& cx, const SassInstruction& ins, llvm::Instruction* access, unsigned bytes) {
  if (!is_strong(ins)) return;
  if (ins.has_modifier("MMIO") || bytes > 8) {
    if (auto* l = llvm::dyn_cast<llvm::LoadInst>(access)) l->setVolatile(true);
    if (auto* s = llvm::dyn_cast<llvm::StoreInst>(access)) s->setVolatile(true);
    return;
  }
  const llvm::SyncScope::ID scope = memory_scope(cx, ins, "");
  if (auto* l = llvm::dyn_cast<llvm::LoadInst>(access)) l->setAtomic(llvm::AtomicOrdering::Monotonic, scope);
  if (auto* s = llvm::dyn_cast<llvm::StoreInst>(access)) s->setAtomic(llvm::AtomicOrdering::Monotonic, scope);
}

// LD/LDG/LDS/LDL[.width][.hints][.STRONG.scope] d, [address]
bool lift_load(LiftContext& cx, const SassInstruction& ins, Space space) {
  if (!check_load_store_modifiers(cx, ins)) return false;
  const SassOperand* mem = memory_operand(ins);
  if (mem == nullptr || ins.operands.empty()) return cx.refuse("a load without an address");
  const SassOperand& d = ins.operands[0];
  if (d.kind != OperandKind::reg && d.kind != OperandKind::uniform_reg) return cx.refuse("a load into something not a register");
  const AccessWidth w = access_width(ins);
  auto& b = cx.builder();
  llvm::Value* p = pointer(cx, ins, space, *mem);
  // Sub-word, 32 and 64 bits as one integer (a strong access stays one atomic access); 128 bits
  // as four words.
  llvm::Type* type = w.bytes <= 8 ? static_cast<llvm::Type*>(b.getIntNTy(w.bytes * 8)) : llvm::FixedVectorType::get(cx.i32(), 4);
  auto* load = b.CreateLoad(type, p);
  load->setAlignment(llvm::Align(w.bytes));
  set_strength(cx, ins, load, w.bytes);
  if (d.is_zero_register()) return true;  // a load for its side effects only (LDS RZ)
  if (w.bytes < 4) {
    cx.write(d, w.sign_extend ? b.CreateSExt(load, cx.i32()) : b.CreateZExt(load, cx.i32()));
  } else if (w.bytes == 4) {
    cx.write(d, load);
  } else if (w.bytes == 8) {
    cx.write64(d, load);
  } else {
    for (unsigned i = 0; i < 4; ++i) cx.set_reg(d.kind == OperandKind::uniform_reg, d.index + i, b.CreateExtractElement(load, i));
  }
  return true;
}

// ST/STG/STS/STL[.width][.hints][.STRONG.scope] [address], v
bool lift_store(LiftContext& cx, const SassInstruction& ins, Space space) {
  if (!check_load_store_modifiers(cx, ins)) return false;
  const SassOperand* mem = memory_operand(ins);
  if (mem == nullptr || ins.operands.size() < 2) return cx.refuse("a store without an address or a value");
  const AccessWidth w = access_width(ins);
  auto& b = cx.builder();
  const SassOperand& v = ins.operands.back();
  llvm::Value* p = pointer(cx, ins, space, *mem);
  llvm::Value* value;
  if (w.bytes < 4) value = b.CreateTrunc(cx.read(v), b.getIntNTy(w.bytes * 8));
  else if (w.bytes == 4) value = cx.read(v);
  else if (w.bytes == 8) value = cx.read64(v);
  else {
    if (v.kind != OperandKind::reg && v.kind != OperandKind::uniform_reg) return cx.refuse("a 128-bit store of something not a register");
    value = llvm::PoisonValue::get(llvm::FixedVectorType::get(cx.i32(), 4));
    for (unsigned i = 0; i < 4; ++i) {
      llvm::Value* word = v.is_zero_register() ? cx.u32(0) : cx.reg(v.kind == OperandKind::uniform_reg, v.index + i);
      value = b.CreateInsertElement(value, word, i);
    }
  }
  auto* store = b.CreateStore(value, p);
  store->setAlignment(llvm::Align(w.bytes));
  set_strength(cx, ins, store, w.bytes);
  return true;
}

// ---- constant banks ---------------------------------------------------------------------------------

// LDC[.U8|.S8|.U16|.S16|.64] d, c[bank][R + offset] / ULDC: any width, a register index, and every
// bank the core provides (0: parameters and launch facts; 2: the compiler's constants; 3: the
// module's __constant__ variables).
bool lift_ldc(LiftContext& cx, const SassInstruction& ins) {
  if (!check_modifiers(cx, ins, {"U8", "S8", "U16", "S16", "32", "64", "128"}, false)) return false;
  if (ins.operands.size() < 2 || ins.operands[1].kind != OperandKind::constant) return cx.refuse("LDC without a constant operand");
  const SassOperand& c = ins.operands[1];
  if (c.text.starts_with("cx[")) return cx.refuse("a constant bank chosen by a register (cx[UR][...])");
  const AccessWidth w = access_width(ins);
  const SassOperand& d = ins.operands[0];
  if (w.bytes == 16) {
    // LDCU.128 (sm_100/sm_120): four consecutive registers from 16 bytes.
    if ((d.kind != OperandKind::reg && d.kind != OperandKind::uniform_reg) || d.index == sass::kZeroRegister)
      return cx.refuse("a 128-bit constant load needs a register quad");
    for (unsigned k = 0; k < 4; ++k)
      cx.set_reg(d.kind == OperandKind::uniform_reg, d.index + k, cx.constant_operand(c, 4 * k, 4));
    return true;
  }
  llvm::Value* v = cx.constant_operand(c, 0, w.bytes);
  auto& b = cx.builder();
  if (w.bytes < 4) cx.write(ins.operands[0], w.sign_extend ? b.CreateSExt(v, cx.i32()) : b.CreateZExt(v, cx.i32()));
  else if (w.bytes == 4) cx.write(ins.operands[0], v);
  else cx.write64(ins.operands[0], v);
  return true;
}

// ---- atomics ----------------------------------------------------------------------------------------

enum class AtomicOp { add, min, max, inc, dec, bit_and, bit_or, bit_xor, exch, cas, cas_spin, popc_inc };
enum class AtomicType { u32, s32, u64, s64, f32, f64, f16x2, bf16x2 };

struct AtomicForm {
  AtomicOp op = AtomicOp::add;
  AtomicType type = AtomicType::u32;
  bool ftz = false;
  bool op_named = false;
  unsigned bytes() const { return type == AtomicType::u64 || type == AtomicType::s64 || type == AtomicType::f64 ? 8 : 4; }
  bool is_float() const { return type >= AtomicType::f32; }
};

// The operation and type of ATOM/ATOMG/ATOMS/RED/REDG from its modifiers; std::nullopt (after a
// finding) for a modifier or combination this lifter does not implement.
std::optional<AtomicForm> atomic_form(LiftContext& cx, const SassInstruction& ins) {
  AtomicForm f;
  bool popc = false, cast = false, spin = false;
  auto set_op = [&](AtomicOp op) {
    f.op = op;
    f.op_named = true;
  };
  for (auto m : ins.modifiers) {
    if (m == "ADD") set_op(AtomicOp::add);
    else if (m == "MIN") set_op(AtomicOp::min);
    else if (m == "MAX") set_op(AtomicOp::max);
    else if (m == "INC") set_op(AtomicOp::inc);
    else if (m == "DEC") set_op(AtomicOp::dec);
    else if (m == "AND") set_op(AtomicOp::bit_and);
    else if (m == "OR") set_op(AtomicOp::bit_or);
    else if (m == "XOR") set_op(AtomicOp::bit_xor);
    else if (m == "EXCH") set_op(AtomicOp::exch);
    else if (m == "CAS") set_op(AtomicOp::cas);
    else if (m == "CAST") cast = true;
    else if (m == "SPIN") spin = true;
    else if (m == "POPC") popc = true;
    else if (m == "U32" || m == "32") f.type = AtomicType::u32;
    else if (m == "S32") f.type = AtomicType::s32;
    else if (m == "64" || m == "U64") f.type = AtomicType::u64;
    else if (m == "S64") f.type = AtomicType::s64;
    else if (m == "F32") f.type = AtomicType::f32;
    else if (m == "F64") f.type = AtomicType::f64;
    else if (m == "F16x2") f.type = AtomicType::f16x2;
    else if (m == "BF16x2") f.type = AtomicType::bf16x2;
    else if (m == "FTZ") f.ftz = true;
    else if (m == "RN" || m == "E" || m == "STRONG" || m == "CTA" || m == "SM" || m == "GPU" || m == "SYS") continue;
    else {
      cx.refuse(fmt::format("modifier .{} of {} is not supported", m, ins.opcode));
      return std::nullopt;
    }
  }
  // ATOMS.CAST.SPIN: compare-and-store that says whether it stored (the loop of a shared-memory
  // float or 64-bit atomic). ATOMS.POPC.INC: +1 per thread (the hardware adds the population
  // count of the threads that name the same word).
  if (cast && spin && !f.op_named) set_op(AtomicOp::cas_spin);
  else if (cast || spin) {
    cx.refuse("a .CAST/.SPIN form other than .CAST.SPIN");
    return std::nullopt;
  }
  if (popc) {
    if (f.op != AtomicOp::inc || f.type != AtomicType::u32) {
      cx.refuse("a .POPC form other than .POPC.INC.32");
      return std::nullopt;
    }
    f.op = AtomicOp::popc_inc;
  }
  if (!f.op_named) {
    cx.refuse("an atomic without an operation");
    return std::nullopt;
  }
  if (f.is_float() && f.op != AtomicOp::add) {
    cx.refuse("a float atomic other than .ADD");
    return std::nullopt;
  }
  if (f.ftz && f.type != AtomicType::f32) {
    cx.refuse(".FTZ on an atomic that is not .F32");
    return std::nullopt;
  }
  const bool signed_type = f.type == AtomicType::s32 || f.type == AtomicType::s64;
  if (signed_type && f.op != AtomicOp::min && f.op != AtomicOp::max && f.op != AtomicOp::add) {
    cx.refuse("a signed type on an atomic other than .ADD/.MIN/.MAX");
    return std::nullopt;
  }
  if ((f.op == AtomicOp::inc || f.op == AtomicOp::dec) && f.type != AtomicType::u32) {
    cx.refuse("a 64-bit .INC/.DEC");
    return std::nullopt;
  }
  return f;
}

// Retries `update(old)` with cmpxchg until it lands; returns the value it replaced. For the
// operations LLVM's atomicrmw does not compute exactly as NVIDIA does (.F32.FTZ).
llvm::Value* cas_loop(LiftContext& cx, llvm::Value* p, llvm::Type* type, llvm::SyncScope::ID scope,
                      const std::function<llvm::Value*(llvm::Value*)>& update) {
  auto& b = cx.builder();
  llvm::Function* f = b.GetInsertBlock()->getParent();
  auto* first = b.CreateLoad(type, p);
  first->setAtomic(llvm::AtomicOrdering::Monotonic, scope);
  first->setAlignment(llvm::Align(type->getPrimitiveSizeInBits() / 8));
  llvm::BasicBlock* before = b.GetInsertBlock();
  auto* loop = llvm::BasicBlock::Create(cx.context(), "atomic.retry", f);
  auto* done = llvm::BasicBlock::Create(cx.context(), "atomic.done", f);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode* old = b.CreatePHI(type, 2);
  old->addIncoming(first, before);
  llvm::Value* updated = cx.convert(update(old), type);
  auto* x = b.CreateAtomicCmpXchg(p, old, updated, llvm::MaybeAlign(type->getPrimitiveSizeInBits() / 8),
                                  llvm::AtomicOrdering::Monotonic, llvm::AtomicOrdering::Monotonic, scope);
  llvm::Value* seen = b.CreateExtractValue(x, 0);
  old->addIncoming(seen, b.GetInsertBlock());
  b.CreateCondBr(b.CreateExtractValue(x, 1), done, loop);
  b.SetInsertPoint(done);
  return old;
}

// The read-modify-write of one atomic; returns the old value (i32 or i64 bits).
llvm::Value* atomic_rmw(LiftContext& cx, const AtomicForm& f, llvm::Value* p, llvm::Value* v, llvm::SyncScope::ID scope) {
  auto& b = cx.builder();
  using B = llvm::AtomicRMWInst::BinOp;
  const bool is_signed = f.type == AtomicType::s32 || f.type == AtomicType::s64;
  llvm::Type* int_type = f.bytes() == 8 ? cx.i64() : cx.i32();
  auto rmw = [&](B op, llvm::Value* value) {
    return b.CreateAtomicRMW(op, p, value, llvm::MaybeAlign(f.bytes()), llvm::AtomicOrdering::Monotonic, scope);
  };
  switch (f.op) {
    case AtomicOp::add:
      switch (f.type) {
        case AtomicType::f32:
          if (f.ftz)  // NVIDIA's float atomics flush denormal inputs and results to zero
            return cas_loop(cx, p, int_type, scope, [&](llvm::Value* old) {
              return cx.semantic("fadd", {old, v, cx.u32(0), cx.flag(true), cx.flag(false)});
            });
          return cx.convert(rmw(B::FAdd, cx.convert(v, cx.f32())), cx.i32());
        case AtomicType::f64: return cx.convert(rmw(B::FAdd, cx.convert(v, cx.f64())), cx.i64());
        case AtomicType::f16x2:
        case AtomicType::bf16x2: {
          // Two IEEE additions, round to nearest even, denormals kept (.RN, no .FTZ).
          llvm::Type* lane = f.type == AtomicType::f16x2 ? b.getHalfTy() : b.getBFloatTy();
          auto* pair = llvm::FixedVectorType::get(lane, 2);
          return b.CreateBitCast(rmw(B::FAdd, b.CreateBitCast(v, pair)), cx.i32());
        }
        default: return rmw(B::Add, v);
      }
    case AtomicOp::min: return rmw(is_signed ? B::Min : B::UMin, v);
    case AtomicOp::max: return rmw(is_signed ? B::Max : B::UMax, v);
    // atomicInc: old >= v ? 0 : old + 1; atomicDec: old == 0 || old > v ? v : old - 1 (LLVM's
    // uinc_wrap and udec_wrap are defined the same way).
    case AtomicOp::inc: return rmw(B::UIncWrap, v);
    case AtomicOp::dec: return rmw(B::UDecWrap, v);
    case AtomicOp::bit_and: return rmw(B::And, v);
    case AtomicOp::bit_or: return rmw(B::Or, v);
    case AtomicOp::bit_xor: return rmw(B::Xor, v);
    case AtomicOp::exch: return rmw(B::Xchg, v);
    case AtomicOp::popc_inc: return rmw(B::Add, cx.u32(1));
    case AtomicOp::cas:
    case AtomicOp::cas_spin: break;
  }
  (void)int_type;
  return nullptr;
}

// ATOM/ATOMG/ATOMS/RED/REDG. Operand layouts as nvdisasm prints them:
//   ATOMG/ATOM  Pd, Rd, [a], Rb [, Rc]   (Pd: the atomic was done; PT when unused)
//   ATOMS       Rd, [a], Rb [, Rc]       (.POPC.INC: Rd, [a]; sm_100/sm_120 .CAST.SPIN: Pd, [a], Rb, Rc)
//   RED/REDG    [a], Rb
// .CAS compares with Rb and stores Rc (register pairs with .64); .CAST.SPIN writes 1 to Rd when
// it stored and 0 when the word had changed. Every atomic is relaxed (monotonic) at its scope.
bool lift_atomic(LiftContext& cx, const SassInstruction& ins, Space space, bool returns) {
  const auto form = atomic_form(cx, ins);
  if (!form) return false;
  const auto& ops = ins.operands;
  std::size_t i = 0;
  const SassOperand* done_flag = nullptr;
  const SassOperand* dest = nullptr;
  if (returns) {
    if (i < ops.size() && is_predicate(ops[i])) done_flag = &ops[i++];
    if (i < ops.size() && ops[i].kind == OperandKind::reg) dest = &ops[i++];
    // Blackwell's ATOMS.CAST.SPIN writes its outcome to a predicate alone (Pd, [a], Rb, Rc).
    const bool spin_to_predicate = dest == nullptr && done_flag != nullptr && form->op == AtomicOp::cas_spin;
    if (dest == nullptr && !spin_to_predicate) return cx.refuse("an atomic without a destination register");
  }
  if (i >= ops.size() || ops[i].kind != OperandKind::memory) return cx.refuse("an atomic without an address");
  const SassOperand& mem = ops[i++];
  const bool compare = form->op == AtomicOp::cas || form->op == AtomicOp::cas_spin;
  const std::size_t sources = form->op == AtomicOp::popc_inc ? 0 : compare ? 2 : 1;
  if (ops.size() != i + sources) return cx.refuse(fmt::format("an atomic with {} operands after its address, not {}", ops.size() - i, sources));
  if (form->op == AtomicOp::popc_inc && !dest->is_zero_register())
    return cx.refuse("ATOMS.POPC.INC with a result (what each thread receives is not documented)");
  const bool wide_value = form->bytes() == 8;
  auto value = [&](const SassOperand& op) { return wide_value ? cx.read64(op) : cx.read(op); };
  llvm::Value* p = pointer(cx, ins, space, mem, space != Space::shared && ins.has_modifier("E"));
  const llvm::SyncScope::ID scope = memory_scope(cx, ins, space == Space::shared ? "workgroup" : "agent");
  auto& b = cx.builder();
  llvm::Value* old;
  if (compare) {
    llvm::Value* expected = value(ops[i]);
    llvm::Value* desired = value(ops[i + 1]);
    auto* x = b.CreateAtomicCmpXchg(p, expected, desired, llvm::MaybeAlign(form->bytes()), llvm::AtomicOrdering::Monotonic,
                                    llvm::AtomicOrdering::Monotonic, scope);
    if (form->op == AtomicOp::cas_spin) {
      if (dest != nullptr) cx.write(*dest, b.CreateZExt(b.CreateExtractValue(x, 1), cx.i32()));
      else if (done_flag != nullptr) cx.write_predicate(*done_flag, b.CreateExtractValue(x, 1));
      return true;
    }
    old = b.CreateExtractValue(x, 0);
  } else {
    old = atomic_rmw(cx, *form, p, sources ? value(ops[i]) : nullptr, scope);
  }
  if (done_flag != nullptr) cx.write_predicate(*done_flag, cx.flag(true));
  if (dest != nullptr && old != nullptr) {
    if (wide_value) cx.write64(*dest, old);
    else cx.write(*dest, old);
  }
  return true;
}

// ---- asynchronous copies and barriers ---------------------------------------------------------------

// LDGSTS[.E][.BYPASS][.LTC128B][.64|.128][.ZFILL] [shared], [global] [, valid]: cp.async, done
// at once (the later LDGDEPBAR/DEPBAR waits are then no-ops). When `valid` is false (cp.async
// with src-size 0, or ignore-src) the destination is zero-filled. With .ZFILL the low bits of the
// source address are the number of trailing bytes to zero (cp.async with src-size < cp-size:
// nvcc adds cp-size - src-size to the aligned source address); only the bytes before them are read.
bool lift_ldgsts(LiftContext& cx, const SassInstruction& ins) {
  if (!check_modifiers(cx, ins, {"E", "64", "128", "ZFILL", "BYPASS", "LTC64B", "LTC128B", "LTC256B"}, false)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 2 || ops[0].kind != OperandKind::memory || ops[1].kind != OperandKind::memory || ops.size() > 3 ||
      (ops.size() == 3 && !is_predicate(ops[2])))
    return cx.refuse("LDGSTS needs [shared], [global] and an optional predicate");
  const unsigned bytes = ins.has_modifier("128") ? 16 : ins.has_modifier("64") ? 8 : 4;
  auto& b = cx.builder();
  llvm::Value* dst = pointer(cx, ins, Space::shared, ops[0]);
  llvm::Value* source = cx.address(ops[1].address, cx.arch() < 80);
  const bool zfill = ins.has_modifier("ZFILL");
  auto* vector = llvm::FixedVectorType::get(cx.i8(), bytes);
  if (!zfill && ops.size() == 2) {
    auto* load = b.CreateLoad(vector, cx.global_pointer(source));
    load->setAlignment(llvm::Align(bytes));
    b.CreateStore(load, dst)->setAlignment(llvm::Align(bytes));
    return true;
  }
  // How many leading bytes are read: bytes - (address & (bytes - 1)) with .ZFILL, none when the
  // predicate is false.
  llvm::Value* count = cx.u32(bytes);
  if (zfill) {
    llvm::Value* fill = b.CreateAnd(source, cx.u64(bytes - 1));
    source = b.CreateSub(source, fill);
    count = b.CreateSub(count, b.CreateTrunc(fill, cx.i32()));
  }
  if (ops.size() == 3) count = b.CreateSelect(cx.read_predicate(ops[2]), count, cx.u32(0));
  llvm::Value* mask = llvm::PoisonValue::get(llvm::FixedVectorType::get(cx.i1(), bytes));
  for (unsigned k = 0; k < bytes; ++k) mask = b.CreateInsertElement(mask, b.CreateICmpULT(cx.u32(k), count), k);
  // The masked load reads only the bytes the mask selects (the rest may lie past the source's end).
  llvm::Value* data = b.CreateMaskedLoad(vector, cx.global_pointer(source), llvm::Align(bytes), mask,
                                         llvm::Constant::getNullValue(vector));
  b.CreateStore(data, dst)->setAlignment(llvm::Align(bytes));
  return true;
}

// MEMBAR.{SC|ALL|}.{CTA|GPU|SYS}: a sequentially consistent fence at that scope (the fence hook).
// .SC and .ALL differ in what the hardware waits for, not in the order they promise to the code.
bool lift_membar(LiftContext& cx, const SassInstruction& ins) {
  if (!check_modifiers(cx, ins, {"SC", "ALL", "CTA", "GPU", "SYS"}, false)) return false;
  unsigned scope;
  if (ins.has_modifier("CTA")) scope = 0;
  else if (ins.has_modifier("GPU")) scope = 1;
  else if (ins.has_modifier("SYS")) scope = 2;
  else return cx.refuse("MEMBAR without a scope");
  cx.hook("fence", {cx.u32(scope)});
  return true;
}

// QSPC.E.{S|G|L} Pd, RZ, [a]: whether the generic address a lies in the shared (.S), local (.L)
// or global (.G: neither) window. nvcc emits it on the fallback path of a generic half2 atomic
// whose ATOM reported (Pd false) that it did not do the work; here ATOM always does it, but the
// fallback must still lift. A window is recognised by the high 32 bits of its generic base (the
// aperture of the target's flat addressing).
bool lift_qspc(LiftContext& cx, const SassInstruction& ins) {
  if (!check_modifiers(cx, ins, {"E", "S", "G", "L"}, false)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 3 || !is_predicate(ops[0]) || !ops[1].is_zero_register() || ops[2].kind != OperandKind::memory)
    return cx.refuse("QSPC other than QSPC Pd, RZ, [address]");
  auto& b = cx.builder();
  llvm::Value* high = b.CreateLShr(cx.address(ops[2].address, ins.has_modifier("E")), 32);
  auto in_window = [&](llvm::Value* base) { return b.CreateICmpEQ(high, b.CreateLShr(b.CreatePtrToInt(base, cx.i64()), 32)); };
  llvm::Value* shared = in_window(cx.generic_shared_base());
  // A kernel without local memory has no local window for a generic address to fall in.
  llvm::Value* local = cx.request().info.local_bytes > 0 ? in_window(cx.generic_local_base()) : cx.flag(false);
  llvm::Value* result;
  if (ins.has_modifier("S")) result = shared;
  else if (ins.has_modifier("L")) result = local;
  else if (ins.has_modifier("G")) result = b.CreateNot(b.CreateOr(shared, local));
  else return cx.refuse("QSPC without a space");
  cx.write_predicate(ops[0], result);
  return true;
}

// ---- module variables -------------------------------------------------------------------------------

llvm::Constant* initial_bytes(LiftContext& cx, const std::vector<std::uint8_t>& bytes, std::uint64_t size) {
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  data.resize(size, 0);
  if (std::all_of(data.begin(), data.end(), [](std::uint8_t x) { return x == 0; }))
    return llvm::ConstantAggregateZero::get(llvm::ArrayType::get(cx.i8(), size));
  return llvm::ConstantDataArray::get(cx.context(), llvm::ArrayRef<std::uint8_t>(data));
}

// The names the HIP host code registers a cubin variable by (clang's mangling of the same
// declaration), the first for the global and the others as aliases of it:
//  - nvcc names an anonymous namespace `_INTERNAL_<hash>_<file>` + `_GLOBAL__N__<hash>_<file>`
//    where clang has `_GLOBAL__N_1`: _ZN38_INTERNAL_..40_GLOBAL__N__..3keyE -> _ZN12_GLOBAL__N_13keyE
//    (lift/hip_names.h);
//  - a namespace-scope name without mangling is `x` when the variable is extern and `_ZL1x` when
//    it is static, and the cubin does not say which (both are local symbols there): both.
// For the NVIDIA round trip the host code is nvcc's, which registers the cubin's own names.
std::vector<std::string> host_names(LiftContext& cx, const std::string& cubin, bool host_name = false) {
  if (!is_amdgpu(cx.request().target) || host_name) return {cubin};
  if (!cubin.starts_with("_Z")) {
    // Only a C identifier can be a static's name ($str, nvcc's printf format strings, cannot).
    const bool identifier = std::all_of(cubin.begin(), cubin.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!identifier) return {cubin};
    return {cubin, fmt::format("_ZL{}{}", cubin.size(), cubin)};
  }
  // Mangled names as clang mangles the same declaration (hip_names.h: the anonymous namespace,
  // nvcc's _INTERNAL_ namespace of internal variables, which clang marks with L).
  return {hip_mangled_name(cubin).name};
}

// A __device__ variable: an addrspace(1) global of its name, size and initial bytes, visible to
// the host (protected, as HIP makes its device variables) and externally initialised (the host
// may write it before a launch, so its initial value is no constant to fold).
llvm::GlobalValue* device_variable(LiftContext& cx, const ModuleVariable& v) {
  llvm::Module& m = cx.module();
  const std::vector<std::string> names = host_names(cx, v.name, v.host_name);
  if (llvm::GlobalValue* g = m.getNamedValue(names[0])) return g;
  const std::uint64_t size = std::max<std::uint64_t>(v.size, 1);
  auto* type = llvm::ArrayType::get(cx.i8(), size);
  auto* g = new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::ExternalLinkage, initial_bytes(cx, v.initial, size), names[0],
                                     nullptr, llvm::GlobalValue::NotThreadLocal, 1);
  g->setExternallyInitialized(true);
  if (is_amdgpu(cx.request().target)) g->setVisibility(llvm::GlobalValue::ProtectedVisibility);
  g->setAlignment(llvm::Align(16));
  for (std::size_t i = 1; i < names.size(); ++i)
    if (m.getNamedValue(names[i]) == nullptr)
      llvm::GlobalAlias::create(type, 1, llvm::GlobalValue::ExternalLinkage, names[i], g, &m)->setVisibility(llvm::GlobalValue::ProtectedVisibility);
  return g;
}

const ModuleVariable* find_variable(LiftContext& cx, std::string_view name) {
  for (const auto& v : cx.request().info.variables)
    if (v.name == name) return &v;
  return nullptr;
}

// Bank 3 keeps the cubin's layout whole (a register-indexed LDC may be computed from any
// variable's offset); each __constant__ variable is an alias at its offset, so the host finds it
// by name with its own size.
llvm::GlobalVariable* module_constant_bank(LiftContext& cx) {
  const auto& info = cx.request().info;
  const auto data = info.constant_banks.find(3);
  if (data == info.constant_banks.end()) return nullptr;
  llvm::Module& m = cx.module();
  const std::string name = "__gpuport_constant_bank3";
  if (llvm::GlobalVariable* g = m.getNamedGlobal(name)) return g;
  const std::uint64_t size = std::max<std::uint64_t>(data->second.size(), 1);
  // Private, so that the code generator gives each alias its own .size (an alias of a visible
  // object takes the object's size); kept in llvm.compiler.used so that GlobalOpt does not turn
  // the alias at offset 0 into the bank itself (with the bank's size).
  auto* bank = new llvm::GlobalVariable(m, llvm::ArrayType::get(cx.i8(), size), false, llvm::GlobalValue::PrivateLinkage,
                                        initial_bytes(cx, data->second, size), name, nullptr, llvm::GlobalValue::NotThreadLocal, 4);
  bank->setExternallyInitialized(true);
  bank->setAlignment(llvm::Align(16));
  llvm::appendToCompilerUsed(m, {bank});
  for (const auto& v : info.variables) {
    if (v.bank != 3) continue;
    if (v.offset + v.size > size) {
      cx.refuse(fmt::format("__constant__ variable {} lies outside constant bank 3", v.name));
      continue;
    }
    auto* at = llvm::ConstantExpr::getGetElementPtr(cx.i8(), bank, cx.u64(v.offset));
    for (const std::string& name : host_names(cx, v.name, v.host_name)) {
      if (m.getNamedValue(name) != nullptr) continue;
      auto* alias = llvm::GlobalAlias::create(llvm::ArrayType::get(cx.i8(), v.size), 4, llvm::GlobalValue::ExternalLinkage, name, at, &m);
      alias->setVisibility(llvm::GlobalValue::ProtectedVisibility);
    }
  }
  return bank;
}

// NVPTX cannot alias data: each __constant__ variable is a .const global of its own, and an
// access goes to the variable whose bytes hold the constant part of its bank offset.
llvm::GlobalVariable* constant_variable(LiftContext& cx, const ModuleVariable& v) {
  llvm::Module& m = cx.module();
  if (llvm::GlobalVariable* g = m.getNamedGlobal(v.name)) return g;
  const std::uint64_t size = std::max<std::uint64_t>(v.size, 1);
  auto* g = new llvm::GlobalVariable(m, llvm::ArrayType::get(cx.i8(), size), false, llvm::GlobalValue::ExternalLinkage,
                                     initial_bytes(cx, v.initial, size), v.name, nullptr, llvm::GlobalValue::NotThreadLocal, 4);
  g->setExternallyInitialized(true);
  g->setAlignment(llvm::Align(16));
  return g;
}

}  // namespace

AccessWidth access_width(const SassInstruction& ins) {
  AccessWidth w;
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

llvm::Value* constant_variable_pointer(LiftContext& cx, std::uint64_t offset, llvm::Value* at) {
  auto& b = cx.builder();
  if (is_amdgpu(cx.request().target)) {
    if (llvm::GlobalVariable* bank = module_constant_bank(cx)) return b.CreateGEP(cx.i8(), bank, at);
    cx.refuse("constant bank 3 is not available (its data comes from the cubin)");
    return nullptr;
  }
  for (const auto& v : cx.request().info.variables)
    if (v.bank == 3 && offset >= v.offset && offset < v.offset + v.size)
      return b.CreateGEP(cx.i8(), constant_variable(cx, v), b.CreateSub(at, cx.u32(v.offset)));
  cx.refuse(fmt::format("c[0x3][{:#x}] lies in no __constant__ variable of the cubin", offset));
  return nullptr;
}

llvm::Constant* variable_address(LiftContext& cx, std::string_view name) {
  const ModuleVariable* v = find_variable(cx, name);
  if (v == nullptr) {
    cx.refuse(fmt::format("a relocation of {}, which is not a __device__ or __constant__ variable of the cubin", name));
    return nullptr;
  }
  llvm::GlobalValue* symbol = nullptr;
  if (v->bank == 3) {
    if (!is_amdgpu(cx.request().target)) symbol = constant_variable(cx, *v);
    else if (module_constant_bank(cx) != nullptr) symbol = cx.module().getNamedValue(host_names(cx, v->name, v->host_name)[0]);
  } else if (v->bank == 0) {
    symbol = device_variable(cx, *v);
  }
  if (symbol == nullptr) cx.refuse(fmt::format("variable {} has no global in the module", name));
  return symbol;
}

// 32@lo(symbol) / 32@hi(symbol), also with an addend: 32@lo((symbol+0x10)).
llvm::Value* relocated_immediate(LiftContext& cx, const sass::SassOperand& op) {
  const std::string_view text = op.text;
  auto fail = [&](const std::string& why) -> llvm::Value* {
    cx.refuse(why);
    return llvm::PoisonValue::get(cx.i32());
  };
  const bool low = text.starts_with("32@lo("), high = text.starts_with("32@hi(");
  if (!(low || high) || !text.ends_with(")")) return fail(fmt::format("a relocated immediate of the form {}", text));
  std::string_view inner = text.substr(6, text.size() - 7);
  std::uint64_t addend = 0;
  auto trim = [](std::string_view t) {
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    return t;
  };
  if (inner.starts_with("(") && inner.ends_with(")") && inner.find("@srel") != std::string_view::npos) {
    // (function + label@srel): a code address, nvcc's return address in R20/R21 before a
    // CALL.ABS.NOINC of vprintf or __assertfail. Code has no address in the lifted kernel: the
    // label's byte offset in its function stands for it. Nothing reads it as an address: the
    // library calls the lifter implements ignore it, and subroutine returns go through the core's
    // return sites, not through a register.
    const std::string_view body = inner.substr(1, inner.size() - 2);
    const auto plus = body.find('+');
    const std::string_view function = trim(body.substr(0, plus == std::string_view::npos ? 0 : plus));
    const std::string_view label = plus == std::string_view::npos ? std::string_view{} : trim(body.substr(plus + 1));
    const sass::SassFunction* f = cx.request().program ? cx.request().program->find_function(function) : nullptr;
    if (f != nullptr && label.ends_with("@srel")) {
      const std::string_view name = label.substr(0, label.size() - 5);
      for (const auto& l : f->labels)
        if (l.name == name) return cx.u32(low ? l.address : 0);
    }
    return fail(fmt::format("a code-address relocation {} whose label is not in the listing", text));
  }
  if (inner.starts_with("(") && inner.ends_with(")")) {
    inner = inner.substr(1, inner.size() - 2);
    if (const auto plus = inner.find('+'); plus != std::string_view::npos) {
      std::string_view number = trim(inner.substr(plus + 1));
      int base = 10;
      if (number.starts_with("0x")) number.remove_prefix(2), base = 16;
      auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), addend, base);
      if (ec != std::errc() || end != number.data() + number.size()) return fail(fmt::format("a relocation addend in {}", text));
      inner = trim(inner.substr(0, plus));
    }
  }
  llvm::Constant* symbol = variable_address(cx, inner);
  if (symbol == nullptr) return llvm::PoisonValue::get(cx.i32());
  auto& b = cx.builder();
  llvm::Value* address = b.CreateAdd(b.CreatePtrToInt(symbol, cx.i64()), cx.u64(addend));
  if (high) address = b.CreateLShr(address, 32);
  return b.CreateTrunc(address, cx.i32());
}

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
  t["LDCU"] = lift_ldc;  // sm_100/sm_120 (CUDA 13): a constant load into a uniform register
  t["ATOM"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_atomic(cx, ins, Space::generic, true); };
  t["ATOMG"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_atomic(cx, ins, Space::global, true); };
  t["ATOMS"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_atomic(cx, ins, Space::shared, true); };
  t["RED"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_atomic(cx, ins, Space::generic, false); };
  t["REDG"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_atomic(cx, ins, Space::global, false); };
  t["LDGSTS"] = lift_ldgsts;
  t["MEMBAR"] = lift_membar;
  t["QSPC"] = lift_qspc;
  // Waits with nothing to wait for: LDGDEPBAR closes a group of LDGSTS copies (already done);
  // CGAERRBAR waits for the cluster's outstanding memory errors to be reported (sm_90), which
  // changes no value. The core treats these as no-ops too: DEPBAR (waits on scoreboards: every
  // lifted access completes in program order), ERRBAR (waits for memory errors to be reported,
  // after MEMBAR.SYS), CCTL/CCTLL (cache control: CCTL.IVALL invalidates NVIDIA's incoherent L1
  // after an acquire load or fence; here the acquire's order comes from the fence that MEMBAR
  // lifts to, and strong loads are atomic loads that the target keeps coherent).
  t["LDGDEPBAR"] = [](LiftContext&, const SassInstruction&) { return true; };
  t["CGAERRBAR"] = [](LiftContext&, const SassInstruction&) { return true; };
}

}  // namespace gpuport::lift
