// Helpers for the tune tests: the committed Volta+ listings that `gpuport tune` handles
// (sm_70..sm_90, made by CUDA 11.8 with nvdisasm -hex) and their cubins.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sass/cubin.h"
#include "sass/indirect_branches.h"
#include "sass/parser.h"
#include "unit/sass_listing_util.h"

namespace gpuport::tune::testing_util {

inline std::vector<std::filesystem::path> tunable_listings() {
  std::vector<std::filesystem::path> out;
  for (const auto& p : sass::testing::all_listings()) {
    std::string arch = p.parent_path().filename().string();
    if (arch == "sm_70" || arch == "sm_75" || arch == "sm_80" || arch == "sm_86" || arch == "sm_89" || arch == "sm_90")
      out.push_back(p);
  }
  return out;
}

inline sass::SassProgram load_listing(const std::filesystem::path& path) {
  sass::SassParseOptions options;
  options.file_name = path.string();
  auto parsed = sass::parse_sass(sass::testing::read_text(path), options);
  EXPECT_TRUE(parsed.ok()) << path;
  EXPECT_EQ(parsed.programs.size(), 1u) << path;
  if (parsed.programs.empty()) return {};
  sass::SassProgram program = parsed.programs.front();
  // Jump tables live in the cubin beside the listing.
  std::filesystem::path cubin_path = path;
  cubin_path.replace_extension(".cubin");
  std::string bytes = sass::testing::read_text(cubin_path);
  auto cubin = sass::read_cubin(bytes, cubin_path.string());
  if (cubin.ok()) sass::resolve_indirect_branches(program, *cubin.cubin, bytes);
  return program;
}

}  // namespace gpuport::tune::testing_util
