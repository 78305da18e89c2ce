// The syntax lines of syntax_forms.def matched against an instruction's qualifier words (syntax_form.hpp).
#include "semantics/ir/syntax_form.hpp"

#include "semantics/ir/types.hpp"
#include "semantics/ir/word_sets.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

namespace ptx::ir {
namespace {

struct Row {
  Opcode op;
  std::string_view when, words, section;
};
constexpr Row kRows[] = {
#define PTX_SYNTAX(opcode, when, words, section) {Opcode::opcode##_, when, words, section},
#include "semantics/ir/syntax_forms.def"
#undef PTX_SYNTAX
};

std::vector<std::string_view> split(std::string_view s, char by) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const std::size_t at = s.find(by);
    if (at) out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + 1);
  }
  return out;
}

// One slot of a syntax line: its alternatives, each one or more words.
struct Slot {
  std::vector<std::vector<std::string_view>> alternatives;
  bool optional = false;
};
std::vector<Slot> slots_of(std::string_view words) {
  std::vector<Slot> slots;
  for (std::string_view s : split(words, ' ')) {
    Slot slot;
    if (s.front() == '[') slot.optional = true, s = s.substr(1, s.size() - 2);
    for (std::string_view alt : split(s, '|')) slot.alternatives.push_back(split(alt, '.'));
    slots.push_back(std::move(slot));
  }
  return slots;
}

// How many words from the start fit slots in order, each slot taking its first fitting alternative: how near a line
// comes, for the message.
std::size_t fitting_prefix(const std::vector<std::string>& words, const std::vector<Slot>& slots) {
  std::size_t i = 0;
  for (const Slot& slot : slots) {
    bool fitted = false;
    for (const auto& alt : slot.alternatives) {
      std::size_t k = 0;
      while (k < alt.size() && i + k < words.size() && words[i + k] == alt[k]) ++k;
      if (k == alt.size()) {
        i += k, fitted = true;
        break;
      }
    }
    if (!fitted && !slot.optional) break;
  }
  return i;
}

// Whether the words not yet used fill slots[j..] exactly, each slot with one alternative written anywhere (a
// multi-word alternative as adjacent words), trying every choice (the lines are short). In any order: ptxas 13 takes
// modifiers out of the syntax line's order (`ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16`, a ZLUDA test run on a
// GPU); the types-last rule (word_order_error) is the order it does check.
bool matches(const std::vector<std::string>& words, std::vector<bool>& used, const std::vector<Slot>& slots, std::size_t j) {
  if (j == slots.size()) return std::find(used.begin(), used.end(), false) == used.end();
  for (const auto& alt : slots[j].alternatives)
    for (std::size_t i = 0; i + alt.size() <= words.size(); ++i) {
      std::size_t k = 0;
      while (k < alt.size() && !used[i + k] && words[i + k] == alt[k]) ++k;
      if (k < alt.size()) continue;
      for (k = 0; k < alt.size(); ++k) used[i + k] = true;
      const bool rest = matches(words, used, slots, j + 1);
      for (k = 0; k < alt.size(); ++k) used[i + k] = false;
      if (rest) return true;
    }
  return slots[j].optional && matches(words, used, slots, j + 1);
}

bool applies(const Row& row, const Instruction& in) {
  for (std::string_view w : split(row.when, ' '))
    if (in.q.has_word(w[0] == '!' ? w.substr(1) : w) == (w[0] == '!')) return false;
  return true;
}

// A syntax line as the message shows it: `tex.{1d|2d|...}.v4...`, optional slots in brackets.
std::string render(Opcode op, std::string_view words) {
  std::string s = opcode_name(op);
  for (std::string_view slot : split(words, ' ')) {
    const bool optional = slot.front() == '[';
    if (optional) slot = slot.substr(1, slot.size() - 2);
    const bool choice = slot.find('|') != std::string_view::npos;
    s += optional ? "[." : ".";
    if (choice) s += '{';
    s += slot;
    if (choice) s += '}';
    if (optional) s += ']';
  }
  return s;
}

}  // namespace

std::string syntax_form_error(const Instruction& in) {
  static const auto kSlots = [] {
    std::vector<std::vector<Slot>> all;
    for (const Row& row : kRows) all.push_back(slots_of(row.words));
    return all;
  }();
  // A read-once modifier written twice is the qualifier-class check's warning (build.cpp), not a second slot.
  std::vector<std::string> words;
  for (const auto& w : in.q.words)
    if (!read_once_modifier(w) || std::find(words.begin(), words.end(), w) == words.end()) words.push_back(w);
  // The message names the lines that come nearest (the most leading words fitting), the first one's section.
  std::vector<std::size_t> nearest;
  std::size_t best = 0;
  for (std::size_t r = 0; r < std::size(kRows); ++r) {
    if (kRows[r].op != in.op || !applies(kRows[r], in)) continue;
    std::vector<bool> used(words.size(), false);
    if (matches(words, used, kSlots[r], 0)) return "";
    const std::size_t fit = fitting_prefix(words, kSlots[r]);
    if (fit > best || nearest.empty()) nearest.clear(), best = fit;
    if (fit == best) nearest.push_back(r);
  }
  if (nearest.empty()) return "";
  std::string lines;
  for (std::size_t r : nearest) {
    if (!lines.empty()) lines += " or ";
    lines += render(in.op, kRows[r].words);
  }
  const std::string_view section = kRows[nearest.front()].section;
  std::string why = "'";
  why += opcode_text(in);
  why += "' is no form of its syntax, ";
  return why + lines + " (ISA " + std::string(section) + ")";
}

std::string word_order_error(const Instruction& in) {
  // atom and red: ptxas 13 takes `atom.global.add.u32.relaxed` as written in order (tests/fuzz/ptxas_mutants.py), and
  // its meaning is not in doubt; every other opcode's misplaced word it refuses, as the syntax lines do.
  if (in.op == Opcode::atom_ || in.op == Opcode::red_) return "";
  const std::string* type = nullptr;
  for (const auto& w : in.q.words) {
    if (scalar_type_from_name(w)) {
      if (!type) type = &w;
      continue;
    }
    if (!type) continue;
    if (state_space_word(w) || scope_word(w) || memory_semantics_from_name(w) || w == "sync" || w == "aligned")
      return "'." + w + "' follows the type '." + *type + "' in " + opcode_text(in) +
             ": every syntax line of ISA 9.7 writes it before the types";
  }
  return "";
}

}  // namespace ptx::ir
