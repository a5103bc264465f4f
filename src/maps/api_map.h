// The CUDA -> HIP API tables. All knowledge of API names lives in data/maps/*.tsv; this module
// only loads, validates and indexes it. Rows: cuda, hip, kind, family, status[, note].
// Call rules (calls.tsv): cuda, argc, action, index, value[, note].
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/diagnostic.h"

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

class ApiMap {
 public:
  ApiMap() = default;
  ApiMap(ApiMap&&) = default;  // indexes point into entries_' heap storage, which a move keeps
  ApiMap& operator=(ApiMap&&) = default;
  ApiMap(const ApiMap&) = delete;
  ApiMap& operator=(const ApiMap&) = delete;

  // Loads the tables compiled into the binary.
  static Result<ApiMap> load_embedded();
  // Loads every *.tsv below `directory` (generated/ first, then curated/, which overrides).
  static Result<ApiMap> load_directory(const std::filesystem::path& directory);
  // Loads (name, content) pairs; names decide order and schema (calls.tsv holds call rules).
  static Result<ApiMap> load(std::vector<std::pair<std::string, std::string>> files);

  // Identifier lookup (everything but headers). Null when the name is not in the tables.
  const ApiEntry* find(std::string_view cuda) const {
    // Most identifiers of a program are not API names: reject on (first byte, length) first.
    if (cuda.empty() ||
        (cuda.size() < 64 && !(lengths_by_first_char_[static_cast<unsigned char>(cuda[0])] >> cuda.size() & 1)))
      return nullptr;
    auto it = by_name_.find(cuda);
    return it == by_name_.end() ? nullptr : &entries_[it->second];
  }
  // Header lookup by include path as written between <> or "".
  const ApiEntry* find_header(std::string_view path) const;
  // Call rules for a function, in table order.
  std::span<const CallRule> call_rules(std::string_view cuda) const;

  const std::vector<ApiEntry>& entries() const { return entries_; }
  const std::vector<CallRule>& rules() const { return rules_; }
  const std::vector<PtxReplacement>& ptx_replacements() const { return ptx_; }
  // Rows of curated files that replaced a generated row of the same name.
  const std::vector<std::string>& overrides() const { return overrides_; }

 private:
  void build_index();

  std::vector<ApiEntry> entries_;
  std::vector<CallRule> rules_;
  std::vector<PtxReplacement> ptx_;
  std::vector<std::string> overrides_;
  std::unordered_map<std::string_view, std::uint32_t> by_name_;
  std::unordered_map<std::string_view, std::uint32_t> by_header_;
  std::unordered_map<std::string_view, std::pair<std::uint32_t, std::uint32_t>> rules_by_name_;
  std::uint64_t lengths_by_first_char_[256] = {};  // bit n: some name of length n starts with this byte
};

}  // namespace gpuport::maps
