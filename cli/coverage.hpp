// `ptxcheck coverage`: what each engine does with each instruction form of PTX ISA 9.0 chapter 9.7. The forms
// come from semantics/ir/isa_forms.def (the spec's headings, an example each); the answers come from the engines
// themselves, asked about the example: the IR builder (parse), the interpreter's instruction_supported (run), the
// race checker's inliner and prepare stage (race), the litmus builder (litmus). Nothing here decides support.
#pragma once

#include <string>
#include <vector>

namespace ptxcheck::cli {

struct IsaForm {
  std::string section, name, target, example;
};
// Every row of semantics/ir/isa_forms.def, in order.
const std::vector<IsaForm>& isa_forms();

// The example placed in the kernel isa_forms.def describes; the form's own instruction is alone on line
// `form_line` (setup instructions on the line before).
struct FormKernel {
  std::string text;
  unsigned form_line = 0;
  std::string form_text;  // the form's instruction, as written in the example
};
FormKernel form_kernel(const IsaForm& form);

struct EngineAnswer {
  bool yes = false;
  std::string why;  // when not: the engine's reason (a located diagnostic's message, an unsupported note)
};
struct FormCoverage {
  IsaForm form;
  std::string instruction;  // the opcode as the IR reads it (ir::opcode_text); empty when it does not parse
  EngineAnswer parse, run, race, litmus;
};
FormCoverage measure(const IsaForm& form);

// The spec's title of a 9.7 subsection ("9.7.13" -> "Parallel Synchronization and Communication"), from the
// table of contents of PTX ISA 9.0; empty for another section.
std::string isa_group_title(const std::string& group);
// "9.7.13.15.13" -> "9.7.13"
std::string isa_group_of(const std::string& section);

}  // namespace ptxcheck::cli
