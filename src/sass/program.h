// The SASS model: a disassembled NVIDIA program as plain values (kernels, instructions, typed
// operands, decoded control codes). Every later machine-code stage (CFG, divergence analysis,
// lifting, scheduling) reads these types; nothing here calls a tool or keeps global state.
// Promise: an operand the parser cannot classify is kept as `unknown` with its text, so
// printing a parsed instruction always gives back nvdisasm's text.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gpuport::sass {

// Short verbatim text held inside the value (no allocation, trivially copyable). Operand pieces
// such as suffixes (".reuse", ".H0_H1") are a few bytes; keeping them inline keeps an operand
// small, which is what parse throughput is bound by. assign() refuses text longer than N: the
// parser then keeps the whole operand as `unknown` with its full text, so nothing is lost.
template <std::size_t N>
class InlineText {
  static_assert(N < 256);

 public:
  InlineText() = default;
  bool assign(std::string_view s) {
    if (s.size() > N) return false;
    if (!s.empty()) std::memcpy(data_, s.data(), s.size());
    size_ = static_cast<std::uint8_t>(s.size());
    return true;
  }
  static constexpr std::size_t capacity() { return N; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const char* data() const { return data_; }
  std::string_view view() const { return {data_, size_}; }
  operator std::string_view() const { return view(); }
  char operator[](std::size_t i) const { return data_[i]; }
  std::size_t find(std::string_view s) const { return view().find(s); }
  bool starts_with(std::string_view s) const { return view().starts_with(s); }

  friend bool operator==(const InlineText& a, const InlineText& b) { return a.view() == b.view(); }
  friend bool operator==(const InlineText& a, std::string_view b) { return a.view() == b; }
  friend std::ostream& operator<<(std::ostream& os, const InlineText& t) { return os << t.view(); }

 private:
  char data_[N];
  std::uint8_t size_ = 0;
};

// Operand text of any length: up to 28 bytes inline (labels, constants, addresses such as
// "desc[UR4][R2.64+0x10]"), longer text on the heap. Same size as std::string, whose inline part
// (15 bytes) is too short for many sm_90+ memory operands.
class OperandText {
 public:
  OperandText() = default;
  OperandText(const OperandText& o) { assign(o.view()); }
  OperandText(OperandText&& o) noexcept { steal(o); }
  OperandText& operator=(const OperandText& o) {
    if (this != &o) assign(o.view());
    return *this;
  }
  OperandText& operator=(OperandText&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~OperandText() { release(); }

  void assign(std::string_view s) {
    char* heap = nullptr;
    if (s.size() > kInline) {
      heap = new char[s.size()];
      std::memcpy(heap, s.data(), s.size());
    }
    release();
    if (heap != nullptr) std::memcpy(storage_, &heap, sizeof heap);
    else if (!s.empty()) std::memcpy(storage_, s.data(), s.size());
    size_ = static_cast<std::uint32_t>(s.size());
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const char* data() const { return size_ <= kInline ? storage_ : heap(); }
  std::string_view view() const { return {data(), size_}; }
  operator std::string_view() const { return view(); }
  char operator[](std::size_t i) const { return data()[i]; }
  std::size_t find(std::string_view s) const { return view().find(s); }
  bool starts_with(std::string_view s) const { return view().starts_with(s); }

  friend bool operator==(const OperandText& a, const OperandText& b) { return a.view() == b.view(); }
  friend bool operator==(const OperandText& a, std::string_view b) { return a.view() == b; }
  friend std::ostream& operator<<(std::ostream& os, const OperandText& t) { return os << t.view(); }

 private:
  static constexpr std::size_t kInline = 28;
  // Longer text: the heap pointer is kept (unaligned) in the first bytes of storage_.
  char* heap() const {
    char* p = nullptr;
    std::memcpy(&p, storage_, sizeof p);
    return p;
  }
  void release() {
    if (size_ > kInline) delete[] heap();
    size_ = 0;
  }
  void steal(OperandText& o) {
    std::memcpy(storage_, o.storage_, o.size_ <= kInline ? o.size_ : sizeof(char*));
    size_ = o.size_;
    o.size_ = 0;
  }
  char storage_[kInline];
  std::uint32_t size_ = 0;
};

// An instruction's opcode modifiers ("E", "64", "SYNC" of LDG.E.64.SYNC), kept as the
// mnemonic's text after the opcode (".E.64.SYNC") in one OperandText: no allocation per
// modifier (nor, up to 28 bytes, per instruction). Iterating yields std::string_view pieces.
class ModifierList {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;
    iterator() = default;
    iterator(const char* p, const char* end) : p_(p), end_(end) {}
    std::string_view operator*() const {
      const char* next = next_dot();
      return {p_ + 1, static_cast<std::size_t>(next - p_ - 1)};
    }
    iterator& operator++() {
      p_ = next_dot();
      return *this;
    }
    iterator operator++(int) {
      iterator t = *this;
      ++*this;
      return t;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.p_ == b.p_; }

   private:
    const char* next_dot() const {
      const void* d = p_ + 1 < end_ ? std::memchr(p_ + 1, '.', static_cast<std::size_t>(end_ - p_ - 1)) : nullptr;
      return d != nullptr ? static_cast<const char*>(d) : end_;
    }
    const char* p_ = nullptr;
    const char* end_ = nullptr;
  };
  using value_type = std::string_view;
  using const_iterator = iterator;

  ModifierList() = default;
  ModifierList(std::initializer_list<std::string_view> list) {
    for (auto m : list) push_back(m);
  }
  // `dotted` is "" or ".E.64.SYNC" (a leading dot before every modifier).
  void assign_dotted(std::string_view dotted) { text_.assign(dotted); }
  void push_back(std::string_view m) {
    std::string t(text_.view());
    t += '.';
    t += m;
    text_.assign(t);
  }
  void clear() { text_.assign({}); }
  // The modifiers as printed after the opcode: ".E.64.SYNC".
  std::string_view dotted() const { return text_.view(); }
  bool empty() const { return text_.empty(); }
  std::size_t size() const {
    std::string_view t = text_.view();
    return static_cast<std::size_t>(std::count(t.begin(), t.end(), '.'));
  }
  iterator begin() const { return {text_.data(), text_.data() + text_.size()}; }
  iterator end() const { return {text_.data() + text_.size(), text_.data() + text_.size()}; }
  std::string_view operator[](std::size_t i) const {
    auto it = begin();
    while (i-- > 0) ++it;
    return *it;
  }
  std::string_view front() const { return *begin(); }
  std::string_view back() const { return (*this)[size() - 1]; }

  friend bool operator==(const ModifierList& a, const ModifierList& b) { return a.text_ == b.text_; }
  friend std::ostream& operator<<(std::ostream& os, const ModifierList& m) { return os << m.dotted(); }

 private:
  OperandText text_;
};

// The two encoding families. Maxwell/Pascal (sm_50..sm_62) have 64-bit instructions with one
// control word per three instructions; Volta and later (sm_70+) have 128-bit instructions with
// the control bits in the high word.
enum class EncodingFamily : std::uint8_t { unknown, maxwell, volta };

// "sm_61" -> 61, "sm_90a" -> 90: the whole text names an architecture (sm_ and two or three
// digits, optionally NVIDIA's a or f suffix); 0 otherwise ("sm_80;x", "sm_12x", "sm_8").
int parse_arch(std::string_view text);
// The architecture a listing's text starts with ("sm_90a, texmode_unified" -> 90); 0 if none.
int parse_arch_prefix(std::string_view text);
// A comma-separated list of architectures, each named whole, in order without repeats; nullopt
// with `problem` saying which item is wrong.
std::optional<std::vector<int>> parse_arch_list(std::string_view text, std::string& problem);
EncodingFamily encoding_family(int arch);

// Scheduling information the hardware reads next to each instruction.
struct ControlCode {
  std::uint8_t stall = 0;          // cycles to wait before issuing the next instruction (0..15)
  bool yield = false;              // the raw yield bit as encoded (see control.h)
  std::uint8_t write_barrier = 7;  // scoreboard set when the result is written; 7 = none
  std::uint8_t read_barrier = 7;   // scoreboard set when the sources are read; 7 = none
  std::uint8_t wait_mask = 0;      // scoreboards (bit i = SB i) waited on before issue
  std::uint8_t reuse = 0;          // operand reuse-cache flags, bit i = source slot i
  std::uint32_t bits = 0;          // the raw 21-bit field the values above come from

  friend bool operator==(const ControlCode&, const ControlCode&) = default;
};

// The index of the zero registers: RZ and URZ are both 255 (Volta to Hopper have UR0..UR62 and
// encode URZ as 63; Blackwell's uniform file reaches UR254, so 63 is an ordinary register there).
inline constexpr std::uint16_t kZeroRegister = 255;

enum class OperandKind : std::uint8_t {
  reg,                // R0..R255, RZ
  uniform_reg,        // UR0..UR254 (UR63 up only on Blackwell), URZ
  predicate,          // P0..P6, PT
  uniform_predicate,  // UP0..UP6, UPT
  constant,           // c[0x0][0x160], c[0x3][R1+0x10], cx[UR4][R0+0x8]
  immediate,          // 0x10, -12, 0.5, -QNAN, +INF; relocations 32@lo(symbol) (value 0)
  memory,             // [R2.64+0x10], [UR4+R1], desc[UR4][R2.64]
  special_reg,        // SR_TID.X, SR_LANEID, SRZ; also PR/UPR (the whole predicate file)
  scoreboard,         // SB0..SB5 (DEPBAR)
  label,              // `(.L_x_3), `(function), or an absolute 0x... branch target
  barrier,            // convergence barrier B0..B15
  unknown,            // anything else; text kept verbatim
};

std::string_view operand_kind_name(OperandKind kind);

// One register-like piece inside an address: "R2.64", "UR4", "R1.X4", or absent.
struct AddressRegister {
  OperandKind kind = OperandKind::reg;  // reg or uniform_reg
  bool present = false;
  std::uint16_t index = 0;              // kZeroRegister (255) = RZ or URZ
  InlineText<7> suffix;                 // ".64", ".U32", ".X4", ... verbatim

  friend bool operator==(const AddressRegister&, const AddressRegister&) = default;
};

// [base + index + offset] as printed. `text` keeps the exact bracket contents for printing.
struct MemoryAddress {
  AddressRegister base;
  AddressRegister index;     // a second register ([UR4+R1])
  bool has_offset = false;
  bool wide = false;         // a 64-bit address register (.64)
  std::int64_t offset = 0;   // signed byte offset
  InlineText<15> descriptor; // "desc[UR4]" / "gdesc[UR4]" prefix, verbatim; empty when none

  friend bool operator==(const MemoryAddress&, const MemoryAddress&) = default;
};

struct SassOperand {
  // Written out (not `= default`) so that `operands.emplace_back()` runs the member initialisers
  // only, instead of first zero-filling the whole value: the parser creates one per operand.
  SassOperand() noexcept {}

  OperandKind kind = OperandKind::unknown;

  // Prefix modifiers.
  bool negate = false;    // -R1
  bool absolute = false;  // |R1|
  bool logical_not = false;  // !P0, !PT
  bool bitwise_not = false;  // ~R1
  bool is_float = false;     // a float immediate (float_value)
  // nvdisasm prints a few operands with a space before the next comma ("+INF , PT").
  bool space_before_comma = false;
  // Printed after the previous operand with one space, not ", " ("RET.REL R2 `(kernel)").
  bool follows_with_space = false;

  // reg/uniform_reg/predicate/uniform_predicate/barrier/scoreboard: the number; RZ and URZ = 255,
  // PT/UPT = 7.
  std::uint16_t index = 0;

  // constant: bank and offset; a register in either bracket is kept in `address`.
  std::uint32_t bank = 0;
  std::int64_t value = 0;      // constant offset; integer immediate; label absolute address
  double float_value = 0.0;    // float immediates

  // Suffix modifiers verbatim (".reuse", ".H1", ".B1", ".H0_H1", ".X" ...), in order. A longer
  // suffix than fits makes the operand `unknown` (its text is kept whole).
  InlineText<15> suffix;
  MemoryAddress address;       // memory, and register-indexed constant offsets

  // Verbatim text of the operand's core (without prefix/suffix modifiers) for kinds whose
  // spelling carries more than the fields (immediates, constants, labels, specials, unknown).
  OperandText text;

  bool is_zero_register() const {
    return (kind == OperandKind::reg && index == 255) ||
           (kind == OperandKind::uniform_reg && index == kZeroRegister);
  }
  bool is_true_predicate() const {
    return (kind == OperandKind::predicate || kind == OperandKind::uniform_predicate) && index == 7;
  }
  bool has_suffix(std::string_view s) const;  // e.g. has_suffix(".reuse")

  friend bool operator==(const SassOperand&, const SassOperand&) = default;
};

// @P0 / @!UP1 / @PT
struct PredicateGuard {
  bool uniform = false;  // UP register
  bool negated = false;
  std::uint8_t index = 0;  // 7 = PT/UPT

  friend bool operator==(const PredicateGuard&, const PredicateGuard&) = default;
};

struct SassInstruction {
  std::uint64_t address = 0;
  std::optional<PredicateGuard> guard;
  std::string opcode;                   // "LDG"; empty when undecoded
  // nvdisasm printed only the encoding (it could not decode it; 11.8 does so for a few sm_90
  // instructions). The address is inferred from the previous instruction.
  bool undecoded = false;
  ModifierList modifiers;               // {"E", "64", "SYNC"} without dots
  std::vector<SassOperand> operands;
  std::string annotation;               // nvdisasm's (*"BRANCH_TARGETS .L_x_0"*) text, if any
  bool terminated = true;               // printed with " ;" (false: last of a dual-issue pair)
  bool tight_terminator = false;        // ";" without the space (CUDA 13 prints padding so)
  bool dual_issue_begin = false;        // "{" before it (Maxwell/Pascal dual issue)
  bool dual_issue_end = false;          // "}" after it
  // Raw encoding: one word on Maxwell/Pascal, low then high word on Volta+.
  std::array<std::uint64_t, 2> encoding{};
  std::uint8_t encoding_words = 0;
  std::optional<ControlCode> control;   // decoded when the encoding was printed (-hex)
  std::uint32_t line = 0;               // 1-based line in the listing

  // "E" among the modifiers.
  bool has_modifier(std::string_view modifier) const;

  friend bool operator==(const SassInstruction&, const SassInstruction&) = default;
};

struct SassLabel {
  std::string name;
  std::uint64_t address = 0;          // the address of the instruction that follows
  std::size_t instruction_index = 0;  // index into SassFunction::instructions

  friend bool operator==(const SassLabel&, const SassLabel&) = default;
};

// A kernel (entry) or device function: one .text.<name> section of the cubin.
struct SassFunction {
  std::string name;
  std::string section;          // ".text.if_else"; empty in cuobjdump output
  bool is_entry = false;        // STO_CUDA_ENTRY (a __global__ kernel)
  bool is_weak = false;
  int register_count = -1;      // SHI_REGISTERS, when printed
  std::vector<SassInstruction> instructions;
  std::vector<SassLabel> labels;
  // Maxwell/Pascal control words by bundle (address of the word, the word), as printed.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> control_words;
  // Targets of indirect branches (BRX/JMX) read from the cubin's jump tables, by the branch's
  // address; the CFG prefers them to the BRANCH_TARGETS annotation (nvdisasm 11.8 names only the
  // section there). Empty when the listing came without its cubin.
  std::vector<std::pair<std::uint64_t, std::vector<std::uint64_t>>> indirect_targets;

  // Index of the instruction at `address`, or npos.
  std::size_t find_instruction(std::uint64_t address) const;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  friend bool operator==(const SassFunction&, const SassFunction&) = default;
};

struct SassSection {
  std::string name;   // ".nv.info", ".text.if_else", ...
  std::string flags;  // the rest of the .section line, verbatim

  friend bool operator==(const SassSection&, const SassSection&) = default;
};

struct SassProgram {
  int arch = 0;  // 61, 80, 100 ...; 0 when the listing does not say
  std::string header_flags;             // .headerflags text, verbatim
  std::vector<SassSection> sections;
  std::vector<SassFunction> functions;  // in listing order
  // A cuobjdump listing may hold code for several archs: each gets its own program there,
  // see ParsedListing.

  const SassFunction* find_function(std::string_view name) const;
  std::size_t instruction_count() const;

  friend bool operator==(const SassProgram&, const SassProgram&) = default;
};

}  // namespace gpuport::sass
