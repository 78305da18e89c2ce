#include "checker/race/locks.hpp"

#include "checker/race/strength.hpp"
#include "semantics/ops/memory_access.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ptxcheck::race {
namespace {

using ptx::ir::Opcode;
using ptx::ir::Operand;
using OK = Operand::Kind;

// Dataflow levels, per site: kFree (not held / no release write ahead), kHeld (held / a release write ahead);
// kTop: not reached yet (the analyses start there and only go down). Which fences and scopes make the holders'
// accesses ordered is the memory model's answer (check_lock_model.cpp), not a level here.
constexpr std::uint8_t kFree = 0, kHeld = 1, kTop = 2;

// Scopes in inclusion order (8.5: .cta within .cluster within .gpu within .sys).
bool scope_at_least(ptx::ir::Scope s, ptx::ir::Scope need) { return static_cast<int>(s) >= static_cast<int>(need); }

std::uint64_t masked(std::uint64_t v, unsigned bits) { return bits >= 64 ? v : v & ((std::uint64_t{1} << bits) - 1); }

// A lock-taking RMW: the site, its type's width, the branch ending its block and the instruction the branch goes to
// when the RMW returned `unlocked`.
struct Candidate {
  LockSite site;
  unsigned bits = 32;
  std::uint32_t branch = 0, acquired_next = 0;
};

// Which operand is d, b and c, and whether a cache-policy follows them: ops::memory_access.
std::optional<Candidate> lock_site(const ptx::ir::Function& f, const Cfg& g, std::uint32_t i) {
  const auto& in = f.body[i];
  const auto m = ptx::ops::memory_access(in);
  if (!m || m->kind != ptx::ops::AccessKind::read_modify_write || in.guard >= 0 || in.q.types.empty()) return std::nullopt;
  const bool cas = m->swap >= 0;
  if ((!cas && !m->exchanges) || !m->operand_count_matches(in)) return std::nullopt;
  const int result = m->result_register(in);
  if (result < 0) return std::nullopt;
  Candidate c;
  c.site.rmw = i;
  c.bits = m->element_bits;
  auto locked = constant_at(f, g, i, *m->written_value_of(in));  // c of atom.cas, b of atom.exch
  if (!locked) return std::nullopt;
  c.site.locked = masked(*locked, c.bits);
  std::optional<std::uint64_t> unlocked;
  if (cas) {
    auto compared = constant_at(f, g, i, *m->source_of(in));
    if (!compared) return std::nullopt;
    unlocked = masked(*compared, c.bits);
  }
  // The block ends in `@p bra T` with p = (result == K) or (result != K), result and p not rewritten in between.
  const auto& blk = g.blocks[g.block_of[i]];
  c.branch = blk.end - 1;
  const auto& br = f.body[c.branch];
  if (br.op != Opcode::bra_ || br.guard < 0 || c.branch <= i || br.operands.empty() || br.operands[0].target < 0) return std::nullopt;
  enum { unknown, yes, no } taken_when_equal = unknown;
  for (std::uint32_t k = i + 1; k < c.branch; ++k) {
    const auto& s = f.body[k];
    if (writes_register(s, br.guard)) {
      taken_when_equal = unknown;
      if (s.op != Opcode::setp_ || s.guard >= 0 || s.operands.size() != 3 || s.operands[0].kind != OK::Register || !s.q.compare) continue;
      const auto cmp = *s.q.compare;
      if (cmp != ptx::ir::CompareOp::eq && cmp != ptx::ir::CompareOp::ne) continue;
      const Operand *reg = &s.operands[1], *other = &s.operands[2];
      if (!(reg->kind == OK::Register && reg->reg == result && reg->component < 0)) std::swap(reg, other);
      if (!(reg->kind == OK::Register && reg->reg == result && reg->component < 0)) continue;
      auto k_value = constant_at(f, g, k, *other);
      if (!k_value) continue;
      const std::uint64_t kv = masked(*k_value, c.bits);
      if (unlocked && *unlocked != kv) continue;
      if (!unlocked) unlocked = kv;
      taken_when_equal = (cmp == ptx::ir::CompareOp::eq) != br.guard_negated ? yes : no;
    } else if (writes_register(s, result)) {
      return std::nullopt;
    }
  }
  if (taken_when_equal == unknown || !unlocked || *unlocked == c.site.locked) return std::nullopt;
  c.site.unlocked = *unlocked;
  c.acquired_next = taken_when_equal == yes ? static_cast<std::uint32_t>(br.operands[0].target) : c.branch + 1;
  c.site.branch = c.branch;
  c.site.acquired_next = c.acquired_next;
  return c;
}

// The value a scalar plain write stores, or an atom.exch exchanges in: b of st and atom.exch (ops::memory_access;
// not a cache-policy operand after it, ISA 9.7.9.11, 9.7.13.5).
std::optional<std::uint64_t> stored_constant(const ptx::ir::Function& f, const Cfg& g, std::uint32_t i) {
  const auto& in = f.body[i];
  const auto m = ptx::ops::memory_access(in);
  const bool plain = m && !m->asynchronous && (m->kind == ptx::ops::AccessKind::store || m->exchanges);
  if (!plain || m->count > 1 || !m->operand_count_matches(in)) return std::nullopt;
  return constant_at(f, g, i, *m->written_value_of(in));
}

// Step 1: the lock-taking RMWs whose allocation is known (the others are rejected), each marked per-CTA when its
// lock is global and some RMW of it takes it with .cta scope (it can only be a per-CTA one, see locks.hpp).
std::vector<Candidate> lock_candidates(const ptx::ir::Function& f, const Cfg& g, const ThreadEncoding& t, CriticalSections& out) {
  std::vector<Candidate> cands;
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(f.body.size()); ++i)
    if (g.block_of[i] >= 0)
      if (auto c = lock_site(f, g, i)) {
        const Access* a = access_of(t, i);
        if (!a || a->object < 0) { out.rejected.push_back({i, "the lock's allocation is not known"}); continue; }
        c->site.object = a->object;
        c->site.space = a->space;
        cands.push_back(*c);
      }
  std::set<int> cta_scoped_global;
  for (const auto& c : cands)
    if (c.site.space != Space::shared && access_of(t, c.site.rmw)->scope == ptx::ir::Scope::cta) cta_scoped_global.insert(c.site.object);
  for (auto& c : cands) c.site.cta_private = cta_scoped_global.count(c.site.object) > 0;
  return cands;
}

// The scope every lock operation of a site needs (see locks.hpp): .cta for a lock in shared memory or a per-CTA
// one, else .gpu.
ptx::ir::Scope required_scope(const Candidate& c) {
  return c.site.space == Space::shared || c.site.cta_private ? ptx::ir::Scope::cta : ptx::ir::Scope::gpu;
}

// Per site: its release writes.
using Releases = std::vector<std::set<std::uint32_t>>;

// Step 2: the release writes of each site: a strong write of `unlocked`, of the lock's size, to the site's address
// term. `rmw_access`: each site's lock RMW in `t`.
Releases release_writes(const ptx::ir::Function& f, const Cfg& g, const ThreadEncoding& t, const std::vector<Candidate>& cands,
                        const std::vector<const Access*>& rmw_access) {
  Releases release(cands.size());
  for (const auto& a : t.accesses) {
    if (!a.write || !a.strong) continue;
    auto value = stored_constant(f, g, a.instr);
    if (!value) continue;
    for (std::size_t s = 0; s < cands.size(); ++s) {
      const Access& lock = *rmw_access[s];
      if (a.instr == cands[s].site.rmw || a.size != lock.size || masked(*value, cands[s].bits) != cands[s].site.unlocked) continue;
      if (!z3::eq(a.addr, lock.addr)) continue;
      release[s].insert(a.instr);
    }
  }
  return release;
}

// Step 3: the dataflow levels of every site at every instruction, forward (held and acquired on every path to it)
// and backward (released on every path from it).
class LockFlow {
 public:
  using State = std::vector<std::uint8_t>;

  LockFlow(const ptx::ir::Function& f, const Cfg& g, const std::vector<Candidate>& cands, const Releases& release)
      : f_(f), g_(g), cands_(cands), release_(release), n_(static_cast<std::uint32_t>(f.body.size())), S_(cands.size()),
        fwd_(n_, State(S_, kTop)), fwd_seen_(n_, false), bwd_in_(n_, State(S_, kTop)), loop_headers_(S_) {
    // A site's lock address is one term per iteration of the loops around its RMW and releases, so a held lock (or
    // a release ahead) is not carried across the back edge of such a loop: the next iteration's term names another
    // lock.
    for (std::size_t s = 0; s < S_; ++s) {
      std::vector<std::uint32_t> ops{cands_[s].site.rmw};
      for (auto w : release_[s]) ops.push_back(w);
      for (const auto& loop : g_.loops)
        for (auto op : ops)
          if (loop.body.count(g_.block_of[op])) loop_headers_[s].insert(loop.header);
    }
    forward();
    backward();
  }

  // The state before instruction i executes, when some path reaches it.
  const State* before(std::uint32_t i) const { return fwd_seen_[i] ? &fwd_[i] : nullptr; }
  // The state after instruction i executes: on every path from it, a release fence and then a release write of the
  // site's lock; paths that end (ret, exit, trap) without one give kFree.
  State after(std::uint32_t i) const {
    State v(S_, kTop);
    const auto next = next_instructions(g_, i);
    if (next.empty() || ends(f_.body[i])) v.assign(S_, kFree);
    for (auto q : next) {
      State w = bwd_in_[q];
      for (std::size_t s = 0; s < S_; ++s) if (crosses(s, i, q)) w[s] = kFree;
      meet(v, w);
    }
    return v;
  }

 private:
  static void meet(State& into, const State& v) { for (std::size_t s = 0; s < into.size(); ++s) into[s] = std::min(into[s], v[s]); }
  static bool ends(const ptx::ir::Instruction& in) {
    return in.op == Opcode::ret_ || in.op == Opcode::exit_ || in.op == Opcode::trap_ || in.op == Opcode::brx_;
  }
  bool crosses(std::size_t s, std::uint32_t from, std::uint32_t to) const {
    return g_.back.count({g_.block_of[from], g_.block_of[to]}) && loop_headers_[s].count(g_.block_of[to]);
  }

  State forward_after(std::uint32_t i, std::uint32_t next) const {
    State v = fwd_[i];
    for (std::size_t s = 0; s < S_; ++s) {
      if (release_[s].count(i)) v[s] = kFree;
      if (cands_[s].branch == i && cands_[s].acquired_next == next) v[s] = kHeld;
      if (crosses(s, i, next)) v[s] = kFree;
    }
    return v;
  }
  void forward() {
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t i = 0; i < n_; ++i) {
        if (g_.block_of[i] < 0) continue;
        State v(S_, i == 0 ? kFree : kTop);
        bool any = i == 0;
        for (auto q : previous_instructions(g_, i))
          if (fwd_seen_[q]) { meet(v, forward_after(q, i)); any = true; }
        if (!any) continue;
        if (!fwd_seen_[i] || v != fwd_[i]) { fwd_[i] = v; fwd_seen_[i] = true; changed = true; }
      }
    }
  }
  void backward() {
    for (bool changed = true; changed;) {
      changed = false;
      for (std::uint32_t i = n_; i-- > 0;) {
        if (g_.block_of[i] < 0) continue;
        State v = after(i);
        for (std::size_t s = 0; s < S_; ++s)
          if (release_[s].count(i)) v[s] = kHeld;
        if (v != bwd_in_[i]) { bwd_in_[i] = v; changed = true; }
      }
    }
  }

  const ptx::ir::Function& f_;
  const Cfg& g_;
  const std::vector<Candidate>& cands_;
  const Releases& release_;
  std::uint32_t n_;
  std::size_t S_;
  std::vector<State> fwd_;
  std::vector<bool> fwd_seen_;
  std::vector<State> bwd_in_;
  std::vector<std::set<int>> loop_headers_;  // site -> headers of the loops around its RMW or a release
};

// Step 4: the lock discipline, per allocation: every write that may reach it is a site's RMW (same values and size)
// or a release executed while holding that site's lock; every lock operation has the required scope. Returns the
// allocations that break it (one rejection each in `out`).
std::set<int> lock_discipline(const ThreadEncoding& t, const std::vector<Candidate>& cands, const std::vector<const Access*>& rmw_access,
                              const Releases& release, const LockFlow& flow,
                              const std::function<bool(std::uint32_t, std::uint32_t)>& barrier_between, CriticalSections& out) {
  const std::size_t S = cands.size();
  std::set<int> bad_objects;
  auto reject = [&](int object, std::uint32_t instr, const std::string& why) {
    if (bad_objects.insert(object).second) out.rejected.push_back({instr, why});
  };
  std::map<std::uint32_t, bool> release_held;  // release write -> some site of its lock is held before it
  for (std::size_t s = 0; s < S; ++s) {
    if (!scope_at_least(rmw_access[s]->scope, required_scope(cands[s])))
      reject(cands[s].site.object, cands[s].site.rmw, "the lock RMW's scope does not include every thread that may take the lock");
    for (auto w : release[s]) {
      const LockFlow::State* held = flow.before(w);
      release_held[w] = release_held[w] || (held && (*held)[s] >= kHeld && (*held)[s] != kTop);
    }
  }
  for (const auto& [w, held] : release_held)
    if (!held)
      for (std::size_t s = 0; s < S; ++s)
        if (release[s].count(w)) reject(cands[s].site.object, w, "a write of the unlocked value may be executed without holding the lock");
  for (const auto& a : t.accesses) {
    if (!a.write) continue;
    for (std::size_t s = 0; s < S; ++s) {
      const auto& c = cands[s];
      const bool may_reach = a.object == c.site.object || (a.object < 0 && (a.space == Space::unknown || a.space == c.site.space));
      if (!may_reach) continue;
      bool protocol = false;
      for (std::size_t r = 0; r < S && !protocol; ++r) {
        const auto& o = cands[r];
        if (o.site.object != c.site.object) continue;
        if (a.instr == o.site.rmw)
          protocol = o.site.unlocked == c.site.unlocked && o.site.locked == c.site.locked && a.size == rmw_access[s]->size;
        else if (release[r].count(a.instr))
          protocol = scope_at_least(a.scope, required_scope(o)) && o.site.unlocked == c.site.unlocked;
      }
      if (!protocol && c.site.space == Space::shared) {
        protocol = true;  // an initialisation or reset that barriers keep apart from every lock operation
        for (std::size_t r = 0; r < S && protocol; ++r) {
          if (cands[r].site.object != c.site.object) continue;
          protocol = barrier_between(a.instr, cands[r].site.rmw);
          for (auto w : release[r]) protocol = protocol && barrier_between(a.instr, w);
        }
      }
      if (!protocol) reject(c.site.object, a.instr, "a write that is no lock operation may reach the lock");
    }
  }
  return bad_objects;
}

}  // namespace

const Access* lock_access(const ThreadEncoding& t, const LockSite& s) { return access_of(t, s.rmw); }

std::optional<z3::expr> lock_address(const ThreadEncoding& t, const LockSite& s) {
  if (const Access* a = lock_access(t, s)) return a->addr;
  return std::nullopt;
}

CriticalSections find_critical_sections(const ptx::ir::Function& f, const Prepared& p, const ThreadEncoding& t,
                                        const std::function<bool(std::uint32_t, std::uint32_t)>& barrier_between) {
  const Cfg& g = p.cfg;
  const auto n = static_cast<std::uint32_t>(f.body.size());
  CriticalSections out;
  out.held.assign(n, {});
  const std::vector<Candidate> cands = lock_candidates(f, g, t, out);
  if (cands.empty()) return out;
  const std::size_t S = cands.size();
  std::vector<const Access*> rmw_access;
  for (const auto& c : cands) rmw_access.push_back(access_of(t, c.site.rmw));
  const Releases release = release_writes(f, g, t, cands, rmw_access);
  const LockFlow flow(f, g, cands, release);
  const std::set<int> bad_objects = lock_discipline(t, cands, rmw_access, release, flow, barrier_between, out);

  // Step 5: the sites that keep their discipline, and the instructions each lock is held at: held on every path to
  // it and released on every path from it (`held`, the structure the model's questions start from).
  std::vector<int> index(S, -1);
  for (std::size_t s = 0; s < S; ++s) {
    if (bad_objects.count(cands[s].site.object)) continue;
    index[s] = static_cast<int>(out.sites.size());
    out.sites.push_back(cands[s].site);
    out.sites.back().releases.assign(release[s].begin(), release[s].end());
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const LockFlow::State* before = g.block_of[i] >= 0 ? flow.before(i) : nullptr;
    if (!before) continue;
    const LockFlow::State after = flow.after(i);
    for (std::size_t s = 0; s < S; ++s) {
      if (index[s] < 0) continue;
      const std::uint8_t acquired = (*before)[s], released = after[s];
      if (acquired == kTop || acquired < kHeld || released < kHeld) continue;
      out.held[i].push_back(index[s]);
    }
  }
  return out;
}

}  // namespace ptxcheck::race
