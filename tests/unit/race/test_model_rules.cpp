// The release/acquire rules the race engines ask of the memory model (checker/race/model_rules.hpp): the answers
// ptx.cat gives agree with the ISA 9.0 text (8.4 operation types, 8.8 release and acquire patterns, 9.7.13.4 fence
// semantics), and they are the model's: a model with a different rule gives a different answer.
#include "checker/race/model_rules.hpp"

#include "memmodel/cat/parse.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace ptxcheck;
using ptx::ir::MemorySemantics;
using ptx::ir::Opcode;

namespace {
ptx::ir::Instruction instruction(Opcode op, std::optional<MemorySemantics> sem) {
  ptx::ir::Instruction in;
  in.op = op;
  in.q.semantics = sem;
  if (sem && *sem != MemorySemantics::weak && *sem != MemorySemantics::volatile_) in.q.scope = ptx::ir::Scope::gpu;
  return in;
}
}  // namespace

TEST_CASE("model rules: fences (ISA 8.8 form 3, 9.7.13.4)") {
  // 8.8: "A release or acquire-release memory fence"; "an acquire or acquire-release memory fence". fence.sc is a
  // memory fence (Table 20) whose synchronization includes fence.acq_rel's (9.7.13.4; memmodel/models/NOTES.md).
  CHECK(race::release_fence(MemorySemantics::release));
  CHECK(race::release_fence(MemorySemantics::acq_rel));
  CHECK(race::release_fence(MemorySemantics::sc));
  CHECK_FALSE(race::release_fence(MemorySemantics::acquire));
  CHECK(race::acquire_fence(MemorySemantics::acquire));
  CHECK(race::acquire_fence(MemorySemantics::acq_rel));
  CHECK(race::acquire_fence(MemorySemantics::sc));
  CHECK_FALSE(race::acquire_fence(MemorySemantics::release));
  CHECK(race::model_rules_problem().empty());
}

TEST_CASE("model rules: operations (ISA 8.8 form 1, 8.4)") {
  using MS = MemorySemantics;
  // Table 20 (8.4): "acquire operation: a memory operation with .acquire or .acq_rel qualifier", "release
  // operation: ... .release or .acq_rel"; relaxed, weak and volatile accesses are neither; "read operation: ... atom
  // instruction (but not red instruction)", so a red never acquires (and 8.8's last note).
  CHECK(race::release_operation(instruction(Opcode::st_, MS::release)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::st_, MS::relaxed)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::st_, std::nullopt)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::st_, MS::volatile_)));
  CHECK(race::release_operation(instruction(Opcode::atom_, MS::release)));
  CHECK(race::release_operation(instruction(Opcode::atom_, MS::acq_rel)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::atom_, MS::acquire)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::atom_, std::nullopt)));  // .relaxed by default (9.7.13.5)
  CHECK(race::release_operation(instruction(Opcode::red_, MS::release)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::red_, MS::relaxed)));
  CHECK_FALSE(race::release_operation(instruction(Opcode::ld_, MS::acquire)));  // writes nothing

  CHECK(race::acquire_operation(instruction(Opcode::ld_, MS::acquire)));
  CHECK_FALSE(race::acquire_operation(instruction(Opcode::ld_, MS::relaxed)));
  CHECK_FALSE(race::acquire_operation(instruction(Opcode::ld_, std::nullopt)));
  CHECK_FALSE(race::acquire_operation(instruction(Opcode::ld_, MS::volatile_)));
  CHECK(race::acquire_operation(instruction(Opcode::atom_, MS::acquire)));
  CHECK(race::acquire_operation(instruction(Opcode::atom_, MS::acq_rel)));
  CHECK_FALSE(race::acquire_operation(instruction(Opcode::atom_, MS::release)));
  CHECK_FALSE(race::acquire_operation(instruction(Opcode::atom_, std::nullopt)));
  CHECK_FALSE(race::acquire_operation(instruction(Opcode::red_, MS::acquire)));
  CHECK(race::model_rules_problem().empty());
}

TEST_CASE("model rules: the answer is the model's") {
  // The same question under ptx.cat and under ptx.cat with fence.sc taken out of `release-fence`: the answer follows
  // the model. (Done on a copy in a temporary file; the process's own answers are not touched.)
  const fs::path source = fs::path(PTXCHECK_SOURCE_DIR) / "memmodel/models/ptx.cat";
  std::stringstream text;
  text << std::ifstream(source).rdbuf();
  std::string changed = text.str();
  const std::string rule = "let release-fence = F & (REL | ACQ_REL | SC)";
  const auto at = changed.find(rule);
  REQUIRE(at != std::string::npos);
  changed.replace(at, rule.size(), "let release-fence = F & (REL | ACQ_REL)");
  const fs::path copy = fs::temp_directory_path() / "ptxcheck-model-rules-test.cat";
  std::ofstream(copy) << changed;
  std::vector<Diagnostic> diags;
  auto original = cat::load_model(source.string(), cat::base_names(), diags);
  auto mutated = cat::load_model(copy.string(), cat::base_names(), diags);
  fs::remove(copy);
  REQUIRE(original);
  REQUIRE(mutated);
  const race::PatternQuestion sc_fence{race::PatternSide::release, true, Opcode::fence_, MemorySemantics::sc};
  CHECK(race::model_answer(sc_fence, *original));
  CHECK_FALSE(race::model_answer(sc_fence, *mutated));
  // The question is a message-passing test: data, fence, flag | flag, data.
  const std::string t = race::litmus_text(sc_fence);
  CHECK(t.find("fence.sc.sys") != std::string::npos);
  CHECK(t.find("~exists (P1:%r0 == 1 /\\ P1:%r1 == 0)") != std::string::npos);
}

namespace {
// The instruction with the qualifier words `words` (after the opcode) as the PTX front end decodes them.
ptx::ir::Instruction barrier_instruction(Opcode op, std::vector<std::string> words) {
  ptx::ir::Instruction in;
  in.op = op;
  CHECK(ptx::ir::decode_qualifiers(op, words, in.q).empty());
  return in;
}
}  // namespace

TEST_CASE("model rules: barrier.cluster (ISA 9.7.13.3, 8.9.4 item 3)") {
  // 9.7.13.3: "If the optional .sem qualifier is absent for barrier.cluster.arrive, .release is assumed by default";
  // "The optional .relaxed qualifier on barrier.cluster.arrive specifies that there are no memory ordering and
  // visibility guarantees provided for the memory accesses performed prior to barrier.cluster.arrive".
  CHECK(race::barrier_arrive_releases(barrier_instruction(Opcode::barrier_, {"cluster", "arrive"})));
  CHECK(race::barrier_arrive_releases(barrier_instruction(Opcode::barrier_, {"cluster", "arrive", "release", "aligned"})));
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::barrier_, {"cluster", "arrive", "relaxed"})));
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::barrier_, {"cluster", "arrive", "relaxed", "aligned"})));
  // "If the optional .acquire qualifier is absent for barrier.cluster.wait, .acquire is assumed by default."
  CHECK(race::barrier_wait_acquires(barrier_instruction(Opcode::barrier_, {"cluster", "wait"})));
  CHECK(race::barrier_wait_acquires(barrier_instruction(Opcode::barrier_, {"cluster", "wait", "acquire", "aligned"})));
  // An arrive is no wait and a wait no arrive.
  CHECK_FALSE(race::barrier_wait_acquires(barrier_instruction(Opcode::barrier_, {"cluster", "arrive"})));
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::barrier_, {"cluster", "wait"})));
  CHECK(race::model_rules_problem().empty());
}

TEST_CASE("model rules: CTA barriers (ISA 9.7.13.1, 8.9.4 item 2)") {
  // 9.7.13.1: "The barrier{.cta}.sync or barrier{.cta}.red or barrier{.cta}.arrive instruction guarantees that when
  // the barrier completes, prior memory accesses requested by this thread are performed relative to all threads
  // participating in the barrier." Every form releases, bar and barrier{.cta} spellings, .aligned or not.
  const std::vector<std::pair<Opcode, std::vector<std::string>>> sync = {
      {Opcode::bar_, {"sync"}}, {Opcode::bar_, {"cta", "sync"}}, {Opcode::barrier_, {"sync"}},
      {Opcode::barrier_, {"cta", "sync", "aligned"}}, {Opcode::bar_, {"red", "popc", "u32"}},
      {Opcode::barrier_, {"red", "and", "pred"}}};
  const std::vector<std::pair<Opcode, std::vector<std::string>>> arrive = {
      {Opcode::bar_, {"arrive"}}, {Opcode::bar_, {"cta", "arrive"}}, {Opcode::barrier_, {"arrive", "aligned"}}};
  for (const auto& [op, words] : sync) CHECK(race::barrier_arrive_releases(barrier_instruction(op, words)));
  for (const auto& [op, words] : arrive) CHECK(race::barrier_arrive_releases(barrier_instruction(op, words)));
  // "The barrier{.cta}.sync and barrier{.cta}.red instruction further guarantees that no new memory access is
  // requested by this thread before the barrier completes": they acquire; an arrive does not wait, so nothing orders
  // the arriving thread's later accesses.
  for (const auto& [op, words] : sync) CHECK(race::barrier_wait_acquires(barrier_instruction(op, words)));
  for (const auto& [op, words] : arrive) CHECK_FALSE(race::barrier_wait_acquires(barrier_instruction(op, words)));
  CHECK(race::model_rules_problem().empty());
}

TEST_CASE("model rules: mbarrier arrive-on and waits (ISA 8.8 item 1, 9.7.13.15.13, .16)") {
  // 9.7.13.15.13: "If the .sem qualifier is absent, .release is assumed by default. The .relaxed qualifier does not
  // provide any memory ordering semantics and visibility guarantees." (8.8: "mbarrier.arrive.release [M]" is a
  // release operation on M.) The .expect_tx form is an arrive-on too.
  CHECK(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"arrive", "shared", "b64"})));
  CHECK(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"arrive", "release", "cluster", "shared::cluster", "b64"})));
  CHECK(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"arrive", "expect_tx", "release", "cta", "shared::cta", "b64"})));
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"arrive", "relaxed", "cta", "shared", "b64"})));
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"arrive", "expect_tx", "relaxed", "cluster", "shared::cta", "b64"})));
  // 9.7.13.15.16: "If the .sem qualifier is absent, .acquire is assumed by default. The .relaxed qualifier does not
  // provide any memory ordering semantics and visibility guarantees." (8.8: "mbarrier.test_wait.acquire [M]".)
  CHECK(race::barrier_wait_acquires(barrier_instruction(Opcode::mbarrier_, {"test_wait", "shared", "b64"})));
  CHECK(race::barrier_wait_acquires(barrier_instruction(Opcode::mbarrier_, {"try_wait", "parity", "shared::cta", "b64"})));
  CHECK(race::barrier_wait_acquires(barrier_instruction(Opcode::mbarrier_, {"try_wait", "acquire", "cluster", "shared::cta", "b64"})));
  CHECK_FALSE(race::barrier_wait_acquires(barrier_instruction(Opcode::mbarrier_, {"test_wait", "relaxed", "cta", "shared", "b64"})));
  CHECK_FALSE(race::barrier_wait_acquires(barrier_instruction(Opcode::mbarrier_, {"try_wait", "parity", "relaxed", "cluster", "shared::cta", "b64"})));
  // Other mbarrier operations are neither: init, expect_tx (9.7.13.15.11: "a relaxed operation").
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"init", "shared", "b64"})));
  CHECK_FALSE(race::barrier_arrive_releases(barrier_instruction(Opcode::mbarrier_, {"expect_tx", "relaxed", "cta", "shared", "b64"})));
  CHECK_FALSE(race::barrier_wait_acquires(barrier_instruction(Opcode::mbarrier_, {"arrive", "shared", "b64"})));
  CHECK(race::model_rules_problem().empty());
}

namespace {
// ptx.cat with `from` replaced by `to` (which must occur once), loaded from a temporary copy.
std::optional<cat::Model> changed_model(const std::string& from, const std::string& to) {
  const fs::path source = fs::path(PTXCHECK_SOURCE_DIR) / "memmodel/models/ptx.cat";
  std::stringstream text;
  text << std::ifstream(source).rdbuf();
  std::string changed = text.str();
  const auto at = changed.find(from);
  REQUIRE(at != std::string::npos);
  changed.replace(at, from.size(), to);
  const fs::path copy = fs::temp_directory_path() / "ptxcheck-model-rules-barrier-test.cat";
  std::ofstream(copy) << changed;
  std::vector<Diagnostic> diags;
  auto model = cat::load_model(copy.string(), cat::base_names(), diags);
  fs::remove(copy);
  return model;
}
}  // namespace

TEST_CASE("model rules: the barrier answers are the model's") {
  const fs::path source = fs::path(PTXCHECK_SOURCE_DIR) / "memmodel/models/ptx.cat";
  std::vector<Diagnostic> diags;
  auto original = cat::load_model(source.string(), cat::base_names(), diags);
  REQUIRE(original);
  using Q = race::PatternQuestion;
  const Q relaxed_arrive{race::PatternSide::release, false, Opcode::barrier_, MemorySemantics::relaxed};
  const Q default_arrive{race::PatternSide::release, false, Opcode::barrier_, MemorySemantics::weak};
  // ptx.cat's `sync-barrier` leaves out .relaxed barrier events; without that, a .relaxed arrive synchronizes.
  auto all_barriers = changed_model("let sync-barrier = ([BAR \\ RLX]; syncbar; [BAR \\ RLX]) & sr", "let sync-barrier = syncbar & sr");
  REQUIRE(all_barriers);
  CHECK_FALSE(race::model_answer(relaxed_arrive, *original));
  CHECK(race::model_answer(relaxed_arrive, *all_barriers));
  // And with no barrier synchronizing, not even the default arrive does.
  auto no_barriers = changed_model("let sync-barrier = ([BAR \\ RLX]; syncbar; [BAR \\ RLX]) & sr", "let sync-barrier = 0");
  REQUIRE(no_barriers);
  CHECK(race::model_answer(default_arrive, *original));
  CHECK_FALSE(race::model_answer(default_arrive, *no_barriers));
  // The same change takes the CTA barrier's synchronization away (8.9.4 item 2 is ptx.cat's sync-barrier too).
  const Q cta_sync{race::PatternSide::release, false, Opcode::bar_, MemorySemantics::weak, false};
  const Q cta_arrive_waits{race::PatternSide::acquire, false, Opcode::bar_, MemorySemantics::weak, true};
  CHECK(race::model_answer(cta_sync, *original));
  CHECK_FALSE(race::model_answer(cta_sync, *no_barriers));
  CHECK_FALSE(race::model_answer(cta_arrive_waits, *original));
  const std::string cta = race::litmus_text(cta_arrive_waits);
  CHECK(cta.find("bar.cta.sync 1 | bar.cta.arrive 1 ;") != std::string::npos);
  CHECK(cta.find("P0@cta 0,gpu 0 | P1@cta 0,gpu 0") != std::string::npos);
  // A .relaxed mbarrier wait is a strong read: with `acquire-pattern` taking relaxed reads as acquire operations, it
  // acquires.
  const Q relaxed_wait{race::PatternSide::acquire, false, Opcode::mbarrier_, MemorySemantics::relaxed};
  auto relaxed_acquires = changed_model("let acquire-pattern = [(R & ACQ) \\ RED]", "let acquire-pattern = [(R & (ACQ | RLX)) \\ RED]");
  REQUIRE(relaxed_acquires);
  CHECK_FALSE(race::model_answer(relaxed_wait, *original));
  CHECK(race::model_answer(relaxed_wait, *relaxed_acquires));
  // The questions are message-passing tests between two CTAs of one cluster, the asked instruction as written.
  const std::string t = race::litmus_text(relaxed_arrive);
  CHECK(t.find("barrier.cluster.arrive.relaxed |") != std::string::npos);
  CHECK(t.find("@cta 1,cluster 0") != std::string::npos);
  CHECK(race::litmus_text(default_arrive).find("barrier.cluster.arrive |") != std::string::npos);
  CHECK(race::litmus_text(relaxed_wait).find("mbarrier.test_wait.parity.relaxed.cluster") != std::string::npos);
}
