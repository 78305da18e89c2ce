// `ptxcheck coverage`: per instruction form of PTX ISA 9.0 chapter 9.7 (semantics/ir/isa_forms.def), whether
// ptxcheck parses it, runs it (interpreter), models it in the race checker and in the litmus engine; totals per
// 9.7 subsection. --json for tools, --why for each refusal's reason, --emit-ptx DIR for the kernels asked about.
#include "cli/commands.hpp"
#include "cli/coverage.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace ptxcheck::cli {
namespace {
struct CoverageArgs {
  bool json = false, why = false;
  std::string section;   // only forms whose section starts with this
  std::string emit_dir;  // write each form's kernel here
};

struct Tally {
  std::size_t forms = 0, parse = 0, run = 0, race = 0, litmus = 0;
  void add(const FormCoverage& c) {
    ++forms;
    parse += c.parse.yes;
    run += c.run.yes;
    race += c.race.yes;
    litmus += c.litmus.yes;
  }
};

nlohmann::json answer_json(const EngineAnswer& a) {
  nlohmann::json j = {{"supported", a.yes}};
  if (!a.yes) j["why"] = a.why;
  return j;
}

nlohmann::json tally_json(const Tally& t) {
  return {{"forms", t.forms}, {"parse", t.parse}, {"run", t.run}, {"race", t.race}, {"litmus", t.litmus}};
}

std::string tally_text(const Tally& t) {
  return fmt::format("{:4} forms  parse {:4}  run {:4}  race {:4}  litmus {:4}", t.forms, t.parse, t.run, t.race, t.litmus);
}

// 9.7.2 before 9.7.10: sections compare number by number.
struct SectionOrder {
  bool operator()(const std::string& a, const std::string& b) const {
    auto numbers = [](const std::string& s) {
      std::vector<int> v;
      for (std::size_t i = 0; i < s.size(); i = s.find('.', i) == std::string::npos ? s.size() : s.find('.', i) + 1) v.push_back(std::atoi(s.c_str() + i));
      return v;
    };
    return numbers(a) < numbers(b);
  }
};

bool in_section(const std::string& section, const std::string& prefix) {
  if (prefix.empty()) return true;
  return section.rfind(prefix, 0) == 0 && (section.size() == prefix.size() || section[prefix.size()] == '.');
}

void print_text(const std::vector<FormCoverage>& all, bool why) {
  std::cout << "PTX ISA 9.0 chapter 9.7, instruction forms (semantics/ir/isa_forms.def) and what each engine does with them:\n"
               "parse = the IR accepts it, run = the interpreter executes it, race = the race checker models it,\n"
               "litmus = the litmus engine models it; '-' = not supported (--why says why)\n";
  std::string group;
  for (const auto& c : all) {
    const std::string g = isa_group_of(c.form.section);
    if (g != group) {
      group = g;
      std::cout << "\n" << g << " " << isa_group_title(g) << "\n";
    }
    auto mark = [](const EngineAnswer& a, const char* name) { return a.yes ? std::string(name) : std::string(std::strlen(name) - 1, ' ') + "-"; };
    std::cout << fmt::format("  {:<14} {:<6} {:<3} {:<4} {:<6}  {} [{}]\n", c.form.section, mark(c.parse, "parse"), mark(c.run, "run"),
                             mark(c.race, "race"), mark(c.litmus, "litmus"), c.form.example, c.form.name);
    if (!why) continue;
    const std::array<std::pair<const char*, const EngineAnswer*>, 4> cols = {{{"parse", &c.parse}, {"run", &c.run}, {"race", &c.race}, {"litmus", &c.litmus}}};
    for (const auto& [name, a] : cols)
      if (!a->yes && !(a != &c.parse && !c.parse.yes)) std::cout << "      " << name << ": " << a->why << "\n";
  }
}

int run_coverage(const CoverageArgs& args) {
  std::vector<FormCoverage> all;
  std::map<std::string, Tally, SectionOrder> groups;
  std::map<std::string, bool> sections;
  Tally total;
  for (const auto& form : isa_forms()) {
    if (!in_section(form.section, args.section)) continue;
    all.push_back(measure(form));
    groups[isa_group_of(form.section)].add(all.back());
    total.add(all.back());
    sections[form.section] = true;
  }
  if (all.empty()) {
    std::cerr << "error: no instruction form in section '" << args.section << "'\n";
    return 2;
  }
  if (!args.emit_dir.empty()) {
    std::filesystem::create_directories(args.emit_dir);
    std::size_t n = 0;
    for (const auto& c : all) {
      // form007-9.7.1.1-sm_100a.ptx; "-deprecated" before the target for forms ptxas no longer takes
      const bool deprecated = c.form.name.find("(deprecated)") != std::string::npos;
      std::ofstream(fmt::format("{}/form{:03}-{}{}-{}.ptx", args.emit_dir, n++, c.form.section, deprecated ? "-deprecated" : "", c.form.target))
          << form_kernel(c.form).text;
    }
  }
  if (args.json) {
    nlohmann::json forms = nlohmann::json::array(), by_group = nlohmann::json::array();
    for (const auto& c : all)
      forms.push_back({{"section", c.form.section}, {"name", c.form.name}, {"target", c.form.target}, {"example", c.form.example},
                       {"instruction", c.instruction}, {"parse", answer_json(c.parse)}, {"run", answer_json(c.run)},
                       {"race", answer_json(c.race)}, {"litmus", answer_json(c.litmus)}});
    for (const auto& [g, t] : groups) by_group.push_back({{"section", g}, {"title", isa_group_title(g)}, {"totals", tally_json(t)}});
    nlohmann::json out = {{"spec", "PTX ISA 9.0"}, {"forms", forms}, {"groups", by_group},
                          {"sections", sections.size()}, {"totals", tally_json(total)}};
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  print_text(all, args.why);
  std::cout << "\nTotals per subsection\n";
  for (const auto& [g, t] : groups) std::cout << fmt::format("  {:<7} {:<56} {}\n", g, isa_group_title(g), tally_text(t));
  std::cout << fmt::format("  {:<7} {:<56} {}\n", "all", fmt::format("{} sections", sections.size()), tally_text(total));
  return 0;
}
}  // namespace

void register_coverage(CLI::App& app) {
  auto args = std::make_shared<CoverageArgs>();
  auto* cmd = app.add_subcommand("coverage", "Per instruction form of PTX ISA 9.7: what ptxcheck parses, runs, and models for races and litmus tests");
  cmd->add_flag("--json", args->json, "JSON: every form with each engine's answer and reason, totals per subsection");
  cmd->add_flag("--why", args->why, "Print each engine's reason under a form it does not support");
  cmd->add_option("--section", args->section, "Only this section and its subsections, e.g. 9.7.13 or 9.7.9.25");
  cmd->add_option("--emit-ptx", args->emit_dir, "Write the kernel each form was asked about to DIR (one .ptx per form)");
  cmd->callback([args]() { exit_code = run_coverage(*args); });
}

}  // namespace ptxcheck::cli
