// The types each comparison and each atomic operation admits (semantics/ir/operation_types.hpp). The expected
// answers are the ISA's tables transcribed here on their own, not the checker's code: setp's operators from ISA 9.0
// Tables 22-25 (9.3.1), atom's and red's operations from 9.7.13.5-7 and the per-operation comments of ISA 1.4
// Table 80/81. Every pair of operator (or operation) and type is tried.
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ptx::ir;

namespace {
std::vector<std::string> errors(const std::string& body, const std::string& target = "sm_90") {
  return testing::diagnostics_of(testing::kernel_module(".version 8.7\n.target " + target + "\n.address_size 64\n",
                                                        " .reg .pred %p<4>;\n .reg .b16 %h<4>;\n .reg .b32 %r<9>;\n"
                                                        " .reg .b64 %rd<4>;\n .reg .b128 %q<4>;\n", body))
      .errors;
}

// A register of the type's width (bit-size registers go with every type of their size, ISA 5.2.2 / 6.4).
std::string reg(const std::string& type, int n) {
  const std::string bits = type.substr(1);
  if (bits == "16") return "%h" + std::to_string(n);
  if (bits == "32" || type == "f16x2" || type == "bf16x2") return "%r" + std::to_string(n);
  if (bits == "64") return "%rd" + std::to_string(n);
  return "%q" + std::to_string(n);
}
}  // namespace

TEST_CASE("setp and set compare each type with the operators of ISA 9.3.1 Tables 22-25") {
  const std::vector<std::string> all = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                        "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  // Table 22's columns; the unsigned one also takes lt ... ge, as the ISA's own `setp.lt.u32 p, i, IterMax;`
  // (9.7.13.15.16) does. Tables 23-25 for floating point.
  const std::set<std::string> bit = {"eq", "ne"}, sign = {"eq", "ne", "lt", "le", "gt", "ge"};
  const std::set<std::string> unsign = {"eq", "ne", "lo", "ls", "hi", "hs", "lt", "le", "gt", "ge"};
  const std::set<std::string> fp = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  const std::map<std::string, const std::set<std::string>*> types = {
      {"b16", &bit}, {"b32", &bit}, {"b64", &bit}, {"s16", &sign}, {"s32", &sign}, {"s64", &sign}, {"u16", &unsign},
      {"u32", &unsign}, {"u64", &unsign}, {"f16", &fp}, {"f32", &fp}, {"f64", &fp}, {"bf16", &fp}};
  int accepted = 0, refused = 0;
  for (const auto& [type, allowed] : types)
    for (const auto& op : all) {
      const std::string a = reg(type, 1), b = reg(type, 2);
      const std::string form = "setp." + op + "." + type + " %p1, " + a + ", " + b + ";";
      const auto e = errors(form);
      CAPTURE(form);
      if (allowed->count(op)) {
        CHECK(e.empty());
        ++accepted;
      } else {
        REQUIRE(e.size() == 1);
        CHECK(e[0].find("'setp." + op + "." + type + "': ." + op + " does not compare ." + type + ": ") == 0);
        ++refused;
      }
    }
  CHECK(accepted == 3 * 2 + 3 * 6 + 3 * 10 + 4 * 14);
  CHECK(refused == 13 * 18 - accepted);
  // set compares its source type, the last type word (9.7.6.1); a boolean operation changes nothing.
  CHECK(errors("set.lt.u32.s32 %r1, %r2, %r3;\n set.eq.u32.b32 %r1, %r2, %r3;\n setp.gt.and.s32 %p1, %r1, %r2, %p2;").empty());
  const std::pair<const char*, std::string> bad[] = {
      {"set.lt.u32.b32 %r1, %r2, %r3;",
       "'set.lt.u32.b32': .lt does not compare .b32: bit-size types compare only with eq and ne: \"ordering comparisons are "
       "not defined for bit-size types\" (ISA 9.3.1.1, Table 22)"},
      {"setp.hi.or.s32 %p1, %r1, %r2, %p2;",
       "'setp.hi.or.s32': .hi does not compare .s32: signed integers compare with eq, ne, lt, le, gt and ge (ISA 9.3.1.1, Table 22)"},
      {"setp.lo.f32 %p1, %r1, %r2;",
       "'setp.lo.f32': .lo does not compare .f32: floating-point values compare with the operators of Tables 23-25: eq ... "
       "ge, equ ... geu, num and nan (ISA 9.3.1.2)"},
  };
  testing::expect_one_error_each([](const auto& text) { return errors(text); }, bad);
}

TEST_CASE("atom and red take, per operation, the types ISA 9.7.13.5-6 and ISA 1.4 Table 80/81 give") {
  const std::vector<std::string> types = {"b16", "b32", "b64", "b128", "u32", "s32", "u64", "s64", "f32", "f64"};
  // "The bit-size operations are .and, .or, .xor, .cas ... and .exch"; .and/.or/.xor ".b32 only" in 1.4, 64-bit
  // since 3.1; .cas.b16 since 6.3, .cas/.exch.b128 in the syntax; .add ".u32, .s32, .f32, .u64" in 1.4 and .f64
  // since 5.0; .inc/.dec ".u32 only"; .min/.max .u32, .s32 and the 64-bit ones of 3.1 ("The floating-point operation
  // .add" is the only scalar floating-point one).
  const std::map<std::string, std::set<std::string>> atom = {
      {"and", {"b32", "b64"}}, {"or", {"b32", "b64"}}, {"xor", {"b32", "b64"}}, {"cas", {"b16", "b32", "b64", "b128"}},
      {"exch", {"b32", "b64", "b128"}}, {"add", {"u32", "s32", "u64", "f32", "f64"}}, {"inc", {"u32"}}, {"dec", {"u32"}},
      {"min", {"u32", "s32", "u64", "s64"}}, {"max", {"u32", "s32", "u64", "s64"}}};
  int accepted = 0;
  for (const auto& [op, allowed] : atom)
    for (const auto& type : types)
      for (const bool red : {false, true}) {
        const std::string a = reg(type, 1), b = reg(type, 2), c = reg(type, 3);
        const std::string form = red ? "red.global." + op + "." + type + " [%rd1], " + b + ";"
                                     : "atom.global." + op + "." + type + " " + a + ", [%rd1], " + b + (op == "cas" ? ", " + c : "") + ";";
        CAPTURE(form);
        const auto e = errors(form);
        // red's .op list has no .cas or .exch (9.7.13.6).
        const bool ok = allowed.count(type) && !(red && (op == "cas" || op == "exch"));
        if (ok) {
          CHECK(e.empty());
          ++accepted;
        } else {
          REQUIRE(e.size() == 1);
          const std::string head = std::string("'") + (red ? "red" : "atom") + ".global." + op + "." + type + "': ";
          CHECK(e[0].find(head) == 0);
          CHECK(e[0].find(red ? "ISA 9.7.13.6)" : "ISA 9.7.13.5)") != std::string::npos);
        }
      }
  CHECK(accepted == 2 * (2 * 3 + 5 + 1 + 1 + 4 + 4) + 4 + 3);
  CHECK(errors("atom.global.xor.u32 %r1, [%rd1], %r2;") ==
        std::vector<std::string>{"'atom.global.xor.u32': .xor takes .b32, .b64, not .u32: a bit-size operation (64-bit since "
                                 "PTX ISA 3.1) (ISA 9.7.13.5)"});
  CHECK(errors("red.global.exch.b32 [%rd1], %r2;") ==
        std::vector<std::string>{"'red.global.exch.b32': red has no .exch operation (its .op list, ISA 9.7.13.6)"});
}

TEST_CASE("atom and red on half types and vectors: .noftz and the vector table of ISA 9.7.13.5-6") {
  // "atom.add.f16, atom.add.f16x2, atom.add.bf16 and atom.add.bf16x2 operation requires the .noftz qualifier".
  CHECK(errors("atom.global.add.noftz.f16 %h1, [%rd1], %h2;\n red.global.add.noftz.bf16x2 [%rd1], %r2;").empty());
  CHECK(errors("atom.global.add.f16 %h1, [%rd1], %h2;") ==
        std::vector<std::string>{"'atom.global.add.f16': .add on .f16 requires the .noftz qualifier (ISA 9.7.13.5)"});
  CHECK(errors("red.global.add.bf16x2 [%rd1], %r2;") ==
        std::vector<std::string>{"'red.global.add.bf16x2': .add on .bf16x2 requires the .noftz qualifier (ISA 9.7.13.6)"});
  // The table: .f32 .add on .v2/.v4; .f16/.bf16 .add/.min/.max on .v2/.v4/.v8; .f16x2/.bf16x2 the same but .v8.
  CHECK(errors("atom.global.add.v4.f32 {%r1, %r2, %r3, %r4}, [%rd1], {%r5, %r6, %r7, %r8};\n"
               " atom.global.min.noftz.v8.bf16 {%h1, %h2, %h1, %h2, %h1, %h2, %h1, %h2}, [%rd1], {%h1, %h2, %h1, %h2, %h1, %h2, %h1, %h2};\n"
               " red.global.max.noftz.v4.f16x2 [%rd1], {%r1, %r2, %r3, %r4};")
            .empty());
  const std::pair<const char*, std::string> bad[] = {
      {"atom.global.min.v2.f32 {%r1, %r2}, [%rd1], {%r3, %r4};",
       "'atom.global.min.v2.f32': .f32 vectors take only .add (the table of vector qualifiers, types and operations, ISA 9.7.13.5)"},
      {"atom.global.add.v8.f32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};",
       "'atom.global.add.v8.f32': .f32 vectors are .v2 or .v4 (the table of vector qualifiers, types and operations, ISA 9.7.13.5)"},
      {"red.global.add.noftz.v8.f16x2 [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};",
       "'red.global.add.noftz.v8.f16x2': .v8 is not supported for .f16x2 and .bf16x2 (the table of vector qualifiers, types "
       "and operations, ISA 9.7.13.6)"},
  };
  testing::expect_one_error_each([](const auto& text) { return errors(text); }, bad);
}

TEST_CASE("red.async takes the types of its operation's syntax block (ISA 9.7.13.7)") {
  const std::string head = "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.";
  // .inc/.dec .u32; .min/.max .u32, .s32; .and/.or/.xor .b32; .add .u32, .s32, .u64 (libcu++ writes .u64 for int64_t,
  // "// .u64 intentional").
  CHECK(errors(head + "inc.u32 [%r1], %r2, [%r3];\n " + head + "max.s32 [%r1], %r2, [%r3];\n " + head +
               "xor.b32 [%r1], %r2, [%r3];\n " + head + "add.u64 [%r1], %rd2, [%r3];")
            .empty());
  const std::string block = "its block for the operation, as cp.reduce.async.bulk's rows for .shared::cluster (9.7.9.25.4.2) (ISA 9.7.13.7)";
  const std::pair<std::string, std::string> bad[] = {
      {head + "inc.s32 [%r1], %r2, [%r3];", "'" + head + "inc.s32': .inc takes .u32, not .s32: " + block},
      {head + "max.u64 [%r1], %rd2, [%r3];", "'" + head + "max.u64': .max takes .u32, .s32, not .u64: " + block},
      {head + "add.s64 [%r1], %rd2, [%r3];", "'" + head + "add.s64': .add takes .u32, .s32, .u64, not .s64: " + block},
  };
  testing::expect_one_error_each([](const auto& text) { return errors(text); }, bad);
  // The `.release` form ("When .sem is .release", to .global or a generic address) also takes .s64 (sm_100 and
  // later), and only .add.
  CHECK(errors("red.async.release.gpu.global.add.s64 [%rd1], %rd2;\n red.async.release.gpu.add.s64 [%rd1], %rd2;", "sm_100a").empty());
  CHECK(errors("red.async.release.gpu.global.min.u32 [%rd1], %r2;", "sm_100a") ==
        std::vector<std::string>{"'red.async.release.gpu.global.min.u32': red.async has no .min operation (its .op list, ISA 9.7.13.7)"});
}

TEST_CASE("cp.reduce.async.bulk takes the .redOp and element types of its table (ISA 9.7.9.25.4.2)") {
  const std::vector<std::string> ops = {"and", "or", "xor", "add", "inc", "dec", "min", "max"};
  const std::vector<std::string> types = {"b32", "u32", "s32", "b64", "u64", "s64", "f32", "f64", "f16", "bf16"};
  // The section's table of valid combinations, by destination.
  const std::map<std::string, std::set<std::string>> cluster = {
      {"add", {"u32", "s32", "u64"}}, {"min", {"u32", "s32"}}, {"max", {"u32", "s32"}}, {"inc", {"u32"}}, {"dec", {"u32"}},
      {"and", {"b32"}}, {"or", {"b32"}}, {"xor", {"b32"}}};
  const std::map<std::string, std::set<std::string>> global = {
      {"add", {"u32", "s32", "u64", "f32", "f64", "f16", "bf16"}}, {"min", {"u32", "s32", "u64", "s64", "f16", "bf16"}},
      {"max", {"u32", "s32", "u64", "s64", "f16", "bf16"}}, {"inc", {"u32"}}, {"dec", {"u32"}},
      {"and", {"b32", "b64"}}, {"or", {"b32", "b64"}}, {"xor", {"b32", "b64"}}};
  const std::string shared = ".shared .align 128 .b8 smem[256];\n .shared .align 8 .b64 mbar;\n ";
  int accepted = 0;
  for (const auto& op : ops)
    for (const auto& type : types)
      for (const bool to_global : {false, true}) {
        // "cp.reduce.async.bulk.add.f16 and ... .add.bf16 operations require .noftz qualifier".
        const std::string q = op + (op == "add" && (type == "f16" || type == "bf16") ? ".noftz." : ".") + type;
        const std::string form = to_global ? "cp.reduce.async.bulk.global.shared::cta.bulk_group." + q + " [%rd1], [smem], 256;"
                                           : "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes." + q +
                                                 " [%r1], [smem], 256, [mbar];";
        CAPTURE(form);
        const auto e = errors(shared + form);
        if ((to_global ? global : cluster).at(op).count(type)) {
          CHECK(e.empty());
          ++accepted;
        } else {
          REQUIRE(e.size() == 1);
          CHECK(e[0].find("(ISA 9.7.9.25.4.2)") != std::string::npos);
        }
      }
  CHECK(accepted == (3 + 2 + 2 + 1 + 1 + 3) + (7 + 6 + 6 + 1 + 1 + 6));
  CHECK(errors(shared + "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.bf16 [%rd1], [smem], 256;") ==
        std::vector<std::string>{"'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.bf16': .add on .bf16 requires the .noftz "
                                 "qualifier (ISA 9.7.9.25.4.2)"});
}
