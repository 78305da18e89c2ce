// What the "PTX ISA Notes" and "Target ISA Notes" of ISA 9.0 chapter 9.7 say an instruction needs: the PTX ISA
// version (`.version`) that introduced it or its qualifier, and the target architectures (`.target`) that support
// it (semantics/ir/target_notes.def, generated from the text by scripts/gen_target_notes.py). ISA 11.1.2: "PTX
// features are checked against the specified target architecture, and an error is generated if an unsupported
// feature is used."
#pragma once

#include "semantics/ir/ir.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptx::ir {

// A `.target` architecture (ISA 11.1.2): sm_90 is {90, ' '}, sm_90a {90, 'a'}, sm_100f {100, 'f'}; compute_XX is a
// synonym of sm_XX. sm_101{,f,a} are read as sm_110{,f,a}, their names from PTX ISA 9.0.
struct TargetArch {
  unsigned number = 0;
  char suffix = ' ';
};
std::optional<TargetArch> target_arch(std::string_view name);

// Whether `target` satisfies one requirement as the table writes it: ">=sm_80" (that architecture or a later one,
// 11.1.2's onion layers, a- and f-targets included), "sm_90a" (that architecture-specific target only), "sm_100f+"
// (an f- or a-target of the sm_10x family from sm_100 on: Table 62, "family-specific features can be used with
// f-targets as well as a-targets of later generation devices in the same family"); a list separated by commas is
// satisfied by any of its entries.
bool target_satisfies(const TargetArch& target, std::string_view requirement);

// The error of a `.target` string newer than the module's `.version` (11.1.2's PTX ISA Notes: "Target string
// sm_100a introduced in PTX ISA version 8.6"); none when it is not newer, unknown, or the version is 0.
std::optional<std::string> target_string_finding(std::string_view name, unsigned version);

struct TargetNoteFinding {
  bool warning = false;  // a feature removed for the target (still defined), not one it lacks
  std::string message;
};

// What the notes say of `in` in a module of `version` (major * 10 + minor, 0 when unknown) and `target` (none when
// the module names no sm_ target): each requirement it does not meet, with its ISA section. Sentences the generator
// could not read give no requirement.
std::vector<TargetNoteFinding> target_note_findings(const Instruction& in, unsigned version, const std::optional<TargetArch>& target);

}  // namespace ptx::ir
