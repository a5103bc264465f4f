#include "emu/machine.h"

#include <fmt/format.h>

#include <cmath>

#include "emu/half.h"

namespace gpuport::emu {

void AddressSpace::add(std::uint64_t base, std::uint64_t size, Kind kind, std::string name) {
  std::lock_guard lock(mutex_);
  // A new block where freed ones were: their records go (the one starting below `base` too).
  auto it = regions_.upper_bound(base);
  if (it != regions_.begin()) --it;
  while (it != regions_.end() && it->first < base + size) {
    if (it->second.kind == Kind::freed && it->first + it->second.size > base) it = regions_.erase(it);
    else ++it;
  }
  regions_[base] = {base, size, kind, std::move(name)};
}

void AddressSpace::release(std::uint64_t base) {
  std::lock_guard lock(mutex_);
  auto it = regions_.find(base);
  if (it != regions_.end()) it->second.kind = Kind::freed;
}

void AddressSpace::forget(std::uint64_t base) {
  std::lock_guard lock(mutex_);
  regions_.erase(base);
}

std::vector<AddressSpace::Region> AddressSpace::live() const {
  std::lock_guard lock(mutex_);
  std::vector<Region> out;
  for (const auto& [base, r] : regions_)
    if (r.kind != Kind::freed) out.push_back(r);
  return out;
}

const AddressSpace::Region* AddressSpace::find(std::uint64_t address, std::uint64_t bytes) const {
  std::lock_guard lock(mutex_);
  auto it = regions_.upper_bound(address);
  if (it == regions_.begin()) return nullptr;
  --it;
  const Region& r = it->second;
  if (r.kind == Kind::freed) return nullptr;
  if (address - r.base > r.size || bytes > r.size - (address - r.base)) return nullptr;
  return &r;
}

std::string AddressSpace::describe_near(std::uint64_t address) const {
  std::lock_guard lock(mutex_);
  const Region* best = nullptr;
  std::uint64_t distance = ~0ull;
  for (const auto& [base, r] : regions_) {
    const std::uint64_t d = address < base ? base - address : address >= base + r.size ? address - (base + r.size) + 1 : 0;
    if (d < distance) {
      distance = d;
      best = &r;
    }
  }
  if (!best) return "no allocation is registered";
  const char* kind = best->kind == Kind::freed ? "freed " : best->kind == Kind::kernarg ? "kernarg " : "";
  std::string where;
  if (address < best->base) where = fmt::format("{} bytes before", best->base - address);
  else if (address >= best->base + best->size) where = fmt::format("{} bytes after the end of", address - (best->base + best->size));
  else where = fmt::format("at offset {} inside", address - best->base);
  return fmt::format("{} {}allocation of {} bytes at {:#x}{}", where, kind, best->size, best->base,
                     best->name.empty() ? "" : " (" + best->name + ")");
}

std::uint32_t read_scalar_slow(const Wave& w, const Operand& op) {
  switch (op.kind) {
    case Operand::Kind::sgpr: return op.reg == encoding::null ? 0 : w.s[op.reg];
    case Operand::Kind::int_const:
    case Operand::Kind::literal: return static_cast<std::uint32_t>(op.value);
    case Operand::Kind::float_const: return f32_bits(static_cast<float>(op.fvalue));
    case Operand::Kind::scc: return w.scc ? 1 : 0;
    case Operand::Kind::aperture:
      return static_cast<std::uint32_t>((op.reg == encoding::shared_base || op.reg == encoding::shared_limit ? kSharedAperture : kPrivateAperture) >> 32) +
             (op.reg == encoding::shared_limit || op.reg == encoding::private_limit ? 1 : 0);
    default: return 0;
  }
}

std::uint64_t read_scalar64(const Wave& w, const Operand& op) {
  switch (op.kind) {
    case Operand::Kind::sgpr:
      if (op.reg == encoding::null) return 0;
      return w.s[op.reg] | static_cast<std::uint64_t>(w.s[(op.reg + 1) & 127]) << 32;
    case Operand::Kind::int_const: return static_cast<std::uint64_t>(op.value);
    case Operand::Kind::literal: return static_cast<std::uint32_t>(op.value);
    case Operand::Kind::float_const: return f64_bits(op.fvalue);
    case Operand::Kind::scc: return w.scc ? 1 : 0;
    case Operand::Kind::aperture: {
      const std::uint64_t base = op.reg == encoding::shared_base || op.reg == encoding::shared_limit ? kSharedAperture : kPrivateAperture;
      return op.reg == encoding::shared_limit || op.reg == encoding::private_limit ? base + kApertureSize - 1 : base;
    }
    default: return 0;
  }
}

void write_scalar(Wave& w, const Operand& op, std::uint32_t value) {
  if (op.kind != Operand::Kind::sgpr || op.reg == encoding::null) return;
  w.s[op.reg] = value;
  if (op.reg == encoding::exec_hi && w.size == 32) w.s[op.reg] = 0;
}

void write_scalar64(Wave& w, const Operand& op, std::uint64_t value) {
  if (op.kind != Operand::Kind::sgpr || op.reg == encoding::null) return;
  w.s[op.reg] = static_cast<std::uint32_t>(value);
  w.s[(op.reg + 1) & 127] = static_cast<std::uint32_t>(value >> 32);
  if (op.reg == encoding::exec_lo && w.size == 32) w.s[encoding::exec_hi] = 0;
}

std::uint64_t read_mask(const Wave& w, const Operand& op) {
  if (w.size == 64) return read_scalar64(w, op);
  return read_scalar(w, op);
}

void write_mask(Wave& w, const Operand& op, std::uint64_t mask) {
  if (w.size == 64) write_scalar64(w, op, mask);
  else write_scalar(w, op, static_cast<std::uint32_t>(mask));
}

std::uint16_t read_f16_bits(const Wave& w, const Operand& op, std::uint32_t lane, bool high) {
  std::uint16_t bits;
  if (op.kind == Operand::Kind::float_const) bits = float_to_half(static_cast<float>(op.fvalue));
  else {
    const std::uint32_t v = read_lane(w, op, lane);
    bits = static_cast<std::uint16_t>((high || op.high16) ? v >> 16 : v);
  }
  if (op.abs) bits &= 0x7fff;
  if (op.neg) bits ^= 0x8000;
  return bits;
}

namespace semantics {
bool host_has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
}  // namespace semantics

}  // namespace gpuport::emu
