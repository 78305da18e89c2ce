// Tests of `ptxcheck abi` on chapters 1-3 of the interoperability guide: one hand-written violation per rule,
// found at its PTX line, and nvcc's own output (char/short/half/struct/vector arguments, system calls) clean.
#include "checker/abi/calling.hpp"
#include "checker/abi/run.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <set>
#include <tuple>

using namespace ptxcheck::abi;

namespace {
const std::string header = ".version 8.0\n.target sm_90\n.address_size 64\n";  // lines 1-3

CallingReport check(const std::string& ptx) {
  auto built = ptx::ir::load_ptx(ptx, "t.ptx");
  REQUIRE_MESSAGE(built, (built.errors.empty() ? "" : built.errors[0].render()));
  return check_calling_convention(*built.module, ptx, "t.ptx");
}
// The findings as (line, rule, section), for comparing against what a test's comment says.
std::set<std::tuple<int, std::string, std::string>> found(const CallingReport& r) {
  std::set<std::tuple<int, std::string, std::string>> out;
  for (const auto& f : r.findings) out.insert({int(f.line), f.rule, f.section});
  return out;
}
using Want = std::set<std::tuple<int, std::string, std::string>>;
}  // namespace

TEST_CASE("calling: integral values below 32 bits are never .u8/.s8/.u16/.s16/.b16 params (2.3 note A)") {
  auto r = check(header +
                 ".func (.param .u8 r) f(\n"   // 4
                 "  .param .s16 a,\n"          // 5
                 "  .param .b16 b,\n"          // 6
                 "  .param .s32 ok)\n"         // 7
                 "{ ret; }\n");
  CHECK(found(r) == Want{{4, "small-integer", "2.3"}, {5, "small-integer", "2.3"}, {6, "small-integer", "2.3"}});
  REQUIRE(!r.findings.empty());
  CHECK(r.findings[0].column == 19);  // at `r`, not at the `r` inside `.param`
  CHECK(r.findings[0].message.find("return value 0 of f is `.param .u8 r`") == 0);
}

TEST_CASE("calling: no 16-bit floating-point parameters or return values (2.3 note C)") {
  auto r = check(header + ".func (.param .f16 r) f(\n  .param .bf16 a,\n  .param .f32 ok)\n{ ret; }\n");
  CHECK(found(r) == Want{{4, "half-float", "2.3"}, {5, "half-float", "2.3"}});
}

TEST_CASE("calling: a PTX type 2.3's table does not list (.b128, .pred) is flagged") {
  auto r = check(header + ".func f(\n  .param .b128 a,\n  .param .pred p)\n{ ret; }\n");
  CHECK(found(r) == Want{{5, "param-type", "2.3"}, {6, "param-type", "2.3"}});
}

TEST_CASE("calling: parameters of a device function live in .param, not .reg (2.3)") {
  auto r = check(header + ".func (.reg .b32 r) f(\n  .reg .b32 a)\n{ ret; }\n");
  CHECK(found(r) == Want{{4, "param-space", "2.3"}, {5, "param-space", "2.3"}});
}

TEST_CASE("calling: aggregates are `.align A .b8 name[size]`, A a power of two in 1..128 (2.3 note D)") {
  auto r = check(header +
                 ".func f(\n"
                 "  .param .b8 s[4],\n"                  // 5: no .align
                 "  .param .align 256 .b8 t[256],\n"     // 6: over 128
                 "  .param .align 4 .u32 u[3],\n"        // 7: not .b8
                 "  .param .align 128 .b8 ok[128])\n"    // 8
                 "{ ret; }\n");
  CHECK(found(r) == Want{{5, "aggregate-align", "2.3"}, {6, "aggregate-align", "2.3"}, {7, "aggregate-form", "2.3"}});
}

TEST_CASE("calling: an aggregate's size is a multiple of its alignment (1.2, tail padding)") {
  auto r = check(header + ".func f(\n  .param .align 8 .b8 s[12],\n  .param .align 1 .b8 ok[3])\n{ ret; }\n");
  CHECK(found(r) == Want{{5, "aggregate-size", "1.2"}});
}

TEST_CASE("calling: native vectors have 1-4 elements up to four bytes, 1-2 above (1.2)") {
  auto r = check(header + ".func f(\n  .param .v4 .f64 v,\n  .param .v4 .f32 ok,\n  .param .v2 .b64 ok2)\n{ ret; }\n");
  CHECK(found(r) == Want{{5, "vector-elements", "1.2"}});
}

TEST_CASE("calling: an even-sized native vector is aligned on n * alignof(element) (1.2)") {
  auto r = check(header + ".func f(\n  .param .align 4 .v2 .f32 v,\n  .param .align 16 .v4 .s32 ok)\n{ ret; }\n");
  CHECK(found(r) == Want{{5, "vector-align", "1.2"}});
}

TEST_CASE("calling: chapter 2 needs PTX 2.0 or greater for function calls") {
  auto r = check(".version 1.4\n.target sm_13\n.func f(.param .b32 a)\n{ ret; }\n");
  CHECK(found(r) == Want{{1, "ptx-version", "2"}});
}

namespace {
// A callee `g(.b32, .align 8 .b8[16]) -> .b32` and a kernel whose calls start at line 12.
std::string with_calls(const std::string& calls) {
  return header +
         ".func (.param .b32 r) g(\n"                // 4
         "  .param .b32 a,\n"                        // 5
         "  .param .align 8 .b8 s[16])\n"            // 6
         "{ ret; }\n"                                // 7
         ".entry k()\n{\n"                           // 8-9
         "  .reg .b32 %r1;\n"                        // 10
         "  .param .b32 p0; .param .align 8 .b8 p1[16]; .param .b32 rv; .param .b64 w0; .param .align 4 .b8 w1[16];\n" +  // 11
         calls + "  ret;\n}\n";
}
}  // namespace

TEST_CASE("calling: a call passes as many arguments and return values as the callee declares (2.3)") {
  auto r = check(with_calls("  call.uni (rv), g, (p0);\n"     // 12: one argument of two
                            "  call.uni g, (p0, p1);\n"       // 13: the return value missing
                            "  call.uni (rv), g, (p0, p1);\n"  // 14: fine
                            "  call.uni (_), g, (p0, p1);\n"));  // 15: `_` as chapter 3 writes it
  CHECK(found(r) == Want{{12, "call-arity", "2.3"}, {13, "call-arity", "2.3"}});
  CHECK(r.calls == 4);
}

TEST_CASE("calling: call arguments are .param variables, not registers or immediates (2.3)") {
  auto r = check(with_calls("  call.uni (rv), g, (%r1, p1);\n"));
  CHECK(found(r) == Want{{12, "call-arg-space", "2.3"}});
}

TEST_CASE("calling: each argument agrees with the callee's parameter in size, type and alignment") {
  auto r = check(with_calls("  call.uni (rv), g, (w0, p1);\n"    // 12: .b64 for .b32
                            "  call.uni (rv), g, (p0, w1);\n"));  // 13: .align 4 for .align 8
  CHECK(found(r) == Want{{12, "call-arg-mismatch", "2.3"}, {13, "call-arg-mismatch", "2.3"}});
  REQUIRE(r.findings.size() == 2);
  CHECK(r.findings[0].message ==
        "argument 0 of the call to g is `.param .b64 w0`, the callee declares `.param .b32 a`: size, type and "
        "alignment must agree (2.3 fixes one PTX form per source type)");
}

TEST_CASE("calling: system-call prototypes follow chapter 3 (vprintf, malloc, free, __assertfail)") {
  auto r = check(header +
                 ".extern .func (.param .b32 status) vprintf(.param .b32 format, .param .b64 valist);\n"  // 4: 32-bit t1
                 ".extern .func malloc(.param .b64 size);\n"                                            // 5: no ptr
                 ".func free(.param .b64 ptr)\n{ ret; }\n"                                             // 6: a definition
                 ".extern .func __assertfail(.param .b64 m, .param .b64 f, .param .b32 l, .param .b64 fn);\n");  // 8: 4 params
  CHECK(found(r) == Want{{4, "syscall-prototype", "3"}, {5, "syscall-prototype", "3"}, {6, "syscall-extern", "3"},
                         {8, "syscall-prototype", "3"}});
}

TEST_CASE("calling: chapter 3's prototypes for 32- and 64-bit addresses are clean") {
  const std::string protos =
      ".extern .func (.param .s32 status) vprintf(.param .bA format, .param .bA valist);\n"
      ".extern .func (.param .bA ptr) malloc(.param .bA size);\n"
      ".extern .func free(.param .bA ptr);\n"
      ".extern .func __assertfail(.param .bA message, .param .bA file, .param .b32 line, .param .bA function, .param .bA charSize);\n";
  for (std::string bits : {"32", "64"}) {
    std::string text = ".version 8.0\n.target sm_90\n.address_size " + bits + "\n" + protos;
    for (auto at = text.find(".bA"); at != std::string::npos; at = text.find(".bA")) text.replace(at, 3, ".b" + bits);
    CHECK(check(text).findings.empty());
  }
}

TEST_CASE("calling: text and JSON renderings carry file:line:col, rule and section") {
  auto r = check(header + ".func f(\n  .param .u16 a)\n{ ret; }\n");
  const std::string text = to_text(r);
  CHECK(text.rfind("t.ptx:5:15: error: parameter 0 of f is `.param .u16 a`", 0) == 0);
  CHECK(text.find("[ptx-interoperability 2.3, small-integer]") != std::string::npos);
  CHECK(text.find("1 calling-convention violations") != std::string::npos);
  auto j = to_json(r);
  CHECK(j["findings"][0]["line"] == 5);
  CHECK(j["findings"][0]["rule"] == "small-integer");
}

TEST_CASE("calling: nvcc's output for char/short/bool/half/struct/vector arguments and system calls is clean") {
  for (bool rdc : {false, true}) {
    AbiRequest req;
    req.input = std::string(PTXCHECK_SOURCE_DIR) + "/examples/abi/calling_convention.cu";
    if (rdc) req.cuda.extra.push_back("-rdc=true");
    auto run = run_abi(req);
    REQUIRE_MESSAGE(!run.error, (run.error ? run.error->render() : ""));
    const auto& c = run.reports.at(0).calling;
    INFO(to_text(c));
    CHECK(c.findings.empty());
    CHECK(c.functions >= 10);  // six noinline functions and the four system calls
    CHECK(c.calls >= 10);
    CHECK(run.exit_code() == 0);
  }
}

TEST_CASE("calling: the hand-written example breaks five rules, each at its marked line") {
  AbiRequest req;
  req.input = std::string(PTXCHECK_SOURCE_DIR) + "/examples/abi/calling_violations.ptx";
  req.source = std::string(PTXCHECK_SOURCE_DIR) + "/examples/abi/calling_violations.cu";
  auto run = run_abi(req);
  REQUIRE_MESSAGE(!run.error, (run.error ? run.error->render() : ""));
  CHECK(found(run.reports.at(0).calling) == Want{{8, "syscall-prototype", "3"}, {12, "small-integer", "2.3"},
                                                 {13, "aggregate-size", "1.2"}, {24, "call-arg-mismatch", "2.3"},
                                                 {28, "call-arity", "2.3"}});
  CHECK(run.exit_code() == 1);
}
