// The checked IR: name resolution by scope, `%r<N>` ranges, initializer layout (ISA 5.4.4), qualifier
// decoding, the `.loc`/inlined_at source map, and the checker's rejections.
#include "semantics/ir/build.hpp"
#include "semantics/ir/fence_form.hpp"
#include "semantics/ir/memory_order.hpp"
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

using namespace ptx;
using namespace ptx::ir;

namespace {
Module load(const std::string& text) {
  auto r = load_ptx(text, "t.ptx");
  std::string errors;
  for (const auto& e : r.errors) errors += e.render() + "\n";
  REQUIRE_MESSAGE(r, errors);
  return *r.module;
}
std::vector<std::string> errors_of(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& e : load_ptx(text, "t.ptx").errors) out.push_back(e.message);
  return out;
}
const std::string kHeader = ".version 8.6\n.target sm_90\n.address_size 64\n";
// The IR checker's messages on a kernel of these instructions (registers %r, %rd, %f and %p declared).
std::vector<std::string> body_errors(const std::string& body) {
  return errors_of(testing::kernel_module(kHeader, " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<4>;\n .reg .pred %p<2>;\n", body));
}
// Each instruction of `bad` is refused with exactly its message.
template <class Why, std::size_t N>
void expect_one_error_each(const std::pair<const char*, Why> (&bad)[N]) {
  testing::expect_one_error_each(body_errors, bad);
}
}  // namespace

TEST_CASE("initializers are laid out little-endian, rest zero, names become relocations") {
  auto m = load(kHeader + R"(
.global .u16 a[4] = {1, 0xABCD};
.global .f16 h[3] = {0d3FF0000000000000, 0d40EFFE0000000000, 0d3FB999999999999A};
.global .f32 f = 0f3F800000;
.global .u64 p[2] = {generic(a)+2, f};
)");
  const auto* a = m.find_global("a");
  REQUIRE(a);
  CHECK(a->init == std::vector<std::uint8_t>{1, 0, 0xCD, 0xAB, 0, 0, 0, 0});
  // f16: 1.0 = 0x3C00; 65520 rounds (to even) up to infinity 0x7C00; 0.1 = 0x2E66 (hand-computed, RNE)
  const auto* h = m.find_global("h");
  REQUIRE(h);
  CHECK(h->init == std::vector<std::uint8_t>{0x00, 0x3C, 0x00, 0x7C, 0x66, 0x2E});
  CHECK(m.find_global("f")->init == std::vector<std::uint8_t>{0, 0, 0x80, 0x3F});
  const auto* p = m.find_global("p");
  REQUIRE(p->relocations.size() == 2);
  CHECK(p->relocations[0].symbol == "a");
  CHECK(p->relocations[0].generic);
  CHECK(p->relocations[0].addend == 2);
  CHECK(p->relocations[1].offset == 8);
}

TEST_CASE("registers: ranges, nested scopes, vector components, special registers") {
  auto m = load(kHeader + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .v4 .f32 v;
  mov.u32 %r2, %tid.y;
  {
    .reg .b64 %r2;
    mov.b64 %r2, 7;
  }
  mov.f32 v.z, 0f00000000;
  add.u32 %r0, %r2, 1;
  ret;
}
)");
  const auto& f = m.functions.at(0);
  CHECK(m.address_size == 64);
  REQUIRE(f.body.size() == 5);
  const auto& outer = f.body[0].operands[0];
  const auto& inner = f.body[1].operands[0];
  CHECK(outer.kind == Operand::Kind::Register);
  CHECK(f.registers[outer.reg].type.scalar == ScalarType::b32);
  CHECK(f.registers[inner.reg].type.scalar == ScalarType::b64);  // the nested declaration shadows
  CHECK(f.body[3].operands[1].reg == outer.reg);                    // and ends with its block
  CHECK(f.body[0].operands[1].kind == Operand::Kind::Special);
  CHECK(f.body[0].operands[1].special == SpecialRegister::tid);
  CHECK(f.body[0].operands[1].component == 1);
  CHECK(f.body[2].operands[0].component == 2);
  CHECK(f.registers[f.body[2].operands[0].reg].type.vector == 4);
}

TEST_CASE("qualifiers decode into their groups, in any order") {
  auto m = load(kHeader + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  .reg .pred %p;
  ld.param.u64 %rd1, [p];
  atom.global.cta.exch.b32 %r1, [%rd1], 5;
  ld.volatile.global.u32 %r2, [%rd1+4];
  st.release.gpu.global.u32 [%rd1], %r2;
  setp.hi.u32 %p, %r1, %r2;
  mul.hi.u32 %r1, %r1, %r2;
  fence.sc.sys;
  membar.gl;
  ret;
}
)");
  const auto& b = m.functions.at(0).body;
  CHECK(b[1].q.space == StateSpace::global);
  CHECK(b[1].q.scope == Scope::cta);
  CHECK(b[1].q.atom_op == AtomOp::exch);
  CHECK(b[1].q.types.at(0).scalar == ScalarType::b32);
  CHECK(b[2].q.semantics == MemorySemantics::volatile_);
  CHECK(b[2].operands[1].offset == 4);
  CHECK(b[3].q.semantics == MemorySemantics::release);
  CHECK(b[3].q.scope == Scope::gpu);
  CHECK(b[4].q.compare == CompareOp::hi);   // .hi is a comparison for setp ...
  CHECK(b[5].q.has(Flag::hi));              // ... and the high half for mul
  CHECK_FALSE(b[5].q.compare.has_value());
  CHECK(b[6].q.semantics == MemorySemantics::sc);
  CHECK(b[6].q.scope == Scope::sys);
  CHECK(b[7].q.scope == Scope::gpu);  // membar.gl is GPU scope (ISA 9.7.13.4)
}

TEST_CASE("labels resolve forward and backward; .loc and inlined_at reach every instruction") {
  auto m = load(kHeader + R"(
.visible .entry k()
{
  .reg .pred %p;
$L_top:
  .loc 1 10 3
  @%p bra $L_end;
  .loc 1 12 5, function_name $L__info_string0, inlined_at 1 30 7
  bra.uni $L_top;
$L_end:
  ret;
}
.file 1 "/src/k.cu"
)");
  const auto& f = m.functions.at(0);
  CHECK(f.body[0].operands[0].target == 2);
  CHECK(f.body[1].operands[0].target == 0);
  CHECK(f.body[0].guard >= 0);
  CHECK(f.body[0].loc.pos.line == 10);
  CHECK(f.body[1].loc.pos.line == 12);
  REQUIRE(f.body[1].loc.inlined_at.size() == 1);
  CHECK(f.body[1].loc.inlined_at[0].line == 30);
  CHECK(f.body[1].loc.inlined_at[0].column == 7);
  CHECK(f.body[2].loc.ptx_line == 14);
  CHECK(m.source_files.at(1) == "/src/k.cu");
}

TEST_CASE("labels are scoped to their { } block (ISA 9.7.12.1), as inline asm expanded twice needs") {
  // The shape nvcc emits for CuTe's mbarrier wait: the same asm block, with its own LAB_WAIT and DONE, twice.
  auto m = load(kHeader + R"(
.visible .entry k()
{
  .reg .pred %p;
  {
LAB_WAIT:
  @%p bra DONE;
  bra LAB_WAIT;
DONE:
  }
  {
LAB_WAIT:
  @%p bra DONE;
  bra LAB_WAIT;
DONE:
  }
  bra DONE;
DONE:
  ret;
}
)");
  const auto& f = m.functions.at(0);
  REQUIRE(f.body.size() == 6);
  CHECK(f.body[0].operands[0].target == 2);  // first block: its own DONE (before the second block's first)
  CHECK(f.body[1].operands[0].target == 0);
  CHECK(f.body[2].operands[0].target == 4);  // second block: its own DONE and LAB_WAIT
  CHECK(f.body[3].operands[0].target == 2);
  CHECK(f.body[4].operands[0].target == 5);  // the outer DONE, not an inner one
  // Within one block a label is still declared once; a label of another block is out of scope.
  const auto errs = [](const std::string& body) {
    return errors_of(kHeader + ".visible .entry k()\n{\n" + body + "\n ret;\n}\n");
  };
  CHECK(errs("{\n$a:\n ret;\n$a:\n}").at(0) == "duplicate label '$a'");
  CHECK(errs("{\n$in:\n ret;\n}\n bra $in;").at(0) == "undefined label '$in'");
}

TEST_CASE("fence forms: which are memory fences, with what semantics and scope (ISA 9.7.13.4)") {
  auto fence = [](const std::string& text) {
    auto m = load(kHeader + ".visible .entry k()\n{\n .reg .b64 %rd<2>;\n " + text + "\n ret;\n}\n");
    return ptx::ir::fence_order(m.functions.at(0).body.at(0));
  };
  auto f = fence("fence.acq_rel.cluster;");
  REQUIRE(f);
  CHECK(f->sem == MemorySemantics::acq_rel);
  CHECK(f->scope == Scope::cluster);
  f = fence("fence.gpu;");  // .sem absent: .acq_rel
  REQUIRE(f);
  CHECK(f->sem == MemorySemantics::acq_rel);
  f = fence("membar.gl;");  // membar.gl = fence.sc.gpu
  REQUIRE(f);
  CHECK(f->sem == MemorySemantics::sc);
  CHECK(f->scope == Scope::gpu);
  // Orders proxies, only mbarrier.init, or one shared-memory window: no thread-ordering fence for the engines.
  CHECK_FALSE(fence("fence.proxy.async;"));
  CHECK_FALSE(fence("fence.proxy.tensormap::generic.release.gpu;"));
  CHECK_FALSE(fence("fence.mbarrier_init.release.cluster;"));
  CHECK_FALSE(fence("fence.acquire.sync_restrict::shared::cluster.cluster;"));
  CHECK_FALSE(fence("fence.release.sync_restrict::shared::cta.cluster;"));
}

TEST_CASE(".loc inlined_at links make the whole chain of call sites, innermost first (ISA 11.6.2)") {
  // As nvcc -lineinfo writes a header function inlined through two others: one `.loc` per link, outermost
  // first; a later `.loc` naming a call site seen before continues that call site's chain.
  auto m = load(kHeader + R"(
.visible .entry k()
{
  .loc 1 4 3
  .loc 2 103 9, function_name $L__info_string0, inlined_at 1 4 3
  .loc 3 292 5, function_name $L__info_string1, inlined_at 2 103 9
  .loc 3 219 9, function_name $L__info_string2, inlined_at 3 292 5
  bar.sync 0;
  .loc 1 5 3
  bar.sync 0;
  .loc 3 190 23, function_name $L__info_string3, inlined_at 3 292 5
  ret;
}
)");
  const auto& f = m.functions.at(0);
  using P = std::tuple<std::uint32_t, std::uint32_t>;
  auto chain = [&](std::size_t i) {
    std::vector<P> out{{f.body[i].loc.pos.file, f.body[i].loc.pos.line}};
    for (const auto& p : f.body[i].loc.inlined_at) out.emplace_back(p.file, p.line);
    return out;
  };
  CHECK(chain(0) == std::vector<P>{{3, 219}, {3, 292}, {2, 103}, {1, 4}});
  CHECK(chain(1) == std::vector<P>{{1, 5}});
  CHECK(chain(2) == std::vector<P>{{3, 190}, {3, 292}, {2, 103}, {1, 4}});
}

TEST_CASE("address size defaults to 32 without the directive (ISA 11.1.3)") {
  auto m = load(".version 1.4\n.target sm_13\n.entry k { exit; }\n");
  CHECK(m.address_size == 32);
  CHECK(m.kernels().size() == 1);
}

TEST_CASE("cp.async group controls take their own operand counts (ISA 9.7.9.25.3, 9.7.9.25.4)") {
  auto errs = [](const std::string& body) {
    return errors_of(kHeader + ".visible .entry k()\n{\n .reg .b64 %rd<2>;\n" + body + "\n ret;\n}\n");
  };
  CHECK(errs("cp.async.commit_group;\n cp.async.wait_group 0;\n cp.async.wait_all;").empty());
  CHECK(errs("cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n cp.async.mbarrier.arrive.noinc.b64 [%rd1];").empty());
  CHECK(errs("cp.async.commit_group 0;").at(0) == "'cp.async.commit_group' takes 0 operands, not 1");
  CHECK(errs("cp.async.wait_group;").at(0) == "'cp.async.wait_group' takes 1 operand, not 0");
  CHECK(errs("cp.async.ca.shared.global [%rd0];").at(0) == "'cp.async.ca.shared.global' takes 2-6 operands, not 1");
}

TEST_CASE("barrier and mbarrier forms take their own operand counts (ISA 9.7.13.1-3, 9.7.13.15)") {
  auto errs = [](const std::string& body) {
    return errors_of(kHeader + ".visible .entry k()\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .pred %p<2>;\n" +
                     ".shared .align 8 .b64 bar;\n" + body + "\n ret;\n}\n");
  };
  // Every form as the spec's syntax blocks write it.
  CHECK(errs("bar.sync 0;\n bar.cta.sync 1, 64;\n barrier.sync.aligned %r1;\n bar.arrive 1, 64;\n"
             " bar.red.popc.u32 %r2, 0, %p1;\n bar.red.and.pred %p0, 1, 64, !%p1;\n bar.warp.sync 0xffffffff;\n"
             " barrier.cluster.arrive.relaxed.aligned;\n barrier.cluster.wait;")
            .empty());
  CHECK(errs("mbarrier.init.shared.b64 [bar], 32;\n mbarrier.inval.shared.b64 [bar];\n"
             " mbarrier.expect_tx.shared.b64 [bar], 16;\n mbarrier.complete_tx.shared.b64 [bar], 16;\n"
             " mbarrier.arrive.shared.b64 %rd1, [bar];\n mbarrier.arrive.shared.b64 %rd1, [bar], %r1;\n"
             " mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 16;\n mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2;\n"
             " mbarrier.arrive_drop.shared.b64 %rd1, [bar];\n mbarrier.test_wait.shared.b64 %p0, [bar], %rd1;\n"
             " mbarrier.try_wait.parity.shared.b64 %p0, [bar], %r1, 1000;\n mbarrier.pending_count.b64 %r1, %rd1;")
            .empty());
  CHECK(errs("bar.sync;").at(0) == "'bar.sync' takes 1-2 operands, not 0");
  CHECK(errs("bar.arrive 1;").at(0) == "'bar.arrive' takes 2 operands, not 1");  // the count is required
  CHECK(errs("bar.red.popc.u32 %r2, 0;").at(0) == "'bar.red.popc.u32' takes 3-4 operands, not 2");
  CHECK(errs("bar.warp.sync;").at(0) == "'bar.warp.sync' takes 1 operand, not 0");
  CHECK(errs("barrier.cluster.wait 0;").at(0) == "'barrier.cluster.wait' takes 0 operands, not 1");
  CHECK(errs("bar.cta 0;").at(0) == "'bar.cta' names no barrier operation (.sync, .arrive or .red, ISA 9.7.13.1)");
  CHECK(errs("barrier.cluster;").at(0) == "'barrier.cluster' names no barrier operation (.arrive or .wait, ISA 9.7.13.3)");
  CHECK(errs("mbarrier.init.shared.b64 [bar];").at(0) == "'mbarrier.init.shared.b64' takes 2 operands, not 1");
  CHECK(errs("mbarrier.arrive.shared.b64 [bar];").at(0) == "'mbarrier.arrive.shared.b64' takes 2-3 operands, not 1");
  CHECK(errs("mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar];").at(0) ==
        "'mbarrier.arrive.expect_tx.shared.b64' takes 3 operands, not 2");
  CHECK(errs("mbarrier.test_wait.shared.b64 %p0, [bar], %rd1, 5;").at(0) ==
        "'mbarrier.test_wait.shared.b64' takes 3 operands, not 4");  // only try_wait has a time hint
  CHECK(errs("mbarrier.shared.b64 [bar];").at(0) == "'mbarrier.shared.b64' names no mbarrier operation (ISA 9.7.13.15)");
}

TEST_CASE("membar / fence: every form of 9.7.13.4's syntax block is accepted, and nothing else") {
  // The syntax block, form by form (its .sem, .scope, .level and .proxykind sets written out), and its examples.
  for (const char* ok : {"fence.sc.cta;", "fence.acq_rel.cluster;", "fence.acquire.gpu;", "fence.release.sys;", "fence.gpu;",
                         "fence.acquire.sync_restrict::shared::cluster.cluster;", "fence.release.sync_restrict::shared::cta.cluster;",
                         "fence.mbarrier_init.release.cluster;", "fence.proxy.alias;", "fence.proxy.async;",
                         "fence.proxy.async.global;", "fence.proxy.async.shared::cta;", "fence.proxy.async.shared::cluster;",
                         "fence.proxy.tensormap::generic.release.gpu;", "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;",
                         "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
                         "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;", "membar.cta;", "membar.gl;",
                         "membar.sys;", "membar.proxy.alias;"})
    CHECK_MESSAGE(body_errors(ok).empty(), ok);
  // What the description rules out, each with its reason. ptxas (CUDA 13) refuses every one of these too.
  const std::pair<const char*, const char*> bad[] = {
      {"fence.sc;", "fence needs a .scope: .cta, .cluster, .gpu or .sys (ISA 9.7.13.4)"},
      {"fence.sc.gpu.cta;", "fence.sc.gpu.cta names two of one kind, '.gpu' and '.cta' (one scope at most, ISA 9.7)"},
      {"fence.gl;", "'.gl' is a level of membar; fence takes the scope .gpu (ISA 9.7.13.4)"},
      {"membar.cluster;", "membar needs one .level of .cta, .gl and .sys (ISA 9.7.13.4)"},
      {"fence.mbarrier_init.acquire.cluster;", "fence.mbarrier_init takes .release and .cluster: fence.mbarrier_init.release.cluster (ISA 9.7.13.4)"},
      {"fence.mbarrier_init.release.gpu;", "fence.mbarrier_init takes .release and .cluster: fence.mbarrier_init.release.cluster (ISA 9.7.13.4)"},
      {"fence.release.sync_restrict::shared::cluster.cluster;", ".sync_restrict::shared::cluster needs .acquire (ISA 9.7.13.4)"},
      {"fence.acquire.sync_restrict::shared::cluster.gpu;", ".sync_restrict needs the scope .cluster (ISA 9.7.13.4)"},
      {"fence.proxy;", "fence.proxy needs a proxykind: .alias, .async{.global, .shared::cta, .shared::cluster}, or "
                       ".tensormap::generic / .async::generic (ISA 9.7.13.4)"},
      {"fence.proxy.surface;", "fence.proxy needs a proxykind: .alias, .async{.global, .shared::cta, .shared::cluster}, or "
                               ".tensormap::generic / .async::generic (ISA 9.7.13.4)"},
      {"fence.proxy.alias.surface;", "'.surface' is no qualifier of fence.proxy.alias.surface (ISA 9.7.13.4)"},
      {"fence.proxy.async.sc;", "a bi-directional proxy fence takes no .sem and no .scope (ISA 9.7.13.4)"},
      {"fence.proxy.alias.cta;", "a bi-directional proxy fence takes no .sem and no .scope (ISA 9.7.13.4)"},
      {"fence.proxy.alias.global;", "fence.proxy.alias takes no state space (ISA 9.7.13.4)"},
      {"fence.proxy.async.local;", "fence.proxy.async takes one of .global, .shared::cta and .shared::cluster, or none (ISA 9.7.13.4)"},
      {"fence.proxy.async.global.shared::cta;", "fence.proxy.async takes one of .global, .shared::cta and .shared::cluster, or none (ISA 9.7.13.4)"},
      {"fence.proxy.tensormap::generic.acquire.gpu;", "fence.proxy.tensormap::generic.acquire takes [addr], size (ISA 9.7.13.4)"},
      {"fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;", "the size of fence.proxy.tensormap::generic.acquire must be the literal 128 (ISA 9.7.13.4)"},
      {"fence.proxy.async::generic.release.gpu;", "fence.proxy.async::generic is .release.sync_restrict::shared::cta or "
                                                  ".acquire.sync_restrict::shared::cluster (ISA 9.7.13.4)"},
      {"fence.sc.global.gpu;", "fence.sc.global.gpu takes no state space (ISA 9.7.13.4)"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("qualifier classes: one scope, memory order, rounding and vector width; none of them on value instructions") {
  // Forms whose syntax has two words of one class that are not the same word: two state spaces (9.7.9.25.4.1
  // cp.async.bulk.dst.src), two types (9.7.9.21 cvt), and one of each class.
  CHECK(body_errors("cvt.rn.f32.s32 %f1, %r1;\n ld.relaxed.gpu.global.v2.u32 {%r1, %r2}, [%rd1];\n atom.acq_rel.cluster.global.add.u32 %r1, [%rd1], 1;\n"
             " cvta.to.global.u64 %rd1, %rd2;\n add.rn.f32 %f1, %f2, %f3;").empty());
  const std::pair<const char*, const char*> bad[] = {
      // 9.7.1.1 add: add.type, add{.sat}.s32 — no memory order, scope or state space.
      {"add.s32.relaxed %r1, %r2, %r3;", "'.relaxed': add.s32.relaxed computes a register value and takes no memory order (ISA 9.7)"},
      {"add.s32.gpu %r1, %r2, %r3;", "'.gpu': add.s32.gpu computes a register value and takes no scope (ISA 9.7)"},
      {"mul.lo.s32.shared %r1, %r2, %r3;", "'.shared': mul.lo.s32.shared computes a register value and takes no state space (ISA 9.7)"},
      // 9.7.9.8 ld: ld{.weak}{.ss}... / ld.relaxed.scope{.ss}...: one .ss, one .scope, one .sem.
      {"ld.global.global.u32 %r1, [%rd1];", "'.global' is written twice in ld.global.global.u32 (ISA 9.7)"},
      {"ld.relaxed.gpu.cta.global.u32 %r1, [%rd1];", "ld.relaxed.gpu.cta.global.u32 names two of one kind, '.gpu' and '.cta' (one scope at most, ISA 9.7)"},
      {"ld.relaxed.acquire.gpu.global.u32 %r1, [%rd1];",
       "ld.relaxed.acquire.gpu.global.u32 names two of one kind, '.relaxed' and '.acquire' (one memory order at most, ISA 9.7)"},
      {"ld.global.v2.v2.u32 {%r1, %r2}, [%rd1];", "'.v2' is written twice in ld.global.v2.v2.u32 (ISA 9.7)"},
      // 9.7.3.1 add.f32: one .rnd.
      {"add.rn.rz.f32 %f1, %f2, %f3;", "add.rn.rz.f32 names two of one kind, '.rn' and '.rz' (one rounding at most, ISA 9.7)"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("a flag or state space is refused where no syntax block or example of its opcode writes it (ISA 9.7)") {
  // Words the syntax blocks write: 9.7.1.1 add{.sat}.s32, 9.7.6.1 setp's .CmpOp (hi, also a flag of mul),
  // 9.7.9.9 ld.global.nc with .L1::no_allocate, 9.7.13.1 bar{.cta}.red.popc{.aligned}.u32, 9.7.1.3 mul.wide.
  // Also words the text writes only through a placeholder or misspelt: 9.7.18.2.1 `vop2.dtype.atype.btype{.sat}`
  // with `vop2 = { vadd2, ..., vmax2 }`, 9.7.9.7 prmt's `.ec1` (.ecl, "edge clamp left"), 9.7.11.2 `sust.b.{1d,2d,3d}`.
  CHECK(body_errors("add.sat.s32 %r1, %r2, %r3;\n setp.hi.u32 %p1, %r1, %r2;\n ld.global.nc.L1::no_allocate.u32 %r1, [%rd1];\n"
             " bar.red.popc.u32 %r1, 0, %p1;\n mul.wide.u32 %rd1, %r1, %r2;\n vmax2.s32.s32.s32.sat %r1, %r2, %r3, %r1;\n"
             " prmt.b32.ecl %r1, %r2, %r3, %r1;\n st.global.L1::evict_last.u32 [%rd1], %r1;")
            .empty());
  const std::pair<const char*, const char*> bad[] = {
      {"add.s32.sync %r1, %r2, %r3;", "'.sync' is no qualifier of add: no syntax block or example of add in ISA 9.0 chapter 9.7 writes it"},
      {"shfl.sync.idx.b32.shared %r1, %r2, 0, 31, -1;",
       "'.shared' is no qualifier of shfl: no syntax block or example of shfl in ISA 9.0 chapter 9.7 writes it"},
      {"mov.approx.b32 %r1, %r2;", "'.approx' is no qualifier of mov: no syntax block or example of mov in ISA 9.0 chapter 9.7 writes it"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("a memory order or scope is refused where no syntax block or example of its opcode writes it (ISA 9.7)") {
  // 9.7.9.8 `ld{.sem}{.scope}...` with .sem = { .relaxed, .acquire } and .scope = { .cta, .cluster, .gpu, .sys };
  // 9.7.9.20 `cvta{.to}.space.size p, a` and 9.7.9.19 `isspacep.space p, a` name neither.
  CHECK(body_errors("ld.acquire.sys.global.u32 %r1, [%rd1];\n ld.relaxed.cta.global.u32 %r1, [%rd1];\n cvta.to.global.u64 %rd1, %rd2;").empty());
  const std::pair<const char*, const char*> bad[] = {
      {"cvta.to.global.u64.sys %rd1, %rd2;", "'.sys' is no qualifier of cvta: no syntax block or example of cvta in ISA 9.0 chapter 9.7 writes it"},
      {"cvta.global.u64.acquire %rd1, %rd2;",
       "'.acquire' is no qualifier of cvta: no syntax block or example of cvta in ISA 9.0 chapter 9.7 writes it"},
      {"isspacep.global.gpu %p1, %rd1;", "'.gpu' is no qualifier of isspacep: no syntax block or example of isspacep in ISA 9.0 chapter 9.7 writes it"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("one state space; ld/st orders with spaces and cache operations; atom an operation; cvt.pack (ISA 9.7.9, 9.7.13.5)") {
  // 9.7.9.20 `cvta.space.size p, a`, `cvta.to.space.size p, a`; 9.7.9.19 `isspacep.space p, a`; .space = { .const,
  // .global, .local, .shared{::cta, ::cluster}, .param{::entry} }. 9.7.9.22 `cvt.pack.sat.convertType.s32 d, a, b`
  // (.u16, .s16) and `cvt.pack.sat.convertType.s32.b32 d, a, b, c` (.u2 ... .s8).
  CHECK(body_errors("cvta.shared::cluster.u64 %rd1, %rd2;\n cvta.to.param::entry.u64 %rd1, %rd2;\n isspacep.const %p1, %rd1;\n"
                    " cvt.pack.sat.u16.s32 %r1, %r2, %r3;\n cvt.pack.sat.s8.s32.b32 %r1, %r2, %r3, %r0;").empty());
  const std::pair<const char*, const char*> bad[] = {
      {"cvta.u64 %rd1, %rd2;", "cvta names one state space of .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} (ISA 9.7.9.20)"},
      {"cvta.to.global.shared.u64 %rd1, %rd2;", "cvta.to.global.shared.u64 names two of one kind, '.global' and '.shared' (one state space at most, ISA 9.7)"},
      {"ld.global.u32.shared %r1, [%rd1];", "ld.global.u32.shared names two of one kind, '.global' and '.shared' (one state space at most, ISA 9.7)"},
      {"atom.global.add.u32.shared %r1, [%rd1], 1;", "atom.global.add.u32.shared names two of one kind, '.global' and '.shared' (one state space at most, ISA 9.7)"},
      // 9.7.9.8: ".volatile, .relaxed and .acquire may be used only with .global and .shared spaces and with generic
      // addressing ... Cache operations are not permitted with these qualifiers"; 9.7.9.9 `ld.global{.cop}.nc`;
      // 9.7.13.5 `atom{.sem}{.scope}{.space}.op.type`: the operation is not optional.
      {"ld.acquire.gpu.param.u64 %rd1, [%rd2];", "'ld.acquire.gpu.param.u64': .acquire goes only with .global, .shared or generic addressing in ld (ISA 9.7.9.8)"},
      {"ld.relaxed.gpu.global.cg.u32 %r1, [%rd1];", "'ld.relaxed.gpu.global.cg.u32': no cache operation goes with .relaxed in ld (ISA 9.7.9.8)"},
      {"st.volatile.global.wt.u32 [%rd1], %r1;", "'st.volatile.global.wt.u32': no cache operation goes with .volatile in st (ISA 9.7.9.10)"},
      {"ld.nc.u32 %r1, [%rd1];", "'ld.nc.u32': .nc is written ld.global{.cop}.nc, without a memory order (ISA 9.7.9.9)"},
      {"atom.global.u32 %r1, [%rd1], 1;", "'atom.global.u32': names no operation (.op, ISA 9.7.13.5)"},
      {"isspacep %p1, %rd1;", "isspacep names one state space of .const, .global, .local, .shared{::cta, ::cluster}, .param{::entry} (ISA 9.7.9.19)"},
      {"cvt.pack.u16.s32 %r1, %r2, %r3;",
       "not a form of cvt.pack: cvt.pack.sat.convertType.s32 d, a, b with .convertType .u16 or .s16, or cvt.pack.sat.convertType.s32.b32 "
       "d, a, b, c with .u2, .s2, .u4, .s4, .u8 or .s8 (ISA 9.7.9.22)"},
      {"cvt.rn.f32.s32.s32 %f1, %r1;", "'cvt' takes 2 type qualifiers, not 3"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("a type is refused where no syntax block or example of its opcode writes it (ISA 9.7)") {
  // The type lists of the syntax blocks: 9.7.1.1 add `.type = { .u16, .u32, .u64, .s16, .s32, .s64 }` (and its
  // float and SIMD forms), 9.7.8.1 and `{ .pred, .b16, .b32, .b64 }`, 9.7.8.6 shl `{ .b16, .b32, .b64 }`, 9.7.8.7 shr
  // with .u and .s types too, 9.7.9.8 ld `{ .b8, ..., .f32, .f64 }` (no .f16), 9.7.9.1 mov `{ .pred, .b16, ... }`.
  CHECK(body_errors("add.u32 %r1, %r2, %r3;\n add.f32 %f1, %f2, %f3;\n and.b32 %r1, %r2, %r3;\n and.pred %p1, %p1, %p0;\n"
             " shl.b32 %r1, %r2, 3;\n shr.u32 %r1, %r2, 3;\n shr.b32 %r1, %r2, 3;\n ld.global.f32 %f1, [%rd1];\n mov.pred %p1, %p0;")
            .empty());
  const auto no_type = [](const char* word, const char* op) {
    return std::string("'.") + word + "' is no type of " + op + ": no syntax block or example of " + op + " in ISA 9.0 chapter 9.7 writes it";
  };
  const std::pair<const char*, std::string> bad[] = {
      {"add.b32 %r1, %r2, %r3;", no_type("b32", "add")},   {"and.u32 %r1, %r2, %r3;", no_type("u32", "and")},
      {"shl.u32 %r1, %r2, 3;", no_type("u32", "shl")},     {"ld.global.f16 %r1, [%rd1];", no_type("f16", "ld")},
      {"mov.u8 %r1, %r2;", no_type("u8", "mov")},          {"popc.u32 %r1, %r2;", no_type("u32", "popc")},
  };
  expect_one_error_each(bad);
}

TEST_CASE("ld / st: a scope only with .relaxed, .acquire or .release (ISA 9.7.9.8, 9.7.9.10)") {
  // The syntax blocks' forms: ld{.weak}{.ss}, ld.volatile{.ss}, ld.relaxed.scope{.ss}, ld.acquire.scope{.ss},
  // ld.mmio.relaxed.sys{.global}; st the same with .release.
  CHECK(body_errors("ld.weak.global.u32 %r1, [%rd1];\n ld.volatile.shared.u32 %r1, [%rd1];\n ld.relaxed.cta.u32 %r1, [%rd1];\n"
             " ld.acquire.sys.global.u32 %r1, [%rd1];\n ld.mmio.relaxed.sys.u32 %r1, [%rd1];\n st.release.gpu.u32 [%rd1], %r1;\n"
             " st.mmio.relaxed.sys.global.u32 [%rd1], %r1;\n st.global.u32 [%rd1], %r1;")
            .empty());
  // Let through: the text's own example in 9.7.16.11.1 writes `st.relaxed.b32 [flag], 1;` without the scope.
  CHECK(body_errors("st.relaxed.b32 [%rd1], 1;").empty());
  const std::pair<const char*, const char*> bad[] = {
      {"ld.global.gpu.u32 %r1, [%rd1];", "'ld.global.gpu.u32': a .scope goes only with .relaxed or .acquire in ld (ISA 9.7.9.8)"},
      {"ld.volatile.sys.u32 %r1, [%rd1];", "'ld.volatile.sys.u32': a .scope goes only with .relaxed or .acquire in ld (ISA 9.7.9.8)"},
      {"st.weak.cta.u32 [%rd1], %r1;", "'st.weak.cta.u32': a .scope goes only with .relaxed or .release in st (ISA 9.7.9.10)"},
      {"ld.mmio.relaxed.gpu.u32 %r1, [%rd1];", "'ld.mmio.relaxed.gpu.u32': .mmio is written .mmio.relaxed.sys{.global} in ld (ISA 9.7.9.8)"},
      {"ld.mmio.relaxed.sys.shared.u32 %r1, [%rd1];",
       "'ld.mmio.relaxed.sys.shared.u32': .mmio is written .mmio.relaxed.sys{.global} in ld (ISA 9.7.9.8)"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("integer mul and mad need their mode (ISA 9.7.1.3-6, 9.7.2.5-6)") {
  CHECK(body_errors("mul.lo.s32 %r1, %r2, %r3;\n mul.wide.u32 %rd1, %r2, %r3;\n mad.hi.sat.s32 %r1, %r2, %r3, %r1;\n"
             " mul24.hi.u32 %r1, %r2, %r3;\n mad.lo.cc.u32 %r1, %r2, %r3, %r1;\n madc.hi.u32 %r1, %r2, %r3, %r1;\n"
             " mul.rn.f32 %f1, %f2, %f3;")
            .empty());
  const std::pair<const char*, const char*> bad[] = {
      {"mul.s32 %r1, %r2, %r3;", "'mul.s32' needs one mode of .hi, .lo and .wide (ISA 9.7.1.3)"},
      {"mad.u32 %r1, %r2, %r3, %r1;", "'mad.u32' needs one mode of .hi, .lo and .wide (ISA 9.7.1.4)"},
      {"mul24.wide.s32 %rd1, %r2, %r3;", "'mul24.wide.s32' needs one mode of .hi and .lo (ISA 9.7.1.5)"},
      {"mad.cc.u32 %r1, %r2, %r3, %r1;", "'mad.cc.u32' needs one mode of .hi and .lo (ISA 9.7.2.5)"},
      {"madc.u32 %r1, %r2, %r3, %r1;", "'madc.u32' needs one mode of .hi and .lo (ISA 9.7.2.6)"},
  };
  expect_one_error_each(bad);
}

TEST_CASE("fence forms: what kind each is, and which state space a proxy fence orders (ISA 9.7.13.4)") {
  auto form = [](const std::string& text) {
    auto m = load(kHeader + ".visible .entry k()\n{\n " + text + "\n ret;\n}\n");
    const auto& in = m.functions.at(0).body.at(0);
    return ptx::ir::fence_form(in.op, in.q);
  };
  using Kind = FenceForm::Kind;
  using P = FenceForm::Proxy;
  auto f = form("fence.proxy.async.shared::cta;");
  REQUIRE(f);
  CHECK((f->kind == Kind::proxy && f->proxy == P::async && f->space == StateSpace::shared));
  f = form("fence.proxy.async;");  // "If no state space is specified, then the memory ordering applies on all state spaces."
  CHECK((f->kind == Kind::proxy && f->proxy == P::async && !f->space));
  f = form("membar.proxy.alias;");  // "membar.proxy is a synonym for fence.proxy"
  CHECK((f->kind == Kind::proxy && f->proxy == P::alias && f->membar));
  f = form("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;");
  CHECK((f->kind == Kind::proxy_directed && f->proxy == P::async && f->space == StateSpace::shared));
  f = form("fence.proxy.tensormap::generic.release.cta;");
  CHECK((f->kind == Kind::proxy_directed && f->proxy == P::tensormap && f->sem == MemorySemantics::release));
  f = form("fence.acquire.sync_restrict::shared::cluster.cluster;");
  CHECK((f->kind == Kind::restricted && f->space == StateSpace::shared_cluster));
  f = form("membar.sys;");
  CHECK((f->kind == Kind::thread && f->thread_semantics() == MemorySemantics::sc && f->scope == Scope::sys));
}

TEST_CASE("memory-order qualifiers: only those each instruction's syntax lists (ISA 9.7.9.8-10, 9.7.13)") {
  auto errs = [](const std::string& body) {
    return errors_of(kHeader + ".visible .entry k()\n{\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .pred %p<2>;\n" +
                     ".shared .align 8 .b64 bar;\n" + body + "\n ret;\n}\n");
  };
  // The forms the syntax blocks give: ld {.weak .relaxed .acquire .volatile .mmio}, st {.weak .relaxed .release ...},
  // atom {.relaxed .acquire .release .acq_rel}, red {.relaxed .release}, fence {.sc .acq_rel .acquire .release}.
  CHECK(errs("ld.weak.global.u32 %r1, [%rd1];\n ld.relaxed.gpu.global.u32 %r1, [%rd1];\n ld.acquire.sys.u32 %r1, [%rd1];\n"
             " ld.volatile.u32 %r1, [%rd1];\n st.release.cta.u32 [%rd1], %r1;\n st.relaxed.gpu.u32 [%rd1], %r1;\n"
             " atom.acq_rel.gpu.add.u32 %r1, [%rd1], 1;\n atom.acquire.cta.exch.b32 %r1, [%rd1], 1;\n"
             " red.release.gpu.add.u32 [%rd1], 1;\n red.relaxed.sys.add.u32 [%rd1], 1;\n fence.acquire.gpu;\n fence.sc.sys;\n"
             " mbarrier.arrive.release.cta.shared.b64 %rd1, [bar];\n mbarrier.try_wait.relaxed.cluster.shared.b64 %p0, [bar], %rd1;\n"
             " barrier.cluster.arrive.release;\n barrier.cluster.wait.acquire;")
            .empty());
  CHECK(errs("red.acq_rel.gpu.add.u32 [%rd1], 1;").at(0) == "'.acq_rel' is no memory-order qualifier of red (ISA 9.7.13.6)");
  CHECK(errs("red.acquire.gpu.add.u32 [%rd1], 1;").at(0) == "'.acquire' is no memory-order qualifier of red (ISA 9.7.13.6)");
  CHECK(errs("ld.release.gpu.u32 %r1, [%rd1];").at(0) == "'.release' is no memory-order qualifier of ld (ISA 9.7.9.8)");
  CHECK(errs("st.acquire.gpu.u32 [%rd1], %r1;").at(0) == "'.acquire' is no memory-order qualifier of st (ISA 9.7.9.10)");
  CHECK(errs("atom.sc.gpu.add.u32 %r1, [%rd1], 1;").at(0) == "'.sc' is no memory-order qualifier of atom (ISA 9.7.13.5)");
  CHECK(errs("fence.relaxed.gpu;").at(0) == "'.relaxed' is no memory-order qualifier of fence (ISA 9.7.13.4)");
  CHECK(errs("mbarrier.arrive.acquire.cta.shared.b64 %rd1, [bar];").at(0) ==
        "'.acquire' is no memory-order qualifier of mbarrier.arrive (ISA 9.7.13.15.13-14)");
  CHECK(errs("mbarrier.test_wait.release.cta.shared.b64 %p0, [bar], %rd1;").at(0) ==
        "'.release' is no memory-order qualifier of mbarrier.test_wait/try_wait (ISA 9.7.13.15.16)");
  CHECK(errs("barrier.cluster.wait.relaxed;").at(0) == "'.relaxed' is no memory-order qualifier of barrier.cluster.wait (ISA 9.7.13.3)");
}

TEST_CASE("the checker rejects what the spec rejects") {
  auto errs = [](const std::string& body) {
    return errors_of(kHeader + ".visible .entry k()\n{\n .reg .b32 %r<4>;\n .reg .pred %p;\n" + body + "\n ret;\n}\n");
  };
  CHECK(errs("add.u32 %r1, %r2;").at(0) == "'add.u32' takes 3 operands, not 2");
  CHECK(errs("add.u32 %r1, %r2, %r4;").at(0) == "undeclared name '%r4'");  // %r<4> is %r0..%r3
  CHECK(errs("add.u32 %r01, %r2, %r3;").at(0) == "undeclared name '%r01'");
  CHECK(errs("@%r1 bra $x;\n$x:").at(0) == "guard '%r1' is not a .pred register");
  CHECK(errs("st.global.u32 %r1, %r2;").at(0) == "'st' needs an address as its first operand");
  CHECK(errs("mov.u32 5, %r1;").at(0) == "the destination of 'mov' must be a register");
  CHECK(errs("ld.global.bogus.u32 %r1, [%r2];").at(0) == "unknown qualifier '.bogus' for 'ld'");
  CHECK(errs("$a:\n$a:").at(0) == "duplicate label '$a'");
  CHECK(errors_of(kHeader + ".global .u32 x;\n.global .u32 x;\n").at(0) == "redefinition of 'x'");
}

TEST_CASE("a register number beyond any range is an undeclared name (found by the fuzzer)") {
  auto e = errors_of(kHeader + ".visible .entry k()\n{\n .reg .b32 %r<4>;\n mov.u32 %r1, %r99999999999999999999999;\n ret;\n}\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "undeclared name '%r99999999999999999999999'");
}

TEST_CASE("kernels are named by their C++ names, template instances without the mangled return type") {
  using ptx::ir::kernel_cxx_name, ptx::ir::kernel_cxx_parameter_types, ptx::ir::kernel_title;
  CHECK(kernel_cxx_name("_Z1bPi") == "b(int*)");
  CHECK(kernel_cxx_name("_Z1kIiEvPT_") == "k<int>(int*)");
  CHECK(kernel_cxx_name("plain") == "plain");
  CHECK(kernel_title("_Z1bPi") == "b(int*) (PTX _Z1bPi)");
  CHECK(kernel_title("plain") == "plain");
  using V = std::vector<std::string>;
  CHECK(kernel_cxx_parameter_types("_Z1kPKiPiS1_") == V{"int const*", "int*", "int*"});
  CHECK(kernel_cxx_parameter_types("_Z1kPFviiEi") == V{"void (*)(int, int)", "int"});
  CHECK(kernel_cxx_parameter_types("_Z1k3FooIiLi2EE") == V{"Foo<int, 2>"});
  CHECK(kernel_cxx_parameter_types("_Z1kIZ4mainEUliE_EvPiT_") == V{"int*", "main::{lambda(int)#1}"});  // a lambda's type
  CHECK(kernel_cxx_parameter_types("_Z1kv").empty());
  CHECK(kernel_cxx_parameter_types("plain").empty());
  const Module m = load(kHeader + ".visible .entry _Z1kIiEvPT_(.param .u64 p)\n{\n ret;\n}\n"
                                     ".visible .entry _Z1kIcEvPT_(.param .u64 p)\n{\n ret;\n}\n");
  CHECK(m.kernels_named("k<int>").size() == 1);
  CHECK(m.kernels_named("k<char>(char*)").size() == 1);
  CHECK(m.kernels_named("k").size() == 2);
  CHECK(m.kernels_named("k<long>").empty());
  const Module lambda = load(kHeader + ".visible .entry _Z1kIZ4mainEUliE_EvPiT_(.param .u64 p)\n{\n ret;\n}\n");
  CHECK(lambda.kernels_named("k<main::{lambda(int)#1}>").size() == 1);
  CHECK(lambda.kernels_named("k").size() == 1);
}

TEST_CASE("variable attributes .managed and .unified (ISA 5.4.8)") {
  // The spec's own examples (ISA 5.4.8, Examples), function attribute included.
  auto m = load(kHeader + R"(
.global .attribute(.managed) .s32 g;
.global .attribute(.managed) .u64 x;
.global .attribute(.unified(19,95)) .f32 f;
.global .attribute( .managed ) .align 4 .b8 table[16];
.global .u32 plain = 3;
.func .attribute(.unified(0xAB, 0xCD)) bar() { ret; }
)");
  REQUIRE(m.find_global("g"));
  CHECK(m.find_global("g")->is_managed);
  CHECK(!m.find_global("g")->is_unified);
  CHECK(m.find_global("x")->is_managed);
  CHECK(m.find_global("f")->is_unified);
  CHECK(!m.find_global("f")->is_managed);
  CHECK(m.find_global("table")->is_managed);
  CHECK(m.find_global("table")->align == 4);
  CHECK(m.find_global("table")->size_bytes() == 16);
  CHECK(!m.find_global("plain")->is_managed);
  CHECK(m.find_function("bar"));
  // "This attribute can only be used with variables in .global state space."
  CHECK(errors_of(kHeader + ".shared .attribute(.managed) .u32 s;\n").at(0) ==
        ".attribute(.managed) is only allowed on .global variables (ISA 5.4.8)");
  CHECK(errors_of(kHeader + ".const .attribute(.unified(1,2)) .u32 c;\n").at(0) ==
        ".attribute(.unified) is only allowed on .global variables (ISA 5.4.8)");
  CHECK(errors_of(kHeader + ".global .attribute(.pinned) .u32 p;\n").at(0) ==
        "unknown variable attribute '.pinned' (ISA 5.4.8 defines .managed and .unified(uuid1, uuid2))");
}
