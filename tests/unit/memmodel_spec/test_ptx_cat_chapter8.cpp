// ptx.cat against the litmus tests printed in PTX ISA 9.0 chapter 8: each test's decisive execution is
// built by hand here (events, rf, co, Fence-SC order) and the explicit evaluator must give the spec's answer.
#include "memmodel/cat/explicit.hpp"
#include "memmodel/cat/parse.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ptxcheck;

namespace {
struct Ev { std::string name; int thread; std::string kind; int loc = -1, vloc = -1; std::vector<std::string> tags; int scope = 0; /*0 none 1 cta 2 gpu 3 sys*/ };
struct G {
  std::vector<Ev> ev; std::vector<int> cta_of = {0, 1, 2, 3};
  std::vector<std::pair<int,int>> rf, co, rmw, sf, data;
  int add(Ev e) { ev.push_back(e); return (int)ev.size() - 1; }
  mm::Execution build() {
    int n = ev.size(); mm::Execution x; x.n = n;
    for (auto s : {"R","W","M","F","IW","RMW","RED","RLX","REL","ACQ","ACQ_REL","SC","VOL","GEN","SUR","TEX","CON","ASYNC","ALIAS","PROXYF","BAR","WEAK","CTA","CLUSTER","GPU","SYS"}) x.sets[s] = mm::Set(n);
    for (auto r : {"po","rf","co","rmw","loc","vloc","po-loc","sr","incl","scta","syncbar","sync_fence","addr","data","ctrl","id","int","ext"}) x.rels[r] = mm::Rel(n);
    for (int i = 0; i < n; ++i) {
      auto& e = ev[i]; x.labels.push_back(e.name);
      x.sets[e.kind].add(i); if (e.kind == "R" || e.kind == "W") x.sets["M"].add(i);
      if (e.thread < 0) x.sets["IW"].add(i);
      for (auto& t : e.tags) x.sets.at(t).add(i);
      x.rels["id"].add(i, i);
    }
    auto incl = [&](int a, int b) { // a's scope includes b's thread
      if (ev[a].scope == 0 || ev[b].thread < 0) return false;
      if (ev[a].scope == 1) return cta_of[ev[a].thread] == cta_of[ev[b].thread];
      return true; };
    for (int a = 0; a < n; ++a) for (int b = 0; b < n; ++b) {
      if (ev[a].thread >= 0 && ev[a].thread == ev[b].thread && a < b) x.rels["po"].add(a, b);
      if (ev[a].loc >= 0 && ev[a].loc == ev[b].loc) x.rels["loc"].add(a, b);
      if (ev[a].vloc >= 0 && ev[a].vloc == ev[b].vloc) x.rels["vloc"].add(a, b);
      if (a != b && incl(a, b) && incl(b, a)) x.rels["sr"].add(a, b);
      if (ev[a].thread >= 0 && ev[b].thread >= 0 && cta_of[ev[a].thread] == cta_of[ev[b].thread]) x.rels["scta"].add(a, b);
      if (ev[a].thread != ev[b].thread) x.rels["ext"].add(a, b); else x.rels["int"].add(a, b);
    }
    for (auto [a,b] : rf) x.rels["rf"].add(a,b);
    for (auto [a,b] : co) x.rels["co"].add(a,b);
    for (auto [a,b] : rmw) x.rels["rmw"].add(a,b);
    for (auto [a,b] : sf) x.rels["sync_fence"].add(a,b);
    for (auto [a,b] : data) x.rels["data"].add(a,b);
    x.rels["po-loc"] = x.rels["po"]; x.rels["po-loc"] &= x.rels["loc"];
    return x;
  }
};

cat::Model load(const std::string& path) {
  std::vector<Diagnostic> d;
  auto base = cat::base_names();
  base.insert("RED");
  auto m = cat::load_model(path, base, d);
  std::string msg;
  for (auto& x : d) msg += x.render() + "\n";
  INFO(msg);
  REQUIRE(m.has_value());
  return *m;
}
const cat::Model& ptx_cat() {
  static const cat::Model m = load(std::string(PTXCHECK_SOURCE_DIR) + "/memmodel/models/ptx.cat");
  return m;
}
// The axioms ptx.cat says the execution violates (empty: the execution is allowed).
std::vector<std::string> violated(G g) { return cat::evaluate_explicit(ptx_cat(), g.build()).violated(); }
int init(G& g, int loc, const std::string& n) { return g.add({n, -1, "W", loc, loc, {"GEN"}}); }
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("8.10.6 Message Passing: fence.sys / fence.sc.sys forbid r0 == 1, r1 == 0") {
  for (std::string sem : {"ACQ_REL", "SC"}) {
    G g;
    int id = init(g, 0, "i_data"), iflag = init(g, 1, "i_flag");
    int w1 = g.add({"W data", 0, "W", 0, 0, {"GEN"}});
    int f1 = g.add({"F1", 0, "F", -1, -1, {sem, "GEN"}, 3});
    int w2 = g.add({"W flag", 0, "W", 1, 1, {"GEN", "RLX"}, 3});
    int r1 = g.add({"R flag", 1, "R", 1, 1, {"GEN", "RLX"}, 3});
    int f2 = g.add({"F2", 1, "F", -1, -1, {sem, "GEN"}, 3});
    int r2 = g.add({"R data", 1, "R", 0, 0, {"GEN"}});
    g.rf = {{w2, r1}, {id, r2}};
    g.co = {{id, w1}, {iflag, w2}};
    if (sem == "SC") g.sf = {{f1, f2}};
    CHECK(violated(g) == V{"Causality"});
    g.rf = {{w2, r1}, {w1, r2}};  // the allowed counterpart: R2 reads W1
    CHECK(violated(g).empty());
  }
}

TEST_CASE("8.11.1 Message Passing with red: r1 == 0 and flag == 2 allowed; with atom forbidden") {
  for (bool red : {true, false}) {
    G g;
    int ix = init(g, 0, "i_x"), iflag = init(g, 1, "i_flag");
    int w1 = g.add({"W x", 0, "W", 0, 0, {"GEN"}});
    int w2 = g.add({"W flag rel.gpu", 0, "W", 1, 1, {"GEN", "REL"}, 2});
    std::vector<std::string> rt = {"GEN", "RLX", "RMW"};
    if (red) rt.push_back("RED");
    int ra = g.add({"R flag (rmw)", 1, "R", 1, 1, rt, 3});
    int wa = g.add({"W flag (rmw)", 1, "W", 1, 1, {"GEN", "RLX", "RMW"}, 3});
    g.add({"F acquire.gpu", 1, "F", -1, -1, {"ACQ", "GEN"}, 2});
    int r2 = g.add({"R x", 1, "R", 0, 0, {"GEN"}});
    g.rf = {{w2, ra}, {ix, r2}};
    g.co = {{ix, w1}, {iflag, w2}, {w2, wa}, {iflag, wa}};
    g.rmw = {{ra, wa}};
    CHECK(violated(g) == (red ? V{} : V{"Causality"}));
  }
}

TEST_CASE("8.10.6 Store Buffering: fence.sc forbids both reads of 0 in either Fence-SC order; fence.acq_rel allows it") {
  for (std::string sem : {"SC", "ACQ_REL"})
    for (int dir = 0; dir < (sem == "SC" ? 2 : 1); ++dir) {
      G g;
      int ix = init(g, 0, "i_x"), iy = init(g, 1, "i_y");
      int w1 = g.add({"W x", 0, "W", 0, 0, {"GEN"}});
      int f1 = g.add({"F1", 0, "F", -1, -1, {sem, "GEN"}, 3});
      int r1 = g.add({"R y", 0, "R", 1, 1, {"GEN"}});
      int w2 = g.add({"W y", 1, "W", 1, 1, {"GEN"}});
      int f2 = g.add({"F2", 1, "F", -1, -1, {sem, "GEN"}, 3});
      int r2 = g.add({"R x", 1, "R", 0, 0, {"GEN"}});
      g.rf = {{iy, r1}, {ix, r2}};
      g.co = {{ix, w1}, {iy, w2}};
      if (sem == "SC") g.sf = {dir ? std::pair{f2, f1} : std::pair{f1, f2}};
      CHECK(violated(g) == (sem == "SC" ? V{"Causality"} : V{}));
    }
}

TEST_CASE("8.10.5 CoRR: r0 == 1, r1 == 0 forbidden by SC per location") {
  G g;
  int ix = init(g, 0, "i_x");
  int w = g.add({"W x", 0, "W", 0, 0, {"GEN", "RLX"}, 3});
  int r1 = g.add({"R1", 1, "R", 0, 0, {"GEN", "RLX"}, 3});
  int r2 = g.add({"R2", 1, "R", 0, 0, {"GEN", "RLX"}, 3});
  g.rf = {{w, r1}, {ix, r2}};
  g.co = {{ix, w}};
  CHECK(violated(g) == V{"SC-per-Location", "Causality"});
  g.rf = {{ix, r1}, {w, r2}};  // r0 == 0, r1 == 1 is allowed
  CHECK(violated(g).empty());
}

TEST_CASE("8.10.6 CoWR: aliases need fence.proxy.alias") {
  for (bool fence : {true, false}) {
    G g;
    int ix = init(g, 0, "i_x");
    int w = g.add({"W a1", 0, "W", 0, 0, {"GEN"}});
    if (fence) g.add({"F alias", 0, "F", -1, -1, {"ALIAS", "PROXYF", "GEN"}});
    int r = g.add({"R a2", 0, "R", 0, 1, {"GEN"}});
    g.rf = {{ix, r}};
    g.co = {{ix, w}};
    CHECK(violated(g) == (fence ? V{"Causality"} : V{}));
  }
}

TEST_CASE("8.10.3 Atomicity: two atom.add reading 0 forbidden only when morally strong") {
  for (bool strong : {true, false}) {
    G g;
    int ix = init(g, 0, "i_x");
    int r1 = g.add({"R1", 0, "R", 0, 0, {"GEN", "RLX", "RMW"}, strong ? 3 : 1});
    int w1 = g.add({"W1", 0, "W", 0, 0, {"GEN", "RLX", "RMW"}, strong ? 3 : 1});
    int r2 = g.add({"R2", 1, "R", 0, 0, {"GEN", "RLX", "RMW"}, strong ? 3 : 2});
    int w2 = g.add({"W2", 1, "W", 0, 0, {"GEN", "RLX", "RMW"}, strong ? 3 : 2});
    g.rf = {{ix, r1}, {ix, r2}};
    g.rmw = {{r1, w1}, {r2, w2}};
    g.co = {{ix, w1}, {ix, w2}, {w1, w2}};
    CHECK(violated(g) == (strong ? V{"Atomicity"} : V{}));
  }
}

TEST_CASE("8.10.4 Load Buffering: values out of thin air forbidden") {
  G g;
  int ix = init(g, 0, "i_x"), iy = init(g, 1, "i_y");
  int r1 = g.add({"R x", 0, "R", 0, 0, {"GEN"}});
  int w1 = g.add({"W y", 0, "W", 1, 1, {"GEN"}});
  int r2 = g.add({"R y", 1, "R", 1, 1, {"GEN"}});
  int w2 = g.add({"W x", 1, "W", 0, 0, {"GEN"}});
  g.rf = {{w2, r1}, {w1, r2}};
  g.data = {{r1, w1}, {r2, w2}};
  g.co = {{ix, w2}, {iy, w1}};
  CHECK(violated(g) == V{"No-Thin-Air"});
  g.rf = {{ix, r1}, {iy, r2}};  // both read the initial values
  CHECK(violated(g).empty());
}
