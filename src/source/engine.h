// Internal to source/: the per-file rewriting state shared by the passes (identifiers and
// calls, includes, launches, hazards). Edits are collected and applied once at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/text.h"
#include "lex/lexer.h"
#include "source/translator.h"

namespace gpuport::source {

struct Edit {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  std::string text;
  std::uint32_t order = 0;  // ties at the same offset apply in the order they were made
  std::uint32_t group = 0;  // edits of one rewrite: applied all together or not at all
};

// A call's argument list: the tokens (significant-token indices) of each argument.
struct CallArguments {
  std::size_t open = 0;   // index of '(' in sig
  std::size_t close = 0;  // index of ')' in sig
  std::vector<std::pair<std::size_t, std::size_t>> args;  // [first, last] sig indices, inclusive
};

// An #include directive (includes.cc).
struct Include {
  std::size_t hash = 0;    // sig index of '#'
  std::size_t header = 0;  // sig index of the header-name token
  std::string_view path;   // between the delimiters
  bool angled = false;
  int depth = 0;           // #if nesting depth
  bool in_brackets = false;  // inside ( ), [ ] or <<< >>> of code: the arguments of a call, say
  std::optional<std::size_t> extern_c;  // sig index of `extern` when inside an `extern "C" {` block
};

class Engine {
 public:
  // The file's include directives, once found (includes.cc).
  mutable std::optional<std::vector<Include>> include_cache;
  // #if nesting depth at sig index i, an include guard's #ifndef not counted (includes.cc).
  int conditional_depth(std::size_t i) const;
  // (sig index of each #if/#ifdef/#ifndef/#endif, depth after it), once found.
  mutable std::optional<std::vector<std::pair<std::size_t, int>>> nesting_cache;

  Engine(std::string_view path, const lex::TokenStream& tokens, const maps::ApiMap& map,
         const TranslateOptions& options, FileTranslation& result);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Significant (non-trivia) tokens, by position in the significant sequence.
  std::size_t size() const { return sig_.size(); }
  const lex::Token& tok(std::size_t i) const { return all_tokens_[sig_[i]]; }
  [[gnu::always_inline]] std::string_view text(std::size_t i) const {
    if (i >= sig_.size()) return {};
    const auto& t = all_tokens_[sig_[i]];
    return std::string_view(source_data_ + t.offset, t.length);
  }
  bool is(std::size_t i, std::string_view s) const { return i < sig_.size() && equals(text(i), s); }
  // Short-string equality that rejects on length and first byte before calling memcmp: most
  // comparisons in the passes are against one- or two-character punctuators.
  [[gnu::always_inline]] static bool equals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    switch (a.size()) {
      case 0: return true;
      case 1: return a[0] == b[0];
      case 2: return a[0] == b[0] && a[1] == b[1];
      default: return a[0] == b[0] && std::memcmp(a.data(), b.data(), a.size()) == 0;
    }
  }
  // sig indices of the '#' of every preprocessor directive, in order.
  const std::vector<std::size_t>& directives() const { return directives_; }
  // Sig indices, in order, of the names the tables ask "is this declared with it?" about
  // (ApiMap::is_declared_type) and of the names that seed warp-size data flow (threadIdx,
  // blockDim, __lane_id, thread_rank): found in the constructor's one sweep.
  const std::vector<std::uint32_t>& declared_type_tokens() const { return declared_type_tokens_; }
  const std::vector<std::uint32_t>& lane_seed_tokens() const { return lane_seed_tokens_; }
  // Sig indices of the names of code (not directives) directly followed by '(': calls and
  // function declarators.
  const std::vector<std::uint32_t>& names_before_paren() const { return names_before_paren_; }
  // The '{' of code (not of directives) and its '}', by '{': a brace never closed has
  // kUnclosed. Paired by count alone, whatever other brackets lie between.
  static constexpr std::uint32_t kUnclosed = 0xffffffffu;
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& code_braces() const { return code_braces_; }
  bool is_identifier(std::size_t i) const { return i < sig_.size() && tok(i).kind == lex::TokenKind::identifier; }
  std::size_t token_index(std::size_t i) const { return sig_[i]; }
  const lex::TokenStream& stream() const { return tokens_; }
  std::string_view source() const { return tokens_.text(); }
  const maps::ApiMap& map() const { return map_; }
  const TranslateOptions& options() const { return options_; }
  // Does `name` follow the naming of the API translated from (CUDA's, or HIP's with to_cuda)?
  bool looks_like_api(std::string_view name) const {
    return options_.to_cuda ? looks_like_hip_api(name) : looks_like_cuda_api(name);
  }
  FileTranslation& result() { return result_; }
  // Rewrites of preprocessor conditions (#ifdef __CUDA_ARCH__): not a sign that the file
  // uses the CUDA runtime.
  std::size_t pp_rewrites = 0;
  // HIP -> CUDA: a name became a cu* driver API name (add_driver_include then adds <cuda.h>).
  bool uses_driver_api = false;
  // Offset of the first preprocessor condition rewritten to a HIP macro that HIP's headers
  // define on NVIDIA (__HIPCC__, __HIP_DEVICE_COMPILE__): a HIP header must come before it.
  std::optional<std::uint32_t> first_hip_condition;
  // Compatibility shims (compat.h) the translation calls for, by bit.
  std::uint32_t needed_shims = 0;
  // Where rewrite_includes inserted a runtime include (before a cooperative-groups include).
  std::optional<std::uint32_t> runtime_inserted_at;
  // Shims the file already holds (it is gpuport's own output): their lines are left alone and
  // no second copy is added, so that translating a translation changes nothing.
  std::uint32_t present_shims() const { return present_shims_; }
  // Those shims' blocks: sig indices of the `#` of their #if and of their #endif's name.
  const std::vector<std::pair<std::size_t, std::size_t>>& shim_blocks() const { return shim_blocks_; }

  // Matching ')' / ']' / '}' for an opener at sig index i; size() when unbalanced.
  std::size_t match(std::size_t open) const;
  // Arguments of the call whose '(' is at sig index `open`.
  std::optional<CallArguments> arguments(std::size_t open) const;
  bool ends_argument(std::size_t lt, std::size_t close) const;  // `name<a, b>` is a whole argument

  // The edits made while the returned object lives form one rewrite (a launch, a wrapped
  // argument): if any of them overlaps an edit that wins, none is applied, so that a rewrite
  // is never left half done.
  class EditGroup {
   public:
    explicit EditGroup(Engine& e) : e_(e), saved_(e.current_group_) { e.current_group_ = e.next_group_++; }
    ~EditGroup() { e_.current_group_ = saved_; }
    EditGroup(const EditGroup&) = delete;
    EditGroup& operator=(const EditGroup&) = delete;

   private:
    Engine& e_;
    std::uint32_t saved_;
  };
  EditGroup group() { return EditGroup(*this); }

  void replace(std::size_t i, std::string text);  // replace one significant token
  void replace_range(std::uint32_t begin, std::uint32_t end, std::string text);
  void insert(std::uint32_t offset, std::string text);
  // Removes text gpuport itself wrote (a shim block), its comments with it: unlike
  // replace_range, which keeps every comment of the user's.
  void erase_generated(std::uint32_t begin, std::uint32_t end);
  bool edited(std::size_t i) const;  // a replace already targets this token

  Diagnostic& report(std::size_t i, Severity severity, std::string code, std::string message, std::string fix = {});
  Diagnostic& report_at(std::uint32_t offset, Severity severity, std::string code, std::string message,
                        std::string fix = {});
  SourceLocation location(std::uint32_t offset) const;

  // Device-code regions: sig index ranges of __global__/__device__ function bodies.
  bool in_device_code(std::size_t i) const { return device_range(i) != nullptr; }
  // Device-only code (not __host__ __device__): where `warpSize` may replace a literal.
  bool in_device_only_code(std::size_t i) const {
    const auto* r = device_range(i);
    return r != nullptr && !r->host;
  }
  bool has_device_code() const { return !device_ranges_.empty() || has_device_keywords_; }
  bool has_launches() const { return has_launches_; }  // a kernel<<<...>>>, macro bodies included
  // A kernel this file declares as a template (`template <...> __global__ void k(`): its
  // template arguments' commas split no call arguments.
  bool is_template_kernel(std::string_view name) const;  // launch.cc

  // Arguments removed by a call rule: their tokens are gone from the output, so no other
  // pass may rewrite or report them.
  void mark_dropped(std::size_t first, std::size_t last) {
    if (dropped_.empty()) dropped_.resize(sig_.size(), false);
    for (std::size_t k = first; k <= last && k < dropped_.size(); ++k) dropped_[k] = true;
  }
  bool is_dropped(std::size_t i) const { return i < dropped_.size() && dropped_[i]; }

  // The edited text, built in `out`'s storage (reused across files).
  // With `line_marker_path`, whole lines an edit adds are followed by a `#line` naming that
  // file and the line that follows in it (TranslateOptions::line_markers).
  std::string apply_edits(std::string out = {}, std::string_view line_marker_path = {});

 private:
  struct DeviceRange {
    std::size_t first, last;
    bool host;  // __host__ __device__
  };
  const DeviceRange* device_range(std::size_t i) const;

  std::string path_;
  const lex::TokenStream& tokens_;
  const maps::ApiMap& map_;
  const TranslateOptions& options_;
  FileTranslation& result_;
  const char* source_data_;
  std::vector<std::uint32_t> sig_;
  // The stream's tokens: sig_ indexes them (no copy of the significant ones, whose fresh
  // pages cost more on big files than the indirection does).
  const lex::Token* all_tokens_ = nullptr;
  std::vector<Edit> edits_;
  static constexpr std::uint32_t kNoGroup = UINT32_MAX;
  std::uint32_t current_group_ = kNoGroup;
  std::uint32_t next_group_ = 0;
  std::vector<std::uint32_t> replaced_;  // offsets of replaced tokens (sorted on use)
  std::vector<DeviceRange> device_ranges_;
  mutable std::size_t device_cursor_ = 0;
  std::vector<std::size_t> directives_;
  std::vector<std::uint32_t> declared_type_tokens_;
  std::vector<std::uint32_t> lane_seed_tokens_;
  std::vector<std::uint32_t> names_before_paren_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> code_braces_;
  std::vector<bool> dropped_;  // by sig index; empty until something is dropped
  std::vector<std::pair<std::size_t, std::size_t>> shim_blocks_;
  mutable std::optional<std::unordered_set<std::string_view>> template_kernels_;
  void protect_shims();

  bool has_device_keywords_ = false;
  std::uint32_t present_shims_ = 0;
  bool has_launches_ = false;
  mutable std::optional<LineIndex> lines_;
};

// The passes, each in its own file.
// translator.cc: identifiers, calls, pp-conditions.
class IdentifierRewriter {
 public:
  explicit IdentifierRewriter(Engine& engine);
  void run();

 private:
  enum class Scope : std::uint8_t { block, user_namespace, record };
  struct DirectiveState {
    std::string_view name;  // directive name while inside one
    std::size_t hash = 0;
  };
  static Scope scope_opened_by(const Engine& e, std::size_t brace);
  const maps::ApiEntry* namespace_entry(std::size_t k) const;

  Engine& e;
  const maps::ApiMap& map;
  DirectiveState directive;
  std::set<std::string, std::less<>> declared;
  // Scopes opened by '{' outside directives. A name declared directly in a struct or in a
  // user's namespace is the user's own, even when it is spelled like a CUDA API.
  std::vector<Scope> scopes;
  // Namespace aliases of mapped namespaces: namespace cg = cooperative_groups;
  std::map<std::string_view, const maps::ApiEntry*> aliases;
  // Device and math names (umin, saturate) that this file defines itself: the user's own
  // functions, left alone wherever they are called.
  std::set<std::string_view> user_defined;
  void find_user_definitions();
  // Names the file declares with this struct type (cudaDeviceProp prop, *p, &r, props[4]),
  // for member rows: `prop.asyncEngineCount` is the API, `mine.asyncEngineCount` is not.
  // Keyed by where the type's name is stored (a table row's family, a literal), not by its
  // text: looked up for every `.x` of the file, so without comparing strings.
  struct TypeKey {
    const char* data;
    std::size_t size;
    bool operator==(const TypeKey&) const = default;
  };
  struct TypeKeyHash {
    std::size_t operator()(const TypeKey& k) const { return std::hash<const void*>()(k.data) ^ k.size; }
  };
  std::unordered_map<TypeKey, const std::unordered_set<std::string_view>*, TypeKeyHash> declared_with;
  std::unordered_map<std::string_view, std::unordered_set<std::string_view>> declared_by_text;
  const std::unordered_set<std::string_view>& declared_names(std::string_view type);
  void collect_declarators(std::size_t type_token, std::unordered_set<std::string_view>& names) const;
  // Removes `case cudaErrorX:` for an error code HIP lacks (a label that can never match).
  bool drop_unreachable_case(std::size_t i, const maps::ApiEntry& entry);
  bool all_declared_scanned = false;
  std::optional<bool> has_long_long;  // the file spells `long long` (asked once, when needed)
  bool declared_with_struct(std::string_view type, std::size_t object);
  // `attr.type == cudaMemoryTypeManaged` on HIP 5.2 (a test of isManaged instead).
  bool managed_test_after(std::size_t member);
  bool managed_test_before(std::size_t constant);
  std::set<std::size_t> managed_tests;         // constants rewritten with the member before them
  std::set<std::size_t> managed_type_members;  // members to rename to isManaged
  std::size_t object_name(std::size_t object) const;
};

void find_hazards(Engine& engine);         // hazards.cc: warp size, inline PTX
void move_unmatched_definitions(Engine& engine);  // definitions.cc: ns::f(...) { } matching no declaration
void rewrite_and_scan(Engine& engine);     // identifiers, then hazards
void rewrite_includes(Engine& engine);     // includes.cc: header paths, duplicate runtime includes
void place_runtime_include(Engine& engine, std::size_t rewrites_before_identifiers);  // includes.cc
void add_driver_include(Engine& engine);  // includes.cc, HIP -> CUDA: <cuda.h> where cu* driver calls appear
// calls.cc. `declared_as(type, object)`: is the name at sig index `object` declared with `type`?
void apply_call_rules(Engine& engine, std::size_t name, const maps::ApiEntry* entry,
                      const std::function<bool(std::string_view, std::size_t)>& declared_as);
void rewrite_launches(Engine& engine);     // launch.cc: <<<>>> -> hipLaunchKernelGGL
void join_spaced_launches(Engine& engine);  // launch.cc: `k << <g, b >> > (a)` -> `k<<<g, b>>>(a)`
// launch.cc: a launch in a template of a kernel this file never declares gets a declaration
// that no call matches, so that clang, like nvcc, looks the name up only on instantiation.
void declare_undeclared_template_kernels(Engine& engine);
// reverse.cc (HIP -> CUDA): hipLaunchKernelGGL -> <<<>>>, HIP's macros (HIP_SYMBOL/HIP_KERNEL_NAME
// unwrapped, index macros, __HIP_PLATFORM_NVIDIA__ -> __CUDACC__), and 64-lane assumptions reported.
void rewrite_hip_launches(Engine& engine);
void rewrite_hip_macros(Engine& engine);
void remove_shims(Engine& engine);  // gpuport's own HIP compatibility code (compat.cc), whole lines
void find_wave64_hazards(Engine& engine);
bool handled_by_reverse_passes(std::string_view name);  // names those passes translate or keep
// launch.cc: kernels this file declares as templates, and object-like macros naming a template
// instance (#define K axpy<float>).
std::unordered_set<std::string_view> find_template_kernels(const Engine& engine);

}  // namespace gpuport::source
