// What an instruction handler of the SASS lifter works with (internal to src/lift): the IR
// builder positioned inside the instruction's block (after its guard), operand reads and writes
// with SASS's modifier conventions, calls of semantic functions and target hooks, address
// formation for each memory space, and refusal with a reason. Handlers live in lift_*.cc, one
// file per instruction family, and register themselves by mnemonic.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lift/sass_lift.h"

namespace gpuport::lift {

// Per-architecture facts of constant bank 0 and the shared-memory window (data/lift/cbank0.tsv).
struct ArchFacts {
  std::uint32_t parameter_base = 0;        // where the parameter block starts in bank 0
  std::uint32_t shared_window_offset = 0;  // shared addresses of static data start here (sm_90: 0x400)
  // bank-0 offset -> what it holds: "block_size.x", "grid_size.y", "stack_top", "global_descriptor", ...
  std::map<std::uint32_t, std::pair<std::string, std::uint32_t>> slots;  // offset -> (meaning, bytes)
};
// std::nullopt-like: parameter_base 0 when the arch has no row.
const ArchFacts& arch_facts(int arch);

class LiftContext {
 public:
  LiftContext(llvm::Module& module, llvm::Function& function, const LiftRequest& request);

  llvm::IRBuilder<>& builder() { return builder_; }
  llvm::LLVMContext& context() { return module_.getContext(); }
  llvm::Module& module() { return module_; }
  const LiftRequest& request() const { return request_; }
  int arch() const { return request_.arch; }
  const ArchFacts& facts() const { return *facts_; }

  llvm::Type* i1() { return builder_.getInt1Ty(); }
  llvm::Type* i8() { return builder_.getInt8Ty(); }
  llvm::Type* i16() { return builder_.getInt16Ty(); }
  llvm::Type* i32() { return builder_.getInt32Ty(); }
  llvm::Type* i64() { return builder_.getInt64Ty(); }
  llvm::Type* f32() { return builder_.getFloatTy(); }
  llvm::Type* f64() { return builder_.getDoubleTy(); }
  llvm::Constant* u32(std::uint64_t v) { return builder_.getInt32(static_cast<std::uint32_t>(v)); }
  llvm::Constant* u64(std::uint64_t v) { return builder_.getInt64(v); }
  llvm::Constant* flag(bool v) { return builder_.getInt1(v); }

  // ---- operands ---------------------------------------------------------------------------------
  // The 32 bits an operand supplies, before its prefix modifiers: a register (RZ 0), a uniform
  // register, an integer immediate, a float immediate's f32 bits, a constant-bank word. Sets
  // `ok` false (and records a finding) when the operand cannot be read.
  llvm::Value* read(const sass::SassOperand& op);
  // read() with the integer prefixes applied: ~x (bitwise not), -x (two's complement), |x|.
  llvm::Value* read_int(const sass::SassOperand& op);
  // As f32 with |x| then -x applied (float immediates converted from their printed value).
  llvm::Value* read_float(const sass::SassOperand& op);
  // 64 bits: a register pair (Rn, Rn+1), a uniform pair, a constant-bank pair, or an immediate
  // (a float immediate as the f64 bits of its printed value).
  llvm::Value* read64(const sass::SassOperand& op);
  // As f64 with |x| then -x applied.
  llvm::Value* read_double(const sass::SassOperand& op);
  // A predicate operand (P, UP, PT) with ! applied; also accepts a register as "nonzero".
  llvm::Value* read_predicate(const sass::SassOperand& op);

  void write(const sass::SassOperand& op, llvm::Value* value32);  // i32 or f32; RZ/URZ dropped
  void write64(const sass::SassOperand& op, llvm::Value* value64);  // i64 or f64 into Rn, Rn+1
  void write_predicate(const sass::SassOperand& op, llvm::Value* value);  // PT/UPT dropped

  // Register files by index (255 = RZ and URZ, 7 = PT/UPT read as 0 / true).
  llvm::Value* reg(bool uniform, unsigned index);
  void set_reg(bool uniform, unsigned index, llvm::Value* value32);
  llvm::Value* pred(bool uniform, unsigned index);
  void set_pred(bool uniform, unsigned index, llvm::Value* value);

  // A constant-bank word: c[bank][offset] (+ a register index when `index` is not null).
  llvm::Value* constant_bank(std::uint32_t bank, std::int64_t offset, unsigned bytes, llvm::Value* index = nullptr);
  // `bytes` at a constant operand's location (c[bank][R + offset]) plus `extra`.
  llvm::Value* constant_operand(const sass::SassOperand& c, std::int64_t extra, unsigned bytes);

  // ---- semantics --------------------------------------------------------------------------------
  // Calls gpuport_sass_<name> (or gpuport_hook_<name>) from the semantics bitcode; the arguments
  // are converted to the parameter types (integer widths, i1 from any integer, float from i32
  // bits). Records a finding and returns poison when the function does not exist.
  llvm::Value* semantic(std::string_view name, std::vector<llvm::Value*> args);
  llvm::Value* hook(std::string_view name, std::vector<llvm::Value*> args);
  // A fresh i1 slot for a semantic function's bool* result, and its value after the call.
  llvm::Value* out_flag();
  llvm::Value* load_flag(llvm::Value* slot);

  // ---- memory -----------------------------------------------------------------------------------
  // The address an operand names: base register (a .64 pair or 32 bits), index register and
  // offset, summed in 64 bits.
  // `wide_base`: the base register is a 64-bit pair even without .64 (the .E addressing of sm_75).
  // wide_base / wide_index: the base / index register is a 64-bit pair though the listing has no .64.
  llvm::Value* address(const sass::MemoryAddress& address, bool wide_base = false, bool wide_index = false);
  llvm::Value* global_pointer(llvm::Value* address64);  // ptr addrspace(1)
  llvm::Value* generic_pointer(llvm::Value* address64); // ptr (flat)
  // Shared memory: a byte offset in the SASS shared window -> ptr addrspace(3) into the kernel's
  // LDS block (static data first, dynamic after, as CUDA lays them out).
  llvm::Value* shared_pointer(llvm::Value* offset32);
  // Local memory: a byte offset in the thread's local window (R1-relative) -> ptr addrspace(5).
  llvm::Value* local_pointer(llvm::Value* offset32);
  // The kernel's LDS block (created on first use) and the generic (flat) addresses of shared and
  // local offset 0: what the shared and local windows of constant bank 0 hold.
  llvm::Value* shared_base();
  llvm::Value* generic_shared_base();
  llvm::Value* generic_local_base();
  // The global holding a read-only constant bank's bytes (KernelInfo::constant_banks), or nullptr.
  llvm::GlobalVariable* bank_global(std::uint32_t bank);

  // ---- findings ---------------------------------------------------------------------------------
  // Records that the current instruction cannot be lifted exactly; returns false for `return
  // cx.refuse(...)` in handlers.
  bool refuse(const std::string& why);
  bool ok() const { return ok_; }
  const std::vector<Diagnostic>& findings() const { return findings_; }
  void set_current(const sass::SassFunction* function, const sass::SassInstruction* instruction) {
    current_function_ = function;
    current_ = instruction;
  }
  const sass::SassInstruction* current() const { return current_; }

  // Per-kernel storage the core sets up.
  llvm::Value* parameter_block = nullptr;   // alloca [N x i8] holding the kernel's arguments
  std::uint32_t parameter_block_size = 0;
  llvm::GlobalVariable* shared_block = nullptr;
  llvm::Value* local_block = nullptr;       // alloca [local_bytes x i8] addrspace(5)
  std::uint32_t local_size = 0;

 private:
  llvm::AllocaInst* slot(std::map<unsigned, llvm::AllocaInst*>& file, unsigned index, llvm::Type* type, const char* prefix);
  llvm::Function* semantic_function(const std::string& full_name);
  llvm::Value* call_named(const std::string& full_name, std::vector<llvm::Value*> args);

 public:
  // i1 from any integer (nonzero), integer widths, same-size float/integer bits, pointers.
  llvm::Value* convert(llvm::Value* value, llvm::Type* to);

 private:

  llvm::Module& module_;
  llvm::Function& function_;
  const LiftRequest& request_;
  const ArchFacts* facts_;
  llvm::IRBuilder<> builder_;
  llvm::IRBuilder<> entry_;  // allocas and their initial values, at the top of the entry block
  std::map<std::uint32_t, llvm::GlobalVariable*> bank_globals_;
  std::map<unsigned, llvm::AllocaInst*> registers_, uniform_registers_, predicates_, uniform_predicates_;
  std::vector<Diagnostic> findings_;
  bool ok_ = true;
  const sass::SassFunction* current_function_ = nullptr;
  const sass::SassInstruction* current_ = nullptr;
};

// An instruction handler: emits the instruction's effect at the builder's position. Returns false
// (after cx.refuse) for a form it does not implement.
using Handler = std::function<bool(LiftContext&, const sass::SassInstruction&)>;
using HandlerTable = std::map<std::string, Handler, std::less<>>;

// The numeric value of an immediate of a float instruction (nvdisasm prints "-1", "0.5", "+INF"),
// or std::nullopt when the operand is not such an immediate (a hexadecimal immediate gives bits).
std::optional<double> float_immediate(const sass::SassOperand& op);

// One registration function per family file.
void register_integer_handlers(HandlerTable& table);
void register_float_handlers(HandlerTable& table);
void register_memory_handlers(HandlerTable& table);
void register_warp_handlers(HandlerTable& table);
void register_special_handlers(HandlerTable& table);
void register_mma_handlers(HandlerTable& table);

// CALL.ABS of a CUDA library function outside the listing that the lifter implements (vprintf,
// __assertfail; lift_special.cc): whether `call` is one, and its effect at the builder's position
// (a handler that ends the block, as a trap does, leaves it terminated).
bool is_library_call(const sass::SassInstruction& call);
void lift_library_call(LiftContext& cx, const sass::SassInstruction& call);

// Helpers the family files share.
// The comparison code of a modifier list (ISETP/FSETP/...): "LT" -> 1 ... as semantics/*.h
// number them; -1 when absent.
int integer_compare_code(const sass::SassInstruction& ins);
int float_compare_code(const sass::SassInstruction& ins);
// AND 0, OR 1, XOR 2; -1 when absent.
int boolean_op_code(const sass::SassInstruction& ins);
// The access width and signedness of a load or store from its modifiers: .U8 .S8 .U16 .S16
// (sub-word), .64 .128 (several registers), default (or .32) 32 bits (lift_memory.cc).
struct AccessWidth {
  unsigned bytes = 4;
  bool sign_extend = false;
};
AccessWidth access_width(const sass::SassInstruction& ins);

// Module variables (lift_memory.cc). The cubin's __constant__ variables (constant bank 3) and
// __device__ variables become globals of the module under the names the host code registers
// them by, created once per module with their initial bytes.
// The address of c[0x3][offset + ...]: `at` is the byte offset in the bank (offset plus any
// register index), `offset` the constant part that names the variable where each variable is a
// global of its own (NVPTX); nullptr after a finding when the kernel's info has no bank 3.
llvm::Value* constant_variable_pointer(LiftContext& cx, std::uint64_t offset, llvm::Value* at);
// The 32 bits a relocated immediate stands for: 32@lo(symbol) / 32@hi(symbol) of a module
// variable's address (+ addend), or of a code label ((kernel + .L_x_N@srel), a return address:
// the label's offset); poison after a finding for any other symbol or form.
llvm::Value* relocated_immediate(LiftContext& cx, const sass::SassOperand& op);
// The global a cubin symbol names (a __device__ or __constant__ variable), for relocations;
// nullptr after a finding for any other symbol.
llvm::Constant* variable_address(LiftContext& cx, std::string_view name);

}  // namespace gpuport::lift
