// `ptxcheck prove [NAME...] [--list] [--json] [--timeout MS]`: runs the bounded theorems of proofs/ and prints
// each theorem, its bound, verdict and time. Exit 0 all proved, 1 one refuted, 2 unknown name, 3 one unknown.
#include "cli/commands.hpp"
#include "proofs/theorem.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

namespace ptxcheck::cli {
namespace {
struct ProveArgs {
  std::vector<std::string> names;  // names or prefixes (`identity.`, `identity.prmt`)
  bool list = false, json = false;
  proofs::Budget budget;
};

bool selected(const std::string& name, const std::vector<std::string>& names) {
  if (names.empty()) return true;
  for (const auto& n : names)
    if (name.rfind(n, 0) == 0) return true;
  return false;
}

int run_prove(const ProveArgs& args) {
  std::vector<const proofs::Theorem*> chosen;
  for (const auto& t : proofs::all_theorems())
    if (selected(t.name, args.names)) chosen.push_back(&t);
  if (chosen.empty()) {
    std::cerr << "error: no theorem matches";
    for (const auto& n : args.names) std::cerr << " '" << n << "'";
    std::cerr << " (ptxcheck prove --list)\n";
    return 2;
  }
  if (args.list) {
    for (const auto* t : chosen) std::cout << fmt::format("{}\n  {}\n  bound: {}\n", t->name, t->statement, t->bound);
    return 0;
  }
  int rc = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto* t : chosen) {
    auto r = proofs::run_theorem(*t, args.budget);
    if (r.verdict == proofs::Verdict::refuted) rc = worst_exit(rc, 1);
    else if (r.verdict == proofs::Verdict::unknown) rc = worst_exit(rc, 3);
    if (args.json) {
      all.push_back({{"name", t->name}, {"statement", t->statement}, {"bound", t->bound},
                     {"verdict", proofs::verdict_name(r.verdict)}, {"detail", r.detail}, {"seconds", r.seconds},
                     {"recorded_verdict", proofs::verdict_name(proofs::expected_verdict(t->name))}});
    } else {
      std::cout << fmt::format("{:<44} {:<8} {:>8.2f}s  {}\n", t->name, proofs::verdict_name(r.verdict), r.seconds, t->bound);
      std::cout << fmt::format("    {}\n", t->statement);
      const char* label = r.verdict == proofs::Verdict::refuted ? "counterexample"
                          : r.verdict == proofs::Verdict::unknown ? "reason"
                                                                   : "checked";
      if (!r.detail.empty()) std::cout << fmt::format("    {}: {}\n", label, r.detail);
      if (auto f = proofs::recorded_findings().find(t->name); f != proofs::recorded_findings().end())
        std::cout << fmt::format("    recorded finding (proofs/FINDINGS.md, expected {}): {}\n",
                                 r.verdict == proofs::Verdict::refuted ? "and reproduced" : "but NOT reproduced", f->second);
      std::cout.flush();
    }
  }
  if (args.json) std::cout << all.dump(2) << "\n";
  return rc;
}
}  // namespace

void register_prove(CLI::App& app) {
  auto args = std::make_shared<ProveArgs>();
  auto* cmd = app.add_subcommand("prove", "Check the bounded theorems of proofs/ with Z3 (instruction identities, model properties)");
  cmd->add_option("names", args->names, "theorem names or prefixes (default: all)");
  cmd->add_flag("--list", args->list, "list the theorems with their statements and bounds");
  cmd->add_flag("--json", args->json, "print the results as JSON");
  cmd->add_option("--timeout", args->budget.timeout_ms, "Z3 time budget per solver call, in milliseconds")->capture_default_str();
  cmd->add_option("--memory", args->budget.memory_mb, "Z3 memory budget, in MB")->capture_default_str();
  cmd->callback([args]() { exit_code = run_prove(*args); });
}

}  // namespace ptxcheck::cli
