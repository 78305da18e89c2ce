// The engines' answers for each instruction form of isa_forms.def (coverage.hpp).
#include "cli/coverage.hpp"

#include "checker/race/encode.hpp"
#include "checker/race/inline.hpp"
#include "litmus/build/threads.hpp"
#include "litmus/parse/parse.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/ptx/parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace ptxcheck::cli {
namespace {
// The kernel of isa_forms.def's header, around the fragment; kept in step with that header's description.
constexpr const char* kernel_head = R"(.version 9.0
.target {target}
.address_size 64

.global .align 16 .b8 gbuf[4096];
.const .align 16 .b8 cbuf[256];
.global .texref tex0;
.global .surfref surf0;

.func (.param .b32 callee_out) callee (.param .b32 callee_in)
{{
  .reg .b32 %t;
  ld.param.b32 %t, [callee_in];
  st.param.b32 [callee_out], %t;
  ret;
}}

.visible .entry coverage_kernel(.param .u64 p0, .param .align 64 .b8 tmap[128])
{{
  .reg .pred %p<8>;
  .reg .b16 %h<16>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  .reg .f32 %f<32>;
  .reg .f64 %fd<8>;
  .reg .b128 %q<4>;
  .shared .align 128 .b8 smem[4096];
  .shared .align 8 .b64 mbar;
)";

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The litmus engine asked about the form: a one-thread test whose only instruction is the form, every address
// operand naming the test's one location. Unsupported opcodes and qualifiers come back as the builder's diagnostics.
EngineAnswer litmus_answer(const std::string& form_text) {
  std::string cell = std::regex_replace(form_text, std::regex(R"(\[[^\]]*\])"), "[x]");
  while (!cell.empty() && (cell.back() == ';' || cell.back() == ' ')) cell.pop_back();
  // Any other mbarrier operation on an object no mbarrier.init set up is undefined (ISA 9.7.13.15), which the
  // litmus builder refuses: the form is asked after an init.
  const bool needs_init = cell.rfind("mbarrier.", 0) == 0 && cell.rfind("mbarrier.init", 0) != 0;
  if (needs_init) cell = "mbarrier.init.shared::cta.b64 [x], 1 ;\n " + cell;
  const std::string text = "PTX coverage\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n " + cell + " ;\nexists (x == 0)\n";
  std::vector<Diagnostic> diags;
  auto test = litmus::parse_litmus(text, "coverage.litmus", diags);
  auto refused = [&](const char* stage) {
    return EngineAnswer{false, diags.empty() ? std::string(stage) : stage + std::string(": ") + diags.front().message};
  };
  if (!test) return refused("not in the litmus dialect");
  litmus::Program program;
  if (!litmus::build_program(*test, program, diags)) return refused("not modelled");
  std::vector<std::set<std::int64_t>> values(program.pnames.size(), std::set<std::int64_t>{0});
  std::vector<litmus::Trace> traces;
  if (!litmus::thread_traces(*test, program, 0, values, 2, traces, diags)) return refused("not modelled");
  return {true, {}};
}

// The race checker asked about the form: the kernel inlined and prepared as `ptxcheck race` does; the form is
// unsupported when prepare lists an instruction of its line.
EngineAnswer race_answer(const ptx::ir::Module& m, const ptx::ir::Function& kernel, unsigned form_line) {
  const auto inl = race::inline_calls(m, kernel, race::InlineOptions{});
  std::map<std::uint32_t, std::string> calls(inl.unsupported.begin(), inl.unsupported.end());
  const auto prep = race::prepare(m, inl.function, calls);
  for (const auto& u : prep.unsupported)
    if (inl.function.body[u.instr].loc.ptx_line == form_line) return {false, "unsupported: " + u.what};
  return {true, {}};
}
}  // namespace

const std::vector<IsaForm>& isa_forms() {
  static const std::vector<IsaForm> forms = {
#define PTX_FORM(section, name, target, example) {section, name, target, example},
#include "semantics/ir/isa_forms.def"
#undef PTX_FORM
  };
  return forms;
}

FormKernel form_kernel(const IsaForm& form) {
  // The fragment's last instruction is the form: split after the last ';' that is followed by more text.
  std::string setup, own = form.example;
  const auto end = form.example.find_last_not_of(" ");
  const auto cut = end == std::string::npos || end == 0 ? std::string::npos : form.example.rfind(';', end - 1);
  if (cut != std::string::npos && form.example.find('{') == std::string::npos) {
    setup = form.example.substr(0, cut + 1);
    own = form.example.substr(cut + 1);
    own.erase(0, own.find_first_not_of(' '));
  }
  FormKernel k;
  k.text = fmt::format(fmt::runtime(kernel_head), fmt::arg("target", form.target));
  const auto lines_before = static_cast<unsigned>(std::count(k.text.begin(), k.text.end(), '\n'));
  k.text += "  " + setup + "\n  " + own + "\ndone:\n  ret;\n}\n";
  k.form_line = lines_before + 2;
  k.form_text = own;
  return k;
}

FormCoverage measure(const IsaForm& form) {
  FormCoverage c;
  c.form = form;
  const FormKernel k = form_kernel(form);
  const EngineAnswer no_parse{false, "does not parse"};
  c.run = c.race = no_parse;
  c.litmus = litmus_answer(k.form_text);
  auto parsed = ptx::parse_ptx(k.text, "coverage.ptx");
  if (!parsed) {
    c.parse = {false, first_line(parsed.error->message)};
    return c;
  }
  auto built = ptx::ir::build(*parsed.module);
  if (!built) {
    c.parse = {false, built.errors.empty() ? "rejected" : first_line(built.errors.front().message)};
    return c;
  }
  const ptx::ir::Module& m = *built.module;
  const ptx::ir::Function* kernel = nullptr;
  for (const auto* f : m.kernels()) kernel = f;
  const ptx::ir::Instruction* own = nullptr;
  for (const auto& ins : kernel->body)
    if (ins.loc.ptx_line == k.form_line) own = &ins;
  if (!own) {
    c.parse = {false, "no instruction on the form's line"};
    return c;
  }
  c.parse = {true, {}};
  c.instruction = ptx::ir::opcode_text(*own);
  c.run = ptx::interp::instruction_supported(*own) ? EngineAnswer{true, {}} : EngineAnswer{false, ptx::interp::instruction_unsupported_reason(*own)};
  c.race = race_answer(m, *kernel, k.form_line);
  return c;
}

std::string isa_group_of(const std::string& section) {
  const auto a = section.find('.', 2);  // "9.7."
  const auto b = a == std::string::npos ? a : section.find('.', a + 1);
  return b == std::string::npos ? section : section.substr(0, b);
}

std::string isa_group_title(const std::string& group) {
  // PTX ISA 9.0, table of contents of chapter 9.7.
  static const std::map<std::string, std::string> titles = {
      {"9.7.1", "Integer Arithmetic"},
      {"9.7.2", "Extended-Precision Integer Arithmetic"},
      {"9.7.3", "Floating-Point"},
      {"9.7.4", "Half Precision Floating-Point"},
      {"9.7.5", "Mixed Precision Floating-Point"},
      {"9.7.6", "Comparison and Selection"},
      {"9.7.7", "Half Precision Comparison"},
      {"9.7.8", "Logic and Shift"},
      {"9.7.9", "Data Movement and Conversion"},
      {"9.7.10", "Texture"},
      {"9.7.11", "Surface"},
      {"9.7.12", "Control Flow"},
      {"9.7.13", "Parallel Synchronization and Communication"},
      {"9.7.14", "Warp Level Matrix Multiply-Accumulate"},
      {"9.7.15", "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"},
      {"9.7.16", "TensorCore 5th Generation Family"},
      {"9.7.17", "Stack Manipulation"},
      {"9.7.18", "Video"},
      {"9.7.19", "Miscellaneous"},
  };
  auto it = titles.find(group);
  return it == titles.end() ? std::string() : it->second;
}

}  // namespace ptxcheck::cli
