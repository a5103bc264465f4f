// Qualified definitions that match no declaration. nvcc's front end, like GCC, takes
// `template <...> void ns::f(a, b, c) { ... }` whose parameters differ from every `f` declared in
// `ns` as a new overload of `f` in `ns`; clang rejects it ("out-of-line definition ... does not
// match any declaration"), and the calls that need it fail with it (cuSZ's spline3.inl declares
// spline3d_layout2_interpolate with five parameters and defines it with six). The definition is
// moved into its namespace, on the same line, where it declares that overload for every
// compiler; its body already looked names up in that namespace.
//
// Only where the file shows the namespace's declarations of the name: a definition whose
// declarations are in headers the file cannot see is left alone.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "source/engine.h"

namespace gpuport::source {
namespace {

// The parameters of the list that opens at `open`: top-level commas plus one; 0 for `()` and
// `(void)`. Template argument lists count as brackets (std::map<int, int> is one parameter).
int parameter_count(const Engine& e, std::size_t open, std::size_t close) {
  if (close == open + 1 || (close == open + 2 && e.is(open + 1, "void"))) return 0;
  int count = 1, depth = 0;
  for (std::size_t k = open + 1; k < close; ++k) {
    const auto t = e.text(k);
    if (t == "(" || t == "[" || t == "{" || t == "<") ++depth;
    else if (t == ")" || t == "]" || t == "}" || t == ">") --depth;
    else if (t == ">>") depth -= 2;
    else if (t == "," && depth == 0) ++count;
  }
  return count;
}

bool code_token(const Engine& e, std::size_t k) {
  return !e.tok(k).has(lex::kInDirective) && !e.tok(k).has(lex::kInDisabledGroup) && !e.tok(k).has(lex::kDirectiveHash);
}

struct Qualified {
  std::size_t first;  // the first name of the qualifier
  std::size_t name;   // the function's name
  std::string scope;  // the namespace it names, from the file's top: "cusz::device_api"
  std::size_t open, close, body_open;
};

}  // namespace

void move_unmatched_definitions(Engine& e) {
  // One walk at namespace scope: the namespaces open, the functions declared or defined in
  // each (by name, with their parameter counts), and the qualified definitions.
  std::map<std::string, std::vector<int>> declared;  // "ns::name" -> parameter counts
  std::vector<Qualified> qualified;
  std::vector<std::string> namespaces;               // open ones
  std::vector<std::size_t> namespace_closers;         // their closing braces
  auto scope_of = [&](std::string_view extra) {
    std::string s;
    for (const auto& n : namespaces) s += (s.empty() ? "" : "::") + n;
    if (!extra.empty()) s += (s.empty() ? "" : "::") + std::string(extra);
    return s;
  };
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (!code_token(e, i)) continue;
    if (!namespace_closers.empty() && i == namespace_closers.back()) {
      namespace_closers.pop_back();
      namespaces.pop_back();
      continue;
    }
    if (e.is(i, "namespace") && e.is_identifier(i + 1)) {
      std::size_t k = i + 1;
      std::vector<std::string> names;  // namespace a::b {
      while (e.is_identifier(k)) {
        names.emplace_back(e.text(k));
        if (!e.is(k + 1, "::")) break;
        k += 2;
      }
      if (!e.is(k + 1, "{")) continue;
      const std::size_t closer = e.match(k + 1);
      if (closer >= e.size()) continue;
      std::string joined;
      for (const auto& n : names) joined += (joined.empty() ? "" : "::") + n;
      namespaces.push_back(joined);
      namespace_closers.push_back(closer);
      i = k + 1;
      continue;
    }
    // Skip whatever has a body of its own at this scope: classes, functions, initializers.
    if (e.is(i, "{")) {
      const std::size_t closer = e.match(i);
      if (closer < e.size()) i = closer;
      continue;
    }
    if (!e.is_identifier(i) || !e.is(i + 1, "(") || (i > 0 && (e.is(i - 1, ".") || e.is(i - 1, "->")))) continue;
    const std::size_t close = e.match(i + 1);
    if (close >= e.size()) continue;
    // What follows a declarator: `;`, `{`, or qualifiers before them.
    std::size_t after = close + 1;
    while (after < e.size() && (e.is(after, "const") || e.is(after, "noexcept") || e.is(after, "override"))) ++after;
    const bool definition = e.is(after, "{");
    if (!definition && !e.is(after, ";")) continue;
    if (i >= 2 && e.is(i - 1, "::") && e.is_identifier(i - 2)) {
      std::size_t first = i - 2;
      std::string path(e.text(first));
      while (first >= 2 && e.is(first - 1, "::") && e.is_identifier(first - 2)) {
        first -= 2;
        path = std::string(e.text(first)) + "::" + path;
      }
      if (first >= 1 && e.is(first - 1, "::")) continue;  // ::ns::f: from the top, left alone
      if (definition) qualified.push_back({first, i, scope_of(path), i + 1, close, after});
    } else {
      declared[scope_of(e.text(i))].push_back(parameter_count(e, i + 1, close));
    }
    if (definition) {
      const std::size_t closer = e.match(after);
      if (closer < e.size()) i = closer;
    } else {
      i = close;
    }
  }

  for (const auto& q : qualified) {
    const std::string full = q.scope + "::" + std::string(e.text(q.name));
    const auto it = declared.find(full);
    if (it == declared.end()) continue;  // its declarations are not in this file
    const int count = parameter_count(e, q.open, q.close);
    bool matches = false;
    for (int c : it->second) matches = matches || c == count;
    if (matches) continue;
    // The definition starts after the last `;`, `}` or `{` before it (its template header included).
    std::size_t start = q.first;
    while (start > 0 && code_token(e, start - 1) && !e.is(start - 1, ";") && !e.is(start - 1, "}") && !e.is(start - 1, "{")) --start;
    const std::size_t end = e.match(q.body_open);
    if (end >= e.size()) continue;
    // Relative to the namespaces open where the definition stands.
    std::string relative;
    for (std::size_t k = q.first; k + 1 < q.name; k += 2) relative += (relative.empty() ? "" : "::") + std::string(e.text(k));
    std::string open_text, close_text;
    std::string_view rest = relative;
    while (!rest.empty()) {
      const auto colon = rest.find("::");
      open_text += fmt::format("namespace {} {{ ", rest.substr(0, colon));
      close_text += " }";
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 2);
    }
    e.insert(e.tok(start).offset, open_text);
    e.replace_range(e.tok(q.first).offset, e.tok(q.name).offset, "");
    e.insert(e.tok(end).end(), close_text);
    ++e.result().rewrites;
    std::string counts;
    for (int c : it->second) counts += (counts.empty() ? "" : ", ") + std::to_string(c);
    e.report(q.name, Severity::warning, "definition-mismatch",
             fmt::format("out-of-line definition of '{}' ({} parameters) matches no declaration in '{}' ({}): nvcc and GCC take "
                         "it as a new overload, clang rejects it; defined inside its namespace instead",
                         full, count, q.scope, counts),
             "declare it in the namespace with these parameters");
  }
}

}  // namespace gpuport::source
