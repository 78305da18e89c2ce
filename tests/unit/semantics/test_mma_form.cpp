// The forms of mma and mma.sp (semantics/ir/mma_form.hpp) and of wmma (wmma_form.hpp). The expected set is the
// syntax lines of ISA 9.0 9.7.14.5.14 and 9.7.14.6.3 transcribed here as text and expanded (`{a,b}` one of,
// `[x]` optional), filtered by the sentences below them and Table 37, not the checker's row table. Every expanded form
// must be accepted, and every form one word away from one of them (a word replaced by another word of the syntax,
// or dropped) must be accepted exactly when it is itself in the expanded set.
#include "semantics/ir/mma_form.hpp"
#include "semantics/ir/wgmma_form.hpp"
#include "semantics/ir/wmma_form.hpp"
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ptx::ir;

namespace {
// "a.{b,c}[.d]" -> every string it writes.
std::vector<std::string> expand(const std::string& pattern) {
  const auto open = pattern.find_first_of("{[");
  if (open == std::string::npos) return {pattern};
  const char close = pattern[open] == '{' ? '}' : ']';
  const auto end = pattern.find(close, open);
  const std::string head = pattern.substr(0, open), inner = pattern.substr(open + 1, end - open - 1), tail = pattern.substr(end + 1);
  std::vector<std::string> choices;
  if (close == ']') choices = {"", inner};
  else {
    std::stringstream in(inner);
    for (std::string c; std::getline(in, c, ',');) choices.push_back(c);
  }
  std::vector<std::string> out;  // a choice may itself hold alternatives: `[.{rn,rz,rm,rp}]`
  for (const auto& c : choices)
    for (const auto& form : expand(head + c + tail)) out.push_back(form);
  return out;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> words;
  std::stringstream in(s);
  for (std::string w; std::getline(in, w, '.');) words.push_back(w);
  return words;
}

// The restriction sentences: 9.7.14.5.14 ("m8n8k4: When .ctype is .f32, .dtype must also be .f32"; "m16n8k8: .dtype
// must be the same as .ctype, .atype must be the same as .btype"), 9.7.14.6.3 ("In case of shapes .m16n8k16 and
// .m16n8k32, .dtype must be the same as .ctype") and Table 37 (.scale_vec::2X with .ue8m0, 4X with .ue4m3).
bool restrictions_hold(const std::string& form) {
  const auto w = split(form);
  const bool sparse = form.find("mma.sp") == 0;
  std::vector<std::string> t;
  for (const auto& x : w)
    if (std::string("f16 f32 f64 bf16 tf32 e4m3 e5m2 e3m2 e2m3 e2m1 u8 s8 u4 s4 b1 s32").find(x) != std::string::npos && x.size() >= 2 &&
        x != "sp" && x != "row" && x != "col")
      t.push_back(x);
  const std::string d = t[0], a = t[1], b = t[2], c = t[3];
  auto has = [&](const std::string& x) { return form.find("." + x + ".") != std::string::npos || form.ends_with("." + x); };
  if (!sparse && has("m8n8k4") && a == "f16" && c == "f32" && d != "f32") return false;
  if (!sparse && has("m16n8k8") && (d != c || a != b)) return false;
  if (sparse && (has("m16n8k16") || has("m16n8k32")) && d != c) return false;
  if (has("scale_vec::2X") && !has("ue8m0")) return false;
  if (has("scale_vec::4X") && !has("ue4m3")) return false;
  return true;
}

const std::string kF8F6F4 = "{e4m3,e5m2,e3m2,e2m3,e2m1}";
const std::string kSP = "{sp,sp::ordered_metadata}";

// The syntax lines, as the text writes them (the .f64 line's `.m8n84` read as .m8n8k4; its rounding from the
// description's "Supported rounding modifiers").
std::set<std::string> defined_forms() {
  const std::vector<std::string> lines = {
      "mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32}",
      "mma.sync.aligned.m16n8k8.row.col.{f16,f32}.f16.f16.{f16,f32}",
      "mma.sync.aligned.m16n8k16.row.col.{f16,f32}.f16.f16.{f16,f32}",
      "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",
      "mma.sync.aligned.m16n8k8.row.col.f32.{bf16,tf32}.{bf16,tf32}.f32",
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
      "mma.sync.aligned.{m16n8k16,m16n8k32}.row.col.{f16,f32}.{e4m3,e5m2}.{e4m3,e5m2}.{f16,f32}",
      "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.{f16,f32}." + kF8F6F4 + "." + kF8F6F4 + ".{f16,f32}",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale[.scale_vec::2X].f32.e2m1.e2m1.f32.ue8m0",
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::{2X,4X}.f32.e2m1.e2m1.f32.{ue8m0,ue4m3}",
      "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale[.scale_vec::1X].f32." + kF8F6F4 + "." + kF8F6F4 + ".f32.ue8m0",
      "mma.sync.aligned.{m8n8k4,m16n8k4,m16n8k8,m16n8k16}.row.col[.{rn,rz,rm,rp}].f64.f64.f64.f64",
      "mma.sync.aligned.{m8n8k16,m16n8k16,m16n8k32}.row.col[.satfinite].s32.{u8,s8}.{u8,s8}.s32",
      "mma.sync.aligned.{m8n8k32,m16n8k32,m16n8k64}.row.col[.satfinite].s32.{u4,s4}.{u4,s4}.s32",
      "mma.sync.aligned.{m8n8k128,m16n8k128,m16n8k256}.row.col.s32.b1.b1.s32.{xor,and}.popc",
      "mma." + kSP + ".sync.aligned.{m16n8k16,m16n8k32}.row.col.{f16,f32}.f16.f16.{f16,f32}",
      "mma." + kSP + ".sync.aligned.{m16n8k16,m16n8k32}.row.col.f32.bf16.bf16.f32",
      "mma." + kSP + ".sync.aligned.{m16n8k8,m16n8k16}.row.col.f32.tf32.tf32.f32",
      "mma." + kSP + ".sync.aligned.m16n8k64.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32",
      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.{f16,f32}." + kF8F6F4 + "." + kF8F6F4 + ".{f16,f32}",
      "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale[.scale_vec::2X].f32.e2m1.e2m1.f32.ue8m0",
      "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::{2X,4X}.f32.e2m1.e2m1.f32.{ue8m0,ue4m3}",
      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale[.scale_vec::1X].f32." + kF8F6F4 + "." + kF8F6F4 + ".f32.ue8m0",
      "mma." + kSP + ".sync.aligned.{m16n8k32,m16n8k64}.row.col[.satfinite].s32.{u8,s8}.{u8,s8}.s32",
      "mma." + kSP + ".sync.aligned.{m16n8k64,m16n8k128}.row.col[.satfinite].s32.{u4,s4}.{u4,s4}.s32",
  };
  std::set<std::string> forms;
  for (const auto& line : lines)
    for (const auto& form : expand(line))
      if (restrictions_hold(form)) forms.insert(form);
  return forms;
}

// An mma instruction of these words (after `mma`), with the operand count its form takes (d, a, b, c; e, f when
// sparse; the four scale operands with .block_scale).
Instruction instruction(const std::vector<std::string>& words) {
  Instruction ins;
  ins.op = Opcode::mma_;
  bool sparse = false, scaled = false;
  for (const auto& w : words) {
    ins.q.words.push_back(w);
    if (w == "rn") ins.q.rounding = Rounding::rn;
    if (w == "rz") ins.q.rounding = Rounding::rz;
    if (w == "rm") ins.q.rounding = Rounding::rm;
    if (w == "rp") ins.q.rounding = Rounding::rp;
    sparse |= w == "sp" || w == "sp::ordered_metadata";
    scaled |= w == "block_scale";
  }
  ins.operands.resize((sparse ? 6 : 4) + (scaled ? 4 : 0));
  return ins;
}

// Whether an on/off modifier of mma is written twice in `words`.
bool repeats_modifier(const std::vector<std::string>& words) {
  for (const char* modifier : {"sync", "aligned", "satfinite", "popc", "block_scale"})
    if (std::count(words.begin(), words.end(), modifier) > 1) return true;
  return false;
}

// A form's words as ptxcheck reads them: the types and the layouts in their order (.dtype.atype.btype.ctype{.stype},
// .alayout.blayout), every other word wherever it is written (the IR checks no order among qualifiers).
std::string key_of(const std::vector<std::string>& words) {
  static const std::set<std::string> types = {"f16", "f32", "f64", "bf16", "tf32", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1",
                                              "u8", "s8", "u4", "s4", "b1", "s32", "ue8m0", "ue4m3", "u32", "b16", "ue8m0x2"};
  std::vector<std::string> others;
  std::string ordered;
  for (const auto& w : words) {
    if (types.count(w) || w == "row" || w == "col") ordered += "." + w;
    else others.push_back(w);
  }
  std::sort(others.begin(), others.end());
  for (const auto& w : others) ordered += "|" + w;
  return ordered;
}

std::string text_of(const std::vector<std::string>& words) {
  std::string s = "mma";
  for (const auto& w : words) s += "." + w;
  return s;
}
}  // namespace

TEST_CASE("mma: exactly the forms of 9.7.14.5.14 and 9.7.14.6.3, and every form one word away from one") {
  const auto forms = defined_forms();
  std::set<std::string> keys;
  for (const auto& f : forms) {
    auto words = split(f);
    words.erase(words.begin());
    keys.insert(key_of(words));
  }
  std::set<std::string> vocabulary;
  for (const auto& f : forms)
    for (const auto& w : split(f)) vocabulary.insert(w);
  vocabulary.erase("mma");
  for (const char* extra : {"m8n8k8", "m16n8k12", "m32n8k16", "ue8m0x2", "u32", "b16", "scale_vec::8X", "kind::f16", "shared"})
    vocabulary.insert(extra);
  std::size_t accepted = 0, refused = 0;
  for (const auto& f : forms) {
    auto words = split(f);
    words.erase(words.begin());  // "mma"
    INFO(f);
    CHECK(mma_syntax(instruction(words)).has_value());
    CHECK(mma_form_error(instruction(words)).empty());
    ++accepted;
    for (std::size_t i = 0; i < words.size(); ++i) {
      auto dropped = words;
      dropped.erase(dropped.begin() + static_cast<std::ptrdiff_t>(i));
      std::vector<std::vector<std::string>> mutants = {dropped};
      for (const auto& v : vocabulary)
        if (v != words[i]) {
          auto replaced = words;
          replaced[i] = v;
          mutants.push_back(replaced);
        }
      for (const auto& m : mutants) {
        // A word written twice is the IR checker's generic rule (an error, or a warning for .sync .satfinite
        // ...: the last test case); mma_syntax refuses a second shape, variant, kind, size, operation, rounding.
        if (repeats_modifier(m)) continue;
        const bool defined = keys.count(key_of(m)) > 0;
        const std::string why = mma_form_error(instruction(m));
        if (defined != why.empty()) {
          INFO(text_of(m), " -> ", why);
          CHECK(defined == why.empty());
        }
        CHECK(mma_syntax(instruction(m)).has_value() == defined);
        refused += !defined;
      }
    }
  }
  MESSAGE("mma forms accepted: ", accepted, ", mutants refused: ", refused);
  CHECK(accepted > 500);
}

TEST_CASE("mma: the decoded form and the reasons the checker gives") {
  auto words = [](const std::string& s) {
    auto w = split(s);
    w.erase(w.begin());
    return w;
  };
  const auto quad = mma_syntax(instruction(words("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16")));
  REQUIRE(quad);
  CHECK((quad->m == 8 && quad->n == 8 && quad->k == 4 && !quad->a_row && quad->b_row));
  CHECK((quad->d == "f32" && quad->a == "f16" && quad->b == "f16" && quad->c == "f16"));
  const auto nvf4 = mma_syntax(instruction(words("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3")));
  REQUIRE(nvf4);
  CHECK((nvf4->block_scale && nvf4->scale_vec == 4 && nvf4->stype == "ue4m3" && nvf4->kind == "mxf4nvf4"));
  // "for .kind::mxf4nvf4, it is mandatory to provide valid .scale_vec_size"
  CHECK(mma_form_error(instruction(words("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0"))) ==
        "not a form of mma: .kind::mxf4nvf4 needs a .scale_vec_size (ISA 9.7.14.5.14)");
  CHECK(mma_form_error(instruction(words("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0"))) ==
        "not a form of mma: .scale_vec_size and .stype are no combination Table 37 lists for .kind::mxf4nvf4 (ISA 9.7.14.5.14)");
  CHECK(mma_form_error(instruction(words("mma.sync.m16n8k16.row.col.f32.f16.f16.f32"))) ==
        "not a form of mma: mma needs .sync and .aligned (ISA 9.7.14.5.14)");
  CHECK(mma_form_error(instruction(words("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16"))) ==
        "not a form of mma: .dtype must be the same as .ctype for this shape (ISA 9.7.14.6.3)");
  CHECK(mma_form_error(instruction(words("mma.sync.aligned.m16n8k8.row.col.f32.e4m3.e4m3.f32"))) ==
        "not a form of mma: .m16n8k8 is no shape of these types (the syntax lists .m16n8k16, .m16n8k32) (ISA 9.7.14.5.14)");
}

TEST_CASE("mma and wmma forms the text does not define are errors at the instruction") {
  auto errors = [](const std::string& body, const std::string& version = "8.7") {
    const std::string target = version == "6.2" ? "sm_70" : "sm_90";  // sm_90 needs PTX ISA 7.8 (Table 62)
    return testing::diagnostics_of(testing::kernel_module(".version " + version + "\n.target " + target + "\n.address_size 64\n",
                                                          " .reg .b32 %r<16>;\n .reg .f32 %f<16>;\n .reg .b64 %rd<4>;\n", body))
        .errors;
  };
  // 9.7.14.5.14: "mma.sync.aligned.m16n8k16.row.col.dtype.f16.f16.ctype" - the layouts are part of the form
  const auto row = errors(" mma.sync.aligned.m16n8k16.row.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};\n");
  REQUIRE(row.size() == 1);
  CHECK(row[0].find("not a form of mma: mma names two layouts, .alayout and .blayout (ISA 9.7.14.5.14)") != std::string::npos);
  // 9.7.14.4.3: "wmma.load.a.sync.aligned.layout.shape{.ss}.atype r, [p] {, stride}"
  CHECK(errors(" wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];\n").empty());
  const auto no_matrix = errors(" wmma.load.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];\n");
  REQUIRE(no_matrix.size() == 1);
  CHECK(no_matrix[0].find("wmma.load / wmma.store name the matrix (.a, .b, .c or .d) (ISA 9.7.14.4.3-5)") != std::string::npos);
  // .aligned: "required from PTX ISA version 6.3 onwards, and considered implicit in PTX ISA versions less than 6.3"
  const std::string unaligned = " wmma.load.a.sync.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];\n";
  CHECK(errors(unaligned, "6.2").empty());
  const auto late = errors(unaligned);
  REQUIRE(late.size() == 1);
  CHECK(late[0].find(".aligned is required from PTX ISA version 6.3 onwards") != std::string::npos);
  // 9.7.14.4.5: the .f16 form names .dtype.ctype only; wmma.mma reads registers, not memory
  const auto spaced = errors(" wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.shared {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, "
                             "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, "
                             "{%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};\n");
  REQUIRE(spaced.size() == 1);
  CHECK(spaced[0].find("wmma.mma takes no state space") != std::string::npos);
}

TEST_CASE("a qualifier written twice: an error, a warning for the modifiers ptxas reads once") {
  const auto twice = testing::diagnostics_of(testing::kernel_module(".version 8.7\n.target sm_90\n.address_size 64\n",
                                                                    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n",
                                                                    " mul.lo.lo.s32 %r1, %r2, %r3;\n add.sat.sat.s32 %r1, %r2, %r3;\n"));
  REQUIRE(twice.errors.size() == 1);
  CHECK(twice.errors[0].find("'.lo' is written twice in mul.lo.lo.s32 (ISA 9.7)") != std::string::npos);
  REQUIRE(twice.warnings.size() == 1);
  CHECK(twice.warnings[0].find("'.sat' is written twice in add.sat.sat.s32 (ISA 9.7); read once") != std::string::npos);
}

namespace {
// A wgmma instruction of these words (after `wgmma`) with `count` operands, A (the second) in registers or not.
Instruction wgmma(const std::string& words, std::size_t count, bool a_in_registers) {
  Instruction ins;
  ins.op = Opcode::wgmma_;
  ins.q.words = split(words);
  ins.operands.resize(count);
  if (count > 1) ins.operands[1].kind = a_in_registers ? Operand::Kind::Vector : Operand::Kind::Register;
  return ins;
}
}  // namespace

TEST_CASE("wgmma: the forms of 9.7.15.5.2, 9.7.15.6.3 and 9.7.15.7") {
  // Each syntax line: .dtype.atype.btype, K (dense), the operands with A from a descriptor and from registers
  // (9.7.15.5.2: d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b{, imm-trans-a}, imm-trans-b for .f16/.bf16;
  // without the imm-trans for .tf32 and FP8; d, a, b-desc, scale-d for the integer and .b1 forms).
  struct Line { std::string types; unsigned k, desc, reg; bool integer; };
  const std::vector<Line> lines = {
      {"f16.f16.f16", 16, 8, 7, false}, {"f32.f16.f16", 16, 8, 7, false}, {"f32.bf16.bf16", 16, 8, 7, false},
      {"f32.tf32.tf32", 8, 6, 6, false}, {"f16.e4m3.e5m2", 32, 6, 6, false}, {"f32.e5m2.e4m3", 32, 6, 6, false},
      {"s32.s8.u8", 32, 4, 4, true}, {"s32.u8.u8", 32, 4, 4, true}};
  std::size_t accepted = 0;
  for (const auto& l : lines)
    for (unsigned n = 8; n <= 256; n += 8) {
      // ".shape = { .m64n8k16, .m64n16k16, ... .m64n256k16 }"; the integer lists: 8, 16, 24, 32, then by 16
      const bool listed = !l.integer || n <= 32 || n % 16 == 0;
      for (bool sparse : {false, true}) {
        const std::string shape = "m64n" + std::to_string(n) + "k" + std::to_string(sparse ? 2 * l.k : l.k);
        const std::string form = std::string("mma_async") + (sparse ? ".sp" : "") + ".sync.aligned." + shape + "." + l.types;
        const std::size_t extra = sparse ? 2 : 0;  // sp-meta, sp-sel (9.7.15.6.3)
        INFO(form);
        CHECK(wgmma_form_error(wgmma(form, l.desc + extra, false)).empty() == listed);
        CHECK(wgmma_form_error(wgmma(form, l.reg + extra, true)).empty() == listed);
        accepted += listed;
        // the other K, a missing operand
        const std::string other = "m64n" + std::to_string(n) + "k" + std::to_string(sparse ? l.k : 2 * l.k);
        CHECK_FALSE(wgmma_form_error(wgmma(std::string("mma_async") + (sparse ? ".sp" : "") + ".sync.aligned." + other + "." + l.types, l.desc + extra, false)).empty());
        CHECK_FALSE(wgmma_form_error(wgmma(form, l.desc + extra - 1, false)).empty());
      }
    }
  CHECK(accepted == 2 * (6 * 32 + 2 * 18));  // 32 N a floating-point line, 18 an integer one, dense and sparse
  // .satfinite: the integer lines ("shape{.satfinite}.s32.atype.btype"); .b1: ".s32.b1.b1.op.popc", .op = {.and}
  CHECK(wgmma_form_error(wgmma("mma_async.sync.aligned.m64n64k32.satfinite.s32.s8.s8", 4, false)).empty());
  CHECK(wgmma_form_error(wgmma("mma_async.sync.aligned.m64n64k16.satfinite.f32.f16.f16", 8, false)) ==
        "not a form of wgmma: .satfinite is a qualifier of the .s8/.u8 forms only (ISA 9.7.15.5.2, 9.7.15.7)");
  CHECK(wgmma_form_error(wgmma("mma_async.sync.aligned.m64n240k256.s32.b1.b1.and.popc", 4, false)).empty());
  CHECK_FALSE(wgmma_form_error(wgmma("mma_async.sync.aligned.m64n64k256.s32.b1.b1.popc", 4, false)).empty());
  CHECK_FALSE(wgmma_form_error(wgmma("mma_async.sp.sync.aligned.m64n64k512.s32.b1.b1.and.popc", 6, false)).empty());  // no sparse .b1
  // 9.7.15.7: wgmma.fence.sync.aligned; wgmma.commit_group.sync.aligned; wgmma.wait_group.sync.aligned N
  CHECK(wgmma_form_error(wgmma("fence.sync.aligned", 0, false)).empty());
  CHECK(wgmma_form_error(wgmma("wait_group.sync.aligned", 1, false)).empty());
  CHECK(wgmma_form_error(wgmma("commit_group.sync", 0, false)) == "not a form of wgmma: wgmma needs .sync and .aligned (ISA 9.7.15.5.2, 9.7.15.7)");
  CHECK_FALSE(wgmma_form_error(wgmma("fence.sync.aligned.m64n8k16", 0, false)).empty());
}
