// The instructions whose qualifier words their syntax lines fix (semantics/ir/syntax_form.hpp, syntax_forms.def),
// and the rule that the types come last. Expectations from the syntax lines of ISA 9.0 transcribed here (not read
// from the table): the forms they allow are accepted, a word they make mandatory left out, a second type, a word
// after the types or a word no line writes is refused with the line(s) and section. The coverage forms
// (isa_forms.def, cli_coverage, ptxas-checked) are accepted too.
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using namespace ptx::ir;

namespace {
std::vector<std::string> errors(const std::string& instruction) {
  const std::string declarations =
      " .reg .pred %p<4>;\n .reg .b32 %r<9>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<9>;\n"
      " .shared .align 128 .b8 smem[1024];\n";
  const std::string module = ".version 9.0\n.target sm_100a\n.address_size 64\n.global .texref tex0;\n.global .surfref surf0;\n" +
                             testing::kernel_module("", declarations, " " + instruction + "\n").substr(0);
  return testing::diagnostics_of(module).errors;
}

// The instruction is refused with one error: no form of the syntax of `section`, naming the line `line` shows.
void check_refused(const std::string& instruction, const std::string& line, const std::string& section) {
  CAPTURE(instruction);
  const auto e = errors(instruction);
  REQUIRE(e.size() == 1);
  const std::string opcode = instruction.substr(0, instruction.find_first_of(" ;"));
  CHECK(e[0].rfind("'" + opcode + "' is no form of its syntax, ", 0) == 0);
  CHECK(e[0].find(line) != std::string::npos);
  CHECK(e[0].size() >= section.size() + 6);
  CHECK(e[0].substr(e[0].size() - section.size() - 6) == "(ISA " + section + ")");
}
}  // namespace

TEST_CASE("syntax lines: the optional words each line allows are accepted") {
  const std::vector<std::string> forms = {
      // 9.7.1.21-24: szext.mode.type, bmsk.mode.b32, dp4a.atype.btype, dp2a.mode.atype.btype
      "szext.wrap.s32 %r1, %r2, %r3;", "bmsk.clamp.b32 %r1, %r2, %r3;", "dp4a.u32.s32 %r1, %r2, %r3, %r4;",
      "dp2a.hi.s32.u32 %r1, %r2, %r3, %r4;",
      // 9.7.9.15: prefetch{.space}.level, prefetch.global.level::eviction_priority, prefetchu.L1,
      // prefetch{.tensormap_space}.tensormap
      "prefetch.L2 [%rd1];", "prefetch.local.L1 [%rd1];", "prefetch.global.L2::evict_normal [%rd1];", "prefetchu.L1 [%rd1];",
      "prefetch.tensormap [%rd1];", "prefetch.param.tensormap [%rd1];",
      // 9.7.9.14: multimem's optional .sem, .scope, .ss, .acc_prec, .vec and the .weak lines
      "multimem.ld_reduce.add.u32 %r1, [%rd1];", "multimem.ld_reduce.weak.global.min.acc::f32.v2.f16x2 {%r1, %r2}, [%rd1];",
      "multimem.st.weak.global.f32 [%rd1], %f1;", "multimem.red.release.gpu.global.add.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};",
      // 9.7.9.17-18
      "discard.L2 [%rd1], 128;", "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %rd1, 0.5;",
      "createpolicy.cvt.L2.b64 %rd1, %rd2;",
      // 9.7.9.25.6.2: cp.async.bulk.wait_group{.read} N
      "cp.async.bulk.wait_group.read 0;", "cp.async.bulk.commit_group;", "cp.async.wait_all;",
      // 9.7.10.3-5: tex's mipmap forms, txq.level
      "tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}], %f7;", "txq.level.width.b32 %r1, [tex0], %r2;",
      "txq.num_samples.b32 %r1, [tex0];",
      // 9.7.11.2: sust.p's formatted line
      "sust.p.1d.v4.b32.zero [surf0, {%r1}], {%r2, %r3, %r4, %r5};",
      // 9.7.13.8-12: vote without .sync (deprecated, a warning on sm_70 and later), redux's .abs.NaN
      "vote.sync.uni.pred %p1, %p2, -1;", "redux.sync.max.abs.NaN.f32 %f1, %f2, -1;", "match.all.sync.b64 %r1|%p1, %rd1, -1;",
      // 9.7.14.5.15: ldmatrix's sub-byte line
      "ldmatrix.sync.aligned.m16n16.x1.trans.shared::cta.b8x16.b4x16_p64 {%r1, %r2}, [smem];",
      // 9.7.13.1-3: every barrier line's optional words
      "barrier.cta.red.popc.aligned.u32 %r1, 1, 64, !%p2;", "bar.cta.arrive 1, 64;", "barrier.sync 0;",
      "barrier.cluster.arrive.relaxed.aligned;", "barrier.cluster.wait;", "membar.proxy.async.shared::cta;", "membar.cta;",
      // modifiers out of the line's order, as ptxas takes them (a ZLUDA test, run on a GPU, writes this one)
      "ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16 {%r1, %r2, %r3, %r4}, [smem];",
  };
  for (const auto& f : forms) {
    CAPTURE(f);
    CHECK(errors(f).empty());
  }
}

TEST_CASE("syntax lines: a mandatory word left out, a second type, an extra word") {
  // .mode is not optional in szext, bmsk, dp2a (9.7.1.21, .22, .24)
  check_refused("szext.u32 %r1, %r2, %r3;", "szext.{clamp|wrap}.{u32|s32}", "9.7.1.21");
  check_refused("dp2a.s32.s32 %r1, %r2, %r3, %r4;", "dp2a.{lo|hi}.{u32|s32}.{u32|s32}", "9.7.1.24");
  // tex.geom.v4.dtype.ctype: the vector and the two types (9.7.10.3)
  check_refused("tex.2d.f32.f32 %f1, [tex0, {%f5, %f6}];", "tex[.{base|level|grad}].{1d|2d|3d|a1d|a2d|cube|acube|2dms|a2dms}.v4", "9.7.10.3");
  check_refused("tex.1d.v4.s32.s32.s32 {%r1, %r2, %r3, %r4}, [tex0, {%r5}];", ".v4.{u32|s32|f16|f32}.{s32|f32}", "9.7.10.3");
  // tld4.comp: the component (9.7.10.4)
  check_refused("tld4.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6}];", "tld4.{r|g|b|a}.{2d|a2d|cube|acube}.v4", "9.7.10.4");
  // suld.b.geom{.cop}.vec.dtype.clamp: the clamp mode (9.7.11.1); sured.p takes .b32 / .b64 (9.7.11.3)
  check_refused("suld.b.1d.v4.b32 {%r1, %r2, %r3, %r4}, [surf0, {%r5}];", ".{trap|clamp|zero}", "9.7.11.1");
  check_refused("sured.p.min.1d.u32.trap [surf0, {%r1}], %r2;", "sured.p.{add|min|max|and|or}.{1d|2d|3d}.{b32|b64}", "9.7.11.3");
  // ldmatrix / stmatrix .sync.aligned.shape.num and one type (9.7.14.5.15-16); movmatrix's .trans (9.7.14.5.17)
  check_refused("ldmatrix.sync.aligned.m8n8.shared.b16 {%r1}, [smem];", ".{x1|x2|x4}", "9.7.14.5.15");
  check_refused("stmatrix.sync.aligned.m8n8.x1.shared.b16.b16 [smem], {%r1};", "stmatrix.sync.aligned.{m8n8|m16n8}", "9.7.14.5.16");
  check_refused("movmatrix.sync.aligned.m8n8.b16 %r1, %r2;", "movmatrix.sync.aligned.m8n8.trans.b16", "9.7.14.5.17");
  // shfl.sync.mode.b32, vote.sync.mode.pred: the mode (9.7.9.6, 9.7.13.9)
  check_refused("shfl.sync.b32 %r1, %r2, 1, 0x1f, -1;", "shfl.sync.{up|down|bfly|idx}.b32", "9.7.9.6");
  check_refused("vote.sync.pred %p1, %p2, -1;", "vote.sync.{all|any|uni}.pred", "9.7.13.9");
  // multimem: ld_reduce's operation (9.7.9.14); a multimem that names none of ld_reduce, st, red
  check_refused("multimem.ld_reduce.relaxed.sys.global.u32 %r1, [%rd1];", "multimem.ld_reduce", "9.7.9.14");
  check_refused("multimem.relaxed.sys.global.add.u32 %r1, [%rd1];", "multimem.red", "9.7.9.14");
  // tensormap.cp_fenceproxy: every word (9.7.13.16); tensormap.replace's .b1024 (9.7.9.26)
  check_refused("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.aligned [%rd1], [smem], 128;",
                "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.{cta|cluster|gpu|sys}.sync.aligned", "9.7.13.16");
  check_refused("tensormap.replace.tile.global_address.shared::cta.b64 [smem], %rd1;", ".b1024.{b32|b64}", "9.7.9.26");
  // cp.reduce.async.bulk names .bulk and its completion mechanism (9.7.9.25.4.2); .read is the bulk wait's (9.7.9.25.6.2)
  check_refused("cp.reduce.async.bulk.global.shared::cta.add.f32 [%rd1], [smem], 16;", ".bulk_group", "9.7.9.25.4.2");
  check_refused("cp.async.wait_group.read 0;", "cp.async.wait_group", "9.7.9.25.3.3");
  // barrier.red.op{.aligned}.pred: the type (9.7.13.1); bar has no .aligned in any line; barrier.cluster.wait
  // {.acquire} (9.7.13.3); bar.warp.sync takes no type (9.7.13.2)
  check_refused("barrier.red.or %p1, 1, 64, !%p2;", "barrier[.cta].red.{and|or}[.aligned].pred", "9.7.13.1");
  check_refused("bar.red.u32 %r1, 1, 64, %p1;", "bar[.cta].red.popc.u32 or bar[.cta].red.{and|or}.pred", "9.7.13.1");
  check_refused("bar.arrive.sync 1, 64;", "bar[.cta].arrive", "9.7.13.1");
  check_refused("barrier.cluster.wait.acquire.u32;", "barrier.cluster.wait[.acquire][.aligned]", "9.7.13.3");
  check_refused("bar.warp.sync.u32 -1;", "bar.warp.sync", "9.7.13.2");
  // membar.level names one level (9.7.13.4)
  check_refused("membar.gl.sys;", "membar.{cta|gl|sys}", "9.7.13.4");
  // prefetch.global names its level (9.7.9.15); applypriority its eviction priority (9.7.9.16)
  check_refused("prefetch.global [%rd1];", "prefetch[.{global|local}].{L1|L2}", "9.7.9.15");
  check_refused("applypriority.global [%rd1], 128;", "applypriority[.global].L2::evict_normal", "9.7.9.16");
}

TEST_CASE("types come last: a memory order, scope, state space, .sync or .aligned after the types is refused") {
  const std::pair<const char*, const char*> bad[] = {
      {"ld.global.u32.acquire %r1, [%rd1];", "'.acquire' follows the type '.u32' in ld.global.u32.acquire: every syntax line of ISA 9.7 writes it before the types"},
      {"st.global.v4.f32.relaxed [%rd1], {%f1, %f2, %f3, %f4};", "'.relaxed' follows the type '.f32' in st.global.v4.f32.relaxed: every syntax line of ISA 9.7 writes it before the types"},
      {"bar.warp.sync.u32.sync -1;", "'.sync' follows the type '.u32' in bar.warp.sync.u32.sync: every syntax line of ISA 9.7 writes it before the types"},
  };
  for (const auto& [text, why] : bad) {
    CAPTURE(text);
    const auto e = errors(text);
    CHECK(std::find(e.begin(), e.end(), why) != e.end());
  }
  // ld / st: the data operand has .vec's count of elements (9.7.9.8, 9.7.9.11)
  CHECK(errors("ld.global.u32 {%r1, %r2, %r3, %r4}, [%rd1];") ==
        std::vector<std::string>{"'ld.global.u32' moves 1 element but its data operand has 4 (ISA 9.7.9.8: .vec gives the operand's count)"});
  CHECK(errors("st.global.v2.b32 [%rd1], %r1;") ==
        std::vector<std::string>{"'st.global.v2.b32' moves 2 elements but its data operand has 1 (ISA 9.7.9.11: .vec gives the operand's count)"});
  CHECK(errors("ld.global.v2.u32 {%r1, _}, [%rd1];").empty());
  // CTA barriers: barrier 0 through 15, a thread count that is a multiple of the warp size, non-zero on arrive (9.7.13.1)
  CHECK(errors("bar.sync 16;") == std::vector<std::string>{"barrier 16 of 'bar.sync' is outside 0 through 15 (ISA 9.7.13.1)"});
  CHECK(errors("barrier.sync.aligned 1, 48;") ==
        std::vector<std::string>{"the thread count 48 of 'barrier.sync.aligned' is not a multiple of the warp size (ISA 9.7.13.1)"});
  CHECK(errors("bar.arrive 1, 0;") == std::vector<std::string>{"'bar.arrive' needs a non-zero thread count (ISA 9.7.13.1)"});
  CHECK(errors("bar.red.popc.u32 %r1, 15, 64, %p1;").empty());
  // atom and red: ptxas 13 takes the order (syntax_form.hpp)
  CHECK(errors("atom.global.add.u32.relaxed %r1, [%rd1], 1;").empty());
  CHECK(errors("red.global.add.u32.sys [%rd1], 1;").empty());
}
