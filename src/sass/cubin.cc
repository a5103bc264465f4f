#include "sass/cubin.h"

#include <elf.h>

#include <algorithm>
#include <cstring>

namespace gpuport::sass {

namespace {

// EIATTR ids in id order (ids read off nvdisasm's `//----- nvinfo : EIATTR_*` comments and
// cuobjdump -elf for the committed cubins; the rest follow NVIDIA's numbering).
constexpr std::string_view kAttributeNames[] = {
    "EIATTR_ERROR", "EIATTR_PAD", "EIATTR_IMAGE_SLOT", "EIATTR_JUMPTABLE_RELOCS", "EIATTR_CTAIDZ_USED",
    "EIATTR_MAX_THREADS", "EIATTR_IMAGE_OFFSET", "EIATTR_IMAGE_SIZE", "EIATTR_TEXTURE_NORMALIZED",
    "EIATTR_SAMPLER_INIT", "EIATTR_PARAM_CBANK", "EIATTR_SMEM_PARAM_OFFSETS", "EIATTR_CBANK_PARAM_OFFSETS",
    "EIATTR_SYNC_STACK", "EIATTR_TEXID_SAMPID_MAP", "EIATTR_EXTERNS", "EIATTR_REQNTID", "EIATTR_FRAME_SIZE",
    "EIATTR_MIN_STACK_SIZE", "EIATTR_SAMPLER_FORCE_UNNORMALIZED", "EIATTR_BINDLESS_IMAGE_OFFSETS",
    "EIATTR_BINDLESS_TEXTURE_BANK", "EIATTR_BINDLESS_SURFACE_BANK", "EIATTR_KPARAM_INFO",
    "EIATTR_SMEM_PARAM_SIZE", "EIATTR_CBANK_PARAM_SIZE", "EIATTR_QUERY_NUMATTRIB", "EIATTR_MAXREG_COUNT",
    "EIATTR_EXIT_INSTR_OFFSETS", "EIATTR_S2RCTAID_INSTR_OFFSETS", "EIATTR_CRS_STACK_SIZE",
    "EIATTR_NEED_CNP_WRAPPER", "EIATTR_NEED_CNP_PATCH", "EIATTR_EXPLICIT_CACHING", "EIATTR_ISTYPEP_USED",
    "EIATTR_MAX_STACK_SIZE", "EIATTR_SUQ_USED", "EIATTR_LD_CACHEMOD_INSTR_OFFSETS", "EIATTR_LOAD_CACHE_REQUEST",
    "EIATTR_ATOM_SYS_INSTR_OFFSETS", "EIATTR_COOP_GROUP_INSTR_OFFSETS", "EIATTR_COOP_GROUP_MASK_REGIDS",
    "EIATTR_SW1850030_WAR", "EIATTR_WMMA_USED", "EIATTR_HAS_PRE_V10_OBJECT", "EIATTR_ATOMF16_EMUL_INSTR_OFFSETS",
    "EIATTR_ATOM16_EMUL_INSTR_REG_MAP", "EIATTR_REGCOUNT", "EIATTR_SW2393858_WAR",
    "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS", "EIATTR_SHARED_SCRATCH", "EIATTR_STATISTICS",
    "EIATTR_INDIRECT_BRANCH_TARGETS", "EIATTR_SW2861232_WAR", "EIATTR_SW_WAR", "EIATTR_CUDA_API_VERSION",
    "EIATTR_NUM_MBARRIERS", "EIATTR_MBARRIER_INSTR_OFFSETS", "EIATTR_COROUTINE_RESUME_OFFSETS",
    "EIATTR_SAM_REGION_STACK_SIZE", "EIATTR_PER_REG_TARGET_PERF_STATS", "EIATTR_CTA_PER_CLUSTER",
    "EIATTR_EXPLICIT_CLUSTER", "EIATTR_MAX_CLUSTER_RANK", "EIATTR_INSTR_REG_MAP",
    "EIATTR_RESERVED_SMEM_USED", "EIATTR_RESERVED_SMEM_0_SIZE", "EIATTR_UCODE_SECTION_DATA",
    "EIATTR_UNUSED_LOAD_BYTE_OFFSET", "EIATTR_KPARAM_INFO_V2", "EIATTR_SYSCALL_OFFSETS",
    "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS", "EIATTR_GRAPHICS_GLOBAL_CBANK", "EIATTR_SHADER_TYPE",
    "EIATTR_VRC_CTA_INIT_COUNT", "EIATTR_TOOLS_PATCH_FUNC", "EIATTR_NUM_BARRIERS",
};

constexpr std::uint8_t kMaxThreads = 0x05, kParamCbank = 0x0a, kFrameSize = 0x11, kMinStackSize = 0x12,
                       kKparamInfo = 0x17, kCbankParamSize = 0x19, kMaxregCount = 0x1b, kExitOffsets = 0x1c,
                       kCrsStackSize = 0x1e, kMaxStackSize = 0x23, kRegcount = 0x2f, kSwWar = 0x36,
                       kCudaApiVersion = 0x37, kNumBarriers = 0x4c, kIndirectBranchTargets = 0x34;

std::uint32_t load_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
std::uint16_t load_u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] | p[1] << 8); }

Diagnostic make_error(const std::string& file, std::string code, std::string message) {
  Diagnostic d;
  d.severity = Severity::error;
  d.code = std::move(code);
  d.message = std::move(message);
  d.location = {file, 0, 0};
  return d;
}

// A NUL-terminated name at `offset` in a string table section; empty when out of range.
std::string string_at(std::string_view bytes, const CubinSection& table, std::uint64_t offset) {
  if (table.type == SHT_NOBITS || table.offset > bytes.size() || table.size > bytes.size() - table.offset ||
      offset >= table.size)
    return {};
  std::string_view s = bytes.substr(table.offset + offset, table.size - offset);
  return std::string(s.substr(0, s.find('\0')));
}

bool has_war_name(std::uint8_t id) {
  std::string_view n = nvinfo_attribute_name(id);
  return n.starts_with("EIATTR_SW") && n.ends_with("_WAR");
}

}  // namespace

std::string_view nvinfo_attribute_name(std::uint8_t id) {
  static const auto unknown_names = [] {
    std::array<std::string, 256> names;
    const char* digits = "0123456789abcdef";
    for (int i = 0; i < 256; ++i) names[i] = std::string("EIATTR_0x") + digits[i >> 4] + digits[i & 15];
    return names;
  }();
  if (id < std::size(kAttributeNames)) return kAttributeNames[id];
  return unknown_names[id];
}

std::string_view NvInfoAttribute::name() const { return nvinfo_attribute_name(id); }

std::uint32_t NvInfoAttribute::word(std::size_t i) const {
  if (payload.size() < (i + 1) * 4) return 0;
  return load_u32(payload.data() + i * 4);
}

std::uint32_t NvInfoAttribute::value() const {
  if (format == kBval) return payload.empty() ? 0 : payload[0];
  if (format == kHval) return payload.size() < 2 ? 0 : load_u16(payload.data());
  return word(0);
}

std::vector<NvInfoAttribute> decode_nv_info(std::string_view bytes, std::vector<Diagnostic>& diagnostics,
                                            const std::string& where) {
  std::vector<NvInfoAttribute> out;
  const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::size_t pos = 0;
  while (pos + 4 <= bytes.size()) {
    NvInfoAttribute a;
    a.format = p[pos];
    a.id = p[pos + 1];
    a.offset = static_cast<std::uint32_t>(pos);
    if (a.format == NvInfoAttribute::kSval) {
      std::size_t size = load_u16(p + pos + 2);
      if (size > bytes.size() - pos - 4) {
        diagnostics.push_back(make_error(where, "cubin-bad-nv-info",
                                         "attribute record at offset " + std::to_string(pos) + " (" +
                                             std::string(a.name()) + ") runs past the end of its section"));
        return out;
      }
      a.payload.assign(p + pos + 4, p + pos + 4 + size);
      pos += 4 + size;
    } else if (a.format == NvInfoAttribute::kNval || a.format == NvInfoAttribute::kBval ||
               a.format == NvInfoAttribute::kHval) {
      if (a.format != NvInfoAttribute::kNval) a.payload.assign(p + pos + 2, p + pos + 4);
      pos += 4;
    } else {
      diagnostics.push_back(make_error(where, "cubin-bad-nv-info",
                                       "unknown attribute format " + std::to_string(a.format) + " at offset " +
                                           std::to_string(pos)));
      return out;
    }
    out.push_back(std::move(a));
  }
  if (pos != bytes.size()) {
    diagnostics.push_back(make_error(where, "cubin-bad-nv-info",
                                     std::to_string(bytes.size() - pos) + " stray bytes at the end of the section"));
  }
  return out;
}

const CubinKernel* Cubin::find_kernel(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const CubinSection* Cubin::find_section(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name) return &s;
  return nullptr;
}

std::string_view Cubin::section_bytes(std::string_view file, const CubinSection& section) {
  if (section.type == SHT_NOBITS || section.offset > file.size() || section.size > file.size() - section.offset)
    return {};
  return file.substr(section.offset, section.size);
}

CubinReadResult read_cubin(std::string_view bytes, const std::string& file_name) {
  CubinReadResult result;
  auto fail = [&](std::string code, std::string message) {
    result.diagnostics.push_back(make_error(file_name, std::move(code), std::move(message)));
    return std::move(result);
  };
  if (bytes.size() < EI_NIDENT || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0)
    return fail("cubin-not-elf", "not an ELF file (no \\x7fELF magic)");
  const auto* u = reinterpret_cast<const std::uint8_t*>(bytes.data());
  if (u[EI_CLASS] != ELFCLASS64) return fail("cubin-wrong-class", "not a 64-bit ELF file (cubins are ELFCLASS64)");
  if (u[EI_DATA] != ELFDATA2LSB) return fail("cubin-wrong-byte-order", "not a little-endian ELF file");
  if (bytes.size() < sizeof(Elf64_Ehdr)) return fail("cubin-truncated", "truncated ELF header");
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  if (eh.e_machine != EM_CUDA)
    return fail("cubin-not-cuda", "ELF machine " + std::to_string(eh.e_machine) + " is not EM_CUDA (190)");

  Cubin c;
  c.elf_flags = eh.e_flags;
  c.abi_version = u[EI_ABIVERSION];
  // CUDA 13 cubins (ABI version 8) moved the SM number from bits 0-7 to bits 8-15 of e_flags.
  c.arch = static_cast<int>(c.abi_version >= 8 ? (eh.e_flags >> 8) & 0xff : eh.e_flags & 0xff);

  if (eh.e_shentsize != sizeof(Elf64_Shdr) && eh.e_shnum != 0)
    return fail("cubin-bad-header", "unexpected section header size " + std::to_string(eh.e_shentsize));
  if (eh.e_shoff > bytes.size() || static_cast<std::uint64_t>(eh.e_shnum) * sizeof(Elf64_Shdr) > bytes.size() - eh.e_shoff)
    return fail("cubin-truncated", "the section header table (" + std::to_string(eh.e_shnum) +
                                       " entries at offset " + std::to_string(eh.e_shoff) + ") lies past the end of the file");
  std::vector<std::uint32_t> name_offsets;
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, bytes.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof sh);
    CubinSection s;
    s.type = sh.sh_type;
    s.flags = sh.sh_flags;
    s.offset = sh.sh_offset;
    s.size = sh.sh_size;
    s.link = sh.sh_link;
    s.info = sh.sh_info;
    s.alignment = sh.sh_addralign;
    s.entry_size = sh.sh_entsize;
    if (s.type != SHT_NOBITS && (s.offset > bytes.size() || s.size > bytes.size() - s.offset))
      return fail("cubin-truncated", "section " + std::to_string(i) + " lies past the end of the file");
    c.sections.push_back(s);
    name_offsets.push_back(sh.sh_name);  // names resolved once the name table is known
  }
  if (eh.e_shstrndx >= c.sections.size() && !c.sections.empty())
    return fail("cubin-bad-header", "section name table index " + std::to_string(eh.e_shstrndx) + " out of range");
  for (std::size_t i = 0; i < c.sections.size(); ++i)
    c.sections[i].name = string_at(bytes, c.sections[eh.e_shstrndx], name_offsets[i]);

  // Symbols (.symtab), for the symbol indices that .nv.info records use.
  for (const auto& s : c.sections) {
    if (s.type != SHT_SYMTAB) continue;
    if (s.link >= c.sections.size()) return fail("cubin-bad-symtab", "symbol table names a bad string table");
    for (std::uint64_t off = 0; off + sizeof(Elf64_Sym) <= s.size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, bytes.data() + s.offset + off, sizeof sym);
      CubinSymbol cs;
      cs.name = string_at(bytes, c.sections[s.link], sym.st_name);
      cs.value = sym.st_value;
      cs.size = sym.st_size;
      cs.info = sym.st_info;
      cs.other = sym.st_other;
      cs.section = sym.st_shndx;
      c.symbols.push_back(std::move(cs));
    }
    break;
  }
  auto symbol_name = [&](std::uint32_t index) -> std::string {
    return index < c.symbols.size() ? c.symbols[index].name : std::string();
  };

  for (const auto& s : c.sections) {
    if (!s.name.starts_with(".text.")) continue;
    CubinKernel k;
    k.name = s.name.substr(6);
    k.text_section = s.name;
    k.code_size = s.size;
    for (const auto& sym : c.symbols)
      if (sym.name == k.name && (sym.other & 0x10) != 0) {
        k.is_entry = true;
        k.is_local = (sym.info >> 4) == 0;  // STB_LOCAL
      }
    if (const CubinSection* shared = c.find_section(".nv.shared." + k.name)) k.shared_memory_size = shared->size;
    c.kernels.push_back(std::move(k));
  }

  for (const auto& s : c.sections) {
    if (s.name == ".nv.info") {
      c.global_attributes = decode_nv_info(Cubin::section_bytes(bytes, s), result.diagnostics, file_name + ":" + s.name);
    } else if (s.name.starts_with(".nv.info.")) {
      std::string name = s.name.substr(9);
      auto it = std::find_if(c.kernels.begin(), c.kernels.end(), [&](const CubinKernel& k) { return k.name == name; });
      if (it == c.kernels.end()) continue;
      it->attributes = decode_nv_info(Cubin::section_bytes(bytes, s), result.diagnostics, file_name + ":" + s.name);
    }
  }

  // Per-function facts in .nv.info name the function by symbol index: (symbol, value) pairs.
  for (const auto& a : c.global_attributes) {
    if (a.format != NvInfoAttribute::kSval || a.payload.size() < 8) continue;
    std::string fn = symbol_name(a.word(0));
    auto it = std::find_if(c.kernels.begin(), c.kernels.end(), [&](const CubinKernel& k) { return k.name == fn; });
    if (it == c.kernels.end()) continue;
    std::uint32_t v = a.word(1);
    switch (a.id) {
      case kRegcount: it->register_count = static_cast<int>(v); break;
      case kMaxStackSize: it->max_stack_size = v; break;
      case kMinStackSize: it->min_stack_size = v; break;
      case kFrameSize: it->frame_size = v; break;
      case kCrsStackSize: it->crs_stack_size = v; break;
      default: break;
    }
  }
  for (auto& k : c.kernels) {
    for (const auto& a : k.attributes) {
      switch (a.id) {
        case kKparamInfo:
          if (a.payload.size() >= 12) {
            KernelParameter p;
            p.index = a.word(0);
            p.ordinal = load_u16(a.payload.data() + 4);
            p.offset = load_u16(a.payload.data() + 6);
            p.flags = a.word(2);
            p.log_alignment = p.flags & 0xff;
            p.space = (p.flags >> 8) & 0xf;
            p.cbank = (p.flags >> 12) & 0x1f;
            p.in_cbank = ((p.flags >> 17) & 1) == 0;
            p.size = (p.flags >> 18) & 0x3fff;
            k.parameters.push_back(p);
          }
          break;
        case kParamCbank:
          if (a.payload.size() >= 8) {
            k.param_cbank_symbol = a.word(0);
            k.param_cbank_offset = load_u16(a.payload.data() + 4);
            k.param_cbank_size = load_u16(a.payload.data() + 6);
          }
          break;
        case kCbankParamSize: k.cbank_param_size = a.value(); break;
        case kMaxregCount: k.max_register_count = a.value(); break;
        case kCudaApiVersion: k.cuda_api_version = a.value(); break;
        case kCrsStackSize: k.crs_stack_size = a.value(); break;
        case kIndirectBranchTargets:
          // Records of {u32 offset, u32 (unused), u32 count, u32 target[count]}.
          for (std::size_t w = 0; (w + 3) * 4 <= a.payload.size();) {
            IndirectBranchRecord r;
            r.offset = a.word(w);
            r.count = a.word(w + 2);
            w += 3;
            for (std::uint32_t t = 0; t < r.count && (w + 1) * 4 <= a.payload.size(); ++t) r.targets.push_back(a.word(w++));
            if (r.targets.size() != r.count) break;  // truncated record
            k.indirect_branches.push_back(std::move(r));
          }
          break;
        case kExitOffsets:
          for (std::size_t i = 0; i * 4 + 4 <= a.payload.size(); ++i) k.exit_offsets.push_back(a.word(i));
          break;
        case kMaxThreads:
          if (a.payload.size() >= 12) k.max_threads = std::array<std::uint32_t, 3>{a.word(0), a.word(1), a.word(2)};
          break;
        case kNumBarriers: k.num_barriers = a.value(); break;
        case kSwWar:
          for (std::size_t i = 0; i * 4 + 4 <= a.payload.size(); ++i) k.sw_war_values.push_back(a.word(i));
          break;
        default:
          break;
      }
      if (has_war_name(a.id) && a.id != kSwWar) k.sw_workarounds.push_back(a.id);
    }
    std::sort(k.parameters.begin(), k.parameters.end(),
              [](const KernelParameter& a, const KernelParameter& b) { return a.ordinal < b.ordinal; });
    // Before CUDA 13 the barrier count lives in the .text section's flags (bits 20-26).
    if (!k.num_barriers) {
      if (const CubinSection* text = c.find_section(k.text_section)) {
        std::uint32_t bar = static_cast<std::uint32_t>((text->flags >> 20) & 0x7f);
        if (bar != 0) k.num_barriers = bar;
      }
    }
  }
  result.cubin = std::move(c);
  return result;
}

}  // namespace gpuport::sass
