// What a memory instruction accesses (semantics/ops/memory_access.hpp), against the spec and against its consumers:
//  - hand-written cases from the syntax and text of ISA 9.7.9.8 ld, 9.7.9.10 ldu, 9.7.9.11 st, 9.7.13.5 atom and
//    9.7.13.6 red (operand positions, sizes, defaults, the vector forms the tables allow);
//  - every ld / ldu / st / atom / red row of semantics/ir/isa_forms.def: its operands are where the description
//    says, and the interpreter (one thread, its address pointed at real memory) and the race encoder access
//    exactly the description's bytes, reading and writing as its kind says;
//  - the forms where an engine disagreed with the spec before the description: a vector atom updates every element
//    (9.7.13.5), the amount of an atom.add with a cache-policy is b (9.7.13.5), red.cas / red.exch are no forms of
//    red (9.7.13.6).
#include "checker/race/encode.hpp"
#include "cli/coverage.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/interp/observer.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/ir/matrix_rows.hpp"
#include "semantics/ops/memory_access.hpp"
#include "semantics/ptx/parse.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>

using namespace ptx;
using ops::AccessKind;

namespace {

// The qualifiers of an opcode's words, as the IR builder decodes them.
ir::Qualifiers words(ir::Opcode op, std::initializer_list<const char*> w) {
  ir::Qualifiers q;
  const auto rest = ir::decode_qualifiers(op, std::vector<std::string>(w.begin(), w.end()), q);
  REQUIRE(rest.empty());
  return q;
}

// A module from PTX text, built; its kernel's instruction on `line`.
struct Built {
  std::unique_ptr<ir::Module> module;
  const ir::Function* kernel = nullptr;
  const ir::Instruction* ins = nullptr;
  std::uint32_t pc = 0;
};
std::optional<Built> build(const std::string& text, unsigned line) {
  auto parsed = ptx::parse_ptx(text, "memory_access.ptx");
  if (!parsed) return std::nullopt;
  auto built = ir::build(*parsed.module);
  if (!built) return std::nullopt;
  Built b;
  b.module = std::make_unique<ir::Module>(std::move(*built.module));
  for (const auto* f : b.module->kernels()) b.kernel = f;
  for (const auto& ins : b.kernel->body)
    if (ins.loc.ptx_line == line) b.ins = &ins, b.pc = static_cast<std::uint32_t>(&ins - b.kernel->body.data());
  if (!b.ins) return std::nullopt;
  return b;
}

// Records the interpreter's memory accesses.
class Recorder final : public interp::AccessObserver {
 public:
  std::vector<interp::MemoryAccess> accesses;
  void access(const interp::ThreadRef&, const interp::MemoryAccess& a) override { accesses.push_back(a); }
};

// One thread of the coverage kernel (cli/coverage.hpp), its parameters given.
interp::RunResult run_one(const ir::Module& m, interp::Observer* observer) {
  interp::Launch l;
  l.params.push_back({"", ir::ScalarType::u64, 0, {}});  // p0
  l.params.push_back({"", ir::ScalarType::u64, 0, std::vector<std::uint8_t>(128)});  // tmap
  interp::Options o;
  o.observer = observer;
  return interp::run(m, l, o);
}

// The form's text with its address registers pointed at memory of the form's space: `mov` of a global or shared
// variable gives its address there (ISA 9.7.9.10), `cvta` a generic one.
std::string with_addresses(const ptxcheck::cli::FormKernel& k, const ops::MemoryAccessForm& f) {
  std::string setup;
  const std::regex reg(R"(\[(%rd\d+))");
  for (std::sregex_iterator it(k.form_text.begin(), k.form_text.end(), reg), end; it != end; ++it) {
    const std::string r = (*it)[1];
    switch (f.space) {
      case ir::StateSpace::shared: case ir::StateSpace::shared_cluster: setup += " mov.u64 " + r + ", smem;"; break;
      case ir::StateSpace::generic: setup += " cvta.global.u64 " + r + ", gbuf;"; break;
      default: setup += " mov.u64 " + r + ", gbuf;"; break;
    }
  }
  std::istringstream in(k.text);
  std::string out, line;
  for (unsigned n = 1; std::getline(in, line); ++n) out += line + (n + 1 == k.form_line ? setup : "") + "\n";
  return out;
}

}  // namespace

TEST_CASE("memory_access: operand positions and sizes from the syntax of ISA 9.7.9.8-11, 9.7.13.5-6") {
  using ir::Opcode;
  SUBCASE("ld.global.v4.u32 d, [a]: a load of 4 x 4 = 16 bytes, weak (9.7.9.8: .weak when none is given)") {
    const auto f = ops::memory_access(Opcode::ld_, words(Opcode::ld_, {"global", "v4", "u32"}));
    REQUIRE(f);
    CHECK(f->kind == AccessKind::load);
    CHECK(f->destination == 0);
    CHECK(f->address == 1);
    CHECK(f->source == -1);
    CHECK(f->bytes() == 16);
    CHECK(f->space == ir::StateSpace::global);
    CHECK_FALSE(f->order.strong);
  }
  SUBCASE("ld.global.v8.f32 (9.7.9.8: .v8 of 32-bit types): 32 bytes; ldu.v2.f64: 16") {
    CHECK(ops::memory_access(Opcode::ld_, words(Opcode::ld_, {"global", "v8", "f32"}))->bytes() == 32);
    // .v8 of a narrower type: not in the 9.0 text, accepted by ptxas 13.0 (sm_90, sm_120): 8 x 1 byte.
    CHECK(ops::memory_access(Opcode::ld_, words(Opcode::ld_, {"global", "v8", "u8"}))->bytes() == 8);
    CHECK(ops::memory_access(Opcode::st_, words(Opcode::st_, {"global", "v8", "u16"}))->bytes() == 16);
    CHECK(ops::memory_access(Opcode::ldu_, words(Opcode::ldu_, {"global", "v2", "f64"}))->bytes() == 16);
  }
  SUBCASE("st.release.gpu.b128 [a], b: address 0, b at 1, 16 bytes, release at gpu scope") {
    const auto f = ops::memory_access(Opcode::st_, words(Opcode::st_, {"release", "gpu", "b128"}));
    REQUIRE(f);
    CHECK(f->kind == AccessKind::store);
    CHECK(f->address == 0);
    CHECK(f->source == 1);
    CHECK_FALSE(f->returns_value());
    CHECK(f->bytes() == 16);
    CHECK(f->space == ir::StateSpace::generic);
    CHECK(f->order.sem == ir::MemorySemantics::release);
    CHECK(f->order.scope == ir::Scope::gpu);
  }
  SUBCASE("atom.cas.b32 d, [a], b, c: d 0, a 1, b 2, c 3; relaxed at gpu scope without .sem/.scope (9.7.13.5)") {
    const auto f = ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "cas", "b32"}));
    REQUIRE(f);
    CHECK(f->kind == AccessKind::read_modify_write);
    CHECK(f->destination == 0);
    CHECK(f->address == 1);
    CHECK(f->source == 2);
    CHECK(f->swap == 3);
    CHECK(f->operands == 4);
    CHECK(f->bytes() == 4);
    CHECK(f->order.strong);
    CHECK(f->order.sem == ir::MemorySemantics::relaxed);
    CHECK(f->order.scope == ir::Scope::gpu);
  }
  SUBCASE("atom.add.L2::cache_hint.u64 d, [a], b, cache-policy: b stays at 2, the policy may follow at 3") {
    const auto f = ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "add", "L2::cache_hint", "u64"}));
    REQUIRE(f);
    CHECK(f->source == 2);
    CHECK(f->swap == -1);
    CHECK(f->operands == 3);
    CHECK(f->cache_policy);
    CHECK(f->bytes() == 8);
  }
  SUBCASE("red.add.u32 [a], b: no destination, address 0, b at 1 (9.7.13.6)") {
    const auto f = ops::memory_access(Opcode::red_, words(Opcode::red_, {"global", "add", "u32"}));
    REQUIRE(f);
    CHECK(f->kind == AccessKind::reduction);
    CHECK_FALSE(f->returns_value());
    CHECK(f->address == 0);
    CHECK(f->source == 1);
    CHECK(f->atomic());
    CHECK(f->writes());
  }
  SUBCASE("vector atom/red (9.7.13.5-6 tables): .v8.f16 and .v4.f16x2 and .v4.f32 are 16 bytes") {
    CHECK(ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "v8", "f16", "add", "noftz"}))->bytes() == 16);
    CHECK(ops::memory_access(Opcode::red_, words(Opcode::red_, {"global", "v8", "bf16", "max", "noftz"}))->bytes() == 16);
    CHECK(ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "v4", "f16x2", "add", "noftz"}))->bytes() == 16);
    CHECK(ops::memory_access(Opcode::red_, words(Opcode::red_, {"global", "v4", "f32", "add"}))->bytes() == 16);
  }
  SUBCASE("vector forms the spec does not list: .v8 of .f16x2 / .f32 atoms, .v4 .min of .f32, ld.v8.u64, ldu.v8") {
    CHECK_FALSE(ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "v8", "f16x2", "add", "noftz"})));
    CHECK_FALSE(ops::memory_access(Opcode::red_, words(Opcode::red_, {"global", "v8", "f32", "add"})));
    CHECK_FALSE(ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "v4", "f32", "min"})));
    CHECK_FALSE(ops::memory_access(Opcode::atom_, words(Opcode::atom_, {"global", "v2", "u32", "add"})));
    CHECK_FALSE(ops::memory_access(Opcode::ld_, words(Opcode::ld_, {"global", "v8", "u64"})));
    CHECK(ops::memory_access(Opcode::ld_, words(Opcode::ld_, {"global", "v4", "u64"}))->bytes() == 32);
  }
  SUBCASE("red has no .cas or .exch (9.7.13.6 .op); st.bulk is no typed store (9.7.9.13)") {
    CHECK_FALSE(ops::memory_access(Opcode::red_, words(Opcode::red_, {"global", "cas", "b32"})));
    CHECK_FALSE(ops::memory_access(Opcode::red_, words(Opcode::red_, {"global", "exch", "b32"})));
    CHECK_FALSE(ops::memory_access(Opcode::st_, words(Opcode::st_, {"bulk"})));
  }
  SUBCASE("st.async [a], b, [mbar]: asynchronous, the mbarrier at 2 (9.7.9.12)") {
    const auto f = ops::memory_access(Opcode::st_, words(Opcode::st_, {"async", "shared::cluster", "mbarrier::complete_tx::bytes", "b32"}));
    REQUIRE(f);
    CHECK(f->asynchronous);
    CHECK(f->mbarrier == 2);
    CHECK(f->operands == 3);
  }
  SUBCASE("st.async / red.async without .completion_mechanism still take [mbar]; the .release forms take none") {
    // 9.7.9.12 and 9.7.13.7: "If .completion_mechanism is not specified, it defaults to
    // .mbarrier::complete_tx::bytes" for the .weak / .relaxed forms; `st.async.release.global.u32 [addr], b;`.
    const auto weak = ops::memory_access(Opcode::st_, words(Opcode::st_, {"async", "shared::cluster", "v2", "b32"}));
    REQUIRE(weak);
    CHECK(weak->mbarrier == 2);
    CHECK(weak->operands == 3);
    CHECK(weak->bytes() == 8);
    const auto relaxed = ops::memory_access(Opcode::red_, words(Opcode::red_, {"async", "relaxed", "cluster", "shared::cluster", "add", "u32"}));
    REQUIRE(relaxed);
    CHECK(relaxed->mbarrier == 2);
    const auto release = ops::memory_access(Opcode::st_, words(Opcode::st_, {"async", "release", "gpu", "global", "u32"}));
    REQUIRE(release);
    CHECK(release->asynchronous);
    CHECK(release->mbarrier == -1);
    CHECK(release->operands == 2);
    const auto red_release = ops::memory_access(Opcode::red_, words(Opcode::red_, {"async", "release", "gpu", "global", "add", "u32"}));
    REQUIRE(red_release);
    CHECK(red_release->mbarrier == -1);
    CHECK(red_release->operands == 2);
  }
  SUBCASE("st.bulk [a], size, initval: its operands (9.7.9.13), no typed access") {
    const auto f = ops::bulk_store(Opcode::st_, words(Opcode::st_, {"bulk", "weak", "shared::cta"}));
    REQUIRE(f);
    CHECK(f->address == 0);
    CHECK(f->size == 1);
    CHECK(f->initval == 2);
    CHECK(f->operands == 3);
    CHECK(f->space == ir::StateSpace::shared);
    CHECK_FALSE(ops::bulk_store(Opcode::st_, words(Opcode::st_, {"global", "u32"})));
    CHECK_FALSE(ops::bulk_store(Opcode::ld_, words(Opcode::ld_, {"global", "u32"})));
  }
}

TEST_CASE("memory_access on an instruction: its operands, what it writes, whether a register gets its value") {
  const std::string text = R"(.version 9.0
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<8>; .reg .u64 %rd<4>; .reg .v4 .b32 %v;
  ld.param.u64 %rd1, [out];
  createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;
  atom.global.cas.b32 %r1, [%rd1], %r2, %r3;
  atom.global.exch.L2::cache_hint.b32 %r1, [%rd1], %r2, %rd2;
  atom.global.add.u32 _, [%rd1], %r2;
  st.global.L2::cache_hint.b32 [%rd1], %r4, %rd2;
  ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd1];
  red.global.add.u32 [%rd1], %r2, %rd2;
  ret;
})";
  auto at = [&](unsigned line) {
    auto b = build(text, line);
    REQUIRE(b);
    const auto f = ops::memory_access(*b->ins);
    REQUIRE(f);
    return std::pair{std::move(b), *f};
  };
  using OK = ir::Operand::Kind;
  SUBCASE("atom.cas d, [a], b, c writes c when *a == b; d is a register (9.7.13.5)") {
    const auto [b, f] = at(8);
    const auto& in = *b->ins;
    CHECK(f.address_of(in) == &in.operands[1]);
    CHECK(f.source_of(in) == &in.operands[2]);
    CHECK(f.swap_of(in) == &in.operands[3]);
    CHECK(f.written_value_of(in) == &in.operands[3]);
    CHECK(f.result_register(in) == in.operands[0].reg);
    CHECK(f.operand_count_matches(in));
  }
  SUBCASE("atom.exch with a cache-policy writes b, not the policy after it (9.7.13.5)") {
    const auto [b, f] = at(9);
    const auto& in = *b->ins;
    REQUIRE(in.operands.size() == 4);
    CHECK(f.exchanges);
    CHECK(f.written_value_of(in) == &in.operands[2]);
    CHECK(f.operand_count_matches(in));
    CHECK(f.mbarrier_of(in) == nullptr);
  }
  SUBCASE("atom.add with the sink `_` as d returns no value to a register; it combines b, writes no given value") {
    const auto [b, f] = at(10);
    const auto& in = *b->ins;
    CHECK(in.operands[0].kind == OK::Sink);
    CHECK(f.returns_value());  // (the form has d)
    CHECK(f.result_register(in) == -1);
    CHECK(f.written_value_of(in) == nullptr);
  }
  SUBCASE("st with a cache-policy stores b (9.7.9.11)") {
    const auto [b, f] = at(11);
    const auto& in = *b->ins;
    CHECK(f.written_value_of(in) == &in.operands[1]);
    CHECK(f.destination_of(in) == nullptr);
    CHECK(f.result_register(in) == -1);
    CHECK(f.operand_count_matches(in));
  }
  SUBCASE("ld.v4 into a brace vector: no one scalar result register (9.7.9.8)") {
    const auto [b, f] = at(12);
    const auto& in = *b->ins;
    CHECK(in.operands[0].kind == OK::Vector);
    CHECK(f.result_register(in) == -1);
    CHECK(f.written_value_of(in) == nullptr);
  }
  SUBCASE("red [a], b, cache-policy: the count matches only with .L2::cache_hint (9.7.13.6)") {
    const auto [b, f] = at(13);
    CHECK_FALSE(f.cache_policy);
    CHECK_FALSE(f.operand_count_matches(*b->ins));
  }
}

TEST_CASE("memory_access: every ld/ldu/st/atom/red form of isa_forms.def, in the interpreter and the race encoder") {
  unsigned checked = 0;
  for (const auto& form : ptxcheck::cli::isa_forms()) {
    const auto k = ptxcheck::cli::form_kernel(form);
    const auto plain = build(k.text, k.form_line);
    if (!plain || !ops::memory_access_opcode(plain->ins->op)) continue;
    CAPTURE(k.form_text);
    const auto f = ops::memory_access(*plain->ins);
    if (plain->ins->q.has(ir::Flag::bulk)) {
      CHECK_FALSE(f);
      continue;
    }
    REQUIRE(f);
    ++checked;
    // The operands are where the description says (the builder has checked the form's syntax).
    const auto& o = plain->ins->operands;
    CHECK((o.size() == f->operands || (f->cache_policy && o.size() == f->operands + 1)));
    CHECK(o[f->address].kind == ir::Operand::Kind::Address);
    for (const int k2 : {f->destination, f->source, f->swap}) {
      if (k2 < 0) continue;
      const auto& x = o[static_cast<std::size_t>(k2)];
      CHECK(x.kind != ir::Operand::Kind::Address);
      if (x.kind == ir::Operand::Kind::Vector) CHECK(x.elements.size() == f->count);
    }
    if (f->asynchronous) continue;  // (st.async / red.async: their own tests, async_store)

    // The interpreter, its addresses pointed at memory: one access of the description's bytes and kind.
    const auto live = build(with_addresses(k, *f), k.form_line);
    REQUIRE(live);
    Recorder rec;
    const auto r = run_one(*live->module, &rec);
    CHECK_MESSAGE(r.ok(), r.problem.message);
    unsigned at_form = 0;
    for (const auto& a : rec.accesses) {
      if (a.pc != live->pc) continue;
      ++at_form;
      CHECK(a.bytes == f->bytes());
      const auto want = f->kind == AccessKind::load ? interp::MemoryAccess::Kind::read
                        : f->kind == AccessKind::store ? interp::MemoryAccess::Kind::write
                        : f->kind == AccessKind::read_modify_write ? interp::MemoryAccess::Kind::atomic
                                                                   : interp::MemoryAccess::Kind::reduction;
      CHECK(a.kind == want);
    }
    CHECK(at_form == 1);

    // The race encoder: one access of the same bytes, reading when it returns a value, writing unless a load.
    z3::context c;
    const auto prep = ptxcheck::race::prepare(*live->module, *live->kernel, {});
    const auto launch = ptxcheck::race::make_launch(c, std::array<std::uint32_t, 3>{1, 1, 1}, std::array<std::uint32_t, 3>{1, 1, 1});
    const auto enc = ptxcheck::race::encode_thread(c, *live->module, *live->kernel, prep, launch, 0);
    const auto* acc = ptxcheck::race::access_of(enc, live->pc);
    const auto& addr = live->ins->operands[f->address];
    if (addr.base_kind == ir::Operand::BaseKind::Variable && addr.var.where == ir::VarRef::Where::Param) {
      // a kernel argument: the same symbols in every thread, no access
      CHECK_FALSE(acc);
      continue;
    }
    REQUIRE(acc);
    CHECK(acc->size == f->bytes());
    CHECK(acc->read == f->returns_value());
    CHECK(acc->write == f->writes());
    CHECK(acc->atomic == f->atomic());
    CHECK(acc->strong == f->order.strong);
    if (f->order.strong) CHECK(acc->scope == f->order.scope);
  }
  INFO("forms checked: ", checked);
  CHECK(checked >= 45);  // (the rows of 9.7.9.8-12 and 9.7.13.5-7 but st.bulk, and the call example's ld.param)
}

TEST_CASE("atom.global.v4.f32.add updates each of its four elements and returns each old value (ISA 9.7.13.5)") {
  // "atom instruction on packed type or vector type, accesses adjacent scalar elements in memory": element k of b
  // is added to the f32 at a + 4k, and element k of d gets the value that was there.
  const std::string text = R"(.version 9.0
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .f32 %f<12>; .reg .b32 %r<4>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.b32 %f1, 0f3F800000;
  mov.b32 %f2, 0f40000000;
  mov.b32 %f3, 0f40400000;
  mov.b32 %f4, 0f40800000;
  st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};
  mov.b32 %f5, 0f3F000000;
  atom.global.v4.f32.add {%f6, %f7, %f8, %f9}, [%rd1], {%f5, %f5, %f5, %f5};
  st.global.v4.f32 [%rd1+16], {%f6, %f7, %f8, %f9};
  ret;
})";
  auto loaded = ir::load_ptx(text, "v4.ptx");
  REQUIRE(loaded);
  interp::Launch l;
  l.buffers.push_back({"out", std::vector<std::uint8_t>(32)});
  l.params.push_back({"out", {}, 0, {}});
  const auto r = interp::run(*loaded.module, l);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  float v[8];
  std::memcpy(v, r.buffers.at(0).second.data(), sizeof v);
  // memory: 1 + 0.5, 2 + 0.5, 3 + 0.5, 4 + 0.5; d: 1, 2, 3, 4
  CHECK(v[0] == 1.5f);
  CHECK(v[1] == 2.5f);
  CHECK(v[2] == 3.5f);
  CHECK(v[3] == 4.5f);
  CHECK(v[4] == 1.0f);
  CHECK(v[5] == 2.0f);
  CHECK(v[6] == 3.0f);
  CHECK(v[7] == 4.0f);
}

TEST_CASE("the amount of an atom.add with a cache-policy operand is b, not the policy (ISA 9.7.13.5)") {
  // atom{.sem}{.scope}{.space}.op{.level::cache_hint}.type d, [a], b{, cache-policy}: positive_add asks b.
  const std::string text = R"(.version 9.0
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<4>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [out];
  createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;
  atom.global.add.L2::cache_hint.u32 %r1, [%rd1], 1, %rd2;
  ret;
})";
  const auto b = build(text, 8);
  REQUIRE(b);
  CHECK(b->ins->operands.size() == 4);
  CHECK(ptxcheck::race::integer_add(*b->ins));
  CHECK(ptxcheck::race::positive_add(*b->ins));
}

TEST_CASE("red.cas and red.exch are refused before any engine sees them (ISA 9.7.13.6 .op)") {
  // red's .op list is { .and, .or, .xor, .add, .inc, .dec, .min, .max }: the IR builder refuses the others
  // (semantics/ir/operation_types.hpp), so no engine is asked what they mean.
  for (const std::string op : {"exch", "cas"}) {
    const std::string text = R"(.version 9.0
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .u32 %r<4>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [out];
  red.global.)" + op + R"(.b32 [%rd1], %r1;
  ret;
})";
    auto parsed = ptx::parse_ptx(text, "memory_access.ptx");
    REQUIRE(parsed);
    const auto built = ir::build(*parsed.module);
    REQUIRE(built.errors.size() == 1);
    CHECK(built.errors[0].message == "'red.global." + op + ".b32': red has no ." + op + " operation (its .op list, ISA 9.7.13.6)");
  }
}

TEST_CASE("st.global.v8.b32 with `_` elements leaves those words as they were (ISA 9.7.9.11)") {
  // "Optionally, sink symbol '_' can be used in vector expression b when .vec is .v8 and .type is .b32 ... which
  // indicates that no data is being written at the corresponding destination address."
  const std::string text = R"(.version 9.0
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<4>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.b32 %r1, 9;
  mov.b32 %r2, 5;
  st.global.v8.b32 [%rd1], {%r1, %r1, %r1, %r1, %r1, %r1, %r1, %r1};
  st.global.v8.b32 [%rd1], {%r2, _, %r2, _, _, %r2, _, %r2};
  ret;
})";
  auto loaded = ir::load_ptx(text, "v8.ptx");
  REQUIRE(loaded);
  interp::Launch l;
  l.buffers.push_back({"out", std::vector<std::uint8_t>(32)});
  l.params.push_back({"out", {}, 0, {}});
  const auto r = interp::run(*loaded.module, l);
  REQUIRE_MESSAGE(r.ok(), r.problem.message);
  std::uint32_t w[8];
  std::memcpy(w, r.buffers.at(0).second.data(), sizeof w);
  const std::uint32_t want[8] = {5, 9, 5, 9, 9, 5, 9, 5};
  for (int k = 0; k < 8; ++k) CHECK(w[k] == want[k]);
}

TEST_CASE("wmma.load / wmma.store: the interpreter and the race encoder read one form (ISA 9.7.14.4.3-4)") {
  const std::string text = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<10>; .reg .f32 %f<10>; .reg .u64 %rd<4>;
  ld.param.u64 %rd1, [out];
  wmma.load.b.sync.aligned.col.m8n32k16.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
  wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd1], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, %r9;
  ret;
})";
  // B is k x n (16 x 32, 9.7.14.4.1); .col lays it out by columns: 32 lines of 16 .f16 elements. D is m x n
  // (16 x 16) by rows, .f32, with a stride operand.
  struct Want { unsigned line; bool load; unsigned lines, line_length, element_bits; std::size_t address; int stride; };
  for (const Want& w : {Want{7, true, 32, 16, 16, 1, -1}, Want{8, false, 16, 16, 32, 0, 2}}) {
    CAPTURE(w.line);
    const auto b = build(text, w.line);
    REQUIRE(b);
    CHECK(interp::instruction_supported(*b->ins));
    const auto g = ptxcheck::race::wmma_geometry(*b->ins);
    REQUIRE(g);
    CHECK(g->load == w.load);
    CHECK(g->lines == w.lines);
    CHECK(g->line_length == w.line_length);
    CHECK(g->element_bits == w.element_bits);
    CHECK(g->address_operand == w.address);
    CHECK(g->stride_operand == w.stride);
  }
  // "wmma.load.a.sync.aligned.layout.shape{.ss}.atype": .atype of m16n16k16 is .f16, .bf16, .s8 or .u8, not .f32;
  // the form is refused when the module is read (semantics/ir/wmma_form.hpp), so no engine meets it.
  std::string bad = text;
  bad.insert(bad.find("  ret;"), "  wmma.load.a.sync.aligned.row.m16n16k16.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%rd1];\n");
  const auto loaded = ptx::ir::load_ptx(bad, "bad.ptx");
  REQUIRE(loaded.errors.size() == 1);
  CHECK(loaded.errors[0].message ==
        "not a form of wmma: this matrix, shape, layout and element type are no combination the syntax lists (ISA 9.7.14.4.3-5)");
}

TEST_CASE("ldmatrix / stmatrix: the interpreter and the race encoder run the same forms (ISA 9.7.14.5.15-16)") {
  const std::string text = R"(.version 9.0
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 out) {
  .reg .b32 %r<10>; .reg .u64 %rd<4>;
  .shared .align 16 .b8 smem[1024];
  mov.u64 %rd1, smem;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%rd1];
  stmatrix.sync.aligned.m16n8.x2.trans.shared::cta.b8 [%rd1], {%r1, %r2};
  stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%rd1], {%r1};
  stmatrix.sync.aligned.m16n8.x1.shared.b8 [%rd1], {%r1};
  ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %r2, %r3, %r4}, [%rd1];
  ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [%rd1];
  ret;
})";
  struct Row { unsigned line; bool runs; unsigned matrices; };
  const Row rows[] = {
      {8, true, 4},    // .m8n8 .x4 .b16: four matrices, eight lines of 16 bytes each
      {9, true, 2},    // .m16n8 .trans .b8 (Figure 108): sixteen .b8 a line
      {10, true, 1},   // .m8n8 .trans .b16
      {11, false, 0},  // .m16n8 without .trans: no layout given
      {12, false, 0},  // .x2 with four registers: "1, 2, or 4 32-bit registers as per the value of .num"
      {13, false, 0},  // .m16n16 .b8 (sm_100): not modelled
      // (without .num the IR refuses the module: the syntax line's .num is not optional, test_syntax_forms.cpp)
  };
  for (const Row& row : rows) {
    CAPTURE(row.line);
    const auto b = build(text, row.line);
    REQUIRE(b);
    const auto form = ir::matrix_rows_form(*b->ins);
    CHECK(form.has_value() == row.runs);
    CHECK(interp::instruction_supported(*b->ins) == row.runs);
    CHECK(ptxcheck::race::encodable(*b->ins) == row.runs);
    if (form) {
      CHECK(form->matrices == row.matrices);
      CHECK(form->line_bytes == 16);
    }
  }
}
