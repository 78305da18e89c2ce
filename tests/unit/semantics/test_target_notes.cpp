// The version and target requirements of ISA 9.0 chapter 9.7's "PTX ISA Notes" and "Target ISA Notes"
// (semantics/ir/target_notes.def, generated from the text), each case written from the sentence it cites, and
// 11.1.2's rules for which targets satisfy a requirement (Table 62's families).
#include "semantics/ir/target_notes.hpp"
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

using namespace ptx::ir;

namespace {
using testing::Diagnostics;
// The IR checker's messages on a kernel of `body` in a module of `.version version` and `.target target`.
Diagnostics check(const std::string& version, const std::string& target, const std::string& body) {
  return testing::diagnostics_of(testing::kernel_module(".version " + version + "\n.target " + target + "\n.address_size 64\n",
                                                        " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n .reg .f32 %f<4>;\n"
                                                        " .reg .pred %p<2>;\n .shared .b64 bar;\n", body));
}
bool satisfies(const char* target, const char* requirement) {
  const auto t = target_arch(target);
  REQUIRE_MESSAGE(t, target);
  return target_satisfies(*t, requirement);
}
}  // namespace

TEST_CASE("11.1.2: targets, the onion layers, a- and f-targets and Table 62's families") {
  // "each generation adds new features and retains all features of previous generations"
  CHECK(satisfies("sm_90", ">=sm_80"));
  CHECK(satisfies("sm_90a", ">=sm_90"));
  CHECK(satisfies("sm_100a", ">=sm_90"));
  CHECK_FALSE(satisfies("sm_89", ">=sm_90"));
  CHECK(satisfies("compute_80", ">=sm_80"));  // "Targets of the form compute_xx are also accepted as synonyms"
  // "Architecture-specific features ... are supported on the specified architecture only"
  CHECK(satisfies("sm_90a", "sm_90a"));
  CHECK_FALSE(satisfies("sm_90", "sm_90a"));
  CHECK_FALSE(satisfies("sm_100a", "sm_90a"));
  // "Family-specific features can be used with f-targets as well as a-targets of later generation devices in the
  // same family"; Table 62: sm_10x is sm_100f and sm_103f, sm_12x sm_120f and sm_121f.
  CHECK(satisfies("sm_100f", "sm_100f+"));
  CHECK(satisfies("sm_103f", "sm_100f+"));
  CHECK(satisfies("sm_103a", "sm_100f+"));
  CHECK_FALSE(satisfies("sm_100", "sm_100f+"));
  CHECK_FALSE(satisfies("sm_120f", "sm_100f+"));
  CHECK_FALSE(satisfies("sm_100f", "sm_103f+"));
  CHECK(satisfies("sm_121a", "sm_120f+"));
  // "Targets sm_{101, 101f, 101a} are renamed to targets sm_{110, 110f, 110a} from PTX ISA version 9.0."
  CHECK(satisfies("sm_101a", "sm_110a"));
  CHECK(satisfies("sm_101f", "sm_110f+"));
  CHECK_FALSE(target_arch("sm_90x"));
  CHECK_FALSE(target_arch("texmode_independent"));
}

TEST_CASE("Target ISA Notes: an instruction the target lacks is an error") {
  // 9.7.13.12 redux.sync: "Requires sm_80 or higher."
  auto d = check("8.0", "sm_75", "redux.sync.add.u32 %r0, %r1, 0xffffffff;");
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "'redux.sync.add.u32' requires .target sm_80 or higher (ISA 9.7.13.12, Target ISA Notes); the module's target is sm_75");
  CHECK(check("8.0", "sm_80", "redux.sync.add.u32 %r0, %r1, 0xffffffff;").errors.empty());
  // 9.7.13.4: "`fence` requires sm_70 or higher", "`membar.{cta, gl}` supported on all target architectures",
  // ".cluster scope qualifier requires sm_90 or higher".
  CHECK(check("6.0", "sm_60", "fence.acq_rel.gpu;").errors.size() == 1);
  CHECK(check("6.0", "sm_60", "membar.gl;").errors.empty());
  d = check("8.0", "sm_80", "fence.acq_rel.cluster;");
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "'.cluster' in 'fence.acq_rel.cluster' requires .target sm_90 or higher (ISA 9.7.13.4, Target ISA Notes); the module's target is sm_80");
  // 9.7.15.7.1 wgmma.fence: "Requires sm_90a." (an architecture-specific feature: not on sm_100a)
  CHECK(check("8.0", "sm_90a", "wgmma.fence.sync.aligned;").errors.empty());
  d = check("8.6", "sm_100a", "wgmma.fence.sync.aligned;");
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "'wgmma.fence.sync.aligned' requires .target sm_90a (ISA 9.7.15.7.1, Target ISA Notes); the module's target is sm_100a");
  // 9.7.16.7.1 tcgen05.alloc: sm_100a, sm_101a, and sm_100f / sm_101f / sm_110f or higher in the same family.
  const std::string alloc = "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [bar], 32;";
  CHECK(check("8.6", "sm_100a", alloc).errors.empty());
  CHECK(check("8.8", "sm_103a", alloc).errors.empty());
  CHECK(check("8.8", "sm_100f", alloc).errors.empty());
  CHECK(check("8.6", "sm_90a", alloc).errors.size() == 1);
  CHECK(check("8.6", "sm_100", alloc).errors.size() == 1);
  // 9.7.1.1 add: "`add.u16x2` and `add.s16x2` require `sm_90` or higher"; the floating-point add of 9.7.3.3 is
  // "supported on all target architectures", its f64 "requires sm_13 or higher".
  CHECK(check("8.0", "sm_80", "add.u16x2 %r0, %r1, %r2;").errors.size() == 1);
  CHECK(check("8.0", "sm_90", "add.u16x2 %r0, %r1, %r2;").errors.empty());
  CHECK(check("6.0", "sm_30", "add.f32 %f0, %f1, %f2;").errors.empty());
  // 9.7.4.1: "`add{.rnd}.bf16` and `add{.rnd}.bf16x2` requires `sm_90` or higher."
  CHECK(check("7.8", "sm_80", "add.rn.bf16x2 %r0, %r1, %r2;").errors.size() == 1);
  CHECK(check("7.8", "sm_90", "add.rn.bf16x2 %r0, %r1, %r2;").errors.empty());
  // 9.7.13.15.13 mbarrier.arrive: "Support for count argument without the modifier .noComplete requires sm_90 or
  // higher" is about the count, not .noComplete, which "for sm_8x, when the argument count is specified ... is
  // required": .noComplete itself runs on sm_80.
  CHECK(check("7.0", "sm_80", "mbarrier.arrive.noComplete.shared.b64 %rd0, [bar], 1;").errors.empty());
}

TEST_CASE("PTX ISA Notes: an instruction or qualifier newer than the module's .version is an error") {
  // 9.7.13.15.13 mbarrier.arrive: "Support for `.relaxed` qualifier introduced in PTX ISA version 8.6."
  const std::string arrive = "mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd0, [bar];";
  auto d = check("8.5", "sm_90", arrive);
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "'.relaxed' in 'mbarrier.arrive.relaxed.cta.shared::cta.b64' requires PTX ISA version 8.6 or later (ISA 9.7.13.15.13, PTX ISA Notes); the module declares .version 8.5");
  CHECK(check("8.6", "sm_90", arrive).errors.empty());
  // 9.7.1.1: "`add.u16x2` and `add.s16x2` introduced in PTX ISA version 8.0."
  d = check("7.8", "sm_90", "add.s16x2 %r0, %r1, %r2;");
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "'add.s16x2' requires PTX ISA version 8.0 or later (ISA 9.7.1.1, PTX ISA Notes); the module declares .version 7.8");
  // 9.7.9.8 ld: "Support for `.b128` type introduced in PTX ISA version 8.3."
  CHECK(check("8.2", "sm_90", "ld.global.b128 %rd0, [%rd1];").errors.size() >= 1);
  // 9.7.13.14 elect.sync: "Introduced in PTX ISA version 8.0."
  CHECK(check("7.8", "sm_90", "elect.sync %r0|%p0, 0xffffffff;").errors.size() == 1);
  CHECK(check("8.0", "sm_90", "elect.sync %r0|%p0, 0xffffffff;").errors.empty());
}

TEST_CASE("11.1.2 PTX ISA Notes: a .target string newer than the module's .version is an error") {
  // "Target string `sm_100a` introduced in PTX ISA version 8.6." / "`sm_90a` introduced in PTX ISA version 8.0."
  auto d = check("8.5", "sm_100a", "add.s32 %r0, %r1, %r2;");
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0] == "'.target sm_100a' requires PTX ISA version 8.6 or later (ISA 11.1.2, PTX ISA Notes); the module declares .version 8.5");
  CHECK(check("8.6", "sm_100a", "add.s32 %r0, %r1, %r2;").errors.empty());
  CHECK(check("7.8", "sm_90a", "add.s32 %r0, %r1, %r2;").errors.size() == 1);
  CHECK(check("8.0", "sm_90a", "add.s32 %r0, %r1, %r2;").errors.empty());
  // "Target string `sm_80` introduced in PTX ISA version 7.0", and compute_80 is its synonym.
  CHECK(check("6.5", "compute_80", "add.s32 %r0, %r1, %r2;").errors.size() == 1);
  // "Target string `sm_103f` introduced in PTX ISA version 8.8"; sm_110a only from 9.0.
  CHECK(check("8.7", "sm_103f", "add.s32 %r0, %r1, %r2;").errors.size() == 1);
  CHECK(check("8.8", "sm_110a", "add.s32 %r0, %r1, %r2;").errors.size() == 1);
  CHECK(check("9.0", "sm_110a", "add.s32 %r0, %r1, %r2;").errors.empty());
}

TEST_CASE("removed forms: shfl and vote without .sync on sm_70 from PTX ISA 6.4 are warned of, not refused") {
  // 9.7.9.5: "`shfl` is not supported on `sm_70` or higher starting PTX ISA version 6.4."
  auto d = check("6.4", "sm_70", "shfl.idx.b32 %r0, %r1, 0, 31;");
  CHECK(d.errors.empty());
  REQUIRE(d.warnings.size() == 1);
  CHECK(d.warnings[0].find("is not supported on .target sm_70 or higher from PTX ISA version 6.4 (ISA 9.7.9.5") != std::string::npos);
  CHECK(check("6.3", "sm_70", "shfl.idx.b32 %r0, %r1, 0, 31;").warnings.empty());
  CHECK(check("6.4", "sm_60", "shfl.idx.b32 %r0, %r1, 0, 31;").warnings.empty());
  CHECK(check("6.4", "sm_70", "shfl.sync.idx.b32 %r0, %r1, 0, 31, 0xffffffff;").warnings.empty());
  // 9.7.13.8: vote "Not supported in PTX ISA version 6.4 for .target sm_70 or higher."
  CHECK(check("7.0", "sm_70", "vote.ballot.b32 %r0, %p0;").warnings.size() == 1);
  CHECK(check("7.0", "sm_70", "vote.sync.ballot.b32 %r0, %p0, 0xffffffff;").warnings.empty());
}
