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
