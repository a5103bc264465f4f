// Float instructions: FADD/FMUL/FFMA (and their 32I forms), FSETP, FSET, FSEL, FMNMX, FCHK, MUFU,
// FRND, the conversions F2I/I2F/I2FP/F2F/F2FP, the f64 DADD/DMUL/DFMA/DSETP/DMNMX, and the packed
// 16-bit HADD2/HMUL2/HFMA2/HSETP2/HSET2/HMNMX2. Semantics in semantics/sass_float.cc and
// sass_half.cc; every modifier a handler does not know is refused.
#include <fmt/format.h>

#include <bit>
#include <initializer_list>
#include <string_view>

#include "lift/lift_context.h"

namespace gpuport::lift {

namespace {

using sass::OperandKind;
using sass::SassInstruction;
using sass::SassOperand;

constexpr std::string_view kCompareNames[] = {"F",   "LT",  "EQ",  "LE",  "GT",  "NE",  "GE",  "NUM",
                                              "NAN", "LTU", "EQU", "LEU", "GTU", "NEU", "GEU", "T"};
constexpr std::string_view kBooleanNames[] = {"AND", "OR", "XOR"};
constexpr std::string_view kRoundingNames[] = {"RN", "RM", "RP", "RZ"};

bool is_predicate(const SassOperand& op) {
  return op.kind == OperandKind::predicate || op.kind == OperandKind::uniform_predicate;
}

// True when every modifier of `ins` is in one of the lists; otherwise refuses naming the first
// one that is not.
bool known_modifiers(LiftContext& cx, const SassInstruction& ins, std::initializer_list<std::string_view> allowed,
                     bool compares = false, bool booleans = false, bool roundings = false) {
  for (auto m : ins.modifiers) {
    const std::string_view name(m);
    bool ok = false;
    for (auto a : allowed) ok = ok || a == name;
    if (compares)
      for (auto a : kCompareNames) ok = ok || a == name;
    if (booleans)
      for (auto a : kBooleanNames) ok = ok || a == name;
    if (roundings)
      for (auto a : kRoundingNames) ok = ok || a == name;
    if (!ok) return cx.refuse(fmt::format("{} modifier .{} is not supported", std::string_view(ins.opcode), name));
  }
  return true;
}

// Operand suffixes other than .reuse that a handler does not interpret.
bool plain_operands(LiftContext& cx, const SassInstruction& ins, std::size_t first = 0) {
  for (std::size_t i = first; i < ins.operands.size(); ++i) {
    const auto& op = ins.operands[i];
    std::string_view suffix(op.suffix);
    if (suffix.starts_with(".reuse")) suffix.remove_prefix(6);
    if (!suffix.empty()) return cx.refuse(fmt::format("operand suffix {} is not supported here", std::string_view(op.suffix)));
  }
  return true;
}

// .RN (default) 0, .RM 1, .RP 2, .RZ 3.
int rounding_code(const SassInstruction& ins) {
  if (ins.has_modifier("RM")) return 1;
  if (ins.has_modifier("RP")) return 2;
  if (ins.has_modifier("RZ")) return 3;
  return 0;
}

// FRND/F2I integer rounding: default to nearest even 0, FLOOR 1, CEIL 2, TRUNC 3.
int integer_rounding_code(const SassInstruction& ins) {
  if (ins.has_modifier("FLOOR")) return 1;
  if (ins.has_modifier("CEIL")) return 2;
  if (ins.has_modifier("TRUNC")) return 3;
  return 0;
}

// FADD/FMUL d, a, b and FFMA d, a, b, c with .FTZ, .SAT and a rounding mode.
template <int Sources>
bool lift_arithmetic(LiftContext& cx, const SassInstruction& ins, const char* semantic) {
  if (!known_modifiers(cx, ins, {"FTZ", "SAT"}, false, false, true) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 1 + Sources) return cx.refuse("too few operands");
  std::vector<llvm::Value*> args;
  for (int i = 0; i < Sources; ++i) args.push_back(cx.read_float(ops[1 + i]));
  args.push_back(cx.u32(rounding_code(ins)));
  args.push_back(cx.flag(ins.has_modifier("FTZ")));
  args.push_back(cx.flag(ins.has_modifier("SAT")));
  cx.write(ops[0], cx.semantic(semantic, std::move(args)));
  return true;
}

// p = r bop c and, unless q is PT, q = !r bop c: the two outputs of the *SETP compares.
void write_compare_pair(LiftContext& cx, const SassOperand& p, const SassOperand& q, llvm::Value* r, llvm::Value* c, int bop) {
  cx.write_predicate(p, cx.semantic("bool_op", {r, c, cx.u32(bop)}));
  if (!q.is_true_predicate()) cx.write_predicate(q, cx.semantic("bool_op", {cx.builder().CreateNot(r), c, cx.u32(bop)}));
}

// FSETP.cmp[.FTZ].bop p, q, a, b, c.
bool lift_fsetp(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"FTZ"}, true, true) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  const int cmp = float_compare_code(ins), bop = boolean_op_code(ins);
  if (cmp < 0 || bop < 0 || ops.size() < 5) return cx.refuse("an FSETP form without a comparison or boolean operation");
  llvm::Value* r = cx.semantic("fcmp", {cx.read_float(ops[2]), cx.read_float(ops[3]), cx.u32(cmp), cx.flag(ins.has_modifier("FTZ"))});
  write_compare_pair(cx, ops[0], ops[1], r, cx.read_predicate(ops[4]), bop);
  return true;
}

// FSET[.BF].cmp[.FTZ].bop d, a, b, c: d = (a cmp b) bop c as 1.0f (.BF) or all ones, else 0.
bool lift_fset(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"FTZ", "BF"}, true, true) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  const int cmp = float_compare_code(ins), bop = boolean_op_code(ins);
  if (cmp < 0 || bop < 0 || ops.size() < 4) return cx.refuse("an FSET form without a comparison or boolean operation");
  llvm::Value* r = cx.semantic("fcmp", {cx.read_float(ops[1]), cx.read_float(ops[2]), cx.u32(cmp), cx.flag(ins.has_modifier("FTZ"))});
  llvm::Value* t = cx.semantic("bool_op", {r, cx.read_predicate(ops[3]), cx.u32(bop)});
  const std::uint32_t yes = ins.has_modifier("BF") ? 0x3f800000u : 0xffffffffu;
  cx.write(ops[0], cx.builder().CreateSelect(cx.convert(t, cx.i1()), cx.u32(yes), cx.u32(0)));
  return true;
}

// FSEL d, a, b, p: d = p ? a : b (bits; a float immediate is its f32 value).
bool lift_fsel(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 4) return cx.refuse("FSEL needs d, a, b, p");
  auto& b = cx.builder();
  llvm::Value* a = b.CreateBitCast(cx.read_float(ops[1]), cx.i32());
  llvm::Value* c = b.CreateBitCast(cx.read_float(ops[2]), cx.i32());
  cx.write(ops[0], b.CreateSelect(cx.read_predicate(ops[3]), a, c));
  return true;
}

// FMNMX[.FTZ][.NAN] d, a, b, p: min when p, max otherwise.
bool lift_fmnmx(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"FTZ", "NAN"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 4) return cx.refuse("FMNMX needs d, a, b, p");
  cx.write(ops[0], cx.semantic(ins.has_modifier("NAN") ? "fmnmx_nan" : "fmnmx", {cx.read_float(ops[1]), cx.read_float(ops[2]), cx.read_predicate(ops[3]),
                                         cx.flag(ins.has_modifier("FTZ"))}));
  return true;
}

// FMNMX3[.FTZ][.NAN] d, a, b, c, p (sm_100/sm_120): FMNMX over three sources, in order.
bool lift_fmnmx3(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"FTZ", "NAN"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() != 5) return cx.refuse("FMNMX3 needs d, a, b, c, p");
  const char* semantic = ins.has_modifier("NAN") ? "fmnmx_nan" : "fmnmx";
  llvm::Value* p = cx.read_predicate(ops[4]);
  llvm::Value* ftz = cx.flag(ins.has_modifier("FTZ"));
  llvm::Value* ab = cx.semantic(semantic, {cx.read_float(ops[1]), cx.read_float(ops[2]), p, ftz});
  cx.write(ops[0], cx.semantic(semantic, {ab, cx.read_float(ops[3]), p, ftz}));
  return true;
}

// FCHK p, a, b.
bool lift_fchk(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 3) return cx.refuse("FCHK needs p, a, b");
  cx.write_predicate(ops[0], cx.semantic("fchk", {cx.read_float(ops[1]), cx.read_float(ops[2])}));
  return true;
}

// MUFU.op d, a.
bool lift_mufu(LiftContext& cx, const SassInstruction& ins) {
  static const std::pair<std::string_view, int> ops_by_name[] = {{"COS", 0}, {"SIN", 1},    {"EX2", 2},    {"LG2", 3},  {"RCP", 4},
                                                                 {"RSQ", 5}, {"RCP64H", 6}, {"RSQ64H", 7}, {"SQRT", 8}, {"TANH", 9}};
  if (ins.modifiers.size() != 1) return cx.refuse("a MUFU form with other than one function modifier");
  const std::string_view function = *ins.modifiers.begin();
  int op = -1;
  for (auto [name, code] : ops_by_name)
    if (function == name) op = code;
  if (op < 0) return cx.refuse(fmt::format("MUFU.{} is not supported", function));
  if (!plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 2) return cx.refuse("MUFU needs d, a");
  auto& b = cx.builder();
  llvm::Value* a;
  if (op == 6 || op == 7) {
    // The high word of a double: |x| and -x act on its sign bit. nvdisasm prints an immediate
    // as the double whose high word it is (MUFU.RCP64H R7, 4.294965248e+09 for 0x41efffff).
    if (auto imm = float_immediate(ops[1])) a = cx.u32(std::bit_cast<std::uint64_t>(*imm) >> 32);
    else a = cx.read(ops[1]);
    if (ops[1].absolute) a = b.CreateAnd(a, 0x7fffffffu);
    if (ops[1].negate) a = b.CreateXor(a, 0x80000000u);
  } else {
    a = b.CreateBitCast(cx.read_float(ops[1]), cx.i32());
  }
  cx.write(ops[0], cx.semantic("mufu", {a, cx.u32(op)}));
  return true;
}

// FRND[.F64][.FLOOR|.CEIL|.TRUNC][.FTZ] d, a.
bool lift_frnd(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"F64", "F32", "FLOOR", "CEIL", "TRUNC", "FTZ"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 2) return cx.refuse("FRND needs d, a");
  const int mode = integer_rounding_code(ins);
  if (ins.has_modifier("F64")) {
    if (ins.has_modifier("F32")) return cx.refuse("FRND between f32 and f64 is not supported");
    if (ins.has_modifier("FTZ")) return cx.refuse("FRND.F64.FTZ is not supported (f64 has no flush-to-zero)");
    cx.write64(ops[0], cx.semantic("frnd64", {cx.read_double(ops[1]), cx.u32(mode)}));
  } else {
    cx.write(ops[0], cx.semantic("frnd", {cx.read_float(ops[1]), cx.u32(mode), cx.flag(ins.has_modifier("FTZ"))}));
  }
  return true;
}

// Type modifiers of the conversions: integer kinds and float formats as sass_float.h numbers them.
constexpr std::pair<std::string_view, int> kIntegerKinds[] = {{"S32", 0}, {"U32", 1}, {"S64", 2}, {"U64", 3},
                                                              {"S16", 4}, {"U16", 5}, {"S8", 6},  {"U8", 7}};
constexpr std::pair<std::string_view, int> kFloatFormats[] = {{"F32", 0}, {"F64", 1}, {"F16", 2}, {"BF16", 3}};

int integer_kind(std::string_view m) {
  for (auto [name, code] : kIntegerKinds)
    if (m == name) return code;
  return -1;
}
int float_format(std::string_view m) {
  for (auto [name, code] : kFloatFormats)
    if (m == name) return code;
  return -1;
}
bool is_64bit_kind(int kind) { return kind == 2 || kind == 3; }

// The source bits of a conversion: a 64-bit pair for f64 and 64-bit integers; 16 or 8 bits
// picked by an .H1 / .B1-.B3 suffix; float sources with |x| and -x applied.
llvm::Value* conversion_source(LiftContext& cx, const SassOperand& op, bool wide, bool is_float, int bits) {
  auto& b = cx.builder();
  std::string_view suffix(op.suffix);
  if (suffix.starts_with(".reuse")) suffix.remove_prefix(6);
  if (wide) {
    if (!suffix.empty()) {
      cx.refuse(fmt::format("operand suffix {} on a 64-bit source", suffix));
      return cx.u64(0);
    }
    if (is_float) return b.CreateBitCast(cx.read_double(op), cx.i64());
    llvm::Value* v = cx.read64(op);
    if (op.negate) v = b.CreateNeg(v);
    if (op.absolute || op.bitwise_not) cx.refuse("|x| or ~x on a 64-bit integer source");
    return v;
  }
  unsigned shift = 0;
  if (suffix == ".H1" && bits == 16) shift = 16;
  else if (suffix == ".B1" && bits == 8) shift = 8;
  else if (suffix == ".B2" && bits == 8) shift = 16;
  else if (suffix == ".B3" && bits == 8) shift = 24;
  else if (!suffix.empty() && !(suffix == ".H0" && bits == 16) && !(suffix == ".B0" && bits == 8)) {
    cx.refuse(fmt::format("operand suffix {} on a {}-bit conversion source", suffix, bits));
    return cx.u64(0);
  }
  llvm::Value* v;
  if (is_float && bits == 32) {
    v = b.CreateBitCast(cx.read_float(op), cx.i32());
  } else {
    v = cx.read(op);
    if (shift) v = b.CreateLShr(v, shift);
    if (is_float) {
      // A 16-bit float: |x| and -x on its sign bit.
      if (op.absolute) v = b.CreateAnd(v, 0xffff7fffu);
      if (op.negate) v = b.CreateXor(v, 0x8000u);
    } else {
      if (op.absolute || op.bitwise_not) cx.refuse("|x| or ~x on an integer conversion source");
      if (op.negate) v = b.CreateNeg(v);
    }
  }
  return b.CreateZExt(v, cx.i64());
}

// F2I[.dst][.src][.FLOOR|.CEIL|.TRUNC][.FTZ][.NTZ] d, a. NaN gives 0 whatever the modifiers (PTX
// cvt float-to-integer), so .NTZ (which nvcc 11.8 prints on its f32 forms) changes nothing here.
bool lift_f2i(LiftContext& cx, const SassInstruction& ins) {
  int kind = 0, format = 0;
  for (auto m : ins.modifiers) {
    const std::string_view name(m);
    if (integer_kind(name) >= 0) kind = integer_kind(name);
    else if (float_format(name) >= 0) format = float_format(name);
    else if (name != "FLOOR" && name != "CEIL" && name != "TRUNC" && name != "FTZ" && name != "NTZ" && name != "RN")
      return cx.refuse(fmt::format("F2I modifier .{} is not supported", name));
  }
  if (format == 3) return cx.refuse("F2I from bf16 is not supported");
  const auto& ops = ins.operands;
  if (ops.size() < 2) return cx.refuse("F2I needs d, a");
  llvm::Value* source = conversion_source(cx, ops[1], format == 1, true, format == 2 ? 16 : 32);
  llvm::Value* r = cx.semantic("f2i", {source, cx.u32(format), cx.u32(kind), cx.u32(integer_rounding_code(ins)),
                                       cx.flag(ins.has_modifier("FTZ"))});
  if (is_64bit_kind(kind)) cx.write64(ops[0], r);
  else cx.write(ops[0], cx.builder().CreateTrunc(r, cx.i32()));
  return true;
}

// F2IP.U8.F32[.mode][.FTZ][.NTZ] d, RZ, b, RZ: sm_86+/sm_90's form of cvt.rni.sat.u8.f32 (b
// converted and saturated to u8, zero-extended). F2IP packs two conversions and merges a third
// register the way PTX's cvt.pack documents for integers (d = c << 16 | cvt(a) << 8 | cvt(b)), but
// nvcc 11.8 only emits it with a and c zero, where every reading gives the zero-extended cvt(b);
// other forms are refused.
bool lift_f2ip(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"U8", "F32", "FLOOR", "CEIL", "TRUNC", "FTZ", "NTZ"}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (!ins.has_modifier("U8") || ops.size() != 4 || !ops[1].is_zero_register() || !ops[3].is_zero_register())
    return cx.refuse("an F2IP form other than F2IP.U8.F32 d, RZ, b, RZ");
  llvm::Value* source = cx.builder().CreateZExt(cx.builder().CreateBitCast(cx.read_float(ops[2]), cx.i32()), cx.i64());
  llvm::Value* r = cx.semantic("f2i", {source, cx.u32(0), cx.u32(7), cx.u32(integer_rounding_code(ins)), cx.flag(ins.has_modifier("FTZ"))});
  cx.write(ops[0], cx.builder().CreateTrunc(r, cx.i32()));
  return true;
}

// I2F[.dst][.src][.rounding] d, a and I2FP.F32.src (sm_90's spelling). A 16-bit result (.F16,
// __int2half_rn) is written zero-extended, as F2F's (nvcc packs it with PRMT or stores 16 bits).
bool lift_i2f(LiftContext& cx, const SassInstruction& ins) {
  int kind = 0, format = 0;
  for (auto m : ins.modifiers) {
    const std::string_view name(m);
    if (integer_kind(name) >= 0) kind = integer_kind(name);
    else if (float_format(name) >= 0) format = float_format(name);
    else if (name != "RN" && name != "RM" && name != "RP" && name != "RZ")
      return cx.refuse(fmt::format("{} modifier .{} is not supported", std::string_view(ins.opcode), name));
  }
  const auto& ops = ins.operands;
  if (ops.size() < 2) return cx.refuse("I2F needs d, a");
  const int bits = kind >= 6 ? 8 : kind >= 4 ? 16 : 32;
  llvm::Value* source = conversion_source(cx, ops[1], is_64bit_kind(kind), false, bits);
  llvm::Value* r = cx.semantic("i2f", {source, cx.u32(kind), cx.u32(format), cx.u32(rounding_code(ins))});
  if (format == 1) cx.write64(ops[0], r);
  else cx.write(ops[0], cx.builder().CreateTrunc(r, cx.i32()));
  return true;
}

// F2F.dst.src[.rounding][.FTZ] d, a: between f32, f64, f16 and bf16. A 16-bit result is written
// zero-extended (nvcc 11.8 stores such results with 16-bit stores or PRMT, so the upper half is
// never read; what the hardware leaves there is not documented).
bool lift_f2f(LiftContext& cx, const SassInstruction& ins) {
  int formats[2] = {-1, -1};
  int seen = 0;
  for (auto m : ins.modifiers) {
    const std::string_view name(m);
    if (float_format(name) >= 0 && seen < 2) formats[seen++] = float_format(name);
    else if (name != "RN" && name != "RM" && name != "RP" && name != "RZ" && name != "FTZ")
      return cx.refuse(fmt::format("F2F modifier .{} is not supported", name));
  }
  if (seen != 2) return cx.refuse("F2F without a destination and a source format");
  const int to = formats[0], from = formats[1];
  const auto& ops = ins.operands;
  if (ops.size() < 2) return cx.refuse("F2F needs d, a");
  llvm::Value* source = conversion_source(cx, ops[1], from == 1, true, from >= 2 ? 16 : 32);
  llvm::Value* r = cx.semantic("f2f", {source, cx.u32(from), cx.u32(to), cx.u32(rounding_code(ins)), cx.flag(ins.has_modifier("FTZ"))});
  if (to == 1) cx.write64(ops[0], r);
  else cx.write(ops[0], cx.builder().CreateTrunc(r, cx.i32()));
  return true;
}

// F2FP[.BF16|.F16][.F32].PACK_AB[.rounding] d, a, b: two f32 rounded to 16 bits, a in the upper half.
bool lift_f2fp(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"PACK_AB", "F16", "BF16", "F32"}, false, false, true) || !plain_operands(cx, ins)) return false;
  if (!ins.has_modifier("PACK_AB")) return cx.refuse("F2FP without .PACK_AB is not supported");
  const auto& ops = ins.operands;
  if (ops.size() != 3) return cx.refuse("F2FP.PACK_AB needs d, a, b");
  const int format = ins.has_modifier("BF16") ? 3 : 2;
  cx.write(ops[0], cx.semantic("f2fp_pack", {cx.read_float(ops[1]), cx.read_float(ops[2]), cx.u32(format), cx.u32(rounding_code(ins))}));
  return true;
}

// DADD/DMUL d, a, b and DFMA d, a, b, c with a rounding mode.
template <int Sources>
bool lift_double_arithmetic(LiftContext& cx, const SassInstruction& ins, const char* semantic) {
  if (!known_modifiers(cx, ins, {}, false, false, true) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 1 + Sources) return cx.refuse("too few operands");
  std::vector<llvm::Value*> args;
  for (int i = 0; i < Sources; ++i) args.push_back(cx.read_double(ops[1 + i]));
  args.push_back(cx.u32(rounding_code(ins)));
  cx.write64(ops[0], cx.semantic(semantic, std::move(args)));
  return true;
}

// DSETP.cmp.bop p, q, a, b, c; DSETP.MIN/.MAX.AND p, q, a, b, PT (see dsetp_minmax).
bool lift_dsetp(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"MIN", "MAX"}, true, true) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  const int bop = boolean_op_code(ins);
  if (bop < 0 || ops.size() < 5) return cx.refuse("a DSETP form without a boolean operation");
  llvm::Value* a = cx.read_double(ops[2]);
  llvm::Value* b = cx.read_double(ops[3]);
  if (ins.has_modifier("MIN") || ins.has_modifier("MAX")) {
    // Seen only as .AND with PT, which makes p and q the selection and the both-NaN flag
    // themselves; other combinations are not documented anywhere we know.
    if (bop != 0 || !ops[4].is_true_predicate() || ops[4].logical_not)
      return cx.refuse("DSETP.MIN/.MAX with a predicate other than PT is not supported");
    llvm::Value* both_nan = cx.out_flag();
    llvm::Value* take_a = cx.semantic("dsetp_minmax", {a, b, cx.flag(ins.has_modifier("MIN")), both_nan});
    cx.write_predicate(ops[0], take_a);
    if (!ops[1].is_true_predicate()) cx.write_predicate(ops[1], cx.load_flag(both_nan));
    return true;
  }
  const int cmp = float_compare_code(ins);
  if (cmp < 0) return cx.refuse("a DSETP form without a comparison");
  write_compare_pair(cx, ops[0], ops[1], cx.semantic("dcmp", {a, b, cx.u32(cmp)}), cx.read_predicate(ops[4]), bop);
  return true;
}

// DMNMX d, a, b, p: min when p.
bool lift_dmnmx(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {}) || !plain_operands(cx, ins)) return false;
  const auto& ops = ins.operands;
  if (ops.size() < 4) return cx.refuse("DMNMX needs d, a, b, p");
  cx.write64(ops[0], cx.semantic("dmnmx", {cx.read_double(ops[1]), cx.read_double(ops[2]), cx.read_predicate(ops[3])}));
  return true;
}

// ---- packed 16-bit ----------------------------------------------------------------------------

struct HalfSource {
  llvm::Value* value = nullptr;
  bool uniform_lanes = false;  // both halves equal (swizzled, RZ, or an equal immediate pair)
};

// The packed-half sources of an H* instruction after the destination, up to the first predicate:
// registers with their swizzle (.H0_H0, .H1_H1) and negation/absolute value, or a pair of
// immediates (H1 printed first). `bf16` picks the format of immediates.
std::vector<HalfSource> half_sources(LiftContext& cx, const SassInstruction& ins, std::size_t first, bool bf16) {
  std::vector<HalfSource> out;
  auto& b = cx.builder();
  const auto& ops = ins.operands;
  for (std::size_t i = first; i < ops.size(); ++i) {
    const auto& op = ops[i];
    if (op.kind == OperandKind::immediate && i + 1 < ops.size() && ops[i + 1].kind == OperandKind::immediate) {
      auto half = [&](const SassOperand& o) -> llvm::Value* {
        const auto v = float_immediate(o);
        if (!v) return cx.u32(static_cast<std::uint64_t>(o.value) & 0xffffu);  // hexadecimal: the bits
        // Exact: the printed value is a 16-bit float's.
        llvm::Value* wide = llvm::ConstantInt::get(cx.i64(), std::bit_cast<std::uint64_t>(*v));
        return b.CreateTrunc(cx.semantic("f2f", {wide, cx.u32(1), cx.u32(bf16 ? 3 : 2), cx.u32(0), cx.flag(false)}), cx.i32());
      };
      llvm::Value* hi = half(op);
      llvm::Value* lo = half(ops[i + 1]);
      out.push_back({b.CreateOr(b.CreateShl(hi, 16), lo), op.text == ops[i + 1].text});
      ++i;
      continue;
    }
    if (is_predicate(op)) break;
    std::string_view suffix(op.suffix);
    if (suffix.starts_with(".reuse")) suffix.remove_prefix(6);
    HalfSource s;
    llvm::Value* v = cx.read(op);
    s.uniform_lanes = op.is_zero_register();
    if (suffix == ".H0_H0") {
      v = b.CreateOr(b.CreateAnd(v, 0xffffu), b.CreateShl(v, 16));
      s.uniform_lanes = true;
    } else if (suffix == ".H1_H1") {
      v = b.CreateOr(b.CreateLShr(v, 16), b.CreateAnd(v, 0xffff0000u));
      s.uniform_lanes = true;
    } else if (!suffix.empty()) {
      cx.refuse(fmt::format("operand suffix {} of a packed-half instruction is not supported", suffix));
      return {};
    }
    if (op.kind == OperandKind::immediate) {
      cx.refuse("a single immediate of a packed-half instruction");
      return {};
    }
    if (op.absolute) v = b.CreateAnd(v, 0x7fff7fffu);
    if (op.negate) v = b.CreateXor(v, 0x80008000u);
    s.value = v;
    out.push_back(s);
  }
  return out;
}

llvm::Value* low_half(LiftContext& cx, llvm::Value* packed) { return cx.builder().CreateTrunc(packed, cx.i16()); }
llvm::Value* high_half(LiftContext& cx, llvm::Value* packed) {
  return cx.builder().CreateTrunc(cx.builder().CreateLShr(packed, 16), cx.i16());
}

// HADD2 (Sources 2, b = 1), HMUL2 (Sources 2, c = -0) and HFMA2 (Sources 3):
// [.MMA][.BF16_V2][.F32][.SAT][.FTZ][.rounding] d, a, b[, c]. The .F32 form writes one f32,
// computed from sources whose halves agree (nvcc's __half2float is HADD2.F32 d, -RZ, x.H0_H0).
template <int Sources>
bool lift_half_arithmetic(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"MMA", "BF16_V2", "F32", "SAT", "FTZ", "RELU"}, false, false, true)) return false;
  if (ins.has_modifier("MMA") && Sources != 3) return cx.refuse("only HFMA2 has an .MMA form");
  if (ins.has_modifier("RELU") && (Sources != 3 || ins.has_modifier("SAT") || ins.has_modifier("F32")))
    return cx.refuse("a .RELU form other than HFMA2[.MMA].RELU");
  const bool bf16 = ins.has_modifier("BF16_V2");
  const int format = bf16 ? 3 : 2;
  const auto sources = half_sources(cx, ins, 1, bf16);
  if (sources.empty()) return false;  // half_sources refused
  if (sources.size() != Sources) return cx.refuse(fmt::format("{} needs {} packed-half sources", std::string_view(ins.opcode), Sources));
  const std::string_view opcode(ins.opcode);
  const bool ftz = ins.has_modifier("FTZ"), sat = ins.has_modifier("SAT");
  const int rounding = rounding_code(ins);
  if (ins.has_modifier("F32")) {
    for (const auto& s : sources)
      if (!s.uniform_lanes) return cx.refuse("a .F32 packed-half form whose sources' halves may differ");
    auto f = [&](const HalfSource& s) { return cx.semantic("half_to_float", {low_half(cx, s.value), cx.u32(format), cx.flag(ftz)}); };
    llvm::Value* r;
    if (opcode == "HADD2") r = cx.semantic("fadd", {f(sources[0]), f(sources[1]), cx.u32(rounding), cx.flag(ftz), cx.flag(sat)});
    else if (opcode == "HMUL2") r = cx.semantic("fmul", {f(sources[0]), f(sources[1]), cx.u32(rounding), cx.flag(ftz), cx.flag(sat)});
    else r = cx.semantic("ffma", {f(sources[0]), f(sources[1]), f(sources[2]), cx.u32(rounding), cx.flag(ftz), cx.flag(sat)});
    cx.write(ins.operands[0], r);
    return true;
  }
  const std::uint32_t one = bf16 ? 0x3f803f80u : 0x3c003c00u;
  llvm::Value *x = sources[0].value, *y, *z;
  if (opcode == "HADD2") y = cx.u32(one), z = sources[1].value;
  else if (opcode == "HMUL2") y = sources[1].value, z = cx.u32(0x80008000u);
  else y = sources[1].value, z = sources[2].value;
  if (ins.has_modifier("RELU")) cx.write(ins.operands[0], cx.semantic("hfma2_relu", {x, y, z, cx.u32(format), cx.u32(rounding), cx.flag(ftz)}));
  else cx.write(ins.operands[0], cx.semantic("hfma2_format", {x, y, z, cx.u32(format), cx.u32(rounding), cx.flag(sat), cx.flag(ftz)}));
  return true;
}

// HSETP2.cmp[.BF16_V2][.FTZ].bop p, q, a, b, c: p from the low halves, q from the high halves
// (each then bop c). The .H_AND form (one result for both halves) is not emitted by nvcc 11.8 and
// its second output is not documented: refused.
bool lift_hsetp2(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"BF16_V2", "FTZ"}, true, true)) return false;
  const int cmp = float_compare_code(ins), bop = boolean_op_code(ins);
  const auto& ops = ins.operands;
  if (cmp < 0 || bop < 0 || ops.size() < 5 || !is_predicate(ops[0]) || !is_predicate(ops[1]))
    return cx.refuse("an HSETP2 form without a comparison, a boolean operation or two predicates");
  const bool bf16 = ins.has_modifier("BF16_V2");
  const auto sources = half_sources(cx, ins, 2, bf16);
  if (sources.empty()) return false;  // half_sources refused
  if (sources.size() != 2 || !is_predicate(ops.back())) return cx.refuse("HSETP2 needs two packed-half sources and a predicate");
  const int format = bf16 ? 3 : 2;
  const bool ftz = ins.has_modifier("FTZ");
  auto compare = [&](bool high) {
    auto half = [&](llvm::Value* v) { return high ? high_half(cx, v) : low_half(cx, v); };
    return cx.semantic("hcmp", {half(sources[0].value), half(sources[1].value), cx.u32(format), cx.u32(cmp), cx.flag(ftz)});
  };
  llvm::Value* c = cx.read_predicate(ops.back());
  llvm::Value* lo = cx.convert(compare(false), cx.i1());
  llvm::Value* hi = cx.convert(compare(true), cx.i1());
  cx.write_predicate(ops[0], cx.semantic("bool_op", {lo, c, cx.u32(bop)}));
  if (!ops[1].is_true_predicate()) cx.write_predicate(ops[1], cx.semantic("bool_op", {hi, c, cx.u32(bop)}));
  return true;
}

// HSET2[.BF].cmp[.BF16_V2][.FTZ].bop d, a, b, c: per half (a cmp b) bop c as 1.0 (.BF) or 0xffff,
// else 0.
bool lift_hset2(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"BF", "BF16_V2", "FTZ"}, true, true)) return false;
  const int cmp = float_compare_code(ins), bop = boolean_op_code(ins);
  const auto& ops = ins.operands;
  if (cmp < 0 || bop < 0 || ops.size() < 4) return cx.refuse("an HSET2 form without a comparison or boolean operation");
  const bool bf16 = ins.has_modifier("BF16_V2");
  const auto sources = half_sources(cx, ins, 1, bf16);
  if (sources.empty()) return false;  // half_sources refused
  if (sources.size() != 2 || !is_predicate(ops.back())) return cx.refuse("HSET2 needs two packed-half sources and a predicate");
  const int format = bf16 ? 3 : 2;
  const bool ftz = ins.has_modifier("FTZ");
  auto& b = cx.builder();
  llvm::Value* c = cx.read_predicate(ops.back());
  const std::uint32_t yes = ins.has_modifier("BF") ? (bf16 ? 0x3f80u : 0x3c00u) : 0xffffu;
  auto lane = [&](bool high) {
    auto half = [&](llvm::Value* v) { return high ? high_half(cx, v) : low_half(cx, v); };
    llvm::Value* r = cx.semantic("hcmp", {half(sources[0].value), half(sources[1].value), cx.u32(format), cx.u32(cmp), cx.flag(ftz)});
    llvm::Value* t = cx.convert(cx.semantic("bool_op", {r, c, cx.u32(bop)}), cx.i1());
    return b.CreateSelect(t, cx.u32(yes), cx.u32(0));
  };
  cx.write(ops[0], b.CreateOr(b.CreateShl(lane(true), 16), lane(false)));
  return true;
}

// HMNMX2[.BF16_V2][.FTZ][.NAN] d, a, b, p: per half min when p, max otherwise.
bool lift_hmnmx2(LiftContext& cx, const SassInstruction& ins) {
  if (!known_modifiers(cx, ins, {"BF16_V2", "FTZ", "NAN"})) return false;
  const auto& ops = ins.operands;
  const bool bf16 = ins.has_modifier("BF16_V2");
  const auto sources = half_sources(cx, ins, 1, bf16);
  if (sources.empty()) return false;  // half_sources refused
  if (sources.size() != 2 || ops.size() < 4 || !is_predicate(ops.back())) return cx.refuse("HMNMX2 needs d, a, b, p");
  auto& b = cx.builder();
  llvm::Value* min = cx.read_predicate(ops.back());
  auto lane = [&](bool high) {
    auto half = [&](llvm::Value* v) { return high ? high_half(cx, v) : low_half(cx, v); };
    llvm::Value* r = cx.semantic(ins.has_modifier("NAN") ? "hmnmx_nan" : "hmnmx", {half(sources[0].value), half(sources[1].value), cx.u32(bf16 ? 3 : 2), min,
                                           cx.flag(ins.has_modifier("FTZ"))});
    return b.CreateZExt(cx.convert(r, cx.i16()), cx.i32());
  };
  cx.write(ops[0], b.CreateOr(b.CreateShl(lane(true), 16), lane(false)));
  return true;
}

}  // namespace

void register_float_handlers(HandlerTable& t) {
  t["FADD"] = t["FADD32I"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_arithmetic<2>(cx, ins, "fadd"); };
  t["FMUL"] = t["FMUL32I"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_arithmetic<2>(cx, ins, "fmul"); };
  t["FFMA"] = t["FFMA32I"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_arithmetic<3>(cx, ins, "ffma"); };
  t["FSETP"] = lift_fsetp;
  t["FSET"] = lift_fset;
  t["FSEL"] = lift_fsel;
  t["FMNMX"] = lift_fmnmx;
  t["FMNMX3"] = lift_fmnmx3;
  t["FCHK"] = lift_fchk;
  t["MUFU"] = lift_mufu;
  t["FRND"] = lift_frnd;
  t["F2I"] = lift_f2i;
  t["I2F"] = t["I2FP"] = lift_i2f;
  // The uniform datapath's float instructions (sm_100/sm_120): the same operations on uniform
  // registers, which the operand readers and writers handle.
  for (const char* op : {"FADD", "FMUL", "FFMA", "FSETP", "FSEL", "FMNMX", "I2F", "I2FP"}) t[fmt::format("U{}", op)] = t[op];
  t["F2F"] = lift_f2f;
  t["F2IP"] = lift_f2ip;
  t["F2FP"] = lift_f2fp;
  t["DADD"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_double_arithmetic<2>(cx, ins, "dadd"); };
  t["DMUL"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_double_arithmetic<2>(cx, ins, "dmul"); };
  t["DFMA"] = [](LiftContext& cx, const SassInstruction& ins) { return lift_double_arithmetic<3>(cx, ins, "dfma"); };
  t["DSETP"] = lift_dsetp;
  t["DMNMX"] = lift_dmnmx;
  t["HADD2"] = lift_half_arithmetic<2>;
  t["HMUL2"] = lift_half_arithmetic<2>;
  t["HFMA2"] = lift_half_arithmetic<3>;
  t["HSETP2"] = lift_hsetp2;
  t["HSET2"] = lift_hset2;
  t["HMNMX2"] = lift_hmnmx2;
}

}  // namespace gpuport::lift
