#include "source/lane_flow.h"

#include <algorithm>

#include "source/engine.h"

namespace gpuport::source {

long long integer_value(std::string_view s) {
  while (!s.empty() && (s.back() == 'u' || s.back() == 'U' || s.back() == 'l' || s.back() == 'L')) s.remove_suffix(1);
  if (s.empty()) return -1;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
  }
  long long v = 0;
  for (char c : s) {
    if (c == '\'') continue;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
    if (d >= base || v > (1LL << 40)) return -1;
    v = v * base + d;
  }
  return v;
}

namespace {

// A lane and a warp index together (warp * 32 + lane) make a thread index again.
LaneClass combine(LaneClass a, LaneClass b) {
  if ((a == LaneClass::lane && b == LaneClass::warp) || (a == LaneClass::warp && b == LaneClass::lane)) return LaneClass::thread;
  return std::max(a, b);
}

bool is_number(const Engine& e, std::size_t i, long long value) {
  return i < e.size() && e.tok(i).kind == lex::TokenKind::number && integer_value(e.text(i)) == value;
}

}  // namespace

namespace {

// The '{' at `i` opens a function body: a parameter list's ')' before it (const, noexcept,
// override or mutable between), that list after a name, a lambda's ']' or a template's '>',
// not after if/for/while/switch/catch. A namespace or extern "C" block is none, so two
// functions never share their variables' classes.
bool opens_function_body(const Engine& e, std::size_t i) {
  if (i == 0) return false;
  std::size_t k = i - 1;
  while (k > 0 && (e.is(k, "const") || e.is(k, "noexcept") || e.is(k, "override") || e.is(k, "mutable"))) --k;
  if (!e.is(k, ")")) return false;
  int depth = 0;
  std::size_t open_paren = k;
  for (; open_paren > 0; --open_paren) {
    if (e.is(open_paren, ")")) ++depth;
    else if (e.is(open_paren, "(") && --depth == 0) break;
  }
  if (open_paren == 0 || depth != 0) return false;
  const auto before = e.text(open_paren - 1);
  if (before == "if" || before == "for" || before == "while" || before == "switch" || before == "catch") return false;
  return e.is_identifier(open_paren - 1) || before == "]" || before == ">";
}

}  // namespace

LaneFlow::LaneFlow(const Engine& e) : e_(e) {
  // Function bodies: the code braces (paired by the engine's sweep) after a parameter list.
  // Only those that mention a thread index, a lane id or a block size (the engine's seed
  // tokens) can hold a tracked value: the others, most host code, are not scanned.
  const auto& seeds = e.lane_seed_tokens();
  if (seeds.empty()) return;  // no function can hold a tracked value
  for (const auto& [open, close] : e.code_braces())
    if (close != Engine::kUnclosed && opens_function_body(e, open)) regions_.emplace_back(open, close);
  // The enclosing region of each (a lambda's function), for region_of's walk outwards.
  parents_.assign(regions_.size(), regions_.size());
  std::vector<std::size_t> open_regions;
  for (std::size_t r = 0; r < regions_.size(); ++r) {
    while (!open_regions.empty() && regions_[open_regions.back()].second < regions_[r].first) open_regions.pop_back();
    if (!open_regions.empty()) parents_[r] = open_regions.back();
    open_regions.push_back(r);
  }
  // name = expression;  T name = expression, ...;  for (T name = expression; ...): the
  // assignments of each seeded function, evaluated until their classes settle (a few rounds,
  // so that chains like r = threadIdx.x & 31; s = r + 1; settle whatever their order). A
  // function's classes depend on its own assignments only.
  struct Assignment {
    std::size_t name, first, last;
  };
  std::vector<Assignment> assignments;
  for (std::size_t r = 0; r < regions_.size(); ++r) {
    const auto [first, last] = regions_[r];
    auto seed = std::lower_bound(seeds.begin(), seeds.end(), static_cast<std::uint32_t>(first));
    if (seed == seeds.end() || *seed > last) continue;
    assignments.clear();
    for (std::size_t i = first + 1; i + 2 < last; ++i) {
      if (!e.is_identifier(i) || !e.is(i + 1, "=") || e.tok(i).has(lex::kInDirective)) continue;
      if (e.is(i - 1, ".") || e.is(i - 1, "->") || e.is(i - 1, "::")) continue;  // a member, not a variable
      std::size_t end = i + 2;
      int nest = 0;
      for (; end < last; ++end) {
        const auto& t = e.tok(end);
        if (t.kind != lex::TokenKind::punctuator || t.length != 1) continue;
        const char c = e.text(end)[0];
        if (c == '(' || c == '[' || c == '{') ++nest;
        else if (c == ')' || c == ']' || c == '}') {
          if (nest-- == 0) break;
        } else if (nest == 0 && (c == ';' || c == ',')) break;
      }
      if (end > i + 2) assignments.push_back({i, i + 2, end - 1});
    }
    for (int round = 0; round < 3; ++round) {
      bool changed = false;
      for (const auto& a : assignments) {
        const LaneClass c = of_range_in(r, a.first, a.last);
        if (c == LaneClass::none) continue;
        auto& slot = classes_[Key{r, e.text(a.name)}];
        if (c > slot) {
          slot = c;
          changed = true;
        }
      }
      if (!changed) break;
    }
  }
}

// The innermost function body holding `i` (a lambda's, inside a function's): the last region
// opened before `i`, or the nearest of its enclosing ones that has not closed yet.
std::size_t LaneFlow::region_of(std::size_t i) const {
  auto it = std::lower_bound(regions_.begin(), regions_.end(), i,
                             [](const std::pair<std::size_t, std::size_t>& r, std::size_t v) { return r.first < v; });
  if (it == regions_.begin()) return regions_.size();
  std::size_t r = static_cast<std::size_t>(it - regions_.begin()) - 1;
  while (r < regions_.size() && regions_[r].second < i) r = parents_[r];
  return r;
}

LaneClass LaneFlow::of_variable(std::size_t i) const { return of_variable_in(region_of(i), i); }

LaneClass LaneFlow::of_variable_in(std::size_t region, std::size_t i) const {
  if (region >= regions_.size() || classes_.empty() || !e_.is_identifier(i)) return LaneClass::none;
  auto it = classes_.find(Key{region, e_.text(i)});
  return it == classes_.end() ? LaneClass::none : it->second;
}

LaneClass LaneFlow::of_range(std::size_t first, std::size_t last) const { return of_range_in(region_of(first), first, last); }

// An expression lies in one function: its region is looked up once.
LaneClass LaneFlow::of_range_in(std::size_t region, std::size_t first, std::size_t last) const {
  LaneClass c = LaneClass::none;
  bool block_size = false;
  for (std::size_t k = first; k <= last && k < e_.size(); ++k) {
    const auto& tk = e_.tok(k);
    const auto t = e_.text(k);
    if (tk.kind == lex::TokenKind::identifier) {
      if (t == "threadIdx" || t == "thread_rank") c = combine(c, LaneClass::thread);
      else if (t == "__lane_id") c = combine(c, LaneClass::lane);
      else if (t == "blockDim") block_size = true;
      else if (!classes_.empty() && !e_.is(k - 1, ".") && !e_.is(k - 1, "->")) c = combine(c, of_variable_in(region, k));
      continue;
    }
    if (tk.kind != lex::TokenKind::punctuator) continue;
    // A value read from an array is data, whatever index read it: in[threadIdx.x] is no index.
    if (t == "[") {
      const std::size_t close = e_.match(k);
      if (close < e_.size() && close <= last) {
        k = close;
        continue;
      }
    }
    // The operators that make lane and warp indices out of thread indices.
    if (k + 1 > last) continue;
    const bool lane_op = ((t == "%" && is_number(e_, k + 1, 32)) || (t == "&" && is_number(e_, k + 1, 31)));
    const bool warp_op = ((t == "/" && is_number(e_, k + 1, 32)) || (t == ">>" && is_number(e_, k + 1, 5)));
    if (!lane_op && !warp_op) continue;
    const std::size_t start = std::max(first, operand_start(k));
    LaneClass operand = LaneClass::none;
    bool operand_block = false;
    for (std::size_t j = start; j < k; ++j) {
      if (e_.is(j, "blockDim")) operand_block = true;
      if (e_.is(j, "threadIdx") || e_.is(j, "thread_rank")) operand = std::max(operand, LaneClass::thread);
      else if (e_.is_identifier(j) && !e_.is(j - 1, ".")) operand = std::max(operand, of_variable_in(region, j));
    }
    if (lane_op && (operand == LaneClass::thread || operand == LaneClass::lane)) return LaneClass::lane;
    if (warp_op && operand == LaneClass::thread) return LaneClass::warp;
    if (warp_op && operand_block && operand == LaneClass::none) return LaneClass::warp_count;
  }
  if (c == LaneClass::none && block_size) return LaneClass::none;
  return c;
}

// An operand: names, numbers, member accesses, and bracketed groups (calls, indexing, casts),
// walked over from the operator outwards.
std::size_t LaneFlow::operand_start(std::size_t op) const {
  std::size_t i = op;
  while (i > 0 && op - i < 64) {
    std::size_t k = i - 1;
    const auto t = e_.text(k);
    if (t == ")" || t == "]") {
      int depth = 0;
      for (; k > 0; --k) {
        if (e_.is(k, ")") || e_.is(k, "]")) ++depth;
        else if ((e_.is(k, "(") || e_.is(k, "[")) && --depth == 0) break;
      }
      i = k;
      continue;
    }
    if (!(e_.is_identifier(k) || e_.tok(k).kind == lex::TokenKind::number || t == "." || t == "->" || t == "::")) break;
    i = k;
  }
  return i;
}

std::size_t LaneFlow::operand_end(std::size_t op) const {
  std::size_t i = op + 1;
  while (i < e_.size() && i - op < 64) {
    const auto t = e_.text(i);
    if (t == "(" || t == "[") {
      const std::size_t close = e_.match(i);
      if (close >= e_.size()) break;
      i = close + 1;
      continue;
    }
    if (!(e_.is_identifier(i) || e_.tok(i).kind == lex::TokenKind::number || t == "." || t == "->" || t == "::")) break;
    ++i;
  }
  return i - 1;
}

LaneClass LaneFlow::of_left_operand(std::size_t op) const {
  if (op == 0) return LaneClass::none;
  return of_range(operand_start(op), op - 1);
}

LaneClass LaneFlow::of_right_operand(std::size_t op) const {
  const std::size_t end = operand_end(op);
  if (end <= op) return LaneClass::none;
  return of_range(op + 1, end);
}

}  // namespace gpuport::source
