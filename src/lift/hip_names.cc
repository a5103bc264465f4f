// nvcc's mangled names to the HIP program's; see hip_names.h. The Itanium C++ ABI's mangling
// rules (itanium-cxx-abi.github.io/cxx-abi/abi.html#mangling) are followed for the subset kernel
// and variable names use: nested and template names, builtin, class, pointer, reference and
// CV-qualified types, integer and bool template arguments, template parameters, substitutions.
#include "lift/hip_names.h"

#include <llvm/Demangle/ItaniumDemangle.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

namespace gpuport::lift {

namespace {

namespace id = llvm::itanium_demangle;

// The demangler's node allocator: a bump arena freed all at once (nodes have trivial
// destructors and are never freed one by one).
class Arena {
 public:
  template <class T, class... Args>
  T* makeNode(Args&&... args) {
    return new (allocate(sizeof(T))) T(std::forward<Args>(args)...);
  }
  void* allocateNodeArray(std::size_t count) { return allocate(count * sizeof(id::Node*)); }
  void reset() { blocks_.clear(); }

 private:
  void* allocate(std::size_t bytes) {
    constexpr std::size_t kAlign = alignof(std::max_align_t);
    bytes = (bytes + kAlign - 1) / kAlign * kAlign;
    if (blocks_.empty() || used_ + bytes > kBlock) {
      blocks_.push_back(std::make_unique<std::max_align_t[]>(std::max(bytes, kBlock) / sizeof(std::max_align_t) + 1));
      used_ = 0;
    }
    char* at = reinterpret_cast<char*>(blocks_.back().get()) + used_;
    used_ += bytes;
    return at;
  }
  static constexpr std::size_t kBlock = 16 * 1024;
  std::vector<std::unique_ptr<std::max_align_t[]>> blocks_;
  std::size_t used_ = 0;
};

// The demangler's spelling of each builtin type -> its mangling.
const std::map<std::string_view, std::string_view>& builtin_codes() {
  static const std::map<std::string_view, std::string_view> codes = {
      {"void", "v"}, {"wchar_t", "w"}, {"bool", "b"}, {"char", "c"}, {"signed char", "a"}, {"unsigned char", "h"},
      {"short", "s"}, {"unsigned short", "t"}, {"int", "i"}, {"unsigned int", "j"}, {"long", "l"},
      {"unsigned long", "m"}, {"long long", "x"}, {"unsigned long long", "y"}, {"__int128", "n"},
      {"unsigned __int128", "o"}, {"float", "f"}, {"double", "d"}, {"long double", "e"}, {"__float128", "g"},
      {"...", "z"}, {"half", "Dh"}, {"_Float16", "DF16_"}, {"char32_t", "Di"}, {"char16_t", "Ds"}, {"char8_t", "Du"},
      {"decltype(nullptr)", "Dn"}, {"std::nullptr_t", "Dn"}};
  return codes;
}

// CUDA's vector types (structs named charN ... doubleN) are HIP_vector_type<T, N> in HIP
// (amd_hip_vector_types.h, __MAKE_VECTOR_TYPE__): the element's mangling, or empty.
std::string_view vector_element(std::string_view name, unsigned& count) {
  static const std::map<std::string_view, std::string_view> elements = {
      {"char", "c"}, {"uchar", "h"}, {"short", "s"}, {"ushort", "t"}, {"int", "i"}, {"uint", "j"},
      {"long", "l"}, {"ulong", "m"}, {"longlong", "x"}, {"ulonglong", "y"}, {"float", "f"}, {"double", "d"}};
  if (name.size() < 2 || name.back() < '1' || name.back() > '4') return {};
  const auto it = elements.find(name.substr(0, name.size() - 1));
  if (it == elements.end()) return {};
  count = static_cast<unsigned>(name.back() - '0');
  return it->second;
}

// Class names that differ between CUDA's headers and the HIP ones the source translation uses,
// as they appear in mangled names (after typedefs): cuRAND's states are hipRAND's (the default
// generator's struct, curandStateXORWOW, is what `curandState` names, and the source translation
// writes hiprandState for it, a struct of its own in hiprand_kernel_hcc.h), bf16.
const std::map<std::string_view, std::string_view>& renamed_classes() {
  static const std::map<std::string_view, std::string_view> names = {
      {"curandStateXORWOW", "hiprandState"},
      {"curandStatePhilox4_32_10", "hiprandStatePhilox4_32_10"},
      {"curandStateMRG32k3a", "hiprandStateMRG32k3a"},
      {"curandStateMtgp32", "hiprandStateMtgp32"},
      {"curandStateSobol32", "hiprandStateSobol32"},
      {"curandStateScrambledSobol32", "hiprandStateScrambledSobol32"},
      {"curandStateSobol64", "hiprandStateSobol64"},
      {"curandStateScrambledSobol64", "hiprandStateScrambledSobol64"},
      {"__nv_bfloat16", "hip_bfloat16"},
  };
  return names;
}

// The arguments of a TemplateArgs node (its getter is not const).
id::NodeArray template_params(const id::Node* args) {
  id::NodeArray out;
  static_cast<const id::TemplateArgs*>(args)->match([&](id::NodeArray params, const id::Node*) { out = params; });
  return out;
}

std::string source_name(std::string_view name) { return std::to_string(name.size()) + std::string(name); }

// "S_", "S0_", "S1_" ... (base 36 sequence ids).
std::string substitution(std::size_t index) {
  if (index == 0) return "S_";
  std::size_t n = index - 1;
  std::string digits;
  do {
    const auto d = static_cast<char>(n % 36);
    digits.insert(digits.begin(), d < 10 ? static_cast<char>('0' + d) : static_cast<char>('A' + d - 10));
    n /= 36;
  } while (n != 0);
  return "S" + digits + "_";
}

std::string template_param(std::size_t index) { return index == 0 ? "T_" : "T" + std::to_string(index - 1) + "_"; }

class Mangler {
 public:
  std::string error;
  bool internal_linkage = false;  // a static function: L before its name (not in an anonymous namespace)

  std::string encoding(const id::Node* root) {
    if (root->getKind() != id::Node::KFunctionEncoding) {
      // A variable: its name alone.
      std::string out;
      name(root, /*is_function=*/false, out);
      return "_Z" + out;
    }
    const auto* f = static_cast<const id::FunctionEncoding*>(root);
    if (f->getCVQuals() != id::QualNone || f->getRefQual() != id::FrefQualNone) fail("a member function");
    std::string out = "_Z";
    name(f->getName(), /*is_function=*/true, out);
    if (const id::Node* ret = f->getReturnType()) out += type(ret);
    const id::NodeArray params = f->getParams();
    if (params.size() == 0) out += "v";
    for (const id::Node* p : params) out += type(p);
    return out;
  }

 private:
  void fail(std::string why) {
    if (error.empty()) error = std::move(why);
  }

  // The mangling of `n` with nothing compressed: the identity substitutions are looked up by.
  std::string expanded(const id::Node* n) {
    for (std::size_t i = 0; i < template_args_.size(); ++i)
      if (in_signature_ && template_args_[i] == n) return "\x01" + template_param(i);
    switch (n->getKind()) {
      case id::Node::KNameType: {
        const std::string_view s = static_cast<const id::NameType*>(n)->getName();
        if (auto it = builtin_codes().find(s); it != builtin_codes().end()) return std::string(it->second);
        return class_name(s);
      }
      case id::Node::KQualType: {
        const auto* q = static_cast<const id::QualType*>(n);
        return qualifiers(q->getQuals()) + expanded(q->getChild());
      }
      case id::Node::KPointerType: {
        std::string out;
        static_cast<const id::PointerType*>(n)->match([&](const id::Node* pointee) { out = "P" + expanded(pointee); });
        return out;
      }
      case id::Node::KReferenceType: {
        std::string out;
        static_cast<const id::ReferenceType*>(n)->match([&](const id::Node* pointee, id::ReferenceKind kind) {
          out = (kind == id::ReferenceKind::LValue ? "R" : "O") + expanded(pointee);
        });
        return out;
      }
      case id::Node::KNestedName: {
        const auto* nn = static_cast<const id::NestedName*>(n);
        std::string out = "N";
        for (const id::Node* c : components(nn)) out += component_expanded(c);
        return out + "E";
      }
      case id::Node::KNameWithTemplateArgs: {
        const auto* t = static_cast<const id::NameWithTemplateArgs*>(n);
        return expanded(t->Name) + args_expanded(t->TemplateArgs);
      }
      default:
        fail("a type the re-mangler does not handle (kind " + std::to_string(static_cast<int>(n->getKind())) + ")");
        return "?";
    }
  }

  std::string component_expanded(const id::Node* c) {
    if (c->getKind() == id::Node::KNameWithTemplateArgs) {
      const auto* t = static_cast<const id::NameWithTemplateArgs*>(c);
      return component_expanded(t->Name) + args_expanded(t->TemplateArgs);
    }
    if (c->getKind() != id::Node::KNameType) {
      fail("a name component the re-mangler does not handle");
      return "?";
    }
    return unqualified(static_cast<const id::NameType*>(c)->getName());
  }

  std::string args_expanded(const id::Node* args) {
    if (args->getKind() != id::Node::KTemplateArgs) {
      fail("template arguments the re-mangler does not handle");
      return "?";
    }
    std::string out = "I";
    for (const id::Node* a : template_params(args)) out += literal_or(a, true);
    return out + "E";
  }

  // A template argument: an integer or bool literal, or a type.
  std::string literal_or(const id::Node* a, bool expanded_form) {
    if (a->getKind() == id::Node::KIntegerLiteral) {
      std::string out;
      static_cast<const id::IntegerLiteral*>(a)->match([&](std::string_view type_suffix, std::string_view value) {
        // The demangler keeps the builtin type as the suffix it prints: "" int, "u" unsigned,
        // "l" long, "ul", "ll", "ull".
        static const std::map<std::string_view, std::string_view> types = {
            {"", "i"}, {"u", "j"}, {"l", "l"}, {"ul", "m"}, {"ll", "x"}, {"ull", "y"}};
        const auto it = types.find(type_suffix);
        if (it == types.end()) return fail("an integer template argument of an unknown type");
        std::string v(value);
        if (!v.empty() && v.front() == '-') v = "n" + v.substr(1);
        out = "L" + std::string(it->second) + v + "E";
      });
      return out;
    }
    if (a->getKind() == id::Node::KBoolExpr) {
      bool v = false;
      static_cast<const id::BoolExpr*>(a)->match([&](bool value) { v = value; });
      return v ? "Lb1E" : "Lb0E";
    }
    return expanded_form ? expanded(a) : type(a);
  }

  static std::string qualifiers(id::Qualifiers q) {
    std::string out;
    if (q & id::QualRestrict) out += "r";
    if (q & id::QualVolatile) out += "V";
    if (q & id::QualConst) out += "K";
    return out;
  }

  // An unqualified name as HIP spells it: the anonymous namespace as clang writes it.
  static std::string unqualified(std::string_view s) {
    if (s == "(anonymous namespace)") return "12_GLOBAL__N_1";
    if (auto it = renamed_classes().find(s); it != renamed_classes().end()) return source_name(it->second);
    return source_name(s);
  }

  // A class name used as a type (expanded form): CUDA's vector types become HIP's template.
  std::string class_name(std::string_view s) {
    unsigned count = 0;
    if (const std::string_view e = vector_element(s, count); !e.empty())
      return "15HIP_vector_typeI" + std::string(e) + "Lj" + std::to_string(count) + "EE";
    return unqualified(s);
  }

  // The components of a nested name, outermost first.
  std::vector<const id::Node*> components(const id::NestedName* nn) {
    std::vector<const id::Node*> out;
    const id::Node* at = nn;
    while (at->getKind() == id::Node::KNestedName) {
      out.push_back(static_cast<const id::NestedName*>(at)->Name);
      at = static_cast<const id::NestedName*>(at)->Qual;
    }
    out.push_back(at);
    std::reverse(out.begin(), out.end());
    return out;
  }

  // Emits `key` as a substitution when it is one; else false.
  bool substituted(const std::string& key, std::string& out) {
    const auto it = std::find(subs_.begin(), subs_.end(), key);
    if (it == subs_.end()) return false;
    out += substitution(static_cast<std::size_t>(it - subs_.begin()));
    return true;
  }

  // <type>, compressed, registering substitution candidates as the ABI does.
  std::string type(const id::Node* n) {
    std::string out;
    const std::string key = expanded(n);
    for (std::size_t i = 0; i < template_args_.size(); ++i)
      if (in_signature_ && template_args_[i] == n) {
        if (!substituted(key, out)) {
          out = template_param(i);
          subs_.push_back(key);
        }
        return out;
      }
    switch (n->getKind()) {
      case id::Node::KNameType: {
        const std::string_view s = static_cast<const id::NameType*>(n)->getName();
        if (builtin_codes().count(s)) return key;  // builtin types are never candidates
        if (substituted(key, out)) return out;
        unsigned count = 0;
        if (const std::string_view e = vector_element(s, count); !e.empty()) {
          // HIP_vector_type<T, N>: the template name is a candidate, then the template-id.
          const std::string name = "15HIP_vector_type";
          if (!substituted(name, out)) {
            out += name;
            subs_.push_back(name);
          }
          out += "I" + std::string(e) + "Lj" + std::to_string(count) + "EE";
        } else {
          out += key;
        }
        subs_.push_back(key);
        return out;
      }
      case id::Node::KQualType: {
        if (substituted(key, out)) return out;
        const auto* q = static_cast<const id::QualType*>(n);
        out = qualifiers(q->getQuals()) + type(q->getChild());
        subs_.push_back(key);
        return out;
      }
      case id::Node::KPointerType:
      case id::Node::KReferenceType: {
        if (substituted(key, out)) return out;
        const id::Node* pointee = nullptr;
        std::string letter = "P";
        if (n->getKind() == id::Node::KPointerType) {
          static_cast<const id::PointerType*>(n)->match([&](const id::Node* p) { pointee = p; });
        } else {
          static_cast<const id::ReferenceType*>(n)->match([&](const id::Node* p, id::ReferenceKind kind) {
            pointee = p;
            letter = kind == id::ReferenceKind::LValue ? "R" : "O";
          });
        }
        out = letter + type(pointee);
        subs_.push_back(key);
        return out;
      }
      case id::Node::KNestedName:
      case id::Node::KNameWithTemplateArgs: {
        if (substituted(key, out)) return out;
        name(n, /*is_function=*/false, out);
        return out;
      }
      default:
        fail("a type the re-mangler does not handle (kind " + std::to_string(static_cast<int>(n->getKind())) + ")");
        return "?";
    }
  }

  // <name> of a function (the whole name and its template-id are not candidates) or of a type or
  // variable (they are, for types; a variable's own name is not).
  void name(const id::Node* n, bool is_function, std::string& out) {
    if (n->getKind() == id::Node::KNameType) {  // unscoped, no template
      if (is_function && internal_linkage) out += "L";
      out += unqualified(static_cast<const id::NameType*>(n)->getName());
      return;
    }
    if (n->getKind() == id::Node::KNameWithTemplateArgs) {
      const auto* t = static_cast<const id::NameWithTemplateArgs*>(n);
      if (t->Name->getKind() == id::Node::KNameType) {
        // <unscoped-template-name> <template-args>: the template name is a candidate.
        const std::string tname = (is_function && internal_linkage ? "L" : "") +
                                  unqualified(static_cast<const id::NameType*>(t->Name)->getName());
        if (!substituted(tname, out)) {
          out += tname;
          subs_.push_back(tname);
        }
        template_args(t->TemplateArgs, is_function, out);
        if (!is_function) subs_.push_back(expanded(n));
        return;
      }
      if (t->Name->getKind() != id::Node::KNestedName) return fail("a template name the re-mangler does not handle");
      nested(static_cast<const id::NestedName*>(t->Name), t->TemplateArgs, is_function, out);
      return;
    }
    if (n->getKind() == id::Node::KNestedName) {
      nested(static_cast<const id::NestedName*>(n), nullptr, is_function, out);
      return;
    }
    fail("a name the re-mangler does not handle (kind " + std::to_string(static_cast<int>(n->getKind())) + ")");
  }

  // N <prefix> ... E: every proper prefix is a candidate; the whole name too unless it is a
  // function's (or variable's) own; with template arguments, the template name is one first.
  void nested(const id::NestedName* nn, const id::Node* args, bool is_function, std::string& out) {
    std::vector<const id::Node*> parts = components(nn);
    // nvcc puts internal-linkage device variables into a namespace of its own
    // (_INTERNAL_<hash>_<file>...) so that their registration names are unique; clang does not.
    // That namespace marks internal linkage, which clang writes as L before the name, unless an
    // anonymous namespace already makes it internal (nvcc uses it only in the names of variables,
    // never inside types).
    const std::size_t before = parts.size();
    std::erase_if(parts, [](const id::Node* c) {
      return c->getKind() == id::Node::KNameType && static_cast<const id::NameType*>(c)->getName().starts_with("_INTERNAL_");
    });
    const bool anonymous = std::any_of(parts.begin(), parts.end(), [](const id::Node* c) {
      return c->getKind() == id::Node::KNameType && static_cast<const id::NameType*>(c)->getName() == "(anonymous namespace)";
    });
    const bool internal = !anonymous && (parts.size() != before || (is_function && internal_linkage));
    if (parts.size() == 1 && args == nullptr) {
      if (parts[0]->getKind() != id::Node::KNameType) return name(parts[0], is_function, out);
      out += (internal ? "L" : "") + unqualified(static_cast<const id::NameType*>(parts[0])->getName());
      return;
    }
    out += "N";
    std::string prefix_key;
    std::string body;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const bool last = i + 1 == parts.size();
      const id::Node* c = parts[i];
      const id::Node* cargs = nullptr;
      if (c->getKind() == id::Node::KNameWithTemplateArgs) {
        cargs = static_cast<const id::NameWithTemplateArgs*>(c)->TemplateArgs;
        c = static_cast<const id::NameWithTemplateArgs*>(c)->Name;
      }
      if (c->getKind() != id::Node::KNameType) return fail("a name component the re-mangler does not handle");
      prefix_key += unqualified(static_cast<const id::NameType*>(c)->getName());
      std::string sub;
      // Keys are the prefixes' expanded manglings as nested names (what expanded() makes of a
      // nested type), so that a type named by a prefix seen before is found.
      if (substituted("N" + prefix_key + "E", sub)) {
        body = sub;  // the longest prefix seen before replaces everything so far
      } else {
        if (last && internal) body += "L";
        body += unqualified(static_cast<const id::NameType*>(c)->getName());
        if (!last || args != nullptr || !is_function) subs_.push_back("N" + prefix_key + "E");
      }
      if (cargs != nullptr) {
        std::string a;
        template_args(cargs, false, a);
        body += a;
        prefix_key += args_expanded(cargs);
        if (!last || !is_function) subs_.push_back("N" + prefix_key + "E");
      }
    }
    if (args != nullptr) template_args(args, is_function, body);
    out += body + "E";
    // A function's or variable's whole name is no candidate (the function's template name was
    // registered above as a prefix).
    if (args != nullptr && !is_function) subs_.push_back("N" + prefix_key + args_expanded(args) + "E");
  }

  // I <args> E; a function template's arguments are what its signature's T_ refer to.
  void template_args(const id::Node* args, bool of_function, std::string& out) {
    if (args->getKind() != id::Node::KTemplateArgs) return fail("template arguments the re-mangler does not handle");
    const id::NodeArray params = template_params(args);
    out += "I";
    for (const id::Node* a : params) out += literal_or(a, false);
    out += "E";
    if (of_function) {
      template_args_.assign(params.begin(), params.end());
      in_signature_ = true;
    }
  }

  std::vector<std::string> subs_;
  std::vector<const id::Node*> template_args_;
  bool in_signature_ = false;
};

}  // namespace

HipName hip_mangled_name(std::string_view nvcc_mangled, bool internal_linkage) {
  HipName result{std::string(nvcc_mangled), {}};
  if (!nvcc_mangled.starts_with("_Z")) return result;  // extern "C": the same in both
  Arena arena;
  id::ManglingParser<Arena> parser(nvcc_mangled.data(), nvcc_mangled.data() + nvcc_mangled.size());
  const id::Node* root = parser.parse();
  if (root == nullptr) {
    result.reason = "the name does not demangle";
    return result;
  }
  Mangler m;
  m.internal_linkage = internal_linkage;
  std::string again = m.encoding(root);
  if (!m.error.empty()) {
    result.reason = m.error;
    return result;
  }
  result.name = std::move(again);
  return result;
}

}  // namespace gpuport::lift
