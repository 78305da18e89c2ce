// Theorems about the race checker's own encodings (checker/race): exhaustive over bit-vector addresses and sizes.
#include "checker/race/difference.hpp"
#include "checker/race/overlap.hpp"
#include "checker/race/recurrence.hpp"
#include "checker/race/ticket_count.hpp"
#include "proofs/families.hpp"
#include "proofs/solver.hpp"

#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

namespace ptxcheck::proofs {
namespace {

// Several claims of one theorem proved one by one: the times summed, the first claim that is not proved named.
struct ProofTally {
  ProofResult total{Verdict::proved, "", 0};
  void add(const std::string& what, const ProofResult& r) {
    total.seconds += r.seconds;
    if (r.verdict != Verdict::proved && total.verdict == Verdict::proved) total = {r.verdict, what + ": " + r.detail, total.seconds};
  }
};

// race::accesses_overlap against the definition, ISA 8.7.1 "overlapping": some byte x with a <= x < a + sa and
// b <= x < b + sb. With both ranges inside the address space (no wrap-around), that is a < b + sb and b < a + sa.
ProofResult overlap_is_shared_byte(const Budget& budget) {
  z3::context ctx;
  const z3::expr a = ctx.bv_const("a", 64), b = ctx.bv_const("b", 64);
  const z3::expr sa = ctx.bv_const("sa", 64), sb = ctx.bv_const("sb", 64);
  const z3::expr one = ctx.bv_val(1, 64), max_size = ctx.bv_val(1u << 16, 64);
  const z3::expr sizes = z3::uge(sa, one) && z3::ule(sa, max_size) && z3::uge(sb, one) && z3::ule(sb, max_size);
  const z3::expr no_wrap = z3::ule(a, a + sa) && z3::ule(b, b + sb);
  const z3::expr share_a_byte = z3::ult(a, b + sb) && z3::ult(b, a + sa);
  return prove_valid(ctx, z3::implies(sizes && no_wrap, race::accesses_overlap(a, sa, b, sb) == share_a_byte), budget,
                     {{"a", a}, {"size of a", sa}, {"b", b}, {"size of b", sb}});
}

// The closed forms of checker/race/recurrence.hpp equal the step applied k times, for every k, by induction on k:
// form(x, 0) = x, and form(x, k + 1) = step(form(x, k)) for every x and every k below 2^64 - 1 (k + 1 does not wrap).
// Shifts: shl, shr.u, shr.s by c = 1, 2, 3, 7 at widths 8, 16, 32, 64; involutions: x -> d - x and x -> x ^ d for
// every d, at the same widths.
ProofResult loop_recurrence_closed_forms(const Budget& budget) {
  ProofTally tally;
  auto check = [&](z3::context& ctx, const std::string& what, const std::function<z3::expr(const z3::expr&, const z3::expr&)>& form,
                   const std::function<z3::expr(const z3::expr&)>& step, const z3::expr& x, std::vector<std::pair<std::string, z3::expr>> inputs) {
    const z3::expr k = ctx.bv_const("k", 64);
    const z3::expr base = form(x, ctx.bv_val(0, 64)) == x;
    const z3::expr induction = z3::implies(k != ctx.bv_val(~std::uint64_t{0}, 64), form(x, k + ctx.bv_val(1, 64)) == step(form(x, k)));
    inputs.emplace_back("k", k);
    tally.add(what, prove_valid(ctx, base && induction, budget, inputs));
  };
  for (unsigned w : {8u, 16u, 32u, 64u}) {
    z3::context ctx;
    const z3::expr x = ctx.bv_const("x", w), d = ctx.bv_const("d", w);
    for (auto kind : {race::ShiftKind::left, race::ShiftKind::logical_right, race::ShiftKind::arithmetic_right})
      for (unsigned c : {1u, 2u, 3u, 7u}) {
        const std::string what = std::to_string(w) + "-bit shift " + std::to_string(static_cast<int>(kind)) + " by " + std::to_string(c);
        check(ctx, what, [&](const z3::expr& v, const z3::expr& k) { return race::repeated_shift(kind, v, c, k); },
              [&](const z3::expr& v) { return race::shift_step(kind, v, c); }, x, {{"x", x}});
      }
    const std::vector<std::pair<std::string, std::function<z3::expr(const z3::expr&)>>> involutions{
        {"d - x", [&](const z3::expr& v) { return d - v; }}, {"x ^ d", [&](const z3::expr& v) { return v ^ d; }}};
    for (const auto& [name, g] : involutions)
      check(ctx, std::to_string(w) + "-bit " + name, [&](const z3::expr& v, const z3::expr& k) { return race::repeated_involution(v, g(v), k); }, g, x,
            {{"x", x}, {"d", d}});
  }
  // Rotations of p = 2, 3, 4 registers: register i after k + 1 steps is register i + 1 after k steps (the back edge
  // copies it), and after 0 steps its own entry value.
  for (unsigned p : {2u, 3u, 4u}) {
    z3::context ctx;
    std::vector<z3::expr> inits;
    std::vector<std::pair<std::string, z3::expr>> inputs;
    for (unsigned i = 0; i < p; ++i) {
      inits.push_back(ctx.bv_const(("r" + std::to_string(i)).c_str(), 32));
      inputs.emplace_back("r" + std::to_string(i), inits.back());
    }
    auto from = [&](unsigned i) {  // the entry values in cycle order starting at register i
      std::vector<z3::expr> v;
      for (unsigned j = 0; j < p; ++j) v.push_back(inits[(i + j) % p]);
      return v;
    };
    const z3::expr k = ctx.bv_const("k", 64);
    z3::expr claim = ctx.bool_val(true);
    for (unsigned i = 0; i < p; ++i)
      claim = claim && race::rotated(from(i), ctx.bv_val(0, 64)) == inits[i] &&
              z3::implies(k != ctx.bv_val(~std::uint64_t{0}, 64), race::rotated(from(i), k + ctx.bv_val(1, 64)) == race::rotated(from((i + 1) % p), k));
    inputs.emplace_back("k", k);
    tally.add("rotation of " + std::to_string(p), prove_valid(ctx, claim, budget, inputs));
  }
  if (tally.total.verdict == Verdict::proved) tally.total.detail = "56 shifts and involutions, rotations of 2 to 4 registers: base case and induction step";
  return tally.total;
}

// The rules of checker/race/difference.hpp: an extension's difference is the extended narrow difference with the
// wrap-around added back, and product_facts hold of the real product n * d.
ProofResult factored_difference_rules(const Budget& budget) {
  ProofTally tally;
  auto check = [&](z3::context& ctx, const std::string& what, const z3::expr& claim, const std::vector<std::pair<std::string, z3::expr>>& inputs) {
    tally.add(what, prove_valid(ctx, claim, budget, inputs));
  };
  for (auto [w, extra] : {std::pair{8u, 8u}, {16u, 16u}, {32u, 32u}, {32u, 1u}, {16u, 48u}}) {
    z3::context ctx;
    const z3::expr x = ctx.bv_const("x", w), y = ctx.bv_const("y", w), d = x - y;
    const std::string at = std::to_string(w) + " to " + std::to_string(w + extra) + " bits";
    check(ctx, "sign extension " + at, z3::sext(x, extra) - z3::sext(y, extra) == race::sign_extended_difference(x, y, d, extra), {{"x", x}, {"y", y}});
    check(ctx, "zero extension " + at, z3::zext(x, extra) - z3::zext(y, extra) == race::zero_extended_difference(x, y, d, extra), {{"x", x}, {"y", y}});
  }
  for (auto [high, low] : {std::pair{30u, 2u}, {8u, 8u}, {62u, 2u}, {1u, 31u}}) {
    z3::context ctx;
    const z3::expr h1 = ctx.bv_const("h1", high), h2 = ctx.bv_const("h2", high), l1 = ctx.bv_const("l1", low), l2 = ctx.bv_const("l2", low);
    const z3::expr x = z3::concat(h1, l1), y = z3::concat(h2, l2);
    check(ctx, "concatenation of " + std::to_string(high) + " and " + std::to_string(low) + " bits",
          x - y == race::concatenation_difference(x, y, h1 - h2, l1 - l2), {{"h1", h1}, {"l1", l1}, {"h2", h2}, {"l2", l2}});
  }
  // Each product fact on its own (together they are beyond bit-blasting at 64 bits). A negative case, d < 0, from
  // the positive case at -d (proved for every d just before it), the ring identity n * (-d) = -(n * d) (Z3's
  // simplifier normalises both sides to one term) and a plain bit-vector step, as one implication.
  for (unsigned w : {8u, 16u, 32u, 64u}) {
    z3::context ctx;
    const z3::expr n = ctx.bv_const("n", w), d = ctx.bv_const("d", w);
    const std::vector<z3::expr> facts = race::product_facts(n, d, n * d), negated = race::product_facts(n, -d, n * -d);
    const std::string at = " at " + std::to_string(w) + " bits";
    check(ctx, "ring identity" + at, n * -d == -(n * d), {{"n", n}, {"d", d}});
    for (std::size_t i = 0; i < facts.size(); ++i) {
      const bool negative_case = i > 0 && i % 2 == 0;
      const z3::expr claim = negative_case ? z3::implies(negated[i - 1] && n * -d == -(n * d), facts[i]) : facts[i];
      check(ctx, "product fact " + std::to_string(i) + at, claim, {{"n", n}, {"d", d}});
    }
  }
  if (tally.total.verdict == Verdict::proved) tally.total.detail = "extensions 8-16, 16-32, 32-64, 32-33, 16-64 bits; 4 concatenations; product facts at 8, 16, 32, 64 bits";
  return tally.total;
}

// The counting half of the last-block ticket (checker/race/ticket_count.hpp, the functions check_tickets.cpp asks
// and assumes with), on every coherence order of the N runs of T (one per CTA) and at most one other write, a reset,
// at any place among them: each run reads the value of the write before it (8.10 Atomicity: the runs are morally
// strong RMWs), writes as ticket_adds_one requires, and the reset comes after a run that read the last count
// (tickets.hpp: every other write follows the last CTA's T). Then the runs read distinct counts, each below N, the
// N-th run reads the last count and no other run does: every other CTA's run precedes it in coherence order.
ProofResult ticket_counts_last_block(const Budget& budget) {
  ProofTally tally;
  for (unsigned w : {8u, 16u, 32u, 64u})
    for (unsigned n = 2; n <= 6; ++n)
      for (unsigned reset = 0; reset <= n + 1; ++reset) {  // the reset's place among the writes; n + 1: none
        z3::context ctx;
        const z3::expr initial = ctx.bv_const("initial", w), ctas = ctx.bv_val(n, 64);
        std::vector<std::pair<std::string, z3::expr>> inputs{{"initial", initial}};
        std::vector<z3::expr> reads;  // the runs' read values, in coherence order
        z3::expr premises = ctx.bool_val(true), latest = initial;  // the value of the latest write
        for (unsigned place = 0, run = 0; run < n || place == reset; ++place) {
          if (place == reset) {
            z3::expr after_last = ctx.bool_val(false);
            for (const z3::expr& r : reads) after_last = after_last || race::ticket_reads_last(r, initial, ctas);
            premises = premises && after_last;
            latest = ctx.bv_const("reset", w);
            inputs.emplace_back("reset value", latest);
            continue;
          }
          const z3::expr written = ctx.bv_const(("written" + std::to_string(run)).c_str(), w);
          inputs.emplace_back("run " + std::to_string(run) + " wrote", written);
          premises = premises && race::ticket_adds_one(latest, written, initial, ctas);
          reads.push_back(latest);
          latest = written;
          ++run;
        }
        z3::expr claim = ctx.bool_val(true);
        for (unsigned i = 0; i < n; ++i) {
          const z3::expr count = race::ticket_increments_before(reads[i], initial);
          claim = claim && z3::ult(count, ctas) && (race::ticket_reads_last(reads[i], initial, ctas) == ctx.bool_val(i == n - 1));
          for (unsigned j = i + 1; j < n; ++j) claim = claim && count != race::ticket_increments_before(reads[j], initial);
        }
        const std::string what = fmt::format("{}-bit counter, {} CTAs, reset {}", w, n, reset <= n ? "at place " + std::to_string(reset) : "none");
        tally.add(what, prove_valid(ctx, z3::implies(premises, claim), budget, inputs));
      }
  if (tally.total.verdict == Verdict::proved) tally.total.detail = "8, 16, 32, 64-bit counters, 2 to 6 CTAs, every place of one reset or none: 120 chains";
  return tally.total;
}

}  // namespace

std::vector<Theorem> race_theorems() {
  return {
      {"race.overlap_is_shared_byte",
       "the race checker's overlap test on the address difference (checker/race/overlap.hpp) holds exactly when the "
       "two accesses share a byte (ISA 8.7.1, overlapping accesses)",
       "all 64-bit addresses, sizes 1 to 65536 bytes, ranges without wrap-around (exhaustive over bit-vectors)",
       overlap_is_shared_byte},
      {"race.loop_recurrence_closed_forms",
       "the race checker's closed forms of loop registers (checker/race/recurrence.hpp) are the step applied k times: a "
       "shift by a constant (shl, shr.u, shr.s, ISA 9.7.8.7-8, an amount of the width or more giving 0 or the sign) k "
       "times is one shift by k*c saturated at the width, an involution applied k times is x or g(x) by k's parity, and "
       "registers rotated k times hold the entry values k mod p places along",
       "every x and every 64-bit iteration count k, by induction on k (base case and step); shifts by 1, 2, 3, 7 and the "
       "involutions d - x, x ^ d (every d) at widths 8, 16, 32, 64; rotations of 2 to 4 32-bit registers",
       loop_recurrence_closed_forms},
      {"race.factored_difference_rules",
       "the race checker's factored address difference (checker/race/difference.hpp) is exact: a sign extension's "
       "difference is the extended narrow difference plus 2^w where x - y wraps around upwards and minus 2^w where it "
       "wraps downwards, a zero extension's minus 2^w where x < y, a concatenation's the high parts' difference shifted "
       "plus the low parts' zero-extended one, and what it states of a product n * d (zero for d = 0; at least n, or at most -n, when n and d are small "
       "enough not to wrap) holds of the real product",
       "every x, y at extensions 8 to 16, 16 to 32, 32 to 64, 32 to 33 and 16 to 64 bits; concatenations of 30 and 2, "
       "8 and 8, 62 and 2, 1 and 31 bits; every n, d at widths 8, 16, "
       "32, 64, each fact on its own (a negative case from the positive one at -d and the ring identity)",
       factored_difference_rules},
      {"race.ticket_counts_last_block",
       "the counting half of the race checker's last-block ticket (checker/race/ticket_count.hpp: the count a run of T "
       "read, whether it read the last one, and the add-one condition it must keep) is right: in every coherence order "
       "of N morally strong increments from the location's initial content (8.10 Atomicity), with the other writes only "
       "after a run that read the last count, the runs read distinct counts below N, and exactly the N-th, the one "
       "every other CTA's run precedes, reads N - 1 (the lemma a finite litmus environment cannot express, issue 33)",
       "8-, 16-, 32- and 64-bit counters, every initial content and written value, 2 to 6 CTAs, one reset at each place "
       "or none (120 chains, exhaustive over bit-vectors)",
       ticket_counts_last_block},
      pipeline_phases_order_theorem(),
  };
}

}  // namespace ptxcheck::proofs
