#include "lift/source_declarations.h"

#include <fmt/format.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <functional>
#include <map>
#include <system_error>

#include "common/plain_paths.h"
#include "common/process.h"

namespace gpuport::lift {
namespace {

namespace fs = std::filesystem;

// The bytes of a constant initializer as the target lays it out (little-endian); false for
// what has no fixed bytes (the address of another object).
bool constant_bytes(const llvm::DataLayout& layout, const llvm::Constant* c, std::uint8_t* out) {
  if (llvm::isa<llvm::ConstantAggregateZero>(c) || llvm::isa<llvm::UndefValue>(c) || c->isNullValue()) return true;  // zero-filled
  if (const auto* i = llvm::dyn_cast<llvm::ConstantInt>(c)) {
    const llvm::APInt& v = i->getValue();
    const std::uint64_t bytes = layout.getTypeStoreSize(c->getType());
    for (std::uint64_t k = 0; k < bytes; ++k) out[k] = static_cast<std::uint8_t>(v.extractBitsAsZExtValue(8, static_cast<unsigned>(k * 8)));
    return true;
  }
  if (const auto* f = llvm::dyn_cast<llvm::ConstantFP>(c)) {
    const llvm::APInt v = f->getValueAPF().bitcastToAPInt();
    for (unsigned k = 0; k < v.getBitWidth() / 8; ++k) out[k] = static_cast<std::uint8_t>(v.extractBitsAsZExtValue(8, k * 8));
    return true;
  }
  if (const auto* d = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
    const std::uint64_t element = layout.getTypeAllocSize(d->getElementType());
    for (unsigned k = 0; k < d->getNumElements(); ++k)
      if (!constant_bytes(layout, d->getElementAsConstant(k), out + k * element)) return false;
    return true;
  }
  if (const auto* s = llvm::dyn_cast<llvm::ConstantStruct>(c)) {
    const llvm::StructLayout* fields = layout.getStructLayout(s->getType());
    for (unsigned k = 0; k < s->getNumOperands(); ++k)
      if (!constant_bytes(layout, s->getOperand(k), out + fields->getElementOffset(k))) return false;
    return true;
  }
  if (llvm::isa<llvm::ConstantArray>(c) || llvm::isa<llvm::ConstantVector>(c)) {
    llvm::Type* element = c->getType()->isArrayTy() ? c->getType()->getArrayElementType()
                                                    : llvm::cast<llvm::VectorType>(c->getType())->getElementType();
    const std::uint64_t size = layout.getTypeAllocSize(element);
    for (unsigned k = 0; k < c->getNumOperands(); ++k)
      if (!constant_bytes(layout, llvm::cast<llvm::Constant>(c->getOperand(k)), out + k * size)) return false;
    return true;
  }
  return false;
}

// A __constant__ variable of the source: HIP puts them in the constant address space (4),
// writable by the host (not constant; externally initialised where the host registers them);
// HIP's own header objects (threadIdx and the like) and string literals are constants.
bool is_constant_variable(const llvm::GlobalVariable& g) {
  return g.getAddressSpace() == 4 && !g.isConstant() && !g.isDeclaration() &&
         !g.hasLinkOnceLinkage() && !g.hasWeakLinkage();
}

// Where a variable is defined: (0 for an included file, 1 for the main file; 2 none), line.
using Position = std::pair<int, unsigned>;

Diagnostic error_at(const fs::path& file, std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = file.string();
  return d;
}

}  // namespace

Result<SourceDeclarations> read_source_declarations(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    return error_at(file, "io-error", "cannot read the source file (--source)");
  const fs::path clang = find_program("clang-19");
  if (clang.empty()) return error_at(file, "tool-missing", "clang-19, which reads the source's declarations, is not installed");
  const TemporaryFolder temporary = TemporaryFolder::make("source");
  if (temporary.empty()) return error_at(file, "io-error", "cannot make a temporary folder to compile the source in");
  const fs::path& folder = temporary.path();
  const fs::path bitcode = folder / "declarations.bc";
  // Device code only, unoptimised, without the device libraries: only declarations are read;
  // with debug information, for the line of each variable's definition.
  const std::vector<std::string> argv = {clang.string(), "-x", "hip", "--cuda-device-only", "--offload-arch=gfx1100", "-nogpulib",
                                         "--rocm-path=/usr", "-O0", "-g", "-w", "-fno-color-diagnostics", "-emit-llvm", "-c",
                                         fs::absolute(file).string(), "-o", bitcode.string()};
  ProcessOptions options;
  options.environment["TMPDIR"] = folder.string();
  const ProcessResult compiled = run_process(argv, options);
  if (!compiled.succeeded()) {
    std::string first = compiled.err.substr(0, compiled.err.find('\n'));
    return error_at(file, "source-compile-failed",
                    fmt::format("the source does not compile as HIP with clang-19 ({}); --source takes the program's HIP "
                                "translation (gpuport translate)",
                                first.empty() ? compiled.outcome() : first));
  }
  auto buffer = llvm::MemoryBuffer::getFile(bitcode.string());
  if (!buffer) return error_at(file, "io-error", "clang-19 wrote no module for the source");
  llvm::LLVMContext context;
  auto parsed = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), context);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return error_at(file, "io-error", "the module clang-19 wrote for the source cannot be read");
  }
  const llvm::Module& module = **parsed;
  const llvm::DataLayout& layout = module.getDataLayout();

  // nvcc's order (probed with nvcc 11.8, see docs/asm.md): namespace by namespace, the global
  // namespace's variables first, in definition order, then each namespace in the order it first
  // appears (the anonymous one included); inside a named namespace its nested namespaces come
  // before its own variables. Clang's module order differs (it emits internal variables when
  // first used), so the order is rebuilt from the debug information: each variable's namespace
  // path and position (variables of included files before the main file's, then by line).
  struct Scope {
    std::vector<std::pair<Position, const llvm::GlobalVariable*>> variables;
    std::map<std::string, Scope> children;
    Position first{2, 0};
  };
  Scope root;
  const std::string main_file = fs::path(module.getSourceFileName()).filename().string();
  for (const llvm::GlobalVariable& g : module.globals()) {
    if (!is_constant_variable(g)) continue;
    llvm::SmallVector<llvm::DIGlobalVariableExpression*, 1> debug;
    g.getDebugInfo(debug);
    Position at{1, 0};
    std::vector<std::string> path;
    if (!debug.empty() && debug.front()->getVariable() != nullptr) {
      const llvm::DIGlobalVariable* v = debug.front()->getVariable();
      at = {v->getFilename() == main_file || fs::path(v->getFilename().str()).filename() == main_file ? 1 : 0, v->getLine()};
      for (const llvm::DIScope* scope = v->getScope(); scope != nullptr; scope = scope->getScope()) {
        if (const auto* ns = llvm::dyn_cast<llvm::DINamespace>(scope)) path.insert(path.begin(), ns->getName().str());
        else if (!llvm::isa<llvm::DINamespace>(scope)) break;
      }
    }
    Scope* s = &root;
    s->first = std::min(s->first, at);
    for (const auto& name : path) {
      s = &s->children[name];
      s->first = std::min(s->first, at);
    }
    s->variables.push_back({at, &g});
  }
  std::vector<const llvm::GlobalVariable*> ordered;
  std::function<void(Scope&, bool)> lay_out = [&](Scope& s, bool global) {
    std::stable_sort(s.variables.begin(), s.variables.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<Scope*> children;
    for (auto& [name, child] : s.children) children.push_back(&child);
    std::stable_sort(children.begin(), children.end(), [](const Scope* x, const Scope* y) { return x->first < y->first; });
    if (global)
      for (const auto& v : s.variables) ordered.push_back(v.second);
    for (Scope* child : children) lay_out(*child, false);
    if (!global)
      for (const auto& v : s.variables) ordered.push_back(v.second);
  };
  lay_out(root, true);

  SourceDeclarations out;
  out.file = file;
  std::uint64_t end = 0;
  for (const llvm::GlobalVariable* variable : ordered) {
    const llvm::GlobalVariable& g = *variable;
    llvm::Type* type = g.getValueType();
    const std::uint64_t size = layout.getTypeAllocSize(type);
    const std::uint64_t align = layout.getABITypeAlign(type).value();
    ModuleVariable v;
    v.name = g.getName().str();
    v.host_name = true;
    v.bank = 3;
    v.offset = (end + align - 1) / align * align;
    v.size = size;
    v.initial.assign(size, 0);
    if (g.hasInitializer() && !constant_bytes(layout, g.getInitializer(), v.initial.data()))
      return error_at(file, "unsupported-initializer",
                      fmt::format("__constant__ {} has an initial value without fixed bytes (an address)", v.name));
    end = v.offset + size;
    out.constants.push_back(std::move(v));
  }
  out.constant_bank.assign(end, 0);
  for (const auto& v : out.constants) std::copy(v.initial.begin(), v.initial.end(), out.constant_bank.begin() + static_cast<std::ptrdiff_t>(v.offset));
  for (const llvm::Function& f : module.functions()) {
    if (f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL || f.isDeclaration()) continue;
    auto& parameters = out.kernel_parameters[f.getName().str()];
    for (const llvm::Argument& a : f.args()) {
      llvm::Type* type = a.getType();
      if (a.hasByRefAttr()) type = a.getParamByRefType();
      else if (a.hasByValAttr()) type = a.getParamByValType();
      parameters.emplace_back(static_cast<std::uint32_t>(layout.getTypeAllocSize(type)),
                              static_cast<std::uint32_t>(layout.getABITypeAlign(type).value()));
    }
  }
  return out;
}

}  // namespace gpuport::lift
