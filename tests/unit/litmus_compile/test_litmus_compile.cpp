// Tests of litmus/compile: the .cu.litmus parser (fields and located errors), kernel generation, and the
// lift of nvcc's PTX back to PTX litmus instructions, checked against the chapter-4 mapping by hand.
#include "litmus/compile/cu_litmus.hpp"
#include "litmus/compile/lift.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace ptxcheck::litmus_compile;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
const std::string dir = std::string(PTXCHECK_SOURCE_DIR) + "/examples/cu-litmus/";
}  // namespace

TEST_CASE("litmus_compile: parse a .cu.litmus file") {
  auto p = parse_cu_litmus(slurp(dir + "MP+ra+dev.cu.litmus"), "MP+ra+dev.cu.litmus");
  REQUIRE_MESSAGE(p.test, (p.error ? p.error->render() : ""));
  const auto& t = *p.test;
  CHECK(t.name == "MP+ra+dev");
  REQUIRE(t.init.size() == 2);
  CHECK(t.init[0].first == "x");
  CHECK(t.init[1].first == "y");
  REQUIRE(t.threads.size() == 2);
  CHECK(t.threads[0].placement == "cta 0,gpu 0");
  CHECK(t.threads[1].placement == "cta 1,gpu 0");
  CHECK(t.threads[1].body_line == 8);
  CHECK(t.threads[1].body.find("r1 = at<dev>(x).load(rlx);") != std::string::npos);
  CHECK(t.condition == "exists (P1:r0 == 1 /\\ P1:r1 == 0)");
}

TEST_CASE("litmus_compile: errors are located") {
  auto p = parse_cu_litmus("CUDA T\n{ x=0; }\nP0@cta 0,gpu 0:\n  r0 = 1;\nmaybe (P0:r0 == 1)\n", "t.cu.litmus");
  REQUIRE(p.error);
  CHECK(p.error->where.line == 5);
  auto q = parse_cu_litmus("CUDA T\n{ x=0 }\n", "t.cu.litmus");
  REQUIRE(q.error);
  CHECK(q.error->where.line == 2);
}

TEST_CASE("litmus_compile: MP compiles to the chapter-4 instructions") {
  auto p = parse_cu_litmus(slurp(dir + "MP+ra+dev.cu.litmus"), "MP+ra+dev.cu.litmus");
  REQUIRE(p.test);
  auto c = compile_litmus(*p.test, "MP+ra+dev.cu.litmus", ptxcheck::CudaOptions{});
  REQUIRE_MESSAGE(!c.error, (c.error ? c.error->render() : ""));
  INFO(c.ptx_litmus);
  // Chapter 4: relaxed store -> st.relaxed, release store -> st.release, acquire load -> ld.acquire.
  CHECK(c.ptx_litmus.find("st.relaxed.gpu x, 1") != std::string::npos);
  CHECK(c.ptx_litmus.find("st.release.gpu y, 1") != std::string::npos);
  CHECK(c.ptx_litmus.find("ld.acquire.gpu r0, y") != std::string::npos);
  CHECK(c.ptx_litmus.find("ld.relaxed.gpu r1, x") != std::string::npos);
  CHECK(c.ptx_litmus.find("P1@cta 1,gpu 0") != std::string::npos);
  CHECK(c.ptx_litmus.rfind("exists (P1:r0 == 1 /\\ P1:r1 == 0)") != std::string::npos);
}

// ---- the source side (source_test.hpp) and the comparison (check.hpp)
#include "litmus/compile/check.hpp"
#include "litmus/compile/source_test.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"

namespace {
CuLitmus cu(const std::string& text) {
  auto p = parse_cu_litmus(text, "t.cu.litmus");
  REQUIRE_MESSAGE(p.test, (p.error ? p.error->render() : ""));
  return *p.test;
}
// The engine's verdict for a CUDA litmus test's condition under scoped-c11.cat, and whether it is racy.
std::pair<std::string, bool> source_verdict(const std::string& text) {
  ptxcheck::Diagnostic err;
  auto prog = cxx_program(cu(text), "t.cu.litmus", err);
  REQUIRE_MESSAGE(prog, err.render());
  std::vector<ptxcheck::Diagnostic> diags;
  auto t = ptxcheck::litmus::parse_litmus(c11_litmus(*prog), "t.litmus", diags);
  REQUIRE_MESSAGE(t, (diags.empty() ? "" : diags[0].render()));
  std::vector<std::string> errors;
  auto models = load_check_models(CheckOptions{}, errors);
  REQUIRE(models);
  auto r = ptxcheck::litmus::run_test(*t, models->source, ptxcheck::litmus::Options{});
  auto race = ptxcheck::litmus::run_test(*t, models->source_race, ptxcheck::litmus::Options{});
  return {r.result, !race.states.empty()};
}
std::string two_threads(const std::string& p0, const std::string& p1, const std::string& cond, int cta1 = 1) {
  return "CUDA T\n{ x=0; y=0; }\nP0@cta 0,gpu 0:\n" + p0 + "\nP1@cta " + std::to_string(cta1) + ",gpu 0:\n" + p1 + "\n" + cond + "\n";
}
}  // namespace

TEST_CASE("litmus_compile: the source encoding marks what the dialect cannot say") {
  ptxcheck::Diagnostic err;
  auto prog = cxx_program(cu(two_threads("  at<dev>(x).store(1, sc);\n  fence(acq, blk);\n  *y = 2;",
                                         "  r0 = at<sys>(y).fetch_add(3, ar);", "exists (P1:r0 == 2)")),
                          "t.cu.litmus", err);
  REQUIRE_MESSAGE(prog, err.render());
  REQUIRE(prog->threads[0].ops.size() == 3);
  CHECK(prog->threads[0].ops[2].plain);
  auto text = c11_litmus(*prog);
  INFO(text);
  CHECK(text.find("fence.proxy.alias | atom.acq_rel.sys.add r0, y, 3") != std::string::npos);
  CHECK(text.find("st.release.gpu x, 1") != std::string::npos);
  CHECK(text.find("fence.proxy.texture") != std::string::npos);
  CHECK(text.find("fence.acq_rel.cta") != std::string::npos);
  CHECK(text.find("st.weak y, 2") != std::string::npos);
  // an unknown statement is a located error, never skipped
  auto bad = cxx_program(cu(two_threads("  at<dev>(x).store(1, sc);\n  x.foo();", "  r0 = *x;", "exists (P1:r0 == 1)")),
                         "t.cu.litmus", err);
  CHECK(!bad);
  CHECK(err.where.line == 5);
  CHECK(err.message.find("x.foo()") != std::string::npos);
}

// Source verdicts under scoped RC11, against the RC11 paper's answers for these shapes.
TEST_CASE("litmus_compile: scoped-c11.cat on the classic shapes") {
  const std::string mp_cond = "exists (P1:r0 == 1 /\\ P1:r1 == 0)", sb_cond = "exists (P0:r0 == 0 /\\ P1:r0 == 0)";
  // MP: release/acquire forbids the stale read; relaxed allows it; fences (rel, acq) forbid it; a release
  // fence without the acquire side does not.
  CHECK(source_verdict(two_threads("  at<dev>(x).store(1, rlx);\n  at<dev>(y).store(1, rel);",
                                   "  r0 = at<dev>(y).load(acq);\n  r1 = at<dev>(x).load(rlx);", mp_cond)) == std::make_pair(std::string("fails"), false));
  CHECK(source_verdict(two_threads("  at<dev>(x).store(1, rlx);\n  at<dev>(y).store(1, rlx);",
                                   "  r0 = at<dev>(y).load(rlx);\n  r1 = at<dev>(x).load(rlx);", mp_cond)).first == "holds");
  CHECK(source_verdict(two_threads("  at<dev>(x).store(1, rlx);\n  fence(rel, dev);\n  at<dev>(y).store(1, rlx);",
                                   "  r0 = at<dev>(y).load(rlx);\n  fence(acq, dev);\n  r1 = at<dev>(x).load(rlx);", mp_cond)).first == "fails");
  CHECK(source_verdict(two_threads("  at<dev>(x).store(1, rlx);\n  fence(rel, dev);\n  at<dev>(y).store(1, rlx);",
                                   "  r0 = at<dev>(y).load(rlx);\n  fence(rel, dev);\n  r1 = at<dev>(x).load(rlx);", mp_cond)).first == "holds");
  // SB: only seq_cst (accesses or fences) forbids both stale reads; release/acquire does not.
  CHECK(source_verdict(two_threads("  at<dev>(x).store(1, sc);\n  r0 = at<dev>(y).load(sc);",
                                   "  at<dev>(y).store(1, sc);\n  r0 = at<dev>(x).load(sc);", sb_cond)).first == "fails");
  CHECK(source_verdict(two_threads("  at<dev>(x).store(1, rel);\n  r0 = at<dev>(y).load(acq);",
                                   "  at<dev>(y).store(1, rel);\n  r0 = at<dev>(x).load(acq);", sb_cond)).first == "holds");
  // Scopes: block-scope atomics in different CTAs are not inclusive, so the program races (undefined);
  // in one CTA they synchronise.
  CHECK(source_verdict(two_threads("  at<blk>(x).store(1, rlx);\n  at<blk>(y).store(1, rel);",
                                   "  r0 = at<blk>(y).load(acq);\n  r1 = at<blk>(x).load(rlx);", mp_cond)).second);
  CHECK(source_verdict(two_threads("  at<blk>(x).store(1, rlx);\n  at<blk>(y).store(1, rel);",
                                   "  r0 = at<blk>(y).load(acq);\n  r1 = at<blk>(x).load(rlx);", mp_cond, 0)) ==
        std::make_pair(std::string("fails"), false));
  // Plain data published by release/acquire: racy only through the execution that misses the flag.
  CHECK(source_verdict(two_threads("  *x = 1;\n  at<dev>(y).store(1, rel);", "  r0 = at<dev>(y).load(acq);\n  r1 = *x;", mp_cond)).second);
}

TEST_CASE("litmus_compile: check_compiled reports the compiled-only outcome with a witness") {
  CheckOptions opt;
  auto r = check_compiled(dir + "LB+rlx+dev.cu.litmus", opt);
  INFO(render_text(r));
  REQUIRE(r.verdict == "extra-outcomes");
  CHECK(exit_code(r) == 1);
  CHECK(!r.source_racy);
  REQUIRE(r.extra.size() == 1);
  CHECK(r.extra[0].values.at("P0:r0") == 1);
  CHECK(r.extra[0].values.at("P1:r0") == 1);
  CHECK(r.extra[0].satisfies);
  CHECK(!r.extra[0].events.empty());
  CHECK(!r.extra[0].edges.empty());
  auto j = to_json(r);
  CHECK(j["verdict"] == "extra-outcomes");
  CHECK(j["extra_outcomes"].size() == 1);
  CHECK(j["compiled_litmus"].get<std::string>().find("ld.relaxed.gpu") != std::string::npos);

  auto ok = check_compiled(dir + "MP+ra+dev.cu.litmus", opt);
  INFO(render_text(ok));
  CHECK(ok.verdict == "consistent");
  CHECK(exit_code(ok) == 0);
  CHECK(ok.source.result == "fails");
  auto missing = check_compiled(dir + "no-such.cu.litmus", opt);
  CHECK(missing.verdict == "error");
  CHECK(exit_code(missing) == 2);
}
