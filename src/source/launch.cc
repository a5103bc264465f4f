// Optional launch rewrite: kernel<<<grid, block, shared, stream>>>(args) becomes
// hipLaunchKernelGGL(kernel, dim3(grid), dim3(block), shared, stream, args). Only the
// launch punctuation is replaced, so names inside the arguments are still translated.
#include <string_view>
#include <unordered_set>

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

void rewrite_launches(Engine& e) {
  const bool hipify_style = e.options().hipify_style;
  for (std::size_t l = 0; l < e.size(); ++l) {
    if (!e.is(l, "<<<") || e.is_dropped(l)) continue;  // a launch inside a dropped argument is gone
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
