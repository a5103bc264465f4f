// Code object reading through LLVM's ELF reader and msgpack document; the bundle header is the
// one fixed layout clang-offload-bundler writes (magic, entry count, then per entry offset,
// size, triple length, triple).
#include "amdgpu/code_object.h"

#include "common/file_io.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/BinaryFormat/MsgPackDocument.h>
#include <llvm/BinaryFormat/MsgPackReader.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/AMDHSAKernelDescriptor.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <cstring>
#include <fmt/format.h>

namespace gpuport::amdgpu {
namespace {

Diagnostic error(std::string_view origin, std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location.file = std::string(origin);
  return d;
}

template <typename T>
T read_le(std::string_view bytes, std::size_t at) {
  T v{};
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";

// Whether [at, at + bytes) lies inside [0, size), without a sum that could wrap: every address
// and size read from a file goes through this before it is used.
bool inside(std::uint64_t at, std::uint64_t bytes, std::uint64_t size) { return at <= size && bytes <= size - at; }

// A segment or section that LLVM would read where its header says: LLVM checks the end with a
// sum that can wrap (found by code_object_fuzz), so the range is checked here first.
std::optional<Diagnostic> outside_file(std::string_view origin, std::string_view code, std::string_view what, std::uint64_t offset,
                                       std::uint64_t bytes, std::uint64_t file_size) {
  if (inside(offset, bytes, file_size)) return std::nullopt;
  return error(origin, std::string(code), fmt::format("{} ({} bytes at file offset {:#x}) lies outside the file ({} bytes)", what, bytes, offset, file_size));
}

using ELF64 = llvm::object::ELF64LEObjectFile;

Result<std::unique_ptr<llvm::object::ObjectFile>> open_elf(std::string_view bytes, std::string_view origin) {
  auto object = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(bytes.data(), bytes.size()), llvm::StringRef(origin.data(), origin.size())));
  if (!object) {
    std::string why = llvm::toString(object.takeError());
    return error(origin, "bad-code-object", fmt::format("not a readable ELF file: {}", why));
  }
  return std::move(*object);
}

std::string_view str(llvm::msgpack::DocNode& node) {
  if (node.getKind() != llvm::msgpack::Type::String) return {};
  auto s = node.getString();
  return std::string_view(s.data(), s.size());
}

std::uint32_t num(llvm::msgpack::DocNode& node) {
  switch (node.getKind()) {
    case llvm::msgpack::Type::UInt: return static_cast<std::uint32_t>(node.getUInt());
    case llvm::msgpack::Type::Int: return static_cast<std::uint32_t>(node.getInt());
    default: return 0;
  }
}

llvm::msgpack::DocNode* member(llvm::msgpack::MapDocNode& map, std::string_view key) {
  for (auto& [k, v] : map) {
    llvm::msgpack::DocNode key_node = k;
    if (str(key_node) == key) return &v;
  }
  return nullptr;
}

KernelDescriptor decode_descriptor(std::string_view d) {
  namespace kd = llvm::amdhsa;
  KernelDescriptor out;
  out.group_segment_fixed_size = read_le<std::uint32_t>(d, kd::GROUP_SEGMENT_FIXED_SIZE_OFFSET);
  out.private_segment_fixed_size = read_le<std::uint32_t>(d, kd::PRIVATE_SEGMENT_FIXED_SIZE_OFFSET);
  out.kernarg_size = read_le<std::uint32_t>(d, kd::KERNARG_SIZE_OFFSET);
  out.kernel_code_entry_byte_offset = read_le<std::int64_t>(d, kd::KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET);
  out.compute_pgm_rsrc3 = read_le<std::uint32_t>(d, kd::COMPUTE_PGM_RSRC3_OFFSET);
  out.compute_pgm_rsrc1 = read_le<std::uint32_t>(d, kd::COMPUTE_PGM_RSRC1_OFFSET);
  out.compute_pgm_rsrc2 = read_le<std::uint32_t>(d, kd::COMPUTE_PGM_RSRC2_OFFSET);
  out.kernel_code_properties = read_le<std::uint16_t>(d, kd::KERNEL_CODE_PROPERTIES_OFFSET);
  const std::uint32_t r1 = out.compute_pgm_rsrc1, r2 = out.compute_pgm_rsrc2, p = out.kernel_code_properties;
  out.wave32 = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32);
  out.private_segment_buffer = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER);
  out.dispatch_ptr = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR);
  out.queue_ptr = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR);
  out.kernarg_segment_ptr = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_KERNARG_SEGMENT_PTR);
  out.dispatch_id = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID);
  out.flat_scratch_init = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT);
  out.private_segment_size = AMDHSA_BITS_GET(p, kd::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE);
  out.user_sgpr_count = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_USER_SGPR_COUNT);
  out.private_segment_wave_offset = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_ENABLE_PRIVATE_SEGMENT);
  out.workgroup_id_x = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X);
  out.workgroup_id_y = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y);
  out.workgroup_id_z = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z);
  out.workgroup_info = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_INFO);
  out.vgpr_workitem_id = AMDHSA_BITS_GET(r2, kd::COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID);
  out.float_round_mode_32 = AMDHSA_BITS_GET(r1, kd::COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_32);
  out.float_round_mode_16_64 = AMDHSA_BITS_GET(r1, kd::COMPUTE_PGM_RSRC1_FLOAT_ROUND_MODE_16_64);
  out.float_denorm_mode_32 = AMDHSA_BITS_GET(r1, kd::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_32);
  out.float_denorm_mode_16_64 = AMDHSA_BITS_GET(r1, kd::COMPUTE_PGM_RSRC1_FLOAT_DENORM_MODE_16_64);
  out.dx10_clamp = AMDHSA_BITS_GET(r1, kd::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_DX10_CLAMP);
  out.ieee_mode = AMDHSA_BITS_GET(r1, kd::COMPUTE_PGM_RSRC1_GFX6_GFX11_ENABLE_IEEE_MODE);
  return out;
}

// Whether `blob` is one msgpack object, and nothing after it, whose map keys are all scalars:
// LLVM's Document reader stops at llvm_unreachable (a crash in a release build) on a map key
// that is a map or an array, and ignores whatever follows the first object.
bool is_plain_msgpack(std::string_view blob, std::string& why) {
  llvm::msgpack::Reader reader(llvm::StringRef(blob.data(), blob.size()));
  // Per open map or array: objects still to read, and whether it is a map (keys at even counts).
  struct Open {
    std::uint64_t left;
    bool map;
  };
  std::vector<Open> open;
  std::size_t objects = 0;
  for (;;) {
    llvm::msgpack::Object object;
    auto got = reader.read(object);
    if (!got) {
      why = llvm::toString(got.takeError());
      return false;
    }
    if (!*got) break;
    if (open.empty() && objects > 0) {
      why = "bytes follow the metadata map";
      return false;
    }
    ++objects;
    const bool is_key = !open.empty() && open.back().map && open.back().left % 2 == 0;
    if (!open.empty()) --open.back().left;
    using llvm::msgpack::Type;
    if (is_key && object.Kind != Type::String && object.Kind != Type::Int && object.Kind != Type::UInt) {
      why = "a map key that is not a string or an integer";
      return false;
    }
    if (object.Kind == Type::Map || object.Kind == Type::Array) {
      if (open.size() >= 64) {
        why = "maps and arrays nested deeper than 64";
        return false;
      }
      const std::uint64_t items = object.Kind == Type::Map ? 2 * std::uint64_t(object.Length) : object.Length;
      if (items > blob.size()) {
        why = "a map or array longer than the note";
        return false;
      }
      open.push_back({items, object.Kind == Type::Map});
    }
    while (!open.empty() && open.back().left == 0) open.pop_back();
  }
  if (!open.empty() || objects == 0) {
    why = "the note ends inside a map or array";
    return false;
  }
  return true;
}

std::optional<Diagnostic> read_metadata_note(const std::string& blob, CodeObject& co,
                                             const std::unordered_map<std::string_view, std::size_t>& by_symbol,
                                             std::vector<bool>& described);

// The metadata notes (NT_AMDGPU_METADATA, owner "AMDGPU"): kernels' arguments and resource use.
// clang writes one note for all kernels; a code object linked from many assembled objects
// (rocBLAS's Tensile libraries: 555 kernels, 555 notes) has one per object, each listing its own.
std::optional<Diagnostic> read_metadata(const ELF64& elf, CodeObject& co) {
  const auto& file = elf.getELFFile();
  auto headers = file.program_headers();
  if (!headers) return error(co.origin, "bad-code-object", llvm::toString(headers.takeError()));
  std::vector<std::string> blobs;
  const std::uint64_t file_size = file.getBufSize();
  for (const auto& ph : *headers) {
    if (ph.p_type != llvm::ELF::PT_NOTE) continue;
    if (auto outside = outside_file(co.origin, "bad-code-object", "a note segment", ph.p_offset, ph.p_filesz, file_size)) return outside;
    llvm::Error err = llvm::Error::success();
    for (const auto& note : file.notes(ph, err))
      if (note.getName() == "AMDGPU" && note.getType() == llvm::ELF::NT_AMDGPU_METADATA) {
        auto desc = note.getDesc(ph.p_align);
        blobs.emplace_back(reinterpret_cast<const char*>(desc.data()), desc.size());
      }
    if (err) return error(co.origin, "bad-code-object", llvm::toString(std::move(err)));
  }
  if (blobs.empty() || blobs.front().empty())
    return error(co.origin, "bad-code-object", "no AMDGPU metadata note (NT_AMDGPU_METADATA)");
  std::unordered_map<std::string_view, std::size_t> by_symbol;
  for (std::size_t i = 0; i < co.kernels.size(); ++i) by_symbol.emplace(co.kernels[i].symbol, i);
  std::vector<bool> described(co.kernels.size(), false);
  for (const std::string& blob : blobs)
    if (auto problem = read_metadata_note(blob, co, by_symbol, described)) return problem;
  for (std::size_t i = 0; i < described.size(); ++i)
    if (!described[i]) return error(co.origin, "bad-code-object", "the AMDGPU metadata note does not describe kernel " + co.kernels[i].name);
  return std::nullopt;
}

// One metadata note: its kernels described into `co` (by their .symbol), marked in `described`.
std::optional<Diagnostic> read_metadata_note(const std::string& blob, CodeObject& co,
                                             const std::unordered_map<std::string_view, std::size_t>& by_symbol,
                                             std::vector<bool>& described) {
  std::string why;
  if (!is_plain_msgpack(blob, why))
    return error(co.origin, "bad-code-object", "the AMDGPU metadata note is not valid msgpack (" + why + ")");
  llvm::msgpack::Document doc;
  if (!doc.readFromBlob(blob, false)) return error(co.origin, "bad-code-object", "the AMDGPU metadata note is not valid msgpack");
  if (doc.getRoot().getKind() != llvm::msgpack::Type::Map) return error(co.origin, "bad-code-object", "the AMDGPU metadata is not a map");
  // What the loader relies on must be there and make sense: a note that decodes to something
  // else (a corrupt byte can turn a map into an empty one) is refused, not read as zeros.
  auto bad = [&](std::string what) { return error(co.origin, "bad-code-object", "the AMDGPU metadata note " + std::move(what)); };
  auto& root = doc.getRoot().getMap();
  auto* target = member(root, "amdhsa.target");
  if (!target || str(*target).empty()) return bad("has no amdhsa.target");
  if (!co.target.empty() && co.target != str(*target))
    return bad(fmt::format("names the target '{}' where another note names '{}'", str(*target), co.target));
  co.target = std::string(str(*target));
  if (!co.target.starts_with("amdgcn-amd-amdhsa--")) return bad("names the target '" + co.target + "', not amdgcn-amd-amdhsa--<gpu>");
  auto* version = member(root, "amdhsa.version");
  if (!version || version->getKind() != llvm::msgpack::Type::Array) return bad("has no amdhsa.version");
  auto* kernels = member(root, "amdhsa.kernels");
  if (!kernels || kernels->getKind() != llvm::msgpack::Type::Array) return bad("has no amdhsa.kernels list");
  for (auto& node : kernels->getArray()) {
    if (node.getKind() != llvm::msgpack::Type::Map) return bad("lists a kernel that is not a map");
    auto& k = node.getMap();
    auto* symbol = member(k, ".symbol");
    if (!symbol || str(*symbol).empty()) return bad("lists a kernel without .symbol");
    auto found = by_symbol.find(str(*symbol));
    if (found == by_symbol.end()) return bad(fmt::format("describes {}, which the symbol table has no descriptor for", str(*symbol)));
    if (described[found->second]) return bad(fmt::format("describes {} twice", str(*symbol)));
    described[found->second] = true;
    Kernel& kernel = co.kernels[found->second];
    for (std::string_view key : {".kernarg_segment_size", ".kernarg_segment_align", ".wavefront_size", ".sgpr_count", ".vgpr_count",
                                 ".max_flat_workgroup_size", ".group_segment_fixed_size", ".private_segment_fixed_size"}) {
      auto* v = member(k, key);
      if (!v || (v->getKind() != llvm::msgpack::Type::UInt && v->getKind() != llvm::msgpack::Type::Int))
        return bad(fmt::format("gives kernel {} no number for {}", kernel.name, key));
    }
    auto field = [&](std::string_view key) { auto* v = member(k, key); return v ? num(*v) : 0u; };
    kernel.kernarg_segment_size = field(".kernarg_segment_size");
    kernel.kernarg_segment_align = field(".kernarg_segment_align");
    kernel.wavefront_size = field(".wavefront_size");
    kernel.sgpr_count = field(".sgpr_count");
    kernel.vgpr_count = field(".vgpr_count");
    kernel.max_flat_workgroup_size = field(".max_flat_workgroup_size");
    kernel.group_segment_fixed_size = field(".group_segment_fixed_size");
    kernel.private_segment_fixed_size = field(".private_segment_fixed_size");
    if (auto* v = member(k, ".uses_dynamic_stack"); v && v->getKind() == llvm::msgpack::Type::Boolean)
      kernel.uses_dynamic_stack = v->getBool();
    if (auto* args = member(k, ".args"); args && args->getKind() == llvm::msgpack::Type::Array) {
      for (auto& a : args->getArray()) {
        if (a.getKind() != llvm::msgpack::Type::Map) continue;
        auto& m = a.getMap();
        KernelArgument arg;
        if (auto* v = member(m, ".name")) arg.name = std::string(str(*v));
        if (auto* v = member(m, ".value_kind")) arg.value_kind = std::string(str(*v));
        if (auto* v = member(m, ".address_space")) arg.address_space = std::string(str(*v));
        if (auto* v = member(m, ".offset")) arg.offset = num(*v);
        if (auto* v = member(m, ".size")) arg.size = num(*v);
        if (arg.value_kind.empty() || std::uint64_t(arg.offset) + arg.size > kernel.kernarg_segment_size)
          return bad(fmt::format("gives kernel {} an argument {} outside its {}-byte kernarg segment", kernel.name,
                                 arg.value_kind.empty() ? std::string("without .value_kind") : fmt::format("at {}+{}", arg.offset, arg.size),
                                 kernel.kernarg_segment_size));
        kernel.arguments.push_back(std::move(arg));
      }
    }
    if (kernel.wavefront_size != (kernel.descriptor.wave32 ? 32u : 64u))
      return bad(fmt::format("gives kernel {} a wavefront size of {}, its descriptor says {}", kernel.name, kernel.wavefront_size,
                             kernel.descriptor.wave32 ? 32 : 64));
    if (kernel.max_flat_workgroup_size == 0 || kernel.max_flat_workgroup_size > 1024 || kernel.kernarg_segment_align == 0)
      return bad(fmt::format("gives kernel {} a workgroup size limit of {} and a kernarg alignment of {}", kernel.name,
                             kernel.max_flat_workgroup_size, kernel.kernarg_segment_align));
  }
  return std::nullopt;
}

// The bundle entry for `gpu`: hipv4-amdgcn-amd-amdhsa--gfx1100, or ...--gfx1100:xnack-.
Result<CodeObject> code_object_of(std::string_view bundle, const std::vector<BundleEntry>& entries,
                                  std::string_view origin, std::string_view gpu) {
  std::vector<std::string> triples;
  for (const auto& e : entries) {
    triples.push_back(e.triple);
    const auto dashes = e.triple.rfind("--");
    if (dashes == std::string::npos || !e.triple.starts_with("hip")) continue;
    std::string_view processor = std::string_view(e.triple).substr(dashes + 2);
    processor = processor.substr(0, processor.find(':'));
    if (processor != gpu) continue;
    return read_code_object(bundle.substr(e.offset, e.size), fmt::format("{} (bundle entry {})", origin, e.triple));
  }
  return error(origin, "no-gfx1100-code-object",
               fmt::format("the offload bundle has no {} code object (entries: {}); build with --offload-arch={}", gpu,
                           triples.empty() ? std::string("none") : fmt::format("{}", fmt::join(triples, ", ")), gpu));
}

}  // namespace

const Kernel* CodeObject::find_kernel(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

Result<std::vector<BundleEntry>> read_offload_bundle(std::string_view bytes, std::string_view origin) {
  if (bytes.size() < kBundleMagic.size() + 8 || bytes.substr(0, kBundleMagic.size()) != kBundleMagic)
    return error(origin, "bad-offload-bundle", "no clang offload bundle (the __CLANG_OFFLOAD_BUNDLE__ magic is missing)");
  std::size_t at = kBundleMagic.size();
  const auto count = read_le<std::uint64_t>(bytes, at);
  at += 8;
  std::vector<BundleEntry> entries;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (at + 24 > bytes.size())
      return error(origin, "bad-offload-bundle", fmt::format("offload bundle truncated in the header of entry {}", i));
    BundleEntry e;
    e.offset = read_le<std::uint64_t>(bytes, at);
    e.size = read_le<std::uint64_t>(bytes, at + 8);
    const auto triple_size = read_le<std::uint64_t>(bytes, at + 16);
    at += 24;
    if (triple_size > bytes.size() - at)
      return error(origin, "bad-offload-bundle", fmt::format("offload bundle truncated in the triple of entry {}", i));
    e.triple.assign(bytes.substr(at, triple_size));
    at += triple_size;
    if (e.offset > bytes.size() || e.size > bytes.size() - e.offset)
      return error(origin, "bad-offload-bundle",
                   fmt::format("offload bundle entry {} ({}) lies outside the bundle ({} bytes at {}, bundle {} bytes)", i,
                               e.triple, e.size, e.offset, bytes.size()));
    entries.push_back(std::move(e));
  }
  return entries;
}

Result<std::string> hip_fatbin_section(std::string_view bytes, std::string_view origin) {
  auto object = open_elf(bytes, origin);
  if (!object) return Result<std::string>::failure(object.diagnostics());
  for (const auto& section : (*object)->sections()) {
    auto name = section.getName();
    if (!name || *name != ".hip_fatbin") {
      if (!name) llvm::consumeError(name.takeError());
      continue;
    }
    auto contents = section.getContents();
    if (!contents) return error(origin, "bad-code-object", llvm::toString(contents.takeError()));
    return std::string(contents->data(), contents->size());
  }
  return error(origin, "not-a-hip-executable",
               "no .hip_fatbin section: not a HIP executable built by clang (-x hip --offload-arch=gfx1100)");
}

Result<DynamicSection> dynamic_section(std::string_view bytes, std::string_view origin) {
  using Out = Result<DynamicSection>;
  auto object = open_elf(bytes, origin);
  if (!object) return Out::failure(object.diagnostics());
  auto* elf = llvm::dyn_cast<ELF64>(object->get());
  if (!elf) return error(origin, "not-a-hip-executable", "not a 64-bit little-endian ELF file");
  const auto& file = elf->getELFFile();
  const std::uint64_t file_size = file.getBufSize();
  auto headers = file.program_headers();
  if (!headers) {
    llvm::consumeError(headers.takeError());
    return error(origin, "bad-elf", "its program headers cannot be read");
  }
  for (const auto& ph : *headers)
    if (ph.p_type == llvm::ELF::PT_DYNAMIC)
      if (auto outside = outside_file(origin, "bad-elf", "its dynamic segment", ph.p_offset, ph.p_filesz, file_size)) return *outside;
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return error(origin, "bad-elf", "its section headers cannot be read");
  }
  for (const auto& sh : *sections)
    if (sh.sh_type == llvm::ELF::SHT_DYNAMIC)
      if (auto outside = outside_file(origin, "bad-elf", "its dynamic section", sh.sh_offset, sh.sh_size, file_size)) return *outside;
  auto entries = file.dynamicEntries();
  if (!entries) {
    llvm::consumeError(entries.takeError());
    return error(origin, "bad-elf", "its dynamic section cannot be read");
  }
  std::uint64_t table = 0, table_size = 0;
  std::vector<std::uint64_t> needed, runpath, rpath;
  for (const auto& d : *entries) {
    if (d.d_tag == llvm::ELF::DT_STRTAB) table = d.getPtr();
    else if (d.d_tag == llvm::ELF::DT_STRSZ) table_size = d.getVal();
    else if (d.d_tag == llvm::ELF::DT_NEEDED) needed.push_back(d.getVal());
    else if (d.d_tag == llvm::ELF::DT_RUNPATH) runpath.push_back(d.getVal());
    else if (d.d_tag == llvm::ELF::DT_RPATH) rpath.push_back(d.getVal());
  }
  DynamicSection out;
  if (needed.empty() && runpath.empty() && rpath.empty()) return out;
  // DT_STRTAB is an address: the file offset is where a PT_LOAD segment maps it.
  auto mapped = file.toMappedAddr(table);
  if (!mapped) {
    llvm::consumeError(mapped.takeError());
    return error(origin, "bad-elf", "its dynamic string table lies outside every loaded segment");
  }
  const std::uint64_t at = reinterpret_cast<const char*>(*mapped) - bytes.data();
  if (!inside(at, table_size, bytes.size()))
    return error(origin, "bad-elf", fmt::format("its dynamic string table ({} bytes at {}) runs past the file", table_size, at));
  const std::string_view strings = bytes.substr(at, table_size);
  std::optional<Diagnostic> problem;
  auto string_at = [&](std::uint64_t offset) {
    const auto end = offset < strings.size() ? strings.find('\0', offset) : std::string_view::npos;
    if (end == std::string_view::npos) {
      problem = error(origin, "bad-elf", fmt::format("a dynamic entry's name at {} is not inside the dynamic string table", offset));
      return std::string();
    }
    return std::string(strings.substr(offset, end - offset));
  };
  for (std::uint64_t offset : needed) out.needed.push_back(string_at(offset));
  // DT_RUNPATH wins over DT_RPATH where both are there, as for the loader.
  for (std::uint64_t offset : runpath.empty() ? rpath : runpath) {
    const std::string list = string_at(offset);
    for (std::size_t begin = 0; begin <= list.size();) {
      const std::size_t colon = std::min(list.find(':', begin), list.size());
      if (colon > begin) out.search_path.push_back(list.substr(begin, colon - begin));
      begin = colon + 1;
    }
  }
  if (problem) return Out::failure({*problem});
  return out;
}

Result<CodeObject> load_code_object_from_executable(std::string_view executable, std::string_view origin,
                                                    std::string_view gpu) {
  auto fatbin = hip_fatbin_section(executable, origin);
  if (!fatbin) return Result<CodeObject>::failure(fatbin.diagnostics());
  auto entries = read_offload_bundle(*fatbin, origin);
  if (!entries) return Result<CodeObject>::failure(entries.diagnostics());
  return code_object_of(*fatbin, *entries, origin, gpu);
}

Result<CodeObject> load_code_object(const std::string& path, std::string_view gpu) {
  auto bytes = read_file(path, 1ull << 31);
  if (!bytes) return Result<CodeObject>::failure(bytes.diagnostics());
  return load_code_object_from_bytes(*bytes, path, gpu);
}

Result<CodeObject> load_code_object_from_bytes(std::string_view b, std::string_view path, std::string_view gpu) {
  if (b.starts_with(kBundleMagic)) {
    auto entries = read_offload_bundle(b, path);
    if (!entries) return Result<CodeObject>::failure(entries.diagnostics());
    return code_object_of(b, *entries, path, gpu);
  }
  if (!b.starts_with("\x7f" "ELF"))
    return error(path, "not-a-hip-executable", "neither an ELF file (HIP executable, AMDGPU code object) nor an offload bundle");
  // e_machine at offset 18 (ELF64, little endian): EM_AMDGPU is a code object itself.
  if (b.size() >= 20 && read_le<std::uint16_t>(b, 18) == llvm::ELF::EM_AMDGPU) return read_code_object(b, path);
  return load_code_object_from_executable(b, path, gpu);
}

Result<CodeObject> read_code_object(std::string_view bytes, std::string_view origin) {
  CodeObject co;
  co.origin = std::string(origin);
  co.image.assign(bytes.begin(), bytes.end());
  const std::string_view image(reinterpret_cast<const char*>(co.image.data()), co.image.size());
  auto object = open_elf(image, origin);
  if (!object) return Result<CodeObject>::failure(object.diagnostics());
  auto* elf = llvm::dyn_cast<ELF64>(object->get());
  if (!elf || elf->getELFFile().getHeader().e_machine != llvm::ELF::EM_AMDGPU)
    return error(origin, "bad-code-object", "not an AMDGPU code object (ELF64, EM_AMDGPU)");
  const auto& file = elf->getELFFile();
  auto headers = file.program_headers();
  if (!headers) return error(origin, "bad-code-object", llvm::toString(headers.takeError()));
  std::uint64_t end = 0;
  for (const auto& ph : *headers) {
    if (ph.p_type != llvm::ELF::PT_LOAD) continue;
    // The sum below must not wrap: a segment at 2^64 - 256 of 512 bytes would "end" at 256 and be
    // copied far outside the image (found by code_object_fuzz).
    if (ph.p_memsz > ~std::uint64_t{0} - ph.p_vaddr)
      return error(origin, "bad-code-object",
                   fmt::format("a loadable segment of {} bytes at address {:#x} runs past the end of the address space",
                               static_cast<std::uint64_t>(ph.p_memsz), static_cast<std::uint64_t>(ph.p_vaddr)));
    end = std::max<std::uint64_t>(end, ph.p_vaddr + ph.p_memsz);
  }
  // A code object's segments are the size of its file, give or take a little zero-filled data: a
  // header that asks for gigabytes would have every load allocate and clear them.
  if (end == 0 || end > image.size() + (64ull << 20))
    return error(origin, "bad-code-object",
                 fmt::format("no loadable segment of a plausible size (they end at {:#x}, the file has {} bytes)", end, image.size()));
  // Whole pages, as a loader maps them: scalar loads read whole dwords (s_load_b128 of a table's
  // last element may reach past the segment's end), which the hardware's page mapping allows.
  co.memory.assign((end + 4095) / 4096 * 4096, 0);
  for (const auto& ph : *headers) {
    if (ph.p_type != llvm::ELF::PT_LOAD) continue;
    if (ph.p_offset > image.size() || ph.p_filesz > image.size() - ph.p_offset || ph.p_filesz > ph.p_memsz)
      return error(origin, "bad-code-object",
                   fmt::format("a loadable segment ({} bytes at file offset {}) lies outside the file ({} bytes): truncated?",
                               static_cast<std::uint64_t>(ph.p_filesz), static_cast<std::uint64_t>(ph.p_offset), image.size()));
    std::memcpy(co.memory.data() + ph.p_vaddr, image.data() + ph.p_offset, ph.p_filesz);
  }
  // Executable sections, by address: a kernel's code must lie in one.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> executable;
  {
    auto sections = file.sections();
    if (!sections) return error(origin, "bad-code-object", llvm::toString(sections.takeError()));
    for (const auto& sh : *sections)
      if ((sh.sh_flags & llvm::ELF::SHF_EXECINSTR) && sh.sh_size > 0 && inside(sh.sh_addr, sh.sh_size, co.memory.size()))
        executable.emplace_back(sh.sh_addr, sh.sh_addr + sh.sh_size);
  }
  // Kernels: every <name>.kd object symbol is a descriptor; <name> is the code.
  struct Sym {
    std::string name;
    std::uint64_t address, size;
    bool function;
  };
  std::vector<Sym> symbols;
  std::size_t unreadable = 0;
  for (const auto& s : elf->symbols()) {
    auto name = s.getName();
    auto address = s.getAddress();
    auto type = s.getType();
    if (!name || !address || !type) {
      if (!name) llvm::consumeError(name.takeError());
      if (!address) llvm::consumeError(address.takeError());
      if (!type) llvm::consumeError(type.takeError());
      // Each failure re-reads the table in LLVM's reader: a damaged one is refused early, not
      // read symbol by symbol (a 4 KiB file took seconds).
      if (++unreadable > 16) return error(origin, "bad-code-object", "the symbol table is damaged (symbols that cannot be read)");
      continue;
    }
    const std::uint64_t size = llvm::object::ELFSymbolRef(s).getSize();
    symbols.push_back({name->str(), *address, size, *type == llvm::object::SymbolRef::ST_Function});
    if (*type == llvm::object::SymbolRef::ST_Data && !name->ends_with(".kd") && size > 0) {
      // The runtime hands out image + address for a global: one outside the image is not one.
      if (inside(*address, size, co.memory.size())) co.globals.push_back({name->str(), *address, size});
    }
  }
  for (const auto& s : symbols) {
    if (!s.name.ends_with(".kd")) continue;
    if (!inside(s.address, 64, co.memory.size()))
      return error(origin, "bad-code-object", fmt::format("kernel descriptor {} lies outside the loaded image", s.name));
    Kernel k;
    k.symbol = s.name;
    k.name = s.name.substr(0, s.name.size() - 3);
    k.descriptor = decode_descriptor(std::string_view(reinterpret_cast<const char*>(co.memory.data() + s.address), 64));
    std::int64_t entry = 0;  // the address is below the image's size (2^31 at most): no wrap, and the sum is checked
    if (__builtin_add_overflow(static_cast<std::int64_t>(s.address), k.descriptor.kernel_code_entry_byte_offset, &entry) || entry < 0 ||
        static_cast<std::uint64_t>(entry) >= co.memory.size())
      return error(origin, "bad-code-object", fmt::format("kernel {}: code entry {} lies outside the loaded image", k.name, entry));
    k.code_address = static_cast<std::uint64_t>(entry);
    // The code lies in an executable section; the function symbol, if any, says how much of it.
    const auto section = std::find_if(executable.begin(), executable.end(), [&](const auto& r) {
      return k.code_address >= r.first && k.code_address < r.second;
    });
    if (section == executable.end())
      return error(origin, "bad-code-object", fmt::format("kernel {}: code entry {:#x} lies in no executable section", k.name, k.code_address));
    // Unsized: up to the next kernel or function in the section.
    k.code_size = section->second - k.code_address;
    for (const auto& f : symbols)
      if (f.function && f.address > k.code_address && f.address < k.code_address + k.code_size) k.code_size = f.address - k.code_address;
    for (const auto& f : symbols) {
      if (!f.function || f.name != k.name || f.size == 0) continue;
      if (f.address != k.code_address || f.size > section->second - k.code_address)
        return error(origin, "bad-code-object",
                     fmt::format("kernel {}: its symbol claims {} bytes at {:#x}, but its code starts at {:#x} and its section ends at {:#x}",
                                 k.name, f.size, f.address, k.code_address, section->second));
      k.code_size = f.size;
    }
    co.kernels.push_back(std::move(k));
  }
  std::sort(co.kernels.begin(), co.kernels.end(), [](const Kernel& a, const Kernel& b) { return a.code_address < b.code_address; });
  // No kernel's code runs into the next one's.
  for (std::size_t i = 0; i + 1 < co.kernels.size(); ++i) {
    const Kernel &a = co.kernels[i], &b = co.kernels[i + 1];
    if (b.code_address < a.code_address + a.code_size)
      return error(origin, "bad-code-object", fmt::format("kernel {}: its code ({} bytes at {:#x}) runs into kernel {} at {:#x}", a.name,
                                                          a.code_size, a.code_address, b.name, b.code_address));
  }
  for (const auto& f : symbols) {
    if (!f.function || f.size == 0 || !inside(f.address, f.size, co.memory.size())) continue;
    const bool kernel = std::any_of(co.kernels.begin(), co.kernels.end(), [&](const Kernel& k) { return k.code_address == f.address; });
    const bool seen = std::any_of(co.functions.begin(), co.functions.end(), [&](const CodeObject::Symbol& g) { return g.address == f.address; });
    if (!kernel && !seen) co.functions.push_back({f.name, f.address, f.size});
  }
  std::sort(co.functions.begin(), co.functions.end(), [](const CodeObject::Symbol& a, const CodeObject::Symbol& b) { return a.address < b.address; });
  // Dynamic relocations (.rela.dyn): the GOT entries and data pointers a loader fills in with
  // absolute addresses. The image is run where it lies, at co.memory.data().
  const std::uint64_t base = reinterpret_cast<std::uint64_t>(co.memory.data());
  auto sections = file.sections();
  if (!sections) return error(origin, "bad-code-object", llvm::toString(sections.takeError()));
  for (const auto& section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_RELA) continue;
    auto relas = file.relas(section);
    if (!relas) return error(origin, "bad-code-object", llvm::toString(relas.takeError()));
    auto symtab = file.getSection(section.sh_link);
    for (const auto& r : *relas) {
      const std::uint32_t type = r.getType(false);
      std::uint64_t value = 0;
      if (r.getSymbol(false) != 0 && symtab) {
        auto sym = file.getRelocationSymbol(r, *symtab);
        if (!sym || !*sym) {
          if (!sym) llvm::consumeError(sym.takeError());
          return error(origin, "bad-code-object", fmt::format("relocation at {:#x} names no symbol", static_cast<std::uint64_t>(r.r_offset)));
        }
        value = base + (*sym)->st_value;
      }
      const std::uint64_t at = r.r_offset;
      const std::uint64_t addend = static_cast<std::uint64_t>(r.r_addend);
      if (!inside(at, 8, co.memory.size()))
        return error(origin, "bad-code-object", fmt::format("relocation at {:#x} lies outside the loaded image", at));
      std::uint64_t result;
      switch (type) {
        case llvm::ELF::R_AMDGPU_ABS64: result = value + addend; break;
        case llvm::ELF::R_AMDGPU_RELATIVE64: result = base + addend; break;
        case llvm::ELF::R_AMDGPU_ABS32:
        case llvm::ELF::R_AMDGPU_ABS32_LO: {
          const std::uint32_t v = static_cast<std::uint32_t>(value + addend);
          std::memcpy(co.memory.data() + at, &v, 4);
          continue;
        }
        case llvm::ELF::R_AMDGPU_ABS32_HI: {
          const std::uint32_t v = static_cast<std::uint32_t>((value + addend) >> 32);
          std::memcpy(co.memory.data() + at, &v, 4);
          continue;
        }
        case llvm::ELF::R_AMDGPU_NONE: continue;
        default:
          return error(origin, "bad-code-object", fmt::format("unsupported dynamic relocation type {} at {:#x}", type, at));
      }
      std::memcpy(co.memory.data() + at, &result, 8);
    }
  }
  if (auto d = read_metadata(*elf, co)) return *d;
  return co;
}

}  // namespace gpuport::amdgpu
