// Which operations and fences release and acquire (ISA 8.8), as the memory model says: both race engines ask
// here instead of writing the rule again. Each answer comes from running a message-passing litmus test through
// the litmus engine under memmodel/models/ptx.cat (the same file `ptxcheck litmus` reads), so the instruction's
// events are the litmus builder's and the rule is the model's `release-pattern` / `acquire-pattern` /
// `sync-pattern`. The race engines keep only the structure of the patterns (which instruction precedes which on
// every path), which the dynamic engine's comparison with the model checks (docs/race/model-rules.md).
#pragma once

#include "litmus/enumerate/enumerate.hpp"
#include "memmodel/cat/ast.hpp"
#include "semantics/ir/ir.hpp"

#include <string>

namespace ptxcheck::race {

enum class PatternSide : std::uint8_t { release, acquire };

// One question: does this instruction, at the release (or acquire) end of message passing between two CTAs, make
// the pattern synchronize? `fence`: a memory fence with `sem`; otherwise `op` (st / red / atom for the release
// side, ld / atom for the acquire side) with `sem` on the flag. Everything else in the test is the strongest form
// (the other end .release/.acquire at .sys), so the answer is about this instruction alone.
// Barriers as synchronisation (8.9.4 item 3, 8.8 item 1): `op` barrier_ asks about barrier.cluster.arrive (release
// side) or barrier.cluster.wait (acquire side) between two CTAs of one cluster, `op` mbarrier_ about mbarrier.arrive
// or mbarrier.test_wait at .cluster scope, on an object of one CTA, by a thread of the other CTA of the cluster
// (arrive) or of its own CTA (wait). For these `sem` weak stands for "no .sem written": the litmus builder then
// applies the ISA's default, so the default is asked of the model too.
// CTA barriers (9.7.13.1, 8.9.4 item 2): `op` bar_ asks about a bar / barrier{.cta} operation between two threads of
// one CTA, the other side a bar.sync of the same barrier; `arrive` says the asked operation is an arrive (bar.arrive,
// barrier.arrive), else a waiting one (.sync, and .red, whose memory events are a waiting operation's: 9.7.13.1
// "The barrier{.cta}.sync and barrier{.cta}.red instruction further guarantees that no new memory access is
// requested by this thread before the barrier completes"). These have no .sem: `sem` is unused.
struct PatternQuestion {
  PatternSide side = PatternSide::release;
  bool fence = false;
  ptx::ir::Opcode op = ptx::ir::Opcode::st_;
  ptx::ir::MemorySemantics sem = ptx::ir::MemorySemantics::relaxed;
  bool arrive = false;
};

// The litmus test that asks it (herd PTX dialect): `~exists` the message not seen after the flag was.
std::string litmus_text(const PatternQuestion& q);
// A question's litmus test `text` run under `model` by the litmus engine's explicit enumeration (a few events: no
// solver, no process-wide Z3 setting); a test that does not parse gives a Result with an empty result and the
// reason. Shared with flag_model.cpp's per-pair questions.
litmus::Result run_model_question(const std::string& text, const std::string& file, const cat::Model& model,
                                  litmus::Engine engine = litmus::Engine::explicit_);
// The model's answer: the test holds. Throws std::runtime_error when the litmus engine cannot answer.
bool model_answer(const PatternQuestion& q, const cat::Model& model);

// ptx.cat's answers, each computed once per process (thread-safe). When ptx.cat cannot be found or the test cannot
// be run, the answer is "no", which can only add orderings that are missing, so races, never hide one; the reason
// is kept (model_rules_problem).
bool release_fence(ptx::ir::MemorySemantics sem);   // 8.8 release pattern form 3's fence
bool acquire_fence(ptx::ir::MemorySemantics sem);   // acquire pattern form 3's fence
// 8.8 form 1: the instruction's write (st, atom, red; false for ld) is a release operation; its read (ld, atom;
// false for st and red) an acquire one.
bool release_operation(const ptx::ir::Instruction& in);
bool acquire_operation(const ptx::ir::Instruction& in);
// 8.9.4 item 3 and 9.7.13.3: a barrier.cluster.arrive whose arrival releases the thread's prior accesses to the
// waits of its phase; 8.8 item 1 and 9.7.13.15.13: an mbarrier.arrive (with or without .expect_tx) that is a release
// operation on the object; 8.9.4 item 2 and 9.7.13.1: a CTA barrier operation (bar{.cta}.sync / .red / .arrive,
// barrier{.cta}.*, any name and count) whose arrival releases the thread's prior accesses to the waiting operations
// of its phase. false for every other instruction (bar.warp.sync: warp_barrier).
bool barrier_arrive_releases(const ptx::ir::Instruction& in);
// A barrier.cluster.wait that acquires what its phase's arrivals released; an mbarrier.test_wait / try_wait that is
// an acquire operation on the object (8.8 item 1, 9.7.13.15.16); a CTA barrier operation after which the thread's
// accesses are ordered after what its phase's arrivals released (8.9.4 item 2). false for every other instruction.
bool barrier_wait_acquires(const ptx::ir::Instruction& in);
std::string model_rules_problem();  // empty when every answer came from the model (else: notes.hpp model_unanswered)

}  // namespace ptxcheck::race
