// check_compiled: compile + lift (lift.cpp), run the lifted test under the PTX model and the source test
// (source_test.cpp) under scoped RC11, and compare their outcome sets; witnesses from the engine.
#include "litmus/compile/check.hpp"

#include "litmus/compile/source_test.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"
#include "litmus/report/report.hpp"
#include "memmodel/cat/parse.hpp"
#include "semantics/support/files.hpp"
#include "semantics/support/install_layout.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <sstream>

namespace ptxcheck::litmus_compile {

namespace {
// `model` with one more axiom: relation `name` is empty, or (negated) not empty.
cat::Model with_empty_check(cat::Model model, const std::string& name, bool negated) {
  cat::Axiom ax;
  ax.kind = cat::AxiomKind::empty;
  ax.negated = negated;
  ax.body = std::make_shared<const cat::Expr>(cat::Expr{cat::Name{name}, 0});
  ax.name = (negated ? "nonempty-" : "empty-") + name;
  model.statements.emplace_back(std::move(ax));
  return model;
}
}  // namespace

cat::Model with_nonempty_axiom(cat::Model model, const std::string& name) { return with_empty_check(std::move(model), name, true); }
cat::Model with_empty_axiom(cat::Model model, const std::string& name) { return with_empty_check(std::move(model), name, false); }

std::optional<CheckModels> load_check_models(const CheckOptions& options, std::vector<std::string>& errors) {
  auto ptx = litmus::load_named_model(options.ptx_model, errors);
  const std::string src = options.source_model.empty() ? (models_dir() / "scoped-c11.cat").string() : options.source_model;
  auto c11 = litmus::load_named_model(src, errors);
  if (!ptx || !c11) return std::nullopt;
  bool has_race = false;
  for (const auto& st : c11->statements)
    if (auto* let = std::get_if<cat::Let>(&st))
      for (const auto& b : let->bindings) has_race |= b.name == "data-race";
  if (!has_race) {
    errors.push_back(src + ": the source model defines no `data-race` relation");
    return std::nullopt;
  }
  CheckModels m{*ptx, *c11, with_nonempty_axiom(*c11, "data-race")};
  return m;
}

std::vector<Outcome> extra_outcomes(const litmus::Result& target, const litmus::Result& reference) {
  std::vector<Outcome> out;
  for (const auto& s : target.states) {
    bool found = false;
    for (const auto& r : reference.states) found |= r.values == s.values;
    if (found) continue;
    Outcome o;
    o.values = s.values;
    o.satisfies = s.satisfies;
    if (s.witness) {
      const auto& x = *s.witness;
      o.events = x.labels;
      for (const char* rel : {"rf", "co"}) {
        auto it = x.rels.find(rel);
        if (it == x.rels.end()) continue;
        for (int a = 0; a < x.n; ++a)
          for (int b = 0; b < x.n; ++b)
            if (it->second.has(a, b)) o.edges.push_back(fmt::format("e{} -{}-> e{}", a, rel, b));
      }
    }
    out.push_back(std::move(o));
  }
  return out;
}

namespace {
bool undecided(const litmus::Result& r) { return r.result == "unknown" || r.result == "error"; }
}  // namespace

CompiledReport check_compiled(const std::string& path, const CheckModels& models, const CheckOptions& options) {
  auto t0 = std::chrono::steady_clock::now();
  CompiledReport rep;
  rep.file = path;
  rep.ptx_model = models.ptx.file.empty() ? models.ptx.title : models.ptx.file;
  rep.source_model = models.source.file.empty() ? models.source.title : models.source.file;
  auto finish = [&]() -> CompiledReport {
    rep.time_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return rep;
  };
  auto text = read_text_file(path);
  if (!text) return rep.reason = "cannot read " + path, finish();
  auto parsed = parse_cu_litmus(*text, path);
  if (!parsed.test) return rep.reason = parsed.error->render(), finish();
  rep.name = parsed.test->name;
  Diagnostic err;
  auto prog = cxx_program(*parsed.test, path, err);
  if (!prog) return rep.reason = err.render(), finish();
  rep.source_litmus = c11_litmus(*prog);

  auto compiled = compile_litmus(*parsed.test, path, options.cuda);
  if (compiled.error) return rep.reason = compiled.error->render(), finish();
  rep.compiled_litmus = compiled.ptx_litmus;

  std::vector<Diagnostic> diags;
  auto src_test = litmus::parse_litmus(rep.source_litmus, rep.name + ".source.litmus", diags);
  auto cmp_test = litmus::parse_litmus(rep.compiled_litmus, rep.name + ".litmus", diags);
  if (!src_test || !cmp_test) return rep.reason = diags.empty() ? "a generated litmus test does not parse" : diags[0].render(), finish();

  litmus::Options opt = options.engine;
  opt.explain = false;
  opt.keep_witnesses = true;
  rep.compiled = litmus::run_test(*cmp_test, models.ptx, opt);
  rep.source = litmus::run_test(*src_test, models.source, opt);
  litmus::Options race_opt = opt;
  race_opt.keep_witnesses = false;
  auto racy = litmus::run_test(*src_test, models.source_race, race_opt);
  for (auto* r : {&rep.compiled, &rep.source, &racy})
    if (undecided(*r)) {
      rep.verdict = "unknown";
      rep.reason = (r == &rep.compiled ? "compiled test: " : "source test: ") + r->result + " (" + r->reason + ")";
      for (const auto& u : r->unsupported) rep.reason += "\n" + u;
      return finish();
    }
  rep.source_racy = !racy.states.empty();
  if (rep.source_racy) {
    // C++ [intro.races]: a data race makes the behaviour undefined, so every compiled outcome is allowed.
    rep.verdict = "consistent";
    return finish();
  }
  rep.extra = extra_outcomes(rep.compiled, rep.source);
  rep.verdict = rep.extra.empty() ? "consistent" : "extra-outcomes";
  return finish();
}

CompiledReport check_compiled(const std::string& path, const CheckOptions& options) {
  std::vector<std::string> errors;
  auto models = load_check_models(options, errors);
  if (!models) {
    CompiledReport rep;
    rep.file = path;
    for (const auto& e : errors) rep.reason += (rep.reason.empty() ? "" : "\n") + e;
    return rep;
  }
  return check_compiled(path, *models, options);
}

int exit_code(const CompiledReport& r) {
  if (r.verdict == "consistent") return 0;
  if (r.verdict == "extra-outcomes") return 1;
  if (r.verdict == "unknown") return 3;
  return 2;
}

namespace {
std::string render_values(const std::map<std::string, std::int64_t>& v) {
  std::string s;
  for (const auto& [k, x] : v) s += fmt::format("{}{}={};", s.empty() ? "" : " ", k, x);
  return s;
}
}  // namespace

nlohmann::json to_json(const CompiledReport& r) {
  nlohmann::json j = {{"file", r.file}, {"name", r.name}, {"verdict", r.verdict}, {"reason", r.reason},
                      {"ptx_model", r.ptx_model}, {"source_model", r.source_model},
                      {"source_litmus", r.source_litmus}, {"compiled_litmus", r.compiled_litmus},
                      {"source_racy", r.source_racy}, {"time_ms", r.time_ms}};
  if (!r.source_litmus.empty() && r.verdict != "error") {
    j["source"] = litmus::render_json(r.source);
    j["compiled"] = litmus::render_json(r.compiled);
  }
  nlohmann::json extra = nlohmann::json::array();
  for (const auto& o : r.extra)
    extra.push_back({{"values", o.values}, {"satisfies_condition", o.satisfies}, {"events", o.events}, {"edges", o.edges}});
  j["extra_outcomes"] = extra;
  return j;
}

std::string render_text(const CompiledReport& r) {
  std::string out = fmt::format("Test {} ({})\n", r.name.empty() ? r.file : r.name, r.file);
  if (r.verdict == "error") return out + "error: " + r.reason + "\n";
  out += fmt::format("Compiled (PTX model {}): {} state(s), condition {}\n", r.ptx_model, r.compiled.states.size(), r.compiled.result);
  for (const auto& s : r.compiled.states) out += fmt::format("  {}{}\n", render_values(s.values), s.satisfies ? "  <- condition" : "");
  out += fmt::format("Source (scoped RC11, {}): {} state(s), condition {}{}\n", r.source_model, r.source.states.size(),
                     r.source.result, r.source_racy ? "; the source has a data race: undefined, every outcome allowed" : "");
  for (const auto& s : r.source.states) out += fmt::format("  {}{}\n", render_values(s.values), s.satisfies ? "  <- condition" : "");
  if (r.verdict == "unknown") out += "unknown: " + r.reason + "\n";
  for (const auto& o : r.extra) {
    out += fmt::format("Only the compiled program has: {}\n  witness (compiled execution):\n", render_values(o.values));
    for (const auto& e : o.events) out += "    " + e + "\n";
    std::string edges;
    for (const auto& e : o.edges) edges += (edges.empty() ? "" : ", ") + e;
    out += "    " + edges + "\n";
  }
  out += fmt::format("Verdict: {} ({:.0f} ms)\n", r.verdict, r.time_ms);
  return out;
}

}  // namespace ptxcheck::litmus_compile
