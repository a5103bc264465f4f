#include "maps/api_map.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>
#include <sstream>

#include <fmt/format.h>

#include "common/file_io.h"
#include "maps/embedded.h"

namespace gpuport::maps {
namespace fs = std::filesystem;

std::string_view kind_name(Kind kind) {
  switch (kind) {
    case Kind::function: return "function";
    case Kind::type: return "type";
    case Kind::constant: return "constant";
    case Kind::macro: return "macro";
    case Kind::header: return "header";
    case Kind::namespace_: return "namespace";
    case Kind::device: return "device";
    case Kind::pp_condition: return "pp-condition";
    case Kind::member: return "member";
    case Kind::tag: return "tag";
  }
  return "function";
}

std::string_view status_name(Status status) {
  switch (status) {
    case Status::supported: return "supported";
    case Status::unsupported: return "unsupported";
    case Status::deprecated: return "deprecated";
  }
  return "supported";
}

namespace {

bool parse_kind(std::string_view s, Kind& out) {
  for (Kind k : {Kind::function, Kind::type, Kind::constant, Kind::macro, Kind::header, Kind::namespace_,
                 Kind::device, Kind::pp_condition, Kind::member, Kind::tag})
    if (kind_name(k) == s) return out = k, true;
  return false;
}

bool parse_status(std::string_view s, Status& out) {
  for (Status st : {Status::supported, Status::unsupported, Status::deprecated})
    if (status_name(st) == s) return out = st, true;
  return false;
}

bool parse_action(std::string_view s, CallAction& out) {
  if (s == "rename") return out = CallAction::rename, true;
  if (s == "wrap") return out = CallAction::wrap, true;
  if (s == "drop") return out = CallAction::drop, true;
  if (s == "append") return out = CallAction::append, true;
  if (s == "unsupported") return out = CallAction::unsupported, true;
  if (s == "unsupported-type") return out = CallAction::unsupported_type, true;
  if (s == "hip-overload") return out = CallAction::hip_overload, true;
  return false;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> cells;
  while (true) {
    auto tab = line.find('\t');
    cells.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) break;
    line.remove_prefix(tab + 1);
  }
  return cells;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// `thrust::cuda`: nested namespaces are keyed by their qualified name.
bool is_qualified_identifier(std::string_view s) {
  while (true) {
    auto sep = s.find("::");
    if (!is_identifier(s.substr(0, sep))) return false;
    if (sep == std::string_view::npos) return true;
    s.remove_prefix(sep + 2);
  }
}

Diagnostic table_error(const std::string& file, std::uint32_t line, std::string message) {
  Diagnostic d;
  d.code = "bad-map-row";
  d.message = std::move(message);
  d.location = {file, line, 1};
  return d;
}

// "hip-6.2/..." -> 602; 0 for other names.
int hip_layer_version(std::string_view name) {
  if (!name.starts_with("hip-")) return 0;
  const auto slash = name.find('/');
  const auto dot = name.find('.');
  if (slash == std::string_view::npos || dot == std::string_view::npos || dot > slash) return 0;
  try {
    return std::stoi(std::string(name.substr(4, dot - 4))) * 100 + std::stoi(std::string(name.substr(dot + 1, slash - dot - 1)));
  } catch (...) {
    return 0;
  }
}

// Layers, loaded in this order: generated tables, curated ones (their rows override generated
// rows); with --hip-version the layers of newer HIPs up to it (hip-6.2/: names HIP 5.2 lacks),
// oldest first; with --roc the roc* tables, whose rows override all of them. Within a layer,
// generated files come before curated ones.
int file_rank(const std::string& name) {
  const bool roc = name.starts_with("roc/");
  const int hip = hip_layer_version(name);
  const std::string_view rest = std::string_view(name).substr(roc ? 4 : hip ? name.find('/') + 1 : 0);
  const bool generated = rest.starts_with("generated/");
  const int layer = roc ? 100000 : hip;  // hip layers by version, roc above them all
  return layer * 2 + (generated ? 0 : 1);
}

}  // namespace

Result<ApiMap> ApiMap::load(std::vector<std::pair<std::string, std::string>> files, const LoadOptions& options) {
  const int wanted_hip = options.hip_version.empty() ? 0 : hip_layer_version("hip-" + options.hip_version + "/");
  std::erase_if(files, [&](const auto& f) {
    if (f.first.starts_with("roc/")) return !options.roc;
    const int v = hip_layer_version(f.first);
    return v != 0 && v > wanted_hip;
  });
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return std::pair(file_rank(a.first), a.first) < std::pair(file_rank(b.first), b.first);
  });
  ApiMap map;
  std::vector<Diagnostic> errors;
  // name -> index of the row that defines it, and whether that row came from a curated file
  // Keys are views into the files' text (and into pending_spellings), which outlive the loop.
  std::unordered_map<std::string_view, std::pair<std::size_t, int>> seen;  // -> (row, layer)
  std::unordered_map<std::string_view, std::pair<std::size_t, int>> seen_headers;
  std::size_t rows = 0;
  for (const auto& f : files) rows += static_cast<std::size_t>(std::count(f.second.begin(), f.second.end(), '\n'));
  seen.reserve(rows);
  map.entries_.reserve(rows);
  struct Spelling {
    std::string spelling, spells, origin;
    bool tag = false;  // a struct/enum/union tag: becomes the tag of the HIP type where it has one
  };
  std::vector<Spelling> pending_spellings;

  for (const auto& [name, content] : files) {
    const bool calls = fs::path(name).filename() == "calls.tsv";
    const bool ptx = fs::path(name).filename() == "ptx.tsv";
    const bool spellings = fs::path(name).filename() == "spellings.tsv";
    const bool hip_tags = fs::path(name).filename() == "hip-tags.tsv";
    const int layer = file_rank(name);
    std::uint32_t line_no = 0;
    std::string_view rest = content;
    while (!rest.empty()) {
      auto nl = rest.find('\n');
      std::string_view line = rest.substr(0, nl);
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.empty() || line.front() == '#') continue;
      auto cells = split_tabs(line);
      const std::string origin = fmt::format("{}:{}", name, line_no);
      if (ptx) {
        if (cells.size() != 3) {
          errors.push_back(table_error(name, line_no, fmt::format("expected 3 tab-separated cells, found {}", cells.size())));
          continue;
        }
        map.ptx_.push_back({std::string(cells[0]), std::string(cells[1]), std::string(cells[2])});
        continue;
      }
      if (spellings) {
        if (cells.size() < 3 || cells.size() > 4 || !is_identifier(cells[0]) || !is_identifier(cells[1]) ||
            (cells.size() == 4 && cells[3] != "tag")) {
          errors.push_back(table_error(name, line_no, "expected: spelling, the name it spells, family[, tag] (3 or 4 tab-separated cells)"));
          continue;
        }
        pending_spellings.push_back({std::string(cells[0]), std::string(cells[1]), origin, cells.size() == 4});
        continue;
      }
      if (hip_tags) {
        if (cells.size() != 2 || !is_identifier(cells[0]) || !is_identifier(cells[1])) {
          errors.push_back(table_error(name, line_no, "expected: HIP typedef, its tag (2 tab-separated cells)"));
          continue;
        }
        map.hip_tags_.insert_or_assign(std::string(cells[0]), std::string(cells[1]));
        continue;
      }
      if (calls) {
        if (cells.size() < 5 || cells.size() > 6) {
          errors.push_back(table_error(name, line_no, fmt::format("expected 5 or 6 tab-separated cells, found {}", cells.size())));
          continue;
        }
        CallRule rule;
        rule.cuda = cells[0];
        if (cells[1] != "*") {
          try {
            rule.argc = std::stoi(std::string(cells[1]));
          } catch (...) {
            errors.push_back(table_error(name, line_no, fmt::format("argc '{}' is not a number or *", cells[1])));
            continue;
          }
        }
        if (!parse_action(cells[2], rule.action)) {
          errors.push_back(table_error(name, line_no, fmt::format("unknown action '{}' (rename, wrap, drop, append, unsupported, unsupported-type, hip-overload)", cells[2])));
          continue;
        }
        if (cells[3] != "-") {
          try {
            rule.index = std::stoi(std::string(cells[3]));
          } catch (...) {
            errors.push_back(table_error(name, line_no, fmt::format("index '{}' is not a number or -", cells[3])));
            continue;
          }
        }
        if ((rule.action == CallAction::wrap || rule.action == CallAction::drop || rule.action == CallAction::unsupported_type ||
             rule.action == CallAction::hip_overload) && rule.index < 0) {
          errors.push_back(table_error(name, line_no, "wrap, drop, unsupported-type and hip-overload need an argument index"));
          continue;
        }
        rule.value = cells[4] == "-" ? "" : std::string(cells[4]);
        if (cells.size() == 6) rule.note = cells[5];
        rule.origin = origin;
        map.rules_.push_back(std::move(rule));
        continue;
      }
      if (cells.size() < 5 || cells.size() > 6) {
        errors.push_back(table_error(name, line_no, fmt::format("expected 5 or 6 tab-separated cells, found {}", cells.size())));
        continue;
      }
      ApiEntry e;
      e.cuda = cells[0];
      e.hip = cells[1];
      if (!parse_kind(cells[2], e.kind)) {
        errors.push_back(table_error(name, line_no, fmt::format("unknown kind '{}'", cells[2])));
        continue;
      }
      e.family = cells[3];
      if (!parse_status(cells[4], e.status)) {
        errors.push_back(table_error(name, line_no, fmt::format("unknown status '{}'", cells[4])));
        continue;
      }
      if (cells.size() == 6) e.note = cells[5];
      e.origin = origin;
      if (e.kind != Kind::header && !is_identifier(e.cuda) &&
          !(e.kind == Kind::namespace_ && is_qualified_identifier(e.cuda))) {
        errors.push_back(table_error(name, line_no, fmt::format("'{}' is not an identifier", e.cuda)));
        continue;
      }
      if (e.status == Status::unsupported ? e.hip != "-" : e.hip == "-") {
        errors.push_back(table_error(name, line_no, "unsupported rows have '-' as HIP name, and only they"));
        continue;
      }
      if (e.kind == Kind::header) {
        if (auto it = seen_headers.find(e.cuda); it != seen_headers.end()) {
          if (it->second.second < layer) {  // a roc* header row replaces the hip* one
            map.entries_[it->second.first] = std::move(e);
            it->second.second = layer;
            continue;
          }
          errors.push_back(table_error(name, line_no, fmt::format("header '{}' already mapped at {}", e.cuda, map.entries_[it->second.first].origin)));
          continue;
        }
        seen_headers.emplace(cells[0], std::pair(map.entries_.size(), layer));
        map.entries_.push_back(std::move(e));
        continue;
      }
      if (auto it = seen.find(e.cuda); it != seen.end()) {
        auto& [at, seen_layer] = it->second;
        if (seen_layer < layer) {
          // Curated over generated is worth listing (gpuport-mapgen's output disagreed with a
          // person); a roc* row over a hip* row is what --roc is for.
          if (layer % 2 == 1 && seen_layer == layer - 1)
            map.overrides_.push_back(fmt::format("{} (generated {}) overridden by {}", e.cuda, map.entries_[at].origin, origin));
          map.entries_[at] = std::move(e);
          seen_layer = layer;
          continue;
        }
        errors.push_back(table_error(name, line_no, fmt::format("'{}' already mapped at {}", e.cuda, map.entries_[at].origin)));
        continue;
      }
      seen.emplace(cells[0], std::pair(map.entries_.size(), layer));
      map.entries_.push_back(std::move(e));
    }
  }
  // Other spellings (CUDA_ARRAY3D_DESCRIPTOR_st, CUaddress_mode_enum) map as the name they
  // spell, curated corrections included; a row of their own wins.
  for (const auto& sp : pending_spellings) {
    if (seen.contains(sp.spelling)) continue;
    auto base = seen.find(sp.spells);
    if (base == seen.end()) continue;
    ApiEntry e = map.entries_[base->second.first];
    e.note = e.note.empty() ? fmt::format("spelling of {}", sp.spells) : fmt::format("spelling of {}; {}", sp.spells, e.note);
    if (sp.tag && e.status != Status::unsupported) {
      // `struct CUDA_ARRAY_DESCRIPTOR_st` needs a tag on the HIP side too, where HIP has one.
      if (auto tag = map.hip_tags_.find(e.hip); tag != map.hip_tags_.end()) {
        e.note = fmt::format("the tag of {} (HIP: typedef ... {} {})", e.hip, tag->second, e.hip);
        e.hip = tag->second;
        e.kind = Kind::tag;
      }
    }
    e.cuda = sp.spelling;
    e.origin = sp.origin;
    seen.emplace(sp.spelling, std::pair(map.entries_.size(), false));
    map.entries_.push_back(std::move(e));
  }
  if (!errors.empty()) return Result<ApiMap>::failure(std::move(errors));
  map.build_index();
  return map;
}

void ApiMap::build_index() {
  by_header_.clear();
  qualifiers_.clear();
  std::fill(filter_.begin(), filter_.end(), 0);
  rules_by_name_.clear();
  declared_types_.clear();
  declared_type_shapes_ = {};
  auto add_types = [&](std::string_view list) {
    first_alternative(list, [&](std::string_view type) {  // every alternative: never "found"
      if (!type.empty() && type.size() < kShapeLengths) {
        declared_types_.insert(type);
        const auto c = static_cast<unsigned char>(type[0]);
        declared_type_shapes_[type.size()][c >> 6] |= 1ull << (c & 63);
      }
      return false;
    });
  };
  add_types("dim3");
  std::uint32_t capacity = 16;
  while (capacity < entries_.size() * 2) capacity *= 2;
  slots_.assign(capacity, kEmptySlot);
  slot_mask_ = capacity - 1;
  for (std::uint32_t i = 0; i < entries_.size(); ++i) {
    const auto& e = entries_[i];
    if (e.kind == Kind::header) {
      by_header_.emplace(e.cuda, i);
      continue;
    }
    if (e.kind == Kind::member) add_types(e.family);
    std::uint32_t slot = name_hash(e.cuda) & slot_mask_;
    while (slots_[slot] != kEmptySlot) slot = (slot + 1) & slot_mask_;
    slots_[slot] = i;
    if (auto sep = e.cuda.find("::"); sep != std::string::npos) qualifiers_.emplace(std::string_view(e.cuda).substr(0, sep));
    const std::uint32_t bit = filter_bit(e.cuda);
    filter_[bit >> 6] |= 1ull << (bit & 63);
  }
  std::stable_sort(rules_.begin(), rules_.end(), [](const CallRule& a, const CallRule& b) { return a.cuda < b.cuda; });
  for (const auto& r : rules_)
    if (r.action == CallAction::unsupported_type) add_types(r.value);
  for (std::uint32_t i = 0; i < rules_.size();) {
    std::uint32_t j = i;
    while (j < rules_.size() && rules_[j].cuda == rules_[i].cuda) ++j;
    rules_by_name_.emplace(rules_[i].cuda, std::pair(i, j - i));
    i = j;
  }
}

const ApiEntry* ApiMap::find_header(std::string_view path) const {
  auto it = by_header_.find(path);
  return it == by_header_.end() ? nullptr : &entries_[it->second];
}

std::span<const CallRule> ApiMap::call_rules(std::string_view cuda) const {
  auto it = rules_by_name_.find(cuda);
  if (it == rules_by_name_.end()) return {};
  return std::span<const CallRule>(rules_.data() + it->second.first, it->second.second);
}

namespace {

// The CUDA spelling a HIP name follows from, by the prefixes HIP's names are made with.
std::string cuda_spelling(std::string_view hip) {
  static const std::pair<std::string_view, std::string_view> kPrefixes[] = {
      {"hipblas", "cublas"},     {"HIPBLAS", "CUBLAS"},     {"hipsparse", "cusparse"}, {"HIPSPARSE", "CUSPARSE"},
      {"hiprand", "curand"},     {"HIPRAND", "CURAND"},     {"hipfft", "cufft"},       {"HIPFFT", "CUFFT"},
      {"hipsolver", "cusolver"}, {"HIPSOLVER", "CUSOLVER"}, {"hipcub", "cub"},         {"roctx", "nvtx"},
      {"rocblas", "cublas"},     {"rocsparse", "cusparse"}, {"rocrand", "curand"},     {"rocsolver", "cusolver"}, {"rocfft", "cufft"},
      {"hip/hip_", "cuda_"},     {"hip", "cuda"},           {"HIP", "CUDA"},           {"__hip", "__cuda"},
  };
  for (const auto& [from, to] : kPrefixes)
    if (hip.starts_with(from)) return std::string(to) + std::string(hip.substr(from.size()));
  return std::string(hip);
}

bool plain_target(const ApiEntry& e) {
  // A row whose HIP side is a C++ type (__bfloat162float -> float, a functional cast) says
  // nothing about that type's every use.
  static const std::set<std::string_view> kKeywords = {"float", "double", "int", "unsigned", "signed", "char", "short", "long",
                                                       "bool", "void", "auto", "const", "static_cast", "reinterpret_cast"};
  if (kKeywords.count(e.hip)) return false;
  if (e.kind == Kind::header) return !e.hip.empty() && e.hip.find_first_of(" $()<>") == std::string::npos;
  if (e.kind == Kind::namespace_) return is_qualified_identifier(e.hip);
  return is_identifier(e.hip);
}

}  // namespace

ApiMap ApiMap::reversed() const {
  ApiMap r;
  // Preference of a row for its HIP name: smaller is better. A header is compared by its file
  // name without extension (hipcub/hipcub.hpp spells cub/cub.cuh's "cub").
  auto stem = [](std::string_view path) {
    if (const auto slash = path.rfind('/'); slash != std::string_view::npos) path.remove_prefix(slash + 1);
    return std::string(path.substr(0, path.find('.')));
  };
  auto rank = [&](const ApiEntry& e) {
    int score = 0;
    std::string cuda_stem = stem(e.cuda);
    if (cuda_stem.ends_with("_v2")) cuda_stem.resize(cuda_stem.size() - 3);
    const bool spelled = e.kind == Kind::header ? stem(cuda_spelling(stem(e.hip))) == cuda_stem : cuda_spelling(e.hip) == e.cuda;
    if (!spelled) score += 8;
    if (e.status == Status::deprecated) score += 4;
    // cuBLAS's v2 API (cublas_v2.h, cublasStatus_t) over the legacy one (cublas.h, cublasStatus),
    // which rocBLAS's names map to as well.
    if (e.kind == Kind::header && stem(e.cuda).ends_with("_v2")) score -= 1;
    if (e.kind == Kind::type && !e.cuda.ends_with("_t")) score += 1;
    if (e.family == "driver") score += 2;
    else if (e.family != "runtime") score += 1;
    return score;
  };
  // Names CUDA and HIP share (identity rows: atomicAdd): they stay, though other CUDA names map to
  // them too (atomicAdd_block -> atomicAdd) -- except the legacy mask-less warp functions
  // (__ballot, __shfl_xor), which CUDA keeps only below sm_70: their *_sync twin wins.
  std::set<std::string_view> shared_names;
  for (const auto& e : entries_)
    if (e.hip == e.cuda && e.status != Status::unsupported) shared_names.insert(e.hip);
  std::unordered_map<std::string, std::size_t> chosen;  // HIP name (with kind class) -> index in r.entries_
  for (const auto& e : entries_) {
    if (e.status == Status::unsupported || e.hip.empty() || e.hip == "-" || e.hip == e.cuda || e.kind == Kind::member ||
        e.kind == Kind::tag || !plain_target(e))
      continue;
    if (e.kind != Kind::header && shared_names.count(e.hip) && e.cuda != e.hip + "_sync") continue;
    ApiEntry x = e;
    std::swap(x.cuda, x.hip);
    const std::string key = (e.kind == Kind::header ? "h:" : "n:") + x.cuda;
    auto [it, fresh] = chosen.emplace(key, r.entries_.size());
    if (fresh) {
      r.entries_.push_back(std::move(x));
      continue;
    }
    // A name already taken: swap in this row when it ranks better (ties keep table order).
    ApiEntry& held = r.entries_[it->second];
    ApiEntry held_forward = held;
    std::swap(held_forward.cuda, held_forward.hip);
    if (rank(e) < rank(held_forward)) held = std::move(x);
  }
  for (const auto& rule : rules_) {
    const ApiEntry* forward = find(rule.cuda);
    if (forward == nullptr || forward->status == Status::unsupported || !is_identifier(forward->hip)) continue;
    const auto it = chosen.find("n:" + forward->hip);
    if (it == chosen.end() || r.entries_[it->second].hip != rule.cuda) continue;  // another CUDA name won
    CallRule back;
    back.cuda = forward->hip;
    back.note = rule.note;
    back.origin = rule.origin;
    if (rule.action == CallAction::drop && rule.index == 0 && rule.cuda.ends_with("_sync")) {
      back.action = CallAction::insert;
      back.index = 0;
      back.value = "0xffffffffu";
    } else if (rule.action == CallAction::append && rule.argc >= 0) {
      back.action = CallAction::drop;
      back.argc = rule.argc + 1;
      back.index = rule.argc;
    } else {
      continue;
    }
    r.rules_.push_back(std::move(back));
  }
  // HIP has one error type; CUDA's driver API returns CUresult, not cudaError_t. HIP code keeps a
  // hipModule* call's result in a hipError_t, so the cu* call is cast: CUDA numbers the two enums
  // alike (CUDA_ERROR_FILE_NOT_FOUND and cudaErrorFileNotFound are both 301).
  for (const auto& e : r.entries_) {
    if (e.kind != Kind::function || e.family != "driver" || !e.hip.starts_with("cu") || e.hip.starts_with("cuda") ||
        !e.cuda.starts_with("hip"))
      continue;
    CallRule cast;
    cast.cuda = e.cuda;
    cast.action = CallAction::wrap_result;
    cast.value = "static_cast<cudaError_t>";
    cast.note = "CUresult held as cudaError_t, as HIP's code holds it as hipError_t";
    r.rules_.push_back(std::move(cast));
  }
  // CUDA's cudaLaunchCooperativeKernel template takes `const T* func`, which nvcc cannot deduce
  // from a kernel template's name (kernel<4>), where HIP's takes the kernel by value: the kernel
  // goes to the C API's const void* overload, cast.
  if (const auto it = chosen.find("n:hipLaunchCooperativeKernel"); it != chosen.end() && r.entries_[it->second].hip == "cudaLaunchCooperativeKernel") {
    CallRule cast;
    cast.cuda = "hipLaunchCooperativeKernel";
    cast.action = CallAction::wrap;
    cast.index = 0;
    cast.value = "reinterpret_cast<const void*>";
    cast.note = "CUDA's template overload cannot deduce a kernel template's type";
    r.rules_.push_back(std::move(cast));
  }
  // A CUDA function that HIP spells with an argument appended (cudaMallocHost(p, n) ->
  // hipHostMalloc(p, n, hipHostMallocDefault)) while another CUDA name won the HIP one
  // (cudaHostAlloc): a HIP call without that argument is the first function's.
  for (const auto& rule : rules_) {
    if (rule.action != CallAction::append || rule.argc < 0) continue;
    const ApiEntry* forward = find(rule.cuda);
    if (forward == nullptr || forward->status == Status::unsupported || !is_identifier(forward->hip)) continue;
    const auto it = chosen.find("n:" + forward->hip);
    if (it == chosen.end() || r.entries_[it->second].hip == rule.cuda) continue;
    CallRule back;
    back.cuda = forward->hip;
    back.argc = rule.argc;
    back.action = CallAction::rename;
    back.value = rule.cuda;
    back.note = rule.note;
    back.origin = rule.origin;
    r.rules_.push_back(std::move(back));
  }
  r.build_index();
  return r;
}

void ApiMap::add_missing(const ApiMap& other) {
  std::set<std::string> names, headers, ruled;
  for (const auto& e : entries_) (e.kind == Kind::header ? headers : names).insert(e.cuda);
  for (const auto& r : rules_) ruled.insert(r.cuda);
  for (const auto& e : other.entries_)
    if (!(e.kind == Kind::header ? headers : names).count(e.cuda)) entries_.push_back(e);
  for (const auto& r : other.rules_)
    if (!ruled.count(r.cuda) && !names.count(r.cuda)) rules_.push_back(r);
  build_index();
}

Result<ApiMap> ApiMap::load_embedded(const LoadOptions& options) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& f : embedded_map_files()) files.emplace_back(std::string(f.name), std::string(f.content));
  return load(std::move(files), options);
}

Result<ApiMap> ApiMap::load_directory(const fs::path& directory, const LoadOptions& options) {
  std::vector<std::pair<std::string, std::string>> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(directory, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".tsv") continue;
    auto content = read_file(it->path(), 256u << 20);
    if (!content) return Result<ApiMap>::failure(content.diagnostics());
    files.emplace_back(fs::relative(it->path(), directory).generic_string(), std::move(*content));
  }
  if (ec) {
    Diagnostic d;
    d.code = "io-error";
    d.message = "cannot read map folder: " + ec.message();
    d.location.file = directory.string();
    return d;
  }
  return load(std::move(files), options);
}

}  // namespace gpuport::maps
