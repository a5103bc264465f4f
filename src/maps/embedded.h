// The mapping tables compiled into the binary (see cmake/embed_maps.cmake).
#pragma once

#include <span>
#include <string_view>

namespace gpuport::maps {

struct EmbeddedMapFile {
  std::string_view name;     // path relative to data/maps, e.g. "curated/headers.tsv"
  std::string_view content;
};

std::span<const EmbeddedMapFile> embedded_map_files();

}  // namespace gpuport::maps
