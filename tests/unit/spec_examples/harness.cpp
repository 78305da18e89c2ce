// The spec example harness (see harness.hpp): wrapping by shape, and the load / read errors / declare loop
// over ptx::parse_ptx and ptx::ir::build.
#include "harness.hpp"

#include "infer.hpp"
#include "semantics/ir/build.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace spec {
namespace {

std::string trim_left(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b);
}

bool starts_with_any(const std::string& s, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes)
    if (s.rfind(p, 0) == 0) return true;
  return false;
}

// An example is module-shaped when it defines or declares functions itself (ISA 11: module directives).
bool is_module_shaped(const std::vector<std::string>& lines) {
  for (const auto& l : lines)
    if (starts_with_any(trim_left(l), {".func", ".entry", ".function", ".visible", ".weak", ".extern", ".version",
                                       ".target"}))
      return true;
  return false;
}

struct Wrapped {
  std::string text;
  unsigned first_line = 0;  // line of the example's first line in `text` (1-based)
  unsigned line_count = 0;
};

// The module: header, harness module-scope declarations, the example's .global/.const lines (module scope
// only, ISA 5.1), then the kernel holding parameters, body declarations, the example and the added labels.
Wrapped wrap(const std::vector<std::string>& lines, bool module_shaped, const std::vector<Declaration>& decls,
             const std::string& target) {
  std::ostringstream out;
  unsigned line = 1;
  auto emit = [&](const std::string& s) {
    out << s << "\n";
    ++line;
  };
  emit(".version 9.0");
  emit(".target " + target);
  emit(".address_size 64");
  std::string params, body, labels;
  for (const auto& d : decls) {
    if (d.where == Declaration::Where::Module) emit(d.text);
    else if (d.where == Declaration::Where::Param) params += (params.empty() ? "" : ", ") + d.text;
    else if (d.where == Declaration::Where::Body) body += d.text + "\n";
    else labels += d.text + "\n";
  }
  Wrapped w;
  if (module_shaped) {
    w.first_line = line;
    for (const auto& l : lines) emit(l);
  } else {
    for (const auto& l : lines)
      if (starts_with_any(trim_left(l), {".global", ".const"})) emit(l);
    emit(".visible .entry spec_example(" + params + ")");
    emit("{");
    std::istringstream b(body);
    for (std::string l; std::getline(b, l);) emit(l);
    w.first_line = line;
    for (const auto& l : lines) emit(starts_with_any(trim_left(l), {".global", ".const"}) ? "" : l);
    std::istringstream lb(labels);
    for (std::string l; std::getline(lb, l);) emit(l);
    emit("}");
  }
  w.text = out.str();
  w.line_count = static_cast<unsigned>(lines.size());
  return w;
}

std::string located(const ptxcheck::Diagnostic& d, const Wrapped& w) {
  const auto l = d.where.line;
  std::string where = l >= w.first_line && l < w.first_line + w.line_count
                          ? "line " + std::to_string(l - w.first_line + 1)
                          : "harness line " + std::to_string(l);
  std::string source = d.source_line;
  while (!source.empty() && (source.front() == ' ' || source.front() == '\t')) source.erase(source.begin());
  if (source.size() > 90) source = source.substr(0, 87) + "...";
  return where + ": " + d.message + (source.empty() ? "" : " | " + source);
}

// Names the checker reports as undeclared (ISA 5.4: every name must be declared before use).
std::vector<std::string> undeclared_names(const std::vector<ptxcheck::Diagnostic>& errors) {
  static const std::regex re("^(?:undeclared (?:name|predicate)|undefined label) '([^']+)'");
  std::vector<std::string> out;
  for (const auto& e : errors) {
    std::smatch m;
    if (std::regex_search(e.message, m, re)) out.push_back(m[1]);
  }
  return out;
}

std::vector<std::string> split_lines(const std::string& code) {
  std::vector<std::string> lines;
  std::istringstream in(code);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

// Lines of 9.7's examples that break the rule their own section states, refused by ptxas too: an example whose only
// errors are these, each with exactly this message, passes (and the refusals are listed).
struct Contradiction {
  const char* message;
  const char* why;
};
const Contradiction kContradictions[] = {
    {"'cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.xor.s32': .xor takes .b32, .b64, not .s32: "
     "the .and, .or, .xor row for .global (ISA 9.7.9.25.4.2)",
     "9.7.9.25.4.2's table: .and, .or, .xor into .global take .b32, .b64 (ptxas: \"Incorrect type '.s32' for operation '.xor'\")"},
    {"not a form of tcgen05: .block_scale goes with .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4 (and they with it) "
     "(ISA 9.7.16.10.9)",
     "9.7.16.10.9.1's example `tcgen05.mma.cta_group::1.kind::mxf8f6f4 ... [tmem_scaleA], [tmem_scaleB], p` leaves out "
     ".block_scale, which every syntax line with scale operands writes (ptxas: \".block_scale modifier required\")"},
    {"not a form of tcgen05: tcgen05.mma names one .cta_group (ISA 9.7.16.10.9)",
     "9.7.16.11.1's example writes the syntax's placeholders `tcgen05.mma.cta_group.kind`, no .cta_group::1/2"},
    {"'suld.b.a1d.v2.b32' is no form of its syntax, suld.b.{1d|2d|3d|a1d|a2d}[.{ca|cg|cs|cv}][.{v2|v4}].{b8|b16|b32|b64}"
     ".{trap|clamp|zero} (ISA 9.7.11.1)",
     "9.7.11.1's example `suld.b.a1d.v2.b32` leaves out the .clamp its syntax line writes (ptxas: \"Clamp modifier required "
     "for instruction 'suld.b'\")"},
    {"'sust.b.a1d.v2.b64' is no form of its syntax, sust.b.{1d|2d|3d|a1d|a2d}[.{wb|cg|cs|wt}][.{v2|v4}].{b8|b16|b32|b64}"
     ".{trap|clamp|zero} (ISA 9.7.11.2)",
     "9.7.11.2's example `sust.b.a1d.v2.b64` leaves out the .clamp its syntax line writes (ptxas: \"Clamp modifier required "
     "for instruction 'sust.b'\")"},
    {"'suld.b.a2d.b32' is no form of its syntax, suld.b.{1d|2d|3d|a1d|a2d}[.{ca|cg|cs|cv}][.{v2|v4}].{b8|b16|b32|b64}"
     ".{trap|clamp|zero} (ISA 9.7.11.1)",
     "the same for 9.7.11.1's `suld.b.a2d.b32`"},
    {"'sust.b.a2d.b32' is no form of its syntax, sust.b.{1d|2d|3d|a1d|a2d}[.{wb|cg|cs|wt}][.{v2|v4}].{b8|b16|b32|b64}"
     ".{trap|clamp|zero} (ISA 9.7.11.2)",
     "the same for 9.7.11.2's `sust.b.a2d.b32`"},
    {"'sured.p.min.1d.u32.trap' is no form of its syntax, sured.p.{add|min|max|and|or}.{1d|2d|3d}.{b32|b64}.{trap|clamp|zero} "
     "(ISA 9.7.11.3)",
     "9.7.11.3's example `sured.p.min.1d.u32.trap` gives sured.p a .u32, where its .ctype is { .b32, .b64 } (ptxas: "
     "\"Unexpected instruction types specified for 'sured.p'\")"},
};

bool contradicted(const ptxcheck::Diagnostic& e) {
  return std::any_of(std::begin(kContradictions), std::end(kContradictions), [&](const Contradiction& c) { return e.message == c.message; });
}

}  // namespace

ExampleResult check_example(const std::string& code) {
  ExampleResult r;
  const auto lines = split_lines(code);
  const bool module_shaped = is_module_shaped(lines);
  r.shape = module_shaped ? "module" : "kernel";
  std::vector<Declaration> decls;
  std::set<std::string> declared;
  // The example's section may name an architecture-specific target (wgmma: sm_90a; tcgen05.ld.red: sm_101a/sm_103a,
  // its Target ISA Notes): when the target is all the checker refuses, the next one is tried. sm_13 last: 9.7 keeps
  // some sm_1x forms, such as 9.7.3.7's `mad.f32` without a rounding (".target sm_1x No rounding modifier").
  static const char* const kTargets[] = {"sm_100a", "sm_90a", "sm_103a", "sm_110a", "sm_120a", "sm_13"};
  std::size_t target = 0;
  while (r.rounds < kMaxRounds) {
    ++r.rounds;
    const Wrapped w = wrap(lines, module_shaped, decls, kTargets[target]);
    r.module_text = w.text;
    auto parsed = ptx::parse_ptx(w.text, "example.ptx");
    r.parsed = parsed.module.has_value();
    if (!parsed) {
      r.first_error = parsed.error ? located(*parsed.error, w) : "parse error";
      return r;
    }
    auto built = ptx::ir::build(*parsed.module);
    if (built) {
      r.ok = true;
      r.first_error.clear();
      return r;
    }
    r.first_error = located(built.errors.front(), w);
    if (std::all_of(built.errors.begin(), built.errors.end(), contradicted)) {
      for (const auto& e : built.errors) r.contradicted.push_back(located(e, w));
      r.ok = true;
      r.first_error.clear();
      return r;
    }
    const bool only_target = std::all_of(built.errors.begin(), built.errors.end(), [](const auto& e) {
      return e.message.find("Target ISA Notes)") != std::string::npos;
    });
    if (only_target && target + 1 < std::size(kTargets)) {
      ++target;
      continue;
    }
    const auto uses = collect_uses(parsed.module->module);
    bool added = false;
    for (const auto& full : undeclared_names(built.errors)) {
      // `r2.b0` (a video byte selector) or `x.lo`: the register is the part before the first dot.
      const std::string name = full.find('.', 1) == std::string::npos ? full : full.substr(0, full.find('.', 1));
      if (!declared.insert(name).second) continue;
      auto it = uses.find(full);
      const std::vector<Use> none;
      decls.push_back(infer_declaration(name, it == uses.end() ? none : it->second));
      r.added.push_back(decls.back().text);
      added = true;
    }
    if (!added) return r;
  }
  return r;
}

}  // namespace spec
