#include "sass/opcode_table.h"

#include <algorithm>
#include <array>

namespace gpuport::sass {

extern const std::string_view kBuiltinOpcodeTableText;

namespace {

struct ControlName {
  ControlKind kind;
  std::string_view name;
};

constexpr std::array<ControlName, 18> kControlNames{{
    {ControlKind::none, "-"},
    {ControlKind::branch, "branch"},
    {ControlKind::indirect, "indirect"},
    {ControlKind::call, "call"},
    {ControlKind::ret, "return"},
    {ControlKind::exit, "exit"},
    {ControlKind::trap, "trap"},
    {ControlKind::push_sync, "push_sync"},
    {ControlKind::push_break, "push_break"},
    {ControlKind::push_continue, "push_continue"},
    {ControlKind::push_exit, "push_exit"},
    {ControlKind::pop_sync, "pop_sync"},
    {ControlKind::pop_break, "pop_break"},
    {ControlKind::pop_continue, "pop_continue"},
    {ControlKind::barrier_set, "barrier_set"},
    {ControlKind::barrier_sync, "barrier_sync"},
    {ControlKind::barrier_break, "barrier_break"},
    {ControlKind::warpsync, "warpsync"},
}};

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= line.size()) {
    std::size_t tab = line.find('\t', pos);
    if (tab == std::string_view::npos) tab = line.size();
    std::string_view field = line.substr(pos, tab - pos);
    while (!field.empty() && (field.back() == ' ' || field.back() == '\r')) field.remove_suffix(1);
    while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
    out.push_back(field);
    pos = tab + 1;
  }
  return out;
}

}  // namespace

std::string_view control_kind_name(ControlKind kind) {
  for (const auto& c : kControlNames)
    if (c.kind == kind) return c.name == "-" ? "none" : c.name;
  return "?";
}

const OpcodeInfo* OpcodeTable::find(std::string_view opcode) const {
  auto it = std::lower_bound(rows.begin(), rows.end(), opcode,
                             [](const OpcodeInfo& r, std::string_view o) { return r.opcode < o; });
  if (it == rows.end() || it->opcode != opcode) return nullptr;
  return &*it;
}

OpcodeTable parse_opcode_table(std::string_view text) {
  OpcodeTable table;
  std::size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_number;
    if (line.empty() || line.front() == '#' || line.find_first_not_of(" \t\r") == std::string_view::npos)
      continue;
    auto fields = split_fields(line);
    auto fail = [&](std::string_view why) {
      table.errors.push_back("line " + std::to_string(line_number) + ": " + std::string(why));
    };
    if (fields.size() != 4) {
      fail("expected 4 tab-separated fields");
      continue;
    }
    OpcodeInfo info;
    info.opcode = std::string(fields[0]);
    if (fields[1] == "carry") {
      info.def_rule = DefRule::carry;
    } else if (fields[1].size() == 1 && fields[1][0] >= '0' && fields[1][0] <= '4') {
      info.defs = static_cast<std::uint8_t>(fields[1][0] - '0');
    } else {
      fail("defs must be 0..4 or carry");
      continue;
    }
    if (fields[2] == "-") info.width = WidthRule::scalar;
    else if (fields[2] == "mem") info.width = WidthRule::memory;
    else if (fields[2] == "wide") info.width = WidthRule::wide;
    else if (fields[2] == "f64") info.width = WidthRule::f64;
    else if (fields[2] == "cvt") info.width = WidthRule::convert;
    else {
      fail("width must be -, mem, wide, f64 or cvt");
      continue;
    }
    bool known = false;
    for (const auto& c : kControlNames)
      if (c.name == fields[3]) {
        info.control = c.kind;
        known = true;
      }
    if (!known) {
      fail("unknown control kind '" + std::string(fields[3]) + "'");
      continue;
    }
    table.rows.push_back(std::move(info));
  }
  std::sort(table.rows.begin(), table.rows.end(),
            [](const OpcodeInfo& a, const OpcodeInfo& b) { return a.opcode < b.opcode; });
  for (std::size_t i = 1; i < table.rows.size(); ++i)
    if (table.rows[i].opcode == table.rows[i - 1].opcode)
      table.errors.push_back("duplicate opcode " + table.rows[i].opcode);
  return table;
}

std::string_view builtin_opcode_table_text() { return kBuiltinOpcodeTableText; }

const OpcodeTable& builtin_opcode_table() {
  static const OpcodeTable table = parse_opcode_table(kBuiltinOpcodeTableText);
  return table;
}

}  // namespace gpuport::sass
