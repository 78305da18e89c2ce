// The litmus engine's mbarrier state value (litmus/build/mbarrier_counter.hpp) against ISA 9.7.13.15 worked by
// hand: each state decodes back to itself, a program without tx-count keeps the arrival count, and each operation
// changes the state as 9.7.13.15.5-.7 say, the phase completing exactly when pending arrivals and tx-count are
// both zero (9.7.13.15.6). Then the traces built on it: an operation undefined for a candidate value ends its
// trace, marked, and changes the answer only when a consistent execution reaches it.
#include "litmus/build/mbarrier_counter.hpp"
#include "litmus/build/threads.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace ptxcheck::litmus;

namespace {
MbarrierState state(std::int64_t phase, std::int64_t arrived, std::int64_t tx) { return {phase, arrived, tx}; }
void check_state(std::int64_t value, std::int64_t n, const MbarrierState& want) {
  const MbarrierState got = decode_mbarrier(value, n);
  CHECK(got.phase == want.phase);
  CHECK(got.arrived == want.arrived);
  CHECK(got.tx == want.tx);
}
std::int64_t after(std::int64_t value, std::int64_t n, MbarrierChange c) {
  std::string why;
  const auto v = mbarrier_after(value, n, c, why);
  INFO(why);
  REQUIRE(v.has_value());
  return *v;
}
}  // namespace

TEST_CASE("every state decodes back to itself, the full one apart from the next phase's start") {
  for (std::int64_t n : {1, 2, 3, (1 << 20) - 1})
    for (std::int64_t phase : {0, 1, 5})
      for (std::int64_t arrived = 0; arrived <= std::min<std::int64_t>(n, 3); ++arrived)
        for (std::int64_t tx : {-((1 << 20) - 1), -16, -1, 0, 1, 16, (1 << 20) - 1}) {
          if (arrived == n && tx == 0) continue;  // not a state: the phase would have completed (9.7.13.15.6)
          CAPTURE(n);
          CAPTURE(phase);
          CAPTURE(arrived);
          CAPTURE(tx);
          check_state(encode_mbarrier(state(phase, arrived, tx), n), n, state(phase, arrived, tx));
        }
  // (phase 0, all arrived, tx 16) and (phase 1, none arrived, tx 16) are different values.
  CHECK(encode_mbarrier(state(0, 2, 16), 2) != encode_mbarrier(state(1, 0, 16), 2));
}

TEST_CASE("without tx-count the value is the number of arrivals since the init") {
  std::int64_t v = 0;  // mbarrier.init writes 0
  for (int k = 1; k <= 7; ++k) {
    v = after(v, 3, {0, 0, 1});
    CHECK(v == k);
    check_state(v, 3, state(k / 3, k % 3, 0));  // phase = arrivals / N, pending = N - arrivals mod N
  }
}

TEST_CASE("a phase completes when the pending arrivals and tx-count are both zero") {
  const std::int64_t n = 1;
  // arrive.expect_tx 16 (expect-tx first, then an arrive-on of 1, 9.7.13.15.13): all arrived, tx 16, phase 0 open.
  std::int64_t v = after(0, n, {16, 0, 1});
  check_state(v, n, state(0, 1, 16));
  // complete-tx of 8: tx 8, still open; of the other 8: tx 0, phase 1 with the count reinitialised.
  v = after(v, n, {0, 8, 0});
  check_state(v, n, state(0, 1, 8));
  v = after(v, n, {0, 8, 0});
  check_state(v, n, state(1, 0, 0));
  CHECK(v == 1);
  // complete-tx before expect-tx: tx -16 (9.7.13.15.2 allows down to -(2^20 - 1)), the arrival completes it.
  v = after(v, n, {0, 16, 0});
  check_state(v, n, state(1, 0, -16));
  v = after(v, n, {16, 0, 1});
  check_state(v, n, state(2, 0, 0));
  // Two expected arrivals: expect-tx alone never completes a phase while one is pending.
  std::int64_t w = after(0, 2, {32, 0, 0});
  w = after(w, 2, {0, 32, 0});
  check_state(w, 2, state(0, 0, 0));
  w = after(w, 2, {0, 0, 1});
  w = after(w, 2, {0, 0, 1});
  check_state(w, 2, state(1, 0, 0));
}

TEST_CASE("undefined or unstated changes are refused with their section") {
  std::string why;
  // An arrive-on with no arrival pending: the pending count would leave [0, 2^20 - 1] (9.7.13.15.2).
  const std::int64_t full = encode_mbarrier(state(0, 1, 16), 1);
  CHECK_FALSE(mbarrier_after(full, 1, {0, 0, 1}, why).has_value());
  CHECK(why.find("9.7.13.15.2") != std::string::npos);
  // tx-count out of range.
  CHECK_FALSE(mbarrier_after(0, 1, {(1 << 20), 0, 0}, why).has_value());
  CHECK(why.find("9.7.13.15.2") != std::string::npos);
  CHECK_FALSE(mbarrier_after(0, 1, {0, (1 << 20), 0}, why).has_value());
  // An expect-tx bringing tx-count to zero with no arrival pending: 9.7.13.15.5.1 states no completion step.
  const std::int64_t waiting = encode_mbarrier(state(0, 1, -16), 1);
  CHECK_FALSE(mbarrier_after(waiting, 1, {16, 0, 0}, why).has_value());
  CHECK(why.find("9.7.13.15.5.1") != std::string::npos);
  // The same tx-count reached by a complete-tx completes the phase (9.7.13.15.5.2).
  const std::int64_t expecting = encode_mbarrier(state(0, 1, 16), 1);
  CHECK(after(expecting, 1, {0, 16, 0}) == 1);
}

namespace {
// P0 expects 16 transactions, then arrives; P1 completes them (examples/litmus/MP-mbarrier-complete-tx-relaxed
// without the data). `tail` follows P0's arrive.
std::string expect_then_arrive(const std::string& tail) {
  return "PTX tx\n{ bar = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
         " mbarrier.init.shared::cta.b64 [bar], 1 | bar.cta.sync 0 ;\n"
         " bar.cta.sync 0 | mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 16 ;\n"
         " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16 | ;\n"
         " mbarrier.arrive.shared::cta.b64 _, [bar] | ;\n" + tail;
}
}  // namespace

TEST_CASE("an expect-tx undefined only for a value no execution gives it leaves the answer alone") {
  const std::string text = expect_then_arrive(" mbarrier.test_wait.parity.shared::cta.b64 p, [bar], 0 | ;\nexists (P0:p == 1)\n");
  std::vector<ptxcheck::Diagnostic> diags;
  const auto test = parse_litmus(text, "tx.litmus", diags);
  REQUIRE(test);
  Program p;
  REQUIRE(build_program(*test, p, diags));
  // Candidate values of bar: 0, P1's complete-tx on it (tx -16), and P0's arrive on that (all arrived, tx -16):
  // P0's expect-tx reading the last would bring tx-count to 0 with no arrival pending (9.7.13.15.5.1, unstated).
  const std::int64_t waiting = encode_mbarrier(state(0, 1, -16), 1);
  std::vector<std::set<std::int64_t>> values(p.pnames.size(), {0});
  values[static_cast<std::size_t>(p.phys_of[p.vloc_of.at("bar")])] = {0, encode_mbarrier(state(0, 0, -16), 1), waiting};
  std::vector<Trace> traces;
  REQUIRE(thread_traces(*test, p, 0, values, 2, traces, diags));
  // Marked: the expect-tx reading it, and the arrive reading it after either other expect-tx (no arrival pending:
  // the pending count would leave its range, 9.7.13.15.2). Each trace ends with the read of that value.
  int expect_marked = 0, arrive_marked = 0;
  for (const auto& tr : traces)
    if (!tr.undefined.empty()) {
      CAPTURE(tr.undefined);
      expect_marked += tr.undefined.find("an expect-tx may bring tx-count to zero with no arrival pending: ISA 9.7.13.15.5.1") != std::string::npos;
      arrive_marked += tr.undefined.find("an arrive count of 1 may exceed the pending count (undefined, ISA 9.7.13.15.2)") != std::string::npos;
      CHECK(tr.events.back().value == waiting);
    }
  CHECK(expect_marked == 1);
  CHECK(arrive_marked == 2);
  // That value is written only by P0's own later arrive: no execution reaches the expect-tx with it. P0's wait
  // sees phase 0 complete when P1's complete-tx comes after the arrive (9.7.13.15.6), and not before it.
  std::vector<std::string> errors;
  const auto model = load_named_model("ptx", errors);
  REQUIRE(model);
  for (auto engine : {Engine::explicit_, Engine::symbolic}) {
    Options o;
    o.engine = engine;
    const Result res = run_test(*test, *model, o);
    CHECK(res.result == "holds");
    CHECK(res.positive > 0);
    CHECK(res.negative > 0);
    for (const auto& st : res.states) CHECK(st.values.size() == 1);  // the marker register is not reported
  }
}

TEST_CASE("an undefined operation a consistent execution reaches makes the answer unknown, naming it") {
  // A second arrive on an object expecting one, in a phase that cannot complete (tx-count 16 pending).
  const std::string text =
      "PTX tx2\n{ bar = 0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [bar], 1 ;\n"
      " mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16 ;\n mbarrier.arrive.shared::cta.b64 _, [bar] ;\n"
      " mbarrier.arrive.shared::cta.b64 _, [bar] ;\nexists (bar == 0)\n";
  std::vector<ptxcheck::Diagnostic> diags;
  const auto test = parse_litmus(text, "tx.litmus", diags);
  REQUIRE(test);
  std::vector<std::string> errors;
  const auto model = load_named_model("ptx", errors);
  REQUIRE(model);
  for (auto engine : {Engine::explicit_, Engine::symbolic}) {
    Options o;
    o.engine = engine;
    const Result res = run_test(*test, *model, o);
    INFO(res.reason);
    CHECK(res.result == "unknown");
    CHECK(res.reason.find("an execution reaches an undefined operation: 'mbarrier.arrive.shared::cta.b64': an arrive count of 1 "
                          "may exceed the pending count (undefined, ISA 9.7.13.15.2)") != std::string::npos);
  }
}
