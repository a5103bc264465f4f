// JSON documents as gpuport writes them (reports, divergence analyses, verify results): every
// string and key is made valid UTF-8 first (common/text.h: stray bytes become \xNN), since file
// names, kernel names and labels come from the user's files and need not be UTF-8, and the
// JSON library aborts on invalid UTF-8 when it serialises.
#pragma once

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "common/text.h"

namespace gpuport {

// Makes every string value and object key of `document` valid UTF-8, in place.
template <class Json>
void make_valid_utf8(Json& document) {
  if (document.is_string()) {
    auto& s = document.template get_ref<typename Json::string_t&>();
    if (!is_valid_utf8(s)) s = to_valid_utf8(s);
    return;
  }
  if (document.is_array()) {
    for (auto& element : document) make_valid_utf8(element);
    return;
  }
  if (!document.is_object()) return;
  bool bad_key = false;
  for (auto it = document.begin(); it != document.end(); ++it) {
    bad_key |= !is_valid_utf8(it.key());
    make_valid_utf8(it.value());
  }
  if (!bad_key) return;
  // Keys cannot be renamed in place: rebuild the object in its order.
  Json rebuilt = Json::object();
  for (auto it = document.begin(); it != document.end(); ++it) rebuilt[to_valid_utf8(it.key())] = std::move(it.value());
  document = std::move(rebuilt);
}

// `document` serialised (indent as nlohmann's dump) with a final newline, after make_valid_utf8.
template <class Json>
std::string dump_json(Json document, int indent = 2) {
  make_valid_utf8(document);
  return document.dump(indent) + "\n";
}

}  // namespace gpuport
