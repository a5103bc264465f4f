// Optional launch rewrite: kernel<<<grid, block, shared, stream>>>(args) becomes
// hipLaunchKernelGGL(kernel, dim3(grid), dim3(block), shared, stream, args). Only the
// launch punctuation is replaced, so names inside the arguments are still translated.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "source/engine.h"

namespace gpuport::source {
namespace {

// First sig index of the kernel-name expression that ends just before `launch`
// (`k`, `ns::k`, `k<T, 2>`); size() when it is not a plain name. `templated` is set when the
// name has template arguments.
std::size_t kernel_name_start(const Engine& e, std::size_t launch, bool& templated) {
  templated = false;
  if (launch == 0) return e.size();
  // The name lies in the same line kind as the launch: code, or one macro body.
  const bool in_directive = e.tok(launch).has(lex::kInDirective);
  auto foreign = [&](std::size_t k) {
    return e.tok(k).has(lex::kDirectiveHash) || e.tok(k).has(lex::kInDirective) != in_directive;
  };
  std::size_t i = launch - 1;
  if (e.is(i, ">") || e.is(i, ">>")) {
    int depth = 0;
    int parens = 0;  // brackets inside the template arguments balance (k<decltype(x)>)
    while (true) {
      if (foreign(i)) return e.size();
      const auto t = e.text(i);
      if (t == ">") depth += 1;
      else if (t == ">>") depth += 2;
      else if (t == "<") depth -= 1;
      else if (t == ")" || t == "]") ++parens;
      else if (t == "(" || t == "[") {
        // An opener without its closer in the name: the name would straddle a call's brackets.
        if (parens == 0) return e.size();
        --parens;
      } else if (t == ";" || t == "{" || t == "}") return e.size();
      if (depth == 0) break;
      if (i == 0) return e.size();
      --i;
    }
    if (i == 0) return e.size();
    --i;
    templated = true;
  }
  if (!e.is_identifier(i) || foreign(i)) return e.size();
  while (i >= 2 && e.is(i - 1, "::") && e.is_identifier(i - 2) && !foreign(i - 2)) i -= 2;
  // `::kernel`: the global one; the `::` belongs to the name, not before the call.
  if (i >= 1 && e.is(i - 1, "::") && !foreign(i - 1) && !(i >= 2 && (e.is_identifier(i - 2) || e.is(i - 2, ">")))) --i;
  return i;
}

// A macro whose body is a launch whose parts come from the macro's call: hipify-clang rewrites
// such launches where the macro is used, not in the macro (it works on the expanded code), and
// --hipify-style does the same. Two shapes are recognised:
// - function-like, the kernel and the configuration its parameters in order, the arguments the
//   remaining parameters or __VA_ARGS__:
//     #define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)   LAUNCH(f, g, b, x, y)
//   -> hipLaunchKernelGGL(f, dim3(g), dim3(b), 0, 0, x, y)
// - object-like, ending at >>>, the arguments given where it is used:
//     #define CALL k<float><<<1, n>>>   CALL(x, y)
//   -> hipLaunchKernelGGL(HIP_KERNEL_NAME(k<float>), dim3(1), dim3(n), 0, 0, x, y)
// Other launches in macro bodies are rewritten in the body.
struct LaunchMacro {
  std::string_view name;
  bool function_like = false;
  std::size_t launch = 0;      // sig index of the body's <<<
  std::size_t nconfig = 0;     // configuration arguments (2 to 4)
  std::size_t params = 0;      // named parameters (function-like)
  bool variadic = false;
  std::vector<std::pair<std::size_t, std::size_t>> config;  // object-like: body ranges
  std::size_t kernel_first = 0, kernel_last = 0;            // object-like: body range
};

std::vector<LaunchMacro> find_launch_macros(const Engine& e) {
  std::vector<LaunchMacro> out;
  for (std::size_t d : e.directives()) {
    if (!e.is(d + 1, "define") || !e.is_identifier(d + 2)) continue;
    auto in_body = [&](std::size_t k) {
      return k < e.size() && e.tok(k).has(lex::kInDirective) && !e.tok(k).has(lex::kDirectiveHash);
    };
    LaunchMacro m;
    m.name = e.text(d + 2);
    std::size_t k = d + 3;
    std::vector<std::string_view> params;
    if (in_body(k) && e.is(k, "(") && e.tok(k).offset == e.tok(d + 2).end()) {
      m.function_like = true;
      for (++k; in_body(k) && !e.is(k, ")"); ++k) {
        if (e.is_identifier(k)) params.push_back(e.text(k));
        else if (e.is(k, "...")) m.variadic = true;
        else if (!e.is(k, ",")) break;
      }
      if (!in_body(k) || !e.is(k, ")")) continue;
      ++k;
    }
    m.params = params.size();
    const std::size_t body = k;
    std::size_t end = body;
    while (in_body(end)) ++end;  // one past the body's last token
    std::size_t lt = body;
    while (lt < end && !e.is(lt, "<<<")) ++lt;
    if (lt == body || lt >= end) continue;
    // The configuration, split at depth-0 commas, up to >>>.
    std::vector<std::pair<std::size_t, std::size_t>> config;
    std::size_t g = lt + 1, first = lt + 1;
    int depth = 0;
    for (; g < end; ++g) {
      const auto t = e.text(g);
      if (t == "(" || t == "[" || t == "{") ++depth;
      else if (t == ")" || t == "]" || t == "}") --depth;
      else if (depth == 0 && t == ",") {
        config.emplace_back(first, g - 1);
        first = g + 1;
      } else if (depth == 0 && t == ">>>") break;
    }
    if (g >= end || first >= g) continue;
    config.emplace_back(first, g - 1);
    if (config.size() < 2 || config.size() > 4) continue;
    m.launch = lt;
    m.nconfig = config.size();
    if (!m.function_like) {
      if (g + 1 != end) continue;  // arguments in the body: rewritten there
      m.kernel_first = body;
      m.kernel_last = lt - 1;
      m.config = config;
      out.push_back(m);
      continue;
    }
    // Function-like: kernel and configuration are the first parameters, in order.
    auto is_param = [&](std::pair<std::size_t, std::size_t> r, std::size_t index) {
      return r.first == r.second && index < params.size() && e.text(r.first) == params[index];
    };
    if (!is_param({body, lt - 1}, 0)) continue;
    bool in_order = true;
    for (std::size_t c = 0; c < config.size(); ++c) in_order = in_order && is_param(config[c], c + 1);
    if (!in_order || !e.is(g + 1, "(") || g + 1 >= end) continue;
    // The arguments: __VA_ARGS__, or the remaining parameters in order.
    std::size_t a = g + 2, index = 1 + config.size();
    bool ok = true;
    if (e.is(a, "__VA_ARGS__") && m.variadic && index == params.size()) {
      ++a;
    } else {
      while (ok && a < end && !e.is(a, ")")) {
        ok = e.is_identifier(a) && index < params.size() && e.text(a) == params[index];
        ++index;
        ++a;
        if (ok && e.is(a, ",")) ++a;
      }
      ok = ok && index == params.size() && !m.variadic;
    }
    if (!ok || a >= end || !e.is(a, ")")) continue;
    if (a + 1 < end && !(e.is(a + 1, ";") && a + 2 == end)) continue;
    out.push_back(m);
  }
  return out;
}

// The text of a macro body's tokens, line continuations as spaces.
std::string body_text(const Engine& e, std::size_t first, std::size_t last) {
  std::string out;
  const auto& ts = e.stream();
  for (std::size_t k = e.token_index(first); k <= e.token_index(last); ++k) {
    const auto& t = ts.tokens()[k];
    out += t.kind == lex::TokenKind::line_continuation ? std::string_view(" ") : ts.text_of(t);
  }
  return out;
}

std::string as_dim3(std::string text) { return text.starts_with("dim3") ? text : "dim3(" + text + ")"; }

// Rewrites the uses of the launch macros; returns the <<< of their bodies, which stay as written.
std::unordered_set<std::size_t> rewrite_macro_launch_uses(Engine& e) {
  std::unordered_set<std::size_t> bodies;
  const auto macros = find_launch_macros(e);
  if (macros.empty()) return bodies;
  for (const auto& m : macros) bodies.insert(m.launch);
  for (std::size_t i = 0; i + 1 < e.size(); ++i) {
    if (!e.is_identifier(i) || e.tok(i).has(lex::kInDirective) || !e.is(i + 1, "(") || e.is_dropped(i)) continue;
    const LaunchMacro* m = nullptr;
    for (const auto& candidate : macros)
      if (candidate.name == e.text(i)) m = &candidate;
    if (!m) continue;
    const auto args = e.arguments(i + 1);
    if (!args) continue;
    const auto group = e.group();
    if (m->function_like) {
      const std::size_t n = args->args.size();
      if (n < 1 + m->nconfig || (!m->variadic && n != m->params) || (m->variadic && n < m->params)) continue;
      const auto [kf, kl] = args->args[0];
      const std::string kernel(e.source().substr(e.tok(kf).offset, e.tok(kl).end() - e.tok(kf).offset));
      const bool templated = kernel.find('<') != std::string::npos || (kf == kl && e.is_template_kernel(kernel));
      e.replace(i, "hipLaunchKernelGGL");
      if (templated) {
        e.insert(e.tok(kf).offset, "HIP_KERNEL_NAME(");
        e.insert(e.tok(kl).end(), ")");
      }
      for (std::size_t c = 1; c <= 2; ++c) {
        const auto [cf, cl] = args->args[c];
        if (e.is(cf, "dim3")) continue;
        e.insert(e.tok(cf).offset, "dim3(");
        e.insert(e.tok(cl).end(), ")");
      }
      std::string defaults;
      for (std::size_t c = m->nconfig; c < 4; ++c) defaults += ", 0";
      if (!defaults.empty()) e.insert(e.tok(args->args[m->nconfig].second).end(), defaults);
    } else {
      const std::string kernel = body_text(e, m->kernel_first, m->kernel_last);
      const bool templated = kernel.find('<') != std::string::npos || e.is_template_kernel(kernel);
      std::string head = "hipLaunchKernelGGL(" + (templated ? "HIP_KERNEL_NAME(" + kernel + ")" : kernel);
      for (std::size_t c = 0; c < 4; ++c) {
        std::string part = c < m->config.size() ? body_text(e, m->config[c].first, m->config[c].second) : "0";
        head += ", " + (c < 2 ? as_dim3(part) : part);
      }
      if (!args->args.empty()) head += ", ";
      e.replace_range(e.tok(i).offset, e.tok(i + 1).end(), head);
    }
    ++e.result().rewrites;
  }
  return bodies;
}

}  // namespace

// Kernels declared as templates in this file (`template <...> __global__ void name(`): a
// launch with deduced template arguments names them plainly, and hipify-clang wraps them in
// HIP_KERNEL_NAME(...) as it does explicit instantiations.
std::unordered_set<std::string_view> find_template_kernels(const Engine& e) {
  std::unordered_set<std::string_view> names;
  for (std::size_t i = 0; i + 1 < e.size(); ++i) {
    if (!e.is(i, "template") || !e.is(i + 1, "<") || e.tok(i).has(lex::kInDirective)) continue;
    // Skip the template parameter list, then look for __global__ before the declarator's '('.
    int depth = 0;
    std::size_t k = i + 1;
    for (; k < e.size(); ++k) {
      if (e.is(k, "<")) ++depth;
      else if (e.is(k, ">")) {
        if (--depth == 0) break;
      } else if (e.is(k, ">>")) {
        depth -= 2;
        if (depth <= 0) break;
      } else if (e.is(k, ";") || e.is(k, "{")) break;
    }
    bool global = false;
    for (++k; k + 1 < e.size() && k < i + 64; ++k) {
      if (e.is(k, "__global__")) global = true;
      if (e.is(k, ";") || e.is(k, "{") || e.is(k, "}")) break;
      if (e.is(k + 1, "(") && e.is_identifier(k)) {
        if (global) names.insert(e.text(k));
        break;
      }
    }
  }
  // An object-like macro that names a template instance: #define KERNEL axpy<float>.
  for (std::size_t d : e.directives()) {
    if (!e.is(d + 1, "define") || !e.is_identifier(d + 2) || !e.is_identifier(d + 3) || !e.is(d + 4, "<")) continue;
    if (!e.tok(d + 3).has(lex::kInDirective) || e.tok(d + 3).offset == e.tok(d + 2).end()) continue;
    names.insert(e.text(d + 2));
  }
  return names;
}

bool Engine::is_template_kernel(std::string_view name) const {
  if (!template_kernels_) template_kernels_ = find_template_kernels(*this);
  return template_kernels_->count(name) > 0;
}

namespace {
// The significant tokens from `i` on that spell `want` (`<<<` or `>>>`) with white space or
// comments between them (nvcc reads `k << <g, b >> > (a)` as a launch; clang does not): the
// index one past the last, or `i` when they do not.
std::size_t spaced_run(const Engine& e, std::size_t i, std::string_view want) {
  std::string joined;
  std::size_t k = i;
  while (k < e.size() && joined.size() < want.size() && (e.text(k) == want.substr(0, 1) || e.text(k) == want.substr(0, 2))) {
    joined += e.text(k);
    ++k;
  }
  return joined == want && k - i > 1 ? k : i;
}
}  // namespace

void join_spaced_launches(Engine& e) {
  for (std::size_t l = 1; l < e.size(); ++l) {
    // After a kernel's name (or its template arguments): `<` cannot start an operand of `<<`.
    if (!(e.is_identifier(l - 1) || e.is(l - 1, ">")) || (!e.is(l, "<<") && !e.is(l, "<"))) continue;
    const std::size_t open_end = spaced_run(e, l, "<<<");
    if (open_end == l) continue;
    // The configuration ends at the `>>>` (spaced or not) at bracket depth 0.
    std::size_t g = open_end, close_end = 0;
    for (int depth = 0; g < e.size() && !e.is(g, ";") && depth >= 0; ++g) {
      const auto t = e.text(g);
      if (t == "(" || t == "[" || t == "{") ++depth;
      else if (t == ")" || t == "]" || t == "}") --depth;
      else if (depth == 0 && t == ">>>") close_end = g + 1;
      else if (depth == 0 && (t == ">>" || t == ">")) {
        const std::size_t run_end = spaced_run(e, g, ">>>");
        close_end = run_end != g ? run_end : 0;
      }
      if (close_end) break;
    }
    if (!close_end || !e.is(close_end, "(")) continue;
    e.replace_range(e.tok(l).offset, e.tok(open_end - 1).end(), "<<<");
    if (!e.is(g, ">>>")) e.replace_range(e.tok(g).offset, e.tok(close_end - 1).end(), ">>>");
    e.report(l, Severity::note, "launch-spaced",
             "a launch spelled with spaces inside <<< or >>> (which nvcc accepts and clang reads as shift operators) is joined");
    l = close_end;
  }
}

namespace {
// The first significant token of the declaration that the brace at `open` begins: back past
// balanced brackets to the `;`, `{` or `}` before it; directive lines are skipped.
std::size_t head_of(const Engine& e, std::size_t open) {
  std::size_t k = open;
  int depth = 0;
  while (k > 0) {
    const std::size_t p = k - 1;
    if (!e.tok(p).has(lex::kInDirective)) {
      const auto t = e.text(p);
      if (t == ")" || t == "]") ++depth;
      else if (t == "(" || t == "[") --depth;
      else if (depth == 0 && (t == ";" || t == "{" || t == "}")) break;
    }
    k = p;
  }
  while (k < open && e.tok(k).has(lex::kInDirective)) ++k;
  return k;
}
}  // namespace

// A launch, inside a template, of a kernel this file never declares. nvcc's front end looks the
// name up where the template is instantiated (its arguments, `this->data` say, depend on the
// template's parameters), so a member of a class template that nothing calls may launch a kernel
// that does not exist: nvflip's FLIP.h launches kernelsRGB2YCxCz (declared as
// kernelsRGBToYCxCz) in such a member. clang looks the name up where the launch is written and
// stops there. Each such name gets, before the top-level declaration that holds the launch, a
// kernel template that no call can match:
//   template <class gpuport_T> struct gpuport_undeclared_NAME;
//   template <class gpuport_T, class... gpuport_A> __global__ void NAME(gpuport_undeclared_NAME<gpuport_T>, gpuport_A...);
// clang then, like nvcc, resolves the call only on instantiation, which fails naming
// gpuport_undeclared_NAME. Only names that occur nowhere else in the file (a name that a header
// declares gets one more overload, which never matches) and only in templates (a launch whose
// name is undeclared outside one fails with nvcc too).
void declare_undeclared_template_kernels(Engine& e) {
  // The launches' callees: a plain name before `<<<`, written whole or spaced.
  std::unordered_map<std::string_view, std::vector<std::size_t>> callees;
  for (std::size_t l = 1; l < e.size(); ++l) {
    if (!e.is(l, "<<<") && !((e.is(l, "<<") || e.is(l, "<")) && spaced_run(e, l, "<<<") != l)) continue;
    const std::size_t name = l - 1;
    if (!e.is_identifier(name) || e.tok(name).has(lex::kInDirective) || e.tok(name).has(lex::kInDisabledGroup)) continue;
    if (name > 0 && (e.is(name - 1, "::") || e.is(name - 1, ".") || e.is(name - 1, "->"))) continue;
    callees[e.text(name)].push_back(name);
  }
  if (callees.empty()) return;
  // Names mentioned anywhere else (declared, defined, defined as macros, passed) are left
  // alone: clang launches only what ordinary lookup finds where the launch is written (no
  // argument-dependent lookup for `<<<`), so a kernel declared after the template needs its
  // declaration moved, not this one.
  std::unordered_map<std::string_view, std::size_t> mentions;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (e.is_identifier(i)) {
      auto it = callees.find(e.text(i));
      if (it != callees.end()) ++mentions[it->first];
    }
  std::erase_if(callees, [&](const auto& callee) { return mentions[callee.first] != callee.second.size(); });
  if (callees.empty()) return;
  struct Brace {
    std::size_t open, close, head;
    bool scope, extern_c, templated;
  };
  std::vector<Brace> braces;
  for (const auto& [open, close] : e.code_braces()) {
    Brace b{open, close == Engine::kUnclosed ? e.size() : close, head_of(e, open), false, false, false};
    const std::size_t h = b.head;
    b.scope = e.is(h, "namespace") || (e.is(h, "inline") && e.is(h + 1, "namespace")) ||
              (e.is(h, "extern") && e.tok(h + 1).kind == lex::TokenKind::string_literal && h + 2 == open);
    b.extern_c = b.scope && e.is(h, "extern") && e.text(h + 1) == "\"C\"";
    b.templated = e.is(h, "template") && !(e.is(h + 1, "<") && e.is(h + 2, ">"));  // not `template <>`
    braces.push_back(b);
  }
  std::map<std::uint32_t, std::string> declarations;  // at the offset of a top-level declaration
  std::set<std::pair<std::string_view, std::uint32_t>> declared;
  for (const auto& [name, uses] : callees) {
    for (std::size_t use : uses) {
      const Brace* top = nullptr;
      bool templated = false, extern_c = false;
      for (const auto& b : braces) {
        if (b.open >= use || b.close <= use) continue;
        if (b.scope) {
          extern_c = extern_c || b.extern_c;
          continue;
        }
        if (!top) top = &b;  // braces come in opening order: the first is the outermost
        templated = templated || b.templated;
      }
      if (!top || !templated) continue;
      const std::uint32_t at = e.tok(top->head).offset;
      e.report(use, Severity::warning, "undeclared-kernel",
               fmt::format("kernel '{}' is launched in a template but declared nowhere in this file: nvcc looks the name up "
                           "where the template is instantiated (a template never instantiated builds), clang where the launch "
                           "is written; a declaration that no call matches is added before the template, so that clang too "
                           "waits for an instantiation, which fails",
                           name));
      if (!declared.insert({name, at}).second) continue;
      const std::string decl =
          fmt::format("template <class gpuport_T> struct gpuport_undeclared_{0}; template <class gpuport_T, class... gpuport_A> "
                      "__global__ void {0}(gpuport_undeclared_{0}<gpuport_T>, gpuport_A...); ",
                      name);
      declarations[at] += extern_c ? "extern \"C++\" { " + decl + "} " : decl;
    }
  }
  for (auto& [at, text] : declarations) e.insert(at, std::move(text));
}

void rewrite_launches(Engine& e) {
  const bool hipify_style = e.options().hipify_style;
  const auto macro_bodies = hipify_style ? rewrite_macro_launch_uses(e) : std::unordered_set<std::size_t>();
  for (std::size_t l = 0; l < e.size(); ++l) {
    if (!e.is(l, "<<<") || e.is_dropped(l)) continue;  // a launch inside a dropped argument is gone
    if (macro_bodies.count(l)) continue;                // rewritten where the macro is used
    bool templated = false;
    const std::size_t start = kernel_name_start(e, l, templated);
    if (!templated && start < e.size()) templated = l == start + 1 && e.is_template_kernel(e.text(start));
    // The configuration runs to the matching >>> at bracket depth 0.
    std::size_t g = l + 1;
    int depth = 0;
    std::vector<std::pair<std::size_t, std::size_t>> config;
    std::size_t arg_start = l + 1;
    const bool launch_in_directive = e.tok(l).has(lex::kInDirective);
    for (; g < e.size(); ++g) {
      if (e.tok(g).has(lex::kDirectiveHash) || e.tok(g).has(lex::kInDirective) != launch_in_directive) break;
      // Text a call rule dropped is not in the output: the configuration is read without it,
      // as the next translation will read it.
      if (e.is_dropped(g)) continue;
      const auto t = e.text(g);
      if (t == "(" || t == "[" || t == "{" || t == "<<<") ++depth;  // <<<: a launch inside
      else if (t == ")" || t == "]" || t == "}" || (depth > 0 && t == ">>>")) --depth;
      else if (depth == 0 && t == ",") {
        config.emplace_back(arg_start, g - 1);
        arg_start = g + 1;
      } else if (depth == 0 && t == ">>>") {
        break;
      }
      if (depth < 0 || t == ";") break;
    }
    if (start >= e.size() || g >= e.size() || !e.is(g, ">>>") || !e.is(g + 1, "(") || arg_start >= g) {
      e.report(l, Severity::note, "launch-kept", "kernel launch left as <<<>>>: the kernel name or configuration is not a plain expression");
      continue;
    }
    config.emplace_back(arg_start, g - 1);
    const auto args = e.arguments(g + 1);
    if (!args || config.size() < 2 || config.size() > 4) {
      e.report(l, Severity::note, "launch-kept", "kernel launch left as <<<>>>: unexpected launch configuration");
      continue;
    }
    const auto one_rewrite = e.group();  // applied whole or not at all
    e.insert(e.tok(start).offset, templated ? "hipLaunchKernelGGL(HIP_KERNEL_NAME(" : "hipLaunchKernelGGL(");
    if (templated) e.insert(e.tok(l - 1).end(), ")");
    if (hipify_style) {
      // hipify-clang's spacing: `k, dim3(g), dim3(b), s, st, args`, whatever the launch's
      // own spacing around its punctuation was (comments in it are kept). Made before the
      // dim3( insertions, which must follow a space inserted at the same place.
      auto respace = [&](std::uint32_t begin, std::uint32_t end, std::string_view with) {
        if (e.source().substr(begin, end - begin) != with) e.replace_range(begin, end, std::string(with));
      };
      respace(e.tok(l - 1).end(), e.tok(l).offset, "");
      respace(e.tok(l).end(), e.tok(config[0].first).offset, "");
      for (std::size_t k = 0; k + 1 < config.size(); ++k) {
        const std::size_t comma = config[k].second + 1;
        respace(e.tok(config[k].second).end(), e.tok(comma).offset, "");
        respace(e.tok(comma).end(), e.tok(config[k + 1].first).offset, " ");
      }
      respace(e.tok(config.back().second).end(), e.tok(g).offset, "");
      if (args->args.empty()) respace(e.tok(g + 1).end(), e.tok(args->close).offset, "");
    }
    // grid and block become dim3 unless they already are.
    const bool grid_is_dim3 = e.is(config[0].first, "dim3");
    e.replace(l, grid_is_dim3 ? ", " : ", dim3(");
    if (!grid_is_dim3) e.insert(e.tok(config[0].second).end(), ")");
    if (!e.is(config[1].first, "dim3")) {
      e.insert(e.tok(config[1].first).offset, "dim3(");
      e.insert(e.tok(config[1].second).end(), ")");
    }
    std::string defaults;
    if (config.size() < 3) defaults += ", 0";
    if (config.size() < 4) defaults += ", 0";
    if (!defaults.empty()) e.insert(e.tok(config.back().second).end(), defaults);
    // ">>>(" becomes ", " -- or "," when the arguments start on the next line.
    std::string joint = args->args.empty() ? "" : ", ";
    const auto& tokens = e.stream();
    std::size_t after = e.token_index(g + 1) + 1;
    while (after < tokens.size() && tokens[after].kind == lex::TokenKind::whitespace) ++after;
    if (!args->args.empty() && after < tokens.size() && tokens[after].kind == lex::TokenKind::newline) joint = ",";
    e.replace_range(e.tok(g).offset, e.tok(g + 1).end(), joint);
    ++e.result().rewrites;
    // Go on after this `<<<`, not after its `>>>`: a launch inside the configuration (a
    // kernel that computes the grid...) is rewritten in the same pass, or translating the
    // output would change it again.
  }
}

}  // namespace gpuport::source
