#include "amdgpu/listing.h"

#include <fmt/format.h>

namespace gpuport::amdgpu {
namespace {

// The SGPRs the hardware initialises, in the order it places them (user SGPRs first).
std::string system_sgprs(const KernelDescriptor& d) {
  std::vector<std::string> parts;
  if (d.private_segment_buffer) parts.push_back("private-segment-buffer");
  if (d.dispatch_ptr) parts.push_back("dispatch-ptr");
  if (d.queue_ptr) parts.push_back("queue-ptr");
  if (d.kernarg_segment_ptr) parts.push_back("kernarg-segment-ptr");
  if (d.dispatch_id) parts.push_back("dispatch-id");
  if (d.flat_scratch_init) parts.push_back("flat-scratch-init");
  if (d.private_segment_size) parts.push_back("private-segment-size");
  if (d.workgroup_id_x) parts.push_back("workgroup-id-x");
  if (d.workgroup_id_y) parts.push_back("workgroup-id-y");
  if (d.workgroup_id_z) parts.push_back("workgroup-id-z");
  if (d.workgroup_info) parts.push_back("workgroup-info");
  if (d.private_segment_wave_offset) parts.push_back("private-segment-wave-offset");
  return parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", "));
}

const char* workitem_ids(std::uint32_t v) { return v == 0 ? "x" : v == 1 ? "x, y" : "x, y, z"; }

}  // namespace

std::string format_listing(const CodeObject& co, const std::vector<KernelCode>& kernels) {
  std::string out = fmt::format("code object {}: target {}, {} kernel(s)\n", co.origin, co.target, co.kernels.size());
  for (const auto& kc : kernels) {
    const Kernel& k = *kc.kernel;
    const KernelDescriptor& d = k.descriptor;
    out += fmt::format("\nkernel {} (code {:#x}, {} bytes, {} instructions)\n", k.name, k.code_address, k.code_size,
                       kc.instructions.size());
    out += fmt::format("  wave{}, LDS {} bytes, scratch {} bytes per lane, kernarg {} bytes (align {}), {} SGPRs, {} VGPRs\n",
                       d.wave32 ? 32 : 64, d.group_segment_fixed_size, d.private_segment_fixed_size, k.kernarg_segment_size,
                       k.kernarg_segment_align, k.sgpr_count, k.vgpr_count);
    out += fmt::format("  user SGPRs {}; initialised: {}; VGPR workitem ids: {}\n", d.user_sgpr_count, system_sgprs(d),
                       workitem_ids(d.vgpr_workitem_id));
    out += fmt::format("  float mode: round {}/{}, denorm {}/{} (32 / 16-64 bit), ieee {}, dx10-clamp {}\n", d.float_round_mode_32,
                       d.float_round_mode_16_64, d.float_denorm_mode_32, d.float_denorm_mode_16_64, d.ieee_mode ? 1 : 0,
                       d.dx10_clamp ? 1 : 0);
    for (const auto& a : k.arguments)
      out += fmt::format("  arg {:>4} +{:<2} {}{}{}\n", a.offset, a.size, a.value_kind, a.name.empty() ? "" : " ", a.name);
    for (const auto& i : kc.instructions) out += fmt::format("  {:08x}: {}\n", i.address, i.text);
  }
  return out;
}

nlohmann::json listing_json(const CodeObject& co, const std::vector<KernelCode>& kernels) {
  nlohmann::json j;
  j["origin"] = co.origin;
  j["target"] = co.target;
  j["kernels"] = nlohmann::json::array();
  for (const auto& kc : kernels) {
    const Kernel& k = *kc.kernel;
    const KernelDescriptor& d = k.descriptor;
    nlohmann::json kj;
    kj["name"] = k.name;
    kj["code_address"] = k.code_address;
    kj["code_size"] = k.code_size;
    kj["wavefront_size"] = d.wave32 ? 32 : 64;
    kj["group_segment_fixed_size"] = d.group_segment_fixed_size;
    kj["private_segment_fixed_size"] = d.private_segment_fixed_size;
    kj["kernarg_segment_size"] = k.kernarg_segment_size;
    kj["user_sgpr_count"] = d.user_sgpr_count;
    kj["sgpr_count"] = k.sgpr_count;
    kj["vgpr_count"] = k.vgpr_count;
    kj["vgpr_workitem_id"] = d.vgpr_workitem_id;
    kj["arguments"] = nlohmann::json::array();
    for (const auto& a : k.arguments)
      kj["arguments"].push_back({{"name", a.name}, {"value_kind", a.value_kind}, {"offset", a.offset}, {"size", a.size}});
    kj["instructions"] = nlohmann::json::array();
    for (const auto& i : kc.instructions)
      kj["instructions"].push_back({{"address", i.address}, {"size", i.size}, {"form", i.form}, {"text", i.text}});
    j["kernels"].push_back(std::move(kj));
  }
  return j;
}

}  // namespace gpuport::amdgpu
