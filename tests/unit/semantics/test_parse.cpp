// PTX front end: the grammar reads the syntax forms of ISA 9.0 chapter 4-5 and real nvcc output, bad input
// gets a located error, and print -> parse gives back the same AST.
#include "semantics/ptx/parse.hpp"
#include "semantics/ptx/printer.hpp"

#include <doctest/doctest.h>
#include <boost/variant/get.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ptx;

namespace {
const ast::Function& first_function(const ast::Module& m) {
  for (const auto& item : m.items)
    if (auto* f = boost::get<ast::Function>(&item.get())) return *f;
  throw std::runtime_error("no function");
}
std::vector<ast::Instruction> instructions(const ast::Function& f) {
  std::vector<ast::Instruction> out;
  for (const auto& st : f.body->statements)
    if (auto* i = boost::get<ast::Instruction>(&st.get())) out.push_back(*i);
  return out;
}
const char* kKernel = R"(.version 9.0
.target sm_90, debug
.address_size 64
// a comment
.global .align 4 .u32 table[3] = {1, 0x10, -1};
.visible .entry k(.param .u64 k_param_0, .param .align 8 .b8 k_param_1[16])
.maxntid 256, 1, 1
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<4>;
	.loc	1 10 5, function_name $L__info_string0, inlined_at 1 20 3
	ld.param.u64 	%rd1, [k_param_0];
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p1|%p2, %r1, 0x20U;
	@!%p1 bra 	$L__BB0_2;
	atom.global.cta.exch.b32 %r2, [%rd1+-8], 0f3F800000;
	ld.global.nc.L1::no_allocate.v2.u32 {%r3, _}, [%rd1+4];
$L__BB0_2:
	{ /* nested scope */
	.reg .b32 temp;
	mov.b32 temp, 0b101;
	}
	ret;
}
.file 1 "/tmp/k.cu"
)";
}  // namespace

TEST_CASE("a kernel in nvcc's style parses into the expected AST") {
  auto r = parse_ptx(kKernel, "k.ptx");
  REQUIRE_MESSAGE(r, (r.error ? r.error->render() : ""));
  const auto& f = first_function(r.module->module);
  CHECK(f.name == "k");
  CHECK(f.kind == "entry");
  REQUIRE(f.params.size() == 2);
  CHECK(f.params[1].declarator.dims.size() == 1);
  CHECK(f.directives.size() == 1);
  CHECK(f.directives[0].name == "maxntid");
  auto ins = instructions(f);
  REQUIRE(ins.size() == 7);
  CHECK(ins[0].opcode == "ld");
  CHECK(ins[0].qualifiers == std::vector<std::string>{"param", "u64"});
  // `%tid.x` keeps its component
  CHECK(boost::get<ast::Symbol>(ins[1].operands[1].get()).name == "%tid.x");
  // `p|q` destination and a U-suffixed hex literal
  CHECK(boost::get<ast::PredPair>(ins[2].operands[0].get()).second == "%p2");
  CHECK(boost::get<ast::IntImm>(ins[2].operands[2].get()).magnitude == 32);
  // guard, negated
  REQUIRE(ins[3].guard);
  CHECK(ins[3].guard->negated);
  // qualifiers in nvcc's order, `[reg+-8]`, an f32 bit-pattern literal
  CHECK(ins[4].qualifiers == std::vector<std::string>{"global", "cta", "exch", "b32"});
  const auto& addr = boost::get<boost::spirit::x3::forward_ast<ast::Address>>(ins[4].operands[1].get()).get();
  CHECK(addr.base == "%rd1");
  CHECK(addr.offset == -8);
  CHECK(boost::get<ast::FloatImm>(ins[4].operands[2].get()).bits == 0x3F800000u);
  // `::` inside a qualifier, and a vector destination with a sink
  CHECK(ins[5].qualifiers[2] == "L1::no_allocate");
  const auto& vec = boost::get<boost::spirit::x3::forward_ast<ast::Vector>>(ins[5].operands[0].get()).get();
  CHECK(boost::get<ast::Symbol>(vec.elements[1].get()).name == "_");
}

TEST_CASE("module directives and initializers") {
  auto r = parse_ptx(kKernel, "k.ptx");
  REQUIRE(r);
  const auto& items = r.module->module.items;
  CHECK(boost::get<ast::Version>(items[0].get()).minor == 0);
  const auto& target = boost::get<ast::Directive>(items[1].get());
  CHECK(target.arguments.size() == 2);
  const auto& table = boost::get<ast::VarDecl>(items[3].get());
  REQUIRE(table.names[0].init);
  const auto& init = boost::get<boost::spirit::x3::forward_ast<ast::Vector>>(table.names[0].init->get()).get();
  REQUIRE(init.elements.size() == 3);
  CHECK(boost::get<ast::IntImm>(init.elements[2].get()).negative);
  CHECK(boost::get<ast::FileDirective>(items.back().get()).path == "/tmp/k.cu");
}

TEST_CASE("print then parse gives back the same AST") {
  auto r = parse_ptx(kKernel, "k.ptx");
  REQUIRE(r);
  std::string printed = print(r.module->module);
  auto again = parse_ptx(printed, "printed.ptx");
  REQUIRE_MESSAGE(again, (again.error ? again.error->render() : ""));
  CHECK(again.module->module == r.module->module);
  // and the equality is not vacuous: a changed operand is noticed
  auto changed = parse_ptx(std::string(kKernel).replace(std::string(kKernel).find("0b101"), 5, "0b100"), "c.ptx");
  REQUIRE(changed);
  CHECK_FALSE(changed.module->module == r.module->module);
}

TEST_CASE("video operands (ISA 9.7.18): a selector and '-' beside the name; one-letter components stay names") {
  const char* text = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<8>;
	.reg .v4 .b32 %v;
	vadd.s32.s32.s32 %r1.h0, %r2.b3, %r3.h1, %r4;
	vmad.s32.s32.s32 %r1, -%r2.b1, %r3, -%r4;
	vsub4.s32.s32.s32.sat %r1.b210, %r2.b7654, %r3.b0000, %r1;
	mov.b32 %r5, %v.b;
	mov.b32 %r6, %ntid.x;
	add.s32 %r7, %r6, -1;
	ret;
}
)";
  auto r = parse_ptx(text, "v.ptx");
  REQUIRE_MESSAGE(r, (r.error ? r.error->render() : ""));
  auto ins = instructions(first_function(r.module->module));
  REQUIRE(ins.size() == 7);
  auto sym = [&](std::size_t i, std::size_t k) { return boost::get<ast::Symbol>(ins[i].operands[k].get()); };
  CHECK((sym(0, 0).name == "%r1" && sym(0, 0).select == "h0"));
  CHECK((sym(0, 1).name == "%r2" && sym(0, 1).select == "b3" && !sym(0, 1).minus));
  CHECK(sym(0, 3).select.empty());
  CHECK((sym(1, 1).minus && sym(1, 1).name == "%r2" && sym(1, 1).select == "b1"));
  CHECK((sym(1, 3).minus && sym(1, 3).select.empty()));
  CHECK((sym(2, 0).select == "b210" && sym(2, 1).select == "b7654" && sym(2, 2).select == "b0000"));
  CHECK((sym(3, 1).name == "%v.b" && sym(3, 1).select.empty()));  // the blue component, not a selector
  CHECK((sym(4, 1).name == "%ntid.x" && sym(4, 1).select.empty()));
  CHECK(boost::get<ast::IntImm>(ins[5].operands[2].get()).negative);  // `-1` stays an integer
  auto again = parse_ptx(print(r.module->module), "printed.ptx");
  REQUIRE(again);
  CHECK(again.module->module == r.module->module);
}

TEST_CASE("bad input gets file:line:col and a caret") {
  auto r = parse_ptx(".version 6.5\n.target sm_30\n.entry k()\n{\n  add.u32 %r1, %r2 %r3;\n}\n", "bad.ptx");
  REQUIRE_FALSE(r);
  CHECK(r.error->where.file == "bad.ptx");
  CHECK(r.error->where.line == 5);
  CHECK(r.error->where.column == 20);
  std::string text = r.error->render();
  CHECK(text.find("bad.ptx:5:20: error: expected") == 0);
  CHECK(text.find("^") != std::string::npos);
}

TEST_CASE("legacy ISA 1.4 syntax") {
  const char* old = R"(.version 1.4
.target sm_13, map_f64_to_f32
.entry main
{
  .reg .u32 $r<4>;
  .reg .u16 $rh1;
  .param .u32 __cudaparm_main_n;
  .loc 1 5 0
$LBB1_main:
  mov.u16 $rh1, %tid.x;
  cvt.u32.u16 $r1, $rh1;
  ld.param.u32 $r2, [__cudaparm_main_n];
  exit;
}
)";
  auto r = parse_ptx(old, "old.ptx");
  REQUIRE_MESSAGE(r, (r.error ? r.error->render() : ""));
  CHECK(first_function(r.module->module).params.empty());
  CHECK(instructions(first_function(r.module->module)).size() == 4);
}

TEST_CASE("hostile input: deep nesting is refused with a location, not a stack overflow") {
  std::string deep = ".version 7.0\n.target sm_80\n.global .u32 x[1] = " + std::string(100000, '{');
  auto r = parse_ptx(deep, "deep.ptx");
  REQUIRE_FALSE(r);
  CHECK(r.error->where.line == 3);
  CHECK(r.error->message.find("nesting deeper than") == 0);
  // bytes >= 0x80 are ordinary bad input
  auto bytes = parse_ptx(".version 7.0\n\xff\xfe\x80", "bytes.ptx");
  REQUIRE_FALSE(bytes);
  CHECK(bytes.error->where.line == 2);
}

TEST_CASE("inputs that once crashed the fuzzer now get a module or a located error") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(PTXCHECK_SOURCE_DIR) / "tests/data/fuzz-regressions")) {
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    auto r = parse_ptx(ss.str(), e.path().string());
    if (!r) CHECK(r.error->where.line > 0);
    ++files;
  }
  CHECK(files >= 2);
}
