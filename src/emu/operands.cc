#include "emu/operands.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace gpuport::emu {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool parse_int(std::string_view s, std::int64_t& out) {
  bool negative = false;
  if (!s.empty() && s[0] == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  std::uint64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  std::from_chars_result r;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) r = std::from_chars(b + 2, e, v, 16);
  else r = std::from_chars(b, e, v, 10);
  if (r.ec != std::errc() || r.ptr != e) return false;
  out = negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  return true;
}

// "s[4:7]" / "v[0:1]" / "ttmp[0:1]" -> first register and count.
bool parse_range(std::string_view s, std::size_t prefix, std::uint16_t& first, std::uint8_t& width) {
  if (s.size() < prefix + 4 || s[prefix] != '[' || s.back() != ']') return false;
  const auto inner = s.substr(prefix + 1, s.size() - prefix - 2);
  const auto colon = inner.find(':');
  if (colon == std::string_view::npos) return false;
  std::int64_t a = 0, b = 0;
  if (!parse_int(inner.substr(0, colon), a) || !parse_int(inner.substr(colon + 1), b) || b < a) return false;
  first = static_cast<std::uint16_t>(a);
  width = static_cast<std::uint8_t>(b - a + 1);
  return true;
}

bool parse_register(std::string_view s, Operand& op) {
  struct Named {
    std::string_view name;
    std::uint16_t enc;
    std::uint8_t width;
  };
  static constexpr Named named[] = {
      {"vcc_lo", encoding::vcc_lo, 1}, {"vcc_hi", encoding::vcc_hi, 1}, {"vcc", encoding::vcc_lo, 2},
      {"exec_lo", encoding::exec_lo, 1}, {"exec_hi", encoding::exec_hi, 1}, {"exec", encoding::exec_lo, 2},
      {"m0", encoding::m0, 1}, {"null", encoding::null, 1},
  };
  for (const auto& n : named)
    if (s == n.name) {
      op.kind = Operand::Kind::sgpr;
      op.reg = n.enc;
      op.width = n.width;
      return true;
    }
  if (s == "scc") {
    op.kind = Operand::Kind::scc;
    return true;
  }
  static constexpr Named apertures[] = {{"src_shared_base", encoding::shared_base, 2}, {"src_shared_limit", encoding::shared_limit, 2},
                                        {"src_private_base", encoding::private_base, 2}, {"src_private_limit", encoding::private_limit, 2}};
  for (const auto& n : apertures)
    if (s == n.name) {
      op.kind = Operand::Kind::aperture;
      op.reg = n.enc;
      op.width = 2;
      return true;
    }
  auto numbered = [&](std::string_view prefix, Operand::Kind kind, std::uint16_t base) {
    if (!s.starts_with(prefix)) return false;
    std::uint16_t first = 0;
    std::uint8_t width = 1;
    if (s.size() > prefix.size() && s[prefix.size()] == '[') {
      if (!parse_range(s, prefix.size(), first, width)) return false;
    } else {
      std::int64_t n = 0;
      auto rest = s.substr(prefix.size());
      if (rest.ends_with(".l") || rest.ends_with(".h")) {
        op.high16 = rest.back() == 'h';
        rest.remove_suffix(2);
      }
      if (rest.empty() || !std::isdigit(static_cast<unsigned char>(rest[0])) || !parse_int(rest, n)) return false;
      first = static_cast<std::uint16_t>(n);
    }
    op.kind = kind;
    op.reg = static_cast<std::uint16_t>(base + first);
    op.width = width;
    return true;
  };
  return numbered("ttmp", Operand::Kind::sgpr, encoding::ttmp0) || numbered("s", Operand::Kind::sgpr, 0) ||
         numbered("v", Operand::Kind::vgpr, 0);
}

std::vector<std::string_view> split_commas(std::string_view s);

bool parse_operand(std::string_view s, Operand& op) {
  s = trim(s);
  // Input modifiers: -x, |x|, -|x|, neg(x), abs(x), sext(x).
  if (s.starts_with("neg(") && s.ends_with(")")) {
    if (!parse_operand(s.substr(4, s.size() - 5), op)) return false;
    op.neg = true;
    return true;
  }
  if (s.starts_with("abs(") && s.ends_with(")")) {
    if (!parse_operand(s.substr(4, s.size() - 5), op)) return false;
    op.abs = true;
    return true;
  }
  if (s.starts_with("sext(") && s.ends_with(")")) {
    if (!parse_operand(s.substr(5, s.size() - 6), op)) return false;
    op.sext = true;
    return true;
  }
  if (s.size() >= 2 && s.front() == '|' && s.back() == '|') {
    if (!parse_operand(s.substr(1, s.size() - 2), op)) return false;
    op.abs = true;
    return true;
  }
  if (s.starts_with("-") && s.size() > 1 && !std::isdigit(static_cast<unsigned char>(s[1]))) {
    if (!parse_operand(s.substr(1), op)) return false;
    op.neg = true;
    return true;
  }
  if (s == "off") {
    op.kind = Operand::Kind::off;
    return true;
  }
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') {  // an NSA address list
    op.kind = Operand::Kind::vgpr_list;
    op.width = 0;
    op.value = 0;
    for (auto part : split_commas(s.substr(1, s.size() - 2))) {
      Operand v;
      if (!parse_register(part, v) || v.kind != Operand::Kind::vgpr || v.width != 1 || op.width == 8) return false;
      op.value |= static_cast<std::int64_t>(v.reg) << (8 * op.width++);
    }
    return true;
  }
  if (parse_register(s, op)) return true;
  std::int64_t v = 0;
  if (parse_int(s, v)) {
    const bool hex = s.find("0x") != std::string_view::npos;
    op.kind = (!hex && v >= -16 && v <= 64) ? Operand::Kind::int_const : Operand::Kind::literal;
    op.value = v;
    return true;
  }
  // Inline float constants as the printer writes them.
  static constexpr std::pair<std::string_view, double> floats[] = {
      {"0.5", 0.5}, {"-0.5", -0.5}, {"1.0", 1.0}, {"-1.0", -1.0}, {"2.0", 2.0}, {"-2.0", -2.0},
      {"4.0", 4.0}, {"-4.0", -4.0}, {"0.15915494", 0.15915494309189535}, {"0.15915494309189532", 0.15915494309189535},
      {"0.1591549431", 0.15915494309189535}};
  for (const auto& [name, value] : floats)
    if (s == name) {
      op.kind = Operand::Kind::float_const;
      op.fvalue = value;
      return true;
    }
  return false;
}

// Splits at top-level commas (not inside [] or ()).
std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '(') ++depth;
    else if (s[i] == ']' || s[i] == ')') --depth;
    else if (s[i] == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(s.substr(start)));
  return out;
}

std::vector<std::string_view> split_spaces(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  bool in = false;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    const bool end = i == s.size();
    const char c = end ? ' ' : s[i];
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if ((c == ' ' && depth == 0) || end) {
      if (in) out.push_back(s.substr(start, i - start));
      in = false;
    } else if (!in) {
      in = true;
      start = i;
    }
  }
  return out;
}

std::uint32_t parse_bit_list(std::string_view s) {  // "[0,1,1]" -> bits
  std::uint32_t bits = 0;
  int index = 0;
  for (char c : s) {
    if (c == '0' || c == '1') bits |= static_cast<std::uint32_t>(c - '0') << index++;
  }
  return bits;
}

// ds_swizzle_b32's offset in the symbolic forms LLVM prints (its modifier syntax page,
// "swizzle pattern"), back to the 16-bit pattern: swizzle(QUAD_PERM,a,b,c,d) is 0x8000 with the
// four 2-bit selects; the others are bit-mask mode, offset = and_mask | or_mask << 5 | xor_mask
// << 10 over a 5-bit lane id: BITMASK_PERM,"xxxxx" (most significant bit first: 0 clears, 1 sets,
// p keeps, i inverts), SWAP,n (xor n), REVERSE,n (xor n-1 within groups of n), BROADCAST,n,l
// (lane l of each group of n). `s` is what follows "swizzle(".
bool parse_swizzle(std::string_view s, std::int64_t& offset) {
  if (!s.ends_with(")")) return false;
  std::vector<std::string_view> args;
  for (std::string_view rest = s.substr(0, s.size() - 1);;) {
    const auto comma = rest.find(',');
    args.push_back(trim(rest.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  std::vector<std::int64_t> n;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::int64_t x = 0;
    if (args[0] != "BITMASK_PERM" && !parse_int(args[i], x)) return false;
    n.push_back(x);
  }
  auto bit_mode = [&](std::int64_t and_mask, std::int64_t or_mask, std::int64_t xor_mask) {
    offset = (and_mask & 31) | (or_mask & 31) << 5 | (xor_mask & 31) << 10;
    return true;
  };
  if (args[0] == "QUAD_PERM" && n.size() == 4) {
    offset = 0x8000 | (n[0] & 3) | (n[1] & 3) << 2 | (n[2] & 3) << 4 | (n[3] & 3) << 6;
    return true;
  }
  if (args[0] == "SWAP" && n.size() == 1) return bit_mode(31, 0, n[0]);
  if (args[0] == "REVERSE" && n.size() == 1) return bit_mode(31, 0, n[0] - 1);
  if (args[0] == "BROADCAST" && n.size() == 2) return bit_mode(31 & ~(n[0] - 1), n[1], 0);
  if (args[0] == "BITMASK_PERM" && args.size() == 2) {
    std::string_view mask = args[1];
    if (mask.size() != 7 || mask.front() != '"' || mask.back() != '"') return false;
    std::int64_t and_mask = 0, or_mask = 0, xor_mask = 0;
    for (int i = 0; i < 5; ++i) {
      const std::int64_t bit = std::int64_t{1} << (4 - i);
      switch (mask[1 + i]) {
        case '0': break;
        case '1': or_mask |= bit; break;
        case 'p': and_mask |= bit; break;
        case 'i': and_mask |= bit, xor_mask |= bit; break;
        default: return false;
      }
    }
    return bit_mode(and_mask, or_mask, xor_mask);
  }
  return false;
}

bool apply_modifier(std::string_view m, Modifiers& mods) {
  auto value_of = [&](std::string_view prefix, std::int64_t& out) {
    if (!m.starts_with(prefix)) return false;
    return parse_int(m.substr(prefix.size()), out);
  };
  std::int64_t v = 0;
  if (value_of("offset:", v)) return mods.offset = v, true;
  if (value_of("offset0:", v)) return mods.offset0 = v, true;
  if (value_of("offset1:", v)) return mods.offset1 = v, true;
  if (m == "glc") return mods.glc = true;
  if (m == "slc") return mods.slc = true;
  if (m == "dlc") return mods.dlc = true;
  if (m == "gds") return mods.gds = true;
  if (m == "clamp") return mods.clamp = true;
  if (m == "mul:2") return mods.omod = 1, true;
  if (m == "mul:4") return mods.omod = 2, true;
  if (m == "div:2") return mods.omod = 3, true;
  if (m.starts_with("op_sel:")) return mods.op_sel = parse_bit_list(m.substr(7)), true;
  if (m.starts_with("op_sel_hi:")) return mods.op_sel_hi = parse_bit_list(m.substr(10)), mods.op_sel_hi_given = true;
  if (m.starts_with("neg_lo:")) return mods.neg_lo = parse_bit_list(m.substr(7)), true;
  if (m.starts_with("neg_hi:")) return mods.neg_hi = parse_bit_list(m.substr(7)), true;
  if (m.starts_with("offset:swizzle(")) return parse_swizzle(m.substr(15), mods.offset);
  if (m.starts_with("quad_perm:")) {
    mods.dpp = true;
    mods.dpp_ctrl_kind = dpp_control::quad_perm;
    std::uint32_t sel = 0;
    int index = 0;
    for (char c : m.substr(10))
      if (c >= '0' && c <= '3') sel |= static_cast<std::uint32_t>(c - '0') << (2 * index++);
    mods.dpp_value = sel;
    return true;
  }
  static constexpr std::pair<std::string_view, std::uint32_t> rows[] = {
      {"row_shl:", dpp_control::row_shl}, {"row_shr:", dpp_control::row_shr}, {"row_ror:", dpp_control::row_ror},
      {"row_share:", dpp_control::row_share}, {"row_xmask:", dpp_control::row_xmask}};
  for (const auto& [prefix, kind] : rows)
    if (value_of(prefix, v) && v >= 0 && v <= 15)
      return mods.dpp = true, mods.dpp_ctrl_kind = kind, mods.dpp_value = static_cast<std::uint32_t>(v), true;
  if (m == "row_mirror") return mods.dpp = true, mods.dpp_ctrl_kind = dpp_control::row_mirror, true;
  if (m == "row_half_mirror") return mods.dpp = true, mods.dpp_ctrl_kind = dpp_control::row_half_mirror, true;
  if (value_of("row_mask:", v)) return mods.row_mask = static_cast<std::uint32_t>(v), true;
  if (value_of("bank_mask:", v)) return mods.bank_mask = static_cast<std::uint32_t>(v), true;
  // For gfx11 bound_ctrl:0 is the field's 0 (llvm-mc-19 encodes it so; LLVM's modifier syntax
  // page: "bound_ctrl:0 (GFX11+) disables data sharing with invalid lanes"), unlike older
  // targets where both spellings set it. LLVM 19 prints bound_ctrl:1 when set, nothing when not.
  if (m == "bound_ctrl:1") return mods.bound_ctrl = true;
  if (m == "bound_ctrl:0") return mods.bound_ctrl = false, true;
  if (m == "fi:1") return mods.fetch_inactive = true;
  if (m == "fi:0") return true;
  if (m.starts_with("dpp8:[")) {
    mods.dpp8 = true;
    int index = 0;
    for (char c : m.substr(6))
      if (c >= '0' && c <= '7' && index < 8) mods.dpp8_lanes[index++] = static_cast<std::uint8_t>(c - '0');
    return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> parse_instruction(std::string_view text, ParsedInstruction& out) {
  text = trim(text);
  if (auto dual = text.find("::"); dual != std::string_view::npos) {
    out.vopd_y = std::make_unique<ParsedInstruction>();
    if (auto e = parse_instruction(text.substr(dual + 2), *out.vopd_y)) return e;
    text = trim(text.substr(0, dual));
  }
  const auto space = text.find(' ');
  std::string_view mnemonic = text.substr(0, space);
  std::string_view rest = space == std::string_view::npos ? std::string_view() : trim(text.substr(space + 1));
  // The longest suffix first: "_e64_dpp" (a VOP3 with DPP) is one suffix, not "_dpp" then "_e64".
  for (std::string_view suffix : {"_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa"})
    if (mnemonic.ends_with(suffix)) {
      out.suffix = std::string(suffix.substr(1));
      mnemonic.remove_suffix(suffix.size());
      break;
    }
  out.mnemonic = std::string(mnemonic);
  if (rest.empty()) return std::nullopt;
  // Scalar-control forms with operands in function syntax (s_waitcnt vmcnt(0), s_sendmsg
  // sendmsg(...), s_delay_alu ...) carry no data operands: keep the text as one literal-less
  // "unknown" modifier list for the handlers that care (none do: they are no-ops).
  if (out.mnemonic == "s_waitcnt" || out.mnemonic == "s_delay_alu" || out.mnemonic == "s_sendmsg" ||
      out.mnemonic == "s_sendmsg_rtn_b32" || out.mnemonic == "s_sendmsg_rtn_b64" || out.mnemonic == "s_waitcnt_depctr" ||
      out.mnemonic == "s_setreg_imm32_b32" || out.mnemonic == "s_getreg_b32" || out.mnemonic == "s_setreg_b32" ||
      out.mnemonic == "s_round_mode" || out.mnemonic == "s_denorm_mode" || out.mnemonic == "s_version") {
    auto parts = split_commas(rest);
    for (auto p : parts) {
      Operand op;
      if (parse_operand(p, op)) out.operands.push_back(op);
      else out.modifiers.unknown.emplace_back(p);
    }
    return std::nullopt;
  }
  auto parts = split_commas(rest);
  // The last operand is followed by the modifiers, separated by spaces.
  auto last = split_spaces(parts.back());
  parts.pop_back();
  std::size_t first_modifier = 0;
  if (!last.empty()) {
    Operand probe;
    if (parse_operand(last[0], probe) || !apply_modifier(last[0], out.modifiers)) {
      parts.push_back(last[0]);
      first_modifier = 1;
    } else {
      first_modifier = 1;  // the instruction has modifiers only (applied above)
    }
  }
  for (std::size_t i = first_modifier; i < last.size(); ++i)
    if (!apply_modifier(last[i], out.modifiers)) out.modifiers.unknown.emplace_back(last[i]);
  for (auto p : parts) {
    Operand op;
    if (!parse_operand(p, op)) return "operand '" + std::string(p) + "' is not understood";
    out.operands.push_back(op);
  }
  return std::nullopt;
}

}  // namespace gpuport::emu
