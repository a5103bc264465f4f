#include "tune/tables.h"

#include <algorithm>
#include <charconv>

#include "common/text.h"

namespace gpuport::tune {

extern const std::string_view kOpcodeTableText;
extern const std::string_view kNvInfoTableText;

namespace {

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (start <= line.size()) {
    std::size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) tab = line.size();
    fields.push_back(line.substr(start, tab - start));
    start = tab + 1;
  }
  return fields;
}

// Calls `row(fields, line_number)` for every line that is not blank or a comment.
template <typename Row>
void for_each_row(std::string_view text, Row row) {
  std::size_t line_number = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    row(split_tabs(line), line_number);
  }
}

}  // namespace

std::string_view opcode_class_name(OpcodeClass c) {
  switch (c) {
    case OpcodeClass::alu: return "alu";
    case OpcodeClass::load: return "load";
    case OpcodeClass::store: return "store";
    case OpcodeClass::atomic: return "atomic";
    case OpcodeClass::fence: return "fence";
    case OpcodeClass::nop: return "nop";
  }
  return "?";
}

std::string_view memory_space_name(MemorySpace s) {
  switch (s) {
    case MemorySpace::none: return "-";
    case MemorySpace::global: return "global";
    case MemorySpace::shared: return "shared";
    case MemorySpace::local: return "local";
    case MemorySpace::generic: return "generic";
    case MemorySpace::constant: return "const";
    case MemorySpace::texture: return "texture";
  }
  return "?";
}

const TuneOpcodeInfo* TuneOpcodeTable::find(std::string_view opcode) const {
  auto it = std::lower_bound(rows.begin(), rows.end(), opcode,
                             [](const TuneOpcodeInfo& r, std::string_view o) { return r.opcode < o; });
  return it != rows.end() && it->opcode == opcode ? &*it : nullptr;
}

TuneOpcodeTable parse_tune_opcode_table(std::string_view text) {
  TuneOpcodeTable table;
  for_each_row(text, [&](const std::vector<std::string_view>& f, std::size_t line) {
    auto fail = [&](const std::string& why) { table.errors.push_back("line " + std::to_string(line) + ": " + why); };
    if (f.size() != 4) return fail("expected 4 tab-separated fields");
    TuneOpcodeInfo info;
    info.opcode = std::string(f[0]);
    static constexpr std::pair<std::string_view, OpcodeClass> classes[] = {
        {"alu", OpcodeClass::alu},     {"load", OpcodeClass::load},   {"store", OpcodeClass::store},
        {"atomic", OpcodeClass::atomic}, {"fence", OpcodeClass::fence}, {"nop", OpcodeClass::nop}};
    auto c = std::find_if(std::begin(classes), std::end(classes), [&](const auto& p) { return p.first == f[1]; });
    if (c == std::end(classes)) return fail("unknown class '" + std::string(f[1]) + "'");
    info.cls = c->second;
    static constexpr std::pair<std::string_view, MemorySpace> spaces[] = {
        {"-", MemorySpace::none},         {"global", MemorySpace::global},   {"shared", MemorySpace::shared},
        {"local", MemorySpace::local},     {"generic", MemorySpace::generic}, {"const", MemorySpace::constant},
        {"texture", MemorySpace::texture}};
    auto s = std::find_if(std::begin(spaces), std::end(spaces), [&](const auto& p) { return p.first == f[2]; });
    if (s == std::end(spaces)) return fail("unknown space '" + std::string(f[2]) + "'");
    info.space = s->second;
    bool memory = info.cls == OpcodeClass::load || info.cls == OpcodeClass::store || info.cls == OpcodeClass::atomic;
    if (memory != (info.space != MemorySpace::none)) return fail("memory classes need a space, others '-'");
    auto [end, ec] = std::from_chars(f[3].data(), f[3].data() + f[3].size(), info.latency);
    if (ec != std::errc() || end != f[3].data() + f[3].size() || info.latency < 1)
      return fail("latency must be a positive integer");
    table.rows.push_back(std::move(info));
  });
  std::sort(table.rows.begin(), table.rows.end(), [](const auto& a, const auto& b) { return a.opcode < b.opcode; });
  for (std::size_t i = 1; i < table.rows.size(); ++i)
    if (table.rows[i].opcode == table.rows[i - 1].opcode) table.errors.push_back("duplicate row " + table.rows[i].opcode);
  return table;
}

const TuneOpcodeTable& builtin_tune_opcode_table() {
  static const TuneOpcodeTable table = parse_tune_opcode_table(kOpcodeTableText);
  return table;
}

TuneOpcodeTable with_latencies(const TuneOpcodeTable& table, const std::vector<std::pair<std::string, int>>& latencies,
                               std::vector<std::string>* unknown) {
  TuneOpcodeTable out = table;
  for (const auto& [opcode, cycles] : latencies) {
    auto it = std::lower_bound(out.rows.begin(), out.rows.end(), opcode,
                               [](const TuneOpcodeInfo& r, const std::string& o) { return r.opcode < o; });
    if (it == out.rows.end() || it->opcode != opcode || cycles < 1) {
      if (unknown) unknown->push_back(opcode);
      continue;
    }
    it->latency = cycles;
  }
  return out;
}

TuneOpcodeInfo classify_instruction(const sass::SassInstruction& instruction, const TuneOpcodeTable& table) {
  TuneOpcodeInfo info;
  info.opcode = instruction.opcode;
  if (instruction.undecoded || instruction.opcode.empty()) return info;  // fence
  const TuneOpcodeInfo* row = table.find(instruction.opcode);
  if (row == nullptr) return info;
  info = *row;
  // Reading a clock or timer orders against everything: a move would change what it measures.
  // PR/UPR (P2R, R2P) read or write the whole predicate file, which def-use does not list.
  for (const sass::SassOperand& op : instruction.operands)
    if (op.kind == sass::OperandKind::special_reg &&
        (op.text.find("CLOCK") != std::string_view::npos || op.text.find("TIMER") != std::string_view::npos ||
         op.text == "PR" || op.text == "UPR"))
      info.cls = OpcodeClass::fence;
  if (info.cls == OpcodeClass::nop && !instruction.operands.empty()) info.cls = OpcodeClass::fence;
  return info;
}

std::string_view nvinfo_kind_name(NvInfoKind kind) {
  switch (kind) {
    case NvInfoKind::none: return "none";
    case NvInfoKind::offsets: return "offsets";
    case NvInfoKind::records16: return "records16";
    case NvInfoKind::fixed: return "fixed";
    case NvInfoKind::refuse: return "refuse";
  }
  return "?";
}

NvInfoKind NvInfoTable::find(std::string_view attribute_name) const {
  auto it = std::lower_bound(rows.begin(), rows.end(), attribute_name,
                             [](const auto& r, std::string_view n) { return r.first < n; });
  return it != rows.end() && it->first == attribute_name ? it->second : NvInfoKind::refuse;
}

NvInfoTable parse_nvinfo_table(std::string_view text) {
  NvInfoTable table;
  for_each_row(text, [&](const std::vector<std::string_view>& f, std::size_t line) {
    auto fail = [&](const std::string& why) { table.errors.push_back("line " + std::to_string(line) + ": " + why); };
    if (f.size() != 2) return fail("expected 2 tab-separated fields");
    static constexpr std::pair<std::string_view, NvInfoKind> kinds[] = {{"none", NvInfoKind::none},
                                                                        {"offsets", NvInfoKind::offsets},
                                                                        {"records16", NvInfoKind::records16},
                                                                        {"fixed", NvInfoKind::fixed},
                                                                        {"refuse", NvInfoKind::refuse}};
    auto k = std::find_if(std::begin(kinds), std::end(kinds), [&](const auto& p) { return p.first == f[1]; });
    if (k == std::end(kinds)) return fail("unknown kind '" + std::string(f[1]) + "'");
    table.rows.emplace_back(std::string(f[0]), k->second);
  });
  std::sort(table.rows.begin(), table.rows.end());
  for (std::size_t i = 1; i < table.rows.size(); ++i)
    if (table.rows[i].first == table.rows[i - 1].first) table.errors.push_back("duplicate row " + table.rows[i].first);
  return table;
}

const NvInfoTable& builtin_nvinfo_table() {
  static const NvInfoTable table = parse_nvinfo_table(kNvInfoTableText);
  return table;
}

}  // namespace gpuport::tune
