// The `.test` reader (litmus/parse/nvtest.hpp) on hand-written snippets: the AST it builds (threads and their
// place, opcodes in the AST's dialect, aliases, the condition with the load-value constraints folded in, as
// the format's tool src/alloy_emitter.py runs `permit` / `assert`), template expansion with locations in the
// original file, and located errors for bad or unsupported input.
#include "litmus/enumerate/enumerate.hpp"
#include "litmus/parse/nvtest.hpp"

#include <doctest/doctest.h>

using namespace ptxcheck;
using namespace ptxcheck::litmus;

namespace {
std::optional<Test> parse(const std::string& text, std::size_t instance = 0) {
  std::vector<Diagnostic> d;
  auto t = parse_nvtest(text, "dir/snip.test", instance, d);
  if (!t)
    for (auto& x : d) MESSAGE(x.render());
  return t;
}
// The first diagnostic of a text that must not parse.
Diagnostic bad(const std::string& text, std::size_t instance = 0) {
  std::vector<Diagnostic> d;
  auto t = parse_nvtest(text, "dir/snip.test", instance, d);
  CHECK_FALSE(t.has_value());
  REQUIRE(!d.empty());
  return d[0];
}
const Instr& cell(const Test& t, std::size_t row, std::size_t col) {
  REQUIRE(row < t.rows.size());
  REQUIRE(col < t.rows[row].size());
  REQUIRE(t.rows[row][col].has_instr);
  return t.rows[row][col].instr;
}
}  // namespace

TEST_CASE("a plain test: threads placed by device and block, opcodes, assert as forall") {
  auto t = parse(
      ".global x;\n"
      ".global y;\n"
      "d0.b0.t0 {\n"
      "  st [x], 1;\n"
      "  fence.sc.cta;\n"
      "  ld r0, [y];\n"
      "}\n"
      "d1.b2.t3 {\n"
      "  st.relaxed.gpu [y], 2;\n"
      "}\n"
      "assert (r0 == 2 || not r0 != 0) as my_test;\n");
  REQUIRE(t);
  CHECK(t->name == "snip.test");
  CHECK(t->file == "dir/snip.test");
  REQUIRE(t->threads.size() == 2);
  CHECK(t->threads[0].place == std::map<std::string, int>{{"gpu", 0}, {"cta", 0}});
  CHECK(t->threads[1].place == std::map<std::string, int>{{"gpu", 1}, {"cta", 2}});
  CHECK(t->mem_order == std::vector<std::string>{"x", "y"});
  REQUIRE(t->rows.size() == 3);
  CHECK(cell(*t, 0, 0).opcode == "st");
  CHECK(cell(*t, 0, 0).operands == std::vector<std::string>{"x", "1"});
  CHECK(cell(*t, 1, 0).opcode == "fence.sc.cta");
  CHECK(cell(*t, 2, 0).operands == std::vector<std::string>{"r0", "y"});
  CHECK(cell(*t, 0, 1).opcode == "st.relaxed.gpu");
  CHECK_FALSE(t->rows[1][1].has_instr);  // the shorter thread's column is padded
  CHECK(t->quantifier == Quantifier::forall);
  CHECK(render_condition(t->cond) == "(P0:r0 == 2 \\/ ~P0:r0 != 0)");
}

TEST_CASE("load-value constraints: permit is exists (K /\\ C), assert is forall (~K \\/ C)") {
  const std::string threads =
      ".global x;\n.global flag;\n"
      "d0.b0.t0 { st [x], 2; st.release.gpu [flag], 1; }\n"
      "d0.b1.t0 { ld.acquire.gpu r0, [flag] == 1; ld r1, [x]; }\n";
  auto p = parse(threads + "permit (r1 != 2) as p;\n");
  REQUIRE(p);
  CHECK(p->quantifier == Quantifier::exists);
  CHECK(render_condition(p->cond) == "(P1:r0 == 1 /\\ P1:r1 != 2)");
  CHECK(cell(*p, 0, 1).opcode == "ld.acquire.gpu");
  auto a = parse(threads + "assert (r1 == 2) as a;\n");
  REQUIRE(a);
  CHECK(a->quantifier == Quantifier::forall);
  CHECK(render_condition(a->cond) == "(P1:r0 != 1 \\/ P1:r1 == 2)");
  auto c = parse(threads + "check (r1 == 2) as c;\n");  // `check` runs like `permit` in the format's tool
  REQUIRE(c);
  CHECK(c->quantifier == Quantifier::exists);
}

TEST_CASE("aliases, proxies, atomics and fences in the AST's dialect") {
  auto t = parse(
      ".global x;\n"
      ".global y physically aliases x;\n"
      ".texref t virtually aliases y;\n"
      ".surfref s virtually aliases x;\n"
      ".conref c virtually aliases x;\n"
      "d0.b0.t0 {\n"
      "  sust [s], 1; fence.proxy.surface; fence.alias; fence.proxy.texture;\n"
      "  tld r0, [t]; suld r1, [s]; ldc r2, [c];\n"
      "  atom.add.acq_rel.gpu r3, [x], 1 == 1; red.add.gpu [y], r3; st.volatile [x], r0;\n"
      "}\n"
      "permit (r0 == 1 && r1 == 1 && r2 == 0) as p;\n");
  REQUIRE(t);
  REQUIRE(t->aliases.size() == 4);
  CHECK((t->aliases[0].name == "y" && t->aliases[0].proxy == "generic" && t->aliases[0].target == "x"));
  CHECK((t->aliases[1].name == "t" && t->aliases[1].proxy == "texture" && t->aliases[1].target == "y"));
  CHECK((t->aliases[2].proxy == "surface" && t->aliases[3].proxy == "constant"));
  CHECK(t->mem_order == std::vector<std::string>{"x"});
  std::vector<std::string> ops;
  for (auto& r : t->rows) ops.push_back(r[0].instr.opcode);
  CHECK(ops == std::vector<std::string>{"sust", "fence.proxy.surface", "fence.proxy.alias", "fence.proxy.texture", "tld",
                                        "suld", "cold", "atom.acq_rel.gpu.add", "red.relaxed.gpu.add", "st.volatile"});
  CHECK(cell(*t, 7, 0).operands == std::vector<std::string>{"r3", "x", "1"});
  CHECK(cell(*t, 8, 0).operands == std::vector<std::string>{"y", "r3"});
  CHECK(render_condition(t->cond) == "(P0:r3 == 1 /\\ ((P0:r0 == 1 /\\ P0:r1 == 1) /\\ P0:r2 == 0))");
}

TEST_CASE("a second block of the same thread continues it") {
  auto t = parse(".global x;\nd0.b0.t0 { st [x], 1; }\nd0.b0.t1 { ld r0, [x]; }\nd0.b0.t0 { st [x], 2; }\nassert (r0 != 3) as a;\n");
  REQUIRE(t);
  REQUIRE(t->threads.size() == 2);
  REQUIRE(t->rows.size() == 2);
  CHECK(cell(*t, 1, 0).operands == std::vector<std::string>{"x", "2"});
}

TEST_CASE("templates: one test per row, named FILE#k, locations in the original file") {
  const std::string text =
      ".global x;\n"                      // line 1
      ".surfref s virtually aliases x;\n"  // line 2
      "d0.b0.t0 {\n"                      // line 3
      "  $0, 1;\n"                        // line 4
      "  $1\n"                            // line 5
      "  $2 r0, $3;\n"                    // line 6
      "}\n"
      "$4(r0 $5 1) as r0;\n"
      "\n"
      "$$\n"
      "\n"
      "st   [x] |                      | ld   | [x] | assert | ==\n"  // line 12
      "# a comment line is no instance\n"
      "sust [s] | fence.proxy.surface; | suld | [s] | permit | !=\n";  // line 14
  REQUIRE(nvtest_instances(text) == 2u);
  CHECK_FALSE(nvtest_instances(".global x;\n").has_value());
  auto one = parse(text, 1);
  REQUIRE(one);
  CHECK(one->name == "snip.test#1");
  REQUIRE(one->rows.size() == 2);  // the empty $1 adds no instruction
  CHECK(cell(*one, 0, 0).opcode == "st");
  CHECK(one->quantifier == Quantifier::forall);
  CHECK(render_condition(one->cond) == "P0:r0 == 1");
  auto two = parse(text, 2);
  REQUIRE(two);
  CHECK(two->name == "snip.test#2");
  REQUIRE(two->rows.size() == 3);
  CHECK(cell(*two, 1, 0).opcode == "fence.proxy.surface");
  CHECK(cell(*two, 2, 0).opcode == "suld");
  CHECK(two->quantifier == Quantifier::exists);
  // A substituted instruction is located in its row: `fence.proxy.surface` at line 14, column 12.
  auto loc = LineIndex(text).locate(cell(*two, 1, 0).offset, "f");
  CHECK(loc.line == 14);
  CHECK(loc.column == 12);
  auto body = LineIndex(text).locate(two->threads[0].offset, "f");  // the thread name stays in the body
  CHECK(body.line == 3);
  // No such instance.
  auto e = bad(text, 3);
  CHECK(e.message.find("2 instances") != std::string::npos);
  CHECK(bad(text, 0).where.line == 10);
}

TEST_CASE("bad input: located errors") {
  struct Case {
    const char* text;
    std::uint32_t line, column;
    const char* says;
  };
  const Case cases[] = {
      {".global x;\nd0.b0.t0 {\n  ld r0, [z];\n}\npermit (r0 == 0) as p;\n", 3, 11, "'z' is not declared"},
      {".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r9 == 0) as p;\n", 3, 9, "no register"},
      {".global x;\nd0.b0.t0 { ld r0, [x]; ld r0, [x]; }\npermit (r0 == 0) as p;\n", 2, 27, "written twice"},
      {".global x;\nd0.b0.t0 { st [x], r1; }\npermit (0 == 0) as p;\n", 2, 20, "before this thread writes it"},
      {".global x;\nd0.b0.t0 { ld r0, [x]; }\nd0.b1.t0 { st [x], r0; }\npermit (r0 == 0) as p;\n", 3, 20, "before this thread writes it"},
      {".global x;\nd0.b0.t0 { ld.weak.gpu r0, [x]; }\npermit (r0 == 0) as p;\n", 2, 12, "take no scope"},
      {".global x;\nd0.b0.t0 { ld.volatile.sys r0, [x]; }\npermit (r0 == 0) as p;\n", 2, 12, "take no scope"},
      {".global x;\nd0.b0.t0 { ld.acquire r0, [x]; }\npermit (r0 == 0) as p;\n", 2, 12, "without a scope"},
      {".global x;\nd0.b0.t0 { fence.sc; }\npermit (0 == 0) as p;\n", 2, 12, "without a scope"},
      {".global x;\nd0.b0.t0 { atom.add.volatile r0, [x], 1; }\npermit (r0 == 0) as p;\n", 2, 12, "illegal modifier"},
      {".global x;\nd0.b0.t0 { atom.exch.gpu r0, [x], 1; }\npermit (r0 == 0) as p;\n", 2, 12, "'.add'"},
      {".global x;\nd0.b0.t0 { suatom.add.relaxed.gpu r0, [x], 1; }\npermit (r0 == 0) as p;\n", 2, 12, "unsupported"},
      {".shared x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 0) as p;\n", 1, 2, "unsupported: `.shared`"},
      {".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 == 0) as p;\nassert (r0 == 0) as q;\n", 4, 1, "second command"},
      {".global x;\nd0.b0.t0 { ld r0, [x]; }\n", 3, 1, "expected a command"},
      {".global x;\nd0.b0.t0 { ld r0, [x] }\npermit (r0 == 0) as p;\n", 2, 23, "expected `;`"},
      {".global x;\nd0.b0.t0 { ld r0, [x]; }\npermit (r0 = 0) as p;\n", 3, 12, "unexpected character '='"},
      {".global x;\nd0.bb.t0 { ld r0, [x]; }\npermit (r0 == 0) as p;\n", 2, 1, "dD.bB.tT"},
      {".global x;\nd0.b0.t0 { $0 r0, [x]; }\npermit (r0 == 0) as p;\n", 2, 12, "outside a template"},
      {".global x;\n.texref t virtually aliases q;\n", 2, 29, "not declared before"},
      {".global x;\n.global x;\n", 2, 9, "declared twice"},
      {".global x;\nd0.b0.t0 { $0 r0, [x]; $7 }\npermit (r0 == 0) as p;\n$$\nld | \n", 2, 24, "$7 has no cell"},
  };
  for (auto& c : cases) {
    CAPTURE(c.text);
    const bool tpl = std::string(c.text).find("$$") != std::string::npos;
    auto d = bad(c.text, tpl ? 1 : 0);
    CHECK(d.where.file == "dir/snip.test");
    CHECK(d.where.line == c.line);
    CHECK(d.where.column == c.column);
    CHECK(d.message.find(c.says) != std::string::npos);
    CHECK(d.render().find("dir/snip.test:" + std::to_string(c.line) + ":" + std::to_string(c.column) + ": error: ") == 0);
  }
}

TEST_CASE("paths: FILE.test and FILE.test#k") {
  CHECK(is_nvtest_path("a/CoWR.test"));
  CHECK(is_nvtest_path("a/CoWR.test#3"));
  CHECK_FALSE(is_nvtest_path("a/CoWR.litmus"));
  CHECK_FALSE(is_nvtest_path(".test"));
  CHECK(is_nvtest_path("a#1/CoWR.test"));  // a `#` in a folder name is no instance
  CHECK_FALSE(is_nvtest_path("a#1/CoWR.litmus"));
  CHECK_FALSE(is_nvtest_path("a.test/x#2"));
  std::vector<Diagnostic> d;
  CHECK_FALSE(load_nvtest("a/CoWR.test#x", d).has_value());
  REQUIRE(!d.empty());
  CHECK(d[0].message.find("positive instance number") != std::string::npos);
  d.clear();
  CHECK_FALSE(load_nvtest("a/CoWR.test#0", d).has_value());
  REQUIRE(!d.empty());
  CHECK(d[0].message.find("positive instance number") != std::string::npos);
  d.clear();
  CHECK_FALSE(load_nvtest("/nonexistent/none.test", d).has_value());
  REQUIRE(!d.empty());
  CHECK(d[0].message == "cannot read file");
}
