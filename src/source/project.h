// Translating a set of files and folders as one project: inputs are expanded (folders
// recursively, local includes of file inputs followed), translated in parallel with output
// identical at any job count, and written atomically (mirrored tree, in place, or stdout).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "maps/api_map.h"
#include "source/cmake.h"
#include "source/report.h"
#include "source/translator.h"

namespace gpuport::source {

enum class OutputMode : std::uint8_t {
  none,      // translate and report only (--dry-run)
  memory,    // keep outputs in the result (stdout for a single file, tests)
  directory, // mirror the inputs under output_dir; non-source files are copied
  in_place,  // rewrite each file atomically, keeping FILE.gpuport.bak unless backup is off
};

struct ProjectOptions {
  TranslateOptions translate;
  OutputMode mode = OutputMode::memory;
  std::filesystem::path output_dir;
  bool backup = true;
  bool follow_includes = true;  // translate the local headers that file inputs include
  std::vector<std::filesystem::path> include_dirs;
  unsigned jobs = 1;
  std::uint64_t max_file_size = 128ull << 20;
  // `translate --project`: CMakeLists.txt and *.cmake are translated too (cmake.h), and
  // gpuport-hip.cmake is written next to each one that includes it.
  bool translate_build_files = false;
  CMakeOptions cmake;
  // A compilation database's own -D/-U per source file (canonical path), instead of `translate`'s.
  std::map<std::filesystem::path, PreprocessorSettings> file_preprocessor;
};

struct ProjectResult {
  TranslationReport report;
  std::vector<std::string> outputs;  // OutputMode::memory: translated text per report file
  std::filesystem::path root;        // the folder the output tree mirrors
};

bool is_source_file(const std::filesystem::path& path);

// The quoted includes of `file` (whose text is `text`) that resolve to existing source files,
// next to it or in `include_dirs`; canonical paths, in order of appearance.
std::vector<std::filesystem::path> local_includes(const std::filesystem::path& file, const std::string& text,
                                                  const std::vector<std::filesystem::path>& include_dirs);

// Progress callback: (files done, files in total); called from worker threads.
using ProgressFunction = std::function<void(std::size_t, std::size_t)>;

ProjectResult translate_project(const std::vector<std::filesystem::path>& inputs, const maps::ApiMap& map,
                                const ProjectOptions& options, const ProgressFunction& progress = {});

}  // namespace gpuport::source
