// Kernel facts for the lifter; see kernel_info.h.
#include "lift/kernel_info.h"

#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>

#include "lift/hip_names.h"
#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

// Splits "a, b<c, d>, e" at the commas outside brackets.
std::vector<std::string> split_top_level(std::string_view list) {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  for (char c : list) {
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(current);
      current.clear();
      continue;
    }
    if (!(c == ' ' && current.empty())) current += c;
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

bool is_pointer_type(const std::string& t) { return !t.empty() && t.back() == '*'; }

// The module's __constant__ variables (.nv.constant3: bank 3, whose bytes are kept whole in
// constant_banks[3]) and __device__ variables (.nv.global, zero-initialised, and
// .nv.global.init), from the cubin's object symbols: the lifted module holds them as globals of
// the same names, which is how the HIP host code finds them (hipMemcpyToSymbol and friends).
void add_module_variables(const sass::Cubin& cubin, std::string_view file, KernelInfo& info) {
  constexpr std::uint8_t kObjectSymbol = 1;  // STT_OBJECT
  for (const auto& symbol : cubin.symbols) {
    if ((symbol.info & 0xf) != kObjectSymbol || symbol.section >= cubin.sections.size() || symbol.name.empty()) continue;
    const sass::CubinSection& section = cubin.sections[symbol.section];
    ModuleVariable v;
    if (section.name == ".nv.constant3") v.bank = 3;
    else if (section.name != ".nv.global" && section.name != ".nv.global.init") continue;
    v.name = symbol.name;
    v.offset = symbol.value;
    v.size = symbol.size;
    const std::string_view bytes = sass::Cubin::section_bytes(file, section);
    if (symbol.value < bytes.size()) {
      const std::string_view mine = bytes.substr(symbol.value, symbol.size);
      v.initial.assign(mine.begin(), mine.end());
    }
    info.variables.push_back(std::move(v));
  }
  if (const sass::CubinSection* s = cubin.find_section(".nv.constant3")) {
    const std::string_view bytes = sass::Cubin::section_bytes(file, *s);
    std::vector<std::uint8_t> bank(bytes.begin(), bytes.end());
    bank.resize(s->size, 0);  // NOBITS: all zero
    info.constant_banks[3] = std::move(bank);
  }
}

// CUDA 13's bank 4 (sm_100, sm_120): one per module, the 64-bit addresses of the globals that the
// kernels read through `LDC.64 R, c[0x4][offset]` where CUDA 11.8 wrote `32@lo(symbol)`
// immediates. The section holds zeros; its relocations (.rela.nv.constant4, Elf64_Rela) say
// which symbol's address the loader puts at each offset.
void add_address_bank(const sass::Cubin& cubin, std::string_view file, KernelInfo& info) {
  const sass::CubinSection* s = cubin.find_section(".nv.constant4");
  if (s == nullptr) return;
  const std::string_view bytes = sass::Cubin::section_bytes(file, *s);
  std::vector<std::uint8_t> bank(bytes.begin(), bytes.end());
  bank.resize(s->size, 0);
  info.constant_banks[4] = std::move(bank);
  const sass::CubinSection* rela = cubin.find_section(".rela.nv.constant4");
  if (rela == nullptr) return;
  const std::string_view r = sass::Cubin::section_bytes(file, *rela);
  constexpr std::size_t kRela = 24;  // r_offset, r_info (symbol << 32 | type), r_addend
  for (std::size_t at = 0; at + kRela <= r.size(); at += kRela) {
    std::uint64_t offset = 0, relocation_info = 0;
    std::int64_t addend = 0;
    std::memcpy(&offset, r.data() + at, 8);
    std::memcpy(&relocation_info, r.data() + at + 8, 8);
    std::memcpy(&addend, r.data() + at + 16, 8);
    const std::uint64_t symbol = relocation_info >> 32;
    KernelInfo::BankRelocation b;
    b.offset = offset;
    b.type = static_cast<std::uint32_t>(relocation_info & 0xffffffffu);
    b.symbol = symbol < cubin.symbols.size() ? cubin.symbols[symbol].name : std::string();
    b.addend = addend;
    info.bank_relocations[4].push_back(std::move(b));
  }
  std::sort(info.bank_relocations[4].begin(), info.bank_relocations[4].end(),
            [](const auto& x, const auto& y) { return x.offset < y.offset; });
}

}  // namespace

std::vector<std::string> demangled_parameter_types(const std::string& mangled, bool& is_function) {
  is_function = false;
  llvm::ItaniumPartialDemangler d;
  if (d.partialDemangle(mangled.c_str()) || !d.isFunction()) return {};
  is_function = true;
  std::size_t size = 0;
  char* params = d.getFunctionParameters(nullptr, &size);
  if (params == nullptr) return {};
  std::string text(params);
  std::free(params);
  if (text.size() >= 2 && text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
  if (text.empty() || text == "void") return {};
  return split_top_level(text);
}

KernelInfo kernel_info_from_cubin(const sass::Cubin& cubin, std::string_view file, const sass::CubinKernel& kernel) {
  KernelInfo info;
  info.name = kernel.name;
  bool is_function = false;
  const std::vector<std::string> types = demangled_parameter_types(kernel.name, is_function);
  for (const auto& p : kernel.parameters) {
    ParameterLayout l;
    l.offset = p.offset;
    l.size = p.size;
    // The alignment the offset and size allow, at most 16 (a parameter's natural alignment divides
    // both; HIP lays the same signature out the same way).
    std::uint32_t align = 16;
    while (align > 1 && (p.offset % align != 0 || p.size % align != 0)) align /= 2;
    l.alignment = align;
    if (p.ordinal < types.size()) l.pointer = is_pointer_type(types[p.ordinal]) && p.size == 8;
    info.parameters.push_back(l);
  }
  std::sort(info.parameters.begin(), info.parameters.end(), [](auto& a, auto& b) { return a.offset < b.offset; });
  info.static_shared_bytes = kernel.shared_memory_size;
  std::uint32_t local = 0;
  for (const auto& v : {kernel.max_stack_size, kernel.min_stack_size, kernel.frame_size})
    if (v) local = std::max(local, *v);
  info.local_bytes = local;
  if (const sass::CubinSection* s = cubin.find_section(".nv.constant2." + kernel.name)) {
    const std::string_view bytes = sass::Cubin::section_bytes(file, *s);
    info.constant_banks[2] = std::vector<std::uint8_t>(bytes.begin(), bytes.end());
  }
  add_module_variables(cubin, file, info);
  add_address_bank(cubin, file, info);
  return info;
}

namespace {

// Size and alignment of a parameter type as nvcc lays it out (the C ABI; CUDA's vector types are
// over-aligned to their size up to 16), or {0, 0} for a type the name alone does not size
// (structs, classes, unions passed by value).
std::pair<std::uint32_t, std::uint32_t> natural_layout(const std::string& t) {
  if (is_pointer_type(t)) return {8, 8};
  static const std::map<std::string, std::pair<std::uint32_t, std::uint32_t>, std::less<>> kScalars = {
      {"bool", {1, 1}}, {"char", {1, 1}}, {"signed char", {1, 1}}, {"unsigned char", {1, 1}},
      {"short", {2, 2}}, {"unsigned short", {2, 2}}, {"__half", {2, 2}}, {"__nv_bfloat16", {2, 2}},
      {"int", {4, 4}}, {"unsigned int", {4, 4}}, {"float", {4, 4}}, {"wchar_t", {4, 4}},
      {"long", {8, 8}}, {"unsigned long", {8, 8}}, {"long long", {8, 8}}, {"unsigned long long", {8, 8}},
      {"double", {8, 8}}, {"__half2", {4, 4}}, {"__nv_bfloat162", {4, 4}},
  };
  if (auto it = kScalars.find(t); it != kScalars.end()) return it->second;
  // CUDA's vector types: charN/ucharN/shortN/ushortN/intN/uintN/floatN/longN/ulongN/longlongN/
  // ulonglongN/doubleN, N = 1..4; N = 3 has the element's alignment, the others N * element size.
  static const std::map<std::string, std::uint32_t, std::less<>> kElements = {
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4}, {"uint", 4}, {"float", 4},
      {"long", 8}, {"ulong", 8}, {"longlong", 8}, {"ulonglong", 8}, {"double", 8}};
  if (t.size() >= 2) {
    const char n = t.back();
    if (n >= '1' && n <= '4') {
      if (auto it = kElements.find(std::string_view(t).substr(0, t.size() - 1)); it != kElements.end()) {
        const std::uint32_t count = static_cast<std::uint32_t>(n - '0');
        const std::uint32_t size = it->second * count;
        const std::uint32_t align = count == 3 ? it->second : std::min<std::uint32_t>(size, 16);
        return {size, align};
      }
    }
  }
  return {0, 0};
}

bool is_shared_access(const std::string& opcode) {
  return opcode == "LDS" || opcode == "STS" || opcode == "ATOMS" || opcode == "LDSM";
}

}  // namespace

KernelInfo kernel_info_from_text(const sass::SassProgram& program, const sass::SassFunction& kernel, int arch,
                                 const TextLayoutHints& hints, std::vector<Diagnostic>& findings) {
  KernelInfo info;
  info.name = kernel.name;
  bool is_function = false;
  const std::vector<std::string> types = demangled_parameter_types(kernel.name, is_function);
  if (!is_function) {
    Diagnostic d;
    d.code = "unknown-signature";
    d.message = fmt::format("kernel {}: the parameter layout is unknown without the cubin (the name is not a mangled C++ "
                            "function)", kernel.name);
    findings.push_back(d);
  }
  // The source's own signature of the kernel, under the name HIP registers it by.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>* declared = nullptr;
  if (hints.declarations != nullptr) {
    const auto found = hints.declarations->kernel_parameters.find(hip_mangled_name(kernel.name).name);
    if (found != hints.declarations->kernel_parameters.end() && found->second.size() == types.size()) declared = &found->second;
    info.variables = hints.declarations->constants;
    if (!hints.declarations->constant_bank.empty()) info.constant_banks[3] = hints.declarations->constant_bank;
  }
  std::uint32_t offset = 0;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const std::string& t = types[i];
    auto [size, align] = natural_layout(t);
    if (size == 0 && declared != nullptr) std::tie(size, align) = (*declared)[i];
    if (size == 0) {
      Diagnostic d;
      d.code = "unknown-signature";
      d.message = fmt::format("kernel {}: the size of parameter type '{}' is unknown without the cubin{}", kernel.name, t,
                              hints.declarations == nullptr ? " (--source gives it)" : " or the kernel in --source");
      findings.push_back(d);
      return info;
    }
    offset = (offset + align - 1) / align * align;
    info.parameters.push_back({offset, size, align, is_pointer_type(t)});
    offset += size;
  }

  // Shared and local sizes from the instructions of the kernel and everything in the listing it
  // may call (a listing's other functions are its callees or other kernels; counting them all
  // can only over-reserve). A shared access through a register may reach past every constant
  // offset the listing shows, so then the static size cannot be bounded from the text and the
  // NVIDIA limit for static shared memory (48 KiB) is reserved, with a note.
  std::uint64_t shared_bound = 0;
  bool shared_indexed = false;
  std::uint64_t local_frame = 0, local_bound = 0;
  for (const auto& f : program.functions) {
    if (&f != &kernel && f.is_entry) continue;
    for (const auto& ins : f.instructions) {
      // R1 is the stack pointer: "IADD3 R1, R1, -0x30, RZ" opens a frame of 0x30 bytes.
      if ((ins.opcode == "IADD3" || ins.opcode == "IADD") && ins.operands.size() >= 3 &&
          ins.operands[0].kind == sass::OperandKind::reg && ins.operands[0].index == 1 &&
          ins.operands[1].kind == sass::OperandKind::reg && ins.operands[1].index == 1 &&
          ins.operands[2].kind == sass::OperandKind::immediate && ins.operands[2].value < 0)
        local_frame += static_cast<std::uint64_t>(-ins.operands[2].value);
      const bool shared = is_shared_access(ins.opcode);
      const bool local = ins.opcode == "LDL" || ins.opcode == "STL";
      if (!shared && !local) continue;
      for (const auto& op : ins.operands) {
        if (op.kind != sass::OperandKind::memory) continue;
        const auto& a = op.address;
        const std::uint64_t end = static_cast<std::uint64_t>(std::max<std::int64_t>(a.offset, 0)) + access_width(ins).bytes;
        const bool through_register = (a.base.present && a.base.index != sass::kZeroRegister) ||
                                      (a.index.present && a.index.index != 255);
        if (shared) {
          shared_bound = std::max(shared_bound, end);
          shared_indexed = shared_indexed || through_register;
        } else {
          local_bound = std::max(local_bound, end);
        }
      }
    }
  }
  const std::uint64_t window = arch_facts(arch).shared_window_offset;  // sm_90 on: the first 1 KiB is unused
  if (hints.static_shared_bytes) {
    info.static_shared_bytes = *hints.static_shared_bytes;
  } else if (shared_indexed) {
    info.static_shared_bytes = std::max<std::uint64_t>(48 * 1024, shared_bound > window ? shared_bound - window : 0);
    Diagnostic d;
    d.severity = Severity::note;
    d.code = "shared-size-estimated";
    d.message = fmt::format("kernel {}: the listing does not say how much static shared memory the kernel has; 48 KiB "
                            "reserved (NVIDIA's static limit), which leaves {} KiB of gfx1100's 64 KiB for dynamic shared "
                            "memory; give the size with --shared-bytes",
                            kernel.name, (64 * 1024 - info.static_shared_bytes - window) / 1024);
    findings.push_back(d);
  } else {
    info.static_shared_bytes = shared_bound > window ? shared_bound - window : 0;
  }
  info.local_bytes = static_cast<std::uint32_t>(std::max(local_frame, local_bound));
  if (hints.local_bytes) info.local_bytes = *hints.local_bytes;
  return info;
}

}  // namespace gpuport::lift
