// See model_rules.hpp.
#include "checker/race/model_rules.hpp"

#include "litmus/driver.hpp"
#include "litmus/enumerate/enumerate.hpp"
#include "litmus/parse/parse.hpp"
#include "semantics/ir/mbarrier_order.hpp"
#include "semantics/ir/memory_order.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>

namespace ptxcheck::race {
namespace {
using ptx::ir::MemorySemantics;
using ptx::ir::Opcode;

// The semantics words of an instruction of the dialect (a weak access has none; `.volatile` and `.mmio` carry
// their own scope: ISA 9.7.9.8, 9.7.9.10).
std::string semantics_words(MemorySemantics sem) {
  switch (sem) {
    case MemorySemantics::weak: return "";
    case MemorySemantics::relaxed: return ".relaxed.sys";
    case MemorySemantics::acquire: return ".acquire.sys";
    case MemorySemantics::release: return ".release.sys";
    case MemorySemantics::acq_rel: return ".acq_rel.sys";
    case MemorySemantics::sc: return ".sc.sys";
    case MemorySemantics::volatile_: return ".volatile";
    case MemorySemantics::mmio: return ".mmio.relaxed.sys";
  }
  return "";
}

// The flag's write (release side) or read (acquire side) as the question's instruction.
std::string flag_instruction(const PatternQuestion& q) {
  const std::string sem = semantics_words(q.sem);
  if (q.side == PatternSide::release) {
    if (q.op == Opcode::atom_) return "atom" + sem + ".global.exch.b32 %r9, [flag], 1";
    if (q.op == Opcode::red_) return "red" + sem + ".global.add.u32 [flag], 1";
    return "st" + sem + ".global.u32 [flag], 1";
  }
  if (q.op == Opcode::atom_) return "atom" + sem + ".global.add.u32 %r0, [flag], 0";
  return "ld" + sem + ".global.u32 %r0, [flag]";
}

// A barrier instruction's semantics word, without scope (barrier.cluster has none; the mbarrier question writes its
// own); "" for weak, the question's "no .sem written".
std::string barrier_semantics_word(MemorySemantics sem) {
  const std::string words = semantics_words(sem);
  return words.substr(0, words.find(".sys"));
}

// A test of a producer P0 and a consumer P1 at `places` ("cta 0,gpu 0"): `rows` of (P0 | P1) cells, then
// `condition`.
std::string two_thread_test(const std::string& name, const std::string& init, const std::pair<std::string, std::string>& places,
                            const std::vector<std::pair<std::string, std::string>>& rows, const std::string& condition) {
  std::string text = "PTX " + name + "\n{\n" + init + "\n}\n P0@" + places.first + " | P1@" + places.second + " ;\n";
  for (const auto& [producer, consumer] : rows) text += fmt::format(" {} | {} ;\n", producer, consumer);
  return text + condition + "\n";
}

// Two threads in two CTAs of one cluster.
std::string cluster_test(const std::string& name, const std::string& init,
                         const std::vector<std::pair<std::string, std::string>>& rows, const std::string& condition) {
  return two_thread_test(name, init, {"cta 1,cluster 0,gpu 0", "cta 0,cluster 0,gpu 0"}, rows, condition);
}

// 8.9.4 item 3: the producer's data, then its arrive; the consumer's arrive, its wait, then the data (the wait
// completes once both have arrived, 9.7.13.3). The side not asked about is .release / .acquire.
std::string cluster_barrier_text(const PatternQuestion& q) {
  const bool release = q.side == PatternSide::release;
  const std::string arrive = "barrier.cluster.arrive" + (release ? barrier_semantics_word(q.sem) : ".release");
  const std::string wait = "barrier.cluster.wait" + (release ? ".acquire" : barrier_semantics_word(q.sem));
  return cluster_test("cluster-barrier-question", "data = 0;",
                      {{"st.global.u32 [data], 1", "barrier.cluster.arrive.release"}, {arrive, wait}, {"", "ld.global.u32 %r1, [data]"}},
                      "~exists (P1:%r1 == 0)");
}

// 8.8 item 1 (`mbarrier.arrive.release [M]` a release operation, `mbarrier.test_wait.acquire [M]` an acquire one on
// M): P1 initialises the object, one expected arrival, in its CTA; a cluster barrier orders the init before P0's
// use (9.7.13.15: an operation on an uninitialized object is undefined); P0 writes the data and arrives; P1 tests
// phase 0 (9.7.13.15.16's .parity form) and reads the data. The side not asked about is .release / .acquire.
std::string mbarrier_text(const PatternQuestion& q) {
  const bool release = q.side == PatternSide::release;
  const std::string arrive = "mbarrier.arrive" + (release ? barrier_semantics_word(q.sem) : ".release") + ".cluster.shared::cluster.b64 _, [bar]";
  const std::string wait = "mbarrier.test_wait.parity" + (release ? ".acquire" : barrier_semantics_word(q.sem)) + ".cluster.shared::cta.b64 %p, [bar], 0";
  return cluster_test("mbarrier-question", "data = 0; bar = 0;",
                      {{"", "mbarrier.init.shared::cta.b64 [bar], 1"},
                       {"barrier.cluster.arrive", "barrier.cluster.arrive"},
                       {"barrier.cluster.wait", "barrier.cluster.wait"},
                       {"st.global.u32 [data], 1", wait},
                       {arrive, "ld.global.u32 %r1, [data]"}},
                      "~exists (P1:%p == 1 /\\ P1:%r1 == 0)");
}

// 8.9.4 item 2: two threads of one CTA; the producer writes the data and operates on barrier 1, the consumer operates
// on it and reads the data. The side not asked about is a bar.sync (a waiting operation, which the ISA makes both
// release and acquire). Barrier 1 without a thread count: every thread of the CTA, here both.
std::string cta_barrier_text(const PatternQuestion& q) {
  const std::string asked = q.arrive ? "bar.cta.arrive 1" : "bar.cta.sync 1";
  const bool release = q.side == PatternSide::release;
  return two_thread_test("cta-barrier-question", "data = 0;", {"cta 0,gpu 0", "cta 0,gpu 0"},
                         {{"st.global.u32 [data], 1", ""},
                          {release ? asked : "bar.cta.sync 1", release ? "bar.cta.sync 1" : asked},
                          {"", "ld.global.u32 %r1, [data]"}},
                         "~exists (P1:%r1 == 0)");
}

}  // namespace

std::string litmus_text(const PatternQuestion& q) {
  if (!q.fence && q.op == Opcode::bar_) return cta_barrier_text(q);
  if (!q.fence && q.op == Opcode::barrier_) return cluster_barrier_text(q);
  if (!q.fence && q.op == Opcode::mbarrier_) return mbarrier_text(q);
  // Producer: data, then the release side; consumer: the acquire side, then data. Two CTAs of one GPU, .sys
  // scopes: every strong pair is morally strong (8.7), so only the question's instruction can break the pattern.
  std::vector<std::string> producer = {"st.global.u32 [data], 1"}, consumer;
  if (q.side == PatternSide::release) {
    if (q.fence) {
      producer.push_back("fence" + semantics_words(q.sem));
      producer.push_back("st.relaxed.sys.global.u32 [flag], 1");
    } else {
      producer.push_back(flag_instruction(q));
    }
    consumer.push_back("ld.acquire.sys.global.u32 %r0, [flag]");
  } else {
    producer.push_back("st.release.sys.global.u32 [flag], 1");
    if (q.fence) {
      consumer.push_back("ld.relaxed.sys.global.u32 %r0, [flag]");
      consumer.push_back("fence" + semantics_words(q.sem));
    } else {
      consumer.push_back(flag_instruction(q));
    }
  }
  consumer.push_back("ld.global.u32 %r1, [data]");
  std::string text = "PTX pattern-question\n{\ndata = 0; flag = 0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n";
  for (std::size_t row = 0; row < std::max(producer.size(), consumer.size()); ++row)
    text += fmt::format(" {} | {} ;\n", row < producer.size() ? producer[row] : "", row < consumer.size() ? consumer[row] : "");
  return text + "~exists (P1:%r0 == 1 /\\ P1:%r1 == 0)\n";
}

litmus::Result run_model_question(const std::string& text, const std::string& file, const cat::Model& model, litmus::Engine engine) {
  std::vector<Diagnostic> diags;
  auto test = litmus::parse_litmus(text, file, diags);
  if (!test) {
    litmus::Result r;
    r.reason = "the test does not parse: " + (diags.empty() ? text : diags.front().render());
    return r;
  }
  litmus::Options o;
  o.engine = engine;
  o.liveness = false;
  return litmus::run_test(*test, model, o);
}

bool model_answer(const PatternQuestion& q, const cat::Model& model) {
  const litmus::Result r = run_model_question(litmus_text(q), "pattern-question.litmus", model);
  if (r.result != "holds" && r.result != "fails") throw std::runtime_error("the model question was not answered (" + r.result + ": " + r.reason + ")");
  return r.result == "holds";
}

namespace {

struct Answers {
  std::mutex mutex;
  std::optional<cat::Model> model;
  std::string problem;
  bool loaded = false;
  // One slot per question (side x fence x asked operation x semantics): -1 not asked yet, else the answer. Read
  // without the lock, since the dynamic engine asks at every memory access.
  static constexpr std::size_t kOperations = 7;  // st or ld, atom, red, barrier.cluster, mbarrier, CTA barrier x arrive
  std::array<std::atomic<std::int8_t>, 2 * 2 * kOperations * 8> by_question;
  Answers() {
    for (auto& x : by_question) x.store(-1, std::memory_order_relaxed);
  }
};

std::size_t slot_of(const PatternQuestion& q) {
  std::size_t op = 0;
  if (!q.fence)
    op = q.op == Opcode::atom_ ? 1 : q.op == Opcode::red_ ? 2 : q.op == Opcode::barrier_ ? 3 : q.op == Opcode::mbarrier_ ? 4
       : q.op == Opcode::bar_ ? 5 + q.arrive : 0;
  const std::size_t sem = q.op == Opcode::bar_ && !q.fence ? 0 : static_cast<std::size_t>(q.sem);
  return ((static_cast<std::size_t>(q.side) * 2 + q.fence) * Answers::kOperations + op) * 8 + sem;
}

Answers& answers() {
  static Answers a;
  return a;
}

bool answer(const PatternQuestion& q) {
  Answers& a = answers();
  std::atomic<std::int8_t>& known = a.by_question[slot_of(q)];
  if (const std::int8_t v = known.load(std::memory_order_acquire); v >= 0) return v != 0;
  std::lock_guard<std::mutex> lock(a.mutex);
  if (const std::int8_t v = known.load(std::memory_order_relaxed); v >= 0) return v != 0;
  if (!a.loaded) {
    a.loaded = true;
    std::vector<std::string> errors;
    a.model = litmus::load_named_model("ptx", errors);
    if (!a.model) a.problem = "memmodel/models/ptx.cat could not be loaded" + (errors.empty() ? std::string() : ": " + errors.front());
  }
  bool yes = false;
  if (a.model) {
    try {
      yes = model_answer(q, *a.model);
    } catch (const std::exception& e) {
      if (a.problem.empty()) a.problem = e.what();
    }
  }
  known.store(yes ? 1 : 0, std::memory_order_release);
  return yes;
}

PatternQuestion fence_question(PatternSide side, MemorySemantics sem) { return {side, true, Opcode::fence_, sem}; }

// The flag access the question asks with: an atom or red as itself, every other write as a st and every other
// read as an ld (their semantics are what the model sees of them).
PatternQuestion operation_question(PatternSide side, const ptx::ir::Instruction& in) {
  Opcode op = side == PatternSide::release ? Opcode::st_ : Opcode::ld_;
  if (in.op == Opcode::atom_ || (side == PatternSide::release && in.op == Opcode::red_)) op = in.op;
  return {side, false, op, ptx::ir::access_order(in).sem};
}

// The question about a barrier.cluster arrive (release side) or wait (acquire side), an mbarrier arrive-on or
// test_wait / try_wait, or a CTA barrier operation (either side: each arrives, and the waiting ones wait); nullopt
// for any other instruction.
std::optional<PatternQuestion> barrier_question(PatternSide side, const ptx::ir::Instruction& in) {
  const bool release = side == PatternSide::release;
  if (ptx::ir::cta_barrier_operands(in))
    return PatternQuestion{side, false, Opcode::bar_, MemorySemantics::weak, in.q.has(ptx::ir::Flag::arrive)};
  const MemorySemantics stated = in.q.semantics.value_or(MemorySemantics::weak);
  if (ptx::ir::is_cluster_barrier(in)) {
    if (in.q.has(ptx::ir::Flag::arrive) != release) return std::nullopt;
    return PatternQuestion{side, false, Opcode::barrier_, stated};
  }
  if (ptx::ir::mbarrier_op(in) != (release ? ptx::ir::MbarrierOp::arrive : ptx::ir::MbarrierOp::wait)) return std::nullopt;
  return PatternQuestion{side, false, Opcode::mbarrier_, stated};
}

}  // namespace

bool barrier_arrive_releases(const ptx::ir::Instruction& in) {
  const auto q = barrier_question(PatternSide::release, in);
  return q && answer(*q);
}

bool barrier_wait_acquires(const ptx::ir::Instruction& in) {
  const auto q = barrier_question(PatternSide::acquire, in);
  return q && answer(*q);
}

bool release_fence(MemorySemantics sem) { return answer(fence_question(PatternSide::release, sem)); }
bool acquire_fence(MemorySemantics sem) { return answer(fence_question(PatternSide::acquire, sem)); }

bool release_operation(const ptx::ir::Instruction& in) {
  if (in.op == Opcode::ld_ || in.op == Opcode::ldu_) return false;  // writes nothing
  return answer(operation_question(PatternSide::release, in));
}

bool acquire_operation(const ptx::ir::Instruction& in) {
  // A red returns nothing a thread could wait on, so no message-passing test asks about it; ptx.cat says the same
  // (acquire-pattern excludes RED, 8.8's last note).
  if (in.op == Opcode::red_ || in.op == Opcode::st_) return false;
  return answer(operation_question(PatternSide::acquire, in));
}

std::string model_rules_problem() {
  Answers& a = answers();
  std::lock_guard<std::mutex> lock(a.mutex);
  return a.problem;
}

}  // namespace ptxcheck::race
