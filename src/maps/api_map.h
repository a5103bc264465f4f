// The CUDA -> HIP API tables. All knowledge of API names lives in data/maps/*.tsv; this module
// only loads, validates and indexes it. Rows: cuda, hip, kind, family, status[, note].
// Call rules (calls.tsv): cuda, argc, action, index, value[, note].
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/diagnostic.h"
#include "common/name_hash.h"

namespace gpuport::maps {

enum class Kind : std::uint8_t {
  function,      // host API function
  type,          // type, struct or enum name
  constant,      // enumerator or constant macro
  macro,         // function-like or other macro
  header,        // include path: cuda_runtime.h -> hip/hip_runtime.h
  namespace_,    // C++ namespace: cub -> hipcub (rewritten before '::' and after 'namespace');
                 // nested ones by qualified name: thrust::cuda -> thrust::hip
  device,        // device function or intrinsic
  pp_condition,  // macro tested by #ifdef/#ifndef/defined(): __CUDA_ARCH__ -> __HIP_DEVICE_COMPILE__
  member,        // a member of a CUDA struct (cudaDeviceProp), looked at after '.' or '->' on an
                 // object declared with that struct's type; the family names the struct
  tag,           // a struct tag whose HIP twin is a tag too (CUstream_st -> ihipStream_t, what
                 // hipStream_t points to): `struct X` keeps its keyword, unlike a type's
};

enum class Status : std::uint8_t { supported, unsupported, deprecated };

std::string_view kind_name(Kind kind);
std::string_view status_name(Status status);

struct ApiEntry {
  std::string cuda;
  std::string hip;  // "-" when unsupported
  Kind kind = Kind::function;
  std::string family;  // runtime, driver, device, math, headers, curand, cublas, ...
  Status status = Status::supported;
  std::string note;
  std::string origin;  // "curated/headers.tsv:12"
};

enum class CallAction : std::uint8_t {
  rename,  // with `argc` arguments, call `value` instead (overload resolution)
  wrap,    // wrap argument `index` as value(arg)
  drop,    // remove argument `index` (and its comma)
  append,  // with `argc` arguments, add `value` as the last one (an argument HIP has no default for)
  unsupported,  // with `argc` arguments the call has no HIP form (the legacy handle-less cuBLAS API):
               // it is left as written and reported
  unsupported_type,  // argument `index` names an object declared with one of the '|'-separated
                     // types of `value` (atomicAdd on __half2): HIP has no such overload; reported
  hip_overload,  // HIP declares an overload whose parameter `index` has type `value` (atomicMin on
                 // float*): a definition of the user's own with that parameter collides; reported
  insert,  // add `value` as argument `index` (only in the reversed, HIP -> CUDA, tables: the lane
           // mask a *_sync warp function takes and HIP's mask-less one lacks)
  wrap_result,  // the whole call becomes value(call) (reversed tables: a cu* driver call, whose
                // CUresult HIP code holds in a hipError_t, cast to cudaError_t)
};

struct CallRule {
  std::string cuda;
  int argc = -1;  // -1: any number of arguments
  CallAction action = CallAction::rename;
  int index = -1;
  std::string value;
  std::string note;
  std::string origin;
};

// A HIP replacement for a PTX instruction or special register seen in inline assembly
// (ptx.tsv): pattern is a mnemonic prefix ("brev", "shfl.sync") or a register ("%laneid").
struct PtxReplacement {
  std::string pattern;
  std::string hip;
  std::string note;
};

// Which tables to load. roc: also data/maps/roc/, whose rows take the cuBLAS, cuSPARSE, cuRAND
// and cuSOLVER names to rocBLAS, rocSPARSE, rocRAND and rocSOLVER instead of the hip* wrappers
// (hipify-clang's --roc).
struct LoadOptions {
  bool roc = false;
  // The HIP the translation targets, "6.2": also the hip-<version>/ layers up to it (names the
  // default tables, made from HIP 5.2's headers, lack). Empty: the default tables only.
  std::string hip_version;
};

// The first of the '|'-separated alternatives in `list` (a member row's struct spellings, an
// unsupported-type rule's types: __half2|half2) for which `holds` is true; empty when none is.
template <typename Predicate>
std::string_view first_alternative(std::string_view list, Predicate holds) {
  while (!list.empty()) {
    const auto bar = list.find('|');
    const auto item = list.substr(0, bar);
    if (holds(item)) return item;
    list = bar == std::string_view::npos ? std::string_view() : list.substr(bar + 1);
  }
  return {};
}

class ApiMap {
 public:
  ApiMap() = default;
  ApiMap(ApiMap&&) = default;  // indexes point into entries_' heap storage, which a move keeps
  ApiMap& operator=(ApiMap&&) = default;
  ApiMap(const ApiMap&) = delete;
  ApiMap& operator=(const ApiMap&) = delete;

  // Loads the tables compiled into the binary.
  static Result<ApiMap> load_embedded(const LoadOptions& options = {});
  // Loads every *.tsv below `directory` (generated/ first, then curated/, which overrides; then
  // roc/generated/ and roc/curated/ when options.roc).
  static Result<ApiMap> load_directory(const std::filesystem::path& directory, const LoadOptions& options = {});
  // Loads (name, content) pairs; names decide order and schema (calls.tsv holds call rules,
  // which add up over the layers).
  static Result<ApiMap> load(std::vector<std::pair<std::string, std::string>> files, const LoadOptions& options = {});

  // The HIP -> CUDA tables, read from these (CUDA -> HIP) rows the other way: no second table
  // is kept by hand. In the result, an entry's `cuda` field holds the HIP name translated from
  // and `hip` the CUDA name it becomes. Unsupported and identity rows, and rows whose HIP side is
  // no plain name (a member's cast template), are left out. Where several CUDA names map to one
  // HIP name (cudaMemcpy and cuMemcpy... -> hipMemcpy), the CUDA name that the HIP one spells
  // (hip -> cuda, hipblas -> cublas, ...) wins, then a supported row over a deprecated one, then
  // the runtime over the driver API, then table order. Call rules are turned around where that
  // is exact: a dropped lane mask is inserted again (0xffffffffu, the full warp), an appended
  // argument is dropped.
  ApiMap reversed() const;
  // Adds the entries and call rules of `other` whose names this map does not have (the reversed
  // --roc tables under the reversed default ones: rocblas_sgemm -> cublasSgemm besides
  // hipblasSgemm -> cublasSgemm).
  void add_missing(const ApiMap& other);

  // Identifier lookup (everything but headers). Null when the name is not in the tables.
  const ApiEntry* find(std::string_view cuda) const {
    // Most identifiers of a program are not API names: a small Bloom filter over
    // (length, first two and last byte) rejects them before any hashing of the whole name.
    if (cuda.empty()) return nullptr;
    const std::uint32_t b = filter_bit(cuda);
    if (!(filter_[b >> 6] >> (b & 63) & 1)) return nullptr;
    // Open addressing over a power-of-two table with a cheap hash: lookups are the inner loop
    // of translation.
    for (std::uint32_t slot = name_hash(cuda) & slot_mask_;; slot = (slot + 1) & slot_mask_) {
      const std::uint32_t index = slots_[slot];
      if (index == kEmptySlot) return nullptr;
      if (entries_[index].cuda == cuda) return &entries_[index];
    }
  }
  // Is `name` the first part of a qualified row (thrust in thrust::cuda)?
  bool is_qualifier(std::string_view name) const { return qualifiers_.count(name) != 0; }
  // Header lookup by include path as written between <> or "".
  const ApiEntry* find_header(std::string_view path) const;
  // Call rules for a function, in table order.
  std::span<const CallRule> call_rules(std::string_view cuda) const;

  const std::vector<ApiEntry>& entries() const { return entries_; }
  const std::vector<CallRule>& rules() const { return rules_; }
  const std::vector<PtxReplacement>& ptx_replacements() const { return ptx_; }
  // The tag of a HIP typedef (HIPaddress_mode -> HIPaddress_mode_enum); empty when it has none.
  std::string_view hip_tag(std::string_view hip) const {
    auto it = hip_tags_.find(std::string(hip));
    return it == hip_tags_.end() ? std::string_view() : std::string_view(it->second);
  }
  // Rows of curated files that replaced a generated row of the same name.
  const std::vector<std::string>& overrides() const { return overrides_; }
  // Struct type names that translation asks "is this object declared with it?" about: member
  // rows' families and unsupported-type rules' types ('|' alternatives split), and dim3. A
  // file's declarations of all of them are found in one pass over its tokens.
  bool is_declared_type(std::string_view type) const {
    // Most identifiers are rejected by their (length, first byte) before any hashing.
    if (type.empty() || type.size() >= kShapeLengths) return false;
    const auto c = static_cast<unsigned char>(type[0]);
    return (declared_type_shapes_[type.size()][c >> 6] >> (c & 63) & 1) && declared_types_.count(type) != 0;
  }

 private:
  void build_index();

  std::vector<ApiEntry> entries_;
  std::vector<CallRule> rules_;
  std::vector<PtxReplacement> ptx_;
  std::unordered_map<std::string, std::string> hip_tags_;  // HIP typedef -> its struct/enum/union tag
  std::vector<std::string> overrides_;
  std::unordered_map<std::string_view, std::uint32_t> by_header_;
  std::unordered_set<std::string_view> qualifiers_;
  std::unordered_map<std::string_view, std::pair<std::uint32_t, std::uint32_t>> rules_by_name_;
  std::unordered_set<std::string_view> declared_types_;
  // Bit c of [n]: a declared type is n bytes long and starts with byte c.
  static constexpr std::size_t kShapeLengths = 64;
  std::array<std::array<std::uint64_t, 4>, kShapeLengths> declared_type_shapes_{};
  static constexpr std::uint32_t kEmptySlot = 0xffffffffu;
  std::vector<std::uint32_t> slots_;
  std::uint32_t slot_mask_ = 0;
  static std::uint32_t filter_bit(std::string_view n) {
    const std::uint32_t c0 = static_cast<unsigned char>(n[0]);
    const std::uint32_t c1 = n.size() > 1 ? static_cast<unsigned char>(n[1]) : 0;
    const std::uint32_t cl = static_cast<unsigned char>(n.back());
    const std::uint32_t h = (c0 * 0x9E3779B1u) ^ (c1 * 0x85EBCA77u) ^ (cl * 0xC2B2AE3Du) ^
                            (static_cast<std::uint32_t>(n.size()) * 0x27D4EB2Fu);
    return (h ^ (h >> 15)) & ((1u << 18) - 1);
  }
  std::vector<std::uint64_t> filter_ = std::vector<std::uint64_t>((1u << 18) / 64);  // 32 KiB
};

}  // namespace gpuport::maps
