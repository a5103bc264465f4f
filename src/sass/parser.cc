#include "sass/parser.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

#include "sass/control.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gpuport::sass {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_digit(c) || is_alpha(c); }

// Listings pad columns with long runs of spaces; skip them eight bytes at a time.
constexpr char kEightSpaces[] = "        ";

std::uint64_t load8(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
const std::uint64_t kEightSpacesWord = load8(kEightSpaces);

constexpr bool kLittleEndian = std::endian::native == std::endian::little;

// Skips the run of ' ' at the front 16 (SSE2) or 8 bytes at a time, landing on the first
// other byte without a per-byte loop; the caller's per-byte loop handles tabs and the tail.
const char* skip_spaces(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i spaces = _mm_set1_epi8(' ');
  while (end - p >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, spaces))) & 0xffffu;
    if (other != 0) return p + __builtin_ctz(other);
    p += 16;
  }
#endif
  while (end - p >= 8) {
    std::uint64_t other = load8(p) ^ kEightSpacesWord;
    if (other != 0) return kLittleEndian ? p + __builtin_ctzll(other) / 8 : p;
    p += 8;
  }
  return p;
}

// The same backwards: returns the end of `p..end` without its trailing run of ' '.
const char* skip_spaces_back(const char* begin, const char* end) {
#if defined(__SSE2__)
  const __m128i spaces = _mm_set1_epi8(' ');
  while (end - begin >= 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(end - 16));
    unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, spaces))) & 0xffffu;
    if (other != 0) return end - 16 + (31 - __builtin_clz(other)) + 1;
    end -= 16;
  }
#endif
  while (end - begin >= 8) {
    std::uint64_t other = load8(end - 8) ^ kEightSpacesWord;
    if (other != 0) return kLittleEndian ? end - __builtin_clzll(other) / 8 : end;
    end -= 8;
  }
  return end;
}

std::string_view trim_left(std::string_view s) {
  if (s.empty() || !is_space(s.front())) return s;  // most operand pieces: no call-out work
  if (s.size() > 1 && !is_space(s[1])) return s.substr(1);  // ", R1": the one separator space
  const char* p = skip_spaces(s.data(), s.data() + s.size());
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

std::string_view trim_right(std::string_view s) {
  if (s.empty() || !is_space(s.back())) return s;
  if (s.size() > 1 && !is_space(s[s.size() - 2])) return s.substr(0, s.size() - 1);
  const char* e = skip_spaces_back(s.data(), s.data() + s.size());
  s.remove_suffix(static_cast<std::size_t>(s.data() + s.size() - e));
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view trim(std::string_view s) { return trim_right(trim_left(s)); }

// Hex digits only (no 0x); false on empty, junk or overflow past 64 bits.
constexpr std::array<std::int8_t, 256> kHexValue = [] {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<std::int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<std::int8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<std::int8_t>(c - 'A' + 10);
  return t;
}();

bool parse_hex_digits(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 16) return false;
  std::uint64_t v = 0;
  for (char c : s) {
    int d = kHexValue[static_cast<unsigned char>(c)];
    if (d < 0) return false;
    v = (v << 4) | static_cast<std::uint64_t>(d);
  }
  out = v;
  return true;
}

// "0x1f", "-0x10", "12", "-3" -> value. False when not an integer literal.
bool parse_integer(std::string_view s, std::int64_t& out) {
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  std::uint64_t v = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    if (!parse_hex_digits(s.substr(2), v)) return false;
  } else {
    if (s.size() > 20) return false;
    for (char c : s) {
      if (!is_digit(c)) return false;
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
  }
  out = negative ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  return true;
}

// Register-like names: "R12", "RZ", "UR4", "URZ", "P3", "PT", "UP1", "UPT", "B2".
// Returns the kind and index; false when `s` is not exactly such a name.
bool parse_register_name(std::string_view s, OperandKind& kind, std::uint16_t& index) {
  if (s.empty()) return false;
  auto number = [&](std::string_view digits, unsigned limit) {
    // No leading zeros and no number that has its own spelling (R255 is RZ, P7 is PT), so
    // that a classified register always prints back as written.
    if (digits.empty() || digits.size() > 3 || (digits.size() > 1 && digits[0] == '0')) return false;
    unsigned v = 0;
    for (char c : digits) {
      if (!is_digit(c)) return false;
      v = v * 10 + static_cast<unsigned>(c - '0');
    }
    if (v > limit) return false;
    index = static_cast<std::uint16_t>(v);
    return true;
  };
  switch (s[0]) {
    case 'R':
      kind = OperandKind::reg;
      if (s.size() == 2 && s[1] == 'Z') { index = 255; return true; }
      return number(s.substr(1), 254);
    case 'U':
      if (s.size() >= 2 && s[1] == 'R') {
        kind = OperandKind::uniform_reg;
        if (s.size() == 3 && s[2] == 'Z') { index = kZeroRegister; return true; }
        return number(s.substr(2), 254);
      }
      if (s.size() >= 2 && s[1] == 'P') {
        kind = OperandKind::uniform_predicate;
        if (s.size() == 3 && s[2] == 'T') { index = 7; return true; }
        return number(s.substr(2), 6);
      }
      return false;
    case 'P':
      kind = OperandKind::predicate;
      if (s.size() == 2 && s[1] == 'T') { index = 7; return true; }
      return number(s.substr(1), 6);
    case 'B':
      kind = OperandKind::barrier;
      return number(s.substr(1), 15);
    case 'S':
      if (s.size() < 3 || s[1] != 'B') return false;
      kind = OperandKind::scoreboard;
      return number(s.substr(2), 15);
    default:
      return false;
  }
}

// The leading identifier-ish run of a register operand ("R2" of "R2.64").
std::size_t name_length(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && (is_alnum(s[n]) || s[n] == '_')) ++n;
  return n;
}

// "R2.64" / "UR4" / "R1.X4" inside an address.
bool parse_address_register(std::string_view s, AddressRegister& out) {
  std::size_t n = name_length(s);
  OperandKind kind{};
  std::uint16_t index = 0;
  if (!parse_register_name(s.substr(0, n), kind, index)) return false;
  if (kind != OperandKind::reg && kind != OperandKind::uniform_reg) return false;
  std::string_view suffix = s.substr(n);
  if (!suffix.empty() && suffix.front() != '.') return false;
  if (!out.suffix.assign(suffix)) return false;
  out.kind = kind;
  out.index = index;
  out.present = true;
  return true;
}

// The inside of [...]: terms joined by '+' (or a '-' before an offset).
bool parse_address_terms(std::string_view s, MemoryAddress& out) {
  s = trim(s);
  if (s.empty()) return false;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t end = pos + 1;
    while (end < s.size() && s[end] != '+' && !(s[end] == '-' && s[end - 1] != '+')) ++end;
    std::string_view term = trim(s.substr(pos, end - pos));
    if (term.empty()) return false;
    std::int64_t v = 0;
    if (parse_integer(term, v)) {
      if (out.has_offset) return false;
      out.offset = v;
      out.has_offset = true;
    } else {
      AddressRegister r;
      if (!parse_address_register(term, r)) return false;
      if (r.suffix.find(".64") != std::string::npos) out.wide = true;
      if (!out.base.present) out.base = std::move(r);
      else if (!out.index.present) out.index = std::move(r);
      else return false;
    }
    if (end < s.size() && s[end] == '+') ++end;
    pos = end;
  }
  return true;
}

bool is_float_word(std::string_view s) {
  return s == "INF" || s == "NAN" || s == "QNAN" || s == "SNAN";
}

// Immediate core (sign included): integer, float or INF/NAN forms.
bool parse_immediate(std::string_view s, SassOperand& op) {
  if (s.empty()) return false;
  std::int64_t iv = 0;
  if (parse_integer(s, iv)) {
    op.kind = OperandKind::immediate;
    op.value = iv;
    op.text.assign(s);
    return true;
  }
  std::string_view body = s;
  bool negative = false;
  if (body.front() == '-' || body.front() == '+') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (is_float_word(body)) {
    op.kind = OperandKind::immediate;
    op.is_float = true;
    double v = body == "INF" ? __builtin_inf() : __builtin_nan("");
    op.float_value = negative ? -v : v;
    op.text.assign(s);
    return true;
  }
  if (body.empty() || !(is_digit(body.front()) || body.front() == '.')) return false;
  if (std::size_t at = body.find('@'); at != std::string_view::npos) {
    // Relocated immediate: 32@lo(symbol), 32@hi(symbol); the value comes from the linker.
    if (at == 0 || body.back() != ')' || body.find('(', at) == std::string_view::npos) return false;
    op.kind = OperandKind::immediate;
    op.text.assign(s);
    return true;
  }
  double v = 0.0;
  auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (ec != std::errc() || ptr != body.data() + body.size()) return false;
  op.kind = OperandKind::immediate;
  op.is_float = true;
  op.float_value = negative ? -v : v;
  op.text.assign(s);
  return true;
}

// Finds the ']' matching the '[' at s[open].
std::size_t matching_bracket(std::string_view s, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == '[') ++depth;
    else if (s[i] == ']' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// c[0x0][0x160], c[0x0] [0x8], c[0x3][R1+0x10], cx[UR4][R0+0x8]; `rest` gets what follows.
bool parse_constant(std::string_view s, SassOperand& op, std::string_view& rest) {
  std::size_t open = s.front() == 'c' && s.size() > 1 && s[1] == 'x' ? 2 : 1;
  if (open >= s.size() || s[open] != '[') return false;
  std::size_t close = matching_bracket(s, open);
  if (close == std::string_view::npos) return false;
  std::string_view bank = trim(s.substr(open + 1, close - open - 1));
  std::size_t second = close + 1;
  while (second < s.size() && s[second] == ' ') ++second;
  if (second >= s.size() || s[second] != '[') return false;
  std::size_t close2 = matching_bracket(s, second);
  if (close2 == std::string_view::npos) return false;
  std::int64_t b = 0;
  if (parse_integer(bank, b)) {
    op.bank = static_cast<std::uint32_t>(b);
  } else {
    AddressRegister r;
    if (!parse_address_register(bank, r)) return false;
    op.address.index = std::move(r);  // the bank register of cx[UR4][...]
  }
  std::string_view offset = s.substr(second + 1, close2 - second - 1);
  std::int64_t off = 0;
  if (parse_integer(trim(offset), off)) {
    op.value = off;
  } else {
    MemoryAddress a;
    if (!parse_address_terms(offset, a)) return false;
    op.value = a.offset;
    op.address.base = std::move(a.base);
    op.address.offset = a.offset;
    op.address.has_offset = a.has_offset;
  }
  op.kind = OperandKind::constant;
  op.text.assign(s.substr(0, close2 + 1));
  rest = s.substr(close2 + 1);
  return true;
}

// [R2.64+0x10], desc[UR4][R2.64], [UR4+R1]; `rest` gets what follows.
bool parse_memory(std::string_view s, SassOperand& op, std::string_view& rest) {
  std::size_t open = 0;
  std::string_view descriptor;
  if (s.front() != '[') {
    std::size_t n = name_length(s);
    if (n == 0 || n >= s.size() || s[n] != '[') return false;
    std::size_t close = matching_bracket(s, n);
    if (close == std::string_view::npos || close + 1 >= s.size() || s[close + 1] != '[') return false;
    descriptor = s.substr(0, close + 1);
    open = close + 1;
  }
  std::size_t close = matching_bracket(s, open);
  if (close == std::string_view::npos) return false;
  MemoryAddress a;
  if (!parse_address_terms(s.substr(open + 1, close - open - 1), a)) {
    // An empty or exotic address keeps its text but is still a memory operand.
    a = MemoryAddress{};
  }
  if (!a.descriptor.assign(descriptor)) return false;
  op.kind = OperandKind::memory;
  op.address = std::move(a);
  op.text.assign(s.substr(0, close + 1));
  rest = s.substr(close + 1);
  return true;
}

}  // namespace

namespace {

// Classifies `text` into `op` (a fresh operand); false when it is not a known form. Filling
// the caller's operand in place keeps the big operand value from being moved per operand.
bool classify_operand(std::string_view s, SassOperand& op);

}  // namespace

SassOperand parse_operand(std::string_view text) {
  SassOperand op;
  std::string_view s = trim(text);
  if (!classify_operand(s, op)) {
    op = SassOperand{};
    op.text.assign(s);
  }
  return op;
}

namespace {

void parse_operand_into(std::string_view text, SassOperand& op) {
  std::string_view s = trim(text);
  if (!classify_operand(s, op)) {
    op = SassOperand{};
    op.text.assign(s);
  }
}

bool classify_operand(std::string_view s, SassOperand& op) {
  auto unknown = [&]() { return false; };
  if (s.empty()) return unknown();

  std::string_view core = s;
  // Prefix modifiers. A sign in front of a number or INF/NAN belongs to the immediate.
  for (;;) {
    if (core.empty()) return unknown();
    char c = core.front();
    if (c == '-' && core.size() > 1 && !is_digit(core[1]) && core[1] != '.' &&
        !is_float_word(core.substr(1))) {
      op.negate = true;
      core.remove_prefix(1);
    } else if (c == '!') {
      op.logical_not = true;
      core.remove_prefix(1);
    } else if (c == '~') {
      op.bitwise_not = true;
      core.remove_prefix(1);
    } else {
      break;
    }
  }
  if (core.front() == '|') {
    std::size_t close = core.find('|', 1);
    if (close == std::string_view::npos || close + 1 != core.size()) {
      // |x| followed by a suffix: |R2|.H1
      if (close == std::string_view::npos || core[close + 1] != '.') return unknown();
    }
    op.absolute = true;
    std::string_view inner = core.substr(1, close - 1);
    std::string_view after = core.substr(close + 1);
    SassOperand innerop = parse_operand(inner);
    if (innerop.kind == OperandKind::unknown || innerop.negate || innerop.absolute ||
        innerop.logical_not || innerop.bitwise_not || !innerop.suffix.empty())
      return unknown();
    innerop.negate = op.negate;
    innerop.absolute = true;
    innerop.logical_not = op.logical_not;
    innerop.bitwise_not = op.bitwise_not;
    if (!innerop.suffix.assign(after)) return unknown();
    op = std::move(innerop);
    return true;
  }

  std::string_view rest;
  char c = core.front();
  if (c == '`') {
    // `(.L_x_3) or `(function)
    if (core.size() < 4 || core[1] != '(') return unknown();
    std::size_t close = core.find(')');
    if (close == std::string_view::npos) return unknown();
    op.kind = OperandKind::label;
    op.text.assign(core.substr(2, close - 2));
    rest = core.substr(close + 1);
  } else if (c == 'c' && core.size() > 1 && (core[1] == '[' || (core[1] == 'x' && core.size() > 2 && core[2] == '['))) {
    if (!parse_constant(core, op, rest)) return unknown();
  } else if (c == '[' || (is_alpha(c) && name_length(core) < core.size() && core[name_length(core)] == '[')) {
    if (!parse_memory(core, op, rest)) return unknown();
  } else if ((c == 'S' && core.size() > 2 && core[1] == 'R' && (core[2] == '_' || core == "SRZ")) ||
             (c == 'P' && core.size() == 2 && core[1] == 'R') ||
             (c == 'U' && core.size() == 3 && core[1] == 'P' && core[2] == 'R')) {
    op.kind = OperandKind::special_reg;
    op.text.assign(core);  // SR_TID.X: the ".X" is part of the name
    rest = {};
  } else if (is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'I' || c == 'N' || c == 'Q') {
    if (!parse_immediate(core, op)) {
      if (op.negate || op.logical_not || op.bitwise_not) return unknown();
      return unknown();
    }
    rest = {};
  } else {
    std::size_t n = name_length(core);
    OperandKind kind{};
    std::uint16_t index = 0;
    if (!parse_register_name(core.substr(0, n), kind, index)) return unknown();
    op.kind = kind;
    op.index = index;
    rest = core.substr(n);
  }
  if (!rest.empty()) {
    if (rest.front() != '.' || !op.suffix.assign(rest)) return unknown();
  }
  if ((op.logical_not && op.kind != OperandKind::predicate && op.kind != OperandKind::uniform_predicate) ||
      (op.kind == OperandKind::barrier && (op.negate || op.logical_not))) {
    return unknown();
  }
  return true;
}

}  // namespace

namespace {

// Opcodes whose integer operand is a code address (cuobjdump prints "BRA 0x138" where
// nvdisasm prints a label).
constexpr std::string_view kBranchOpcodes[] = {"BRA", "BRX", "SSY", "PBK", "PCNT", "PRET", "CAL", "JCAL",
                                               "JMP", "JMX", "BSSY", "CALL", "WARPSYNC_BRA"};

// Operand pieces are a few bytes: a plain loop beats a memchr call.
bool has_space(std::string_view s) {
  for (char c : s)
    if (c == ' ') return true;
  return false;
}

bool is_branch_opcode(std::string_view opcode) {
  for (auto b : kBranchOpcodes)
    if (b == opcode) return true;
  return false;
}

}  // namespace

bool parse_instruction_text(std::string_view text, SassInstruction& out) {
  std::string_view s = trim(text);
  if (!s.empty() && s.front() == '@') {
    std::size_t n = 1;
    while (n < s.size() && !is_space(s[n])) ++n;
    std::string_view g = s.substr(1, n - 1);
    PredicateGuard guard;
    if (!g.empty() && g.front() == '!') {
      guard.negated = true;
      g.remove_prefix(1);
    }
    OperandKind kind{};
    std::uint16_t index = 0;
    if (!parse_register_name(g, kind, index) ||
        (kind != OperandKind::predicate && kind != OperandKind::uniform_predicate))
      return false;
    guard.uniform = kind == OperandKind::uniform_predicate;
    guard.index = static_cast<std::uint8_t>(index);
    out.guard = guard;
    s = trim_left(s.substr(n));
  }
  // Opcode and modifiers.
  std::size_t n = 0;
  while (n < s.size() && !is_space(s[n]) && s[n] != ';') ++n;
  std::string_view mnemonic = s.substr(0, n);
  if (mnemonic.empty()) return false;
  std::size_t dot = mnemonic.find('.');
  out.opcode.assign(mnemonic.substr(0, dot));
  if (out.opcode.empty()) return false;
  for (char c : out.opcode)
    if (!(is_alnum(c) || c == '_')) return false;
  if (dot != std::string_view::npos) out.modifiers.assign_dotted(mnemonic.substr(dot));
  const bool semicolon_after_mnemonic = n < s.size() && s[n] == ';';
  s = trim_left(s.substr(n));
  // Annotation (*"..."*) closes the operand list.
  std::size_t ann = s.find("(*");
  std::string_view operands = s;
  if (ann != std::string_view::npos) {
    std::size_t ann_end = s.find("*)", ann + 2);
    if (ann_end == std::string_view::npos) return false;
    out.annotation.assign(s.substr(ann, ann_end + 2 - ann));
    operands = s.substr(0, ann);
    std::string_view after = trim(s.substr(ann_end + 2));
    out.terminated = after == ";";
    if (!after.empty() && after != ";") return false;
  } else {
    std::string_view t = trim(operands);
    out.terminated = !t.empty() && t.back() == ';';
    if (out.terminated) {
      t.remove_suffix(1);
      out.tight_terminator = t.empty() ? semicolon_after_mnemonic : !is_space(t.back());
    }
    operands = t;
  }
  operands = trim(operands);
  // Split at top-level commas.
  out.operands.reserve(static_cast<std::size_t>(std::count(operands.begin(), operands.end(), ',')) + 1);
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= operands.size(); ++i) {
    char c = i < operands.size() ? operands[i] : ',';
    if (c == '[' || c == '{' || c == '(') ++depth;
    else if ((c == ']' || c == '}' || c == ')') && depth > 0) --depth;
    else if (c == ',' && depth == 0) {
      std::string_view raw = operands.substr(start, i - start);
      std::string_view piece = trim(raw);
      if (!piece.empty() && !has_space(piece)) {
        // The common case: one operand in the slot.
        parse_operand_into(piece, out.operands.emplace_back());
        if (i < operands.size() && is_space(raw.back())) out.operands.back().space_before_comma = true;
      } else if (!piece.empty() || i < operands.size()) {
        // One slot may hold space-separated operands ("R2 `(kernel)", "R2 -0x8d0"); a space
        // before '[' stays inside (Pascal prints "c[0x0] [0x8]").
        int inner = 0;
        std::size_t from = 0;
        bool first = true;
        for (std::size_t j = 0; j <= piece.size(); ++j) {
          char d = j < piece.size() ? piece[j] : ' ';
          if (d == '[' || d == '{' || d == '(') ++inner;
          else if ((d == ']' || d == '}' || d == ')') && inner > 0) --inner;
          else if (d == ' ' && inner == 0 && (j == piece.size() || (j + 1 < piece.size() && piece[j + 1] != '['))) {
            std::string_view part = trim(piece.substr(from, j - from));
            if (!part.empty() || (first && j == piece.size())) {
              parse_operand_into(part, out.operands.emplace_back());
              out.operands.back().follows_with_space = !first;
              first = false;
            }
            from = j + 1;
          }
        }
        // An empty slot is printed as ", ," whose one space belongs to the separator: only a
        // second space there is a space before the comma (keeps print -> parse -> print stable).
        if (i < operands.size() && raw.size() > (piece.empty() ? 1u : 0u) && is_space(raw.back()))
          out.operands.back().space_before_comma = true;
      }
      start = i + 1;
    }
  }
  // Cheap test first: an integer 0x immediate is rare, the opcode comparison is not free.
  auto hex_immediate = [](const SassOperand& op) {
    return op.kind == OperandKind::immediate && !op.is_float && op.text.starts_with("0x");
  };
  if (std::any_of(out.operands.begin(), out.operands.end(), hex_immediate) && is_branch_opcode(out.opcode)) {
    for (auto& op : out.operands)
      if (hex_immediate(op)) op.kind = OperandKind::label;
  }
  return true;
}

namespace {

struct LineParser {
  LineParser(const SassParseOptions& o, SassParseResult& r) : options(o), result(r) {}
  const SassParseOptions& options;
  SassParseResult& result;
  std::uint32_t line_number = 0;
  std::size_t suppressed = 0;

  SassProgram* program = nullptr;
  SassFunction* function = nullptr;
  bool in_text_section = false;
  EncodingFamily family = EncodingFamily::unknown;
  std::vector<SassLabel> pending_labels;
  std::uint64_t bundle_address = 0;
  std::uint64_t bundle_word = 0;
  bool have_bundle = false;
  bool dropped_instruction = false;  // the last instruction line was refused: its words are skipped

  void error(std::uint32_t column, std::string code, std::string message) {
    if (result.diagnostics.size() >= options.max_diagnostics) {
      ++suppressed;
      return;
    }
    Diagnostic d;
    d.severity = Severity::error;
    d.code = std::move(code);
    d.message = std::move(message);
    d.location = {options.file_name, line_number, column};
    result.diagnostics.push_back(std::move(d));
  }

  SassProgram& current_program() {
    if (program == nullptr) {
      result.programs.emplace_back();
      program = &result.programs.back();
      program->arch = options.arch;
      family = encoding_family(program->arch);
    }
    return *program;
  }

  void finish_function() {
    if (function == nullptr) return;
    check_branch_addresses();
    std::uint64_t end = 0;
    if (!function->instructions.empty()) {
      const auto& last = function->instructions.back();
      end = last.address + (family == EncodingFamily::maxwell ? 8 : 16);
    }
    for (auto& l : pending_labels) {
      l.address = end;
      l.instruction_index = function->instructions.size();
      function->labels.push_back(std::move(l));
    }
    pending_labels.clear();
    function = nullptr;
    have_bundle = false;
  }

  // A branch or reconvergence target printed as an address (cuobjdump's form) must be the
  // address of an instruction of the function: text that says otherwise is damaged, and a
  // translation of it would guess.
  void check_branch_addresses() {
    static constexpr std::string_view kLocalTargets[] = {"BRA", "SSY", "PBK", "PCNT", "BSSY"};
    for (const SassInstruction& inst : function->instructions) {
      if (std::find(std::begin(kLocalTargets), std::end(kLocalTargets), inst.opcode) == std::end(kLocalTargets)) continue;
      for (const SassOperand& op : inst.operands) {
        if (op.kind != OperandKind::label || !op.text.starts_with("0x")) continue;
        std::uint64_t target = 0;
        const char* first = op.text.data() + 2;
        const char* last = op.text.data() + op.text.size();
        auto [end, ec] = std::from_chars(first, last, target, 16);
        if (ec == std::errc() && end == last && function->find_instruction(target) != SassFunction::npos) continue;
        const std::uint32_t saved = line_number;
        line_number = inst.line;
        error(1, "bad-branch-target",
              fmt::format("{} {}: {} is not the address of an instruction of {}", inst.opcode, std::string_view(op.text), std::string_view(op.text),
                          function->name.empty() ? std::string("the function") : function->name));
        line_number = saved;
      }
    }
  }

  void start_function(std::string name, std::string section) {
    finish_function();
    SassProgram& p = current_program();
    p.functions.emplace_back();
    function = &p.functions.back();
    function->name = std::move(name);
    function->section = std::move(section);
    // Kernels run to hundreds of instructions: skip the first rounds of vector growth, each of
    // which moves every (large) instruction.
    function->instructions.reserve(128);
    in_text_section = true;
  }

  void set_arch(int arch) {
    if (arch <= 0) return;
    SassProgram& p = current_program();
    if (p.arch == 0 || options.arch == 0) p.arch = arch;
    family = encoding_family(p.arch);
  }

  // /*0040*/ ... : the address field; returns the rest of the line or false.
  static bool split_address(std::string_view s, std::uint64_t& address, std::string_view& rest) {
    if (s.size() < 5 || s[0] != '/' || s[1] != '*') return false;
    // The address is a few hex digits: a plain loop beats a find() call.
    std::size_t close = 2;
    while (close + 1 < s.size() && !(s[close] == '*' && s[close + 1] == '/')) ++close;
    if (close + 1 >= s.size()) return false;
    if (!parse_hex_digits(s.substr(2, close - 2), address)) return false;
    rest = s.substr(close + 2);
    return true;
  }

  // "/* 0x001cfc00e22007f6 */" -> word.
  static bool parse_word_comment(std::string_view s, std::uint64_t& word) {
    s = trim(s);
    if (s.size() < 8 || !s.starts_with("/*") || !s.ends_with("*/")) return false;
    std::string_view inner = trim(s.substr(2, s.size() - 4));
    if (inner.size() < 3 || inner[0] != '0' || (inner[1] != 'x' && inner[1] != 'X')) return false;
    return parse_hex_digits(inner.substr(2), word);
  }

  void on_word(std::uint64_t word, std::uint32_t column) {
    if (dropped_instruction) return;  // the encoding of an instruction refused for its address
    if (function == nullptr) {
      error(column, "sass-stray-encoding", "encoding word outside a function");
      return;
    }
    auto& insts = function->instructions;
    if (family == EncodingFamily::unknown) {
      family = insts.empty() ? EncodingFamily::maxwell : EncodingFamily::volta;
    }
    if (!insts.empty() && insts.back().encoding_words == 0) {
      // Pascal dual-issue pairs print the closing instruction's word on the next line.
      insts.back().encoding[0] = word;
      insts.back().encoding_words = 1;
      return;
    }
    if (family == EncodingFamily::maxwell) {
      std::uint64_t addr = insts.empty() ? 0 : (insts.back().address & ~std::uint64_t{31}) + 32;
      function->control_words.emplace_back(addr, word);
      bundle_address = addr;
      bundle_word = word;
      have_bundle = true;
      return;
    }
    if (insts.empty() || insts.back().encoding_words != 1) {
      // A word pair with no text: an instruction nvdisasm could not decode. Keep it.
      SassInstruction inst;
      inst.undecoded = true;
      inst.address = insts.empty() ? 0 : insts.back().address + 16;
      inst.line = line_number;
      inst.encoding[0] = word;
      inst.encoding_words = 1;
      for (auto& l : pending_labels) {
        l.address = inst.address;
        l.instruction_index = insts.size();
        function->labels.push_back(std::move(l));
      }
      pending_labels.clear();
      insts.push_back(std::move(inst));
      return;
    }
    insts.back().encoding[1] = word;
    insts.back().encoding_words = 2;
    insts.back().control = decode_volta_control(word);
  }

  void on_instruction(std::uint64_t address, std::string_view rest, std::uint32_t column) {
    if (function == nullptr) {
      // nvdisasm -c without section lines, or a fragment: an anonymous function.
      start_function("", "");
    }
    // Addresses only grow within a function: a listing whose addresses repeat or go back is
    // damaged (lines lost, repeated or reordered), and its branches would land elsewhere.
    if (!function->instructions.empty() && address <= function->instructions.back().address) {
      error(column, "bad-instruction-address",
            fmt::format("instruction address /*{:04x}*/ {} /*{:04x}*/ of the instruction before: the listing is out of order", address,
                        address == function->instructions.back().address ? "repeats" : "goes back from", function->instructions.back().address));
      dropped_instruction = true;
      return;
    }
    dropped_instruction = false;
    // Built in place: a SassInstruction is large, and moving one per line shows in the profile.
    SassInstruction& inst = function->instructions.emplace_back();
    inst.address = address;
    inst.line = line_number;
    std::string_view s = trim_left(rest);
    if (!s.empty() && s.front() == '{') {
      inst.dual_issue_begin = true;
      s = trim_left(s.substr(1));
    }
    // Trailing encoding word.
    std::string_view body = s;
    // The word comment ends the line: search back for its "/*" with a plain loop.
    std::size_t word_at = std::string_view::npos;
    for (std::size_t k = s.size(); k >= 2; --k)
      if (s[k - 2] == '/' && s[k - 1] == '*') {
        word_at = k - 2;
        break;
      }
    std::uint64_t word = 0;
    bool has_word = false;
    if (word_at != std::string_view::npos && parse_word_comment(s.substr(word_at), word)) {
      body = s.substr(0, word_at);
      has_word = true;
    }
    body = trim(body);
    if (!body.empty() && body.back() == '}' && body.find("(*") == std::string_view::npos) {
      inst.dual_issue_end = true;
      body = trim(body.substr(0, body.size() - 1));
    } else if (!body.empty() && body.back() == '}') {
      std::size_t ann_end = body.rfind("*)");
      if (ann_end != std::string_view::npos && ann_end < body.size() - 1) {
        inst.dual_issue_end = true;
        body = trim(body.substr(0, body.size() - 1));
      }
    }
    if (!parse_instruction_text(body, inst)) {
      error(column, "sass-bad-instruction", "cannot parse instruction '" + std::string(body.substr(0, 80)) + "'");
      function->instructions.pop_back();
      return;
    }
    if (family == EncodingFamily::unknown) {
      family = (address & 0xf) == 8 ? EncodingFamily::maxwell : EncodingFamily::unknown;
    }
    if (has_word) {
      inst.encoding[0] = word;
      inst.encoding_words = 1;
    }
    if (family == EncodingFamily::maxwell && have_bundle && address > bundle_address &&
        address < bundle_address + 32) {
      inst.control = decode_maxwell_control(bundle_word, static_cast<int>((address - bundle_address) / 8) - 1);
    }
    for (auto& l : pending_labels) {
      l.address = address;
      l.instruction_index = function->instructions.size() - 1;
      function->labels.push_back(std::move(l));
    }
    pending_labels.clear();
  }

  void on_directive(std::string_view s, std::uint32_t column) {
    std::size_t n = 0;
    while (n < s.size() && !is_space(s[n])) ++n;
    std::string_view name = s.substr(0, n);
    std::string_view args = trim(s.substr(n));
    if (name == ".section") {
      std::size_t comma = args.find(',');
      std::string_view sec = trim(args.substr(0, comma));
      SassProgram& p = current_program();
      p.sections.push_back({std::string(sec), comma == std::string_view::npos ? std::string()
                                                                             : std::string(args.substr(comma + 1))});
      if (sec.starts_with(".text.")) {
        start_function(std::string(sec.substr(6)), std::string(sec));
      } else {
        finish_function();
        in_text_section = false;
      }
    } else if (name == ".headerflags") {
      SassProgram& p = current_program();
      p.header_flags.assign(args);
      std::size_t at = args.find("EF_CUDA_SM");
      if (at != std::string_view::npos) {
        std::size_t d = at + 10;
        int arch = 0;
        while (d < args.size() && is_digit(args[d]) && arch < 10000) arch = arch * 10 + (args[d++] - '0');
        set_arch(arch);
      }
    } else if (name == ".target") {
      set_arch(parse_arch_prefix(args));  // CUDA 13 nvdisasm says ".target sm_100" instead of headerflags
    } else if (name == ".sectioninfo") {
      std::size_t at = args.find("SHI_REGISTERS=");
      if (at != std::string_view::npos && function != nullptr) {
        std::size_t d = at + 14;
        int regs = 0;
        while (d < args.size() && is_digit(args[d]) && regs < 100000) regs = regs * 10 + (args[d++] - '0');
        function->register_count = regs;
      }
    } else if (name == ".other") {
      if (function != nullptr && args.find("STO_CUDA_ENTRY") != std::string_view::npos &&
          args.starts_with(function->name) && args.size() > function->name.size() &&
          args[function->name.size()] == ',')
        function->is_entry = true;
    } else if (name == ".weak") {
      if (function != nullptr && args == function->name) function->is_weak = true;
    } else if (name == ".global" || name == ".type" || name == ".size" || name == ".align" ||
               name == ".elftype" || name == ".byte" || name == ".short" || name == ".word" ||
               name == ".dword" || name == ".zero" || name == ".nv.info" || name == ".set" ||
               name == ".version" || name == ".address_size") {
      // Layout facts the model does not keep.
    } else {
      (void)column;  // other directives are harmless: keep going
    }
  }

  // cuobjdump -sass framing lines. True when `s` was one.
  bool on_cuobjdump_line(std::string_view s) {
    if (s.starts_with("code for sm_")) {
      finish_function();
      result.programs.emplace_back();
      program = &result.programs.back();
      program->arch = 0;
      set_arch(parse_arch_prefix(trim(s.substr(9))));
      return true;
    }
    if (s.starts_with("Function : ")) {
      start_function(std::string(trim(s.substr(11))), "");
      return true;
    }
    // cuobjdump's per-image header; a key with an empty value ends at '=' once trimmed (CUDA 13
    // prints "ptxasOptions =" for code built without ptxas options).
    if (s.starts_with("Fatbin") || s.starts_with("arch =") || s.starts_with("code version =") ||
        s.starts_with("host =") || s.starts_with("compile_size =") || s.starts_with("producer =") ||
        s.starts_with("identifier =") || s.starts_with("has debug info") || s.starts_with("compressed") ||
        s.starts_with("ptxasOptions =") || s.starts_with("===") || s.starts_with("member ")) {
      return true;
    }
    if (s.starts_with("....")) {
      finish_function();
      return true;
    }
    return false;
  }

  void on_line(std::string_view raw) {
    std::string_view s = trim_left(raw);
    std::uint32_t column = static_cast<std::uint32_t>(s.data() - raw.data()) + 1;
    s = trim(s);
    if (s.empty()) return;
    if (s.starts_with("//")) return;
    if (s.starts_with("/*")) {
      std::uint64_t word = 0;
      if (s.size() > 4 && s[2] == ' ' && parse_word_comment(s, word)) {
        if (in_text_section || function != nullptr) on_word(word, column);
        return;
      }
      std::uint64_t address = 0;
      std::string_view rest;
      if (split_address(s, address, rest)) {
        // Offsets inside data sections (.nv.info ...) carry .byte/.word data, not code.
        rest = trim_left(rest);  // on_instruction trims again: a no-op now
        if (rest.starts_with(".")) return;
        if (!in_text_section && program != nullptr && !program->sections.empty()) return;
        on_instruction(address, rest, column);
        return;
      }
      error(column, "sass-unparsed-line", "unrecognised comment line");
      return;
    }
    if (s.back() == ':' && s.find_first_of(" \t") == std::string_view::npos) {
      if (function != nullptr) pending_labels.push_back({std::string(s.substr(0, s.size() - 1)), 0, 0});
      return;  // labels in data sections (.L_1:) only mark offsets there
    }
    if (s.front() == '.' && s.size() > 1 && s[1] != '.') {
      on_directive(s, column);
      return;
    }
    if (on_cuobjdump_line(s)) return;
    std::string_view head = s.substr(0, std::min<std::size_t>(s.size(), 60));
    error(column, "sass-unparsed-line", "unrecognised line '" + std::string(head) + "'");
  }
};

}  // namespace

SassParseResult parse_sass(std::string_view text, const SassParseOptions& options) {
  SassParseResult result;
  LineParser parser(options, result);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const char* nl = static_cast<const char*>(std::memchr(text.data() + pos, '\n', text.size() - pos));
    std::size_t end = nl == nullptr ? text.size() : static_cast<std::size_t>(nl - text.data());
    ++parser.line_number;
    parser.on_line(text.substr(pos, end - pos));
    pos = end + 1;
  }
  parser.finish_function();
  if (parser.suppressed > 0) {
    Diagnostic d;
    d.severity = Severity::note;
    d.code = "sass-diagnostics-suppressed";
    d.message = std::to_string(parser.suppressed) + " more problems not shown";
    d.location = {options.file_name, 0, 0};
    result.diagnostics.push_back(std::move(d));
  }
  if (result.programs.empty() && !text.empty()) {
    Diagnostic d;
    d.severity = Severity::warning;
    d.code = "sass-empty";
    d.message = "no SASS found in the input";
    d.location = {options.file_name, 0, 0};
    result.diagnostics.push_back(std::move(d));
  }
  return result;
}

}  // namespace gpuport::sass
