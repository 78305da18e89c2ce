// Memory-model theorems within a stated bound, checked by running generated litmus tests through the
// litmus engine (litmus::run_test, the same API whether its enumerator is explicit or Z3-based):
//   mapping.*   the chapter-4 C++ -> PTX mapping (checker/abi/table.cpp) adds no outcome to scoped RC11;
//   model.fence_sc_*  fence.sc between every pair of accesses restores sequential consistency;
//   model.drf_sc_*    programs without data races (PTX ISA 8.7.1) have only SC outcomes.
// Each family is enumerated programmatically up to the renaming of locations and of symmetric threads.
#include "checker/abi/table.hpp"
#include "checker/race/strength.hpp"
#include "litmus/compile/check.hpp"
#include "litmus/compile/source_test.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"
#include "proofs/families.hpp"
#include "semantics/support/install_layout.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

namespace ptxcheck::proofs {
namespace {
using abi::OpKind;
using abi::Order;
using abi::ThreadScope;
using litmus_compile::CxxOp;
using litmus_compile::CxxProgram;
using litmus_compile::CxxThread;
using litmus_compile::LitmusColumn;

// ---------------------------------------------------------------- models (loaded once)
struct Models {
  cat::Model ptx, sc;
  cat::Model c11, c11_race;          // scoped-c11.cat, and its racy executions
  cat::Model c11_no_nta;             // scoped-c11.cat without its no-thin-air axiom (po | rf acyclic)
  cat::Model ptx_race;               // ptx.cat executions with an 8.7.1 data race
  cat::Model ptx_weak_race;          // ... with one between a weak access and another access
  cat::Model ptx_no_weak_race;       // ... without any such race
};

cat::Model without_axiom(cat::Model m, const std::string& name) {
  std::erase_if(m.statements, [&](const cat::Statement& st) {
    auto* ax = std::get_if<cat::Axiom>(&st);
    return ax && ax->name == name;
  });
  return m;
}

const Models* models(std::string& error) {
  static std::unique_ptr<Models> loaded;
  static std::string load_error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    std::vector<std::string> errors;
    const std::string dir = models_dir().string();
    auto ptx = litmus::load_named_model("ptx", errors);
    auto sc = litmus::load_named_model(dir + "/sc.cat", errors);
    auto c11 = litmus::load_named_model(dir + "/scoped-c11.cat", errors);
    auto race = litmus::load_named_model((proofs_models_dir() / "ptx-race.cat").string(), errors);
    if (ptx && sc && c11 && race) {
      loaded = std::make_unique<Models>(Models{*ptx, *sc, *c11, litmus_compile::with_nonempty_axiom(*c11, "data-race"),
                                               without_axiom(*c11, "no-thin-air"),
                                               litmus_compile::with_nonempty_axiom(*race, "data-race"),
                                               litmus_compile::with_nonempty_axiom(*race, "weak-data-race"),
                                               litmus_compile::with_empty_axiom(*race, "weak-data-race")});
    } else {
      for (const auto& e : errors) load_error += e + "\n";
    }
  }
  error = load_error;
  return loaded.get();
}

// ---------------------------------------------------------------- one comparison per generated test
struct Case {
  std::string target;     // litmus text run under the target model
  std::string reference;  // litmus text run under the reference model (may equal target)
  std::string summary;    // one-line description of the program
};

// Outcome inclusion over a family: every outcome of `target` (under target_model) is an outcome of
// `reference` (under reference_model); a case where `guard_model` has a consistent execution of the
// guarded test (the reference's when guard_on_reference, else the target's) is out of the claim (racy).
struct Inclusion {
  const cat::Model* target_model = nullptr;
  const cat::Model* reference_model = nullptr;
  const cat::Model* guard_model = nullptr;
  bool guard_on_reference = true;
  std::string guard_name = "racy";
};

// The litmus engine's limits for a theorem's budget.
litmus::Options litmus_options(const Budget& budget) {
  litmus::Options opt;
  opt.solver_timeout_ms = budget.timeout_ms;  // the symbolic engine's per-check budget (unknown beyond it)
  opt.solver_memory_mb = budget.memory_mb;
  if (budget.rlimit) opt.max_candidates = budget.rlimit;  // the explicit engine's (deterministic) budget
  return opt;
}

ProofResult check_family(const std::vector<Case>& cases, const Inclusion& inc, const Budget& budget) {
  ProofResult res;
  const litmus::Options opt = litmus_options(budget);
  long long guarded = 0, unknown = 0, refuted = 0;
  std::string first_unknown, first_cex;
  long long checked = 0;
  for (const auto& c : cases) {
    if (refuted) break;  // one counterexample refutes the theorem
    ++checked;
    std::vector<Diagnostic> diags;
    auto target = litmus::parse_litmus(c.target, "target.litmus", diags);
    auto reference = litmus::parse_litmus(c.reference, "reference.litmus", diags);
    if (!target || !reference) {
      res.verdict = Verdict::unknown;
      res.detail = "a generated test does not parse: " + (diags.empty() ? std::string("?") : diags[0].render()) + "\n" + c.target;
      return res;
    }
    auto undecided = [&](const litmus::Result& r) {
      if (r.result != "unknown" && r.result != "error") return false;
      if (unknown++ == 0) first_unknown = c.summary + ": " + r.result + " (" + r.reason + ")";
      return true;
    };
    if (inc.guard_model) {
      auto g = litmus::run_test(inc.guard_on_reference ? *reference : *target, *inc.guard_model, opt);
      if (undecided(g)) continue;
      if (!g.states.empty()) { ++guarded; continue; }
    }
    litmus::Options wopt = opt;
    wopt.keep_witnesses = true;
    auto t = litmus::run_test(*target, *inc.target_model, wopt);
    auto r = litmus::run_test(*reference, *inc.reference_model, opt);
    if (undecided(t) || undecided(r)) continue;
    auto extra = litmus_compile::extra_outcomes(t, r);
    if (extra.empty()) continue;
    if (refuted++ == 0) {  // (the loop stops after this one)
      std::string values;
      for (const auto& [k, v] : extra[0].values) values += fmt::format("{}={}; ", k, v);
      first_cex = fmt::format("{}\n  outcome allowed by the target model only: {}\n  target test:\n{}  witness:\n", c.summary,
                              values, c.target);
      for (const auto& e : extra[0].events) first_cex += "    " + e + "\n";
      std::string edges;
      for (const auto& e : extra[0].edges) edges += (edges.empty() ? "" : ", ") + e;
      first_cex += "    " + edges;
    }
  }
  const std::string counts = fmt::format("{} of {} programs checked, {} {} (outside the claim), {} counterexample(s), {} unknown",
                                         checked, cases.size(), guarded, inc.guard_name, refuted, unknown);
  if (refuted) {
    res.verdict = Verdict::refuted;
    res.detail = counts + "; first: " + first_cex;
  } else if (unknown) {
    res.verdict = Verdict::unknown;
    res.detail = counts + "; first: " + first_unknown;
  } else if (guarded == static_cast<long long>(cases.size())) {
    res.verdict = Verdict::unknown;  // nothing inside the claim: a proof would be vacuous
    res.detail = counts + "; vacuous: every program of the family is outside the claim";
  } else {
    res.verdict = Verdict::proved;
    res.detail = counts;
  }
  return res;
}

// ---------------------------------------------------------------- program families
// A family: `threads` threads, each a sequence of `per_thread` slots filled from `menu`; programs are kept
// up to the renaming x <-> y and, when every thread has the same place, up to the order of the threads.
template <class Op>
std::vector<std::vector<std::vector<Op>>> programs(int threads, int per_thread, const std::vector<Op>& menu,
                                                   const std::function<Op(const Op&)>& swap_locations, bool symmetric_threads) {
  std::vector<std::vector<std::vector<Op>>> out;
  std::set<std::string> seen;
  auto key = [&](const std::vector<std::vector<Op>>& p) {
    std::string k;
    for (const auto& th : p) {
      for (const auto& op : th) k += op.key() + ",";
      k += "|";
    }
    return k;
  };
  const long long slots = static_cast<long long>(threads) * per_thread;
  long long total = 1;
  for (long long i = 0; i < slots; ++i) total *= static_cast<long long>(menu.size());
  for (long long n = 0; n < total; ++n) {
    std::vector<std::vector<Op>> p(threads);
    long long m = n;
    for (int t = 0; t < threads; ++t)
      for (int s = 0; s < per_thread; ++s) p[t].push_back(menu[m % menu.size()]), m /= menu.size();
    // canonical representative: the least key over the symmetry group
    std::vector<std::vector<std::vector<Op>>> variants{p};
    auto q = p;
    for (auto& th : q)
      for (auto& op : th) op = swap_locations(op);
    variants.push_back(q);
    if (symmetric_threads) {
      for (std::size_t i = 0, e = variants.size(); i < e; ++i) {
        auto v = variants[i];
        std::sort(v.begin(), v.end(), [&](auto& a, auto& b) { return key({a}) < key({b}); });
        variants.push_back(v);
      }
    }
    std::string best = key(p);
    for (const auto& v : variants) best = std::min(best, key(v));
    if (seen.insert(best).second) {
      for (const auto& v : variants)
        if (key(v) == best) { out.push_back(v); break; }
    }
  }
  return out;
}

// The condition that names every register and location, so the engine reports full final states.
std::string all_terms_condition(const std::vector<std::vector<std::string>>& regs, const std::vector<std::string>& locs) {
  std::string c;
  for (std::size_t t = 0; t < regs.size(); ++t)
    for (const auto& r : regs[t]) c += fmt::format("{}P{}:{} == 99", c.empty() ? "" : " \\/ ", t, r);
  for (const auto& l : locs) c += fmt::format("{}{} == 99", c.empty() ? "" : " \\/ ", l);
  return "exists (" + c + ")";
}

// ---- the classic two-thread shapes: each thread accesses both locations (kind, location) per slot
struct Access { bool write; int loc; };
struct Shape { const char* name; std::vector<std::vector<Access>> threads; };
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all = {
      {"MP", {{{true, 0}, {true, 1}}, {{false, 1}, {false, 0}}}},
      {"SB", {{{true, 0}, {false, 1}}, {{true, 1}, {false, 0}}}},
      {"LB", {{{false, 0}, {true, 1}}, {{false, 1}, {true, 0}}}},
      {"S", {{{true, 0}, {true, 1}}, {{false, 1}, {true, 0}}}},
      {"R", {{{true, 0}, {true, 1}}, {{true, 1}, {false, 0}}}},
      {"2+2W", {{{true, 0}, {true, 1}}, {{true, 1}, {true, 0}}}},
  };
  return all;
}
std::vector<Shape> shapes_named(std::initializer_list<const char*> names) {
  std::vector<Shape> out;
  for (const auto* n : names)
    for (const auto& s : shapes())
      if (std::string(s.name) == n) out.push_back(s);
  return out;
}

// Every filling of the shapes' slots: a read slot from `reads`, a write slot from `writes` (slot templates
// whose kind and location the shape sets).
template <class Op>
std::vector<std::vector<std::vector<Op>>> fill(const std::vector<Shape>& shs, const std::vector<Op>& reads, const std::vector<Op>& writes,
                                               const std::function<Op(Op, const Access&)>& place) {
  std::vector<std::vector<std::vector<Op>>> out;
  for (const auto& sh : shs) {
    std::vector<const Access*> slots;
    for (const auto& th : sh.threads)
      for (const auto& a : th) slots.push_back(&a);
    std::vector<std::size_t> idx(slots.size(), 0);
    for (;;) {
      std::vector<std::vector<Op>> p(sh.threads.size());
      std::size_t k = 0;
      for (std::size_t t = 0; t < sh.threads.size(); ++t)
        for (const auto& a : sh.threads[t]) {
          const auto& menu = a.write ? writes : reads;
          p[t].push_back(place(menu[idx[k]], a));
          ++k;
        }
      out.push_back(std::move(p));
      std::size_t j = 0;
      for (; j < slots.size(); ++j) {
        if (++idx[j] < (slots[j]->write ? writes : reads).size()) break;
        idx[j] = 0;
      }
      if (j == slots.size()) break;
    }
  }
  return out;
}

const char* kLocs[] = {"x", "y"};

// ---- C++ programs for the mapping theorems
struct CxxSlot {
  OpKind kind = OpKind::Load;
  bool plain = false;
  Order order = Order::relaxed;
  ThreadScope scope = ThreadScope::device;
  int loc = 0;
  std::string key() const {
    return fmt::format("{}{}{}{}{}", static_cast<int>(kind), plain, static_cast<int>(order), static_cast<int>(scope), loc);
  }
};

CxxProgram cxx_of(const std::vector<std::vector<CxxSlot>>& p, const std::vector<int>& ctas, std::vector<std::vector<std::string>>& regs) {
  CxxProgram prog;
  prog.name = "gen";
  prog.init = {{"x", 0}, {"y", 0}};
  int stores[2] = {0, 0};
  regs.assign(p.size(), {});
  for (std::size_t t = 0; t < p.size(); ++t) {
    CxxThread th;
    th.index = static_cast<unsigned>(t);
    th.cta = ctas[t];
    for (const auto& s : p[t]) {
      CxxOp op;
      op.kind = s.kind, op.plain = s.plain, op.order = s.order, op.scope = s.scope, op.loc = kLocs[s.loc];
      if (s.kind == OpKind::Rmw) op.rmw = abi::RmwOp::add, op.value = 1;
      if (s.kind == OpKind::Store) op.value = ++stores[s.loc];
      if (s.kind == OpKind::Load || s.kind == OpKind::Rmw) {
        op.reg = fmt::format("r{}", regs[t].size());
        regs[t].push_back(op.reg);
      }
      th.ops.push_back(op);
    }
    prog.threads.push_back(th);
  }
  prog.condition = all_terms_condition(regs, {"x", "y"});
  return prog;
}

std::string describe(const CxxProgram& p) {
  std::string s;
  for (const auto& th : p.threads) {
    s += fmt::format("{}P{}@cta{}: ", s.empty() ? "" : " || ", th.index, th.cta);
    for (std::size_t i = 0; i < th.ops.size(); ++i) {
      const auto& op = th.ops[i];
      s += i ? "; " : "";
      if (op.plain) s += op.kind == OpKind::Load ? "plain load " + op.loc : "plain store " + op.loc;
      else
        s += fmt::format("{}({},{},{})", abi::kind_name(op.kind), abi::order_name(op.order), abi::scope_name(op.scope), op.loc);
    }
  }
  return s;
}

// The chapter-4 mapping of a C++ program (the row's first, recommended alternative for every operation;
// alternative `pick` when the row has one), as a PTX litmus test. The table is checker/abi/table.cpp.
std::string mapped_litmus(const CxxProgram& p, std::size_t pick) {
  static const char* sems[] = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio"};
  static const char* scopes[] = {"cta", "cluster", "gpu", "sys"};
  std::vector<LitmusColumn> cols;
  int temps = 0;
  for (const auto& th : p.threads) {
    LitmusColumn c{th.index, th.cta, th.gpu, {}};
    for (const auto& op : th.ops) {
      if (op.plain) {
        c.instructions.push_back(op.kind == OpKind::Load ? fmt::format("ld.weak {}, {}", op.reg, op.loc)
                                                         : fmt::format("st.weak {}, {}", op.loc, op.value));
        continue;
      }
      auto row = abi::table_row(op.kind, op.order);
      const auto& alt = row->alternatives[std::min(pick, row->alternatives.size() - 1)];
      const char* scope = scopes[static_cast<int>(abi::ptx_scope(op.scope))];
      for (const auto& step : alt) {
        const char* sem = sems[static_cast<int>(step.sem)];
        switch (step.cls) {
          case abi::PtxClass::fence: c.instructions.push_back(fmt::format("fence.{}.{}", sem, scope)); break;
          case abi::PtxClass::ld: c.instructions.push_back(fmt::format("ld.{}.{} {}, {}", sem, scope, op.reg, op.loc)); break;
          case abi::PtxClass::st: c.instructions.push_back(fmt::format("st.{}.{} {}, {}", sem, scope, op.loc, op.value)); break;
          case abi::PtxClass::atom: {
            std::string reg = op.reg.empty() ? fmt::format("t{}", temps++) : op.reg;
            c.instructions.push_back(fmt::format("atom.{}.{}.add {}, {}, {}", sem, scope, reg, op.loc, op.value));
            break;
          }
        }
      }
    }
    cols.push_back(std::move(c));
  }
  return litmus_compile::render_litmus(p.name, "chapter-4 mapping of a generated C++ program", p.init, cols, p.condition);
}

std::vector<Case> mapping_cases(const std::vector<std::vector<std::vector<CxxSlot>>>& progs, const std::vector<int>& ctas,
                                std::size_t alternative) {
  std::vector<Case> cases;
  for (const auto& p : progs) {
    std::vector<std::vector<std::string>> regs;
    auto prog = cxx_of(p, ctas, regs);
    cases.push_back({mapped_litmus(prog, alternative), litmus_compile::c11_litmus(prog), describe(prog)});
  }
  return cases;
}

// Slot templates: C++ loads and stores with the given orders, scopes and (optionally) plain accesses.
std::vector<CxxSlot> cxx_menu(OpKind kind, std::initializer_list<Order> orders, std::initializer_list<ThreadScope> scopes, bool plain) {
  std::vector<CxxSlot> m;
  for (auto sc : scopes)
    for (auto o : orders) m.push_back({kind, false, o, sc, 0});
  if (plain) m.push_back({kind, true, Order::relaxed, ThreadScope::device, 0});
  return m;
}
const std::function<CxxSlot(CxxSlot, const Access&)> cxx_place = [](CxxSlot s, const Access& a) { s.loc = a.loc; return s; };

// ---- PTX programs for the SC theorems
struct PtxSlot {
  bool write = false;
  std::string sem;    // weak relaxed acquire release
  std::string scope;  // cta gpu (empty for weak)
  int loc = 0;
  std::string key() const { return fmt::format("{}{}{}{}", write, sem, scope, loc); }
};

// fence: the instruction put between every two accesses of a thread (empty: none).
std::string ptx_litmus(const std::vector<std::vector<PtxSlot>>& p, const std::vector<int>& ctas, const std::string& fence,
                       std::string& summary) {
  std::vector<LitmusColumn> cols;
  std::vector<std::vector<std::string>> regs(p.size());
  int stores[2] = {0, 0};
  summary.clear();
  for (std::size_t t = 0; t < p.size(); ++t) {
    LitmusColumn c{static_cast<unsigned>(t), ctas[t], 0, {}};
    summary += fmt::format("{}P{}@cta{}:", t ? " || " : "", t, ctas[t]);
    for (std::size_t i = 0; i < p[t].size(); ++i) {
      const auto& s = p[t][i];
      if (i && !fence.empty()) c.instructions.push_back(fence);
      std::string q = s.sem == "weak" ? "weak" : s.sem + "." + s.scope;
      if (s.write) {
        c.instructions.push_back(fmt::format("st.{} {}, {}", q, kLocs[s.loc], ++stores[s.loc]));
      } else {
        std::string r = fmt::format("r{}", regs[t].size());
        regs[t].push_back(r);
        c.instructions.push_back(fmt::format("ld.{} {}, {}", q, r, kLocs[s.loc]));
      }
    }
    summary += " " + fmt::format("{}", fmt::join(c.instructions, "; "));
    cols.push_back(std::move(c));
  }
  return litmus_compile::render_litmus("gen", "generated PTX program", {{"x", 0}, {"y", 0}}, cols,
                                       all_terms_condition(regs, {"x", "y"}));
}

std::vector<PtxSlot> ptx_menu(const std::vector<std::string>& sems, const std::vector<std::string>& scopes) {
  std::vector<PtxSlot> m;
  for (int loc = 0; loc < 2; ++loc)
    for (bool w : {false, true})
      for (const auto& sem : sems) {
        if ((w && sem == "acquire") || (!w && sem == "release")) continue;
        if (sem == "weak") { m.push_back({w, sem, "", loc}); continue; }
        for (const auto& sc : scopes) m.push_back({w, sem, sc, loc});
      }
  return m;
}

std::vector<Case> ptx_shape_cases(const std::vector<Shape>& shs, const std::vector<PtxSlot>& reads, const std::vector<PtxSlot>& writes,
                                  const std::string& fence) {
  std::vector<Case> cases;
  auto place = [](PtxSlot s, const Access& a) { s.loc = a.loc; return s; };
  for (const auto& p : fill<PtxSlot>(shs, reads, writes, place)) {
    Case c;
    c.target = ptx_litmus(p, {0, 1}, fence, c.summary);
    c.reference = c.target;
    cases.push_back(std::move(c));
  }
  return cases;
}
std::vector<PtxSlot> ptx_slots(bool write, std::initializer_list<const char*> sems) {
  std::vector<PtxSlot> m;
  for (const auto* sem : sems) m.push_back({write, sem, std::string(sem) == "weak" ? "" : "gpu", 0});
  return m;
}

std::vector<Case> ptx_cases(const std::vector<int>& ctas, int per_thread, const std::vector<PtxSlot>& menu, const std::string& fence) {
  auto swap = [](const PtxSlot& s) { PtxSlot t = s; t.loc = 1 - s.loc; return t; };
  const bool symmetric = std::set<int>(ctas.begin(), ctas.end()).size() == ctas.size() ||
                         std::all_of(ctas.begin(), ctas.end(), [&](int c) { return c == ctas[0]; });
  std::vector<Case> cases;
  for (const auto& p : programs<PtxSlot>(static_cast<int>(ctas.size()), per_thread, menu, swap, symmetric)) {
    Case c;
    c.target = ptx_litmus(p, ctas, fence, c.summary);
    c.reference = c.target;
    cases.push_back(std::move(c));
  }
  return cases;
}

std::function<ProofResult(const Budget&)> family_check(std::function<std::vector<Case>()> make,
                                                       std::function<Inclusion(const Models&)> inclusion) {
  return [make, inclusion](const Budget& budget) {
    std::string err;
    const Models* m = models(err);
    if (!m) return ProofResult{Verdict::unknown, "models do not load: " + err, 0};
    return check_family(make(), inclusion(*m), budget);
  };
}

// Parses a generated litmus test and runs it under each model, into `out`; the unknown verdict that ends the
// theorem when it does not parse or a run does not finish.
std::optional<ProofResult> run_generated(const std::string& text, const std::string& summary,
                                         const std::vector<const cat::Model*>& under, const litmus::Options& opt,
                                         std::vector<litmus::Result>& out) {
  std::vector<Diagnostic> diags;
  auto test = litmus::parse_litmus(text, "generated.litmus", diags);
  if (!test) return ProofResult{Verdict::unknown, "a generated test does not parse: " + (diags.empty() ? std::string("?") : diags[0].render()) + "\n" + text, 0};
  out.clear();
  for (const auto* model : under) {
    out.push_back(litmus::run_test(*test, *model, opt));
    if (out.back().result == "unknown" || out.back().result == "error")
      return ProofResult{Verdict::unknown, summary + ": " + out.back().result + " (" + out.back().reason + ")", 0};
  }
  return std::nullopt;
}

// The frame of a theorem over generated programs: `judge` runs each case under the models with the litmus limits of
// the budget; its first answer (refuted, or unknown: an undecided or vacuous case) ends the check, else the theorem
// is proved, `proved` saying what was checked.
template <class Case, class Judge>
ProofResult check_each(const std::vector<Case>& cases, const Budget& budget, Judge judge, const std::string& proved) {
  std::string err;
  const Models* m = models(err);
  if (!m) return ProofResult{Verdict::unknown, "models do not load: " + err, 0};
  const litmus::Options opt = litmus_options(budget);
  for (const auto& c : cases)
    if (std::optional<ProofResult> stop = judge(c, *m, opt)) return *stop;
  return {Verdict::proved, proved, 0};
}

// ---- spin locks: the rule of checker/race/locks.hpp (two threads' critical sections of one lock are ordered)
// One way to take and give a lock; `{s}` is the scope. The forms are those the race checker recognises: a
// relaxed RMW followed by an acquire fence or an .acquire RMW (ISA 8.8 forms 3 and 1), a release fence followed by
// a strong write of the unlocked value or a .release write.
struct LockForm {
  const char* take;           // leaves the old value in r0: 0 when the lock was taken
  const char* acquire_fence;  // "" for none
  const char* release_fence;
  const char* give;
  const char* cuda;           // what it stands for
};
const LockForm kLockForms[] = {
    {"atom.relaxed.{s}.cas r0, lock, 0, 1", "fence.sc.{s}", "fence.sc.{s}", "atom.relaxed.{s}.exch r2, lock, 0",
     "atomicCAS; __threadfence | __threadfence; atomicExch"},
    {"atom.relaxed.{s}.cas r0, lock, 0, 1", "fence.acq_rel.{s}", "fence.acq_rel.{s}", "st.relaxed.{s} lock, 0",
     "cas; fence.acq_rel | fence.acq_rel; st.relaxed"},
    {"atom.relaxed.{s}.exch r0, lock, 1", "fence.sc.{s}", "fence.sc.{s}", "atom.relaxed.{s}.exch r2, lock, 0",
     "test-and-set: atomicExch(1); __threadfence | __threadfence; atomicExch(0)"},
    {"atom.acquire.{s}.cas r0, lock, 0, 1", "", "", "st.release.{s} lock, 0", "atom.acquire.cas | st.release"},
    {"atom.acquire.{s}.exch r0, lock, 1", "", "fence.acq_rel.{s}", "atom.relaxed.{s}.exch r2, lock, 0",
     "atom.acquire.exch | fence.acq_rel; atom.relaxed.exch"},
};

// Every thread takes the lock once: the first writes x in its critical section, the last reads and writes x (so
// the two conflict in both directions), any in between only takes and gives the lock. The condition asks for the
// executions in which every thread took it (r0 = 0).
std::string lock_litmus(const LockForm& form, const std::vector<int>& ctas, const std::string& scope, bool acquire_fence,
                        std::string& summary) {
  auto scoped_text = [&](const char* t) { return fmt::format(fmt::runtime(t), fmt::arg("s", scope)); };
  std::vector<LitmusColumn> cols;
  std::string cond;
  for (std::size_t t = 0; t < ctas.size(); ++t) {
    LitmusColumn c{static_cast<unsigned>(t), ctas[t], 0, {}};
    c.instructions.push_back(scoped_text(form.take));
    if (acquire_fence && *form.acquire_fence) c.instructions.push_back(scoped_text(form.acquire_fence));
    if (t == 0) c.instructions.push_back("st.weak x, 1");
    if (t + 1 == ctas.size()) c.instructions.insert(c.instructions.end(), {"ld.weak r1, x", "st.weak x, 2"});
    if (*form.release_fence) c.instructions.push_back(scoped_text(form.release_fence));
    c.instructions.push_back(scoped_text(form.give));
    cols.push_back(std::move(c));
    cond += fmt::format("{}P{}:r0 == 0", t ? " /\\ " : "", t);
  }
  summary = fmt::format("{} ({}{}), {} threads in CTAs {}, scope {}", form.cuda, acquire_fence ? "" : "no acquire fence, ",
                        form.take, ctas.size(), fmt::join(ctas, ","), scope);
  return litmus_compile::render_litmus("lock", "threads taking one spin lock", {{"lock", 0}, {"x", 0}}, cols,
                                       "exists (" + cond + ")");
}

// A program whose condition picks the executions a synchronization rule is about (every thread took the lock, the
// reader read the flag's value), and what those executions are, for the reports.
struct ConditionedCase {
  std::string test, summary;
};

// `ordered`: the claim is that no execution satisfying the condition has a data race (8.7.1); otherwise that some
// such execution has one involving a weak access (the rule's conditions are needed). Either way such executions must
// exist under ptx.cat, or the claim would be vacuous. `picked` says what the condition picks.
ProofResult check_conditioned_races(const std::vector<ConditionedCase>& cases, bool ordered, const std::string& picked, const Budget& budget) {
  std::vector<litmus::Result> runs;
  auto judge = [&](const ConditionedCase& c, const Models& m, const litmus::Options& opt) -> std::optional<ProofResult> {
    // The claim of order: no race at all; the claim that the conditions are needed: a race with a weak access.
    if (auto stop = run_generated(c.test, c.summary, {&m.ptx, ordered ? &m.ptx_race : &m.ptx_weak_race}, opt, runs)) return stop;
    const litmus::Result &all = runs[0], &racy = runs[1];
    if (all.positive == 0) return ProofResult{Verdict::unknown, c.summary + ": vacuous, no execution in which " + picked, 0};
    if (ordered && racy.positive > 0)
      return ProofResult{Verdict::refuted, c.summary + ": an execution in which " + picked + " has a data race\n" + c.test, 0};
    if (!ordered && racy.positive == 0)
      return ProofResult{Verdict::refuted, c.summary + ": no execution in which " + picked + " has a data race\n" + c.test, 0};
    return std::nullopt;
  };
  return check_each(cases, budget, judge, fmt::format("{} programs checked", cases.size()));
}
ProofResult check_locks(const std::vector<ConditionedCase>& cases, bool ordered, const Budget& budget) {
  return check_conditioned_races(cases, ordered, "every thread took the lock", budget);
}

std::vector<ConditionedCase> lock_cases(const std::vector<std::vector<int>>& placements, const std::string& scope, bool acquire_fence,
                                 std::size_t forms = std::size(kLockForms)) {
  std::vector<ConditionedCase> out;
  for (std::size_t f = 0; f < forms; ++f)
    for (const auto& ctas : placements) {
      ConditionedCase c;
      c.test = lock_litmus(kLockForms[f], ctas, scope, acquire_fence, c.summary);
      out.push_back(std::move(c));
    }
  return out;
}

// ---- message passing through a flag: the rule of checker/race/flags.hpp (an access before the one writer's release
// pattern is ordered before an access after the acquire pattern of a reader that read the written value)
struct ReleaseForm {
  const char* fence;  // "" for none
  const char* write;  // the strong write of 1 to the flag
  const char* cuda;
};
struct AcquireForm {
  const char* read;   // the strong read of the flag into r0
  const char* fence;  // "" for none
  const char* cuda;
};
const ReleaseForm kReleaseForms[] = {{"fence.sc.{s}", "st.relaxed.{s} flag, 1", "__threadfence; st.relaxed"},
                                     {"fence.acq_rel.{s}", "st.volatile flag, 1", "fence.acq_rel; volatile store"},
                                     {"", "st.release.{s} flag, 1", "st.release"}};
// (The forms with a fence first: flag_cases' `acquire_forms` counts from the front.)
const AcquireForm kAcquireForms[] = {{"ld.relaxed.{s} r0, flag", "fence.sc.{s}", "ld.relaxed; __threadfence"},
                                     {"ld.volatile r0, flag", "fence.acq_rel.{s}", "volatile load; fence.acq_rel"},
                                     {"ld.acquire.{s} r0, flag", "", "ld.acquire"}};

// P0 writes x and then, by a release form, the flag; P1 reads the flag by an acquire form and then reads and writes x
// (conflicts in both directions). The condition asks for the executions in which P1 read the flag's 1. Variations
// (the rule's conditions broken): `acquire_fence` false leaves P1's fence out; `second_writer` adds P2, which writes
// 1 to the flag with no data; `write_after` moves P0's write of x after its flag write.
struct FlagVariation {
  bool acquire_fence = true, second_writer = false, write_after = false;
};
ConditionedCase flag_case(std::size_t release, std::size_t acquire, const std::vector<int>& ctas, const std::string& scope, FlagVariation v) {
  auto scoped = [&](const char* t) { return fmt::format(fmt::runtime(t), fmt::arg("s", scope)); };
  LitmusColumn p0{0, ctas[0], 0, {}}, p1{1, ctas[1], 0, {}};
  const ReleaseForm& rf = kReleaseForms[release];
  const AcquireForm& af = kAcquireForms[acquire];
  if (!v.write_after) p0.instructions.push_back("st.weak x, 1");
  if (*rf.fence) p0.instructions.push_back(scoped(rf.fence));
  p0.instructions.push_back(scoped(rf.write));
  if (v.write_after) p0.instructions.push_back("st.weak x, 1");
  p1.instructions.push_back(scoped(af.read));
  if (v.acquire_fence && *af.fence) p1.instructions.push_back(scoped(af.fence));
  p1.instructions.insert(p1.instructions.end(), {"ld.weak r1, x", "st.weak x, 2"});
  std::vector<LitmusColumn> cols{p0, p1};
  if (v.second_writer) cols.push_back({2, ctas.size() > 2 ? ctas[2] : ctas[0], 0, {scoped("st.relaxed.{s} flag, 1")}});
  ConditionedCase c;
  c.summary = fmt::format("{} | {}{}{}{}, CTAs {}, scope {}", rf.cuda, af.cuda, v.acquire_fence ? "" : " without its fence",
                          v.second_writer ? ", a second writer" : "", v.write_after ? ", x written after the flag" : "",
                          fmt::join(ctas, ","), scope);
  c.test = litmus_compile::render_litmus("flag", "message passing through a flag", {{"flag", 0}, {"x", 0}}, cols, "exists (P1:r0 == 1)");
  return c;
}

// ---- the last-block ticket: the rule of checker/race/tickets.hpp (a CTA whose increment of a counter every CTA
// increments once read the last count comes after every other CTA's increment, and what preceded their release
// patterns precedes what follows its acquire pattern)
struct TicketForm {
  const char* release_fence;  // before each increment; "" for none
  const char* increment;      // r0 := the count read; `{n}` is the bound of atom.inc
  const char* acquire_fence;  // after the last's increment; "" for none
  const char* cuda;
};
const TicketForm kTicketForms[] = {
    {"fence.sc.{s}", "atom.relaxed.{s}.inc r0, count, {n}", "fence.sc.{s}", "__threadfence; atomicInc | atomicInc; __threadfence"},
    {"fence.acq_rel.{s}", "atom.relaxed.{s}.inc r0, count, {n}", "fence.acq_rel.{s}", "fence.acq_rel; atom.inc | atom.inc; fence.acq_rel"},
    {"", "atom.acq_rel.{s}.inc r0, count, {n}", "", "atom.acq_rel.inc"},
};
// Every thread (one per CTA of `ctas`) writes its own x<t>, passes the release form and increments the counter
// (atom.inc with the bound the number of threads, as atomicInc(&count, gridDim.x)); the last thread then passes the
// acquire form, reads every other thread's x, writes them (conflicts in both directions) and resets the counter.
// The condition picks the executions in which the last thread's increment read `picked` (the last count, threads
// less one). Variations break the rule's conditions: no release fence, no acquire fence.
struct TicketVariation {
  bool release_fence = true, acquire_fence = true;
};
ConditionedCase ticket_case(const TicketForm& form, const std::vector<int>& ctas, const std::string& scope, int picked, TicketVariation v) {
  const std::size_t n = ctas.size();
  auto scoped = [&](const char* t) { return fmt::format(fmt::runtime(t), fmt::arg("s", scope), fmt::arg("n", n)); };
  std::vector<LitmusColumn> cols;
  std::vector<std::pair<std::string, std::int64_t>> locations{{"count", 0}};
  for (std::size_t t = 0; t < n; ++t) {
    LitmusColumn c{static_cast<unsigned>(t), ctas[t], 0, {}};
    c.instructions.push_back(fmt::format("st.weak x{}, 1", t));
    if (v.release_fence && *form.release_fence) c.instructions.push_back(scoped(form.release_fence));
    c.instructions.push_back(scoped(form.increment));
    locations.push_back({fmt::format("x{}", t), 0});
    cols.push_back(std::move(c));
  }
  LitmusColumn& last = cols.back();
  if (v.acquire_fence && *form.acquire_fence) last.instructions.push_back(scoped(form.acquire_fence));
  for (std::size_t t = 0; t + 1 < n; ++t)
    last.instructions.insert(last.instructions.end(), {fmt::format("ld.weak r{}, x{}", t + 1, t), fmt::format("st.weak x{}, 2", t)});
  last.instructions.push_back("st.weak count, 0");
  ConditionedCase c;
  c.summary = fmt::format("{}{}{}, CTAs {}, scope {}, the last thread's count {}", form.cuda, v.release_fence ? "" : " without the release fence",
                          v.acquire_fence ? "" : " without the acquire fence", fmt::join(ctas, ","), scope, picked);
  c.test = litmus_compile::render_litmus("ticket", "the last-block ticket", locations, cols, fmt::format("exists (P{}:r0 == {})", n - 1, picked));
  return c;
}
std::vector<ConditionedCase> ticket_cases(const std::vector<std::vector<int>>& placements, const std::string& scope, int picked_from_last,
                                          TicketVariation v, std::size_t forms = std::size(kTicketForms)) {
  std::vector<ConditionedCase> out;
  for (std::size_t f = 0; f < forms; ++f)
    for (const auto& ctas : placements) out.push_back(ticket_case(kTicketForms[f], ctas, scope, static_cast<int>(ctas.size()) - 1 - picked_from_last, v));
  return out;
}

ProofResult check_flags(const std::vector<ConditionedCase>& cases, bool ordered, const Budget& budget) {
  return check_conditioned_races(cases, ordered, "the reader read the flag's 1", budget);
}
std::vector<ConditionedCase> flag_cases(const std::vector<int>& ctas, const std::string& scope, FlagVariation v, std::size_t acquire_forms = 3) {
  std::vector<ConditionedCase> out;
  for (std::size_t r = 0; r < std::size(kReleaseForms); ++r)
    for (std::size_t a = 0; a < acquire_forms; ++a) out.push_back(flag_case(r, a, ctas, scope, v));
  return out;
}

// ---- shared-memory broadcasts: the rule of checker/race/broadcast.hpp (loads a barrier separates from the only
// store of a word read, in every thread of the CTA, the value it stored, or all the content before it)
struct BroadcastCase {
  std::string test, summary;
  std::string without_barrier;  // the same program without its barrier (where the rule does not apply)
};

// P0 stores s = 1 with `store`, the readers P1.. (all in CTA 0) load s with `load`; `after`: the store comes
// before a CTA barrier and the loads after it (P0 loads too), else the loads come before and the store after.
// The condition asks for a reader (or P0) that did not read what the rule says: 1 after, the initial 0 before.
std::string broadcast_litmus(const std::string& store, const std::string& load, int readers, bool after, bool barrier,
                             std::string& summary) {
  std::vector<LitmusColumn> cols;
  std::string cond;
  const int expected = after ? 1 : 0;
  for (int t = 0; t <= readers; ++t) {
    LitmusColumn c{static_cast<unsigned>(t), 0, 0, {}};
    const std::string ld = load + " r0, s";
    if (t == 0 && after) c.instructions = {store + " s, 1", "bar.cta.sync 0", ld};
    else if (t == 0) c.instructions = {"bar.cta.sync 0", store + " s, 1"};
    else if (after) c.instructions = {"bar.cta.sync 0", ld};
    else c.instructions = {ld, "bar.cta.sync 0"};
    if (t > 0 || after) cond += fmt::format("{}P{}:r0 != {}", cond.empty() ? "" : " \\/ ", t, expected);
    if (!barrier) std::erase(c.instructions, std::string("bar.cta.sync 0"));
    cols.push_back(std::move(c));
  }
  summary = fmt::format("{} s, 1 {} a barrier, {} reader(s) with {} {} it", store, after ? "before" : "after", readers, load,
                        after ? "after" : "before");
  return litmus_compile::render_litmus("broadcast", "a value broadcast through a barrier", {{"s", 0}}, cols, "exists (" + cond + ")");
}

// Every case: no ptx.cat execution has a data race (8.7.1), none satisfies the condition (a thread reads another
// value than the rule's), and executions exist (the claim is not vacuous); without the barrier some execution
// satisfies it (the check can fail).
ProofResult check_broadcasts(const std::vector<BroadcastCase>& cases, const Budget& budget) {
  std::vector<litmus::Result> runs, loose;
  auto judge = [&](const BroadcastCase& c, const Models& m, const litmus::Options& opt) -> std::optional<ProofResult> {
    if (auto stop = run_generated(c.test, c.summary, {&m.ptx, &m.ptx_race}, opt, runs)) return stop;
    const litmus::Result &all = runs[0], &racy = runs[1];
    if (all.negative == 0) return ProofResult{Verdict::unknown, c.summary + ": vacuous, no execution", 0};
    if (racy.positive + racy.negative > 0) return ProofResult{Verdict::refuted, c.summary + ": an execution has a data race\n" + c.test, 0};
    if (all.positive > 0) return ProofResult{Verdict::refuted, c.summary + ": a thread reads another value\n" + c.test, 0};
    if (auto stop = run_generated(c.without_barrier, c.summary + ", no barrier", {&m.ptx}, opt, loose)) return stop;
    if (loose[0].positive == 0)
      return ProofResult{Verdict::unknown, c.summary + ": every thread reads the rule's value even without the barrier", 0};
    return std::nullopt;
  };
  return check_each(cases, budget, judge, fmt::format("{} programs checked", cases.size()));
}

std::vector<BroadcastCase> broadcast_cases() {
  std::vector<BroadcastCase> out;
  for (const char* store : {"st.weak", "st.relaxed.cta", "st.release.cta"})
    for (const char* load : {"ld.weak", "ld.relaxed.cta", "ld.acquire.cta"})
      for (int readers : {1, 2})
        for (bool after : {true, false}) {
          BroadcastCase c;
          std::string unused;
          c.test = broadcast_litmus(store, load, readers, after, true, c.summary);
          c.without_barrier = broadcast_litmus(store, load, readers, after, false, unused);
          out.push_back(std::move(c));
        }
  return out;
}

// ---- named barriers: the rule of checker/race/named_barriers.hpp (every thread of the CTA passes one operation
// on the barrier; an access before a thread's operation, arrive or sync, is ordered before an access after a
// thread's bar.sync, and nothing else is ordered by it).
struct NamedBarrierCase {
  std::string test, summary;
  bool ordered = false;  // the rule orders the write before the read
};

// P0 writes x before or after its operation (bar.cta.arrive or bar.cta.sync), P1 reads x before or after its own;
// `others` more threads of the CTA only arrive or only wait. The condition asks for the value the order rules out.
std::string named_barrier_litmus(bool writer_waits, bool write_before, bool reader_waits, bool read_after, int others, bool others_wait,
                                 std::string& summary) {
  auto op = [](bool waits) { return std::string(waits ? "bar.cta.sync 0" : "bar.cta.arrive 0"); };
  std::vector<LitmusColumn> cols;
  LitmusColumn w{0, 0, 0, {}}, r{1, 0, 0, {}};
  w.instructions = write_before ? std::vector<std::string>{"st.weak x, 1", op(writer_waits)} : std::vector<std::string>{op(writer_waits), "st.weak x, 1"};
  r.instructions = read_after ? std::vector<std::string>{op(reader_waits), "ld.weak r0, x"} : std::vector<std::string>{"ld.weak r0, x", op(reader_waits)};
  cols.push_back(std::move(w));
  cols.push_back(std::move(r));
  for (int t = 0; t < others; ++t) cols.push_back(LitmusColumn{static_cast<unsigned>(2 + t), 0, 0, {op(others_wait)}});
  summary = fmt::format("P0 {} x {} {}, P1 {} x {} {}, {} more thread(s) {}", "writes", write_before ? "before" : "after",
                        op(writer_waits), "reads", read_after ? "after" : "before", op(reader_waits), others, op(others_wait));
  // (When ordered, the read returns 1 after the write and 0 before it.)
  return litmus_compile::render_litmus("named_barrier", "producer/consumer roles on a named barrier", {{"x", 0}}, cols,
                                       write_before ? "exists (P1:r0 == 0)" : "exists (P1:r0 == 1)");
}

// Ordered cases: no ptx.cat execution has a data race and P1 reads what the order says in every one; the others:
// some execution has a data race with a weak access. Executions must exist either way (every thread passes its
// operation).
ProofResult check_named_barriers(const std::vector<NamedBarrierCase>& cases, const Budget& budget) {
  std::vector<litmus::Result> runs;
  auto judge = [&](const NamedBarrierCase& c, const Models& m, const litmus::Options& opt) -> std::optional<ProofResult> {
    if (auto stop = run_generated(c.test, c.summary, {&m.ptx, &m.ptx_weak_race}, opt, runs)) return stop;
    const litmus::Result &all = runs[0], &racy = runs[1];
    if (all.positive + all.negative == 0) return ProofResult{Verdict::unknown, c.summary + ": vacuous, no execution", 0};
    const bool has_race = racy.positive + racy.negative > 0;
    if (c.ordered && has_race) return ProofResult{Verdict::refuted, c.summary + ": an execution has a data race\n" + c.test, 0};
    if (c.ordered && all.positive > 0)
      return ProofResult{Verdict::refuted, c.summary + ": P1 may read a value the order rules out\n" + c.test, 0};
    if (!c.ordered && !has_race) return ProofResult{Verdict::refuted, c.summary + ": no execution has a data race\n" + c.test, 0};
    return std::nullopt;
  };
  return check_each(cases, budget, judge, fmt::format("{} programs checked", cases.size()));
}

std::vector<NamedBarrierCase> named_barrier_cases() {
  std::vector<NamedBarrierCase> out;
  for (bool writer_waits : {false, true})
    for (bool write_before : {true, false})
      for (bool reader_waits : {true, false})
        for (bool read_after : {true, false})
          for (int others : {0, 1})
            for (bool others_wait : {false, true}) {
              if (others == 0 && others_wait) continue;
              NamedBarrierCase c;
              c.test = named_barrier_litmus(writer_waits, write_before, reader_waits, read_after, others, others_wait, c.summary);
              // The rule (named_barriers.hpp NamedBarrierPhases::orders), in the direction of the write.
              c.ordered = write_before && read_after && reader_waits;
              // (The read before P1's operation and the write after P0's, both synchronizing: ordered the other way.)
              if (!write_before && !read_after && writer_waits) c.ordered = true;
              out.push_back(std::move(c));
            }
  return out;
}

// ---- definite races: the rule of checker/race/strength.hpp may_order, by which checker/race/check.cpp says
// that nothing can order two accesses of two threads. P0 runs [before] x [after], P1 [before] y [after], in two
// CTAs; x and y are the only accesses of z that can conflict, y is weak, every other access is strong, so an
// execution has a data race with a weak access (ptx-race.cat weak-data-race) exactly when x and y race.
struct ContextOp {
  const char* text;  // "" for none
  bool sync = false, strong_read_of_z = false;  // ISA 8.4 and 8.8, classified here by hand
};
const ContextOp kOpsBefore[] = {{""},
                                {"fence.sc.gpu", true, false},
                                {"ld.acquire.gpu r1, f", true, false},
                                {"ld.relaxed.gpu r1, f", false, false},
                                {"ld.relaxed.gpu r1, z", false, true}};
const ContextOp kOpsAfter[] = {{""}, {"fence.sc.gpu", true, false}, {"st.release.gpu f, 1", true, false}, {"st.relaxed.gpu f, 1"}};
struct RacingAccess {
  const char* text;
  bool write = false, strong = false;
};
const RacingAccess kFirstAccesses[] = {{"st.weak z, 1", true, false},
                                       {"st.relaxed.gpu z, 1", true, true},
                                       {"atom.relaxed.gpu.exch r0, z, 1", true, true},
                                       {"ld.weak r0, z", false, false}};
const RacingAccess kSecondAccesses[] = {{"st.weak z, 2", true, false}, {"ld.weak r2, z", false, false}};

struct OrderingCase {
  std::string test, summary;
  bool unordered = false;  // may_order holds in neither direction: the claim is that every execution races
};

std::vector<OrderingCase> ordering_cases() {
  std::vector<OrderingCase> out;
  for (const auto& x : kFirstAccesses)
    for (const auto& y : kSecondAccesses) {
      if (!x.write && !y.write) continue;  // no conflict
      for (const auto& b0 : kOpsBefore)
        for (const auto& a0 : kOpsAfter)
          for (const auto& b1 : kOpsBefore)
            for (const auto& a1 : kOpsAfter) {
              race::OrderingContext xy{a0.sync, x.write && x.strong, b1.sync, b1.strong_read_of_z};
              race::OrderingContext yx{a1.sync, y.write && y.strong, b0.sync, b0.strong_read_of_z};
              OrderingCase c;
              c.unordered = !race::may_order(xy) && !race::may_order(yx);
              std::vector<LitmusColumn> cols;
              for (const auto& [t, ops] : {std::pair{0, std::vector{b0.text, x.text, a0.text}}, std::pair{1, std::vector{b1.text, y.text, a1.text}}}) {
                LitmusColumn col{static_cast<unsigned>(t), t, 0, {}};
                for (const char* op : ops)
                  if (*op) col.instructions.push_back(op);
                cols.push_back(std::move(col));
              }
              c.summary = fmt::format("P0: {} | P1: {}", fmt::join(cols[0].instructions, "; "), fmt::join(cols[1].instructions, "; "));
              c.test = litmus_compile::render_litmus("order", "what orders two accesses", {{"z", 0}, {"f", 0}}, cols,
                                                     "exists (z == 0 \\/ z != 0)");
              out.push_back(std::move(c));
            }
    }
  return out;
}

// Every program where may_order holds in neither direction has the race in every execution (none is left without
// a weak data race), and has executions (the claim is not vacuous). The other programs are no claim: may_order
// over-approximates (in 732 of the other 1520 some execution orders the accesses, 2026-11-24).
ProofResult check_orderings(const std::vector<OrderingCase>& cases, const Budget& budget) {
  std::vector<litmus::Result> runs;
  auto judge = [&](const OrderingCase& c, const Models& m, const litmus::Options& opt) -> std::optional<ProofResult> {
    if (!c.unordered) return std::nullopt;
    if (auto stop = run_generated(c.test, c.summary, {&m.ptx, &m.ptx_no_weak_race}, opt, runs)) return stop;
    const litmus::Result &all = runs[0], &race_free = runs[1];
    if (all.positive == 0) return ProofResult{Verdict::unknown, c.summary + ": vacuous, no execution", 0};
    if (race_free.positive > 0)
      return ProofResult{Verdict::refuted, c.summary + ": nothing may order the accesses (may_order), yet an execution has no race\n" + c.test, 0};
    return std::nullopt;
  };
  const auto claimed = std::count_if(cases.begin(), cases.end(), [](const OrderingCase& c) { return c.unordered; });
  return check_each(cases, budget, judge, fmt::format("{} of the {} programs race in every execution, as may_order says", claimed, cases.size()));
}

}  // namespace

namespace {
using O = Order;
using TS = ThreadScope;
const std::string shapes6 = "the six two-thread shapes MP, SB, LB, S, R, 2+2W (each thread accesses x and y)";

// The chapter-4 mapping of the interoperability guide against scoped RC11.
void add_mapping_theorems(std::vector<Theorem>& v) {
  auto mapping = [](const Models& m, bool nta) {
    return Inclusion{&m.ptx, nta ? &m.c11 : &m.c11_no_nta, &m.c11_race, true, "racy in the source (undefined)"};
  };
  const std::string c11 =
      " (source model: memmodel/models/scoped-c11.cat, scoped RC11 after Lahav et al. PLDI'17 with the scopes of Lustig "
      "et al. ASPLOS'19; mapping: the chapter-4 table of ptx-interoperability-13.0 in checker/abi/table.cpp; PTX model: "
      "memmodel/models/ptx.cat, ISA 9.0 chapter 8)";
  // All orders: loads relaxed/acquire/seq_cst, stores relaxed/release/seq_cst.
  auto all_orders = [](bool plain, std::initializer_list<TS> scopes) {
    return std::make_pair(cxx_menu(OpKind::Load, {O::relaxed, O::acquire, O::seq_cst}, scopes, plain),
                          cxx_menu(OpKind::Store, {O::relaxed, O::release, O::seq_cst}, scopes, plain));
  };

  // The 486 programs of the two `.shapes` theorems: every shape, every order, device scope, different CTAs.
  auto device_shape_programs = [all_orders] {
    auto [r, w] = all_orders(false, {TS::device});
    return mapping_cases(fill<CxxSlot>(shapes(), r, w, cxx_place), {0, 1}, 0);
  };
  v.push_back({"mapping.sound_no_thin_air.shapes",
               "every outcome the PTX model allows for the chapter-4 mapping (recommended alternative of every row) of a "
               "race-free C++ program is allowed by scoped RC11 without its po|rf-acyclicity axiom" + c11,
               shapes6 + ", threads in different CTAs, every combination of orders (loads relaxed/acquire/seq_cst, stores "
               "relaxed/release/seq_cst), device scope: 6 x 3^4 = 486 programs",
               family_check(device_shape_programs, [mapping](const Models& m) { return mapping(m, false); })});
  v.push_back({"mapping.sound_no_thin_air.plain",
               "as mapping.sound_no_thin_air.shapes, with plain (non-atomic) accesses; racy source programs (undefined "
               "behaviour, C++ [intro.races]) are outside the claim" + c11,
               "MP and SB shapes, threads in different CTAs, each access plain, acquire/release (loads acquire, stores "
               "release) or seq_cst, device scope: 2 x 3^4 = 162 programs",
               family_check([] {
                 auto r = cxx_menu(OpKind::Load, {O::acquire, O::seq_cst}, {TS::device}, true);
                 auto w = cxx_menu(OpKind::Store, {O::release, O::seq_cst}, {TS::device}, true);
                 return mapping_cases(fill<CxxSlot>(shapes_named({"MP", "SB"}), r, w, cxx_place), {0, 1}, 0);
               }, [mapping](const Models& m) { return mapping(m, false); })});
  v.push_back({"mapping.sound_no_thin_air.scopes",
               "as mapping.sound_no_thin_air.shapes with block and device scopes mixed, threads in one CTA or in two; "
               "programs whose atomics are not scope-inclusive race (undefined) and are outside the claim" + c11,
               "MP with release stores and acquire loads, SB with seq_cst accesses, every access at block or device "
               "scope, both threads in one CTA and in two CTAs: 2 x 2^4 x 2 = 64 programs",
               family_check([] {
                 auto mp = fill<CxxSlot>(shapes_named({"MP"}), cxx_menu(OpKind::Load, {O::acquire}, {TS::block, TS::device}, false),
                                         cxx_menu(OpKind::Store, {O::release}, {TS::block, TS::device}, false), cxx_place);
                 auto sb = fill<CxxSlot>(shapes_named({"SB"}), cxx_menu(OpKind::Load, {O::seq_cst}, {TS::block, TS::device}, false),
                                         cxx_menu(OpKind::Store, {O::seq_cst}, {TS::block, TS::device}, false), cxx_place);
                 mp.insert(mp.end(), sb.begin(), sb.end());
                 auto a = mapping_cases(mp, {0, 0}, 0), b = mapping_cases(mp, {0, 1}, 0);
                 a.insert(a.end(), b.begin(), b.end());
                 return a;
               }, [mapping](const Models& m) { return mapping(m, false); })});
  v.push_back({"mapping.sound_no_thin_air.rmw",
               "as mapping.sound_no_thin_air.shapes for message passing through read-modify-writes" + c11,
               "P0: store x (relaxed/release/seq_cst); fetch_add y (all five orders) || P1: fetch_add y (all five orders); "
               "load x (relaxed/acquire/seq_cst); device scope, threads in different CTAs: 3 x 5 x 5 x 3 = 225 programs",
               family_check([] {
                 std::vector<std::vector<std::vector<CxxSlot>>> progs;
                 const auto rmw_orders = {O::relaxed, O::acquire, O::release, O::acq_rel, O::seq_cst};
                 for (auto so : {O::relaxed, O::release, O::seq_cst})
                   for (auto r0 : rmw_orders)
                     for (auto r1 : rmw_orders)
                       for (auto lo : {O::relaxed, O::acquire, O::seq_cst})
                         progs.push_back({{{OpKind::Store, false, so, TS::device, 0}, {OpKind::Rmw, false, r0, TS::device, 1}},
                                          {{OpKind::Rmw, false, r1, TS::device, 1}, {OpKind::Load, false, lo, TS::device, 0}}});
                 return mapping_cases(progs, {0, 1}, 0);
               }, [mapping](const Models& m) { return mapping(m, false); })});
  v.push_back({"mapping.sound_no_thin_air.alternatives",
               "as mapping.sound_no_thin_air.shapes with the last alternative of every row (fence.sc; ld.relaxed; "
               "fence.acquire for a seq_cst load, ld.relaxed; fence.acquire for an acquire load, fence.release; st.relaxed "
               "for a release store)" + c11,
               "MP and SB shapes, threads in different CTAs, every combination of orders, device scope: 2 x 3^4 = 162 programs",
               family_check([all_orders] {
                 auto [r, w] = all_orders(false, {TS::device});
                 return mapping_cases(fill<CxxSlot>(shapes_named({"MP", "SB"}), r, w, cxx_place), {0, 1}, 9);
               }, [mapping](const Models& m) { return mapping(m, false); })});
  v.push_back({"mapping.sound_rc11.shapes",
               "every outcome the PTX model allows for the chapter-4 mapping of a race-free C++ program is allowed by full "
               "scoped RC11 (with po|rf acyclic)" + c11,
               shapes6 + ", threads in different CTAs, every combination of orders, device scope: 486 programs (stops at "
               "the first counterexample)",
               family_check(device_shape_programs, [mapping](const Models& m) { return mapping(m, true); })});
}

// Fence-SC and DRF-SC under ptx.cat.
void add_fence_and_drf_theorems(std::vector<Theorem>& v) {
  auto sc_incl = [](const Models& m) { return Inclusion{&m.ptx, &m.sc, nullptr, true, "-"}; };
  v.push_back({"model.fence_sc_restores_sc.2x2",
               "a program with fence.sc.gpu between every two accesses of each thread has only sequentially consistent "
               "outcomes under ptx.cat (ISA 9.0 8.9.3 Fence-SC order, 8.10.2); SC is memmodel/models/sc.cat",
               "every program of 2 threads in different CTAs x 2 ld/st.relaxed.gpu accesses over 2 locations (any kinds "
               "and locations, up to renaming of locations and threads), fence.sc.gpu between the two accesses",
               family_check([] { return ptx_cases({0, 1}, 2, ptx_menu({"relaxed"}, {"gpu"}), "fence.sc.gpu"); }, sc_incl)});
  v.push_back({"model.fence_sc_restores_sc.shapes",
               "as model.fence_sc_restores_sc.2x2 with acquire loads and release stores too",
               shapes6 + ", threads in different CTAs, loads ld.relaxed.gpu/ld.acquire.gpu, stores st.relaxed.gpu/"
               "st.release.gpu, fence.sc.gpu between the two accesses of each thread: 6 x 2^4 = 96 programs",
               family_check([] {
                 return ptx_shape_cases(shapes(), ptx_slots(false, {"relaxed", "acquire"}), ptx_slots(true, {"relaxed", "release"}),
                                        "fence.sc.gpu");
               }, sc_incl)});
  v.push_back({"model.fence_sc_restores_sc.3threads",
               "as model.fence_sc_restores_sc.2x2 with three threads (WRC, ISA2-like shapes)",
               "every program of 3 threads in different CTAs x 2 ld/st.relaxed.gpu accesses over 2 locations, up to "
               "renaming of locations and threads, fence.sc.gpu between the two accesses of each thread",
               family_check([] { return ptx_cases({0, 1, 2}, 2, ptx_menu({"relaxed"}, {"gpu"}), "fence.sc.gpu"); }, sc_incl)});

  v.push_back({"model.drf_sc.8_7_1",
               "a program none of whose ptx.cat-consistent executions has a data race (ISA 9.0 8.7.1: conflicting, not "
               "morally strong, unordered by causality order) has only sequentially consistent outcomes (sc.cat)",
               shapes6 + ", threads in different CTAs, each access .weak, .relaxed.gpu or acquire/release .gpu, no fences: "
               "6 x 3^4 = 486 programs (stops at the first counterexample); data races from proofs/models/ptx-race.cat",
               family_check([] {
                 return ptx_shape_cases(shapes(), ptx_slots(false, {"weak", "relaxed", "acquire"}),
                                        ptx_slots(true, {"weak", "relaxed", "release"}), "");
               }, [](const Models& m) { return Inclusion{&m.ptx, &m.sc, &m.ptx_race, false, "with a data race"}; })});
  v.push_back({"model.drf_sc.fenced",
               "a program whose threads put fence.sc.gpu between every two accesses and none of whose ptx.cat-consistent "
               "executions has a data race (ISA 9.0 8.7.1) has only sequentially consistent outcomes (sc.cat): the PTX "
               "counterpart of C++'s DRF-SC for seq_cst atomics",
               shapes6 + ", threads in different CTAs, each access .weak or .relaxed.gpu, fence.sc.gpu between the two "
               "accesses of each thread: 6 x 2^4 = 96 programs; data races from proofs/models/ptx-race.cat",
               family_check([] {
                 return ptx_shape_cases(shapes(), ptx_slots(false, {"weak", "relaxed"}), ptx_slots(true, {"weak", "relaxed"}),
                                        "fence.sc.gpu");
               }, [](const Models& m) { return Inclusion{&m.ptx, &m.sc, &m.ptx_race, false, "with a data race"}; })});
}

// The race checker's ordering rules (locks, flags, tickets, definite races, broadcasts, named barriers).
void add_race_rule_theorems(std::vector<Theorem>& v) {
  const std::string lock_forms = "the five lock forms of proofs/model.cpp kLockForms (atom.cas or atom.exch taking the lock, "
                                 "relaxed with fence.sc or fence.acq_rel after it, or .acquire; fence then atom.exch or "
                                 "st.relaxed giving it back, or st.release)";
  v.push_back({"model.lock_orders_critical_sections",
               "threads that each take one spin lock with an acquire pattern and give it back with a release pattern "
               "(ISA 9.0 8.8), every write to the lock being one of those operations at a scope that includes every "
               "taker, have no data race (8.7.1) between their critical sections in any ptx.cat execution where each "
               "took the lock: the rule checker/race/locks.hpp applies to two threads, here also through a third holder",
               lock_forms + " x {2 threads in different CTAs, 3 threads in 3 CTAs, 3 threads in 2 CTAs} at .gpu scope, and "
               "{2, 3 threads of one CTA} at .cta scope: 25 programs; data races from proofs/models/ptx-race.cat",
               [](const Budget& b) {
                 auto cases = lock_cases({{0, 1}, {0, 1, 2}, {0, 0, 1}}, "gpu", true);
                 auto cta = lock_cases({{0, 0}, {0, 0, 0}}, "cta", true);
                 cases.insert(cases.end(), cta.begin(), cta.end());
                 return check_locks(cases, true, b);
               }});
  v.push_back({"model.lock_needs_its_conditions",
               "the conditions of model.lock_orders_critical_sections are needed: without the acquire fence after a "
               "relaxed RMW (no acquire pattern, 8.8), or with .cta-scoped lock operations and a taker in another CTA "
               "(the takers' operations are not morally strong, 8.6), some execution in which every thread took the lock "
               "has a data race between two critical sections (one of its accesses weak: not on the lock), even two of "
               "one CTA",
               "the three forms with a relaxed RMW and a fence: 2 threads in different CTAs without the acquire fence; "
               "3 threads in CTAs 0, 1, 0 at .cta scope (the race is between the two threads of CTA 0): 6 programs",
               [](const Budget& b) {
                 auto cases = lock_cases({{0, 1}}, "gpu", false, 3);
                 auto cta = lock_cases({{0, 1, 0}}, "cta", true, 3);
                 cases.insert(cases.end(), cta.begin(), cta.end());
                 return check_locks(cases, false, b);
               }});
  v.push_back({"model.flag_orders_message",
               "a write before a release pattern (ISA 9.0 8.8) of a flag and a read and write after the acquire pattern of "
               "a reader that read the flag's written value are ordered, with no data race (8.7.1) in any ptx.cat "
               "execution where it read that value, when the flag has no other writer and starts clear: the rule "
               "checker/race/flags.hpp applies (8.9.4 item 4, 8.9.5)",
               "release forms fence.sc; st.relaxed, fence.acq_rel; st.volatile, st.release x acquire forms ld.relaxed; "
               "fence.sc, ld.volatile; fence.acq_rel, ld.acquire, threads in CTAs 0 and 1 at .gpu scope and both in CTA 0 "
               "at .cta scope: 18 programs; data races from proofs/models/ptx-race.cat",
               [](const Budget& b) {
                 auto cases = flag_cases({0, 1}, "gpu", {});
                 auto cta = flag_cases({0, 0}, "cta", {});
                 cases.insert(cases.end(), cta.begin(), cta.end());
                 return check_flags(cases, true, b);
               }});
  v.push_back({"model.flag_needs_its_conditions",
               "the conditions of model.flag_orders_message are needed: without the reader's acquire fence after a "
               "relaxed or volatile read (no acquire pattern), with .cta scope and the threads in two CTAs (not morally "
               "strong, 8.6), with a second writer of the flag, or with the data written after the flag, some execution "
               "in which the reader read the flag's 1 has a data race on the data",
               "each release form with the two acquire forms that have a fence, the fence left out (6); every pair at "
               ".cta scope across CTAs 0 and 1 (9); with a second writer in CTA 2 (9); data written after the flag "
               "(9): 33 programs; data races from proofs/models/ptx-race.cat",
               [](const Budget& b) {
                 FlagVariation no_fence, second, after;
                 no_fence.acquire_fence = false;
                 second.second_writer = true;
                 after.write_after = true;
                 auto cases = flag_cases({0, 1}, "gpu", no_fence, 2);
                 for (auto more : {flag_cases({0, 1}, "cta", {}), flag_cases({0, 1, 2}, "gpu", second), flag_cases({0, 1}, "gpu", after)})
                   cases.insert(cases.end(), more.begin(), more.end());
                 return check_flags(cases, false, b);
               }});
  v.push_back({"model.ticket_orders_last_block",
               "threads in distinct CTAs that each write their own data, pass a release pattern (ISA 9.0 8.8) and "
               "increment a counter once (atom.inc bounded by the thread count, from 0): in every ptx.cat execution where "
               "one thread's increment read the last count (threads less one), its reads and writes of every other "
               "thread's data after its acquire pattern, and its reset of the counter, race with nothing (8.9.2 "
               "observation order through the increments, 8.9.4 item 4, 8.10 Atomicity): the rule "
               "checker/race/tickets.hpp",
               "forms __threadfence; atomicInc | atomicInc; __threadfence, fence.acq_rel around atom.relaxed.inc, "
               "atom.acq_rel.inc x 2 and 3 threads in distinct CTAs at .gpu scope: 6 programs; data races from "
               "proofs/models/ptx-race.cat",
               [](const Budget& b) {
                 return check_conditioned_races(ticket_cases({{0, 1}, {0, 1, 2}}, "gpu", 0, {}), true,
                                                "the last thread read the last count", b);
               }});
  v.push_back({"model.ticket_needs_its_conditions",
               "the conditions of model.ticket_orders_last_block are needed: with the thread whose increment read a count "
               "below the last, without the release fence before the increments or the acquire fence after the last's, "
               "or with .cta scope across CTAs (not morally strong, 8.6), some execution has a data race",
               "3 threads in CTAs 0, 1, 2: the fenced forms without their release fence (2) or acquire fence (2), each "
               "form with the last thread's count one below the last (3) and at .cta scope (3): 10 programs; data races "
               "from proofs/models/ptx-race.cat",
               [](const Budget& b) {
                 TicketVariation no_release, no_acquire;
                 no_release.release_fence = false;
                 no_acquire.acquire_fence = false;
                 const std::vector<std::vector<int>> three{{0, 1, 2}};
                 auto cases = ticket_cases(three, "gpu", 0, no_release, 2);
                 for (auto more : {ticket_cases(three, "gpu", 0, no_acquire, 2), ticket_cases(three, "gpu", 1, {}), ticket_cases(three, "cta", 0, {})})
                   cases.insert(cases.end(), more.begin(), more.end());
                 return check_conditioned_races(cases, false, "the last thread read the count picked", b);
               }});
  v.push_back({"model.race_needs_an_ordering",
               "two conflicting accesses x, y of threads in two CTAs, not morally strong, race in every ptx.cat execution "
               "when neither direction has what causality order needs (ISA 9.0 8.9.5; checker/race/strength.hpp may_order): "
               "a synchronizing instruction at or after the first access and one at or before the second, or a strong "
               "first write and a strong read or synchronizing instruction before the second: the rule by which "
               "checker/race/check.cpp reports a race as definite rather than possible",
               "P0: [before] x [after] || P1: [before] y [after]; x st.weak/st.relaxed.gpu/atom.relaxed.gpu.exch/ld.weak "
               "of z, y st.weak/ld.weak of z, before: none, fence.sc.gpu, ld.acquire.gpu f, ld.relaxed.gpu f, "
               "ld.relaxed.gpu z; after: none, fence.sc.gpu, st.release.gpu f, st.relaxed.gpu f: 7 x 5^2 x 4^2 = 2800 "
               "programs, the claim checked on the 1280 where may_order holds in neither direction; data races from "
               "proofs/models/ptx-race.cat",
               [](const Budget& b) { return check_orderings(ordering_cases(), b); }});
  v.push_back({"model.broadcast_through_barrier",
               "threads of one CTA that load a word a CTA barrier separates from the only store to it read, in every "
               "ptx.cat execution, the stored value when the loads come after the barrier and the initial content when "
               "they come before, and no execution has a data race (ISA 9.0 8.9.4 item 2, 8.10 Causality): the rule "
               "checker/race/broadcast.hpp applies to every thread of the CTA",
               "a writer and 1 or 2 readers in one CTA, store st.weak/st.relaxed.cta/st.release.cta, loads "
               "ld.weak/ld.relaxed.cta/ld.acquire.cta, loads after the barrier (the writer loads too) or before it: "
               "3 x 3 x 2 x 2 = 36 programs, each also without its barrier (where a thread must be able to read another "
               "value); data races from proofs/models/ptx-race.cat",
               [](const Budget& b) { return check_broadcasts(broadcast_cases(), b); }});
  v.push_back({"model.named_barrier_orders_roles",
               "threads of one CTA that each pass one operation on a named barrier (bar.arrive or bar.sync, ISA 9.0 "
               "9.7.13.1): a write before the writer's operation and a read after the reader's are ordered, with no data "
               "race and the written value read, exactly when the reader's operation is a bar.sync (8.9.4 item 2); a "
               "write after an arrive, a read before the reader's operation or after its arrive race: the rule "
               "checker/race/named_barriers.hpp, pairwise, also with a third thread that arrives or waits",
               "P0 writes x before or after bar.cta.arrive/bar.cta.sync, P1 reads x before or after its own, 0 or 1 more "
               "thread that arrives or waits: 2^4 x 3 = 48 programs; data races from proofs/models/ptx-race.cat",
               [](const Budget& b) { return check_named_barriers(named_barrier_cases(), b); }});
}
}  // namespace

std::vector<Theorem> model_theorems() {
  std::vector<Theorem> v;
  add_mapping_theorems(v);
  add_fence_and_drf_theorems(v);
  add_race_rule_theorems(v);
  return v;
}

}  // namespace ptxcheck::proofs
