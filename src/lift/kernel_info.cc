// Kernel facts for the lifter; see kernel_info.h.
#include "lift/kernel_info.h"

#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cstdlib>

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
  return info;
}

KernelInfo kernel_info_from_text(const sass::SassFunction& kernel, int, std::vector<Diagnostic>& findings) {
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
  std::uint32_t offset = 0;
  for (const auto& t : types) {
    std::uint32_t size = 0;
    if (is_pointer_type(t)) size = 8;
    else if (t == "char" || t == "signed char" || t == "unsigned char" || t == "bool") size = 1;
    else if (t == "short" || t == "unsigned short" || t == "__half") size = 2;
    else if (t == "int" || t == "unsigned int" || t == "float") size = 4;
    else if (t == "long" || t == "unsigned long" || t == "long long" || t == "unsigned long long" || t == "double") size = 8;
    if (size == 0) {
      Diagnostic d;
      d.code = "unknown-signature";
      d.message = fmt::format("kernel {}: the size of parameter type '{}' is unknown without the cubin", kernel.name, t);
      findings.push_back(d);
      return info;
    }
    offset = (offset + size - 1) / size * size;
    info.parameters.push_back({offset, size, size, is_pointer_type(t)});
    offset += size;
  }
  return info;
}

}  // namespace gpuport::lift
