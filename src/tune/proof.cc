#include "tune/proof.h"

#include <algorithm>
#include <cstdio>

#include "sass/printer.h"
#include "tune/tables.h"

namespace gpuport::tune {

namespace {

std::string at(const sass::SassInstruction& inst) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "/*%04llx*/ ", static_cast<unsigned long long>(inst.address));
  return buffer;
}

}  // namespace

std::string normalized_instruction(const sass::SassInstruction& instruction, bool with_stall) {
  sass::SassInstruction copy = instruction;
  for (sass::SassOperand& op : copy.operands) {
    std::string_view suffix = op.suffix.view();
    std::size_t reuse = suffix.find(".reuse");
    if (reuse != std::string_view::npos) {
      std::string without = std::string(suffix.substr(0, reuse)) + std::string(suffix.substr(reuse + 6));
      op.suffix.assign(without);
    }
  }
  std::string text = sass::print_instruction(copy);
  if (instruction.control) {
    const sass::ControlCode& c = *instruction.control;
    char fields[64];
    if (with_stall)
      std::snprintf(fields, sizeof fields, " {S%02d%s W%d R%d M%02x}", c.stall, c.yield ? "Y" : "-", c.write_barrier,
                    c.read_barrier, c.wait_mask);
    else
      std::snprintf(fields, sizeof fields, " {S..%s W%d R%d M%02x}", c.yield ? "Y" : "-", c.write_barrier, c.read_barrier,
                    c.wait_mask);
    text += fields;
  }
  return text;
}

ReorderProof prove_reordering(const KernelSchedule& schedule, const sass::SassFunction& rewritten, const StallPlan& stalls) {
  const bool with_stall = stalls.empty();
  ReorderProof proof;
  const sass::SassFunction& original = *schedule.function;
  const std::size_t n = original.instructions.size();
  if (rewritten.instructions.size() != n) {
    proof.problems.push_back("the rewritten kernel has " + std::to_string(rewritten.instructions.size()) +
                             " instructions, the original " + std::to_string(n));
    return proof;
  }
  // Labels name the same addresses: branch targets and block starts did not move.
  auto label_set = [](const sass::SassFunction& f) {
    std::vector<std::pair<std::string, std::uint64_t>> v;
    for (const sass::SassLabel& l : f.labels) v.push_back({l.name, l.address});
    std::sort(v.begin(), v.end());
    return v;
  };
  if (label_set(original) != label_set(rewritten)) proof.problems.push_back("the labels (branch targets) differ");
  std::vector<std::string> old_text(n), new_text(n);
  for (std::size_t i = 0; i < n; ++i) {
    old_text[i] = normalized_instruction(original.instructions[i], with_stall);
    new_text[i] = normalized_instruction(rewritten.instructions[i], with_stall);
  }
  proof.recovered.assign(n, 0);
  std::vector<sass::InstructionDefUse> old_du = sass::def_use(original), new_du = sass::def_use(rewritten);
  for (const BlockSchedule& b : schedule.blocks) {
    ++proof.blocks;
    // The k-th copy of a text in the new block is the k-th copy in the old one: identical
    // instructions never swap (they write the same registers, or touch the same memory).
    std::map<std::string, std::vector<std::uint32_t>> copies;
    for (std::size_t i = b.first + b.count; i-- > b.first;) copies[old_text[i]].push_back(static_cast<std::uint32_t>(i));
    bool complete = true;
    for (std::size_t slot = b.first; slot < b.first + b.count; ++slot) {
      auto it = copies.find(new_text[slot]);
      if (it == copies.end() || it->second.empty()) {
        proof.problems.push_back("block at " + at(original.instructions[b.first]) + ": " + at(rewritten.instructions[slot]) +
                                 new_text[slot] + " is not among the block's original instructions");
        complete = false;
        break;
      }
      proof.recovered[slot] = it->second.back();
      it->second.pop_back();
      proof.moved += proof.recovered[slot] != slot;
    }
    if (!complete) continue;
    // Per register: definitions in the same order, the same reads between them.
    auto events = [&](const std::vector<sass::InstructionDefUse>& du, const std::vector<std::string>& text) {
      std::map<sass::RegisterRef, std::vector<std::string>> seq;
      std::map<sass::RegisterRef, std::vector<std::string>> reads;
      auto flush = [&](sass::RegisterRef r) {
        auto& pending = reads[r];
        std::sort(pending.begin(), pending.end());
        for (std::string& t : pending) seq[r].push_back("use " + t);
        pending.clear();
      };
      for (std::size_t i = b.first; i < b.first + b.count; ++i) {
        for (sass::RegisterRef u : du[i].uses) reads[u].push_back(text[i]);
        for (sass::RegisterRef d : du[i].defs) {
          flush(d);
          seq[d].push_back("def " + text[i]);
        }
      }
      for (auto& [r, pending] : reads) flush(r);
      return seq;
    };
    auto before = events(old_du, old_text), after = events(new_du, new_text);
    for (auto& [reg, seq] : before)
      if (after[reg] != seq)
        proof.problems.push_back("block at " + at(original.instructions[b.first]) + ": the reads and writes of " +
                                 sass::register_name(reg) + " are in another order");
    // Per scoreboard: setters and waiters in the same order.
    for (int k = 0; k < 6; ++k) {
      auto sequence = [&](const sass::SassFunction& f, const std::vector<std::string>& text) {
        std::vector<std::string> seq;
        for (std::size_t i = b.first; i < b.first + b.count; ++i) {
          if (!f.instructions[i].control) continue;
          const sass::ControlCode& c = *f.instructions[i].control;
          if (c.write_barrier == k || c.read_barrier == k || (c.wait_mask >> k & 1)) seq.push_back(text[i]);
        }
        return seq;
      };
      if (sequence(original, old_text) != sequence(rewritten, new_text))
        proof.problems.push_back("block at " + at(original.instructions[b.first]) + ": scoreboard SB" + std::to_string(k) +
                                 " is set and waited on in another order");
    }
  }
  if (!proof.problems.empty()) return proof;
  // The stalls as nvdisasm decodes them: the planned ones, and the distances hold with them.
  StallPlan decoded(n, 0);
  for (std::size_t slot = 0; slot < n; ++slot) {
    const auto& control = rewritten.instructions[slot].control;
    std::uint32_t i = proof.recovered[slot];
    decoded[i] = control ? control->stall : 0;
    std::uint8_t planned = stalls.empty() ? (original.instructions[i].control ? original.instructions[i].control->stall : 0) : stalls[i];
    if (decoded[i] != planned)
      proof.problems.push_back(at(rewritten.instructions[slot]) + new_text[slot] + ": stall " + std::to_string(decoded[i]) +
                               " decoded, " + std::to_string(planned) + " written");
  }
  for (const std::string& p : check_order(schedule, proof.recovered, decoded)) proof.problems.push_back(p);
  return proof;
}

std::map<std::string, std::vector<std::uint32_t>> offset_lists_from_cuobjdump(std::string_view elf_text, const std::string& kernel) {
  std::map<std::string, std::vector<std::uint32_t>> lists;
  const std::string section = ".nv.info." + kernel;
  bool inside = false;
  std::string attribute;
  while (!elf_text.empty()) {
    std::size_t nl = elf_text.find('\n');
    std::string_view line = elf_text.substr(0, nl);
    elf_text = nl == std::string_view::npos ? std::string_view{} : elf_text.substr(nl + 1);
    if (!line.empty() && line.front() != '\t' && line.front() != ' ') {
      inside = line == section;
      attribute.clear();
      continue;
    }
    if (!inside) continue;
    std::size_t a = line.find("Attribute:");
    if (a != std::string_view::npos) {
      attribute = std::string(line.substr(line.find("EIATTR_")));
      while (!attribute.empty() && (attribute.back() == ' ' || attribute.back() == '\t')) attribute.pop_back();
      continue;
    }
    if (attribute.empty()) continue;
    const NvInfoKind kind = builtin_nvinfo_table().find(attribute);
    std::size_t v = line.find("Value:");
    std::string_view values;
    if (kind == NvInfoKind::offsets && v != std::string_view::npos) {
      values = line.substr(v + 6);
    } else if (kind == NvInfoKind::records16) {
      // One record a line: "\t0x1a0\t:\tInstruction Kind : MBARRIER_INIT ...": its offset.
      std::size_t start = line.find_first_not_of(" \t");
      std::size_t colon = line.find(':');
      if (start == std::string_view::npos || colon == std::string_view::npos || line.substr(start, 2) != "0x") continue;
      values = line.substr(start, colon - start);
      lists[attribute];
    } else {
      continue;
    }
    std::vector<std::uint32_t>& out = lists[attribute];
    while (!values.empty()) {
      std::size_t start = values.find("0x");
      if (start == std::string_view::npos) break;
      std::size_t end = values.find_first_of(" \t", start);
      std::string token(values.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
      out.push_back(static_cast<std::uint32_t>(std::stoul(token, nullptr, 16)));
      values = end == std::string_view::npos ? std::string_view{} : values.substr(end);
    }
  }
  return lists;
}

std::vector<std::string> check_offset_lists(const std::map<std::string, std::vector<std::uint32_t>>& original,
                                            const std::map<std::string, std::vector<std::uint32_t>>& rewritten,
                                            const sass::SassFunction& original_function,
                                            const sass::SassFunction& rewritten_function, const Order& recovered) {
  std::vector<std::string> problems;
  std::vector<std::size_t> new_slot(recovered.size());
  for (std::size_t slot = 0; slot < recovered.size(); ++slot) new_slot[recovered[slot]] = slot;
  for (const auto& [name, offsets] : original) {
    auto it = rewritten.find(name);
    if (it == rewritten.end() || it->second.size() != offsets.size()) {
      problems.push_back(name + ": the rewritten cubin lists " + std::to_string(it == rewritten.end() ? 0 : it->second.size()) +
                         " offsets, the original " + std::to_string(offsets.size()));
      continue;
    }
    for (std::size_t k = 0; k < offsets.size(); ++k) {
      std::size_t old_index = offsets[k] / 16, new_index = it->second[k] / 16;
      if (offsets[k] % 16 || it->second[k] % 16 || old_index >= new_slot.size() || new_index >= new_slot.size()) {
        problems.push_back(name + ": offset " + std::to_string(it->second[k]) + " is not an instruction of the kernel");
        continue;
      }
      if (new_slot[old_index] != new_index ||
          normalized_instruction(original_function.instructions[old_index], false) !=
              normalized_instruction(rewritten_function.instructions[new_index], false))
        problems.push_back(name + ": " + at(original_function.instructions[old_index]) + " moved to " +
                           at(rewritten_function.instructions[new_slot[old_index]]) + " but the list says " +
                           at(rewritten_function.instructions[new_index]));
    }
  }
  for (const auto& [name, offsets] : rewritten)
    if (!original.count(name)) problems.push_back(name + " appeared in the rewritten cubin");
  return problems;
}

}  // namespace gpuport::tune
