// Facts a pair of accesses needs in a kernel's pair check (kernel_check.hpp): atomic counters' disjoint ranges,
// claims, and read consistency within a thread.
#include "checker/race/kernel_check.hpp"
#include "semantics/ops/memory_access.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

namespace {

// Instructions a thread may pass between two of its loads of one location without the second possibly
// reading another value than the first: no write of its own, and nothing that could order another thread's
// write between them (a barrier, a fence, a strong load that may acquire, a warp-synchronizing operation).
bool keeps_loaded_values(const ptx::ir::Instruction& in) {
  using MS = ptx::ir::MemorySemantics;
  switch (in.op) {
    case Opcode::ld_: case Opcode::ldu_: return !in.q.semantics || *in.q.semantics == MS::weak;
    case Opcode::bar_: case Opcode::barrier_: case Opcode::membar_: case Opcode::fence_: case Opcode::shfl_:
    case Opcode::vote_: case Opcode::match_: case Opcode::redux_: case Opcode::elect_: case Opcode::discard_:
    case Opcode::griddepcontrol_: case Opcode::activemask_:
      return false;
    default: return register_only(in.op);
  }
}

// Read consistency within a thread: pairs (i, j) of weak scalar loads of one type where j follows i in the same
// iteration of every enclosing loop (reachable without a back edge) and every instruction on every path between
// them keeps loaded values (above). When both read one location, they return the same value: a write by another
// thread that one of them sees and the other does not would be unordered with one of them (nothing on the path
// orders it in between), a data race that the check reports on its own (ISA 8.7.1; the Causality axiom of 8.10
// makes a race-free load read the latest write ordered before it).
std::set<std::pair<std::uint32_t, std::uint32_t>> consistent_loads(const ptx::ir::Function& f, const Analysis& an) {
  const Cfg& g = an.g;
  const std::uint32_t n = static_cast<std::uint32_t>(f.body.size());
  std::vector<std::uint32_t> loads;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& in = f.body[i];
    const auto m = ptx::ops::memory_access(in);  // a load whose d is one scalar register
    if (m && m->kind == ptx::ops::AccessKind::load && keeps_loaded_values(in) && m->result_register(in) >= 0) loads.push_back(i);
  }
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  if (loads.size() < 2 || loads.size() > 512) return out;  // past 512 loads the pairs cost more than they give
  // Instruction-level reachability without back edges, forwards from and backwards to each load, as bit sets.
  const std::size_t words = (n + 63) / 64;
  using Bits = std::vector<std::uint64_t>;
  auto next = [&](std::uint32_t i, bool forward, auto&& visit) {
    for (auto k : forward ? next_instructions(g, i, true) : previous_instructions(g, i, true)) visit(k);
  };
  auto has = [](const Bits& x, std::uint32_t k) { return (x[k / 64] >> (k % 64)) & 1; };
  auto reach = [&](std::uint32_t from, bool forward) {
    Bits seen(words, 0);
    std::vector<std::uint32_t> stack;
    next(from, forward, [&](std::uint32_t k) { stack.push_back(k); });
    while (!stack.empty()) {
      auto k = stack.back();
      stack.pop_back();
      if (has(seen, k)) continue;
      seen[k / 64] |= std::uint64_t{1} << (k % 64);
      next(k, forward, [&](std::uint32_t x) { if (!has(seen, x)) stack.push_back(x); });
    }
    return seen;
  };
  Bits blocking(words, 0);
  for (std::uint32_t k = 0; k < n; ++k)
    if (!keeps_loaded_values(f.body[k])) blocking[k / 64] |= std::uint64_t{1} << (k % 64);
  std::vector<Bits> fwd, bwd;
  for (auto i : loads) { fwd.push_back(reach(i, true)); bwd.push_back(reach(i, false)); }
  for (std::size_t a = 0; a < loads.size(); ++a)
    for (std::size_t b = 0; b < loads.size(); ++b) {
      const auto i = loads[a], j = loads[b];
      if (a == b || !has(fwd[a], j)) continue;
      const auto &li = f.body[i], &lj = f.body[j];
      if (li.q.types != lj.q.types || li.q.space != lj.q.space) continue;
      bool clean = true;  // j itself keeps loaded values (a weak load)
      for (std::size_t w = 0; w < words && clean; ++w) clean = (fwd[a][w] & bwd[b][w] & blocking[w]) == 0;
      if (clean) out.insert({i, j});
    }
  return out;
}

// The constants an access's address and path condition are built from.
std::unordered_set<unsigned> constants_of_access(const Access& x) {
  auto ids = constants_of(x.addr);
  ids.merge(constants_of(x.pc));
  return ids;
}

}  // namespace

// Counters (encode.hpp CounterRead): two morally strong adds of distinct threads to one location take disjoint
// ranges [ret, ret + amount) when every write that may reach the location is an add of a non-negative amount
// (below half the type's range, for every thread: a larger one would be a decrement).
bool KernelCheck::non_negative_amount(const Access& a) {
  const auto& in = f.body[a.instr];
  if (positive_add(in)) return true;
  auto amount = T1.add_amounts.find(a.instr);
  if (!integer_add(in) || amount == T1.add_amounts.end()) return false;
  const unsigned w = amount->second.get_sort().bv_size();
  const auto [r, model, why] = check(!z3::ult(amount->second, c.bv_val(std::uint64_t{1} << (w - 1), w)));
  return r == z3::unsat;
}

// Where a counter's adds take disjoint ranges: `everywhere` when every write that may reach its allocation is an
// add of a non-negative amount; `within_cta` when the allocation is shared memory, its adds are outside loops (each
// runs once, in one barrier interval of the CTA) and each of its other writes (a reset `if (threadIdx.x == 0) n = 0;`)
// shares no barrier interval with any of them: the CTA's barriers order each such write before or after every add
// (ISA 8.9.4 item 2, 8.10 Coherence), so between two adds only adds reach it.
KernelCheck::CounterReach KernelCheck::only_incremented(const CounterRead& cr) {
  if (cr.object < 0) return CounterReach::none;
  std::vector<std::uint32_t> adds, others;
  for (const auto& a : T1.accesses) {
    if (!a.write) continue;
    const bool may_alias_space = a.space == Space::unknown || a.space == prep.objects[static_cast<std::size_t>(cr.object)].space;
    if (a.object != cr.object && !(a.object < 0 && may_alias_space)) continue;
    if (!amount_ok.count(a.instr)) amount_ok[a.instr] = non_negative_amount(a);
    (amount_ok[a.instr] ? adds : others).push_back(a.instr);
  }
  if (others.empty()) return CounterReach::everywhere;
  if (prep.objects[static_cast<std::size_t>(cr.object)].space != Space::shared) return CounterReach::none;
  for (auto x : adds)
    if (!loops_around(prep.cfg, x).empty()) return CounterReach::none;
  for (auto w : others)
    for (auto x : adds)
      if (an.same_interval(w, x)) return CounterReach::none;
  return CounterReach::within_cta;
}

KernelCheck::CounterReach KernelCheck::counter_ok(const CounterRead& cr) {
  if (!counter_reach.count(cr.object)) counter_reach[cr.object] = only_incremented(cr);
  return counter_reach[cr.object];
}

// Claims (`if (atomicCAS(&visited[v], 0, 1) == 0)`): when every write that may reach an allocation is an atom.cas
// of one constant compare value E whose new value is never E, a location holds E at most until the first CAS that
// reads it, so two morally strong CASes of distinct threads do not both return E (ISA 8.10 Atomicity). The
// allocation's E, or nullopt.
std::optional<z3::expr> KernelCheck::claimed_once(int object) {
  if (object < 0) return std::nullopt;
  if (auto it = claim_value.find(object); it != claim_value.end()) return it->second;
  std::optional<z3::expr> e;
  bool ok = true;
  for (const auto& a : T1.accesses) {
    if (!a.write || !ok) continue;
    const bool may_alias_space = a.space == Space::unknown || a.space == prep.objects[static_cast<std::size_t>(object)].space;
    if (a.object != object && !(a.object < 0 && may_alias_space)) continue;
    bool found = false;
    for (const auto& u : T1.updates) {
      if (u.instr != a.instr) continue;
      found = true;
      const std::optional<z3::expr> compare = u.compare ? std::optional(u.compare->simplify()) : std::nullopt;
      if (!compare || !compare->is_numeral() || (e && !z3::eq(*e, *compare))) { ok = false; break; }
      e = *compare;
      const auto [r, model, why] = check(*u.swap == *u.compare);
      if (r != z3::unsat) { ok = false; break; }
    }
    ok = ok && found;
  }
  if (!ok) e.reset();
  return claim_value.emplace(object, e).first->second;
}

// The two adds (of distinct threads) took disjoint ranges, when both ran on one counter with scopes that include
// each other (ISA 8.6 morally strong). Widened by one bit: the counter does not wrap around, not even in the
// last add (ret + amount <= 2^w).
z3::expr KernelCheck::disjoint_ranges(const CounterRead& x, const CounterRead& y, CounterReach reach) {
  const unsigned w = x.ret.get_sort().bv_size();
  auto end = [&](const CounterRead& r) { return z3::zext(r.ret, 1) + z3::zext(r.inc, 1); };
  const z3::expr top = z3::shl(c.bv_val(1, w + 1), c.bv_val(w, w + 1));  // 2^w
  counters_assumed = true;
  const z3::expr where = reach == CounterReach::within_cta ? same_cta : c.bool_val(true);
  return z3::implies(where && x.pc && y.pc && x.addr == y.addr && includes(x.scope) && includes(y.scope),
                     z3::ule(end(x), top) && z3::ule(end(y), top) &&
                         (z3::ule(end(x), z3::zext(y.ret, 1)) || z3::ule(end(y), z3::zext(x.ret, 1))));
}

// The counter facts a pair of accesses needs: those of the counter reads their addresses or their paths are
// computed from (a slot `out[atomicAdd(n, 1)]`, a leader `if (atomicAdd(n, 1) == 0)`); fewer facts only admit
// more executions, so leaving the others out is sound, and much faster.
z3::expr KernelCheck::counter_facts(const Access& a, const Access& b) {
  z3::expr facts = c.bool_val(true);
  if (T1.counters.empty()) return facts;
  const auto in_a = constants_of_access(a), in_b = constants_of_access(b);
  for (const auto& c1 : T1.counters) {
    const CounterReach reach = in_a.count(c1.ret.id()) ? counter_ok(c1) : CounterReach::none;
    if (reach == CounterReach::none) continue;
    for (const auto& c2 : T2.counters) {
      if (c1.object != c2.object || c1.ret.get_sort().bv_size() != c2.ret.get_sort().bv_size() || !in_b.count(c2.ret.id())) continue;
      facts = facts && disjoint_ranges(c1, c2, reach);
    }
  }
  return facts;
}

// The claim facts a pair of accesses needs (claimed_once): those of the CASes whose results their addresses or
// paths are computed from.
z3::expr KernelCheck::claim_facts(const Access& a, const Access& b) {
  z3::expr facts = c.bool_val(true);
  if (T1.updates.empty()) return facts;
  const auto in_a = constants_of_access(a), in_b = constants_of_access(b);
  for (const auto& u1 : T1.updates) {
    if (!u1.compare || !in_a.count(u1.ret.id())) continue;
    const auto e = claimed_once(u1.object);
    if (!e) continue;
    for (const auto& u2 : T2.updates) {
      if (u2.object != u1.object || !u2.compare || !in_b.count(u2.ret.id()) || u2.ret.get_sort().bv_size() != e->get_sort().bv_size()) continue;
      claims_used = true;
      facts = facts && z3::implies(u1.pc && u2.pc && u1.addr == u2.addr && includes(u1.scope) && includes(u2.scope),
                                   !(u1.ret == *e && u2.ret == *e));
    }
  }
  return facts;
}

void KernelCheck::add_writer_counter_facts() {
  // The adds behind two forwarded values (encode.hpp writer_counters) are distinct operations, of distinct threads
  // or one thread's two, ordered by program order (8.10 Coherence), unless they are one add instruction forwarded
  // by one instruction in one CTA and instance.
  for (const auto& w1 : T1.writer_counters)
    for (const auto& w2 : T2.writer_counters) {
      const CounterRead &r1 = w1.read, &r2 = w2.read;
      if (r1.object != r2.object || r1.ret.get_sort().bv_size() != r2.ret.get_sort().bv_size()) continue;
      const CounterReach reach = counter_ok(r1);
      if (reach == CounterReach::none) continue;
      if (r1.instr != r2.instr) {
        s.add(disjoint_ranges(r1, r2, reach));
        continue;
      }
      if (w1.via != w2.via) continue;
      z3::expr same_instance = same_cta;
      for (std::size_t i = 0; i < w1.instance.size(); ++i) same_instance = same_instance && w1.instance[i] == w2.instance[i];
      s.add(z3::implies(!same_instance, disjoint_ranges(r1, r2, reach)));
    }
}

KernelCheck::Loads KernelCheck::index_loads(const ThreadEncoding& t) {
  Loads l;
  for (const auto& x : t.accesses) {
    if (!x.value) continue;
    l.by_value[x.value->id()] = &x;
    auto& d = l.deps[&x];
    for (const z3::expr& e : {x.addr, x.pc}) for (unsigned id : constants_of(e)) d.insert(id);
  }
  return l;
}

// Read consistency within a thread (consistent_loads): the facts a pair of accesses needs, for the loads whose
// values its addresses and conditions are computed from, transitively. Fewer facts only admit more executions.
// Computed when a pair first needs them (most kernels have no racy-looking pair).
// The facts a pair of accesses needs, for the loads of both threads; `roots`: the constants of the pair's
// addresses and conditions (pair_constants).
z3::expr KernelCheck::load_facts(const std::vector<unsigned>& roots) {
  z3::expr facts = c.bool_val(true);
  if (!consistent) {
    consistent = consistent_loads(f, an);
    if (!consistent->empty()) { loads1 = index_loads(T1); loads2 = index_loads(T2); }
  }
  if (loads1.by_value.empty()) return facts;
  for (const Loads* l : {&loads1, &loads2}) {
    std::vector<unsigned> todo = roots;
    std::unordered_set<unsigned> seen;
    std::map<std::uint32_t, const Access*> used;  // instruction -> load whose value the pair depends on
    while (!todo.empty()) {
      unsigned id = todo.back();
      todo.pop_back();
      if (!seen.insert(id).second) continue;
      auto it = l->by_value.find(id);
      if (it == l->by_value.end()) continue;
      used[it->second->instr] = it->second;
      for (unsigned d : l->deps.at(it->second)) todo.push_back(d);
    }
    for (const auto& [i, j] : *consistent) {
      auto x = used.find(i), y = used.find(j);
      if (x == used.end() || y == used.end()) continue;
      const Access &p = *x->second, &q = *y->second;
      if (p.value->get_sort().bv_size() != q.value->get_sort().bv_size()) continue;
      facts = facts && z3::implies(p.pc && q.pc && p.addr == q.addr, *p.value == *q.value);
    }
  }
  return facts;
}

}  // namespace ptxcheck::race
