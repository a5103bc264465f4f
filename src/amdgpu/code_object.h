// AMDGPU code objects as clang-19 emits them for HIP (ELF, code object v5): the gfx1100 object
// found in a HIP executable's offload bundle, its kernel descriptors (.kd symbols) and the
// msgpack metadata note with each kernel's explicit and hidden arguments. No LLVM type leaks
// out of this header; the emulator and `gpuport run --coverage` work from these values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostic.h"

namespace gpuport::amdgpu {

// One kernel argument from the metadata (.args): its offset and size in the kernarg segment and
// its value kind (by_value, global_buffer, hidden_block_count_x, hidden_group_size_x, ...).
struct KernelArgument {
  std::string name;        // may be empty (hidden arguments)
  std::string value_kind;  // .value_kind
  std::string address_space;
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

// The kernel descriptor (64 bytes at the .kd symbol), decoded: what the dispatch must set up.
struct KernelDescriptor {
  std::uint32_t group_segment_fixed_size = 0;    // static LDS bytes
  std::uint32_t private_segment_fixed_size = 0;  // scratch bytes per lane
  std::uint32_t kernarg_size = 0;
  std::int64_t kernel_code_entry_byte_offset = 0;  // from the descriptor's own address
  std::uint32_t compute_pgm_rsrc1 = 0, compute_pgm_rsrc2 = 0, compute_pgm_rsrc3 = 0;
  std::uint16_t kernel_code_properties = 0;
  // Decoded fields of the above that the dispatch uses.
  bool wave32 = false;
  std::uint32_t user_sgpr_count = 0;
  bool private_segment_buffer = false, dispatch_ptr = false, queue_ptr = false, kernarg_segment_ptr = false,
       dispatch_id = false, flat_scratch_init = false, private_segment_size = false;
  bool workgroup_id_x = false, workgroup_id_y = false, workgroup_id_z = false, workgroup_info = false;
  bool private_segment_wave_offset = false;  // rsrc2 ENABLE_PRIVATE_SEGMENT
  std::uint32_t vgpr_workitem_id = 0;        // 0: x only, 1: x and y, 2: x, y and z
  std::uint32_t float_denorm_mode_32 = 0, float_denorm_mode_16_64 = 0;
  std::uint32_t float_round_mode_32 = 0, float_round_mode_16_64 = 0;
  bool ieee_mode = false, dx10_clamp = false;
};

struct Kernel {
  std::string name;    // the symbol (mangled) name
  std::string symbol;  // the descriptor symbol, name + ".kd"
  KernelDescriptor descriptor;
  std::uint64_t code_address = 0;  // virtual address of the first instruction
  std::uint64_t code_size = 0;     // bytes of the kernel's function symbol (0 when unknown)
  // From the metadata note.
  std::vector<KernelArgument> arguments;
  std::uint32_t kernarg_segment_size = 0, kernarg_segment_align = 0;
  std::uint32_t wavefront_size = 0, sgpr_count = 0, vgpr_count = 0;
  std::uint32_t max_flat_workgroup_size = 0;
  std::uint32_t group_segment_fixed_size = 0, private_segment_fixed_size = 0;
  bool uses_dynamic_stack = false;
};

// The image is relocated for the address it lies at (memory.data()): a CodeObject may be moved
// (the buffer moves with it) but not copied.
struct CodeObject {
  CodeObject() = default;
  CodeObject(CodeObject&&) = default;
  CodeObject& operator=(CodeObject&&) = default;
  CodeObject(const CodeObject&) = delete;
  CodeObject& operator=(const CodeObject&) = delete;

  std::string origin;  // file (and bundle entry) it came from, for diagnostics
  std::string target;  // amdgcn-amd-amdhsa--gfx1100 (from the metadata's amdhsa.target)
  std::vector<std::uint8_t> image;  // the ELF file
  // The loadable image: every PT_LOAD segment placed at its virtual address (code, read-only
  // data, the .kd descriptors, globals), zero-filled where the file has no bytes.
  std::vector<std::uint8_t> memory;
  std::vector<Kernel> kernels;
  // Device globals (__device__ variables, __constant__), by symbol name, for hipGetSymbolAddress.
  struct Symbol {
    std::string name;
    std::uint64_t address = 0, size = 0;
  };
  std::vector<Symbol> globals;
  // Device functions that are not kernels (callees: __noinline__ functions, virtual functions,
  // the device library's printf and malloc), by address: the .symtab's FUNC symbols.
  std::vector<Symbol> functions;

  const Kernel* find_kernel(std::string_view name) const;
};

// One entry of a clang offload bundle (__CLANG_OFFLOAD_BUNDLE__): its target triple and bytes.
struct BundleEntry {
  std::string triple;  // hipv4-amdgcn-amd-amdhsa--gfx1100, host-x86_64-unknown-linux--
  std::uint64_t offset = 0, size = 0;
};

// The entries of an offload bundle; `origin` names the input in diagnostics.
Result<std::vector<BundleEntry>> read_offload_bundle(std::string_view bytes, std::string_view origin);

// The bytes of the `.hip_fatbin` section of a host executable or object (ELF).
Result<std::string> hip_fatbin_section(std::string_view elf, std::string_view origin);

// What a host executable or library's dynamic section says about the libraries it loads: the
// ones it names (DT_NEEDED, in order: which libamdhip64 ABI, .so.5 or .so.6, a HIP program was
// linked against) and where it asks the loader to look (DT_RUNPATH, else DT_RPATH; $ORIGIN as
// written). Empty for a static executable.
struct DynamicSection {
  std::vector<std::string> needed;
  std::vector<std::string> search_path;
};
Result<DynamicSection> dynamic_section(std::string_view elf, std::string_view origin);

// The AMDGPU code object for `gpu` (gfx1100) inside a HIP executable: its .hip_fatbin bundle's
// entry whose triple ends in "--gfx1100" (feature suffixes such as :xnack- accepted).
Result<CodeObject> load_code_object_from_executable(std::string_view executable, std::string_view origin,
                                                    std::string_view gpu = "gfx1100");

// Any of the three as a file: an AMDGPU code object, an offload bundle, or a HIP executable or
// object whose .hip_fatbin holds a gfx1100 code object.
Result<CodeObject> load_code_object(const std::string& path, std::string_view gpu = "gfx1100");
// The same for bytes already in memory (hipModuleLoadData, a registered fat binary).
Result<CodeObject> load_code_object_from_bytes(std::string_view bytes, std::string_view origin, std::string_view gpu = "gfx1100");

// Parses an AMDGPU ELF code object: kernels, descriptors, metadata, the loadable image.
Result<CodeObject> read_code_object(std::string_view elf, std::string_view origin);

}  // namespace gpuport::amdgpu
