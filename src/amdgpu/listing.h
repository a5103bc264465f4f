// What `gpuport amdgpu` prints about a code object: per kernel its descriptor (what a dispatch
// sets up), its arguments from the metadata, and its decoded instructions; as text or JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "amdgpu/code_object.h"
#include "amdgpu/decode.h"

namespace gpuport::amdgpu {

std::string format_listing(const CodeObject& code_object, const std::vector<KernelCode>& kernels);
nlohmann::json listing_json(const CodeObject& code_object, const std::vector<KernelCode>& kernels);

}  // namespace gpuport::amdgpu
