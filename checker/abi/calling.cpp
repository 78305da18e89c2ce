// Drives the chapter 1-3 check over a module (version, every `.func` prototype, every call, the system calls)
// and renders its findings as JSON and as `file:line:col: error:` diagnostics.
#include "checker/abi/calling_rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <tuple>

namespace ptxcheck::abi {
namespace calling {
namespace {
bool ident(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' || ch == '%'; }
// `name` as a whole PTX identifier in `line` (`c` is not found inside `.param`).
std::size_t find_word(const std::string& line, std::string_view name) {
  if (name.empty()) return std::string::npos;
  for (auto at = line.find(name); at != std::string::npos; at = line.find(name, at + 1)) {
    const bool before = at == 0 || !ident(line[at - 1]);
    const bool after = at + name.size() >= line.size() || !ident(line[at + name.size()]);
    if (before && after) return at;
  }
  return std::string::npos;
}
}  // namespace

void Context::add(std::uint32_t line, std::string_view name, std::string rule, std::string section,
                  std::string function, std::string message) {
  CallingFinding f;
  f.line = line;
  f.source_line = line_text(line);
  auto at = find_word(f.source_line, name);
  if (at == std::string::npos) at = f.source_line.find_first_not_of(" \t");
  f.column = line == 0 ? 0 : static_cast<std::uint32_t>(at == std::string::npos ? 1 : at + 1);
  f.rule = std::move(rule);
  f.section = std::move(section);
  f.function = std::move(function);
  f.message = std::move(message);
  report.findings.push_back(std::move(f));
}

bool is_array(const Context& c, const ptx::ir::Variable& v) {
  if (v.count != 1) return true;
  const std::string line = c.line_text(v.ptx_line);
  auto at = find_word(line, v.name);
  if (at == std::string::npos) return false;
  auto next = line.find_first_not_of(" \t", at + v.name.size());
  return next != std::string::npos && line[next] == '[';
}

std::string declaration(const Context& c, const ptx::ir::Variable& v) {
  std::string out = v.space == ptx::ir::StateSpace::reg ? ".reg" : ".param";
  if (v.align) out += fmt::format(" .align {}", v.align);
  out += " " + ptx::ir::type_name(v.type) + " " + v.name;
  if (is_array(c, v)) out += v.count ? fmt::format("[{}]", v.count) : "[]";
  return out;
}

}  // namespace calling

CallingReport check_calling_convention(const ptx::ir::Module& module, std::string_view ptx_text, const std::string& ptx_file) {
  CallingReport report;
  report.ptx_file = ptx_file;
  calling::Context c{module, ptx_text, LineIndex(ptx_text), report};
  // Chapter 2: "For the calling convention to work PTX version 2.0 or greater must be used."
  const bool has_func = std::any_of(module.functions.begin(), module.functions.end(), [](const auto& f) { return !f.is_entry; });
  if (has_func && module.version_major < 2) {
    std::uint32_t line = 0;
    for (std::uint32_t l = 1; l < 64 && line == 0; ++l)
      if (c.line_text(l).find(".version") != std::string::npos) line = l;
    c.add(line, ".version", "ptx-version", "2", "",
          fmt::format("PTX {}.{} predates the calling convention: chapter 2 needs PTX version 2.0 or greater",
                      module.version_major, module.version_minor));
  }
  for (const auto& fn : module.functions) {
    if (fn.is_entry) continue;  // 2.3 is about device functions; kernel parameters follow the launch ABI
    ++report.functions;
    for (std::size_t i = 0; i < fn.returns.size(); ++i)
      calling::check_declaration(c, fn, fn.returns[i], fmt::format("return value {}", i));
    for (std::size_t i = 0; i < fn.params.size(); ++i)
      calling::check_declaration(c, fn, fn.params[i], fmt::format("parameter {}", i));
  }
  for (const auto& fn : module.functions)
    if (fn.has_body) calling::check_calls(c, fn);
  calling::check_system_calls(c);
  std::stable_sort(report.findings.begin(), report.findings.end(),
                   [](const auto& a, const auto& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); });
  return report;
}

nlohmann::json to_json(const CallingReport& r) {
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings)
    findings.push_back({{"file", r.ptx_file}, {"line", f.line}, {"column", f.column}, {"rule", f.rule},
                        {"section", f.section}, {"function", f.function}, {"message", f.message}});
  return {{"ptx", r.ptx_file}, {"functions", r.functions}, {"calls", r.calls}, {"indirect_calls_unchecked", r.indirect},
          {"findings", findings}};
}

std::string to_text(const CallingReport& r) {
  std::string out;
  for (const auto& f : r.findings) {
    Diagnostic d{{r.ptx_file, f.line, f.column},
                 fmt::format("{} [ptx-interoperability {}, {}]", f.message, f.section, f.rule), f.source_line, "error"};
    out += d.render() + "\n";
  }
  out += fmt::format("{} calling-convention violations (ptx-interoperability chapters 1-3) in {} function prototypes "
                     "and {} calls",
                     r.findings.size(), r.functions, r.calls);
  if (r.indirect) out += fmt::format("; {} indirect calls: .callprototype not checked", r.indirect);
  return out + "\n";
}

}  // namespace ptxcheck::abi
