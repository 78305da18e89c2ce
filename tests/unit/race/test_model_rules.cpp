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
