// The JIT tier (jit.h): one LLJIT per process, made when the first kernel is compiled. A kernel's
// module starts as the lane functions' bitcode (embedded by the build), gets the lifted kernel
// function (lift.cc), has the lane functions internalised and inlined by the O3 pipeline for the
// host CPU, and is added to the JIT. Compiled code is shared by every prepared kernel with the
// same content (instruction texts, branch targets, wave size): the code reads its steps through
// the frame, so it is not tied to one PreparedKernel.
//
// With a cache folder (jit_set_cache_dir; `gpuport run --cache DIR`), each compiled kernel's
// object file is kept there under a hash of everything its code depends on: the kernel's content,
// the host CPU and its features, and the bytes of the library this file is built into (the
// lifter and the lane functions). A later process loads the object instead of lifting and
// compiling: its calls into the runtime are relocations, resolved when it is linked.
#include "emu/jit.h"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/ObjectCache.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/ExecutionEngine/SectionMemoryManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/xxhash.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include "emu/interpreter.h"
#include "emu/lift.h"
#include "emu/semantics.h"

// lanes_bitcode.cc as bitcode, embedded by the build (cmake/embed_bytes.cmake).
namespace gpuport::lift {
extern const unsigned char kEmuLanesBitcode[];
extern const unsigned long kEmuLanesBitcodeSize;
}  // namespace gpuport::lift

namespace gpuport::emu {

bool parse_jit_mode(std::string_view text, JitMode& mode) {
  if (text == "never") mode = JitMode::never;
  else if (text == "hot" || text == "auto") mode = JitMode::hot;
  else if (text == "always") mode = JitMode::always;
  else return false;
  return true;
}

namespace {

// A step the lifter did not compile, run by its handler as the interpreter runs it: 0 on to the
// next step, 1 a fault (*pc is the step), 2 stopped (the limit reached before the step, or the
// wave left its loop after it; *pc is the next step), 3 the step moved the program counter.
int call_counted_step(JitFrame* f, std::uint64_t i) {
  *f->pc = i;
  const Step& st = f->steps[i];
  if (!st.handler(*f->wave, st, *f->context)) return 1;
  ++f->executed;
  if (*f->leave) {
    ++*f->pc;
    return 2;
  }
  return *f->pc == i ? 0 : 3;
}

int call_step(JitFrame* f, std::uint64_t i) {
  if (f->executed >= f->limit) {
    *f->pc = i;
    return 2;
  }
  f->lanes += static_cast<std::uint64_t>(std::popcount(f->wave->exec()));
  return call_counted_step(f, i);
}

// An s_load past the lifted code's inline check of the last region: the interpreter's lookup
// (lane 0's), which records the fault when there is none.
void* pointer(JitFrame* f, std::uint64_t address, std::uint64_t bytes) {
  return semantics::checked_global_pointer(*f->context, *f->wave, 0, address, bytes, false);
}

// The object file of each module compiled, written to the cache folder under the module's name
// (its content hash) through a temporary file and a rename, so that a reader never sees half a
// file and processes that compile the same kernel at once both leave a whole one.
class DiskCache final : public llvm::ObjectCache {
 public:
  std::string dir;
  std::string failure;  // the first write that failed
  void notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef object) override { store(m->getModuleIdentifier(), object); }
  void store(const std::string& name, llvm::MemoryBufferRef object) {
    if (dir.empty()) return;
    namespace fs = std::filesystem;
    const fs::path final_path = fs::path(dir) / (name + ".o");
    const fs::path temporary = fs::path(dir) / fmt::format(".{}.{}.tmp", name, ::getpid());
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out.write(object.getBufferStart(), static_cast<std::streamsize>(object.getBufferSize()));
      out.close();
      if (!out) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        if (failure.empty()) failure = fmt::format("cannot write {}", temporary.string());
        return;
      }
    }
    std::error_code ec;
    fs::rename(temporary, final_path, ec);
    if (ec) {
      fs::remove(temporary, ec);
      if (failure.empty()) failure = fmt::format("cannot write {}", final_path.string());
    }
  }
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module*) override { return nullptr; }  // looked up before lifting
};

struct Jit {
  std::mutex mutex;
  DiskCache disk;
  std::string library_hash;  // of this library's file, for cache keys (once)
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::unique_ptr<llvm::TargetMachine> machine;  // for the optimisation pipeline's cost model
  std::string cpu, features;
  std::string failure;  // why there is no JIT (once)
  bool started = false;
  std::map<std::string, JitEntry> by_content;
  JitTotals totals;
  // Compiling in a helper process (jit_compile_hot): the gpuport executable, and the kernels
  // being compiled there, by content key.
  std::string helper;
  std::atomic<bool> has_helper{false};  // read without the lock, on the interpreter's look-ups
  struct Pending {
    pid_t pid = -1;
    int object = -1, errors = -1;  // memfds: the helper's stdout and stderr
    std::string name;
    std::chrono::steady_clock::time_point started;
  };
  std::map<std::string, Pending> pending;
};

Jit& jit() {
  static Jit* j = new Jit;  // never destroyed: compiled code may run until the process exits
  return *j;
}

std::string error_text(llvm::Error e) { return llvm::toString(std::move(e)); }

// The host CPU as the JIT compiles for it, in the program and in the compile helper: its own
// features, with gathers and scatters left out. The lanes of a load or store that is neither
// contiguous nor uniform (a matrix tile's rows in the LDS, a strided gather) are then moved one
// by one: on this machine's AMD EPYC (Zen 4) emu_bench's memory-heavy kernel ran 2.2 -> 3.3 G
// lane-instructions/s, rocm-examples' matrix_multiplication 4.0 -> 3.1 s (docs/RESULTS.md), for
// about a tenth more compile time. LLVM already tunes its recent Intel targets so (Gather Data
// Sampling's microcode fix made their gathers slow).
llvm::Expected<llvm::orc::JITTargetMachineBuilder> host_machine() {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) return builder.takeError();
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  builder->getFeatures().AddFeature("prefer-no-gather");
  builder->getFeatures().AddFeature("prefer-no-scatter");
  return builder;
}

// With the lock held.
bool start(Jit& j) {
  if (j.started) return j.lljit != nullptr;
  j.started = true;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = host_machine();
  if (!builder) {
    j.failure = error_text(builder.takeError());
    return false;
  }
  j.cpu = builder->getCPU();
  j.features = builder->getFeatures().getString();
  auto machine = builder->createTargetMachine();
  if (!machine) {
    j.failure = error_text(machine.takeError());
    return false;
  }
  j.machine = std::move(*machine);
  llvm::orc::LLJITBuilder lljit_builder;
  lljit_builder.setJITTargetMachineBuilder(*builder);
  lljit_builder.setCompileFunctionCreator([&j](llvm::orc::JITTargetMachineBuilder jtmb)
                                              -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
    return std::make_unique<llvm::orc::ConcurrentIRCompiler>(std::move(jtmb), &j.disk);
  });
  // GPUPORT_JIT_PERF=1: compiled code described to perf (a jitdump in $JITDUMPDIR or ~/.debug;
  // `perf record -k 1`, then `perf inject --jit`), through RuntimeDyld, which LLVM's perf
  // listener needs. For study only: JITLink stays the default.
  if (const char* perf = std::getenv("GPUPORT_JIT_PERF"); perf && *perf == '1')
    lljit_builder.setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession& session, const llvm::Triple&) {
      auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(session, [] { return std::make_unique<llvm::SectionMemoryManager>(); });
      if (llvm::JITEventListener* listener = llvm::JITEventListener::createPerfJITEventListener()) layer->registerJITEventListener(*listener);
      return llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>>(std::move(layer));
    });
  auto lljit = lljit_builder.create();
  if (!lljit) {
    j.failure = error_text(lljit.takeError());
    return false;
  }
  j.lljit = std::move(*lljit);
  // libm and libc for whatever the optimised code still calls (fmaf without FMA, ldexpf, ...).
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(j.lljit->getDataLayout().getGlobalPrefix());
  if (!process) {
    j.failure = error_text(process.takeError());
    j.lljit.reset();
    return false;
  }
  j.lljit->getMainJITDylib().addGenerator(std::move(*process));
  // The runtime functions the lifted code calls.
  llvm::orc::SymbolMap runtime;
  runtime[j.lljit->mangleAndIntern("gpuport_jit_call_step")] = {llvm::orc::ExecutorAddr::fromPtr(&call_step), llvm::JITSymbolFlags::Exported};
  runtime[j.lljit->mangleAndIntern("gpuport_jit_pointer")] = {llvm::orc::ExecutorAddr::fromPtr(&pointer), llvm::JITSymbolFlags::Exported};
  runtime[j.lljit->mangleAndIntern("gpuport_jit_call_counted_step")] = {llvm::orc::ExecutorAddr::fromPtr(&call_counted_step),
                                                                        llvm::JITSymbolFlags::Exported};
  if (auto e = j.lljit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(runtime)))) {
    j.failure = error_text(std::move(e));
    j.lljit.reset();
    return false;
  }
  return true;
}

// What the compiled code depends on: the wave size and each step's instruction and target.
std::string content_key(const PreparedKernel& k) {
  std::string key = k.wave64 ? "w64" : "w32";
  for (const Step& s : k.steps) {
    key += '\n';
    if (s.instruction) key += s.instruction->text;
    else key += "<end>";
    if (s.target >= 0) key += fmt::format(" ->{}", s.target);
    if (s.run_end) key += fmt::format(" run to {}", s.run_end);
  }
  return key;
}

// A hash of the file this code was loaded from (the emulator's runtime library, or a test
// binary): a rebuilt lifter or lane function makes new keys. Empty if it cannot be read.
std::string library_hash() {
  Dl_info info{};
  if (::dladdr(reinterpret_cast<const void*>(&jit_compile), &info) == 0 || !info.dli_fname) return {};
  std::string path = info.dli_fname;
  if (path.find('/') == std::string::npos) path = "/proc/self/exe";  // the main program
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!file) return {};
  const llvm::XXH128_hash_t h = llvm::xxh3_128bits(llvm::arrayRefFromStringRef((*file)->getBuffer()));
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

// The name of a kernel's code and of its object in the cache: a hash of what the code depends on.
std::string cache_name(const Jit& j, const std::string& content) {
  const std::string all = fmt::format("gpuport-jit 1\n{}\n{}\n{}\n{}", j.cpu, j.features, j.library_hash, content);
  const llvm::XXH128_hash_t h = llvm::xxh3_128bits(llvm::arrayRefFromStringRef(all));
  return fmt::format("gpuport_kernel_{:016x}{:016x}", h.high64, h.low64);
}

// The cached object `name`.o linked into the JIT, or null (absent, or not a usable object: then it
// is compiled again and rewritten).
JitEntry load_cached(Jit& j, const std::string& name) {
  const std::string path = j.disk.dir + "/" + name + ".o";
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) return nullptr;
  auto tracker = j.lljit->getMainJITDylib().createResourceTracker();
  if (auto e = j.lljit->addObjectFile(tracker, std::move(*buffer))) {
    llvm::consumeError(std::move(e));
    llvm::consumeError(tracker->remove());
    return nullptr;
  }
  auto symbol = j.lljit->lookup(name);
  if (!symbol) {
    llvm::consumeError(symbol.takeError());
    llvm::consumeError(tracker->remove());
    return nullptr;
  }
  return symbol->toPtr<JitEntry>();
}

// LLVM's O3 pipeline without GVN: on the lifted kernels GVN took a fifth of the optimising time
// and the code ran no faster for it (its redundant loads are the VGPR columns' between lane
// loops, which it cannot forward; EarlyCSE and InstCombine keep the rest). rtm8's kernel:
// 1.44 s -> 1.19 s to compile, docs/RESULTS.md.
void optimise(llvm::Module& m, llvm::TargetMachine& machine) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback([](llvm::StringRef pass, llvm::Any) { return pass != "GVNPass"; });
  llvm::PassBuilder pb(&machine, llvm::PipelineTuningOptions(), std::nullopt, &instrumentation);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  // GPUPORT_JIT_PASSES="...": an opt-19 pass pipeline instead of O3, for study.
  if (const char* passes = std::getenv("GPUPORT_JIT_PASSES")) {
    llvm::ModulePassManager mpm;
    if (auto e = pb.parsePassPipeline(mpm, passes)) {
      llvm::errs() << "GPUPORT_JIT_PASSES: " << llvm::toString(std::move(e)) << "\n";
    } else {
      mpm.run(m, mam);
      return;
    }
  }
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
}


// The kernel lifted into a module of its own (the lane functions' bitcode plus the kernel's
// functions), verified, not yet optimised; null with `error` set when it cannot be.
std::unique_ptr<llvm::Module> lifted_module(Jit& j, const PreparedKernel& k, const std::string& name, llvm::LLVMContext& context,
                                            std::string& error) {
  auto fail = [&](std::string why) -> std::unique_ptr<llvm::Module> {
    error = std::move(why);
    return nullptr;
  };
  const llvm::StringRef bytes(reinterpret_cast<const char*>(lift::kEmuLanesBitcode), lift::kEmuLanesBitcodeSize);
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bytes, "lanes.bc"), context);
  if (!module) return fail("the lane functions' bitcode does not load: " + error_text(module.takeError()));
  llvm::Module& m = **module;
  m.setDataLayout(j.lljit->getDataLayout());
  m.setTargetTriple(j.lljit->getTargetTriple().str());
  // The lane functions: private to the module, inlined, compiled for the host CPU.
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.removeFnAttr(llvm::Attribute::NoInline);
    f.removeFnAttr(llvm::Attribute::OptimizeNone);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
    f.addFnAttr("target-cpu", j.cpu);
    f.addFnAttr("target-features", j.features);
  }
  m.setModuleIdentifier(name);
  std::size_t lifted = 0, called = 0;
  try {
    lift_kernel(k, m, name, lifted, called);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  if (llvm::Function* f = m.getFunction(name)) {
    f->addFnAttr("target-cpu", j.cpu);
    f->addFnAttr("target-features", j.features);
  }
  std::string broken;
  llvm::raw_string_ostream os(broken);
  if (llvm::verifyModule(m, &os)) return fail("the lifted IR is not valid: " + os.str());
  // GPUPORT_JIT_DUMP=DIR: the lifted module (before optimisation) as DIR/<name>.ll, for study
  // with opt-19 and llc-19.
  if (const char* dump = std::getenv("GPUPORT_JIT_DUMP")) {
    std::error_code ec;
    llvm::raw_fd_ostream out(std::string(dump) + "/" + name + ".ll", ec);
    if (!ec) m.print(out, nullptr);
  }
  return std::move(*module);
}

// With the lock held: the code already compiled or in the cache folder, or null.
JitEntry known(Jit& j, const std::string& key, const std::string& name) {
  if (auto it = j.by_content.find(key); it != j.by_content.end()) {
    ++j.totals.reused;
    return it->second;
  }
  const auto started = std::chrono::steady_clock::now();
  if (!j.disk.dir.empty())
    if (const JitEntry cached = load_cached(j, name)) {
      j.by_content.emplace(key, cached);
      ++j.totals.loaded;
      j.totals.load_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      return cached;
    }
  return nullptr;
}

// With the lock held: lifts, optimises and compiles here, on the calling thread.
JitEntry compile_here(Jit& j, const PreparedKernel& k, const std::string& key, const std::string& name, std::string* error) {
  auto fail = [&](std::string why) -> JitEntry {
    if (error) *error = std::move(why);
    return nullptr;
  };
  const auto started = std::chrono::steady_clock::now();
  auto context = std::make_unique<llvm::LLVMContext>();
  std::string why;
  std::unique_ptr<llvm::Module> module = lifted_module(j, k, name, *context, why);
  if (!module) return fail(why);
  optimise(*module, *j.machine);
  auto tracker = j.lljit->getMainJITDylib().createResourceTracker();
  if (auto e = j.lljit->addIRModule(tracker, llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return fail(error_text(std::move(e)));
  auto symbol = j.lljit->lookup(name);
  if (!symbol) return fail(error_text(symbol.takeError()));
  const JitEntry entry = symbol->toPtr<JitEntry>();
  j.by_content.emplace(key, entry);
  ++j.totals.compiled;
  j.totals.compile_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return entry;
}

// ---- the helper process. The lifted module goes to `gpuport jit-compile` as bitcode on its
// standard input and comes back as an object file on its standard output, both memory files
// (memfd), so nothing is written to disk and the helper never blocks on a pipe. The waves go on
// in the interpreter meanwhile; jit_compile_hot links the object when a wave next looks. The
// helper leaves when its parent does (it watches the parent's pid), so a program that ends or
// is killed leaves no compile running.
int memory_file(const char* name) { return ::memfd_create(name, MFD_CLOEXEC); }

std::string read_all(int fd) {
  std::string out;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return out;
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  out.resize(done);
  return out;
}

// With the lock held: starts the helper on the lifted kernel; false (with `error`) if it cannot.
bool start_helper(Jit& j, const PreparedKernel& k, const std::string& key, const std::string& name, std::string& error) {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module = lifted_module(j, k, name, context, error);
  if (!module) return false;
  Jit::Pending p;
  p.name = name;
  p.started = std::chrono::steady_clock::now();
  const int input = memory_file("gpuport-jit-bitcode");
  p.object = memory_file("gpuport-jit-object");
  p.errors = memory_file("gpuport-jit-errors");
  auto close_all = [&] {
    for (int fd : {input, p.object, p.errors})
      if (fd >= 0) ::close(fd);
  };
  if (input < 0 || p.object < 0 || p.errors < 0) {
    error = "memfd_create failed";
    close_all();
    return false;
  }
  {
    llvm::raw_fd_ostream out(input, /*shouldClose=*/false);
    llvm::WriteBitcodeToFile(*module, out);
    out.flush();
    if (out.has_error()) {
      out.clear_error();
      error = "the lifted kernel could not be written for the helper";
      close_all();
      return false;
    }
  }
  ::lseek(input, 0, SEEK_SET);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input, 0);
  posix_spawn_file_actions_adddup2(&actions, p.object, 1);
  posix_spawn_file_actions_adddup2(&actions, p.errors, 2);
  const std::string parent = std::to_string(::getpid());
  const char* argv[] = {j.helper.c_str(), "jit-compile", "--parent", parent.c_str(), nullptr};
  const int spawned = ::posix_spawn(&p.pid, j.helper.c_str(), &actions, nullptr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(input);
  if (spawned != 0) {
    error = fmt::format("cannot start {}: {}", j.helper, std::strerror(spawned));
    ::close(p.object);
    ::close(p.errors);
    return false;
  }
  j.pending.emplace(key, p);
  return true;
}

// With the lock held: the helper's object linked once it has finished; null while it runs
// (`waiting`) or when it failed (`error`).
JitEntry collect(Jit& j, const std::string& key, std::string* error, bool& waiting) {
  Jit::Pending& p = j.pending.at(key);
  int status = 0;
  const pid_t r = ::waitpid(p.pid, &status, WNOHANG);
  if (r == 0) {
    waiting = true;
    return nullptr;
  }
  const std::string object = read_all(p.object), errors = read_all(p.errors);
  ::close(p.object);
  ::close(p.errors);
  const Jit::Pending done = p;
  j.pending.erase(key);
  auto fail = [&](std::string why) -> JitEntry {
    if (error) *error = std::move(why);
    return nullptr;
  };
  if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return fail("the compile helper failed" + (errors.empty() ? std::string() : ": " + errors.substr(0, errors.find('\n'))));
  j.disk.store(done.name, llvm::MemoryBufferRef(object, done.name));
  auto tracker = j.lljit->getMainJITDylib().createResourceTracker();
  if (auto e = j.lljit->addObjectFile(tracker, llvm::MemoryBuffer::getMemBufferCopy(object, done.name))) return fail(error_text(std::move(e)));
  auto symbol = j.lljit->lookup(done.name);
  if (!symbol) return fail(error_text(symbol.takeError()));
  const JitEntry entry = symbol->toPtr<JitEntry>();
  j.by_content.emplace(key, entry);
  ++j.totals.compiled;
  ++j.totals.background;
  j.totals.compile_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - done.started).count();
  return entry;
}

// Whether `k` goes to the helper: one is set and the kernel is big enough (kJitHelperSteps).
bool uses_helper(const Jit& j, const PreparedKernel& k) {
  return k.kernel_instructions >= kJitHelperSteps && j.has_helper.load(std::memory_order_relaxed);
}

// With the lock held: the JIT started (false, with `error`, if it cannot be), and the kernel's
// content key and code name.
bool begin(Jit& j, const PreparedKernel& k, std::string* error, std::string& key, std::string& name) {
  if (!start(j)) {
    if (error) *error = "the JIT cannot start: " + j.failure;
    return false;
  }
  key = content_key(k);
  name = cache_name(j, key);
  return true;
}

}  // namespace

JitEntry jit_compile(const PreparedKernel& k, std::string* error) {
  Jit& j = jit();
  std::lock_guard lock(j.mutex);
  std::string key, name;
  if (!begin(j, k, error, key, name)) return nullptr;
  if (const JitEntry e = known(j, key, name)) return e;
  return compile_here(j, k, key, name, error);
}

JitEntry jit_compile_hot(const PreparedKernel& k, std::string* error, bool& waiting) {
  Jit& j = jit();
  // A caller that polls does not wait behind another kernel's compile in this process.
  std::unique_lock lock(j.mutex, std::defer_lock);
  if (waiting && !lock.try_lock()) return nullptr;
  if (!lock.owns_lock()) lock.lock();
  waiting = false;
  std::string key, name;
  if (!begin(j, k, error, key, name)) return nullptr;
  if (j.pending.count(key)) return collect(j, key, error, waiting);
  if (const JitEntry e = known(j, key, name)) return e;
  std::string why;
  if (uses_helper(j, k) && start_helper(j, k, key, name, why)) {
    waiting = true;
    return nullptr;
  }
  return compile_here(j, k, key, name, error);
}

void jit_set_compile_helper(const std::string& path) {
  Jit& j = jit();
  std::lock_guard lock(j.mutex);
  j.helper = path;
  j.has_helper = !path.empty();
}

bool jit_compiles_in_helper(const PreparedKernel& k) { return uses_helper(jit(), k); }

int jit_compile_helper_main(int parent) {
  // Leave when the parent does: a compile nobody will link is not to run on.
  std::thread([parent] {
    for (;;) {
      if (::getppid() != parent) std::_Exit(3);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }).detach();
  std::string bitcode;
  char buffer[1 << 16];
  for (ssize_t n; (n = ::read(0, buffer, sizeof buffer)) > 0;) bitcode.append(buffer, static_cast<std::size_t>(n));
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto builder = host_machine();
  if (!builder) {
    std::fprintf(stderr, "%s\n", error_text(builder.takeError()).c_str());
    return 1;
  }
  auto machine = builder->createTargetMachine();
  if (!machine) {
    std::fprintf(stderr, "%s\n", error_text(machine.takeError()).c_str());
    return 1;
  }
  llvm::LLVMContext context;
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "kernel.bc"), context);
  if (!module) {
    std::fprintf(stderr, "the lifted kernel does not load: %s\n", error_text(module.takeError()).c_str());
    return 1;
  }
  optimise(**module, **machine);
  llvm::orc::SimpleCompiler compiler(**machine);
  auto object = compiler(**module);
  if (!object) {
    std::fprintf(stderr, "%s\n", error_text(object.takeError()).c_str());
    return 1;
  }
  const llvm::StringRef bytes = (*object)->getBuffer();
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(1, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return 1;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

JitTotals jit_totals() {
  Jit& j = jit();
  std::lock_guard lock(j.mutex);
  JitTotals t = j.totals;
  t.cache_failure = j.disk.failure;
  return t;
}

void jit_set_cache_dir(const std::string& dir) {
  Jit& j = jit();
  std::lock_guard lock(j.mutex);
  j.disk.dir = dir;
  if (!dir.empty() && j.library_hash.empty()) j.library_hash = library_hash();
}

}  // namespace gpuport::emu
