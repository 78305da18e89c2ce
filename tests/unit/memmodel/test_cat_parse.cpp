// The cat front end: statement structure of the corner cases herd7 accepts (postfix `*` before a keyword),
// located errors, and that every model the project ships or compares against loads.
#include "memmodel/cat/parse.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace ptxcheck;
using namespace ptxcheck::cat;

namespace {
std::optional<Model> parse(const std::string& text, std::vector<Diagnostic>& d) { return parse_model(text, "t.cat", d); }
const Expr& body(const Model& m, std::size_t stmt) { return *std::get<Let>(m.statements.at(stmt)).bindings.at(0).body; }
}  // namespace

TEST_CASE("a postfix star that ends a let before the next let is a closure, not a cartesian product") {
  std::vector<Diagnostic> d;
  auto m = parse("PTX\nlet o = a; (b; c)*\nlet d = o\n", d);
  REQUIRE(m.has_value());
  REQUIRE(m->statements.size() == 2);
  auto& top = std::get<Binary>(body(*m, 0).node);
  CHECK(top.op == BinOp::seq);
  auto& rhs = std::get<Unary>(top.b->node);
  CHECK(rhs.op == UnOp::star);
}

TEST_CASE("a postfix star before an axiom keyword, `as` and `and`") {
  std::vector<Diagnostic> d;
  auto m = parse("X\nlet rec a = b* and c = a*\nacyclic a* as ax\nempty c*\n", d);
  REQUIRE(m.has_value());
  CHECK(m->statements.size() == 3);
  CHECK(std::get<Let>(m->statements[0]).bindings.size() == 2);
  CHECK(std::get<Axiom>(m->statements[1]).name == "ax");
}

TEST_CASE("`S * S` between two sets stays a cartesian product") {
  std::vector<Diagnostic> d;
  auto m = parse("X\nlet p = GEN * GEN | SUR * SUR\nlet q = (M * M) & loc\n", d);
  REQUIRE(m.has_value());
  auto& u = std::get<Binary>(body(*m, 0).node);
  CHECK(u.op == BinOp::union_);
  CHECK(std::get<Binary>(u.a->node).op == BinOp::cartesian);
  CHECK(std::get<Binary>(u.b->node).op == BinOp::cartesian);
}

TEST_CASE("syntax errors and unknown names are located") {
  std::vector<Diagnostic> d;
  CHECK_FALSE(parse("X\nlet a = (b | c\n", d).has_value());
  REQUIRE_FALSE(d.empty());
  CHECK(d[0].render().find("t.cat:3:") != std::string::npos);
}

TEST_CASE("the shipped and reference models load with the base vocabulary") {
  std::string src = PTXCHECK_SOURCE_DIR, corpus = PTXCHECK_CORPUS_DIR;
  for (std::string path : {src + "/memmodel/models/ptx.cat", src + "/memmodel/models/scoped-c11.cat",
                           corpus + "/litmus-ptx/reference-models/ptx-v6.0.cat",
                           corpus + "/litmus-ptx/reference-models/ptx-v7.5.cat"}) {
    std::vector<Diagnostic> d;
    auto m = load_model(path, base_names(), d);
    std::string msg;
    for (auto& x : d) msg += x.render() + "\n";
    INFO(path, "\n", msg);
    CHECK(m.has_value());
  }
}
