// nvcc's meaning for what C++ leaves undefined in device code, where CUDA programs rely on it:
// a clang pass plugin that gpuport nvcc loads (-fpass-plugin) when it compiles CUDA for gfx1100.
//
// Shifts by the operand's width or more. nvcc compiles `a >> n` to PTX shr, which clamps the
// amount to the width: 0 for shl and unsigned shr, the sign for signed shr. AMD's shifts use
// the amount's low bits (v_lshrrev_b32 by 32 shifts by 0), and LLVM calls the result poison.
// GPUJPEG's Huffman encoder computes `0x80000000 >> __clz(0)` for lane 0 and relies on 0: its
// JPEGs came out corrupt on gfx1100. Every shift whose amount is not a constant below the width
// gets PTX's result: `select(n >= W, 0, x << n)`, and `x >>s min(n, W - 1)`. The pass runs at
// the start of the pipeline, before anything reasons from the poison, on AMD GPU modules only
// (the host code keeps the host compiler's meaning, as with nvcc).
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/TargetParser/Triple.h>

#include <vector>

namespace {

using namespace llvm;

bool amount_may_reach_width(const BinaryOperator& shift) {
  const auto* amount = dyn_cast<ConstantInt>(shift.getOperand(1));
  return !amount || amount->getValue().uge(shift.getType()->getScalarSizeInBits());
}

struct PtxShiftSemantics : PassInfoMixin<PtxShiftSemantics> {
  PreservedAnalyses run(Module& module, ModuleAnalysisManager&) {
    if (!Triple(module.getTargetTriple()).isAMDGPU()) return PreservedAnalyses::all();
    std::vector<BinaryOperator*> shifts;
    for (auto& function : module)
      for (auto& instruction : instructions(function))
        if (auto* b = dyn_cast<BinaryOperator>(&instruction); b && b->isShift() && b->getType()->isIntOrIntVectorTy() &&
                                                              amount_may_reach_width(*b))
          shifts.push_back(b);
    for (auto* shift : shifts) {
      Type* type = shift->getType();
      const unsigned width = type->getScalarSizeInBits();
      Value* amount = shift->getOperand(1);
      IRBuilder<> before(shift);
      Value* over = before.CreateICmpUGE(amount, ConstantInt::get(type, width), "ptx.shift.over");
      if (shift->getOpcode() == Instruction::AShr) {  // the sign fills the value
        shift->setOperand(1, before.CreateSelect(over, ConstantInt::get(type, width - 1), amount, "ptx.shift.amount"));
        continue;
      }
      IRBuilder<> after(shift->getNextNode());
      auto* result = cast<Instruction>(after.CreateSelect(over, Constant::getNullValue(type), shift, "ptx.shift"));
      shift->replaceUsesWithIf(result, [&](Use& use) { return use.getUser() != result; });
    }
    return shifts.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gpuport-nvcc-semantics", "1", [](PassBuilder& builder) {
            builder.registerPipelineStartEPCallback(
                [](ModulePassManager& passes, OptimizationLevel) { passes.addPass(PtxShiftSemantics()); });
          }};
}
