// ir::load_ptx reads a module one function body at a time (docs/footprint.md): the IR and the diagnostics must be
// those of the whole-module path (parse_ptx + build), and LoadOptions::keep must keep what a kept body reaches.
#include "semantics/ir/build.hpp"
#include "semantics/support/files.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

using namespace ptx;
using namespace ptx::ir;
namespace fs = std::filesystem;

namespace {
void dump_operand(std::ostream& o, const Operand& x) {
  o << int(x.kind) << ':' << x.negated << x.is_f32 << int(x.component) << int(x.base_kind) << ',' << x.reg << ',' << x.reg2
    << ',' << x.target << ',' << int(x.special) << ',' << x.imm << ',' << x.offset << ',' << int(x.var.where) << '.'
    << x.var.index << '{';
  for (const auto& e : x.elements) dump_operand(o, e);
  o << '}';
}
void dump_variable(std::ostream& o, const Variable& v) {
  o << v.name << ' ' << int(v.space) << ' ' << type_name(v.type) << ' ' << v.count << ' ' << v.align << ' ' << v.init.size()
    << ' ' << v.relocations.size() << ' ' << v.ptx_line << '\n';
}
// Everything the engines read of a module, as text.
std::string dump(const Module& m) {
  std::ostringstream o;
  o << m.version_major << '.' << m.version_minor << ' ' << m.address_size << '\n';
  for (const auto& g : m.globals) dump_variable(o, g);
  for (const auto& [i, p] : m.source_files) o << i << ' ' << p << '\n';
  for (const auto& f : m.functions) {
    o << "fn " << f.name << ' ' << f.is_entry << f.is_extern << f.is_visible << f.is_weak << f.has_body << ' ' << f.ptx_line << '\n';
    for (const auto* vs : {&f.params, &f.returns, &f.locals})
      for (const auto& v : *vs) dump_variable(o, v);
    for (const auto& r : f.registers) o << r.name << ' ' << type_name(r.type) << '\n';
    for (const auto& [l, i] : f.labels) o << l << '@' << i << '\n';
    for (const auto& [k, v] : f.performance) o << k << '=' << v.size() << '\n';
    for (const auto& [k, v] : f.prototypes) o << k << ':' << v << '\n';
    for (const auto& [k, v] : f.branch_targets) o << k << ':' << v.size() << '\n';
    for (const auto& in : f.body) {
      o << opcode_text(in) << ' ' << in.guard << in.guard_negated << ' ' << in.loc.pos.file << ':' << in.loc.pos.line << ':'
        << in.loc.pos.column << '+' << in.loc.inlined_at.size() << '@' << in.loc.ptx_line << ' ';
      for (const auto& x : in.operands) dump_operand(o, x);
      o << '\n';
    }
  }
  return o.str();
}
std::string rendered(const BuildResult& r) {
  std::string s;
  for (const auto& e : r.errors) s += e.render() + "\n";
  for (const auto& w : r.warnings) s += "warning " + w.render() + "\n";
  return s;
}
// The whole-module path, as load_ptx was before it streamed.
BuildResult whole(const std::string& text, const std::string& file) {
  auto parsed = parse_ptx(text, file);
  if (!parsed) {
    BuildResult r;
    r.errors.push_back(*parsed.error);
    return r;
  }
  return build(*parsed.module);
}
}  // namespace

TEST_CASE("load_ptx, body by body, gives the whole-module IR and diagnostics on every example and zluda file") {
  std::vector<fs::path> files;
  for (const auto* dir : {"examples/ptx", "tests/data", "tests/data/fuzz-regressions"})
    for (const auto& e : fs::directory_iterator(fs::path(PTXCHECK_SOURCE_DIR) / dir))
      if (e.is_regular_file()) files.push_back(e.path());
  for (const auto& e : fs::directory_iterator(fs::path(PTXCHECK_CORPUS_DIR) / "zluda-ptx"))
    if (e.path().extension() == ".ptx") files.push_back(e.path());
  REQUIRE(files.size() > 150);
  int ok = 0, rejected = 0;
  for (const auto& path : files) {
    const auto text = ptxcheck::read_text_file(path).value_or("");
    const auto a = load_ptx(text, path.string());
    const auto b = whole(text, path.string());
    INFO(path.string());
    CHECK(rendered(a) == rendered(b));
    REQUIRE(bool(a) == bool(b));
    if (a) CHECK(dump(*a.module) == dump(*b.module));
    (a ? ok : rejected)++;
  }
  MESSAGE(ok << " modules identical, " << rejected << " rejected identically");
  CHECK(ok > 140);
  CHECK(rejected >= 3);
}

namespace {
// k1 calls f1; f2 takes f3's address; k2 calls f4; a global holds f5's address.
const std::string kCalls = R"(.version 8.0
.target sm_90
.address_size 64
.func f1(.param .b32 a) { ret; }
.func f3() { ret; }
.func f4() { ret; }
.func f5() { ret; }
.global .u64 table[1] = {f5};
.func f2()
{
  .reg .b64 %rd<2>;
  mov.u64 %rd1, f3;
  ret;
}
.entry k1()
{
  .reg .b32 %r<2>;
  mov.u32 %r1, 7;
  {
  .param .b32 p;
  st.param.b32 [p], %r1;
  call.uni f1, (p);
  }
  ret;
}
.entry k2() { call.uni f4, (); ret; }
)";
}  // namespace

TEST_CASE("LoadOptions::keep keeps the chosen bodies and what they reach, and shows every body to on_body") {
  LoadOptions o = keep_kernels_named("k1");
  std::vector<std::string> seen;
  o.on_body = [&](std::size_t, const Function& f) { seen.push_back(f.name + ":" + std::to_string(f.body.size())); };
  auto r = load_ptx(kCalls, "calls.ptx", o);
  REQUIRE(r);
  // Source order, each with its instructions (not yet elided when shown).
  CHECK(seen == std::vector<std::string>{"f1:1", "f3:1", "f4:1", "f5:1", "f2:2", "k1:4", "k2:2"});
  const auto whole_ir = whole(kCalls, "calls.ptx");
  for (const auto& f : r.module->functions) {
    INFO(f.name);
    // k1 (chosen), f1 (its callee), f2 (takes an address), f3 (address taken), f5 (in an initializer).
    const bool kept = f.name != "k2" && f.name != "f4";
    CHECK(f.body_elided == !kept);
    CHECK(f.has_body);
    const auto& w = *whole_ir.module->find_function(f.name);
    CHECK(f.body.size() == (kept ? w.body.size() : 0));
    CHECK(f.registers.size() == (kept ? w.registers.size() : 0));
  }
  // A name that means no kernel keeps none but the address takers and what they reach.
  auto none = load_ptx(kCalls, "calls.ptx", keep_kernels_named("nope"));
  REQUIRE(none);
  CHECK(none.module->find_function("k1")->body_elided);
  CHECK(!none.module->find_function("f2")->body_elided);
  CHECK(none.module->kernels_named("nope").empty());
}

TEST_CASE("a syntax error inside a body is the whole-module parser's error") {
  std::string bad = kCalls;
  bad.replace(bad.find("mov.u32 %r1, 7;"), 15, "mov.u32 %r1 7;");
  const auto r = load_ptx(bad, "bad.ptx");
  REQUIRE(!r);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].render() == parse_ptx(bad, "bad.ptx").error->render());
  CHECK(r.errors[0].where.line == 18);
  // Unbalanced braces in a body: the skim fails, and the error is again parse_ptx's.
  std::string open = kCalls;
  open.replace(open.find("  ret;\n}\n.entry k2"), 8, "  ret;\n\n");
  const auto u = load_ptx(open, "open.ptx");
  REQUIRE(!u);
  CHECK(u.errors[0].render() == parse_ptx(open, "open.ptx").error->render());
}
