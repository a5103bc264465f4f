#include "tune/rewrite.h"

#include <elf.h>

#include <cstring>

#include "sass/cubin.h"

namespace gpuport::tune {

namespace {

std::uint64_t load_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(p[i]);
  return v;
}
void store_u64(char* p, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
void store_u32(char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}

constexpr std::uint32_t kShtCudaInfo = 0x70000000;

}  // namespace

RewriteResult rewrite_cubin(std::string_view cubin_bytes, const std::string& file, const sass::SassFunction& function,
                            const Order& order, const StallPlan& stalls, const NvInfoTable& table) {
  RewriteResult r;
  auto fail = [&](std::string code, std::string message) {
    Diagnostic d;
    d.code = std::move(code);
    d.message = std::move(message);
    d.location = {file, 0, 0};
    r.diagnostics.push_back(std::move(d));
    r.bytes.clear();
    return r;
  };
  sass::CubinReadResult read = sass::read_cubin(cubin_bytes, file);
  if (!read.ok()) {
    r.diagnostics = read.diagnostics;
    return r;
  }
  const sass::Cubin& cubin = *read.cubin;
  const sass::CubinKernel* kernel = cubin.find_kernel(function.name);
  if (kernel == nullptr) return fail("tune-no-kernel", "the cubin has no function '" + function.name + "'");
  std::size_t text_index = 0;
  for (; text_index < cubin.sections.size(); ++text_index)
    if (cubin.sections[text_index].name == kernel->text_section) break;
  if (text_index == cubin.sections.size()) return fail("tune-no-kernel", "no section " + kernel->text_section);
  const sass::CubinSection& text = cubin.sections[text_index];
  const std::size_t n = function.instructions.size();
  if (order.size() != n) return fail("tune-order", "the order does not cover the kernel's instructions");
  if (!stalls.empty() && stalls.size() != n) return fail("tune-order", "the stall plan does not cover the kernel's instructions");
  if (text.size != 16 * n || text.offset + text.size > cubin_bytes.size())
    return fail("tune-listing-mismatch", kernel->text_section + " holds " + std::to_string(text.size) +
                                             " bytes; the listing has " + std::to_string(n) + " 16-byte instructions");
  for (std::size_t i = 0; i < n; ++i) {
    const sass::SassInstruction& inst = function.instructions[i];
    const char* p = cubin_bytes.data() + text.offset + 16 * i;
    if (inst.encoding_words != 2 || inst.address != 16 * i || load_u64(p) != inst.encoding[0] || load_u64(p + 8) != inst.encoding[1])
      return fail("tune-listing-mismatch", "instruction " + std::to_string(i) + " of the listing does not match the bytes at offset " +
                                               std::to_string(16 * i) + " of " + kernel->text_section);
  }
  std::vector<std::size_t> new_slot(n, n);
  for (std::size_t slot = 0; slot < n; ++slot) {
    if (order[slot] >= n || new_slot[order[slot]] != n) return fail("tune-order", "the order is not a permutation");
    new_slot[order[slot]] = slot;
  }
  r.bytes.assign(cubin_bytes);
  // The text section.
  for (std::size_t slot = 0; slot < n; ++slot) {
    std::uint32_t original = order[slot];
    char* out = r.bytes.data() + text.offset + 16 * slot;
    std::memcpy(out, cubin_bytes.data() + text.offset + 16 * original, 16);
    if (original != slot) ++r.moved;
    bool same_successor = slot + 1 < n ? order[slot + 1] == original + 1 : original + 1 == n;
    std::uint64_t high = load_u64(out + 8);
    if (!same_successor && (high & kReuseMask) != 0) {
      high &= ~kReuseMask;
      ++r.reuse_cleared;
    }
    if (!stalls.empty()) {
      const bool yield_bit = (high >> (kStallShift + 4) & 1) != 0;
      if (stalls[original] > (yield_bit ? 11 : 15) || (yield_bit && stalls[original] == 0))
        return fail("tune-order", "stall " + std::to_string(stalls[original]) + " cannot be encoded with the yield bit " +
                                      (yield_bit ? "set" : "clear"));
      std::uint64_t field = static_cast<std::uint64_t>(stalls[original]) << kStallShift;
      if ((high & kStallMask) != field) {
        high = (high & ~kStallMask) | field;
        ++r.stalls_written;
      }
    }
    store_u64(out + 8, high);
  }
  auto map_offset = [&](std::uint64_t offset) -> std::optional<std::uint64_t> {
    if (offset >= 16 * n) return std::nullopt;
    return 16 * new_slot[offset / 16] + offset % 16;
  };
  // .nv.info of the kernel (and the module-wide one, which must hold no offsets).
  for (const sass::CubinSection& section : cubin.sections) {
    if (section.type != kShtCudaInfo) continue;
    bool own = section.name == ".nv.info." + function.name;
    if (!own && section.name != ".nv.info") continue;
    std::vector<Diagnostic> ignored;
    std::vector<sass::NvInfoAttribute> attributes =
        sass::decode_nv_info(sass::Cubin::section_bytes(cubin_bytes, section), ignored, file);
    for (const sass::NvInfoAttribute& a : attributes) {
      if (a.format != sass::NvInfoAttribute::kSval) continue;
      NvInfoKind kind = table.find(a.name());
      if (kind == NvInfoKind::none) continue;
      if (kind == NvInfoKind::refuse || !own)
        return fail("tune-nvinfo", std::string(a.name()) + " in " + section.name + " may hold instruction offsets in a layout " +
                                       "gpuport does not rewrite (data/tune/nvinfo.tsv)");
      if (kind == NvInfoKind::fixed) {
        auto mapped = map_offset(a.word(0));
        if (!mapped || *mapped != a.word(0))
          return fail("tune-nvinfo", std::string(a.name()) + " names the instruction at offset " + std::to_string(a.word(0)) +
                                         ", which the order moves");
        continue;
      }
      // `offsets`: every word; `records16`: the first word of each 16-byte record.
      const std::size_t stride = kind == NvInfoKind::records16 ? 4 : 1;
      if (kind == NvInfoKind::records16 && a.payload.size() % 16 != 0)
        return fail("tune-nvinfo", std::string(a.name()) + " is not a list of 16-byte records");
      for (std::size_t w = 0; w < a.payload.size() / 4; w += stride) {
        auto mapped = map_offset(a.word(w));
        if (!mapped || a.word(w) % 16 != 0)
          return fail("tune-nvinfo", std::string(a.name()) + " holds " + std::to_string(a.word(w)) +
                                         ", which is not an instruction offset of " + function.name);
        store_u32(r.bytes.data() + section.offset + a.offset + 4 + 4 * w, static_cast<std::uint32_t>(*mapped));
        if (*mapped != a.word(w)) ++r.nvinfo_offsets;
      }
    }
  }
  // Relocations applying to the text section.
  for (const sass::CubinSection& section : cubin.sections) {
    if ((section.type != SHT_RELA && section.type != SHT_REL) || section.info != text_index) continue;
    std::size_t entry = section.type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    if (section.offset + section.size > cubin_bytes.size() || section.size % entry != 0)
      return fail("tune-relocations", section.name + " is truncated");
    for (std::size_t e = 0; e < section.size / entry; ++e) {
      char* p = r.bytes.data() + section.offset + e * entry;
      auto mapped = map_offset(load_u64(p));
      if (!mapped) return fail("tune-relocations", section.name + " entry " + std::to_string(e) + " lies outside the kernel");
      if (*mapped != load_u64(p)) ++r.relocations;
      store_u64(p, *mapped);
    }
  }
  return r;
}

}  // namespace gpuport::tune
