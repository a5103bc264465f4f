// The cubin reader against what `cuobjdump -elf` (CUDA 11.8) printed for each committed cubin
// (tests/sass/cubin-expect, made by scripts/make-cubin-expect), plus bad inputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <elf.h>

#include <cstring>

#include "sass/cubin.h"

namespace gpuport::sass {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::vector<std::uint64_t> hex_numbers(const std::string& s) {
  std::vector<std::uint64_t> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w)
    if (w.starts_with("0x")) out.push_back(std::stoull(w, nullptr, 16));
  return out;
}

// "Key : 0x10" inside a tab-separated value line.
std::uint64_t field(const std::string& line, const std::string& key) {
  std::size_t at = line.find(key);
  if (at == std::string::npos) return ~0ull;
  std::size_t x = line.find("0x", at);
  return std::stoull(line.substr(x), nullptr, 16);
}

struct ExpectedRecord {
  std::string name, format, value;
};

std::uint8_t format_code(const std::string& f) {
  if (f == "EIFMT_NVAL") return 1;
  if (f == "EIFMT_BVAL") return 2;
  if (f == "EIFMT_HVAL") return 3;
  return 4;
}

void check_records(const std::string& where, const std::vector<ExpectedRecord>& expected,
                   const std::vector<NvInfoAttribute>& got, const Cubin& cubin,
                   const CubinKernel* kernel = nullptr) {
  ASSERT_EQ(got.size(), expected.size()) << where;
  // "\t\tOffset of Indirect Branch: 0x160\t Number of targets: 4\t\tTargets: 0x0 ..." per BRX.
  std::vector<IndirectBranchRecord> indirect;
  for (const auto& e : expected) {
    if (e.name != "EIATTR_INDIRECT_BRANCH_TARGETS") continue;
    for (std::size_t at = e.value.find("Offset of Indirect Branch:"); at != std::string::npos;
         at = e.value.find("Offset of Indirect Branch:", at + 1)) {
      IndirectBranchRecord r;
      r.offset = static_cast<std::uint32_t>(field(e.value.substr(at), "Offset of Indirect Branch"));
      std::size_t count = e.value.find("Number of targets:", at) + 18;
      r.count = static_cast<std::uint32_t>(std::stoul(e.value.substr(count)));
      indirect.push_back(r);
    }
  }
  if (kernel != nullptr) {
    ASSERT_EQ(kernel->indirect_branches.size(), indirect.size()) << where;
    for (std::size_t i = 0; i < indirect.size(); ++i) {
      EXPECT_EQ(kernel->indirect_branches[i].offset, indirect[i].offset) << where;
      EXPECT_EQ(kernel->indirect_branches[i].count, indirect[i].count) << where;
      EXPECT_EQ(kernel->indirect_branches[i].targets.size(), indirect[i].count) << where;
    }
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const auto& e = expected[i];
    const auto& a = got[i];
    SCOPED_TRACE(where + " record " + std::to_string(i) + " " + e.name + " value '" + e.value + "'");
    EXPECT_EQ(a.name(), e.name);
    EXPECT_EQ(a.format, format_code(e.format));
    if (e.value.find("function: ") != std::string::npos) {
      // "function: if_else(0x6)\tregister count: 12" / "...min stack size: 0x0"
      std::size_t open = e.value.find('(');
      std::string fn = e.value.substr(e.value.find("function: ") + 10, open - e.value.find("function: ") - 10);
      EXPECT_EQ(a.word(0), std::stoull(e.value.substr(open + 1), nullptr, 16));
      ASSERT_LT(a.word(0), cubin.symbols.size());
      EXPECT_EQ(cubin.symbols[a.word(0)].name, fn);
      std::string tail = e.value.substr(e.value.rfind(':') + 1);
      EXPECT_EQ(a.word(1), std::stoull(tail, nullptr, 0));
    } else if (e.name == "EIATTR_KPARAM_INFO") {
      EXPECT_EQ(a.word(0), field(e.value, "Index"));
      EXPECT_EQ(a.payload[4] | a.payload[5] << 8, static_cast<int>(field(e.value, "Ordinal")));
      EXPECT_EQ(a.payload[6] | a.payload[7] << 8, static_cast<int>(field(e.value, "Offset")));
      EXPECT_EQ((a.word(2) >> 18) & 0x3fff, field(e.value, "Size"));
      EXPECT_EQ((a.word(2) >> 12) & 0x1f, field(e.value, "cbank"));
    } else if (a.format == NvInfoAttribute::kHval || a.format == NvInfoAttribute::kBval) {
      auto v = hex_numbers(e.value);
      ASSERT_EQ(v.size(), 1u);
      EXPECT_EQ(a.value(), v[0]);
    } else if (a.format == NvInfoAttribute::kSval && !e.value.empty() && e.value.find(':') == std::string::npos) {
      auto v = hex_numbers(e.value);  // a list of payload words
      ASSERT_EQ(a.payload.size(), v.size() * 4);
      for (std::size_t w = 0; w < v.size(); ++w) EXPECT_EQ(a.word(w), v[w]) << "word " << w;
    }
  }
}

TEST(Cubin, MatchesCuobjdumpForEveryCommittedCubin) {
  fs::path expect_root = fs::path(GPUPORT_SOURCE_DIR) / "tests/sass/cubin-expect";
  fs::path listings = fs::path(GPUPORT_SOURCE_DIR) / "tests/sass/listings";
  int checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(expect_root)) {
    if (e.path().extension() != ".txt") continue;
    std::string arch = e.path().parent_path().filename().string();
    fs::path cubin_path = listings / arch / (e.path().stem().string() + ".cubin");
    SCOPED_TRACE(cubin_path.string());
    auto r = read_cubin(read_bytes(cubin_path), cubin_path.string());
    ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
    const Cubin& c = *r.cubin;
    EXPECT_EQ("sm_" + std::to_string(c.arch), arch);

    // Walk the expectation file.
    auto lines = split(read_bytes(e.path()), '\n');
    std::string section;  // current .nv.info* block
    std::vector<ExpectedRecord> records;
    std::size_t table_rows = 0;
    auto flush = [&] {
      if (section.empty()) return;
      if (section == ".nv.info") {
        check_records(section, records, c.global_attributes, c);
      } else {
        const CubinKernel* k = c.find_kernel(section.substr(9));
        ASSERT_NE(k, nullptr) << section;
        check_records(section, records, k->attributes, c, k);
      }
      records.clear();
      section.clear();
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string& l = lines[i];
      if (l.starts_with("Index Offset")) continue;
      if (!l.empty() && l[0] == ' ') {  // section table row: index offset size ... name
        std::istringstream in(l);
        std::string idx, off, size, es, align, type, flags, link, info, name;
        in >> idx >> off >> size >> es >> align >> type >> flags >> link >> info >> name;
        std::size_t n = std::stoul(idx, nullptr, 16);
        ASSERT_LT(n, c.sections.size());
        EXPECT_EQ(c.sections[n].name, name);
        EXPECT_EQ(c.sections[n].offset, std::stoull(off, nullptr, 16)) << name;
        EXPECT_EQ(c.sections[n].size, std::stoull(size, nullptr, 16)) << name;
        EXPECT_EQ(c.sections[n].flags, std::stoull(flags, nullptr, 16)) << name;
        ++table_rows;
        continue;
      }
      if (l.starts_with(".text.")) {
        flush();
        const CubinKernel* k = c.find_kernel(l.substr(6));
        ASSERT_NE(k, nullptr) << l;
        const std::string& summary = lines.at(i + 1);  // bar = 1\treg = 9\tlmem=0\tsmem=2048
        EXPECT_EQ(static_cast<std::uint64_t>(k->num_barriers.value_or(0)), std::stoull(summary.substr(6)));
        // cuobjdump's "reg" is the count kept in the .text section's sh_info (bits 24-31); the
        // .nv.info EIATTR_REGCOUNT (register_count) is checked with the records.
        const CubinSection* text = c.find_section(k->text_section);
        ASSERT_NE(text, nullptr);
        EXPECT_EQ(text->info >> 24, std::stoul(summary.substr(summary.find("reg = ") + 6)));
        EXPECT_EQ(k->shared_memory_size, std::stoull(summary.substr(summary.find("smem=") + 5)));
        ++i;
        continue;
      }
      if (l.starts_with(".nv.info")) {
        flush();
        section = l;
        continue;
      }
      if (l.starts_with("\tAttribute:\t")) records.push_back({l.substr(12), "", ""});
      else if (l.starts_with("\tFormat:\t") && !records.empty()) records.back().format = l.substr(9);
      else if (l.starts_with("\tValue:\t") && !records.empty()) records.back().value = l.substr(8);
      else if (l.starts_with("\t\t") && !records.empty()) records.back().value += l;
    }
    flush();
    EXPECT_EQ(table_rows + 1, c.sections.size());  // cuobjdump omits the null section 0
    ++checked;
  }
  EXPECT_GE(checked, 90) << "expectation files missing: run scripts/make-cubin-expect";
}

TEST(Cubin, KernelFactsOfIfElseSm80) {
  auto r = read_cubin(read_bytes(fs::path(GPUPORT_SOURCE_DIR) / "tests/sass/listings/sm_80/if_else.cubin"));
  ASSERT_TRUE(r.ok());
  const CubinKernel* k = r.cubin->find_kernel("if_else");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->is_entry);
  EXPECT_EQ(k->register_count, 12);
  EXPECT_EQ(k->code_size, 0x400u);
  ASSERT_EQ(k->parameters.size(), 3u);
  EXPECT_EQ(k->parameters[0].offset, 0);
  EXPECT_EQ(k->parameters[0].size, 8u);
  EXPECT_EQ(k->parameters[2].offset, 0x10);
  EXPECT_EQ(k->parameters[2].size, 4u);
  EXPECT_EQ(k->param_cbank_offset, 0x160);
  EXPECT_EQ(k->param_cbank_size, 0x14);
  EXPECT_EQ(k->cbank_param_size, 0x14u);
  EXPECT_EQ(k->exit_offsets, (std::vector<std::uint32_t>{0x50, 0xf0, 0x1f0}));
  EXPECT_EQ(k->cuda_api_version, 0x76u);
  EXPECT_EQ(k->frame_size, 0u);
  EXPECT_EQ(k->sw_workarounds, (std::vector<std::uint8_t>{0x35}));
}

// CUDA 13 cubins: cuobjdump 11.8 cannot read them, so check against the committed nvdisasm
// listing instead: the same kernels, and an SM number from the new e_flags layout.
TEST(Cubin, Cuda13CubinsListTheListingsKernels) {
  for (std::string arch : {"sm_100", "sm_120"}) {
    fs::path dir = fs::path(GPUPORT_SOURCE_DIR) / "tests/sass/listings" / arch;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".cubin") continue;
      SCOPED_TRACE(e.path().string());
      auto r = read_cubin(read_bytes(e.path()));
      ASSERT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
      EXPECT_EQ("sm_" + std::to_string(r.cubin->arch), arch);
      std::string listing = read_bytes(fs::path(e.path()).replace_extension(".sass"));
      std::size_t text_sections = 0;
      for (std::size_t at = listing.find(".section\t.text."); at != std::string::npos;
           at = listing.find(".section\t.text.", at + 1))
        ++text_sections;
      EXPECT_EQ(r.cubin->kernels.size(), text_sections);
      for (const auto& k : r.cubin->kernels) {
        EXPECT_NE(listing.find(".section\t" + k.text_section + ","), std::string::npos) << k.name;
        if (k.is_entry) {
          EXPECT_FALSE(k.exit_offsets.empty()) << k.name;
          EXPECT_TRUE(k.cuda_api_version.has_value()) << k.name;
        }
      }
    }
  }
}

TEST(Cubin, BadInputGivesADiagnosticNotACrash) {
  std::string good = read_bytes(fs::path(GPUPORT_SOURCE_DIR) / "tests/sass/listings/sm_80/if_else.cubin");
  ASSERT_FALSE(good.empty());
  auto code_of = [](const std::string& bytes) {
    auto r = read_cubin(bytes, "x.cubin");
    return r.ok() || r.diagnostics.empty() ? std::string("ok") : r.diagnostics.front().code;
  };
  EXPECT_EQ(code_of(""), "cubin-not-elf");
  EXPECT_EQ(code_of("not an elf file at all"), "cubin-not-elf");
  std::string wrong_class = good;
  wrong_class[EI_CLASS] = 1;
  EXPECT_EQ(code_of(wrong_class), "cubin-wrong-class");
  std::string wrong_order = good;
  wrong_order[EI_DATA] = 2;
  EXPECT_EQ(code_of(wrong_order), "cubin-wrong-byte-order");
  EXPECT_EQ(code_of(good.substr(0, 40)), "cubin-truncated");
  Elf64_Ehdr eh;
  std::memcpy(&eh, good.data(), sizeof eh);
  EXPECT_EQ(code_of(good.substr(0, eh.e_shoff + 10)), "cubin-truncated");  // cut inside the section headers
  // Every prefix and a spread of single-byte corruptions: never a crash.
  for (std::size_t n = 0; n < good.size(); n += 7) (void)read_cubin(good.substr(0, n));
  for (std::size_t i = 0; i < good.size(); i += 3) {
    std::string bad = good;
    bad[i] = static_cast<char>(bad[i] ^ 0xa5);
    (void)read_cubin(bad);
  }
}

}  // namespace
}  // namespace gpuport::sass
