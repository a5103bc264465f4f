// Lowering of lifted modules; see lower.h.
#include "lift/lower.h"

#include <fmt/format.h>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsAMDGPU.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <filesystem>
#include <mutex>
#include <set>

#include "common/file_io.h"
#include "common/plain_paths.h"
#include "common/process.h"

extern "C" void LLVMInitializeAMDGPUTargetInfo();
extern "C" void LLVMInitializeAMDGPUTarget();
extern "C" void LLVMInitializeAMDGPUTargetMC();
extern "C" void LLVMInitializeAMDGPUAsmPrinter();
extern "C" void LLVMInitializeAMDGPUAsmParser();
extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace gpuport::lift {

// The semantics bitcode for gfx1100 in wave32 and wave64 (semantics/sass_*.cc with target_amdgcn.cc
// or target_amdgcn_wave64.cc, compiled by clang-19 and linked at build time), compiled in by
// cmake/embed_bytes.cmake.
extern const unsigned char kSemanticsGfx1100[];
extern const unsigned long kSemanticsGfx1100Size;
extern const unsigned char kSemanticsGfx1100Wave64[];
extern const unsigned long kSemanticsGfx1100Wave64Size;
// The same semantics with target_nvptx.cc, for nvptx64 (PTX ISA 7.8, sm_80 features at least).
extern const unsigned char kSemanticsNvptx[];
extern const unsigned long kSemanticsNvptxSize;

namespace {

Diagnostic error(std::string code, std::string message) {
  Diagnostic d;
  d.severity = Severity::error;
  d.code = std::move(code);
  d.message = std::move(message);
  return d;
}

void initialise_targets() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    // Inline assembly (the device library's hostcall code has some) is parsed when an object is emitted.
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

std::unique_ptr<llvm::TargetMachine> target_machine(const LiftModule& m, std::string& why) {
  initialise_targets();
  const std::string triple = m.module->getTargetTriple();
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(triple, why);
  if (t == nullptr) return nullptr;
  llvm::TargetOptions options;
  // NVPTX: PTX ISA 7.8, the newest CUDA 11.8's ptxas reads.
  const std::string features = m.target == LiftTarget::nvptx           ? "+ptx78"
                               : m.target == LiftTarget::gfx1100_wave64 ? "+wavefrontsize64"
                                                                        : "+wavefrontsize32";
  return std::unique_ptr<llvm::TargetMachine>(t->createTargetMachine(triple, target_processor(m.target, m.nvptx_sm), features,
                                                                     options, llvm::Reloc::PIC_, std::nullopt,
                                                                     llvm::CodeGenOptLevel::Aggressive));
}

bool is_kernel(const llvm::Function& f) {
  return f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL || f.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

constexpr const char* kNanMark = "gpuport_mark_nan_f32";

// Whether the bits of a NaN in `mark`'s result can be seen: followed through what carries a
// float's payload on (arithmetic, min/max and rounding intrinsics, moves between types, phis,
// selects, moves between lanes) to where it ends: compares, class tests of NaN as a whole,
// conversions to integers and other marks read no payload; anything else (a store, an integer
// operation, a call) may.
bool nan_bits_seen(llvm::CallInst* mark) {
  std::vector<const llvm::Value*> work{mark};
  std::set<const llvm::Value*> seen{mark};
  while (!work.empty()) {
    const llvm::Value* v = work.back();
    work.pop_back();
    for (const llvm::User* u : v->users()) {
      const auto* i = llvm::dyn_cast<llvm::Instruction>(u);
      if (i == nullptr) return true;
      bool passes = false;
      switch (i->getOpcode()) {
        case llvm::Instruction::FCmp:
        case llvm::Instruction::FPToSI:
        case llvm::Instruction::FPToUI:
          continue;  // reads no payload
        case llvm::Instruction::FAdd:
        case llvm::Instruction::FSub:
        case llvm::Instruction::FMul:
        case llvm::Instruction::FDiv:
        case llvm::Instruction::FRem:
        case llvm::Instruction::FNeg:
        case llvm::Instruction::FPExt:
        case llvm::Instruction::FPTrunc:
        case llvm::Instruction::BitCast:
        case llvm::Instruction::PHI:
        case llvm::Instruction::Freeze:
          passes = true;
          break;
        case llvm::Instruction::Select:
          passes = llvm::cast<llvm::SelectInst>(i)->getCondition() != v;
          break;
        case llvm::Instruction::Call: {
          const auto* call = llvm::cast<llvm::CallInst>(i);
          const llvm::Function* callee = call->getCalledFunction();
          if (callee != nullptr && callee->getName() == kNanMark) continue;
          if (callee != nullptr && callee->getIntrinsicID() == llvm::Intrinsic::is_fpclass) {
            // A test of NaN as a whole (both quiet and signalling, or neither) reads no payload.
            const auto* mask = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(1));
            if (mask != nullptr && ((mask->getZExtValue() & 3) == 0 || (mask->getZExtValue() & 3) == 3)) continue;
            return true;
          }
          switch (callee != nullptr ? callee->getIntrinsicID() : llvm::Intrinsic::not_intrinsic) {
            case llvm::Intrinsic::fma:
            case llvm::Intrinsic::fmuladd:
            case llvm::Intrinsic::fabs:
            case llvm::Intrinsic::copysign:
            case llvm::Intrinsic::minnum:
            case llvm::Intrinsic::maxnum:
            case llvm::Intrinsic::minimum:
            case llvm::Intrinsic::maximum:
            case llvm::Intrinsic::sqrt:
            case llvm::Intrinsic::floor:
            case llvm::Intrinsic::ceil:
            case llvm::Intrinsic::trunc:
            case llvm::Intrinsic::rint:
            case llvm::Intrinsic::nearbyint:
            case llvm::Intrinsic::round:
            case llvm::Intrinsic::roundeven:
            case llvm::Intrinsic::canonicalize:
              passes = true;
              break;
            // Moves between lanes (SHFL, the warp reductions): the data goes on unchanged; a
            // value that picks the lane is seen. Data arguments: [first, last).
            case llvm::Intrinsic::amdgcn_ds_bpermute:
            case llvm::Intrinsic::amdgcn_readlane:
            case llvm::Intrinsic::amdgcn_readfirstlane:
            case llvm::Intrinsic::amdgcn_permlane16:
            case llvm::Intrinsic::amdgcn_permlanex16:
            case llvm::Intrinsic::amdgcn_mov_dpp:
            case llvm::Intrinsic::amdgcn_update_dpp: {
              const llvm::Intrinsic::ID id = callee->getIntrinsicID();
              const unsigned first = id == llvm::Intrinsic::amdgcn_ds_bpermute ? 1 : 0;
              const unsigned last = id == llvm::Intrinsic::amdgcn_permlane16 || id == llvm::Intrinsic::amdgcn_permlanex16 ||
                                            id == llvm::Intrinsic::amdgcn_update_dpp
                                        ? 2
                                        : first + 1;
              for (unsigned k = 0; k < call->arg_size(); ++k)
                if (call->getArgOperand(k) == v && (k < first || k >= last)) return true;
              passes = true;
              break;
            }
            // MUFU's units: a NaN in gives a NaN out.
            case llvm::Intrinsic::amdgcn_rcp:
            case llvm::Intrinsic::amdgcn_rsq:
            case llvm::Intrinsic::amdgcn_sqrt:
            case llvm::Intrinsic::amdgcn_exp2:
            case llvm::Intrinsic::amdgcn_log:
            case llvm::Intrinsic::amdgcn_sin:
            case llvm::Intrinsic::amdgcn_cos:
              passes = true;
              break;
            default:
              return true;
          }
          break;
        }
        default:
          return true;
      }
      if (passes && seen.insert(i).second) work.push_back(i);
    }
  }
  return false;
}

// SASS compares 64-bit integers in two halves: ISETP on the low words (unsigned), then
// ISETP.EX on the high words, which takes the low result where the high words are equal:
// select(hi_a == hi_b, lo_a <u lo_b, hi_a < hi_b). LLVM keeps the three compares; as one 64-bit
// compare the target needs one instruction, and the halves usually fold back into the 64-bit
// value they were split from. Strictness comes from the low compare (the high one may be either:
// it only decides where the high words differ), signedness from the high one.
bool join_split_compares(llvm::Function& f) {
  using P = llvm::CmpInst::Predicate;
  auto direction = [](P p) {
    switch (p) {
      case P::ICMP_ULT: case P::ICMP_ULE: case P::ICMP_SLT: case P::ICMP_SLE: return -1;
      case P::ICMP_UGT: case P::ICMP_UGE: case P::ICMP_SGT: case P::ICMP_SGE: return 1;
      default: return 0;
    }
  };
  bool changed = false;
  for (llvm::BasicBlock& bb : f) {
    for (auto it = bb.begin(); it != bb.end();) {
      auto* select = llvm::dyn_cast<llvm::SelectInst>(&*it++);
      if (select == nullptr || !select->getType()->isIntegerTy(1)) continue;
      auto* equal = llvm::dyn_cast<llvm::ICmpInst>(select->getCondition());
      auto* low = llvm::dyn_cast<llvm::ICmpInst>(select->getTrueValue());
      auto* high = llvm::dyn_cast<llvm::ICmpInst>(select->getFalseValue());
      if (equal == nullptr || low == nullptr || high == nullptr || equal->getPredicate() != P::ICMP_EQ) continue;
      // The high words: i32, or i64 with 32 leading zeros where InstCombine widened them.
      llvm::Value* ha = high->getOperand(0);
      llvm::Value* hb = high->getOperand(1);
      const llvm::DataLayout& layout = f.getParent()->getDataLayout();
      auto is_word = [&](llvm::Value* v) {
        return v->getType()->isIntegerTy(32) ||
               (v->getType()->isIntegerTy(64) && llvm::computeKnownBits(v, layout).countMinLeadingZeros() >= 32);
      };
      if (!low->getOperand(0)->getType()->isIntegerTy(32) || !is_word(ha) || !is_word(hb)) continue;
      // The high compare and the equality test on the same two words (either order).
      // (InstCombine may have left one of them on the 64-bit form of the word and the other on
      // its truncation.)
      auto word = [](llvm::Value* v) {
        if (auto* t = llvm::dyn_cast<llvm::TruncInst>(v)) return t->getOperand(0);
        return v;
      };
      llvm::Value* ea = word(equal->getOperand(0));
      llvm::Value* eb = word(equal->getOperand(1));
      if (!((ea == word(ha) && eb == word(hb)) || (ea == word(hb) && eb == word(ha)))) continue;
      const P lp = low->getPredicate(), hp = high->getPredicate();
      if (!llvm::CmpInst::isUnsigned(lp) || direction(lp) == 0 || direction(lp) != direction(hp)) continue;
      const bool is_signed = llvm::CmpInst::isSigned(hp);
      const bool strict = llvm::CmpInst::isStrictPredicate(lp);
      P joined;
      if (direction(lp) < 0) joined = is_signed ? (strict ? P::ICMP_SLT : P::ICMP_SLE) : (strict ? P::ICMP_ULT : P::ICMP_ULE);
      else joined = is_signed ? (strict ? P::ICMP_SGT : P::ICMP_SGE) : (strict ? P::ICMP_UGT : P::ICMP_UGE);
      llvm::IRBuilder<> b(select);
      auto wide = [&](llvm::Value* hi, llvm::Value* lo) {
        return b.CreateOr(b.CreateShl(b.CreateZExtOrBitCast(hi, b.getInt64Ty()), 32), b.CreateZExt(lo, b.getInt64Ty()));
      };
      llvm::Value* result = b.CreateICmp(joined, wide(ha, low->getOperand(0)), wide(hb, low->getOperand(1)));
      select->replaceAllUsesWith(result);
      select->eraseFromParent();
      changed = true;
    }
  }
  return changed;
}

// SASS adds 64-bit values in two halves: the low words with a carry out (IADD3/LEA with P), the
// high words plus that carry (IADD3.X/LEA.HI.X). After the semantics are inlined that is
//   lo = uadd.with.overflow(x, y).0,  hi = h1 + h2 + zext(uadd.with.overflow(x, y).1)
// which is exactly the two words of (h1:x) + (h2:y). Written as one 64-bit add, the halves fold
// back into the 64-bit values they were split from (an address and its index), and the target
// adds in one pair of instructions.
bool join_split_adds(llvm::Function& f) {
  llvm::DominatorTree dominators(f);
  std::vector<llvm::Instruction*> carries;
  for (llvm::Instruction& i : llvm::instructions(f))
    if (auto* z = llvm::dyn_cast<llvm::ZExtInst>(&i); z != nullptr && z->getType()->isIntegerTy(32) && z->getSrcTy()->isIntegerTy(1))
      carries.push_back(z);
  bool changed = false;
  for (llvm::Instruction* zext : carries) {
    auto* flag = llvm::dyn_cast<llvm::ExtractValueInst>(zext->getOperand(0));
    if (flag == nullptr || flag->getIndices().size() != 1 || flag->getIndices()[0] != 1) continue;
    auto* overflow = llvm::dyn_cast<llvm::IntrinsicInst>(flag->getAggregateOperand());
    if (overflow == nullptr || overflow->getIntrinsicID() != llvm::Intrinsic::uadd_with_overflow || !overflow->getType()->getStructElementType(0)->isIntegerTy(32))
      continue;
    if (!zext->hasOneUse()) continue;
    auto* top = llvm::dyn_cast<llvm::BinaryOperator>(*zext->user_begin());
    if (top == nullptr || top->getOpcode() != llvm::Instruction::Add) continue;
    llvm::Value* rest = top->getOperand(0) == zext ? top->getOperand(1) : top->getOperand(0);
    llvm::Value* h1 = rest;
    llvm::Value* h2 = llvm::ConstantInt::get(rest->getType(), 0);
    llvm::Instruction* hi = top;
    if (auto* inner = llvm::dyn_cast<llvm::BinaryOperator>(rest); inner != nullptr && inner->getOpcode() == llvm::Instruction::Add && inner->hasOneUse()) {
      h1 = inner->getOperand(0), h2 = inner->getOperand(1);
    } else if (top->hasOneUse()) {
      if (auto* outer = llvm::dyn_cast<llvm::BinaryOperator>(*top->user_begin()); outer != nullptr && outer->getOpcode() == llvm::Instruction::Add) {
        h2 = outer->getOperand(0) == top ? outer->getOperand(1) : outer->getOperand(0);
        hi = outer;
      }
    }
    llvm::IRBuilder<> b(hi);
    auto wide = [&](llvm::Value* high, llvm::Value* low) {
      return b.CreateOr(b.CreateShl(b.CreateZExt(high, b.getInt64Ty()), 32), b.CreateZExt(low, b.getInt64Ty()));
    };
    llvm::Value* sum = b.CreateAdd(wide(h1, overflow->getArgOperand(0)), wide(h2, overflow->getArgOperand(1)));
    llvm::Value* high_word = b.CreateTrunc(b.CreateLShr(sum, 32), b.getInt32Ty());
    auto* low_word = llvm::cast<llvm::Instruction>(b.CreateTrunc(sum, b.getInt32Ty()));
    hi->replaceAllUsesWith(high_word);
    // The low word where the sum dominates: its uses after the high word.
    for (llvm::User* u : overflow->users())
      if (auto* lo = llvm::dyn_cast<llvm::ExtractValueInst>(u); lo != nullptr && lo->getIndices()[0] == 0)
        lo->replaceUsesWithIf(low_word, [&](llvm::Use& use) { return dominators.dominates(low_word, use); });
    changed = true;
  }
  return changed;
}

// Every NaN mark (semantics/sass.h) becomes the canonical-NaN select where its bits can be seen,
// and its operand elsewhere. Decided for all marks before any is rewritten: a mark counts on the
// marks after it, which stay marks in the decision.
void resolve_nan_marks(llvm::Module& module) {
  llvm::Function* mark = module.getFunction(kNanMark);
  if (mark == nullptr) return;
  std::vector<std::pair<llvm::CallInst*, bool>> calls;
  for (llvm::User* u : mark->users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back({call, nan_bits_seen(call)});
  for (auto [call, seen] : calls) {
    llvm::Value* x = call->getArgOperand(0);
    llvm::Value* result = x;
    if (seen) {
      llvm::IRBuilder<> b(call);
      llvm::Value* canonical = llvm::ConstantFP::get(x->getType(), llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, 0x7fffffffu)));
      result = b.CreateSelect(b.CreateFCmpUNO(x, x), canonical, x);
    }
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
  if (mark->use_empty()) mark->eraseFromParent();
}

}  // namespace

LiftModule::LiftModule() = default;
LiftModule::LiftModule(LiftModule&&) noexcept = default;
LiftModule& LiftModule::operator=(LiftModule&&) noexcept = default;
LiftModule::~LiftModule() {
  module.reset();  // before its context
}

std::string target_processor(LiftTarget target, int nvptx_sm) {
  return target == LiftTarget::nvptx ? fmt::format("sm_{}", nvptx_sm) : "gfx1100";
}

Result<LiftModule> make_lift_module(const std::string& name, LiftTarget target, int nvptx_sm) {
  LiftModule m;
  m.target = target;
  m.nvptx_sm = nvptx_sm;
  if (target == LiftTarget::nvptx && (nvptx_sm < 70 || nvptx_sm > 90))
    return error("unsupported-target", fmt::format("sm_{}: the NVPTX round trip builds sm_70 to sm_90 (CUDA 11.8's ptxas)", nvptx_sm));
  m.context = std::make_unique<llvm::LLVMContext>();
  const unsigned char* data = kSemanticsGfx1100;
  unsigned long size = kSemanticsGfx1100Size;
  const char* buffer_name = "sass-semantics-gfx1100.bc";
  if (target == LiftTarget::gfx1100_wave64) {
    data = kSemanticsGfx1100Wave64, size = kSemanticsGfx1100Wave64Size, buffer_name = "sass-semantics-gfx1100-wave64.bc";
  } else if (target == LiftTarget::nvptx) {
    data = kSemanticsNvptx, size = kSemanticsNvptxSize, buffer_name = "sass-semantics-nvptx.bc";
  }
  const llvm::StringRef bytes(reinterpret_cast<const char*>(data), size);
  auto buffer = llvm::MemoryBuffer::getMemBuffer(bytes, buffer_name, false);
  auto parsed = llvm::parseBitcodeFile(buffer->getMemBufferRef(), *m.context);
  if (!parsed) {
    std::string why;
    llvm::handleAllErrors(parsed.takeError(), [&](const llvm::ErrorInfoBase& e) { why = e.message(); });
    return error("internal-error", "the built-in SASS semantics bitcode cannot be read: " + why);
  }
  m.module = std::move(*parsed);
  m.module->setModuleIdentifier(name);
  m.module->setSourceFileName(name);
  return m;
}

std::vector<Diagnostic> finalize_module(LiftModule& m, bool optimize) {
  std::vector<Diagnostic> out;
  llvm::Module& module = *m.module;
  {
    // The lifter's own output must be valid before any pass sees it (passes assume it).
    std::string problems;
    llvm::raw_string_ostream os(problems);
    if (llvm::verifyModule(module, &os)) {
      os.flush();
      out.push_back(error("internal-error", "the lifted module is not valid LLVM IR: " + problems.substr(0, 4000)));
      return out;
    }
  }
  // Kernels stay; everything else (semantics, hooks) is inlined into them and then removed.
  for (llvm::Function& f : module.functions()) {
    // NVPTX: the semantics were compiled for one sm_XX; the target machine says which one this is.
    if (m.target == LiftTarget::nvptx) {
      f.removeFnAttr("target-cpu");
      f.removeFnAttr("target-features");
    }
    if (f.isDeclaration() || is_kernel(f)) continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
  }
  std::string why;
  auto tm = target_machine(m, why);
  if (!tm) {
    out.push_back(error("internal-error", "no LLVM target machine for " + module.getTargetTriple() + ": " + why));
    return out;
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm.get());
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm;
  if (optimize) {
    mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  } else {
    // Readable IR: calls inlined, registers in SSA form, dead semantics gone; no other change.
    mpm.addPass(llvm::AlwaysInlinerPass());
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    fpm.addPass(llvm::PromotePass());
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
    mpm.addPass(llvm::GlobalDCEPass());
  }
  // The NaN marks stay calls through the pipeline, so that what reads each result is plain to
  // see afterwards; resolving them may leave selects and casts to fold.
  if (llvm::Function* mark = module.getFunction(kNanMark)) {
    mark->setDoesNotAccessMemory();
    mark->setDoesNotThrow();
    mark->setWillReturn();
    mark->addFnAttr(llvm::Attribute::Speculatable);
  }
  mpm.run(module, mam);
  resolve_nan_marks(module);
  if (optimize) {
    for (llvm::Function& f : module.functions())
      if (!f.isDeclaration()) {
        join_split_compares(f);
        join_split_adds(f);
      }
    llvm::FunctionPassManager cleanup;
    cleanup.addPass(llvm::InstCombinePass());
    cleanup.addPass(llvm::SimplifyCFGPass());
    llvm::ModulePassManager after;
    after.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(cleanup)));
    after.run(module, mam);
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(module, &os)) {
    os.flush();
    out.push_back(error("internal-error", "the lifted module is not valid LLVM IR: " + problems));
  }
  return out;
}

std::string module_text(const LiftModule& m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.module->print(os, nullptr);
  os.flush();
  return text;
}

Result<std::string> emit_machine_code(LiftModule& m, EmitKind kind) {
  std::string why;
  auto tm = target_machine(m, why);
  if (!tm) return error("internal-error", "no LLVM target machine: " + why);
  if (m.target == LiftTarget::nvptx && kind == EmitKind::object)
    return error("internal-error", "the NVPTX back end makes PTX text only; assemble_ptx makes the cubin");
  // Code generation rewrites the IR (structurizing, control-flow intrinsics): run it on a copy, so
  // that the module can be emitted again (assembly and object).
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*m.module);
  copy->setDataLayout(tm->createDataLayout());
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  const auto type = kind == EmitKind::object ? llvm::CodeGenFileType::ObjectFile : llvm::CodeGenFileType::AssemblyFile;
  if (tm->addPassesToEmitFile(pm, os, nullptr, type))
    return error("internal-error", "the back end cannot emit this file type");
  pm.run(*copy);
  return std::string(buffer.data(), buffer.size());
}

namespace {

// Runs `argv` with `input` written to in.<ext> and the output read back from out.<ext>, in a
// private folder removed afterwards.
Result<std::string> run_tool_on_bytes(std::vector<std::string> argv, const std::string& input, const std::string& tool) {
  const TemporaryFolder temporary = TemporaryFolder::make("lower");
  if (temporary.empty()) return error("io-error", "cannot make a temporary folder for " + tool);
  const std::filesystem::path& folder = temporary.path();
  const auto in = folder / "in", out = folder / "out";
  if (auto d = write_file_atomic(in, input, {.durable = false})) return *d;
  for (auto& a : argv) {
    if (a == "@IN@") a = in.string();
    else if (a == "@OUT@") a = out.string();
    else if (a.find("@IN@") != std::string::npos) a.replace(a.find("@IN@"), 4, in.string());
    else if (a.find("@OUT@") != std::string::npos) a.replace(a.find("@OUT@"), 5, out.string());
  }
  const std::filesystem::path program = find_program(argv[0]);
  if (program.empty()) return error("missing-tool", fmt::format("{} is not installed ({})", argv[0], tool));
  argv[0] = program.string();
  ProcessOptions options;
  options.timeout = std::chrono::minutes(2);
  const ProcessResult r = run_process(argv, options);
  if (!r.succeeded())
    return error("tool-failed", fmt::format("{} failed ({}): {}{}", r.command_line, r.outcome(), r.err, r.out));
  auto bytes = read_file(out, 1ull << 30);
  if (!bytes) return bytes.diagnostics().front();
  return std::move(bytes.value());
}

}  // namespace

Result<std::string> link_code_object(const std::string& object) {
  return run_tool_on_bytes({"ld.lld-19", "-shared", "--no-undefined", "@IN@", "-o", "@OUT@"}, object, "the AMDGPU code-object linker");
}

Result<std::string> assemble_ptx(const std::string& ptx, int sm) {
  // Debian's CUDA 11.8 ptxas; a CUDA 13 one earlier in PATH would make cubins 11.8's tools and
  // driver do not read, so the path is fixed and the release checked.
  static const std::string ptxas = [] {
    for (const char* candidate : {"/usr/lib/nvidia-cuda-toolkit/bin/ptxas", "/usr/bin/ptxas"}) {
      if (!std::filesystem::exists(candidate)) continue;
      ProcessOptions options;
      options.timeout = std::chrono::seconds(30);
      const ProcessResult r = run_process({candidate, "--version"}, options);
      if (r.succeeded() && r.out.find("release 11.8") != std::string::npos) return std::string(candidate);
    }
    return std::string();
  }();
  if (ptxas.empty())
    return error("missing-tool", "CUDA 11.8's ptxas is not installed (Debian package nvidia-cuda-toolkit): the NVPTX round "
                                 "trip needs it for the cubin");
  return run_tool_on_bytes({ptxas, fmt::format("-arch=sm_{}", sm), "@IN@", "-o", "@OUT@"}, ptx, "ptxas 11.8");
}

Result<std::string> make_offload_bundle(const std::string& code_object, LiftTarget target) {
  return run_tool_on_bytes({"clang-offload-bundler-19", "--type=o",
                            "--targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--" + target_processor(target),
                            "--input=/dev/null", "--input=@IN@", "--output=@OUT@"},
                           code_object, "the offload bundler (clang-tools-19)");
}

}  // namespace gpuport::lift
