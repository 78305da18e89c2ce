// Set lookups the IR checker's form rules share (mma_form, wgmma_form, tcgen05_form, operation_types,
// rounding_form): whether a word or a type is one of a list, and how many words of a list an instruction names.
#pragma once

#include "semantics/ir/ir.hpp"
#include "semantics/ir/types.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace ptx::ir {

inline bool is_one_of(std::string_view w, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), w) != set.end();
}
template <class Set>
bool is_one_of(ScalarType t, const Set& set) {
  return std::find(std::begin(set), std::end(set), t) != std::end(set);
}
inline bool is_one_of(ScalarType t, std::initializer_list<ScalarType> set) { return is_one_of<std::initializer_list<ScalarType>>(t, set); }

// Whether w is a word of a space-separated list ("f16 f32"): the form tables write their type lists so.
inline bool in_word_list(std::string_view list, std::string_view w) {
  while (!list.empty()) {
    const auto end = list.find(' ');
    if (list.substr(0, end) == w) return true;
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  return false;
}

// Whether the instruction names any of the words, and how many times it names words of the list.
inline bool names_any(const Instruction& in, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return in.q.has_word(w); });
}
inline unsigned names_count(const Instruction& in, std::initializer_list<std::string_view> words) {
  unsigned n = 0;
  for (const auto& w : in.q.words) n += is_one_of(w, words);
  return n;
}

// A state space an instruction may name: .reg and .sreg are declarations' spaces, never an instruction's.
inline std::optional<StateSpace> state_space_word(std::string_view w) {
  if (w == "reg" || w == "sreg") return std::nullopt;
  return state_space_from_name(w);
}
// The scope a qualifier word names (ISA 8.5: .cta, .cluster, .gpu, .sys).
inline std::optional<Scope> scope_word(std::string_view w) {
  static constexpr std::string_view kNames[] = {"cta", "cluster", "gpu", "sys"};
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (w == kNames[i]) return static_cast<Scope>(i);
  return std::nullopt;
}

// The modifiers ptxas 13.0 reads once when written twice (tests/fuzz/ptxas_mutants.py; 9.7.5.3's own example writes
// `fma.rz.sat.f32.f16.sat`): the IR checker warns of a second one instead of refusing it.
inline bool read_once_modifier(std::string_view w) { return is_one_of(w, {"sync", "sat", "satfinite", "approx", "relu", "cc", "NaN", "uni"}); }

}  // namespace ptx::ir
