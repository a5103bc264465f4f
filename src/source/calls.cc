// Argument-level rewrites from calls.tsv: overloads that map to different HIP functions,
// arguments HIP needs wrapped (HIP_SYMBOL, const void* kernels), and arguments HIP lacks
// (the lane mask of the *_sync warp functions), and arguments HIP has no default for.
#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "source/engine.h"

namespace gpuport::source {
namespace {

bool is_full_mask(std::string_view s) {
  std::string lower;
  for (char c : s)
    if (c != ' ' && c != '\t') lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Integer suffixes (0xffffffffu, ~0ull) only on numbers: a name keeps its letters ('full').
  const bool number = !lower.empty() && (std::isdigit(static_cast<unsigned char>(lower[0])) || lower[0] == '-' || lower[0] == '~');
  while (number && (lower.back() == 'u' || lower.back() == 'l')) lower.pop_back();
  return lower == "0xffffffff" || lower == "0xffffffffffffffff" || lower == "-1" || lower == "__activemask()" ||
         lower == "~0" || lower == "~0u" || lower.find("full") != std::string::npos ||
         lower.find("all") != std::string::npos;  // FULL_MASK, kAllLanes
}

// An argument already cast to the type a wrap rule casts to (`(const void*)k`, `(void*)k`,
// `reinterpret_cast<const void*>(k)`; `(void**)&p` for a void** rule): no second cast needed.
bool already_cast(const Engine& e, std::size_t first, std::size_t last, std::string_view rule_value) {
  std::string prefix;
  for (std::size_t i = first; i <= last && prefix.size() < 48; ++i) prefix += e.text(i);
  std::string type(rule_value.substr(rule_value.find('<') + 1));
  if (!type.empty()) type.pop_back();  // the '>'
  std::erase(type, ' ');
  if (type == "constvoid*" && prefix.starts_with("(void*)")) return true;
  return prefix.starts_with("(" + type + ")") || prefix.starts_with("reinterpret_cast<" + type + ">") ||
         prefix.starts_with("static_cast<" + type + ">");
}

}  // namespace

void apply_call_rules(Engine& e, std::size_t name, const maps::ApiEntry* entry,
                      const std::function<bool(std::string_view, std::size_t)>& declared_as) {
  const auto call = e.arguments(name + 1);
  std::string hip = entry->hip;
  auto leave_alone = [&](std::string_view why) {
    e.report(name, Severity::warning, "call-not-rewritten",
             fmt::format("the arguments of '{}' cannot be read ({}); the call is left as it is", e.text(name), why),
             fmt::format("translate it to {} by hand", entry->hip));
  };
  const auto& rules = e.map().call_rules(e.text(name));
  // A call of a form HIP lacks (cublasSscal(n, alpha, x, incx) of the legacy cublas.h API, where
  // hipBLAS has only hipblasSscal(handle, n, alpha, x, incx)) stays as written, reported.
  if (call) {
    for (const auto& rule : rules) {
      if (rule.action != maps::CallAction::unsupported || rule.argc != static_cast<int>(call->args.size())) continue;
      e.report(name, Severity::error, "unsupported-api",
               fmt::format("'{}' with {} arguments has no HIP equivalent", e.text(name), rule.argc), rule.note);
      return;
    }
    // An argument of a type HIP has no overload for (atomicAdd on __half2): the object it names,
    // after any & and casts, is declared with that type.
    for (const auto& rule : rules) {
      if (rule.action != maps::CallAction::unsupported_type || rule.index >= static_cast<int>(call->args.size())) continue;
      const auto [first, last] = call->args[static_cast<std::size_t>(rule.index)];
      std::size_t k = first;
      while (k < last && !e.is_identifier(k)) ++k;
      if (!e.is_identifier(k)) continue;
      const auto type = maps::first_alternative(rule.value, [&](std::string_view t) { return declared_as(t, k); });
      if (!type.empty()) {
        e.report(name, Severity::error, "unsupported-api",
                 fmt::format("'{}' on {} ('{}') has no HIP equivalent", e.text(name), type, e.text(k)), rule.note);
        return;
      }
    }
  }
  const bool changes_arguments = std::any_of(rules.begin(), rules.end(), [](const maps::CallRule& r) {
    return r.action == maps::CallAction::wrap || r.action == maps::CallAction::drop || r.action == maps::CallAction::append ||
           r.action == maps::CallAction::insert || r.action == maps::CallAction::wrap_result;
  });
  if (!call) {
    // The arguments cannot be told apart (unbalanced brackets, directives): renaming a call whose
    // arguments must change too (`__shfl_sync(mask, v, l)` -> `__shfl(v, l)`) would call the HIP
    // function with the wrong ones. Leave it as it is and say so.
    if (changes_arguments) {
      leave_alone("unbalanced brackets, or preprocessor directives inside");
      return;
    }
  } else if (changes_arguments) {
    // An argument to drop that holds statements (`;`, braces) is no expression a call takes:
    // removing it would remove code around it.
    const int argc = static_cast<int>(call->args.size());
    for (const auto& rule : rules) {
      if (rule.action != maps::CallAction::drop || rule.index >= argc || (rule.argc >= 0 && rule.argc != argc)) continue;
      const auto [first, last] = call->args[static_cast<std::size_t>(rule.index)];
      for (std::size_t k = first; k <= last; ++k)
        if (e.is(k, ";") || e.is(k, "{") || e.is(k, "}")) {
          leave_alone("an argument holds statements");
          return;
        }
    }
  }
  if (call) {
    const int argc = static_cast<int>(call->args.size());
    for (const auto& rule : rules) {
      if (rule.argc >= 0 && rule.argc != argc) continue;
      // Rules that only report (checked above, or at definitions) change no argument.
      if (rule.action == maps::CallAction::unsupported || rule.action == maps::CallAction::unsupported_type ||
          rule.action == maps::CallAction::hip_overload)
        continue;
      if (rule.action == maps::CallAction::rename) {
        hip = rule.value;
        continue;
      }
      if (rule.action == maps::CallAction::append) {
        if (argc == 0) e.insert(e.tok(call->close).offset, rule.value);
        else e.insert(e.tok(call->args.back().second).end(), ", " + rule.value);
        ++e.result().rewrites;
        continue;
      }
      if (rule.action == maps::CallAction::wrap_result) {
        // Not twice: a translation of a translation already has the cast.
        if (name >= 2 && e.is(name - 1, "(") && e.text(name - 2) == "static_cast") continue;
        const auto whole = e.group();
        e.insert(e.tok(name).offset, rule.value + "(");
        e.insert(e.tok(call->close).end(), ")");
        ++e.result().rewrites;
        continue;
      }
      if (rule.action == maps::CallAction::insert) {
        // HIP -> CUDA: the lane mask HIP's wave-wide function has no parameter for. All lanes
        // the HIP code ran with are the full warp; a divergent caller needs its own mask.
        if (rule.index > argc) continue;
        if (argc == 0) e.insert(e.tok(call->close).offset, rule.value);
        else if (rule.index < argc) e.insert(e.tok(call->args[static_cast<std::size_t>(rule.index)].first).offset, rule.value + ", ");
        else e.insert(e.tok(call->args.back().second).end(), ", " + rule.value);
        e.report(name, Severity::note, "warp-mask-added",
                 fmt::format("lane mask {} added: {} names the lanes taking part, HIP's {} took every active lane", rule.value, hip,
                             e.text(name)),
                 "where the call sits in divergent code, pass the mask of the lanes that reach it (__activemask())");
        ++e.result().rewrites;
        continue;
      }
      if (rule.index >= argc) continue;
      const auto [first, last] = call->args[static_cast<std::size_t>(rule.index)];
      if (rule.action == maps::CallAction::wrap) {
        if (e.text(first) == rule.value) continue;  // already wrapped
        if (rule.value.ends_with("_cast<const void*>") || rule.value.ends_with("_cast<void**>"))
          if (already_cast(e, first, last, rule.value)) continue;
        const auto both_parens = e.group();
        e.insert(e.tok(first).offset, rule.value + "(");
        e.insert(e.tok(last).end(), ")");
        ++e.result().rewrites;
      } else {  // drop
        std::string_view dropped = e.source().substr(e.tok(first).offset, e.tok(last).end() - e.tok(first).offset);
        if ((e.text(name).ends_with("_sync") || e.text(name) == "__syncwarp") && rule.index == 0) {
          if (!is_full_mask(dropped))
            e.report(first, Severity::warning, "warp-mask-dropped",
                     fmt::format("lane mask '{}' dropped: {} acts on all active lanes of the wavefront", dropped, hip),
                     "check that every lane named by the mask is active here, or restructure the divergent code");
          else  // a full 32-lane mask: nothing lost while all lanes take part, but say what was removed
            e.report(first, Severity::note, "warp-mask-dropped",
                     fmt::format("full lane mask '{}' dropped: {} acts on all active lanes of the wavefront", dropped, hip));
        } else if (dropped != "0" && dropped != "NULL" && dropped != "nullptr") {
          // Only a null argument is dropped without loss (the occupancy calls' callbacks).
          e.report(first, Severity::warning, "argument-dropped",
                   fmt::format("argument '{}' dropped: {} has no such parameter", dropped, hip), rule.note);
        }
        std::uint32_t begin, end;
        if (static_cast<std::size_t>(rule.index) + 1 < call->args.size()) {
          begin = e.tok(first).offset;
          end = e.tok(call->args[static_cast<std::size_t>(rule.index) + 1].first).offset;
        } else if (rule.index > 0) {
          begin = e.tok(call->args[static_cast<std::size_t>(rule.index) - 1].second).end();
          end = e.tok(last).end();
        } else {
          begin = e.tok(first).offset;
          end = e.tok(last).end();
        }
        e.replace_range(begin, end, "");
        e.mark_dropped(first, last);
        ++e.result().rewrites;
      }
    }
  }
  if (hip != e.text(name)) {
    e.replace(name, hip);
    ++e.result().rewrites;
  }
}

}  // namespace gpuport::source
