// gfx1100 -> LLVM IR (lift.h). The kernel's steps are cut into regions of consecutive steps
// (at a branch target or after a branch, once a region has 128 steps), each an LLVM function:
//
//   entry:     switch on the step to run -> step_i
//   step_i:    executed >= limit? -> *pc = i, return 0
//              lanes += popcount(EXEC)
//              the step: lifted (lane loop, branch, nothing) or its handler called
//              executed += 1, on to step_i+1 (or the branch target); a step outside the region:
//              *pc = that step, return 4
//
// A fused run (Step::run_end) is one block, a loop over the lanes for all its steps, executed +=
// its length; its other steps have no block (a wave stops only between runs: lift_forms.h's
// mark_fused_runs). The kernel's function (JitEntry) calls the region holding *pc until one
// returns other than 4. A called handler may fault (1, *pc = i), leave the wave's loop (a barrier, the end: *pc =
// i + 1, 0) or move the program counter (calls and jumps by address: 4 at *pc + 1). A lane loop
// reads its sources per lane from the VGPR columns (v[reg * W + lane]) or one value for all
// lanes, applies the abs/neg masks as the interpreter's Lanes32 does, calls the lane function
// and keeps the old value in lanes outside EXEC.
#include "emu/lift.h"

#include <array>
#include <bit>
#include <cstdlib>
#include <map>
#include <optional>

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include <fmt/format.h>

#include "emu/interpreter.h"
#include "emu/lanes.h"
#include "emu/lift_forms.h"

namespace gpuport::emu {
namespace {

using llvm::BasicBlock;
using llvm::Value;

// Frame field indexes (JitFrame's order).
enum Field { f_wave, f_context, f_steps, f_v, f_s, f_scc, f_mode, f_leave, f_pc, f_region_begin, f_region_end, f_lds, f_lds_size, f_limit, f_executed, f_lanes, f_regions, f_image_base };

bool readable_source(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::none:
    case Operand::Kind::vgpr:
    case Operand::Kind::int_const:
    case Operand::Kind::literal:
    case Operand::Kind::float_const: return true;
    case Operand::Kind::sgpr: return o.reg < 128;
    default: return false;
  }
}

bool scalar_source(const Operand& o) {
  return (o.kind == Operand::Kind::sgpr && o.reg < 128) || o.kind == Operand::Kind::int_const || o.kind == Operand::Kind::literal;
}

// The VOPD halves (and lone VOP steps) the lifter compiles as lane loops.
bool vopd_liftable(const Step& half) {
  using K = LiftForm::Kind;
  const LiftForm f = vector_lift_form(half.handler);
  if (f.kind != K::int_op && f.kind != K::f32_binary && f.kind != K::fma_f32 && f.kind != K::cndmask) return false;
  if (half.dpp || half.mods.clamp || half.mods.omod || half.ops.empty() || half.ops[0].kind != Operand::Kind::vgpr) return false;
  for (std::size_t k = 1; k < half.ops.size(); ++k)
    if (!readable_source(half.ops[k])) return false;
  if (f.kind == K::cndmask && half.ops.size() >= 4 && (half.ops[3].kind != Operand::Kind::sgpr || half.ops[3].reg >= 126)) return false;
  return true;
}

// f64 add/mul/min/max/fma: lane steps of a run (each VGPR of a pair a register of the run).
bool f64_lane(const Step& s) {
  if (vector_lift_form(s.handler).kind != LiftForm::Kind::f64_binary) return false;
  if (s.dpp || s.vopd_x || s.mods.clamp || s.mods.omod || s.ops.size() < 3 || s.ops[0].kind != Operand::Kind::vgpr) return false;
  for (std::size_t k = 1; k < s.ops.size(); ++k)
    if (!readable_source(s.ops[k])) return false;
  return true;
}
bool is_double(const Step& s) { return vector_lift_form(s.handler).kind == LiftForm::Kind::f64_binary; }
// Unary f32 operations and 32-bit conversions: lane steps of a run (not VOPD halves).
bool one_source_float(const Step& s) {
  using K = LiftForm::Kind;
  const LiftForm f = vector_lift_form(s.handler);
  if (f.kind != K::f32_unary && f.kind != K::convert32) return false;
  if (s.dpp || s.vopd_x || s.mods.clamp || s.mods.omod || s.ops.size() != 2 || s.ops[0].kind != Operand::Kind::vgpr) return false;
  if (!readable_source(s.ops[1])) return false;
  return f.kind == K::f32_unary || lanes::cv_float_source(static_cast<lanes::Cv>(f.op)) || (!s.ops[1].abs && !s.ops[1].neg);
}
bool is_float(const Step& s) {
  const LiftForm f = vector_lift_form(s.handler);
  using K = LiftForm::Kind;
  return f.kind == K::f32_binary || f.kind == K::fma_f32 || f.kind == K::f32_unary || f.kind == K::convert32;
}

// What a step can be in a fused run (mark_fused_runs): nothing (a no-op), a scalar ALU step, a
// lane step, a VOPD pair of lane steps, or none of these.
enum class Member : std::uint8_t { nop, scalar, lane, pair, other };
Member member(const Step& s) {
  using K = LiftForm::Kind;
  const LiftForm f = scalar_lift_form(s.handler);
  if (f.kind == K::nop) return Member::nop;
  if (f.kind == K::scalar_op || f.kind == K::scalar_bits || f.kind == K::scalar_compare) {
    // lift_scalar's operand checks, so that it cannot refuse inside a run
    const Operand none;
    auto at = [&](std::size_t k) -> const Operand& { return k < s.ops.size() ? s.ops[k] : none; };
    if (f.kind == K::scalar_compare) return scalar_source(at(0)) && scalar_source(at(1)) ? Member::scalar : Member::other;
    const bool ok = scalar_source(at(1)) && scalar_source(at(2)) && at(0).kind == Operand::Kind::sgpr && at(0).reg < 128;
    // a run's lane steps read EXEC once each, before the loop: a scalar step writing it ends the
    // run's reasoning no less than it would anywhere, so it is allowed
    return ok ? Member::scalar : Member::other;
  }
  if (s.vopd_x && s.vopd_y) return vopd_liftable(*s.vopd_x) && vopd_liftable(*s.vopd_y) ? Member::pair : Member::other;
  if (f.kind != K::none) return Member::other;
  return vopd_liftable(s) || one_source_float(s) || f64_lane(s) ? Member::lane : Member::other;
}

class Lifter {
 public:
  Lifter(const PreparedKernel& k, llvm::Module& m, const std::string& name)
      : k_(k), m_(m), ctx_(m.getContext()), b_(ctx_), wave_(k.wave64 ? 64 : 32), name_(name) {
    i1_ = b_.getInt1Ty();
    i8_ = b_.getInt8Ty();
    i32_ = b_.getInt32Ty();
    i64_ = b_.getInt64Ty();
    ptr_ = b_.getPtrTy();
  }

  // The kernel as regions of consecutive steps, each a function of its own (LLVM's code
  // generation slows more than linearly with a function's size: one function of 1,000 steps took
  // 5 s, mostly in CodeGenPrepare), and a function `name` that calls the region holding the step
  // to run until one returns other than "go on at *pc" (4).
  void run(std::size_t& lifted, std::size_t& called) {
    const std::size_t all = k_.steps.size();
    // The kernel's own steps, unless it calls or jumps by address: the code object's other
    // functions follow every kernel's steps (a printf's helpers after a kernel that never prints),
    // and compiling them cost more than the kernel. A wave that reaches a step not compiled goes
    // on in the interpreter (the entry returns 2).
    std::size_t n = std::min(k_.kernel_instructions, all);
    for (std::size_t i = 0; i < n; ++i) {
      const amdgpu::Instruction* in = k_.steps[i].instruction;
      if (in && (in->mnemonic == "s_swappc_b64" || in->mnemonic == "s_setpc_b64" || in->mnemonic == "s_call_b64")) {
        n = all;
        break;
      }
    }
    // Region boundaries at leaders (a lifted branch's target, the step after it) once a region
    // has 128 steps, so that most loops stay inside one function; at most 512 steps.
    std::vector<bool> leader(n + 1, false);
    for (std::size_t i = 0; i < n; ++i) {
      const LiftForm f = scalar_lift_form(k_.steps[i].handler);
      const std::int64_t t = k_.steps[i].target;
      if (f.kind == LiftForm::Kind::branch && t >= 0 && static_cast<std::size_t>(t) < n) {
        leader[static_cast<std::size_t>(t)] = true;
        leader[i + 1] = true;
      }
    }
    std::vector<std::pair<std::size_t, std::size_t>> regions;
    for (std::size_t first = 0, i = 1; i <= n; ++i)
      if (i == n || (!k_.steps[i].run_interior && ((leader[i] && i - first >= 128) || i - first >= 512))) {
        regions.emplace_back(first, i);
        first = i;
      }
    steps_.assign(n, nullptr);
    std::vector<llvm::Function*> functions;
    for (std::size_t r = 0; r < regions.size(); ++r) {
      functions.push_back(lift_region(regions[r].first, regions[r].second, fmt::format("{}.r{}", name_, r), lifted, called));
    }
    // The entry: counters to 0, then region by region.
    auto* type = llvm::FunctionType::get(i32_, {ptr_, i64_}, false);
    llvm::Function* f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name_, m_);
    f->addParamAttr(0, llvm::Attribute::NoAlias);
    auto* entry = BasicBlock::Create(ctx_, "entry", f);
    auto* loop = BasicBlock::Create(ctx_, "loop", f);
    auto* done = BasicBlock::Create(ctx_, "done", f);
    auto* outside = BasicBlock::Create(ctx_, "outside", f);
    b_.SetInsertPoint(entry);
    Value* frame = f->getArg(0);
    auto at = [&](int i) { return b_.CreateConstInBoundsGEP1_64(i64_, frame, static_cast<std::uint64_t>(i)); };
    b_.CreateStore(b_.getInt64(0), at(f_executed));
    b_.CreateStore(b_.getInt64(0), at(f_lanes));
    Value* pc_pointer = b_.CreateLoad(ptr_, at(f_pc));
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    auto* pc = b_.CreatePHI(i64_, 2);
    pc->addIncoming(f->getArg(1), entry);
    auto* sw = b_.CreateSwitch(pc, outside, static_cast<unsigned>(n));
    b_.SetInsertPoint(done);
    auto* code = b_.CreatePHI(i32_, static_cast<unsigned>(regions.size()));
    auto* again = BasicBlock::Create(ctx_, "again", f);
    auto* out = BasicBlock::Create(ctx_, "return", f);
    b_.CreateCondBr(b_.CreateICmpEQ(code, b_.getInt32(4)), again, out);
    b_.SetInsertPoint(again);
    pc->addIncoming(b_.CreateLoad(i64_, pc_pointer), again);
    b_.CreateBr(loop);
    b_.SetInsertPoint(out);
    b_.CreateRet(code);
    for (std::size_t r = 0; r < regions.size(); ++r) {
      auto* call = BasicBlock::Create(ctx_, "region", f);
      b_.SetInsertPoint(call);
      code->addIncoming(b_.CreateCall(functions[r], {frame, pc}), call);
      b_.CreateBr(done);
      for (std::size_t i = regions[r].first; i < regions[r].second; ++i)
        if (!k_.steps[i].run_interior) sw->addCase(b_.getInt64(i), call);
    }
    b_.SetInsertPoint(outside);
    b_.CreateStore(pc, pc_pointer);
    b_.CreateRet(b_.getInt32(2));
  }

  llvm::Function* lift_region(std::size_t first, std::size_t last, const std::string& name, std::size_t& lifted, std::size_t& called) {
    auto* type = llvm::FunctionType::get(i32_, {ptr_, i64_}, false);
    f_ = llvm::Function::Create(type, llvm::Function::InternalLinkage, name, m_);
    // Nothing else the function reads or writes is the frame: its fields stay apart from the
    // registers and memory the steps work on.
    f_->addParamAttr(0, llvm::Attribute::NoAlias);
    f_->addFnAttr(llvm::Attribute::NoInline);
    first_ = first;
    last_ = last;
    auto* entry = BasicBlock::Create(ctx_, "entry", f_);
    entry_ = entry;
    for (auto& l : loaded_) l = nullptr;
    exit_ = BasicBlock::Create(ctx_, "exit", f_);
    for (std::size_t i = first; i < last; ++i)
      steps_[i] = k_.steps[i].run_interior ? nullptr : BasicBlock::Create(ctx_, "step" + std::to_string(i), f_);
    b_.SetInsertPoint(entry);
    frame_ = f_->getArg(0);
    scc_slot_ = b_.CreateAlloca(i8_);
    vopd_column_ = b_.CreateAlloca(llvm::ArrayType::get(i32_, 64));
    code_ = b_.CreateAlloca(i32_);
    auto* outside = BasicBlock::Create(ctx_, "outside", f_);
    auto* sw = b_.CreateSwitch(f_->getArg(1), outside, static_cast<unsigned>(last - first));
    for (std::size_t i = first; i < last; ++i)
      if (steps_[i]) sw->addCase(b_.getInt64(i), steps_[i]);
    b_.SetInsertPoint(outside);
    b_.CreateStore(f_->getArg(1), b_.CreateLoad(ptr_, field(f_pc)));
    leave_with(2);
    b_.SetInsertPoint(exit_);
    b_.CreateRet(b_.CreateLoad(i32_, code_));
    stop_ = BasicBlock::Create(ctx_, "stop", f_);
    b_.SetInsertPoint(stop_);
    stop_steps_ = b_.CreatePHI(i64_, static_cast<unsigned>(last - first));
    b_.CreateStore(stop_steps_, b_.CreateLoad(ptr_, field(f_pc)));
    b_.CreateRet(b_.getInt32(0));
    // What a called step returned other than 0: 1 fault, 2 stopped (the limit or the wave left
    // its loop; *pc is the next step), 3 it moved the program counter (go on at *pc + 1).
    called_exit_ = BasicBlock::Create(ctx_, "called.exit", f_);
    b_.SetInsertPoint(called_exit_);
    called_codes_ = b_.CreatePHI(i32_, 16);
    auto* jumped = BasicBlock::Create(ctx_, "called.jumped", f_);
    auto* leave = BasicBlock::Create(ctx_, "called.leave", f_);
    b_.CreateCondBr(b_.CreateICmpEQ(called_codes_, b_.getInt32(3)), jumped, leave);
    b_.SetInsertPoint(leave);
    b_.CreateRet(b_.CreateSelect(b_.CreateICmpEQ(called_codes_, b_.getInt32(1)), b_.getInt32(1), b_.getInt32(0)));
    b_.SetInsertPoint(jumped);
    Value* pc = b_.CreateLoad(ptr_, field(f_pc));
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, pc), b_.getInt64(1)), pc);
    b_.CreateRet(b_.getInt32(4));
    static const bool show_called = std::getenv("GPUPORT_JIT_CALLED") != nullptr;
    for (std::size_t i = first; i < last; ++i) {
      if (lift_step(i)) ++lifted;
      else {
        ++called;
        // GPUPORT_JIT_CALLED=1: which steps the lifter leaves to their handlers (to choose what to
        // lift next; docs/emu.md).
        if (show_called && k_.steps[i].instruction)
          fmt::print(stderr, "gpuport jit: called {} step {}: {}\n", name_, i, k_.steps[i].instruction->text);
      }
    }
    separate_state(*f_);
    return f_;
  }

 private:
  // ---- what may alias what. The lifted code works on five kinds of memory that never overlap:
  // the VGPR file (Wave::v), the SGPR file (Wave::s), the wave's other fields (SCC, MODE, pc,
  // leave: Wave members beside s), the host thread's Context (the regions last hit) and the
  // kernel's memory (global buffers, LDS, scratch: what an address reaches, inline or through
  // gpuport_jit_pointer). Each load and store gets its kind as
  // scoped-noalias metadata, so that a VGPR store does not force EXEC, an SGPR or a loaded
  // address to be read again. The frame is a noalias argument already; allocas LLVM knows.
  enum class State { unknown, vgpr, sgpr, wave, context, memory, count };
  State state_of(Value* p, int depth = 0) {
    Value* base = llvm::getUnderlyingObject(p, 12);
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(base)) {  // a pointer field of the frame
      auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(load->getPointerOperand());
      if (!gep || gep->getPointerOperand() != frame_ || gep->getNumIndices() != 1) return State::unknown;
      auto* index = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1));
      if (!index) return State::unknown;
      switch (index->getZExtValue()) {
        case f_v: return State::vgpr;
        case f_s: return State::sgpr;
        case f_scc:
        case f_mode:
        case f_leave:
        case f_pc: return State::wave;
        case f_region_begin:
        case f_region_end:
        case f_regions: return State::context;
        case f_lds: return State::memory;
        default: return State::unknown;
      }
    }
    if (llvm::isa<llvm::IntToPtrInst>(base)) return State::memory;  // a checked guest address
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(base)) {
      const llvm::Function* callee = call->getCalledFunction();
      return callee && callee->getName() == "gpuport_jit_pointer" ? State::memory : State::unknown;
    }
    if (auto* phi = llvm::dyn_cast<llvm::PHINode>(base)) {  // one kind on every edge, or none
      if (depth > 4 || phi->getNumIncomingValues() == 0) return State::unknown;
      const State first = state_of(phi->getIncomingValue(0), depth + 1);
      for (unsigned i = 1; i < phi->getNumIncomingValues(); ++i)
        if (state_of(phi->getIncomingValue(i), depth + 1) != first) return State::unknown;
      return first;
    }
    return State::unknown;
  }
  void separate_state(llvm::Function& f) {
    llvm::MDBuilder md(ctx_);
    llvm::MDNode* domain = md.createAnonymousAliasScopeDomain("gpuport.state");
    constexpr int n = static_cast<int>(State::count);
    const char* names[n] = {"", "vgpr", "sgpr", "wave", "context", "memory"};
    llvm::MDNode* scope[n] = {};
    for (int i = 1; i < n; ++i) scope[i] = md.createAnonymousAliasScope(domain, names[i]);
    llvm::MDNode *own[n] = {}, *others[n] = {};
    for (int i = 1; i < n; ++i) {
      own[i] = llvm::MDNode::get(ctx_, {scope[i]});
      std::vector<llvm::Metadata*> rest;
      for (int j = 1; j < n; ++j)
        if (j != i) rest.push_back(scope[j]);
      others[i] = llvm::MDNode::get(ctx_, rest);
    }
    for (llvm::BasicBlock& bb : f)
      for (llvm::Instruction& inst : bb) {
        Value* p = nullptr;
        if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) p = load->getPointerOperand();
        else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&inst)) p = store->getPointerOperand();
        if (!p) continue;
        const int kind = static_cast<int>(state_of(p));
        if (kind == 0) continue;
        inst.setMetadata(llvm::LLVMContext::MD_alias_scope, own[kind]);
        inst.setMetadata(llvm::LLVMContext::MD_noalias, others[kind]);
      }
  }

  Value* field(int f) { return b_.CreateConstInBoundsGEP1_64(i64_, frame_, static_cast<std::uint64_t>(f)); }
  // A frame field that stays as it is while the function runs (a pointer into the wave or the
  // context, the LDS's size, the limit), loaded once, in the entry block before the switch: the
  // steps share it, and LLVM has not one load per step to prove the same.
  Value* F(int f) {
    if (!loaded_[f]) {
      llvm::IRBuilder<> top(entry_->getTerminator());
      Value* p = top.CreateConstInBoundsGEP1_64(i64_, frame_, static_cast<std::uint64_t>(f));
      loaded_[f] = top.CreateLoad(f == f_limit || f == f_lds_size || f == f_image_base ? (llvm::Type*)i64_ : ptr_, p);
    }
    return loaded_[f];
  }
  void leave_with(int code) {
    b_.CreateStore(b_.getInt32(code), code_);
    b_.CreateBr(exit_);
  }
  BasicBlock* block(const char* name) { return BasicBlock::Create(ctx_, name, f_); }
  // The block of step i in this region, or one that leaves the region for the caller to go on
  // at step i.
  BasicBlock* step_block(std::size_t i) {
    if (i >= first_ && i < last_ && steps_[i]) return steps_[i];
    auto* away = block("away");
    llvm::IRBuilder<> b(away);
    b.CreateStore(b.getInt64(i), b.CreateLoad(ptr_, b.CreateConstInBoundsGEP1_64(i64_, frame_, f_pc)));
    b.CreateRet(b.getInt32(4));
    return away;
  }
  BasicBlock* next_block(std::size_t i) { return step_block(i + 1); }
  void count_step() { b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, field(f_executed)), b_.getInt64(1)), field(f_executed)); }

  Value* sgpr(unsigned reg) { return b_.CreateConstInBoundsGEP1_64(i32_, F(f_s), reg); }
  Value* exec() {
    Value* lo = b_.CreateLoad(i32_, sgpr(encoding::exec_lo));
    if (wave_ == 32) return b_.CreateZExt(lo, i64_);
    Value* hi = b_.CreateLoad(i32_, sgpr(encoding::exec_hi));
    return b_.CreateOr(b_.CreateZExt(lo, i64_), b_.CreateShl(b_.CreateZExt(hi, i64_), 32));
  }
  Value* mask_at(unsigned reg) {  // read_mask of an SGPR (pair in wave64)
    Value* lo = b_.CreateZExt(b_.CreateLoad(i32_, sgpr(reg)), i64_);
    if (wave_ == 32) return lo;
    Value* hi = b_.CreateZExt(b_.CreateLoad(i32_, sgpr((reg + 1) & 127)), i64_);
    return b_.CreateOr(lo, b_.CreateShl(hi, 32));
  }
  // A compare's result: EXEC (v_cmpx; in wave32 exec_hi 0) or the destination mask.
  void write_compare_mask(bool writes_exec, const Operand& dst, Value* mask) {
    if (!writes_exec) return store_mask(dst.reg, mask);
    b_.CreateStore(b_.CreateTrunc(mask, i32_), sgpr(encoding::exec_lo));
    b_.CreateStore(wave_ == 64 ? b_.CreateTrunc(b_.CreateLShr(mask, 32), i32_) : (Value*)b_.getInt32(0), sgpr(encoding::exec_hi));
  }
  void store_mask(unsigned reg, Value* mask) {  // write_mask (write_scalar / write_scalar64)
    if (reg == encoding::null) return;
    b_.CreateStore(b_.CreateTrunc(mask, i32_), sgpr(reg));
    if (wave_ == 64) b_.CreateStore(b_.CreateTrunc(b_.CreateLShr(mask, 32), i32_), sgpr((reg + 1) & 127));
  }

  // The float mode the lifted float code assumes: f32 rounds to nearest even, keeps denormals.
  Value* default_f32_mode() {
    Value* mode = b_.CreateLoad(i32_, F(f_mode));
    return b_.CreateICmpEQ(b_.CreateAnd(mode, b_.getInt32(0x33)), b_.getInt32(0x30));
  }
  // ... and f64 (MODE's 16/64-bit fields).
  Value* default_f64_mode() {
    Value* mode = b_.CreateLoad(i32_, F(f_mode));
    return b_.CreateICmpEQ(b_.CreateAnd(mode, b_.getInt32(0xcc)), b_.getInt32(0xc0));
  }

  // One 32-bit source, before the loop: a VGPR column pointer or one value for every lane.
  struct Source {
    Value* column = nullptr;  // &v[reg * W]
    Value* value = nullptr;   // the same for every lane
    std::uint32_t and_mask = ~0u, xor_mask = 0;
  };
  Source source(const Operand& o) {
    Source s;
    if (o.kind == Operand::Kind::vgpr) s.column = b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(o.reg) * wave_);
    else if (o.kind == Operand::Kind::none) s.value = b_.getInt32(0);
    else if (o.kind == Operand::Kind::float_const) s.value = b_.getInt32(std::bit_cast<std::uint32_t>(static_cast<float>(o.fvalue)));
    else if (o.kind == Operand::Kind::sgpr) s.value = o.reg == encoding::null ? (Value*)b_.getInt32(0) : b_.CreateLoad(i32_, sgpr(o.reg));
    else s.value = b_.getInt32(static_cast<std::uint32_t>(o.value));
    s.and_mask = o.abs ? 0x7fffffffu : ~0u;
    s.xor_mask = o.neg ? 0x80000000u : 0u;
    return s;
  }
  // A 64-bit float source as two 32-bit ones, as read_f64 reads it: a VGPR pair, an SGPR pair or
  // a constant (a literal is the high word); abs and neg act on the high word's sign.
  struct SourcePair {
    Source lo, hi;
  };
  SourcePair source_pair(const Operand& o) {
    SourcePair p;
    if (o.kind == Operand::Kind::vgpr) {
      p.lo.column = b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(o.reg) * wave_);
      p.hi.column = b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(o.reg + 1) * wave_);
    } else {
      Value* v = o.kind == Operand::Kind::none          ? b_.getInt64(0)
                 : o.kind == Operand::Kind::literal     ? b_.getInt64(std::uint64_t(static_cast<std::uint32_t>(o.value)) << 32)
                 : o.kind == Operand::Kind::float_const ? b_.getInt64(std::bit_cast<std::uint64_t>(o.fvalue))
                                                        : scalar64(o);
      p.lo.value = b_.CreateTrunc(v, i32_);
      p.hi.value = b_.CreateTrunc(b_.CreateLShr(v, 32), i32_);
    }
    p.hi.and_mask = o.abs ? 0x7fffffffu : ~0u;
    p.hi.xor_mask = o.neg ? 0x80000000u : 0u;
    return p;
  }
  // A 64-bit integer source as the interpreter's read_lane64 reads it: a VGPR pair per lane
  // (input modifiers do not apply), or read_scalar64's value for every lane.
  struct Wide {
    Value* lo = nullptr;
    Value* hi = nullptr;
    Value* value = nullptr;
  };
  std::optional<Wide> wide(const Operand& o) {
    Wide w;
    if (o.kind == Operand::Kind::vgpr) {
      w.lo = vgpr_column(o.reg);
      w.hi = vgpr_column(o.reg + 1);
    } else if (scalar_source(o) && !o.abs && !o.neg) {
      w.value = scalar64(o);
    } else {
      return std::nullopt;
    }
    return w;
  }
  Value* read_wide(const Wide& w, Value* lane) {
    if (w.value) return w.value;
    Value* lo = b_.CreateZExt(b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, w.lo, lane)), i64_);
    Value* hi = b_.CreateZExt(b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, w.hi, lane)), i64_);
    return b_.CreateOr(lo, b_.CreateShl(hi, 32));
  }
  Value* vgpr_column(unsigned reg) { return b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(reg) * wave_); }
  Value* join64(Value* lo, Value* hi) { return b_.CreateOr(b_.CreateZExt(lo, i64_), b_.CreateShl(b_.CreateZExt(hi, i64_), 32)); }
  Value* as_double(Value* x) { return b_.CreateBitCast(x, b_.getDoubleTy()); }
  Value* read(const Source& s, Value* lane) {
    Value* x = s.column ? b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, s.column, lane)) : s.value;
    if (s.and_mask != ~0u) x = b_.CreateAnd(x, b_.getInt32(s.and_mask));
    if (s.xor_mask) x = b_.CreateXor(x, b_.getInt32(s.xor_mask));
    return x;
  }
  Value* as_float(Value* x) { return b_.CreateBitCast(x, b_.getFloatTy()); }
  Value* as_int(Value* x) { return b_.CreateBitCast(x, i32_); }
  llvm::Function* lane_function(const std::string& name) {
    llvm::Function* f = m_.getFunction(name);
    if (!f) throw std::runtime_error("the lane function " + name + " is missing from the bitcode");
    return f;
  }

  // A loop over the lanes of the wave: body(lane, active) -> the bit of each of N masks (or null
  // for none), each accumulated over the active lanes (for compares; for a memory step's checks,
  // two in one pass). Returns the accumulated masks.
  template <std::size_t N, typename Body>
  std::array<Value*, N> lane_masks(Value* exec, Body&& body) {
    BasicBlock* before = b_.GetInsertBlock();
    auto* loop = block("lanes");
    auto* after = block("lanes.end");
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    auto* lane = b_.CreatePHI(i32_, 2);
    lane->addIncoming(b_.getInt32(0), before);
    std::array<llvm::PHINode*, N> masks;
    for (auto& m : masks) {
      m = b_.CreatePHI(i64_, 2);
      m->addIncoming(b_.getInt64(0), before);
    }
    Value* active = b_.CreateTrunc(b_.CreateLShr(exec, b_.CreateZExt(lane, i64_)), i1_);
    const std::array<Value*, N> bits = body(lane, active);
    std::array<Value*, N> next_masks;
    for (std::size_t k = 0; k < N; ++k)
      next_masks[k] = bits[k] ? b_.CreateOr(masks[k], b_.CreateShl(b_.CreateZExt(b_.CreateAnd(bits[k], active), i64_), b_.CreateZExt(lane, i64_)))
                              : static_cast<Value*>(masks[k]);
    Value* next = b_.CreateAdd(lane, b_.getInt32(1));
    lane->addIncoming(next, b_.GetInsertBlock());
    for (std::size_t k = 0; k < N; ++k) masks[k]->addIncoming(next_masks[k], b_.GetInsertBlock());
    llvm::BranchInst* back = b_.CreateCondBr(b_.CreateICmpULT(next, b_.getInt32(wave_)), loop, after);
    // Not unrolled: the loop vectorizer takes the loop as it is. Fully unrolled (32 or 64
    // copies), the SLP vectorizer had to find the vectors again: compiling took about twice as
    // long for code as fast (emu_speed's two kernels: 0.6-0.8 s -> 0.4-0.5 s).
    llvm::MDNode* self = llvm::MDNode::getDistinct(ctx_, {nullptr, llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")})});
    self->replaceOperandWith(0, self);
    back->setMetadata(llvm::LLVMContext::MD_loop, self);
    b_.SetInsertPoint(after);
    std::array<Value*, N> results;
    for (std::size_t k = 0; k < N; ++k) {
      auto* r = b_.CreatePHI(i64_, 1);
      r->addIncoming(next_masks[k], loop);
      results[k] = r;
    }
    return results;
  }
  // One mask (or none): body(lane, active) -> the value to store (or null).
  template <typename Body>
  Value* lane_loop(Value* exec, Body&& body) {
    return lane_masks<1>(exec, [&](Value* lane, Value* active) { return std::array<Value*, 1>{body(lane, active)}; })[0];
  }
  // Stores `value` into lane `lane` of VGPR `reg` where active (the old value elsewhere).
  void store_lane(unsigned reg, Value* lane, Value* active, Value* value) {
    Value* column = redirect_ && reg == redirect_reg_ ? redirect_ : b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(reg) * wave_);
    Value* p = b_.CreateInBoundsGEP(i32_, column, lane);
    b_.CreateStore(b_.CreateSelect(active, value, b_.CreateLoad(i32_, p)), p);
  }

  // Emits the VALU step's lane loop, or returns false (the handler is called instead). Called
  // with the insertion point in the step's block; leaves it where the step is complete.
  bool lift_vector(const Step& s, const LiftForm& form, Value* exec) {
    using K = LiftForm::Kind;
    if (s.dpp || s.vopd_x || s.mods.clamp || s.mods.omod) return false;
    for (std::size_t i = 1; i < s.ops.size(); ++i)
      if (!readable_source(s.ops[i])) return false;
    const Operand none;
    auto at = [&](std::size_t i) -> const Operand& { return i < s.ops.size() ? s.ops[i] : none; };
    switch (form.kind) {
      case K::int_op: {
        const auto op = static_cast<lanes::I>(form.op);
        if (at(0).kind != Operand::Kind::vgpr) return false;
        const int count = lanes::int_source_count(op);
        const Source x = source(at(1)), y = source(count >= 2 ? at(2) : none), z = source(count >= 3 ? at(3) : none);
        llvm::Function* fn = lane_function(std::string("gpuport_lane_int_") + lanes::int_op_name(op));
        lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
          store_lane(at(0).reg, lane, active, b_.CreateCall(fn, {read(x, lane), read(y, lane), read(z, lane), lane}));
          return nullptr;
        });
        return true;
      }
      case K::carry:
      case K::mad64:
      case K::shift64: return lift_wide(s, form, exec);
      case K::f64_binary: {  // one lane step, as in a fused run
        if (!f64_lane(s)) return false;
        return guarded(true, [&] {
          const LaneStep l = prepare_lane(s, exec);
          lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
            std::map<unsigned, Value*> none_yet;
            Value* r = lane_value(l, lane, none_yet);
            store_lane(at(0).reg, lane, active, b_.CreateTrunc(r, i32_));
            store_lane(at(0).reg + 1, lane, active, b_.CreateTrunc(b_.CreateLShr(r, 32), i32_));
            return nullptr;
          });
        }, true);
      }
      case K::f32_binary:
      case K::fma_f32:
      case K::compare:
      case K::compare_class:
      case K::cndmask: break;
      case K::f32_unary:
      case K::convert32:
      case K::div_scale:
      case K::div_fmas:
      case K::div_fixup: return lift_float_extra(s, form, exec);
      case K::read_lane: {  // v_readfirstlane_b32 sdst, v / v_readlane_b32 sdst, v, lane
        if (at(0).kind != Operand::Kind::sgpr || at(0).reg >= 128 || at(1).kind != Operand::Kind::vgpr) return false;
        Value* lane;
        if (form.op == 0) {
          lane = b_.CreateSelect(b_.CreateICmpEQ(exec, b_.getInt64(0)), b_.getInt64(0),
                                 b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, exec, b_.getTrue()));
        } else {
          if (!scalar_source(at(2))) return false;
          lane = b_.CreateZExt(b_.CreateAnd(scalar32(at(2)), b_.getInt32(wave_ - 1)), i64_);
        }
        Value* column = b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(at(1).reg) * wave_);
        write32(at(0), b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, column, lane)));
        return true;
      }
      default: return false;
    }
    if (form.kind == K::cndmask) {
      if (at(0).kind != Operand::Kind::vgpr) return false;
      Value* mask;
      if (s.ops.size() >= 4) {
        if (at(3).kind != Operand::Kind::sgpr || at(3).reg >= 126) return false;
        mask = mask_at(at(3).reg);
      } else {
        mask = mask_at(encoding::vcc_lo);
      }
      const Source a = source(at(1)), bsrc = source(at(2));
      lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
        Value* take_b = b_.CreateTrunc(b_.CreateLShr(mask, b_.CreateZExt(lane, i64_)), i1_);
        store_lane(at(0).reg, lane, active, b_.CreateSelect(take_b, read(bsrc, lane), read(a, lane)));
        return nullptr;
      });
      return true;
    }
    if (form.kind == K::compare_class) {  // f32 only, sources without modifiers; MODE does not apply
      const std::size_t first = form.writes_exec ? 0 : 1;
      if (s.param2 != compare_type::f32 || at(first).abs || at(first).neg || at(first + 1).abs || at(first + 1).neg) return false;
      if (!form.writes_exec && (at(0).kind != Operand::Kind::sgpr || at(0).reg >= 126)) return false;
      llvm::Function* fn = lane_function("gpuport_lane_class_f32");
      const Source x = source(at(first)), classes = source(at(first + 1));
      Value* mask = lane_loop(exec, [&](Value* lane, Value*) -> Value* {
        Value* r = b_.CreateCall(fn, {read(x, lane), read(classes, lane)});
        return b_.CreateICmpNE(b_.CreateZExtOrTrunc(r, i8_), b_.getInt8(0));
      });
      write_compare_mask(form.writes_exec, at(0), mask);
      return true;
    }
    if (form.kind == K::compare) {
      const std::uint32_t type = s.param2;
      const char* fn_name = type == compare_type::f32   ? "gpuport_lane_compare_f32"
                            : type == compare_type::f64 ? "gpuport_lane_compare_f64"
                            : type == compare_type::i32 ? "gpuport_lane_compare_i32"
                            : type == compare_type::u32 ? "gpuport_lane_compare_u32"
                            : type == compare_type::i64 ? "gpuport_lane_compare_i64"
                            : type == compare_type::u64 ? "gpuport_lane_compare_u64"
                                                        : nullptr;
      if (!fn_name) return false;
      const std::size_t first = form.writes_exec ? 0 : 1;
      if (!form.writes_exec && (at(0).kind != Operand::Kind::sgpr || at(0).reg >= 126)) return false;
      llvm::Function* fn = lane_function(fn_name);
      if (type == compare_type::i64 || type == compare_type::u64) {
        const auto a = wide(at(first)), bsrc = wide(at(first + 1));
        if (!a || !bsrc) return false;
        Value* mask = lane_loop(exec, [&](Value* lane, Value*) -> Value* {
          Value* r = b_.CreateCall(fn, {read_wide(*a, lane), read_wide(*bsrc, lane), b_.getInt32(s.param)});
          return b_.CreateICmpNE(b_.CreateZExtOrTrunc(r, i8_), b_.getInt8(0));
        });
        write_compare_mask(form.writes_exec, at(0), mask);
        return true;
      }
      const bool is_float = type == compare_type::f32 || type == compare_type::f64, wide = type == compare_type::f64;
      return guarded(is_float, [&] {
        // f64: each source a pair (lo = the low words, hi = the high ones); else lo alone.
        SourcePair a, bsrc;
        if (wide) a = source_pair(at(first)), bsrc = source_pair(at(first + 1));
        else a.lo = source(at(first)), bsrc.lo = source(at(first + 1));
        Value* mask = lane_loop(exec, [&](Value* lane, Value*) -> Value* {
          Value* x = read(a.lo, lane);
          Value* y = read(bsrc.lo, lane);
          if (wide) x = as_double(join64(x, read(a.hi, lane))), y = as_double(join64(y, read(bsrc.hi, lane)));
          else if (is_float) x = as_float(x), y = as_float(y);
          Value* r = b_.CreateCall(fn, {x, y, b_.getInt32(s.param)});
          return b_.CreateICmpNE(b_.CreateZExtOrTrunc(r, i8_), b_.getInt8(0));
        });
        write_compare_mask(form.writes_exec, at(0), mask);
      }, wide);
    }
    if (at(0).kind != Operand::Kind::vgpr) return false;
    if (form.kind == K::f32_binary) {
      llvm::Function* fn = lane_function(std::string("gpuport_lane_f32_") + lanes::f2_op_name(static_cast<lanes::F2>(form.op)));
      return guarded(true, [&] {
        const Source a = source(at(1)), bsrc = source(at(2));
        lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
          store_lane(at(0).reg, lane, active, as_int(b_.CreateCall(fn, {as_float(read(a, lane)), as_float(read(bsrc, lane))})));
          return nullptr;
        });
      });
    }
    // fma forms: 0 fma d, a, b, c; 1 fmac d, a, b (c = d); 2 fmamk d, a, K, b; 3 fmaak d, a, b, K.
    llvm::Function* fn = lane_function("gpuport_lane_fma_f32");
    return guarded(true, [&] {
      const Source a = source(at(1)), bsrc = source(at(2)), c = source(form.op == 1 ? at(0) : at(3));
      lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
        Value* r = b_.CreateCall(fn, {as_float(read(a, lane)), as_float(read(bsrc, lane)), as_float(read(c, lane))});
        store_lane(at(0).reg, lane, active, as_int(r));
        return nullptr;
      });
    });
  }

  // Unary f32 operations and 32-bit conversions (behind the MODE check: their rounding and
  // denormal handling assume the default), and the f32 division helpers (which the interpreter
  // runs in the default rounding whatever MODE says, as here).
  bool lift_float_extra(const Step& s, const LiftForm& form, Value* exec) {
    using K = LiftForm::Kind;
    const Operand none;
    auto at = [&](std::size_t i) -> const Operand& { return i < s.ops.size() ? s.ops[i] : none; };
    if (at(0).kind != Operand::Kind::vgpr) return false;
    const unsigned d = at(0).reg;
    if (form.kind == K::f32_unary || form.kind == K::convert32) {  // one lane step, as in a fused run
      if (!one_source_float(s)) return false;
      return guarded(true, [&] {
        const LaneStep l = prepare_lane(s, exec);
        lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
          std::map<unsigned, Value*> none_yet;
          store_lane(d, lane, active, lane_value(l, lane, none_yet));
          return nullptr;
        });
      });
    }
    if (form.kind == K::div_scale) {  // d, mask, s0, denominator, numerator
      if (at(1).kind != Operand::Kind::sgpr || at(1).reg >= 126) return false;
      llvm::Function* fn = lane_function("gpuport_lane_div_scale_f32");
      const Source s0 = source(at(2)), den = source(at(3)), num = source(at(4));
      Value* mask = lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
        b_.CreateStore(b_.getInt8(0), scc_slot_);
        Value* r = b_.CreateCall(fn, {as_float(read(s0, lane)), as_float(read(den, lane)), as_float(read(num, lane)), scc_slot_});
        store_lane(d, lane, active, as_int(r));
        return b_.CreateICmpNE(b_.CreateLoad(i8_, scc_slot_), b_.getInt8(0));
      });
      store_mask(at(1).reg, mask);
      return true;
    }
    if (form.kind == K::div_fmas) {  // d, a, b, c; VCC says which lanes were scaled
      llvm::Function* fn = lane_function("gpuport_lane_div_fmas_f32");
      Value* vcc = mask_at(encoding::vcc_lo);
      const Source a = source(at(1)), bsrc = source(at(2)), c = source(at(3));
      lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
        Value* scaled = b_.CreateTrunc(b_.CreateLShr(vcc, b_.CreateZExt(lane, i64_)), i1_);
        Value* r = b_.CreateCall(fn, {as_float(read(a, lane)), as_float(read(bsrc, lane)), as_float(read(c, lane)), scaled});
        store_lane(d, lane, active, as_int(r));
        return nullptr;
      });
      return true;
    }
    // div_fixup: d, quotient, denominator, numerator
    llvm::Function* fn = lane_function("gpuport_lane_div_fixup_f32");
    const Source q = source(at(1)), den = source(at(2)), num = source(at(3));
    lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
      store_lane(d, lane, active, as_int(b_.CreateCall(fn, {as_float(read(q, lane)), as_float(read(den, lane)), as_float(read(num, lane))})));
      return nullptr;
    });
    return true;
  }

  // ---- scalar ALU: read_scalar / read_scalar64 / write_scalar / write_scalar64 as machine.cc
  // has them, for the operand kinds the lifter takes (others: the handler).
  Value* scalar32(const Operand& o) {
    if (o.kind == Operand::Kind::sgpr) return o.reg == encoding::null ? (Value*)b_.getInt32(0) : b_.CreateLoad(i32_, sgpr(o.reg));
    return b_.getInt32(static_cast<std::uint32_t>(o.value));
  }
  Value* scalar64(const Operand& o) {
    if (o.kind == Operand::Kind::sgpr) {
      if (o.reg == encoding::null) return b_.getInt64(0);
      Value* lo = b_.CreateZExt(b_.CreateLoad(i32_, sgpr(o.reg)), i64_);
      Value* hi = b_.CreateZExt(b_.CreateLoad(i32_, sgpr((o.reg + 1) & 127)), i64_);
      return b_.CreateOr(lo, b_.CreateShl(hi, 32));
    }
    if (o.kind == Operand::Kind::int_const) return b_.getInt64(static_cast<std::uint64_t>(o.value));
    return b_.getInt64(static_cast<std::uint32_t>(o.value));  // a literal: zero-extended
  }
  void write32(const Operand& o, Value* v) {
    if (o.kind != Operand::Kind::sgpr || o.reg == encoding::null) return;
    b_.CreateStore(o.reg == encoding::exec_hi && wave_ == 32 ? (Value*)b_.getInt32(0) : v, sgpr(o.reg));
  }
  void write64(const Operand& o, Value* v) {
    if (o.kind != Operand::Kind::sgpr || o.reg == encoding::null) return;
    b_.CreateStore(b_.CreateTrunc(v, i32_), sgpr(o.reg));
    b_.CreateStore(b_.CreateTrunc(b_.CreateLShr(v, 32), i32_), sgpr((o.reg + 1) & 127));
    if (o.reg == encoding::exec_lo && wave_ == 32) b_.CreateStore(b_.getInt32(0), sgpr(encoding::exec_hi));
  }
  Value* scc() { return b_.CreateICmpNE(b_.CreateLoad(i8_, F(f_scc)), b_.getInt8(0)); }
  void set_scc(Value* bit) { b_.CreateStore(b_.CreateZExt(bit, i8_), F(f_scc)); }
  // Calls a lane function that takes SCC by pointer (bool*), and stores SCC after it.
  Value* call_with_scc(llvm::Function* fn, Value* a, Value* bv) {
    b_.CreateStore(b_.CreateZExt(scc(), i8_), scc_slot_);
    Value* r = b_.CreateCall(fn, {a, bv, scc_slot_});
    set_scc(b_.CreateICmpNE(b_.CreateLoad(i8_, scc_slot_), b_.getInt8(0)));
    return r;
  }

  bool lift_scalar(const Step& s, const LiftForm& form) {
    using K = LiftForm::Kind;
    const Operand none;
    auto at = [&](std::size_t i) -> const Operand& { return i < s.ops.size() ? s.ops[i] : none; };
    if (form.kind == K::get_pc) {  // getpc's write_scalar64 (semantics_control.cc)
      if (at(0).kind != Operand::Kind::sgpr || at(0).reg >= 128) return false;
      write64(at(0), b_.CreateAdd(F(f_image_base), b_.getInt64(s.instruction->address + s.instruction->size)));
      return true;
    }
    if (form.kind == K::scalar_unary) {
      // sop1's reads and writes (read_mask / read_scalar[64], write_mask / write_scalar[64]) for
      // SGPR and constant sources and SGPR destinations; EXEC in the saveexec family.
      const auto op = static_cast<lanes::S1>(form.op);
      const lanes::S1Shape shape = lanes::s1_shape(op);
      if (!scalar_source(at(1)) || at(0).kind != Operand::Kind::sgpr || at(0).reg >= 128) return false;
      if (shape.saveexec && (at(1).kind != Operand::Kind::sgpr || at(1).reg >= 126 || at(0).reg >= 126)) return false;
      llvm::Function* fn = lane_function(std::string("gpuport_lane_s1_") + lanes::s1_op_name(op));
      Value* x = shape.saveexec ? mask_at(at(1).reg) : shape.wide_source ? scalar64(at(1)) : b_.CreateZExt(scalar32(at(1)), i64_);
      Value* old = shape.saveexec ? exec()
                   : shape.cmov   ? (shape.wide_result ? scalar64(at(0)) : b_.CreateZExt(scalar32(at(0)), i64_))
                                  : b_.getInt64(0);
      b_.CreateStore(b_.CreateZExt(scc(), i8_), scc_slot_);
      Value* r = b_.CreateCall(fn, {x, old, b_.getInt64(wave_ == 64 ? ~0ull : 0xffffffffull), scc_slot_});
      set_scc(b_.CreateICmpNE(b_.CreateLoad(i8_, scc_slot_), b_.getInt8(0)));
      if (shape.saveexec) {
        store_mask(at(0).reg, shape.wrexec ? r : old);
        store_mask(encoding::exec_lo, r);  // set_exec: in wave32, exec_hi 0
        if (wave_ == 32) b_.CreateStore(b_.getInt32(0), sgpr(encoding::exec_hi));
      } else if (shape.wide_result) {
        write64(at(0), r);
      } else {
        write32(at(0), b_.CreateTrunc(r, i32_));
      }
      return true;
    }
    if (form.kind == K::scalar_compare) {
      if (!scalar_source(at(0)) || !scalar_source(at(1))) return false;
      llvm::Function* fn = lane_function(form.is_signed ? "gpuport_lane_scmp_i32" : "gpuport_lane_scmp_u32");
      Value* r = b_.CreateCall(fn, {scalar32(at(0)), scalar32(at(1)), b_.getInt32(form.op)});
      set_scc(b_.CreateICmpNE(b_.CreateZExtOrTrunc(r, i8_), b_.getInt8(0)));
      return true;
    }
    if (!scalar_source(at(1)) || !scalar_source(at(2)) || (at(0).kind != Operand::Kind::sgpr || at(0).reg >= 128)) return false;
    if (form.kind == K::scalar_op) {
      llvm::Function* fn = lane_function(std::string("gpuport_lane_s2_") + lanes::s2_op_name(static_cast<lanes::S2>(form.op)));
      write32(at(0), call_with_scc(fn, scalar32(at(1)), scalar32(at(2))));
      return true;
    }
    if (form.kind != K::scalar_bits) return false;
    const auto op = static_cast<lanes::Bits>(form.op);
    const std::string name = std::string(form.wide ? "gpuport_lane_bits64_" : "gpuport_lane_bits32_") + lanes::bits_op_name(op);
    llvm::Function* fn = lane_function(name);
    if (!form.wide) {
      write32(at(0), call_with_scc(fn, scalar32(at(1)), scalar32(at(2))));
      return true;
    }
    // 64-bit forms: shift amounts and bit-field controls are 32-bit sources; bfm's first too.
    using B = lanes::Bits;
    const bool b32 = op == B::lshl || op == B::lshr || op == B::ashr || op == B::bfe_u || op == B::bfe_i || op == B::bfm;
    Value* a = op == B::bfm ? b_.CreateZExt(scalar32(at(1)), i64_) : scalar64(at(1));
    Value* bv = b32 ? b_.CreateZExt(scalar32(at(2)), i64_) : scalar64(at(2));
    write64(at(0), call_with_scc(fn, a, bv));
    return true;
  }

  // ---- memory: an s_load's address, checked against the last region hit inline and otherwise
  // by the interpreter's lookup (gpuport_jit_pointer; lane 0's report). A null pointer is the
  // step's fault. (Vector accesses check all their lanes in one loop and leave the rest to their
  // handlers: lift_memory.)
  Value* scalar_pointer(Value* address, unsigned bytes, std::size_t i) {
    Value* begin = b_.CreateLoad(i64_, F(f_region_begin));
    Value* end = b_.CreateLoad(i64_, F(f_region_end));
    Value* last = b_.CreateAdd(address, b_.getInt64(bytes));
    Value* inside = b_.CreateAnd(b_.CreateAnd(b_.CreateICmpUGE(address, begin), b_.CreateICmpULE(last, end)), b_.CreateICmpUGE(last, address));
    Value* direct = b_.CreateIntToPtr(address, ptr_);
    BasicBlock* fast = b_.GetInsertBlock();
    auto* slow = block("lookup");
    auto* join = block("pointer");
    b_.CreateCondBr(inside, join, slow);
    b_.SetInsertPoint(slow);
    auto* type = llvm::FunctionType::get(ptr_, {ptr_, i64_, i64_}, false);
    llvm::FunctionCallee callee = m_.getOrInsertFunction("gpuport_jit_pointer", type);
    Value* found = b_.CreateCall(callee, {frame_, address, b_.getInt64(bytes)});
    auto* faulted = block("fault");
    auto* ok = block("found");
    b_.CreateCondBr(b_.CreateIsNull(found), faulted, ok);
    b_.SetInsertPoint(faulted);
    b_.CreateStore(b_.getInt64(i), F(f_pc));
    leave_with(1);
    b_.SetInsertPoint(ok);
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    auto* p = b_.CreatePHI(ptr_, 2);
    p->addIncoming(direct, fast);
    p->addIncoming(found, ok);
    return p;
  }

  bool lift_memory(const Step& s, const LiftForm& form, Value* exec, std::size_t i) {
    using K = LiftForm::Kind;
    const Operand none;
    auto at = [&](std::size_t k) -> const Operand& { return k < s.ops.size() ? s.ops[k] : none; };
    const unsigned dwords = form.op;
    if (form.kind == K::scalar_load) {
      // s_load_b<32*N> sdst, sbase, soffset|imm [offset:imm], lane 0's check.
      if (at(0).kind != Operand::Kind::sgpr || at(1).kind != Operand::Kind::sgpr || at(1).reg >= 128) return false;
      const Operand& off = at(2);
      Value* address = b_.CreateAdd(scalar64(at(1)), b_.getInt64(static_cast<std::uint64_t>(s.mods.offset)));
      if (off.kind == Operand::Kind::sgpr) {
        if (off.reg >= 128) return false;
        address = b_.CreateAdd(address, b_.CreateZExt(scalar32(off), i64_));
      } else if (off.kind == Operand::Kind::int_const || off.kind == Operand::Kind::literal) {
        address = b_.CreateAdd(address, b_.getInt64(static_cast<std::uint64_t>(off.value)));
      }
      Value* p = scalar_pointer(address, 4 * dwords, i);
      std::vector<Value*> values;
      for (unsigned k = 0; k < dwords; ++k)
        values.push_back(b_.CreateAlignedLoad(i32_, b_.CreateConstInBoundsGEP1_64(i8_, p, 4 * k), llvm::Align(1)));
      for (unsigned k = 0; k < dwords; ++k) b_.CreateStore(values[k], sgpr((at(0).reg + k) & 127));
      return true;
    }
    // global_load vdst, vaddr, saddr|off / global_store vaddr, vdata, saddr|off [offset:imm];
    // ds_load vdst, vaddr [offset:imm] / ds_store vaddr, vdata [offset:imm];
    // ds_load_2addr vdst, vaddr offset0:a offset1:b / ds_store_2addr vaddr, vdata0, vdata1 ...
    const bool two = form.kind == K::lds_load2 || form.kind == K::lds_store2;
    const bool lds = two || form.kind == K::lds_load || form.kind == K::lds_store;
    const bool load = form.kind == K::global_load || form.kind == K::lds_load || form.kind == K::lds_load2;
    const Operand& reg = at(load ? 0 : 1);
    const Operand& vaddr = at(load ? 1 : 0);
    const Operand& saddr = lds ? none : at(2);
    if (reg.kind != Operand::Kind::vgpr || vaddr.kind != Operand::Kind::vgpr) return false;
    // Each lane's accesses: an offset from its address and the first VGPR of the data. Both of a
    // 2-address form's are checked before either moves data (ds_2addr's order); stores go word by
    // word, the first address's before the second's, so that overlapping ones end as they do there.
    struct Access {
      std::uint64_t offset;
      unsigned reg;
    };
    std::vector<Access> accesses;
    if (two) {
      const std::uint64_t unit = 4ull * dwords * (form.wide ? 64 : 1);
      const std::uint64_t o0 = static_cast<std::uint64_t>(s.mods.offset0) * unit, o1 = static_cast<std::uint64_t>(s.mods.offset1) * unit;
      if (load) {
        accesses = {{o0, reg.reg}, {o1, reg.reg + dwords}};
      } else {
        if (at(2).kind != Operand::Kind::vgpr) return false;
        accesses = {{o0, reg.reg}, {o1, at(2).reg}};
      }
    } else {
      accesses = {{static_cast<std::uint64_t>(s.mods.offset), reg.reg}};
    }
    const bool scalar_base = saddr.kind == Operand::Kind::sgpr;
    if (scalar_base && saddr.reg >= 128) return false;
    if (!scalar_base && saddr.kind != Operand::Kind::off && saddr.kind != Operand::Kind::none) return false;
    Value* base = scalar_base ? scalar64(saddr) : nullptr;
    auto lane_address = [&](Value* lane, std::uint64_t offset) -> Value* {
      if (lds) {  // a 32-bit offset in the LDS
        Value* x = b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, vgpr_column(vaddr.reg), lane));
        return b_.CreateZExt(b_.CreateAdd(x, b_.getInt32(static_cast<std::uint32_t>(offset))), i64_);
      }
      Value* lo = b_.CreateZExt(b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, vgpr_column(vaddr.reg), lane)), i64_);
      Value* address;
      if (scalar_base) {
        address = b_.CreateAdd(base, lo);
      } else {
        Value* hi = b_.CreateZExt(b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, vgpr_column(vaddr.reg + 1), lane)), i64_);
        address = b_.CreateOr(lo, b_.CreateShl(hi, 32));
      }
      return b_.CreateAdd(address, b_.getInt64(offset));
    };
    // The lanes in order, each active one complete before the next (all inside: no checks).
    auto lanes_in_order = [&](BasicBlock* done) {
      BasicBlock* before = b_.GetInsertBlock();
      auto* loop = block("mem.lanes");
      auto* body = block("mem.lane");
      auto* next = block("mem.next");
      auto* after = block("mem.end");
      b_.CreateBr(loop);
      b_.SetInsertPoint(loop);
      auto* lane = b_.CreatePHI(i32_, 2);
      lane->addIncoming(b_.getInt32(0), before);
      Value* active = b_.CreateTrunc(b_.CreateLShr(exec, b_.CreateZExt(lane, i64_)), i1_);
      b_.CreateCondBr(active, body, next);
      b_.SetInsertPoint(body);
      std::vector<Value*> ps;
      for (const Access& a : accesses) {
        Value* address = lane_address(lane, a.offset);
        ps.push_back(lds ? b_.CreateInBoundsGEP(i8_, F(f_lds), address) : b_.CreateIntToPtr(address, ptr_));
      }
      if (load) {
        std::vector<Value*> values;
        for (std::size_t x = 0; x < accesses.size(); ++x)
          for (unsigned k = 0; k < dwords; ++k)
            values.push_back(b_.CreateAlignedLoad(i32_, b_.CreateConstInBoundsGEP1_64(i8_, ps[x], 4 * k), llvm::Align(1)));
        for (std::size_t x = 0, n = 0; x < accesses.size(); ++x)
          for (unsigned k = 0; k < dwords; ++k)
            b_.CreateStore(values[n++], b_.CreateInBoundsGEP(i32_, vgpr_column(accesses[x].reg + k), lane));
      } else {
        for (unsigned k = 0; k < dwords; ++k)
          for (std::size_t x = 0; x < accesses.size(); ++x) {
            Value* value = b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, vgpr_column(accesses[x].reg + k), lane));
            b_.CreateAlignedStore(value, b_.CreateConstInBoundsGEP1_64(i8_, ps[x], 4 * k), llvm::Align(1));
          }
      }
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
      Value* following = b_.CreateAdd(lane, b_.getInt32(1));
      lane->addIncoming(following, next);
      b_.CreateCondBr(b_.CreateICmpULT(following, b_.getInt32(wave_)), loop, after);
      b_.SetInsertPoint(after);
      b_.CreateBr(done);
    };
    // First whether every active lane's accesses lie in the last region hit (global) or in the
    // LDS (a loop LLVM vectorizes): then they need no check and no call, and their loop may
    // vectorize too. Otherwise the step goes to its handler.
    Value* slot = lds ? nullptr : b_.CreateConstInBoundsGEP1_64(i64_, F(f_regions), 2 * (next_region_slot_++ % Context::kJitRegionSlots));
    Value* begin = lds ? nullptr : b_.CreateLoad(i64_, slot);
    Value* end = lds ? F(f_lds_size) : b_.CreateLoad(i64_, b_.CreateConstInBoundsGEP1_64(i64_, slot, 1));
    // In the same pass, for a single access: whether each lane's address is the previous
    // lane's plus a stride, lane 1's distance from lane 0 (a coalesced access: the access's
    // size; a sliding window of wide loads: 4; a strided or column access: anything).
    const bool single = accesses.size() == 1;
    const std::uint64_t size = 4ull * dwords;
    Value* first = single ? lane_address(b_.getInt32(0), accesses[0].offset) : nullptr;
    Value* stride = single ? b_.CreateSub(lane_address(b_.getInt32(1), accesses[0].offset), first) : nullptr;
    const auto [outside, scattered] = lane_masks<2>(exec, [&](Value* lane, Value*) -> std::array<Value*, 2> {
      Value* any_outside = b_.getFalse();
      Value* apart = nullptr;
      for (const Access& a : accesses) {
        Value* address = lane_address(lane, a.offset);
        Value* last = b_.CreateAdd(address, b_.getInt64(4 * dwords));
        Value* inside = lds ? b_.CreateICmpULE(last, end)  // a zero-extended 32-bit offset: no wrap
                            : b_.CreateAnd(b_.CreateAnd(b_.CreateICmpUGE(address, begin), b_.CreateICmpULE(last, end)),
                                           b_.CreateICmpUGE(last, address));
        any_outside = b_.CreateOr(any_outside, b_.CreateNot(inside));
        if (single) apart = b_.CreateICmpNE(address, b_.CreateAdd(first, b_.CreateMul(b_.CreateZExt(lane, i64_), stride)));
      }
      return {any_outside, apart};
    });
    auto* fast = block("mem.fast");
    auto* checked = block("mem.checked");
    auto* done = block("mem.done");
    b_.CreateCondBr(b_.CreateICmpEQ(outside, b_.getInt64(0)), fast, checked);
    b_.SetInsertPoint(fast);
    if (single) {
      // Every lane active at evenly spaced addresses, the access's size apart (coalesced) or,
      // for a load of more than a word, 4 bytes apart (a window of wide loads, as a convolution
      // row unrolls): each word of the data is one vector load or store instead of a lane loop.
      // Other strides go lane by lane (a loop at the stride, without per-lane tests, ran
      // strided-access 8% slower), as stores at any other stride must (overlapping ones end in
      // the lanes' order).
      const std::uint64_t all = wave_ == 64 ? ~0ull : (1ull << wave_) - 1;
      Value* even = b_.CreateAnd(b_.CreateICmpEQ(exec, b_.getInt64(all)), b_.CreateICmpEQ(scattered, b_.getInt64(0)));
      auto* together = block("mem.even");
      auto* apart = block("mem.apart");
      b_.CreateCondBr(even, together, apart);
      b_.SetInsertPoint(together);
      Value* base = lds ? b_.CreateInBoundsGEP(i8_, F(f_lds), first) : b_.CreateIntToPtr(first, ptr_);
      const unsigned data = accesses[0].reg;
      auto words = [&](Value* step) {
        lane_loop(exec, [&](Value* lane, Value*) -> Value* {
          Value* at_lane = b_.CreateInBoundsGEP(i8_, base, b_.CreateMul(b_.CreateZExt(lane, i64_), step));
          for (unsigned k = 0; k < dwords; ++k) {
            Value* word = b_.CreateConstInBoundsGEP1_64(i8_, at_lane, 4 * k);
            Value* reg_lane = b_.CreateInBoundsGEP(i32_, vgpr_column(data + k), lane);
            if (load) b_.CreateStore(b_.CreateAlignedLoad(i32_, word, llvm::Align(1)), reg_lane);
            else b_.CreateAlignedStore(b_.CreateLoad(i32_, reg_lane), word, llvm::Align(1));
          }
          return nullptr;
        });
        b_.CreateBr(done);
      };
      auto* coalesced = block("mem.coalesced");
      llvm::SwitchInst* sw = b_.CreateSwitch(stride, apart, 2);
      sw->addCase(b_.getInt64(size), coalesced);
      if (load && dwords > 1) {
        auto* window = block("mem.window");
        sw->addCase(b_.getInt64(4), window);
        b_.SetInsertPoint(window);
        words(b_.getInt64(4));
      }
      b_.SetInsertPoint(coalesced);
      words(b_.getInt64(size));
      b_.SetInsertPoint(apart);
    }
    lanes_in_order(done);
    // Otherwise the step's handler: the interpreter's checks lane by lane, its lookup of each
    // address, its fault report. It counts the step itself, so the lifted count is passed by.
    // A global access's slot then becomes the region its last lane hit.
    b_.SetInsertPoint(checked);
    BasicBlock* after = next_block(i);
    if (!lds) {
      after = block("mem.remember");
      llvm::IRBuilder<> r(after);
      r.CreateStore(r.CreateLoad(i64_, F(f_region_begin)), slot);  // the context's fields: the loads of the pointers
      r.CreateStore(r.CreateLoad(i64_, F(f_region_end)), r.CreateConstInBoundsGEP1_64(i64_, slot, 1));
      r.CreateBr(next_block(i));
    }
    call_handler(i, true, after);
    b_.SetInsertPoint(done);
    return true;
  }

  // ---- ds_bpermute_b32 d, address, data [offset]: every lane's result first, into a column of
  // its own (the source lane's data, or 0 where that lane is outside EXEC), then the active lanes
  // of d, which may be the address or the data.
  bool lift_permute(const Step& s, Value* exec) {
    if (s.ops.size() < 3 || s.ops[0].kind != Operand::Kind::vgpr || s.ops[1].kind != Operand::Kind::vgpr ||
        s.ops[2].kind != Operand::Kind::vgpr)
      return false;
    llvm::Function* fn = lane_function("gpuport_lane_permute_lane");
    Value* addresses = vgpr_column(s.ops[1].reg);
    Value* data = vgpr_column(s.ops[2].reg);
    lane_loop(exec, [&](Value* lane, Value*) -> Value* {
      Value* address = b_.CreateAdd(b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, addresses, lane)), b_.getInt32(static_cast<std::uint32_t>(s.mods.offset)));
      Value* other = b_.CreateCall(fn, {lane, address});
      Value* there = b_.CreateTrunc(b_.CreateLShr(exec, b_.CreateZExt(other, i64_)), i1_);
      Value* value = b_.CreateSelect(there, b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, data, other)), b_.getInt32(0));
      b_.CreateStore(value, b_.CreateInBoundsGEP(i32_, vopd_column_, lane));
      return nullptr;
    });
    lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
      store_lane(s.ops[0].reg, lane, active, b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, vopd_column_, lane)));
      return nullptr;
    });
    return true;
  }

  // ---- VOPD: both halves read their sources before either writes. X's results go to a column
  // of their own (first a copy of X's destination, for the lanes outside EXEC), Y runs, then the
  // column is X's destination: what the interpreter's vopd does. A half the lifter refuses
  // leaves the pair to its handler; so does a float half in a mode not the default (nothing of
  // the pair is in the registers yet when the check fails).
  void lift_vopd(const Step& s, Value* exec) {
    const Step& x = *s.vopd_x;
    const Step& y = *s.vopd_y;
    const unsigned bytes = 4 * wave_;
    Value* xd = b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(x.ops[0].reg) * wave_);
    b_.CreateMemCpy(vopd_column_, llvm::MaybeAlign(4), xd, llvm::MaybeAlign(4), bytes);
    redirect_ = vopd_column_;
    redirect_reg_ = x.ops[0].reg;
    lift_vector(x, vector_lift_form(x.handler), exec);
    redirect_ = nullptr;
    lift_vector(y, vector_lift_form(y.handler), exec);
    b_.CreateMemCpy(b_.CreateConstInBoundsGEP1_64(i32_, F(f_v), std::uint64_t(x.ops[0].reg) * wave_), llvm::MaybeAlign(4), vopd_column_,
                    llvm::MaybeAlign(4), bytes);
  }

  // Carry chains, v_mad_u64_u32 / v_mad_i64_i32 and 64-bit shifts: the address arithmetic of
  // nearly every kernel. Sources as the interpreter reads them (add_carry: Lanes32, with abs/neg;
  // mad64 and shift64: read_lane / read_lane64, without).
  bool lift_wide(const Step& s, const LiftForm& form, Value* exec) {
    using K = LiftForm::Kind;
    const Operand none;
    auto at = [&](std::size_t k) -> const Operand& { return k < s.ops.size() ? s.ops[k] : none; };
    auto plain = [](Operand o) {
      o.abs = o.neg = false;
      return o;
    };
    auto mask_target = [&](const Operand& o) { return o.kind == Operand::Kind::sgpr && (o.reg < 126 || o.reg == encoding::null); };
    auto store_wide = [&](unsigned reg, Value* lane, Value* active, Value* r) {
      store_lane(reg, lane, active, b_.CreateTrunc(r, i32_));
      store_lane(reg + 1, lane, active, b_.CreateTrunc(b_.CreateLShr(r, 32), i32_));
    };
    if (at(0).kind != Operand::Kind::vgpr) return false;
    if (form.kind == K::shift64) {
      auto x = wide(at(2));
      if (!x || !readable_source(at(1))) return false;
      const Source n = source(plain(at(1)));
      llvm::Function* fn = lane_function("gpuport_lane_shift64");
      lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
        store_wide(at(0).reg, lane, active, b_.CreateCall(fn, {b_.getInt32(form.op), read(n, lane), read_wide(*x, lane)}));
        return nullptr;
      });
      return true;
    }
    if (!mask_target(at(1))) return false;
    Value* carry_slot = scc_slot_;  // a byte for the lane function's carry out
    if (form.kind == K::mad64) {
      auto c = wide(at(4));
      if (!c || !readable_source(at(2)) || !readable_source(at(3))) return false;
      const Source x = source(plain(at(2))), y = source(plain(at(3)));
      llvm::Function* fn = lane_function("gpuport_lane_mad64");
      Value* mask = lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
        b_.CreateStore(b_.getInt8(0), carry_slot);
        Value* r = b_.CreateCall(fn, {b_.getInt32(form.op), read(x, lane), read(y, lane), read_wide(*c, lane), carry_slot});
        store_wide(at(0).reg, lane, active, r);
        return b_.CreateICmpNE(b_.CreateLoad(i8_, carry_slot), b_.getInt8(0));
      });
      store_mask(at(1).reg, mask);
      return true;
    }
    // add_carry d, sdst, x, y[, carry-in mask]
    if (!readable_source(at(2)) || !readable_source(at(3))) return false;
    Value* carry_in = b_.getInt64(0);
    if (form.op >= 3) {
      if (at(4).kind != Operand::Kind::sgpr || at(4).reg >= 128) return false;
      carry_in = mask_at(at(4).reg);
      if (at(4).reg == encoding::null) carry_in = b_.getInt64(0);
    }
    const Source x = source(at(2)), y = source(at(3));
    llvm::Function* fn = lane_function("gpuport_lane_carry");
    Value* mask = lane_loop(exec, [&](Value* lane, Value* active) -> Value* {
      Value* ci = b_.CreateTrunc(b_.CreateAnd(b_.CreateLShr(carry_in, b_.CreateZExt(lane, i64_)), b_.getInt64(1)), i32_);
      b_.CreateStore(b_.getInt8(0), carry_slot);
      Value* r = b_.CreateCall(fn, {b_.getInt32(form.op), read(x, lane), read(y, lane), ci, carry_slot});
      store_lane(at(0).reg, lane, active, r);
      return b_.CreateICmpNE(b_.CreateLoad(i8_, carry_slot), b_.getInt8(0));
    });
    store_mask(at(1).reg, mask);
    return true;
  }

  // Emits body() behind the default-float-mode check when `is_float` (the handler runs
  // otherwise); the insertion point ends in a block after both. Returns true (lifted).
  template <typename Body>
  bool guarded(bool is_float, Body&& body, bool f64 = false) {
    if (!is_float) {
      body();
      return true;
    }
    auto* lifted = block("lifted");
    auto* slow = block("handler");
    auto* join = block("join");
    b_.CreateCondBr(f64 ? default_f64_mode() : default_f32_mode(), lifted, slow);
    b_.SetInsertPoint(lifted);
    body();
    b_.CreateBr(join);
    b_.SetInsertPoint(slow);
    slow_paths_.push_back({slow, join});
    b_.SetInsertPoint(join);
    return true;
  }

  // The step's handler, called through gpuport_jit_call_step (jit.cc), which also checks the
  // limit and counts: a few instructions per step here, whatever the handler does. `counted`: a
  // lifted step's fallback, whose limit and lanes were seen to already
  // (gpuport_jit_call_counted_step).
  // The handler where the float mode is not the default one (guarded's other branches).
  void handlers_for_slow_paths(std::size_t i) {
    for (auto [slow, join] : slow_paths_) {
      (void)join;
      b_.SetInsertPoint(slow);
      call_handler(i, true);
    }
  }
  void call_handler(std::size_t i, bool counted = false, BasicBlock* then = nullptr) {
    auto* type = llvm::FunctionType::get(i32_, {ptr_, i64_}, false);
    llvm::FunctionCallee callee = m_.getOrInsertFunction(counted ? "gpuport_jit_call_counted_step" : "gpuport_jit_call_step", type);
    Value* r = b_.CreateCall(callee, {frame_, b_.getInt64(i)});
    b_.CreateCondBr(b_.CreateICmpEQ(r, b_.getInt32(0)), then ? then : next_block(i), called_exit_);
    called_codes_->addIncoming(r, b_.GetInsertBlock());
  }
  // ---- fused runs (mark_fused_runs): a run of consecutive steps that are lane operations (those
  // vopd_liftable takes, alone or as VOPD pairs), scalar ALU operations and no-ops is compiled as
  // one loop over the lanes, in which each VGPR a step writes stays in a register until the run's
  // end. Lanes do not depend on each other in such a run, so lane by lane is step by step; the
  // scalar steps (which read no VGPR) run first, in order, and each lane step reads the scalar
  // sources, mask and EXEC of its own place in the run. A run is entered at its first step only
  // and runs whole; in a float mode other than the default (where it has float steps) the
  // interpreter runs its steps.

  // A lane step's sources as read before the loop: VGPR columns stay columns.
  struct LaneStep {
    const Step* step;
    LiftForm form;
    Value* exec;
    Source sources[3];
    Source high[3];         // f64 sources' high words
    Value* mask = nullptr;  // cndmask
  };
  LaneStep prepare_lane(const Step& s, Value* exec) {
    LaneStep l{&s, vector_lift_form(s.handler), exec, {}, nullptr};
    const Operand none;
    auto at = [&](std::size_t k) -> const Operand& { return k < s.ops.size() ? s.ops[k] : none; };
    using K = LiftForm::Kind;
    if (l.form.kind == K::int_op) {
      const int count = lanes::int_source_count(static_cast<lanes::I>(l.form.op));
      l.sources[0] = source(at(1));
      l.sources[1] = source(count >= 2 ? at(2) : none);
      l.sources[2] = source(count >= 3 ? at(3) : none);
    } else if (l.form.kind == K::f32_binary) {
      l.sources[0] = source(at(1));
      l.sources[1] = source(at(2));
    } else if (l.form.kind == K::f32_unary || l.form.kind == K::convert32) {
      l.sources[0] = source(at(1));
    } else if (l.form.kind == K::f64_binary) {
      const int count = static_cast<lanes::D2>(l.form.op) == lanes::D2::fma ? 3 : 2;
      for (int k = 0; k < count; ++k) {
        const SourcePair p = source_pair(at(k + 1));
        l.sources[k] = p.lo;
        l.high[k] = p.hi;
      }
      if (count == 2) l.sources[2].value = l.high[2].value = b_.getInt32(0);
    } else if (l.form.kind == K::fma_f32) {
      l.sources[0] = source(at(1));
      l.sources[1] = source(at(2));
      l.sources[2] = source(l.form.op == 1 ? at(0) : at(3));
    } else {  // cndmask
      l.sources[0] = source(at(1));
      l.sources[1] = source(at(2));
      l.mask = s.ops.size() >= 4 ? mask_at(at(3).reg) : mask_at(encoding::vcc_lo);
    }
    return l;
  }
  // One lane of a lane step: its result (before EXEC), with VGPR sources from `regs` (the run's
  // values so far) or the columns.
  Value* lane_value(const LaneStep& l, Value* lane, std::map<unsigned, Value*>& regs) {
    auto get = [&](int k, bool high = false) -> Value* {
      const Source& src = high ? l.high[k] : l.sources[k];
      Value* x;
      if (src.column) {
        const unsigned reg = source_reg(*l.step, l.form, k) + (high ? 1 : 0);
        auto it = regs.find(reg);
        x = it != regs.end() ? it->second : b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, src.column, lane));
      } else {
        x = src.value;
      }
      if (src.and_mask != ~0u) x = b_.CreateAnd(x, b_.getInt32(src.and_mask));
      if (src.xor_mask) x = b_.CreateXor(x, b_.getInt32(src.xor_mask));
      return x;
    };
    using K = LiftForm::Kind;
    switch (l.form.kind) {
      case K::int_op: {
        llvm::Function* fn = lane_function(std::string("gpuport_lane_int_") + lanes::int_op_name(static_cast<lanes::I>(l.form.op)));
        return b_.CreateCall(fn, {get(0), get(1), get(2), lane});
      }
      case K::f32_binary: {
        llvm::Function* fn = lane_function(std::string("gpuport_lane_f32_") + lanes::f2_op_name(static_cast<lanes::F2>(l.form.op)));
        return as_int(b_.CreateCall(fn, {as_float(get(0)), as_float(get(1))}));
      }
      case K::fma_f32:
        return as_int(b_.CreateCall(lane_function("gpuport_lane_fma_f32"), {as_float(get(0)), as_float(get(1)), as_float(get(2))}));
      case K::f32_unary: {
        llvm::Function* fn = lane_function(std::string("gpuport_lane_f1_") + lanes::f1_op_name(static_cast<lanes::F1>(l.form.op)));
        return as_int(b_.CreateCall(fn, {as_float(get(0))}));
      }
      case K::convert32:
        return b_.CreateCall(lane_function(std::string("gpuport_lane_cv32_") + lanes::cv32_op_name(static_cast<lanes::Cv>(l.form.op))), {get(0)});
      case K::f64_binary: {  // the 64-bit result
        llvm::Function* fn = lane_function(std::string("gpuport_lane_f64_") + lanes::d2_op_name(static_cast<lanes::D2>(l.form.op)));
        auto x = [&](int k) { return as_double(join64(get(k), get(k, true))); };
        return b_.CreateBitCast(b_.CreateCall(fn, {x(0), x(1), x(2)}), i64_);
      }
      default: {
        Value* take_b = b_.CreateTrunc(b_.CreateLShr(l.mask, b_.CreateZExt(lane, i64_)), i1_);
        return b_.CreateSelect(take_b, get(1), get(0));
      }
    }
  }
  // The VGPR a source column k of a lane step reads (its operand's register).
  static unsigned source_reg(const Step& s, const LiftForm& f, int k) {
    using K = LiftForm::Kind;
    if (f.kind == K::fma_f32 && f.op == 1 && k == 2) return s.ops[0].reg;  // fmac's addend
    return s.ops[static_cast<std::size_t>(k) + 1].reg;
  }

  // Emits the fused run [a, b) at the insertion point; continues at step b.
  void lift_fused(std::size_t a, std::size_t b) {
    struct Entry {
      LaneStep x, y;
      bool pair = false;
    };
    std::vector<Entry> entries;
    Value* lanes_sum = b_.getInt64(0);
    for (std::size_t i = a; i < b; ++i) {
      const Step& s = k_.steps[i];
      Value* e = exec();
      lanes_sum = b_.CreateAdd(lanes_sum, b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, e));
      switch (member(s)) {
        case Member::scalar: lift_scalar(s, scalar_lift_form(s.handler)); break;
        case Member::lane: entries.push_back({prepare_lane(s, e), {}, false}); break;
        case Member::pair: entries.push_back({prepare_lane(*s.vopd_x, e), prepare_lane(*s.vopd_y, e), true}); break;
        default: break;
      }
    }
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, field(f_lanes)), lanes_sum), field(f_lanes));
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, field(f_executed)), b_.getInt64(b - a)), field(f_executed));
    lane_loop(b_.getInt64(0), [&](Value* lane, Value*) -> Value* {
      std::map<unsigned, Value*> regs;
      auto old = [&](unsigned r) -> Value* {
        auto it = regs.find(r);
        return it != regs.end() ? it->second : b_.CreateLoad(i32_, b_.CreateInBoundsGEP(i32_, vgpr_column(r), lane));
      };
      // Every register the run writes is read first, at the top of the lane: read where a step
      // first needs it, LLVM made the loads (and then the stores) of a register written twice
      // conditional, and the vectorizer scattered its stores lane by lane (emu_bench's VALU
      // kernel, one run of 14 steps: 12 G lane-instructions/s against 20-23 G so; docs/RESULTS.md).
      for (const Entry& en : entries) {
        const unsigned dx = en.x.step->ops[0].reg;
        for (unsigned r : {dx, en.x.form.kind == LiftForm::Kind::f64_binary ? dx + 1 : dx, en.pair ? en.y.step->ops[0].reg : dx})
          if (!regs.count(r)) regs[r] = old(r);
      }
      for (const Entry& en : entries) {
        auto active = [&](const LaneStep& l) { return b_.CreateTrunc(b_.CreateLShr(l.exec, b_.CreateZExt(lane, i64_)), i1_); };
        Value* rx = lane_value(en.x, lane, regs);
        Value* ry = en.pair ? lane_value(en.y, lane, regs) : nullptr;
        const unsigned dx = en.x.step->ops[0].reg;
        if (en.x.form.kind == LiftForm::Kind::f64_binary) {  // a pair of registers
          Value* on = active(en.x);
          Value* hi = b_.CreateSelect(on, b_.CreateTrunc(b_.CreateLShr(rx, 32), i32_), old(dx + 1));
          regs[dx] = b_.CreateSelect(on, b_.CreateTrunc(rx, i32_), old(dx));
          regs[dx + 1] = hi;
          continue;
        }
        regs[dx] = b_.CreateSelect(active(en.x), rx, old(dx));
        if (en.pair) {
          const unsigned dy = en.y.step->ops[0].reg;
          regs[dy] = b_.CreateSelect(active(en.y), ry, old(dy));
        }
      }
      for (const auto& [r, value] : regs) b_.CreateStore(value, b_.CreateInBoundsGEP(i32_, vgpr_column(r), lane));
      return nullptr;
    });
    b_.CreateBr(step_block(b));
  }

  // The limit: stop before step i once the steps run reach it (one block for every step of the
  // region, the step a phi); the code goes on after this in a block of its own.
  void stop_at_limit(std::size_t i) {
    auto* run = block("run");
    b_.CreateCondBr(b_.CreateICmpUGE(b_.CreateLoad(i64_, field(f_executed)), F(f_limit)), stop_, run);
    stop_steps_->addIncoming(b_.getInt64(i), b_.GetInsertBlock());
    b_.SetInsertPoint(run);
  }

  bool lift_step(std::size_t i) {
    const Step& s = k_.steps[i];
    if (s.run_interior) return true;  // its run's code holds it
    b_.SetInsertPoint(steps_[i]);
    if (s.run_end) {  // a fused run, whole (it is entered at its first step only)
      const std::size_t end = s.run_end;
      bool floats = false, doubles = false;
      for (std::size_t k = i; k < end; ++k) {
        const Step& t = k_.steps[k];
        floats = floats || is_float(t) || (t.vopd_x && (is_float(*t.vopd_x) || is_float(*t.vopd_y)));
        doubles = doubles || is_double(t);
      }
      stop_at_limit(i);
      if (floats || doubles) {  // in another float mode the interpreter runs the run's steps
        Value* mode_ok = floats ? default_f32_mode() : b_.getTrue();
        if (doubles) mode_ok = b_.CreateAnd(mode_ok, default_f64_mode());
        auto* fused = block("fused");
        auto* interpret = block("interpret");
        b_.CreateCondBr(mode_ok, fused, interpret);
        b_.SetInsertPoint(interpret);
        b_.CreateStore(b_.getInt64(i), b_.CreateLoad(ptr_, field(f_pc)));
        leave_with(2);
        b_.SetInsertPoint(fused);
      }
      lift_fused(i, end);
      return true;
    }
    LiftForm form = scalar_lift_form(s.handler);
    if (form.kind == LiftForm::Kind::none) form = vector_lift_form(s.handler);
    if (form.kind == LiftForm::Kind::none) form = memory_lift_form(s);
    if (form.kind == LiftForm::Kind::none) form = control_lift_form(s.handler);
    const bool pair = s.vopd_x && s.vopd_y && vopd_liftable(*s.vopd_x) && vopd_liftable(*s.vopd_y);
    if (form.kind == LiftForm::Kind::none && !pair) {
      call_handler(i);
      return false;
    }
    stop_at_limit(i);
    Value* e = exec();
    b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, field(f_lanes)), b_.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, e)), field(f_lanes));

    if (form.kind == LiftForm::Kind::nop) {
      count_step();
      b_.CreateBr(next_block(i));
      return true;
    }
    if (form.kind == LiftForm::Kind::branch && s.target >= 0 && static_cast<std::size_t>(s.target) < steps_.size()) {
      Value* take = nullptr;
      switch (form.op) {
        case 0: take = b_.getTrue(); break;
        case 1: take = b_.CreateICmpNE(b_.CreateLoad(i8_, F(f_scc)), b_.getInt8(0)); break;
        case 2: take = b_.CreateICmpEQ(b_.CreateLoad(i8_, F(f_scc)), b_.getInt8(0)); break;
        case 3: take = b_.CreateICmpEQ(mask_at(encoding::vcc_lo), b_.getInt64(0)); break;
        case 4: take = b_.CreateICmpNE(mask_at(encoding::vcc_lo), b_.getInt64(0)); break;
        case 5: take = b_.CreateICmpEQ(e, b_.getInt64(0)); break;
        case 6: take = b_.CreateICmpNE(e, b_.getInt64(0)); break;
      }
      count_step();
      b_.CreateCondBr(take, step_block(static_cast<std::size_t>(s.target)), next_block(i));
      return true;
    }
    slow_paths_.clear();
    if (pair) {
      lift_vopd(s, e);
      count_step();
      b_.CreateBr(next_block(i));
      handlers_for_slow_paths(i);
      return true;
    }
    using K = LiftForm::Kind;
    const bool scalar = form.kind == K::scalar_op || form.kind == K::scalar_bits || form.kind == K::scalar_compare ||
                        form.kind == K::scalar_unary || form.kind == K::get_pc;
    const bool memory = form.kind == K::global_load || form.kind == K::global_store || form.kind == K::scalar_load ||
                        form.kind == K::lds_load || form.kind == K::lds_store || form.kind == K::lds_load2 ||
                        form.kind == K::lds_store2;
    const bool lifted = memory                          ? lift_memory(s, form, e, i)
                        : scalar                        ? lift_scalar(s, form)
                        : form.kind == K::lane_permute ? lift_permute(s, e)
                                                        : lift_vector(s, form, e);
    if (lifted) {
      count_step();
      b_.CreateBr(next_block(i));
      handlers_for_slow_paths(i);
      return true;
    }
    call_handler(i, true);
    return false;
  }

  const PreparedKernel& k_;
  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  const unsigned wave_;
  llvm::Type *i1_, *i8_, *i32_, *i64_, *ptr_;
  llvm::Function* f_ = nullptr;
  Value* frame_ = nullptr;
  const std::string name_;
  std::size_t first_ = 0, last_ = 0;  // the region being lifted
  Value *code_ = nullptr, *scc_slot_ = nullptr, *vopd_column_ = nullptr;
  Value* redirect_ = nullptr;  // X's results of a VOPD pair go here (redirect_reg_'s column)
  unsigned redirect_reg_ = 0;
  Value* loaded_[f_image_base + 1] = {};
  unsigned next_region_slot_ = 0;  // the next global access step's slot in the frame's regions
  BasicBlock* entry_ = nullptr;
  BasicBlock *exit_ = nullptr, *called_exit_ = nullptr, *stop_ = nullptr;
  llvm::PHINode* stop_steps_ = nullptr;  // the step a region stopped before (stop_'s phi)
  llvm::PHINode* called_codes_ = nullptr;
  std::vector<BasicBlock*> steps_;
  std::vector<std::pair<BasicBlock*, BasicBlock*>> slow_paths_;
};

}  // namespace

void lift_kernel(const PreparedKernel& kernel, llvm::Module& module, const std::string& name, std::size_t& lifted, std::size_t& called) {
  Lifter(kernel, module, name).run(lifted, called);
}

void mark_fused_runs(std::vector<Step>& steps, std::size_t own_steps) {
  // At most 64 steps a run (GPUPORT_JIT_RUN=N to study others, GPUPORT_JIT_NO_FUSION=1 for none),
  // which bounds how long a slice can run past its end and how many VGPRs a run's loop holds.
  static const std::size_t max_run = std::getenv("GPUPORT_JIT_NO_FUSION") ? 0
                                     : std::getenv("GPUPORT_JIT_RUN")      ? std::strtoul(std::getenv("GPUPORT_JIT_RUN"), nullptr, 10)
                                                                           : 64;
  for (Step& s : steps) {
    s.run_end = 0;
    s.run_interior = false;
  }
  if (max_run < 2) return;
  // A run starts at a branch target: nothing enters one in its middle but a jump by address.
  std::vector<bool> target(steps.size() + 1, false);
  for (const Step& s : steps)
    if (s.target >= 0 && static_cast<std::size_t>(s.target) < steps.size()) target[static_cast<std::size_t>(s.target)] = true;
  target[std::min(own_steps, steps.size())] = true;  // the kernel's own steps end: its callees follow
  for (std::size_t i = 0; i < steps.size();) {
    std::size_t j = i, lane_steps = 0;
    while (j < steps.size() && j - i < max_run && (j == i || !target[j])) {
      const Member m = member(steps[j]);
      if (m == Member::other) break;
      lane_steps += m == Member::lane ? 1 : m == Member::pair ? 2 : 0;
      ++j;
    }
    if (lane_steps >= 2) {  // at least two lane steps (a pair counts two)
      steps[i].run_end = static_cast<std::uint32_t>(j);
      for (std::size_t k = i + 1; k < j; ++k) steps[k].run_interior = true;
    }
    i = j == i ? i + 1 : j;
  }
}

}  // namespace gpuport::emu
