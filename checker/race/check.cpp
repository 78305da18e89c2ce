// Pairs of accesses of two symbolic threads asked to Z3 (see check.hpp): barrier intervals from barrier-free
// reachability, loop iterations aligned across a CTA by barriers, moral strength per ISA 8.6, and barrier
// divergence as "one thread of a CTA reaches a barrier instance that another does not".
#include "checker/race/check.hpp"
#include "semantics/support/resource_guard.hpp"

#include "checker/race/async_copy.hpp"
#include "checker/race/difference.hpp"
#include "checker/race/overlap.hpp"
#include "checker/race/cpu_clock.hpp"
#include "checker/race/describe.hpp"
#include "checker/race/encode.hpp"
#include "checker/race/flags.hpp"
#include "checker/race/tickets.hpp"
#include "checker/race/grid_sync.hpp"
#include "checker/race/inline.hpp"
#include "checker/race/locks.hpp"
#include "checker/race/named_barriers.hpp"
#include "checker/race/barrier_forms.hpp"
#include "checker/race/mbarrier.hpp"
#include "checker/race/private.hpp"
#include "checker/race/replay.hpp"
#include "checker/race/strength.hpp"
#include "semantics/interp/launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ptxcheck::race {
using ptx::ir::Opcode;

std::string z3_failure(const std::string& z3_message, const Options& o) {
  return "z3: " + z3_message + " (memory cap " + std::to_string(o.memory_mb) + " MB)";
}

std::string Where::key() const { return file.empty() || !line ? "ptx line " + std::to_string(ptx_line) : file + ":" + std::to_string(line) + ":" + std::to_string(column); }

RaceKey race_key(const Where& a, const Where& b) {
  std::string x = a.key(), y = b.key();
  return x < y ? RaceKey{x, y} : RaceKey{y, x};
}

std::string Where::text() const {
  if (file.empty()) return ptx_file + ":" + std::to_string(ptx_line);
  if (!line) return file + " (no source line: nvcc's .loc says line 0, code it merged from several lines; ptx line " + std::to_string(ptx_line) + ")";
  return file + ":" + std::to_string(line) + ":" + std::to_string(column) + " (ptx line " + std::to_string(ptx_line) + ")";
}

namespace {

std::string witness_text(const ptx::ir::Function& kernel, const Witness& w) {
  std::string text = "block " + dims_text(w.block) + ", grid " + dims_text(w.grid);
  for (std::size_t k = 0; k < kernel.params.size(); ++k) {
    const auto& p = kernel.params[k];
    auto it = w.args.find(p.name);
    if (it == w.args.end() || w.pointers.count(p.name)) continue;
    const std::string name = "arg" + std::to_string(k + 1);
    std::string unused;
    const auto is_signed = integer_argument(kernel, k + 1, unused);
    const auto& [offset, arg] = *it->second.begin();
    if (is_signed && it->second.size() == 1 && offset == 0 && arg.bits == 8 * p.size_bytes()) {
      std::int64_t v = static_cast<std::int64_t>(arg.value);
      if (*is_signed && arg.bits < 64) v = static_cast<std::int64_t>(arg.value << (64 - arg.bits)) >> (64 - arg.bits);
      text += ", " + name + " = " + (*is_signed ? std::to_string(v) : std::to_string(arg.value));
      continue;
    }
    for (const auto& [at, bytes] : it->second) text += ", " + name + "+" + std::to_string(at) + " = " + fmt::format("{:#x}", bytes.value);
  }
  return text;
}

// bar.warp.sync with the full mask, unguarded: every thread of the warp waits, and the barrier orders their
// memory accesses (ISA 9.7.13.3 "bar.warp.sync ... also guarantee memory ordering among threads participating").
bool full_warp_barrier(const ptx::ir::Instruction& in) {
  if (in.op != Opcode::bar_ || !in.q.has(ptx::ir::Flag::warp) || in.guard >= 0 || in.operands.empty()) return false;
  const auto& m = in.operands[0];
  return m.kind == ptx::ir::Operand::Kind::Immediate && (static_cast<std::uint64_t>(m.imm) & 0xffffffffu) == 0xffffffffu;
}

// bar.warp.sync with any membermask, unguarded: the lanes of its mask wait for each other, and it orders the memory
// accesses of those participating (ISA 9.7.13.3) — CUB's logical warps (`0xffff << (lane & 16)`), cooperative
// groups' tiled_partition. Which lanes take part is asked of the solver with each thread's mask (warp_masks).
bool warp_barrier(const ptx::ir::Instruction& in) {
  return in.op == Opcode::bar_ && in.q.has(ptx::ir::Flag::warp) && in.guard < 0 && !in.operands.empty() &&
         (in.operands[0].kind == ptx::ir::Operand::Kind::Immediate || in.operands[0].kind == ptx::ir::Operand::Kind::Register);
}

// An instruction that may order memory between threads beyond what the barrier intervals model: a fence, a
// release/acquire operation (ISA 8.8), and a barrier other than the unguarded CTA-wide and full-mask warp ones
// (bar.arrive, a thread count other than the CTA's, a guard, a partial mask: they synchronize their participants,
// 8.9.4 item 2).
bool may_synchronize(const ptx::ir::Instruction& in) {
  if (in.op == Opcode::fence_ || in.op == Opcode::membar_) return true;
  // mbarrier arrive-ons release and its waits acquire (ISA 9.7.13.15.13-16); cp.async.mbarrier.arrive completes
  // copies (9.7.13.15.15).
  switch (ptx::ir::mbarrier_op(in)) {
    case ptx::ir::MbarrierOp::none: break;
    case ptx::ir::MbarrierOp::copy_arrive: return true;
    case ptx::ir::MbarrierOp::arrive: case ptx::ir::MbarrierOp::wait:
      return in.q.semantics != ptx::ir::MemorySemantics::relaxed;
    default: return false;  // init, inval, expect_tx, complete_tx, pending_count: no ordering
  }
  if (in.op == Opcode::bar_ || in.op == Opcode::barrier_) return !separating_cta_barrier(in) && !warp_barrier(in);
  const auto sem = in.q.semantics;
  return (in.op == Opcode::ld_ || in.op == Opcode::st_ || in.op == Opcode::atom_ || in.op == Opcode::red_) && sem &&
         (acquires(*sem) || releases(*sem));
}

// A strong read (ISA 8.4: a strong ld, or an atom/red, which reads as it writes): one that observes another
// thread's strong write orders that write before what follows the read in program order (8.9.5, causality order
// item 2; observation order, 8.9.2, also runs through atomics), with no fence or release/acquire on either side.
bool strong_read(const ptx::ir::Instruction& in) {
  if (in.op == Opcode::atom_ || in.op == Opcode::red_) return true;
  return in.op == Opcode::ld_ && strength_of(in, false).strong;
}

struct Analysis {
  const ptx::ir::Function& f;
  const Cfg& g;
  std::function<bool(std::uint32_t)> barrier;  // the instructions that end an interval
  std::vector<std::uint32_t> starts;               // interval starts: 0 and the instruction after each barrier
  std::vector<std::vector<bool>> in_interval;      // instruction -> start index -> reachable without a barrier
  std::vector<bool> aligned;                        // loop -> every iteration passes a CTA barrier
  std::vector<std::vector<std::uint8_t>> side;      // loop -> instruction -> 1 before, 2 after, 3 both

  // next_instructions, within loop `loop_only` when it is given (the walks that use it start inside the loop).
  std::vector<std::uint32_t> succ(std::uint32_t i, int loop_only = -1, bool no_back = false) const {
    std::vector<std::uint32_t> out = next_instructions(g, i, no_back);
    if (loop_only >= 0)
      std::erase_if(out, [&](std::uint32_t s) { return !in_loop(g, static_cast<std::size_t>(loop_only), s); });
    return out;
  }
  // Instructions reachable from `from` (inclusive) without passing a CTA barrier.
  std::vector<bool> reach(std::uint32_t from, int loop_only, bool no_back) const {
    std::vector<bool> seen(f.body.size(), false);
    std::vector<std::uint32_t> stack{from};
    while (!stack.empty()) {
      auto i = stack.back();
      stack.pop_back();
      if (i >= f.body.size() || seen[i]) continue;
      seen[i] = true;
      if (barrier(i)) continue;
      for (auto s : succ(i, loop_only, no_back)) stack.push_back(s);
    }
    return seen;
  }

  Analysis(const ptx::ir::Function& fn, const Cfg& cfg, std::function<bool(std::uint32_t)> ends)
      : f(fn), g(cfg), barrier(std::move(ends)) {
    const auto n = static_cast<std::uint32_t>(f.body.size());
    if (n == 0) return;
    starts.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i)
      if (barrier(i)) for (auto s : succ(i)) starts.push_back(s);
    in_interval.assign(n, std::vector<bool>(starts.size(), false));
    for (std::size_t s = 0; s < starts.size(); ++s) {
      auto r = reach(starts[s], -1, false);
      for (std::uint32_t i = 0; i < n; ++i) if (r[i]) in_interval[i][s] = true;
    }
    aligned.assign(g.loops.size(), false);
    side.assign(g.loops.size(), {});
    for (std::size_t L = 0; L < g.loops.size(); ++L) {
      const auto& loop = g.loops[L];
      std::vector<int> latches;
      for (const auto& [from, to] : g.back) if (to == loop.header) latches.push_back(from);
      std::vector<std::uint32_t> bars;
      for (int b : loop.body)
        for (auto i = g.blocks[b].begin; i < g.blocks[b].end; ++i) {
          if (!separating_cta_barrier(f.body[i])) continue;
          bars.push_back(i);
          bool dominates = f.body[i].guard < 0;
          for (int l : latches) if (!g.dom[l].count(b)) dominates = false;
          if (dominates) aligned[L] = true;
        }
      if (!aligned[L]) continue;
      side[L].assign(n, 0);
      auto before = reach(g.blocks[loop.header].begin, static_cast<int>(L), true);
      for (std::uint32_t i = 0; i < n; ++i) if (before[i]) side[L][i] |= 1;
      for (auto bi : bars)
        for (auto s : succ(bi, static_cast<int>(L), true)) {
          auto after = reach(s, static_cast<int>(L), true);
          for (std::uint32_t i = 0; i < n; ++i) if (after[i]) side[L][i] |= 2;
        }
    }
  }

  bool same_interval(std::uint32_t a, std::uint32_t b) const {
    for (std::size_t s = 0; s < starts.size(); ++s) if (in_interval[a][s] && in_interval[b][s]) return true;
    return false;
  }
};

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
    if ((in.op == Opcode::ld_ || in.op == Opcode::ldu_) && keeps_loaded_values(in) && in.q.vector_width <= 1 &&
        !in.operands.empty() && in.operands[0].kind == ptx::ir::Operand::Kind::Register)
      loads.push_back(i);
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

// Facts about the population counts both threads take (ISA 9.7.1.14): the count of a subset of bits is at most the
// count of the whole, and below it when the subset is proper. Valid for every value, so they narrow nothing; they
// spare the solver the counting argument that the adder circuit of ops::popc hides from it: a warp-aggregated
// append's slot `base + popc(ballot & lanemask_lt)` is unique (a lane's own bit lies in the ballot and in no lower
// lane's mask) and below `base + popc(ballot)`.
std::vector<z3::expr> popcount_order(const ThreadEncoding& t1, const ThreadEncoding& t2) {
  std::vector<ThreadEncoding::Popcount> all = t1.popcounts;
  all.insert(all.end(), t2.popcounts.begin(), t2.popcounts.end());
  std::vector<z3::expr> lemmas;
  for (const auto& small : all)
    for (const auto& large : all) {
      if (&small == &large || small.bits.get_sort().bv_size() != large.bits.get_sort().bv_size()) continue;
      const z3::expr zero = small.bits.ctx().bv_val(0, small.bits.get_sort().bv_size());
      const z3::expr subset = (small.bits & ~large.bits) == zero;
      lemmas.push_back(z3::implies(subset, z3::ule(small.count, large.count)));
      lemmas.push_back(z3::implies(subset && small.bits != large.bits, z3::ult(small.count, large.count)));
    }
  return lemmas;
}

z3::expr all_eq(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b) {
  z3::expr r = a[0] == b[0];
  for (std::size_t i = 1; i < a.size(); ++i) r = r && a[i] == b[i];
  return r;
}

// The conditional branch that decides whether block `blk` is reached: its nearest dominator ending in a guarded
// `bra` that `blk` does not post-dominate (a branch around a `trap` is post-dominated, cfg.hpp; -1 if none).
int deciding_branch(const ptx::ir::Function& f, const Cfg& g, int blk) {
  std::vector<int> doms(g.dom[static_cast<std::size_t>(blk)].begin(), g.dom[static_cast<std::size_t>(blk)].end());
  // A nearer dominator has more dominators of its own.
  std::sort(doms.begin(), doms.end(), [&](int a, int b) { return g.dom[static_cast<std::size_t>(a)].size() > g.dom[static_cast<std::size_t>(b)].size(); });
  for (int d : doms) {
    const auto& bl = g.blocks[static_cast<std::size_t>(d)];
    if (d == blk || bl.end == bl.begin) continue;
    const auto& last = f.body[bl.end - 1];
    if (last.op != Opcode::bra_ || last.guard < 0) continue;
    bool post_dominated = false;
    for (int p = g.ipdom[static_cast<std::size_t>(d)]; p >= 0 && !post_dominated; p = g.ipdom[static_cast<std::size_t>(p)]) post_dominated = p == blk;
    if (!post_dominated) return static_cast<int>(bl.end - 1);
  }
  return -1;
}

ThreadIds ids_of(const z3::model& m, const ThreadEncoding& t) {
  ThreadIds r;
  for (int d = 0; d < 3; ++d) {
    r.tid[d] = m.eval(t.tid[d], true).get_numeral_uint64();
    r.ctaid[d] = m.eval(t.ctaid[d], true).get_numeral_uint64();
  }
  return r;
}
}  // namespace

namespace {
// check_kernel under its guard: every stage (encoding, loop summaries, pair search, replay) stops when the guard's
// CPU, wall or memory budget runs out.
KernelResult check_kernel_guarded(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, ResourceGuard& guard) {
  auto t0 = std::chrono::steady_clock::now();
  auto over_budget = [&] { return guard.exhausted().has_value(); };
  auto budget_reason = [&] { return guard.exhausted().value_or("budget reached"); };
  KernelResult res;
  res.kernel = kernel.name;
  // The engine checks the kernel with its callees spliced in (inline.hpp) and its thread-private variables as
  // registers (private.hpp); instruction indices below are those of this rewritten body.
  Inlined inl = inline_calls(m, kernel, InlineOptions{o.assume_pure_externs});
  const Promoted promoted = promote_private(inl.function);
  // Barrier forms that are CTA barriers (barrier_forms.hpp), named in the notes.
  const auto where_in_inlined = [&](std::uint32_t i) { return where_of(m, inl.function.body[i]).text(); };
  const auto note_places = [&](const std::string& what, const std::vector<std::string>& places) {
    std::string at;
    for (const auto& w : places) at += (at.empty() ? "" : ", ") + w;
    if (!places.empty()) res.notes.push_back(what + ": " + at);
  };
  note_places("barriers with the CTA's thread count taken as CTA barriers (every thread of the CTA takes part, ISA 9.7.13.1)",
              rewrite_full_count_barriers(inl.function, o.block, o.x_only, where_in_inlined));
  note_places("cluster barriers (barrier.cluster.arrive then .wait) taken as CTA barriers; for threads of different CTAs of a cluster "
              "they are possible orderings (ISA 9.7.13.2)",
              rewrite_cluster_barriers(inl.function, where_in_inlined));
  const MbarrierRewrite mbarriers = rewrite_mbarrier_barriers(inl.function, o.block, o.x_only, where_in_inlined);
  for (const auto& at : mbarriers.barriers)
    res.notes.push_back("mbarrier taken as a CTA barrier: every thread arrives once per phase and waits for it before any memory access "
                        "(init count = threads of the CTA; ISA 9.7.13.15.16 item 1; assumed: a thread of each CTA runs the init), arrive at " + at);
  for (const auto& why : mbarriers.rejected)
    res.notes.push_back("mbarrier not taken as a CTA barrier: " + why + "; its arrives and waits are taken as possible orderings");
  std::map<std::uint32_t, std::string> unmodelled_calls;
  for (const auto& [i, why] : inl.unsupported) unmodelled_calls.emplace(promoted.index.at(i), why);
  const ptx::ir::Function& f = inl.function;
  Prepared prep = prepare(m, f, unmodelled_calls);
  const std::map<std::uint32_t, std::vector<AsyncPosition>> spans = async_spans(f, prep.cfg);
  for (const auto& u : prep.unsupported)
    res.unsupported.push_back(u.what + " at " + where_of(m, f.body[u.instr]).text());
  if (prep.cfg.irreducible) res.unknown_reasons.push_back(*prep.cfg.irreducible);

  // Barrier intervals: of a CTA; of a warp (a full-mask bar.warp.sync ends one too); of the grid (grid_sync.hpp).
  Analysis an(f, prep.cfg, [&](std::uint32_t i) { return separating_cta_barrier(f.body[i]); });
  // Values broadcast through shared memory are one per CTA, which the uniformity analysis then knows too.
  prep.broadcasts = find_broadcasts(m, f, prep.cfg, [&](std::uint32_t i, std::uint32_t j) { return an.same_interval(i, j); }, an.aligned);
  if (!prep.broadcasts.empty()) {
    std::set<std::uint32_t> uniform_loads;
    std::map<std::uint32_t, std::vector<std::uint32_t>> readers;  // store -> the loads after it
    std::vector<std::uint32_t> agreed;                             // the loads of one value per CTA and phase
    for (const auto& [load, b] : prep.broadcasts) {
      uniform_loads.insert(load);
      if (b.reads == Broadcast::Reads::stored_value) readers[b.store].push_back(load);
      else if (b.reads == Broadcast::Reads::one_per_phase) agreed.push_back(load);
    }
    prep.uni = analyse_uniformity(f, prep.cfg, uniform_loads);
    prep.warp_uni = analyse_warp_uniformity(f, prep.cfg, uniform_loads);
    auto places = [&](const std::vector<std::uint32_t>& instrs) {
      std::string at;
      for (auto i : instrs) at += (at.empty() ? "" : ", ") + where_of(m, f.body[i]).text();
      return at;
    };
    for (const auto& [store, loads] : readers)
      res.notes.push_back("shared-memory broadcast: the store at " + where_of(m, f.body[store]).text() +
                          " is the only write to its word and a barrier separates it from the loads at " + places(loads) +
                          ", which read one value per CTA (and iteration of the loops around the store): what the CTA's "
                          "writing thread stored, or the content before (ISA 8.9.4 item 2, 8.10 Causality; a second writer "
                          "or barrier divergence is reported on its own)");
    if (!agreed.empty())
      res.notes.push_back("shared memory read in barrier intervals where no thread writes it: the loads at " + places(agreed) +
                          " read one value per CTA and barrier interval (ISA 8.9.4 item 2, 8.10 Causality)");
  }
  // Z3's own cap on what it allocates, beside the guard's on the whole process: Z3 does not stop at once when
  // interrupted while it bit-blasts one formula, but it checks its cap at every allocation. Past the cap the solver
  // is not used again (check_on; Z3 4.8 can abort the process when it is).
  z3::set_param("memory_max_size", static_cast<int>(std::max(16u, o.memory_mb * 9 / 10)));  // the rest: the process's own
  z3::context c;
  const ResourceGuard::Watch watch(&guard, c);
  Launch launch = make_launch(c, o.block, o.grid);
  ThreadEncoding T1 = encode_thread(c, m, f, prep, launch, 1);
  ThreadEncoding T2 = encode_thread(c, m, f, prep, launch, 2);
  // The forwarded values (shuffles) name a thread's symbols by their names without the thread's prefix, so both
  // encodings must make the same symbols in the same order: they run the same code on the same function.
  if (T1.fresh_symbols != T2.fresh_symbols)
    res.unknown_reasons.push_back("internal: the two threads' encodings differ in shape (" + std::to_string(T1.fresh_symbols) +
                                  " and " + std::to_string(T2.fresh_symbols) + " symbols)");
  Analysis an_warp(f, prep.cfg, [&](std::uint32_t i) { return separating_cta_barrier(f.body[i]) || full_warp_barrier(f.body[i]); });
  Analysis an_subwarp(f, prep.cfg, [&](std::uint32_t i) { return separating_cta_barrier(f.body[i]) || warp_barrier(f.body[i]); });
  const std::vector<GridSync> grid_syncs = find_grid_syncs(f, prep.cfg);
  std::set<std::uint32_t> grid_ends, grid_counter;
  for (const auto& gs : grid_syncs) {
    grid_ends.insert(gs.end);
    grid_counter.insert(gs.counter.begin(), gs.counter.end());
    res.notes.push_back("cooperative-groups grid synchronisation at " + where_of(m, f.body[gs.begin]).text() +
                        " taken as a barrier of the whole grid (the driver's grid workspace counter, %envreg; a cooperative launch)");
  }
  std::optional<Analysis> an_grid;
  if (!grid_syncs.empty()) an_grid.emplace(f, prep.cfg, [&](std::uint32_t i) { return grid_ends.count(i) > 0; });
  const CriticalSections locks =
      find_critical_sections(f, prep, T1, [&](std::uint32_t i, std::uint32_t j) { return !an.same_interval(i, j); });
  // Each site's lock address in either thread, looked up once (the pair loop below reads them for every pair).
  std::vector<std::optional<z3::expr>> lock_address1, lock_address2;
  for (const auto& site : locks.sites) {
    lock_address1.push_back(lock_address(T1, site));
    lock_address2.push_back(lock_address(T2, site));
  }
  // Named barriers with producer/consumer roles that every thread passes once (named_barriers.hpp); that the lanes
  // of a warp take one operation is checked below.
  NamedBarrierPhases phases = find_single_phase_barriers(f, prep.cfg, o.block, o.x_only);

  z3::solver s(c);
  QueryBudget current;  // the solver's budget per query
  auto set_budget = [&](const QueryBudget& b) { b.apply_to(s); current = b; };
  set_budget(o.query);
  s.add(launch_shape_constraints(launch, o.block, o.grid, o.x_only, f));
  // The user's preconditions (--assume): only the launches that satisfy them are checked.
  std::vector<z3::expr> argument_reads = T1.argument_reads;
  argument_reads.insert(argument_reads.end(), T2.argument_reads.begin(), T2.argument_reads.end());
  for (const auto& a : o.assumptions) {
    std::string error;
    if (a.for_each_index) {  // instantiated where initial memory is asked about (flag_read)
      res.notes.push_back("assumed (--assume): " + a.text + " for every index; the verdict is for the launches that satisfy it");
      continue;
    }
    if (auto term = assumption_term(c, a, f, &m, launch.ntid, launch.nctaid, argument_reads, error)) {
      s.add(*term);
      res.notes.push_back("assumed (--assume): " + a.text + "; the verdict is for the launches that satisfy it");
    } else {
      res.unknown_reasons.push_back(error);  // (run_file rejects such an assumption before the check)
    }
  }
  if (!o.assumptions.empty() && s.check() == z3::unsat)  // (a contradiction would make every verdict race-free)
    res.unknown_reasons.push_back("the assumptions (--assume) admit no launch of this shape: nothing was checked");
  auto u32 = [&](std::uint64_t v) { return c.bv_val(v, 32); };
  for (int d = 0; d < 3; ++d)
    for (const auto* t : {&T1, &T2}) s.add(z3::ult(t->tid[d], launch.ntid[d]) && z3::ult(t->ctaid[d], launch.nctaid[d]));
  const z3::expr distinct_threads = !(all_eq(T1.tid, T2.tid) && all_eq(T1.ctaid, T2.ctaid));
  s.add(distinct_threads);
  for (const auto* t : {&T1, &T2})
    for (const auto& fact : t->facts) s.add(fact);
  for (const z3::expr& lemma : popcount_order(T1, T2)) s.add(lemma);
  // Shared-space addresses are 32-bit, and a CTA's shared memory (at most 228 KB on current GPUs) is far below
  // 16 MiB: a shared variable's addresses do not wrap around in 32 bits, so an address computed in 32-bit registers
  // (`[%r2+-512]`) equals the 64-bit sum the encoding forms (without this, a base near 2^32 made them differ).
  for (const auto& obj : prep.objects)
    if (obj.space == Space::shared)
      s.add(z3::ult(c.bv_const(obj.base_symbol.c_str(), 64), c.bv_val((std::uint64_t{1} << 32) - (std::uint64_t{1} << 24), 64)));
  const z3::expr same_cta = all_eq(T1.ctaid, T2.ctaid);
  if (o.block_level) s.add(same_cta);
  // Warps are made of consecutive linear thread ids of a CTA (ISA 2.2: x fastest, then y, then z).
  auto warp_of = [&](const ThreadEncoding& t) { return z3::udiv(linear_tid(t.tid, launch), u32(32)); };
  const z3::expr same_warp = same_cta && warp_of(T1) == warp_of(T2);
  // Two threads of one warp each in the other's membermask at every partial bar.warp.sync of the kernel: whichever
  // of them lies between two accesses, both took part in it (a lane of the mask that does not arrive leaves the
  // others waiting, ISA 9.7.13.3), so it orders them.
  z3::expr mutual_warp_sync = c.bool_val(true);
  const z3::expr lane_bit1 = z3::shl(u32(1), z3::urem(linear_tid(T1.tid, launch), u32(32)));
  const z3::expr lane_bit2 = z3::shl(u32(1), z3::urem(linear_tid(T2.tid, launch), u32(32)));
  for (const auto& [i, m1] : T1.warp_masks) {
    if (!warp_barrier(f.body[i]) || full_warp_barrier(f.body[i]) || !T2.warp_masks.count(i)) continue;
    mutual_warp_sync = mutual_warp_sync && (m1 & lane_bit2) != u32(0) && (T2.warp_masks.at(i) & lane_bit1) != u32(0);
  }
  // ISA 8.6 morally strong, the scope part: each operation's scope includes the other thread.
  auto includes = [&](ptx::ir::Scope sc) { return scope_includes(sc, same_cta, c.bool_val(true)); };

  auto check_on = [&](z3::solver& solver, const z3::expr& q) {
    ++res.queries;
    solver.push();
    solver.add(q);
    std::optional<z3::model> model;
    std::string why;
    z3::check_result r = z3::unknown;
    const auto started = std::chrono::steady_clock::now();
    try {
      r = solver.check();
      z3::solver* answered = &solver;
      std::optional<z3::solver> fresh;
      // Interrupted by the kernel's guard: its reason, no second try, and no pop (Z3 4.8's pop after an interrupted
      // check can take as long, and as much memory again, as the check had).
      if (r == z3::unknown && over_budget()) return std::make_tuple(r, model, budget_reason());
      if (r == z3::unknown && current == o.query) {
        // The incremental solver keeps what it learnt from earlier queries and skips the preprocessing of a fresh
        // one; some queries it cannot decide within the budget a fresh solver decides in a fraction of it (a
        // warp-aggregated append's slots, popcount_order). Asked once more, with the same budget.
        fresh.emplace(c);
        current.apply_to(*fresh);
        for (const z3::expr& e : solver.assertions()) fresh->add(e);
        r = fresh->check();
        answered = &*fresh;
      }
      if (r == z3::sat) model = answered->get_model();
      if (r == z3::unknown)
        why = current.unknown_reason(answered->reason_unknown(), std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
    } catch (const z3::exception& e) {  // out of memory (memory_mb) or canceled: unknown, never a verdict
      r = z3::unknown;
      if (over_budget()) return std::make_tuple(r, model, budget_reason());
      // Z3's memory cap: the solver is not used again, and Z3 may allocate while it is freed, so the cap goes.
      z3::set_param("memory_max_size", 0);
      throw BudgetExhausted(z3_failure(e.msg(), o));
    }
    solver.pop();
    return std::make_tuple(r, model, why);
  };
  auto check = [&](const z3::expr& q) { return check_on(s, q); };

  // ---- named barriers: the lanes of a warp take one operation (ISA 9.7.13.1: undefined otherwise for aligned ones,
  // and arrivals are counted per warp).
  std::erase_if(phases.barriers, [&](const SinglePhaseBarrier& b) {
    // Two lanes of one warp at two different operations on it (a lane that reaches none hangs or traps before).
    for (std::size_t k = 0; k < T1.barriers.size(); ++k)
      for (std::size_t l = 0; l < T2.barriers.size(); ++l) {
        const std::uint32_t x = T1.barriers[k].instr, y = T2.barriers[l].instr;
        if (x == y || !b.operates(x) || !b.operates(y)) continue;
        auto [r, model, why] = check(same_warp && T1.barriers[k].pc && T2.barriers[l].pc);
        if (r == z3::unsat) continue;
        phases.rejected.push_back("named barrier " + std::to_string(b.name) + ": " +
                                  (r == z3::sat ? "lanes of one warp may take different operations on it (undefined for aligned ones, ISA 9.7.13.1), at "
                                                : "the solver could not show that the lanes of a warp take one operation on it, at ") +
                                  where_of(m, f.body[x]).text() + " and " + where_of(m, f.body[y]).text());
        return true;
      }
    return false;
  });
  for (const auto& b : phases.barriers) {
    std::string at;
    for (auto op : b.ops) at += (at.empty() ? "" : ", ") + where_of(m, f.body[op]).text();
    res.notes.push_back("named barrier " + std::to_string(b.name) + " (every thread passes one operation on it, with the CTA's thread count): "
                        "what a thread does before its operation precedes what a waiting thread does after its own (ISA 8.9.4 item 2), at " + at);
  }
  for (const auto& why : phases.rejected)
    res.notes.push_back(why + "; its operations are taken as possible orderings");

  // Counters (encode.hpp CounterRead): two morally strong adds of distinct threads to one location take disjoint
  // ranges [ret, ret + amount) when every write that may reach the location is an add of a non-negative amount
  // (below half the type's range, for every thread: a larger one would be a decrement).
  auto non_negative_amount = [&](const Access& a) {
    const auto& in = f.body[a.instr];
    if (positive_add(in)) return true;
    auto amount = T1.add_amounts.find(a.instr);
    if (!integer_add(in) || amount == T1.add_amounts.end()) return false;
    const unsigned w = amount->second.get_sort().bv_size();
    const auto [r, model, why] = check(!z3::ult(amount->second, c.bv_val(std::uint64_t{1} << (w - 1), w)));
    return r == z3::unsat;
  };
  std::map<std::uint32_t, bool> amount_ok;  // add instruction -> non_negative_amount, asked once
  // Where a counter's adds take disjoint ranges: `everywhere` when every write that may reach its allocation is an
  // add of a non-negative amount; `within_cta` when the allocation is shared memory, its adds are outside loops (each
  // runs once, in one barrier interval of the CTA) and each of its other writes (a reset `if (threadIdx.x == 0) n = 0;`)
  // shares no barrier interval with any of them: the CTA's barriers order each such write before or after every add
  // (ISA 8.9.4 item 2, 8.10 Coherence), so between two adds only adds reach it.
  enum class CounterReach { none, within_cta, everywhere };
  auto only_incremented = [&](const CounterRead& cr) {
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
  };
  std::map<int, CounterReach> counter_reach;  // counter allocation -> only_incremented
  auto counter_ok = [&](const CounterRead& cr) {
    if (!counter_reach.count(cr.object)) counter_reach[cr.object] = only_incremented(cr);
    return counter_reach[cr.object];
  };
  bool counters_assumed = false;
  // Claims (`if (atomicCAS(&visited[v], 0, 1) == 0)`): when every write that may reach an allocation is an atom.cas
  // of one constant compare value E whose new value is never E, a location holds E at most until the first CAS that
  // reads it, so two morally strong CASes of distinct threads do not both return E (ISA 8.10 Atomicity). The
  // allocation's E, or nullopt.
  std::map<int, std::optional<z3::expr>> claim_value;  // allocation -> E
  auto claimed_once = [&](int object) -> std::optional<z3::expr> {
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
  };
  bool claims_used = false;
  // The two adds (of distinct threads) took disjoint ranges, when both ran on one counter with scopes that include
  // each other (ISA 8.6 morally strong). Widened by one bit: the counter does not wrap around, not even in the
  // last add (ret + amount <= 2^w).
  auto disjoint_ranges = [&](const CounterRead& x, const CounterRead& y, CounterReach reach) {
    const unsigned w = x.ret.get_sort().bv_size();
    auto end = [&](const CounterRead& r) { return z3::zext(r.ret, 1) + z3::zext(r.inc, 1); };
    const z3::expr top = z3::shl(c.bv_val(1, w + 1), c.bv_val(w, w + 1));  // 2^w
    counters_assumed = true;
    const z3::expr where = reach == CounterReach::within_cta ? same_cta : c.bool_val(true);
    return z3::implies(where && x.pc && y.pc && x.addr == y.addr && includes(x.scope) && includes(y.scope),
                       z3::ule(end(x), top) && z3::ule(end(y), top) &&
                           (z3::ule(end(x), z3::zext(y.ret, 1)) || z3::ule(end(y), z3::zext(x.ret, 1))));
  };
  // The counter facts a pair of accesses needs: those of the counter reads their addresses or their paths are
  // computed from (a slot `out[atomicAdd(n, 1)]`, a leader `if (atomicAdd(n, 1) == 0)`); fewer facts only admit
  // more executions, so leaving the others out is sound, and much faster.
  // The constants an access's address and path condition are built from.
  auto constants_of_access = [](const Access& x) {
    auto ids = constants_of(x.addr);
    ids.merge(constants_of(x.pc));
    return ids;
  };
  auto counter_facts = [&](const Access& a, const Access& b) {
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
  };
  // The claim facts a pair of accesses needs (claimed_once): those of the CASes whose results their addresses or
  // paths are computed from.
  auto claim_facts = [&](const Access& a, const Access& b) {
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
  };
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

  // Read consistency within a thread (consistent_loads): the facts a pair of accesses needs, for the loads whose
  // values its addresses and conditions are computed from, transitively. Fewer facts only admit more executions.
  // Computed when a pair first needs them (most kernels have no racy-looking pair).
  std::optional<std::set<std::pair<std::uint32_t, std::uint32_t>>> consistent;
  // Per thread: each load's value symbol, and the constants its address and condition are built from.
  struct Loads {
    std::unordered_map<unsigned, const Access*> by_value;  // value symbol id -> load
    std::map<const Access*, std::unordered_set<unsigned>> deps;
  };
  auto index_loads = [&](const ThreadEncoding& t) {
    Loads l;
    for (const auto& x : t.accesses) {
      if (!x.value) continue;
      l.by_value[x.value->id()] = &x;
      auto& d = l.deps[&x];
      for (const z3::expr& e : {x.addr, x.pc}) for (unsigned id : constants_of(e)) d.insert(id);
    }
    return l;
  };
  Loads loads1, loads2;
  // The facts a pair of accesses needs, for the loads of both threads; `roots`: the constants of the pair's
  // addresses and conditions (pair_constants).
  auto load_facts = [&](const std::vector<unsigned>& roots) {
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
  };

  // Orderings this engine does not model (may_order, strength.hpp; synchronizing instructions are those of
  // may_synchronize, the grid sync's counter being modelled as a barrier and single-phase named barriers' operations
  // as named_barriers.hpp says).
  // sync_after[i]: a synchronizing instruction is reachable from i; "before y": y is reachable from a
  // synchronizing instruction (y included) or from the successor of a strong read that may access x's allocation,
  // in the CFG with its back edges (every iteration: sync_before, strong_reads_of(x).before) or only in the first
  // iteration of the loops around y (marked_before_first_iteration).
  std::vector<bool> syncs(f.body.size(), false);
  std::vector<bool> sync_after(f.body.size(), false), sync_before(f.body.size(), false);
  {
    std::vector<std::uint32_t> sync_list;
    for (std::uint32_t i = 0; i < f.body.size(); ++i)
      if (may_synchronize(f.body[i]) && !grid_counter.count(i) && !phases.models(i)) { syncs[i] = true; sync_list.push_back(i); }
    mark_reachable(prep.cfg, sync_list, sync_before, true);
    mark_reachable(prep.cfg, sync_list, sync_after, false);
  }
  // The strong reads that may observe a write of allocation `object` (-1: unknown, any read may), and what they reach.
  std::map<std::uint32_t, int> read_object;  // strong read -> the allocation it accesses (-1 unknown)
  for (std::uint32_t i = 0; i < f.body.size(); ++i)
    if (strong_read(f.body[i])) read_object[i] = -1;
  for (const auto& acc : T1.accesses)
    if (auto it = read_object.find(acc.instr); it != read_object.end()) it->second = acc.object;
  struct StrongReads {
    std::vector<bool> at, before;
  };
  std::map<int, StrongReads> strong_reads_by_object;
  auto strong_reads_of = [&](const Access& x) -> const StrongReads& {
    auto [it, fresh] = strong_reads_by_object.try_emplace(x.object);
    if (!fresh) return it->second;
    StrongReads& r = it->second;
    r.at.assign(f.body.size(), false);
    r.before.assign(f.body.size(), false);
    std::vector<std::uint32_t> after;
    for (const auto& [i, obj] : read_object)
      if (x.object < 0 || obj < 0 || obj == x.object) {
        r.at[i] = true;
        for (auto k : next_instructions(prep.cfg, i)) after.push_back(k);
      }
    mark_reachable(prep.cfg, after, r.before, true);
    return r;
  };
  auto ordered_one_way = [&](const Access& x, const Access& y, bool first_iteration) {
    OrderingContext o;
    o.sync_at_or_after_x = sync_after[x.instr];
    o.x_strong_write = x.write && x.strong;
    o.sync_at_or_before_y = first_iteration ? marked_before_first_iteration(prep.cfg, syncs, y.instr, true) : sync_before[y.instr];
    if (o.x_strong_write) {
      const StrongReads& reads = strong_reads_of(x);
      o.strong_read_before_y = first_iteration ? marked_before_first_iteration(prep.cfg, reads.at, y.instr, false) : reads.before[y.instr];
    }
    return may_order(o);
  };
  auto may_be_ordered = [&](const Access& x, const Access& y, bool first_iteration) {
    return ordered_one_way(x, y, first_iteration) || ordered_one_way(y, x, first_iteration);
  };
  // The first iteration of every loop around the accesses whose thread could otherwise be entered by an ordering
  // (T1's a, T2's b): where the pair races when may_be_ordered holds only through later iterations.
  auto first_iterations = [&](const Access& a, const Access& b) {
    z3::expr e = c.bool_val(true);
    const z3::expr zero = c.bv_val(0, 64);
    if (ordered_one_way(b, a, false)) for (int L : loops_around(prep.cfg, a.instr)) e = e && T1.k.at(L) == zero;
    if (ordered_one_way(a, b, false)) for (int L : loops_around(prep.cfg, b.instr)) e = e && T2.k.at(L) == zero;
    return e;
  };

  // One thread reaches the barrier instance, the other does not and does not trap: a thread that traps aborts
  // the launch (ISA 9.7.19.4), so its not reaching a barrier is no divergence.
  auto traps = [&](const ThreadEncoding& t) {
    z3::expr any = c.bool_val(false);
    for (const auto& pc : t.traps) any = any || pc;
    return any;
  };
  auto one_misses = [&](const Barrier& b1, const Barrier& b2) {
    return (b1.pc && !b2.pc && !traps(T2)) || (b2.pc && !b1.pc && !traps(T1));
  };

  // The guarded instruction a barrier diverges under, as `@%p bra at FILE:LINE:COL (ptx line N)`.
  auto condition_text = [&](int cause) -> std::string {
    if (cause < 0) return "";
    const auto& ci = f.body[static_cast<std::size_t>(cause)];
    std::string reg = ci.guard >= 0 ? f.registers[ci.guard].name : "?";
    return std::string(ci.guard_negated ? "@!" : "@") + reg + " " + ptx::ir::opcode_name(ci.op) + " at " + where_of(m, ci).text();
  };

  // The two threads are in the same iteration of every loop enclosing block `blk`.
  auto same_iterations = [&](int blk) {
    z3::expr same = c.bool_val(true);
    for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L)
      if (prep.cfg.loops[L].body.count(blk)) same = same && T1.k.at(static_cast<int>(L)) == T2.k.at(static_cast<int>(L));
    return same;
  };

  // ---- barrier divergence: two threads of one CTA, the same iteration of every enclosing loop.
  for (std::size_t k = 0; k < T1.barriers.size(); ++k) {
    const auto& b1 = T1.barriers[k];
    const auto& b2 = T2.barriers[k];
    if (!cta_barrier(f.body[b1.instr])) continue;
    int blk = prep.cfg.block_of[b1.instr];
    bool div = prep.uni.divergent[blk] || (f.body[b1.instr].guard >= 0 && !prep.uni.reg[f.body[b1.instr].guard]);
    if (!div) continue;
    if (over_budget()) {
      res.unknown_reasons.push_back(budget_reason() + " before every barrier was checked for divergence");
      break;
    }
    z3::expr q = same_cta && one_misses(b1, b2);
    q = q && same_iterations(blk);
    auto [r, model, why] = check(q);
    if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (barrier divergence at " + where_of(m, f.body[b1.instr]).text() + ")");
    if (r != z3::sat) continue;
    DivergenceReport d{b1.instr, where_of(m, f.body[b1.instr]), "", ids_of(*model, T1), ids_of(*model, T2),
                       model->eval(b1.pc, true).is_true(), ""};
    const auto& bin = f.body[b1.instr];
    d.condition = condition_text(bin.guard >= 0 && !prep.uni.reg[bin.guard] ? static_cast<int>(b1.instr) : prep.uni.cause[blk]);
    res.divergences.push_back(d);
  }
  // An mbarrier taken as a CTA barrier (mbarrier.hpp) needs its init run by one thread per CTA: a second init of the
  // initialised object is undefined (ISA 9.7.13.15.9), and the engine does not say race-free over undefined behaviour.
  for (std::size_t k = 0; k < T1.mbarrier_inits.size(); ++k) {
    const auto& i1 = T1.mbarrier_inits[k];
    if (std::find(mbarriers.inits.begin(), mbarriers.inits.end(), i1.instr) == mbarriers.inits.end()) continue;
    auto [r, model, why] = check(same_cta && i1.pc && T2.mbarrier_inits[k].pc);
    const std::string at = where_of(m, f.body[i1.instr]).text();
    if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (one thread per CTA at the mbarrier.init at " + at + ")");
    if (r != z3::sat) continue;
    const ThreadIds a = ids_of(*model, T1), b = ids_of(*model, T2);
    res.unknown_reasons.push_back("undefined behaviour: threads " + a.text() + " and " + b.text() + " both run the mbarrier.init at " + at +
                                  " on one object (ISA 9.7.13.15.9: init of an initialised object is undefined)");
  }
  // A grid synchronisation (grid_sync.hpp) waits for every CTA of the grid: two threads of different CTAs, the
  // same iteration of every enclosing loop, one reaches it and the other does not (its CTA never arrives).
  for (const auto& gs : grid_syncs) {
    std::size_t k = 0;
    while (k < T1.barriers.size() && T1.barriers[k].instr != gs.begin) ++k;
    if (k == T1.barriers.size()) continue;
    const auto& b1 = T1.barriers[k];
    const auto& b2 = T2.barriers[k];
    int blk = prep.cfg.block_of[b1.instr];
    z3::expr q = !same_cta && one_misses(b1, b2);
    q = q && same_iterations(blk);
    auto [r, model, why] = check(q);
    if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (grid synchronisation divergence at " + where_of(m, f.body[b1.instr]).text() + ")");
    if (r != z3::sat) continue;
    res.divergences.push_back(DivergenceReport{b1.instr, where_of(m, f.body[b1.instr]), condition_text(deciding_branch(f, prep.cfg, blk)),
                                               ids_of(*model, T1), ids_of(*model, T2),
                                               model->eval(b1.pc, true).is_true(),
                                               "a grid synchronisation waits for every CTA of the grid, and this thread's CTA does not arrive"});
  }

  // ---- spin locks: a .cta-scoped lock in global memory orders only when no two CTAs take one of its locations
  // (locks.hpp cta_private); where they may, its sites order nothing (no lock address).
  std::vector<std::string> lock_rejections;
  for (const auto& r : locks.rejected) lock_rejections.push_back(r.why + " (" + where_of(m, f.body[r.instr]).text() + ")");
  {
    std::set<int> shared_across_ctas;
    for (std::size_t x = 0; x < locks.sites.size(); ++x)
      for (std::size_t y = 0; y < locks.sites.size(); ++y) {
        const LockSite &sx = locks.sites[x], &sy = locks.sites[y];
        if (!sx.cta_private || sx.object != sy.object || shared_across_ctas.count(sx.object)) continue;
        const Access *ax = lock_access(T1, sx), *ay = lock_access(T2, sy);
        auto [r, model, why] = check(!same_cta && ax->pc && ay->pc && ax->addr == ay->addr);
        if (r == z3::unsat) continue;
        shared_across_ctas.insert(sx.object);
        lock_rejections.push_back(std::string(r == z3::sat ? "threads of two CTAs may take one location of this .cta-scoped lock in global memory"
                                                            : "the solver could not show that only threads of one CTA take each location of this .cta-scoped lock") +
                                  " (" + where_of(m, f.body[sx.rmw]).text() + ")");
      }
    for (std::size_t k = 0; k < locks.sites.size(); ++k)
      if (shared_across_ctas.count(locks.sites[k].object)) lock_address1[k] = lock_address2[k] = std::nullopt;
  }
  for (std::size_t k = 0; k < locks.sites.size(); ++k) {
    if (!lock_address1[k]) continue;
    std::size_t guarded = 0;
    for (const auto& a : T1.accesses)
      if (!a.async) guarded += std::count(locks.guarded[a.instr].begin(), locks.guarded[a.instr].end(), static_cast<int>(k));
    const std::string at = "spin lock taken at " + where_of(m, f.body[locks.sites[k].rmw]).text() +
                           (locks.sites[k].cta_private ? " (.cta scope, each location taken by threads of one CTA)" : "");
    res.notes.push_back(guarded ? at + ": the " + std::to_string(guarded) + " accesses after its acquire pattern and before its "
                                  "release pattern are ordered with those of other holders (ISA 8.8, 8.9.4 item 4; every "
                                  "write that may reach the lock is a lock operation)"
                                : at + ": orders no access (none lies after an acquire pattern and before a release pattern "
                                  "of it on every path, ISA 8.8)");
  }
  for (const auto& why : lock_rejections) res.notes.push_back("spin lock not taken as ordering its critical sections: " + why);

  // ---- data races
  const std::string async_note = "a cp.async copies at some point between the instruction and the completion of its group "
                                 "(cp.async.wait_group or wait_all, ISA 9.7.9.25.3.3); barriers and fences on the way do not order it";
  auto describe = [&](const Access& a, const z3::model& mdl) {
    AccessReport r;
    r.instr = a.instr;
    r.kind = a.atomic ? "atomic" : a.write ? "write" : "read";
    const auto& in = f.body[a.instr];
    r.strength = strength_text(in, a.atomic) + (a.async ? ", asynchronous" : "");
    r.space = space_name(a.space);
    r.object = a.object >= 0 ? prep.objects[a.object].name : "?";
    r.argument = argument_text(f, r.object);
    r.size = a.size;
    r.opcode = ptx::ir::opcode_text(in);
    z3::expr base = a.object >= 0 ? c.bv_const(prep.objects[a.object].base_symbol.c_str(), 64) : c.bv_val(0, 64);
    r.offset = static_cast<std::int64_t>(mdl.eval(a.addr - base, true).get_numeral_uint64());
    r.where = where_of(m, in);
    return r;
  };
  // ISA 6.4.1: an address must be naturally aligned to the access size (otherwise the behaviour is undefined),
  // so executions with a misaligned access are not considered.
  auto aligned = [&](const Access& a) {
    if (a.size == 0 || (a.size & (a.size - 1))) return c.bool_val(true);
    return (a.addr & c.bv_val(a.size - 1, 64)) == c.bv_val(0, 64);
  };
  auto ignorable = [](Space sp) { return sp == Space::local || sp == Space::param || sp == Space::const_; };
  // Witnesses (check.hpp Witness): the model's launch shape and kernel arguments (argument_symbol).
  auto arg_symbols = [&](const z3::model& mdl) {
    std::vector<std::tuple<std::string, std::uint32_t, z3::expr>> out;  // parameter, offset, symbol
    for (unsigned i = 0; i < mdl.num_consts(); ++i) {
      z3::func_decl d = mdl.get_const_decl(i);
      auto arg = parse_argument_symbol(d.name().str());
      if (arg && d.range().is_bv()) out.emplace_back(arg->first, arg->second, d());
    }
    return out;
  };
  std::set<std::string> pointer_params;
  for (const auto& obj : prep.objects)
    if (parse_argument_symbol(obj.base_symbol)) pointer_params.insert(obj.name);
  // Small: at most 256 threads per CTA and 8 CTAs per dimension where the shape is open, scalar arguments
  // below 64 (they are often loop bounds, and a replay runs every iteration); `nonzero`: and at least 1 (sizes and
  // counts, where a zero often skips the work the race is in).
  auto small_witness = [&](const z3::model& mdl, bool nonzero) {
    z3::expr e = c.bool_val(true);
    if (!o.block) e = e && z3::ule(z3::zext(launch.ntid[0], 32) * z3::zext(launch.ntid[1], 32) * z3::zext(launch.ntid[2], 32), c.bv_val(256, 64));
    if (!o.grid) for (int d = 0; d < 3; ++d) e = e && z3::ule(launch.nctaid[d], u32(8));
    for (const auto& [param, offset, sym] : arg_symbols(mdl)) {
      if (pointer_params.count(param)) continue;
      const unsigned w = sym.get_sort().bv_size();
      e = e && z3::ult(sym, c.bv_val(64, w));
      if (nonzero) e = e && sym != c.bv_val(0, w);
    }
    return e;
  };
  // The pair's offsets into pointer parameters below what a replay allocates (ReplayOptions::max_buffer_bytes).
  auto replayable_offsets = [&](const Access& a, const Access& b) {
    z3::expr e = c.bool_val(true);
    for (const Access* x : {&a, &b}) {
      if (x->object < 0 || !pointer_params.count(prep.objects[x->object].name)) continue;
      const z3::expr base = c.bv_const(prep.objects[x->object].base_symbol.c_str(), 64);
      e = e && z3::ult(x->addr - base, c.bv_val(ReplayOptions{}.max_buffer_bytes - x->size, 64));
    }
    return e;
  };
  // The size of each object that is a declared variable of known size (a shared array, a .global variable); pointer
  // parameters' buffers and unsized extern shared arrays have none.
  std::vector<std::optional<std::uint64_t>> object_bytes(prep.objects.size());
  for (std::size_t k = 0; k < prep.objects.size(); ++k) {
    if (pointer_params.count(prep.objects[k].name)) continue;
    for (const auto* vars : {&f.locals, &m.globals})
      for (const auto& v : *vars)
        if (v.name == prep.objects[k].name && v.size_bytes() > 0 && !object_bytes[k]) object_bytes[k] = v.size_bytes();
  }
  // The pair's accesses lie inside their objects of known size: a witness should respect the objects' bounds.
  auto within_objects = [&](const Access& a, const Access& b) {
    z3::expr e = c.bool_val(true);
    for (const Access* x : {&a, &b}) {
      if (x->object < 0 || !object_bytes[x->object]) continue;
      const std::uint64_t bytes = *object_bytes[x->object];
      if (bytes < x->size) return c.bool_val(false);
      const z3::expr base = c.bv_const(prep.objects[x->object].base_symbol.c_str(), 64);
      e = e && z3::ule(x->addr - base, c.bv_val(bytes - x->size, 64));
    }
    return e;
  };
  // What the pair's addresses and conditions depend on that the encoding does not model (ThreadEncoding::abstracted).
  // Values loaded from shared memory count where they make an address (ranks from a scan, an index read from a table
  // the kernel built): where the accesses fall then rests on memory the engine does not follow. Under a condition
  // they are taken as the inputs they derive from.
  auto unmodelled_values = [&](const Access& a, const Access& b) {
    std::set<std::string> out;
    for (const z3::expr& e : {a.addr, a.pc, b.addr, b.pc}) {
      const bool address = z3::eq(e, a.addr) || z3::eq(e, b.addr);
      for (unsigned id : constants_of(e))
        for (const ThreadEncoding* t : {&T1, &T2})
          if (auto it = t->abstracted.find(id); it != t->abstracted.end() && (address || it->second != shared_load_note))
            out.insert(it->second);
    }
    return out;
  };
  // "'temp' (2336 bytes) at offset 2133220320": a reported access outside its object, or empty.
  auto outside_object = [&](const Access& a, const AccessReport& r) -> std::string {
    if (a.object < 0 || !object_bytes[a.object]) return "";
    const std::uint64_t bytes = *object_bytes[a.object];
    if (r.offset >= 0 && static_cast<std::uint64_t>(r.offset) + r.size <= bytes) return "";
    return "'" + r.object + "' (" + std::to_string(bytes) + " bytes) at offset " + std::to_string(r.offset);
  };
  auto witness_of = [&](const z3::model& mdl) {
    Witness w;
    for (int d = 0; d < 3; ++d) {
      w.block[d] = static_cast<std::uint32_t>(mdl.eval(launch.ntid[d], true).get_numeral_uint64());
      w.grid[d] = static_cast<std::uint32_t>(mdl.eval(launch.nctaid[d], true).get_numeral_uint64());
    }
    for (const auto& [param, offset, sym] : arg_symbols(mdl)) {
      z3::expr v = mdl.eval(sym, true);
      if (sym.get_sort().bv_size() <= 64) w.args[param][offset] = {v.get_numeral_uint64(), sym.get_sort().bv_size()};
    }
    w.pointers = pointer_params;
    w.text = witness_text(f, w);
    for (const ThreadEncoding* t : {&T1, &T2})
      for (const auto& x : t->accesses) {
        if (!x.value || x.object < 0 || !pointer_params.count(prep.objects[x.object].name) || !mdl.eval(x.pc, true).is_true()) continue;
        const z3::expr base = c.bv_const(prep.objects[x.object].base_symbol.c_str(), 64);
        const z3::expr value = mdl.eval(*x.value, true);
        if (!value.is_numeral() || value.get_sort().bv_size() > 64) continue;
        const unsigned bytes = std::min(x.size, value.get_sort().bv_size() / 8);
        w.loaded.push_back({prep.objects[x.object].name, mdl.eval(x.addr - base, true).get_numeral_uint64(), value.get_numeral_uint64(), bytes});
      }
    return w;
  };
  // The no-alias assumption (distinct pointer parameters and variables never overlap) for an access whose
  // allocation the static provenance could not tell: its address term names the allocation, through the `ite`s
  // a selected pointer (`selp`, `c ? A : B`) leaves. The allocation's index as a term, or nullopt when unknown.
  std::map<std::string, int> object_of_symbol;
  for (std::size_t k = 0; k < prep.objects.size(); ++k) object_of_symbol[prep.objects[k].base_symbol] = static_cast<int>(k);
  struct ObjectTerm {
    enum { none, known, unknown } kind;  // none: no allocation in it (an integer offset)
    std::optional<z3::expr> id;
  };
  std::unordered_map<unsigned, ObjectTerm> object_terms;  // by term id: address terms share subterms
  std::function<ObjectTerm(const z3::expr&)> object_term_of;
  auto object_term = [&](const z3::expr& e) -> ObjectTerm {
    if (auto it = object_terms.find(e.id()); it != object_terms.end()) return it->second;
    ObjectTerm t = object_term_of(e);
    object_terms.emplace(e.id(), t);
    return t;
  };
  object_term_of = [&](const z3::expr& e) -> ObjectTerm {
    if (e.is_numeral() || !e.is_bv()) return {ObjectTerm::none, {}};
    if (e.is_const()) {
      const std::string nm = e.decl().name().str();
      if (auto it = object_of_symbol.find(nm); it != object_of_symbol.end()) return {ObjectTerm::known, c.bv_val(it->second, 16)};
      // Narrower values are offsets; other 64-bit values (loads, havocked registers, a struct argument's fields)
      // may be pointers to anything.
      return {e.get_sort().bv_size() < 64 ? ObjectTerm::none : ObjectTerm::unknown, {}};
    }
    if (!e.is_app()) return {ObjectTerm::unknown, {}};
    switch (e.decl().decl_kind()) {
      case Z3_OP_ITE: {
        ObjectTerm t = object_term(e.arg(1)), f = object_term(e.arg(2));
        if (t.kind != ObjectTerm::known || f.kind != ObjectTerm::known) return {ObjectTerm::unknown, {}};
        return {ObjectTerm::known, z3::ite(e.arg(0), *t.id, *f.id)};
      }
      case Z3_OP_BADD: {
        ObjectTerm out{ObjectTerm::none, {}};
        for (unsigned k = 0; k < e.num_args(); ++k) {
          ObjectTerm a = object_term(e.arg(k));
          if (a.kind == ObjectTerm::none) continue;
          if (a.kind == ObjectTerm::unknown || out.kind != ObjectTerm::none) return {ObjectTerm::unknown, {}};
          out = a;
        }
        return out;
      }
      // Products and shifts of a pointer are not pointers into it.
      case Z3_OP_BMUL: case Z3_OP_BSHL: return {ObjectTerm::none, {}};
      // A shared address in a 32-bit register (`mov.u32 %r, s; add.s32 ...`) and its zero extension: the same address
      // (shared variables lie below 2^32 - 2^24 and do not wrap, the fact check_kernel states).
      case Z3_OP_ZERO_EXT: return object_term(e.arg(0));
      case Z3_OP_CONCAT:  // (Z3's simplifier writes a zero extension as a concatenation with zeros)
        if (e.num_args() == 2 && z3::eq(e.arg(0), c.bv_val(0, e.arg(0).get_sort().bv_size()))) return object_term(e.arg(1));  // (a numeral may be wider than 64 bits)
        break;
      case Z3_OP_EXTRACT:
        if (Z3_get_decl_int_parameter(c, e.decl(), 1) == 0) return object_term(e.arg(0));
        break;
      default: break;
    }
    // Other operations (extensions, concatenations, ...) of offsets are offsets.
    for (unsigned k = 0; k < e.num_args(); ++k)
      if (object_term(e.arg(k)).kind != ObjectTerm::none) return {ObjectTerm::unknown, {}};
    return {ObjectTerm::none, {}};
  };
  auto object_id = [&](const Access& a) -> std::optional<z3::expr> {
    if (a.object >= 0) return c.bv_val(a.object, 16);
    ObjectTerm t = object_term(a.addr);
    return t.kind == ObjectTerm::known ? t.id : std::nullopt;
  };

  // Both accesses run and overlap, at aligned addresses, in one allocation. With `plain_switch`, where the factored
  // difference applies, the plain overlap is only implied by a fresh literal stored there: the query without it is
  // the cheaper abstraction check_pair tries first.
  auto both_overlap = [&](const Access& a, const Access& b, std::optional<z3::expr>* plain_switch = nullptr) {
    const z3::expr a_size = c.bv_val(a.size, 64), b_size = c.bv_val(b.size, 64);
    const z3::expr plain = accesses_overlap(a.addr, a_size, b.addr, b_size);
    z3::expr q = a.pc && b.pc && aligned(a) && aligned(b);
    // The same overlap over the factored address difference (difference.hpp), whose fresh products can always take
    // the real values, so the query has a model exactly when it had one without: what lets the solver see that
    // products of a symbolic stride are far apart.
    if (FactoredDifference d = factored_difference(a.addr, b.addr); d.factored) {
      q = q && accesses_overlap(d.value, a_size, c.bv_val(0, 64), b_size);
      for (const z3::expr& fact : d.facts) q = q && fact;
      if (plain_switch) {
        plain_switch->emplace(c, Z3_mk_fresh_const(c, "plain_overlap", c.bool_sort()));
        q = q && z3::implies(**plain_switch, plain);
      } else {
        q = q && plain;
      }
    } else {
      q = q && plain;
    }
    if (a.object < 0 || b.object < 0)
      if (auto ia = object_id(a), ib = object_id(b); ia && ib) q = q && *ia == *ib;
    return q;
  };
  // Pairs that cannot conflict whatever the addresses: two reads, memory no other thread sees, shared and global
  // memory, two distinct allocations.
  auto never_conflict = [&](const Access& a, const Access& b) {
    if (!a.write && !b.write) return true;
    if (ignorable(a.space) || ignorable(b.space)) return true;
    const bool a_sh = a.space == Space::shared, b_sh = b.space == Space::shared;
    if ((a_sh && b.space == Space::global) || (b_sh && a.space == Space::global)) return true;
    return a.object >= 0 && b.object >= 0 && a.object != b.object;
  };
  std::set<RaceKey> reported;
  std::size_t n = T1.accesses.size();
  bool budget = false, timed_out = false;
  // ISA 8.6 morally strong without asking the solver: both strong with the same power-of-two size (natural
  // alignment then makes overlap complete overlap) and each scope including the other thread for every pair
  // the query admits (a wide scope, or a .cta one on shared memory, which only threads of one CTA reach).
  auto always_morally_strong = [&](const Access& a, const Access& b) {
    if (!a.strong || !b.strong || a.size != b.size || a.size == 0 || (a.size & (a.size - 1))) return false;
    bool shared = a.space == Space::shared || b.space == Space::shared;
    auto wide = [&](ptx::ir::Scope sc) { return shared || scope_includes(sc, false, true); };
    return wide(a.scope) && wide(b.scope);
  };
  // Where an access may happen (AsyncPosition): its instruction, or anywhere in its cp.async's span, with the CTA
  // barrier intervals it may be in there: past a barrier on the span's path, those that barrier starts; before
  // any, those of the cp.async itself as well (the thread is still in the interval it issued the copy in).
  struct Position {
    AsyncPosition at;
    std::vector<bool> cta_intervals;  // Analysis::starts index -> may be in it
  };
  auto cta_intervals_of = [&](std::uint32_t issue, const AsyncPosition& p) {
    std::vector<bool> in = an.in_interval[p.instr];
    if (p.last_barrier < 0) {
      for (std::size_t k = 0; k < in.size(); ++k) in[k] = in[k] && an.in_interval[issue][k];
    } else {
      const auto after = next_instructions(prep.cfg, static_cast<std::uint32_t>(p.last_barrier));
      for (std::size_t k = 0; k < in.size(); ++k) in[k] = in[k] && std::count(after.begin(), after.end(), an.starts[k]) > 0;
    }
    return in;
  };
  auto in_body = [&](std::size_t L, std::uint32_t instr) { return in_loop(prep.cfg, L, instr); };
  // A position's side of barrier loop L's barriers (Analysis::side): its instruction's, or where the span left
  // the loop when no barrier has been passed since; nullopt when it is outside L otherwise.
  auto side_of = [&](const AsyncPosition& p, std::size_t L) -> std::optional<std::uint8_t> {
    if (in_body(L, p.instr)) return an.side[L][p.instr];
    if (auto it = p.left_from.find(static_cast<int>(L)); it != p.left_from.end()) return an.side[L][it->second];
    return std::nullopt;
  };
  // Barrier loops left only from after their barrier (every exit edge leaves from side 2).
  std::vector<bool> left_after_barrier(prep.cfg.loops.size(), false);
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!an.aligned[L]) continue;
    bool after = true;
    for (int b : prep.cfg.loops[L].body)
      for (std::uint32_t i = prep.cfg.blocks[b].begin; i < prep.cfg.blocks[b].end; ++i)
        for (std::uint32_t next : next_instructions(prep.cfg, i))
          if (!in_body(L, next) && an.side[L][i] != 2) after = false;
    left_after_barrier[L] = after;
  }
  // Per barrier loop left only after its barrier: the instructions from which its header is reachable without
  // passing a CTA barrier (a thread there may still enter it in the current interval).
  std::vector<std::vector<bool>> before_loop(prep.cfg.loops.size());
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!left_after_barrier[L]) continue;
    std::vector<bool>& mark = before_loop[L];
    mark.assign(f.body.size(), false);
    std::vector<std::uint32_t> todo{loop_header(prep.cfg, L)};
    while (!todo.empty()) {
      const std::uint32_t i = todo.back();
      todo.pop_back();
      for (std::uint32_t prev : previous_instructions(prep.cfg, i))
        if (!mark[prev] && !separating_cta_barrier(f.body[prev])) {
          mark[prev] = true;
          todo.push_back(prev);
        }
    }
  }
  // Per barrier loop left only after its barrier: the instructions it can reach (its header's forward closure) and
  // those that can reach it. A thread at an instruction after the loop that cannot reach it again, in a barrier
  // interval that began where the loop cannot have run before, never entered the loop: entering it means passing its
  // barrier before leaving it (`for (d = n >> 1; d > 0; d >>= 1) { __syncthreads(); ... }` run zero times).
  std::vector<std::vector<bool>> reached_from_loop(prep.cfg.loops.size()), reaching_loop(prep.cfg.loops.size());
  for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
    if (!left_after_barrier[L]) continue;
    for (bool forward : {true, false}) {
      std::vector<bool>& mark = forward ? reached_from_loop[L] : reaching_loop[L];
      mark.assign(f.body.size(), false);
      mark_reachable(prep.cfg, {loop_header(prep.cfg, L)}, mark, forward);
    }
  }
  // A span's positions, one of each kind the pair checks below tell apart: the barrier intervals (of the CTA, the
  // warp, the grid) it may be in, and per barrier loop its side of the barrier and which iteration (a pipelined
  // loop's span holds hundreds of positions, of a few kinds).
  std::map<std::uint32_t, std::vector<Position>> span_kinds;
  for (const auto& [issue, positions] : spans) {
    std::set<std::vector<int>> seen;
    for (const AsyncPosition& p : positions) {
      Position pos{p, cta_intervals_of(issue, p)};
      std::vector<int> kind(pos.cta_intervals.begin(), pos.cta_intervals.end());
      for (const Analysis* x : {&an_warp, an_grid ? &*an_grid : nullptr})
        if (x) kind.insert(kind.end(), x->in_interval[p.instr].begin(), x->in_interval[p.instr].end());
      for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
        const auto side = an.aligned[L] ? side_of(p, L) : std::nullopt;
        if (!side) { kind.push_back(-1); continue; }
        auto later = p.later.find(static_cast<int>(L));
        auto entered = p.entered.find(static_cast<int>(L));
        kind.insert(kind.end(), {*side, later != p.later.end() ? later->second : -2, entered != p.entered.end() ? entered->second : -2});
      }
      if (seen.insert(std::move(kind)).second) span_kinds[issue].push_back(std::move(pos));
    }
  }
  // Per access of the encoding (T1's and T2's alike): its positions.
  std::vector<std::vector<Position>> positions_of;
  for (const Access& x : T1.accesses) {
    AsyncPosition at;
    at.instr = x.instr;
    positions_of.push_back(x.async ? span_kinds.at(x.instr) : std::vector<Position>{Position{at, an.in_interval[x.instr]}});
  }
  auto same_cta_interval = [](const Position& x, const Position& y) {
    for (std::size_t k = 0; k < x.cta_intervals.size(); ++k)
      if (x.cta_intervals[k] && y.cta_intervals[k]) return true;
    return false;
  };
  auto any_same_interval = [](const Analysis& intervals, const std::vector<Position>& xs, const std::vector<Position>& ys) {
    for (const auto& x : xs)
      for (const auto& y : ys)
        if (intervals.same_interval(x.at.instr, y.at.instr)) return true;
    return false;
  };
  // T1 at x and T2 at y, in one barrier interval of a CTA: the barriers keep the threads' iterations of a barrier
  // loop around both together (the same iteration, or one apart across the loop's barrier). A position of a
  // cp.async's copy is `later` iterations after the thread's own (async_copy.hpp), or in any one; one the span
  // reached by leaving the loop counts as in the iteration it left, on the side it left from. And a thread in a
  // barrier loop, in an interval that began outside it, has passed none of the loop's barriers since it entered:
  // it is in the loop's first iteration (per interval both may be in).
  auto iterations_together = [&](const Position& px, bool x_async, const Position& py, bool y_async) {
    const AsyncPosition &x = px.at, &y = py.at;
    z3::expr align = c.bool_val(true);
    const z3::expr zero = c.bv_val(0, 64), one = c.bv_val(1, 64);
    auto iteration = [&](const ThreadEncoding& t, const AsyncPosition& p, bool async, int L) -> std::optional<z3::expr> {
      if (!async) return t.k.at(L);
      if (auto it = p.later.find(L); it != p.later.end() && it->second != AsyncPosition::any_iteration) {
        align = align && z3::ult(t.k.at(L), c.bv_val(std::uint64_t{1} << 62, 64));  // no wrap-around below
        return t.k.at(L) + c.bv_val(static_cast<std::uint64_t>(it->second), 64);
      }
      if (auto it = p.entered.find(L); it != p.entered.end() && it->second != AsyncPosition::any_iteration)
        return c.bv_val(static_cast<std::uint64_t>(it->second), 64);
      return std::nullopt;
    };
    for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
      if (!an.aligned[L]) continue;
      const auto sx = side_of(x, L), sy = side_of(y, L);
      if (!sx || !sy) continue;
      const auto k1 = iteration(T1, x, x_async, static_cast<int>(L)), k2 = iteration(T2, y, y_async, static_cast<int>(L));
      if (!k1 || !k2) continue;
      // (One iteration after another: the later one is not the first, so that the sum does not wrap around.)
      const z3::expr k2_next = *k2 == *k1 + one && *k2 != zero, k1_next = *k1 == *k2 + one && *k1 != zero;
      if (*sx == *sy && *sx != 3) align = align && *k1 == *k2;
      else if (*sx == 2 && *sy == 1) align = align && k2_next;
      else if (*sx == 1 && *sy == 2) align = align && k1_next;
      else align = align && (*k1 == *k2 || k2_next || k1_next);
    }
    z3::expr in_some_interval = c.bool_val(false);
    std::set<std::vector<std::size_t>> held_sets;  // per interval: the (loop, thread) pairs held to an iteration
    for (std::size_t k = 0; k < an.starts.size(); ++k) {
      if (!px.cta_intervals[k] || !py.cta_intervals[k]) continue;
      // One thread in barrier loop L, the other outside it, past it (it cannot reach L's header before a barrier).
      // When L is left only after a barrier of an iteration (left_after_barrier), the one outside ran all of its
      // iterations of L, or none, and passed a barrier in its last one. In an interval that began outside L the
      // thread inside has passed none of L's barriers, and in one that began at a barrier in L, a thread before any
      // barrier of its iteration (side 1) is an iteration past the other's last: either way the two run L a
      // different number of times, which barriers aligned in every iteration rule out. A thread after the barrier
      // of its iteration (side 2) is in the iteration the other left L in, its last (ThreadEncoding::last_iteration).
      z3::expr held_to = c.bool_val(true);  // the iterations the interval holds the threads to
      std::vector<std::size_t> held;
      bool different_trip_counts = false;
      for (std::size_t L = 0; L < prep.cfg.loops.size() && !different_trip_counts; ++L) {
        if (!left_after_barrier[L] || in_body(L, x.instr) == in_body(L, y.instr)) continue;
        const bool x_inside = in_body(L, x.instr);
        const AsyncPosition &inside = x_inside ? x : y, &outside = x_inside ? y : x;
        if (before_loop[L][outside.instr]) continue;
        const auto side = side_of(inside, L);
        different_trip_counts = !in_body(L, an.starts[k]) || (side && *side == 1);
        if (different_trip_counts || !side || *side != 2 || (x_inside ? x_async : y_async)) continue;
        const ThreadEncoding& t = x_inside ? T1 : T2;
        if (auto last = t.last_iteration.find(static_cast<int>(L)); last != t.last_iteration.end()) {
          held_to = held_to && last->second;
          held.push_back(2 * prep.cfg.loops.size() + 2 * L + (x_inside ? 0 : 1));
        }
      }
      if (different_trip_counts) continue;
      for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
        if (!an.aligned[L] || in_body(L, an.starts[k])) continue;
        for (int t = 0; t < 2; ++t) {
          const AsyncPosition& p = t == 0 ? x : y;
          if (!in_body(L, p.instr)) continue;
          if (auto it = iteration(t == 0 ? T1 : T2, p, t == 0 ? x_async : y_async, static_cast<int>(L))) {
            held_to = held_to && *it == zero;
            held.push_back(2 * L + static_cast<std::size_t>(t));
          }
        }
      }
      // A thread after a barrier loop it never entered (reached_from_loop above).
      const std::uint32_t start = an.starts[k];
      for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
        if (!left_after_barrier[L] || in_body(L, start) || reached_from_loop[L][start]) continue;
        for (int t = 0; t < 2; ++t) {
          const AsyncPosition& p = t == 0 ? x : y;
          const ThreadEncoding& te = t == 0 ? T1 : T2;
          auto entered = te.entered.find(static_cast<int>(L));
          if ((t == 0 ? x_async : y_async) || !reached_from_loop[L][p.instr] || reaching_loop[L][p.instr] || entered == te.entered.end()) continue;
          held_to = held_to && !entered->second;
          held.push_back(4 * prep.cfg.loops.size() + 2 * L + static_cast<std::size_t>(t));
        }
      }
      if (held_sets.insert(held).second) in_some_interval = in_some_interval || held_to;
    }
    return align && in_some_interval;
  };
  // Both threads' ballot lane facts (encode.hpp lane_facts), for the pairs that need them (check_pair).
  const z3::expr lane_bits = [&] {
    z3::expr bits = c.bool_val(true);
    for (const ThreadEncoding* t : {&T1, &T2})
      for (const z3::expr& bit : t->lane_facts) bits = bits && bit;
    return bits;
  }();
  // ---- message passing through flags (flags.hpp): the sites in pointer arguments whose W has one writer per
  // location, and per consumer access whether, when it runs, the site's R can only have read W's value.
  std::vector<FlagSite> flag_sites;
  for (const FlagSite& site : find_flag_sites(f, prep, T1)) {
    // A buffer or module variable whose content at launch an --assume can name (assume.hpp).
    const Object& flag = prep.objects[static_cast<std::size_t>(site.object)];
    const ptx::ir::Variable* variable = m.find_global(flag.name);
    if (!pointer_params.count(flag.name) && !(variable && variable->space == ptx::ir::StateSpace::global && flag.base_symbol == "&" + flag.name)) continue;
    const Access *w1 = access_of(T1, site.write), *w2 = access_of(T2, site.write);
    if (w1 && w2 && std::get<0>(check(w1->pc && w2->pc && w1->addr == w2->addr)) == z3::unsat) flag_sites.push_back(site);
  }
  // The byte offset of `addr` in an object (its base symbol's), where assume.hpp initial_memory names the content.
  auto offset_in = [&](int object, const z3::expr& addr) {
    return addr - c.bv_const(prep.objects[static_cast<std::size_t>(object)].base_symbol.c_str(), 64);
  };
  enum class FlagRead { settled, initial_content, other_write };
  std::map<std::pair<std::size_t, std::uint32_t>, FlagRead> flag_reads;  // (site, consumer instruction), asked of T1
  auto flag_read = [&](std::size_t k, std::uint32_t consumer) {
    if (auto it = flag_reads.find({k, consumer}); it != flag_reads.end()) return it->second;
    // With the full budget whatever the pass (an answer is kept for every pair).
    const QueryBudget before = current;
    set_budget(o.query);
    const FlagSite& site = flag_sites[k];
    const Access &a = *access_of(T1, consumer), &r = *access_of(T1, site.read);
    const z3::expr runs = a.pc && r.pc;
    const z3::expr read = r.value->extract(8 * r.size - 1, 0);
    const z3::expr offset = offset_in(site.object, r.addr);
    const z3::expr initial = initial_memory(c, prep.objects[static_cast<std::size_t>(site.object)].name, r.size, offset);
    const z3::expr r_size = c.bv_val(r.size, 64);
    // The assumptions about every index (`arg2[*] == 0`), at the element R reads.
    z3::expr each = c.bool_val(true);
    for (const Assumption& x : o.assumptions) {
      std::string error;
      if (x.for_each_index)
        if (auto term = assumption_term(c, x, f, &m, launch.ntid, launch.nctaid, argument_reads, error, z3::udiv(offset, r_size))) each = each && *term;
    }
    FlagRead verdict = FlagRead::settled;
    if (std::get<0>(check(runs && each && read == initial)) != z3::unsat) verdict = FlagRead::initial_content;
    // Another thread's write that may give the value (every thread but T1 is a T2), or any write of T1's own.
    for (const ThreadEncoding* t : {&T2, &T1})
      for (const Access& x : t->accesses) {
        if (verdict != FlagRead::settled) break;
        if (!x.write || (t == &T2 && x.instr == site.write) || never_conflict(x, r)) continue;
        z3::expr gives = x.pc && accesses_overlap(x.addr, c.bv_val(x.size, 64), r.addr, r_size);
        std::optional<z3::expr> written = x.stored;
        if (const AtomicUpdate* u = update_of(*t, x.instr)) written = u->written;
        if (t == &T2 && written && x.size == r.size && written->get_sort().bv_size() >= 8 * r.size)
          gives = gives && !(x.addr == r.addr && written->extract(8 * r.size - 1, 0) != read);
        if (std::get<0>(check(runs && gives)) != z3::unsat) verdict = FlagRead::other_write;
      }
    set_budget(before);
    return flag_reads.emplace(std::make_pair(k, consumer), verdict).first->second;
  };
  std::vector<bool> flag_used(flag_sites.size(), false), flag_needs_initial(flag_sites.size(), false);
  // When the producer's access pb (of encoding P) is released by site k's W and the consumer's access ca (of C) is
  // acquired by its R: the executions in which P is the thread whose W the R read, which order pb before ca.
  auto flag_orders = [&](std::size_t k, const Access& ca, const ThreadEncoding& C, const Access& pb, const ThreadEncoding& P) {
    const FlagSite& site = flag_sites[k];
    const auto acquire = acquire_scope(f, prep.cfg, site, ca.instr), release = release_scope(f, prep.cfg, site, pb.instr);
    if (!acquire || !release) return c.bool_val(false);
    const FlagRead fr = flag_read(k, ca.instr);
    if (fr == FlagRead::initial_content) flag_needs_initial[k] = true;
    if (fr != FlagRead::settled) return c.bool_val(false);
    flag_used[k] = true;
    const Access &w = *access_of(P, site.write), &r = *access_of(C, site.read);
    // (r.pc: a path to ca that does not pass R waits for nothing; flag_read's answer is about the runs that pass R.)
    return w.pc && r.pc && w.addr == r.addr && includes(w.scope) && includes(r.scope) && includes(*acquire) && includes(*release);
  };

  // ---- the last-block ticket (tickets.hpp): the sites the solver accepts, and per consumer access whether, when it
  // runs, the T of its thread, or of the thread that broadcast its result to the CTA, read the last count V0 + N - 1.
  const z3::expr grid_ctas = z3::zext(launch.nctaid[0], 32) * z3::zext(launch.nctaid[1], 32) * z3::zext(launch.nctaid[2], 32);
  auto counter_initial = [&](const AtomicUpdate& u) {
    return initial_memory(c, prep.objects[static_cast<std::size_t>(u.object)].name, u.ret.get_sort().bv_size() / 8, offset_in(u.object, u.addr));
  };
  // The increments before u in coherence order: its read value less the location's initial content (64-bit).
  auto increments_before = [&](const AtomicUpdate& u) {
    const unsigned bits = u.ret.get_sort().bv_size();
    return bits == 64 ? u.ret - counter_initial(u) : z3::zext(u.ret - counter_initial(u), 64 - bits);
  };
  auto read_last = [&](const AtomicUpdate& u) { return u.pc && increments_before(u) == grid_ctas - 1; };
  // A thread's runs of T: its own, and those of the threads whose values reach it through a shared-memory broadcast
  // (a store that a CTA barrier separates from the load, so the writer's acquire pattern is ordered before it).
  auto ticket_updates = [&](const ThreadEncoding& t, std::uint32_t atom) {
    std::vector<const AtomicUpdate*> out;
    for (const auto* list : {&t.updates, &t.writer_updates})
      for (const AtomicUpdate& u : *list)
        if (u.instr == atom && (!u.via || f.body[*u.via].op == ptx::ir::Opcode::st_)) out.push_back(&u);
    return out;
  };
  std::vector<TicketSite> ticket_sites, ticket_initial_unknown;  // accepted; counting only from a known initial content
  // Per accepted site, computed once: both threads' runs of T (ticket_updates) and the instructions after T.
  struct TicketRuns {
    std::vector<const AtomicUpdate*> runs1, runs2;
    std::vector<bool> after;
  };
  std::vector<TicketRuns> ticket_runs;
  std::vector<std::string> ticket_rejected;                       // why a candidate orders nothing (notes)
  // A site can order something only with a release pattern before it and an acquire pattern after it, or with another
  // write to the counter (the reset its increments precede): the others (most atomic counters) are not asked about.
  auto ticket_useful = [&](const TicketSite& site, const Access& counter) {
    const FlagSite pattern{site.atom, site.atom, site.object};
    bool released = false, acquired = false;
    for (const Access& x : T1.accesses) {
      if (x.instr == site.atom) continue;
      if (x.write && !never_conflict(x, counter)) return true;
      released = released || release_scope(f, prep.cfg, pattern, x.instr);
      acquired = acquired || acquire_scope(f, prep.cfg, pattern, x.instr);
    }
    return released && acquired;
  };
  for (const TicketSite& site : find_ticket_sites(f, prep, T1)) {
    if (!update_of(T2, site.atom) || !access_of(T2, site.atom) || !ticket_useful(site, *access_of(T1, site.atom))) continue;
    const QueryBudget before = current;
    set_budget(o.query);
    const AtomicUpdate &u1 = *update_of(T1, site.atom), &u2 = *update_of(T2, site.atom);
    const Access& counter = *access_of(T1, site.atom);
    const unsigned bits = u1.ret.get_sort().bv_size();
    const std::vector<bool> after = after_ticket(prep.cfg, site);
    const auto runs1 = ticket_updates(T1, site.atom), runs2 = ticket_updates(T2, site.atom);
    std::string why;
    bool initial_unknown = false;
    const z3::expr adds_one = z3::implies(u1.pc && z3::ult(increments_before(u1), grid_ctas - 1), u1.written == u1.ret + c.bv_val(1, bits));
    if (std::get<0>(check(u1.pc && u2.pc && same_cta && u1.addr == u2.addr)) != z3::unsat) {
      why = "two threads of one CTA may run it on one location";
    } else if (std::get<0>(check(!adds_one)) != z3::unsat) {
      // (atomicInc(&count, gridDim.x) wraps to 0 above gridDim.x: from an unknown initial content it may.)
      if (std::get<0>(check(!adds_one && counter_initial(u1) == 0)) == z3::unsat) initial_unknown = true;
      else why = "it does not always add 1 before the last count";
    }
    // Every other write to the counter: the last CTA's reset, after a run of T that read the last count (the thread's
    // own before it, or its CTA's broadcasting thread's, before a barrier before it: causality order, then
    // coherence order, 8.10).
    for (const auto& [t, runs] : {std::pair{&T2, &runs2}, std::pair{&T1, &runs1}})
      for (const Access& x : t->accesses) {
        if (!why.empty()) break;
        if (!x.write || x.instr == site.atom || never_conflict(x, counter)) continue;
        const z3::expr reaches = x.pc && accesses_overlap(x.addr, c.bv_val(x.size, 64), counter.addr, c.bv_val(counter.size, 64));
        z3::expr reset = c.bool_val(false);
        for (const AtomicUpdate* u : *runs)
          if (u->via ? after_broadcast(f, prep, *u->via, x.instr) : after[x.instr]) reset = reset || read_last(*u);
        if (std::get<0>(check(reaches && !reset)) != z3::unsat) why = "another write may reach the counter (" + where_of(m, f.body[x.instr]).text() + ")";
      }
    set_budget(before);
    if (!why.empty()) {
      ticket_rejected.push_back("the atomic at " + where_of(m, f.body[site.atom]).text() + " is no last-block ticket: " + why);
    } else if (initial_unknown) {
      ticket_initial_unknown.push_back(site);
    } else {
      ticket_sites.push_back(site);
      ticket_runs.push_back({runs1, runs2, after});
      // Atomicity (8.10) over morally strong increments, each CTA's one: the runs on one location read distinct counts
      // below N (tickets.hpp); a forwarded run is of the forwarding thread's CTA.
      const z3::expr strong = includes(counter.scope);
      for (const AtomicUpdate* x : runs1)
        for (const AtomicUpdate* y : runs2) {
          const z3::expr distinct = x->via || y->via ? !same_cta : c.bool_val(true);
          s.add(z3::implies(distinct && x->pc && y->pc && x->addr == y->addr && strong, increments_before(*x) != increments_before(*y)));
        }
      for (const auto* runs : {&runs1, &runs2})
        for (const AtomicUpdate* u : *runs) s.add(z3::implies(u->pc && strong, z3::ult(increments_before(*u), grid_ctas)));
      // A run forwarded by the thread itself is its own run (T runs once).
      for (const auto& [t, runs] : {std::pair{&T1, &runs1}, std::pair{&T2, &runs2}}) {
        const AtomicUpdate& own = *update_of(*t, site.atom);
        for (const AtomicUpdate* w : *runs)
          if (w->via && w->forwarder_tid.size() == 3) s.add(z3::implies(all_eq(w->forwarder_tid, t->tid), w->ret == own.ret && w->pc == own.pc));
      }
    }
  }
  // Whether, when consumer access `consumer` runs, T1's run u of site k (its own or a forwarded one) read the last
  // count; asked of T1 for both threads, keyed by the forwarding instruction.
  std::map<std::tuple<std::size_t, std::uint32_t, std::optional<std::uint32_t>>, bool> ticket_reads;
  std::vector<bool> ticket_used(ticket_sites.size(), false), ticket_needs_initial(ticket_sites.size(), false),
      ticket_missing_acquire(ticket_sites.size(), false), ticket_orders_increments(ticket_sites.size(), false);
  auto ticket_read = [&](std::size_t k, std::uint32_t consumer, const AtomicUpdate& u) {
    const auto key = std::make_tuple(k, consumer, u.via);
    if (auto it = ticket_reads.find(key); it != ticket_reads.end()) return it->second;
    const QueryBudget before = current;
    set_budget(o.query);
    const z3::expr runs = access_of(T1, consumer)->pc && u.pc;
    const bool last = std::get<0>(check(runs && !read_last(u))) == z3::unsat;
    // Whether the initial content decides it: then an --assume settles it.
    if (!last && std::get<0>(check(runs && !read_last(u) && counter_initial(u) == 0)) == z3::unsat) ticket_needs_initial[k] = true;
    set_budget(before);
    return ticket_reads.emplace(key, last).first->second;
  };
  // When access pb (of encoding P) comes before P's increment at site k with a release pattern, or is the increment,
  // and access ca (of C) after the acquire pattern of a run of T that read the last count (C's own, then ca after it;
  // or its CTA's broadcasting thread's, then the broadcast store after it, and ca after a load of what that store
  // stored, which a CTA barrier separates from it): the executions in which both ran T on one location, which order
  // pb before ca. The increment itself needs no fences (observation order, then base causality order: 8.9.5 item 2).
  auto ticket_orders = [&](std::size_t k, const Access& ca, const ThreadEncoding& C, const Access& pb, const ThreadEncoding& P) {
    const TicketSite& site = ticket_sites[k];
    const FlagSite pattern{site.atom, site.atom, site.object};  // T is the release pattern's write and the acquire's read
    const bool increment = pb.instr == site.atom;
    std::optional<ptx::ir::Scope> release;
    if (!increment && !(release = release_scope(f, prep.cfg, pattern, pb.instr))) return c.bool_val(false);
    const TicketRuns& runs = ticket_runs[k];
    const std::vector<const AtomicUpdate*>& runs1 = runs.runs1;
    const std::vector<const AtomicUpdate*>& runsC = &C == &T1 ? runs.runs1 : runs.runs2;
    const AtomicUpdate& up = *update_of(P, site.atom);
    z3::expr ordered = c.bool_val(false);
    for (const AtomicUpdate* run : runsC) {
      const AtomicUpdate& uc = *run;
      const std::uint32_t after = uc.via ? *uc.via : ca.instr;  // what T's acquire pattern must precede
      const std::optional<ptx::ir::Scope> acquire = increment ? std::nullopt : acquire_scope(f, prep.cfg, pattern, after);
      const bool follows = uc.via ? after_broadcast(f, prep, *uc.via, ca.instr) : acquire || runs.after[ca.instr];
      if (!follows) continue;
      // (T1's run forwarded by the same instruction: the question is asked of T1.)
      const auto same = std::find_if(runs1.begin(), runs1.end(), [&](const AtomicUpdate* u) { return u->via == uc.via; });
      if (same == runs1.end() || !ticket_read(k, ca.instr, **same)) continue;
      if (!increment && !acquire) {  // the last CTA learnt it is last, but its atomic is no acquire pattern
        ticket_missing_acquire[k] = true;
        continue;
      }
      const z3::expr fences = increment ? c.bool_val(true) : includes(*acquire) && includes(*release);
      (increment ? ticket_orders_increments : ticket_used)[k] = true;
      ordered = ordered || (up.pc && uc.pc && up.addr == uc.addr && includes(access_of(P, site.atom)->scope) && fences);
    }
    return ordered;
  };

  const QueryBudget quick = o.query.fraction(20);
  const bool two_passes = !(quick == o.query);
  enum class PairResult { done, unknown, stop };
  // One pair of accesses, T1's i-th and T2's j-th; `final_pass`: an unknown answer is recorded as a reason.
  auto check_pair = [&](std::size_t i, std::size_t j, bool final_pass) {
    const Access& a = T1.accesses[i];
    const Access& b = T2.accesses[j];
    if (never_conflict(a, b)) return PairResult::done;
    if (grid_counter.count(a.instr) || grid_counter.count(b.instr)) return PairResult::done;  // the driver's memory
    const std::vector<Position> &pa = positions_of[i], &pb = positions_of[j];
    if (an_grid && !any_same_interval(*an_grid, pa, pb)) return PairResult::done;  // ordered by a grid synchronisation
    const bool a_sh = a.space == Space::shared, b_sh = b.space == Space::shared;
    if (always_morally_strong(a, b)) return PairResult::done;
    Where wa = where_of(m, f.body[a.instr]), wb = where_of(m, f.body[b.instr]);
    // One report per pair of source locations (not one per thread pair).
    const RaceKey key = race_key(wa, wb);
    if (reported.count(key)) return PairResult::done;
    if (res.races.size() >= o.max_races) return PairResult::stop;
    if (res.queries >= o.max_queries) { budget = true; return PairResult::stop; }
    if (over_budget()) { timed_out = true; return PairResult::stop; }
    std::optional<z3::expr> plain_switch;
    z3::expr q = both_overlap(a, b, &plain_switch) && counter_facts(a, b) && claim_facts(a, b);
    if (a_sh || b_sh) q = q && same_cta;
    // A named barrier every thread passes once orders the two within a CTA (named_barriers.hpp). A cp.async's copy
    // may land after its issue, so only one issued after the waiting operation is ordered by it.
    if ((!a.async && phases.orders(a.instr, b.instr)) || (!b.async && phases.orders(b.instr, a.instr))) {
      if (a_sh || b_sh) return PairResult::done;
      q = q && !same_cta;
    } else if (!phases.barriers.empty()) {
      // Path-sensitively: x before every operation on the barrier, and the other thread past a bar.sync on it.
      auto waited_before = [&](const ThreadEncoding& t, const SinglePhaseBarrier& barrier, std::uint32_t y) {
        z3::expr passed = c.bool_val(false);
        for (const auto& [op, later] : barrier.after_sync)
          if (later[y])
            for (const Barrier& at : t.barriers)
              if (at.instr == op) passed = passed || at.pc;
        return passed;
      };
      z3::expr ordered = c.bool_val(false);
      for (const SinglePhaseBarrier& barrier : phases.barriers) {
        if (!a.async && barrier.before[a.instr]) ordered = ordered || waited_before(T2, barrier, b.instr);
        if (!b.async && barrier.before[b.instr]) ordered = ordered || waited_before(T1, barrier, a.instr);
      }
      if (!ordered.simplify().is_false()) q = q && !(same_cta && ordered);
    }
    // Within one CTA the two run concurrently only in a barrier interval both may be in, in iterations of the
    // barrier loops around them that the barriers keep together.
    // A span's path to a position outside a barrier loop the other access is in (or inside one it is not in) is
    // followed without branch conditions: it may be one that skips or leaves that loop, which the other thread,
    // past the same barriers, does not take. Races that need such a position are possible ones (`across_loop`),
    // unless the position left the loop with no barrier since, in a known iteration (then aligned like one in it).
    auto across_barrier_loop = [&](const AsyncPosition& x, bool x_async, const AsyncPosition& y, bool y_async) {
      auto aligned_outside = [&](const AsyncPosition& p, bool async, int L) {
        auto known = [&](const std::map<int, int>& m) { auto it = m.find(L); return it != m.end() && it->second != AsyncPosition::any_iteration; };
        return async && p.left_from.count(L) && (known(p.later) || known(p.entered));
      };
      for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L) {
        if (!an.aligned[L] || in_body(L, x.instr) == in_body(L, y.instr)) continue;
        const auto& [outside, outside_async] = in_body(L, x.instr) ? std::pair{&y, y_async} : std::pair{&x, x_async};
        if (!aligned_outside(*outside, outside_async, static_cast<int>(L))) return true;
      }
      return false;
    };
    z3::expr concurrent = c.bool_val(false), within_loops = c.bool_val(false);
    for (const Position& x : pa)
      for (const Position& y : pb) {
        if (!same_cta_interval(x, y)) continue;
        const z3::expr together = iterations_together(x, a.async, y, b.async);
        concurrent = concurrent || together;
        if (!((a.async || b.async) && across_barrier_loop(x.at, a.async, y.at, b.async))) within_loops = within_loops || together;
      }
    if (concurrent.is_false()) {
      if (a_sh || b_sh) return PairResult::done;
      q = q && !same_cta;
    } else {
      q = q && z3::implies(same_cta, concurrent.simplify());
    }
    // A full-mask bar.warp.sync between them orders two threads of one warp; a partial one, two in its mask.
    if (!any_same_interval(an_warp, pa, pb)) q = q && !same_warp;
    else if (!any_same_interval(an_subwarp, pa, pb)) q = q && !(same_warp && mutual_warp_sync);
    // One wmma.load/store of a warp is one collective operation: its lanes access disjoint elements.
    if (a.collective && a.instr == b.instr) q = q && !(same_warp && same_iterations(prep.cfg.block_of[a.instr]));
    // Two critical sections of one spin lock are ordered, one after the other (locks.hpp).
    // (A cp.async's copy may happen after the release.)
    for (int la : a.async ? std::vector<int>{} : locks.guarded[a.instr])
      for (int lb : b.async ? std::vector<int>{} : locks.guarded[b.instr]) {
        const auto ia = static_cast<std::size_t>(la), ib = static_cast<std::size_t>(lb);
        const LockSite &sa = locks.sites[ia], &sb = locks.sites[ib];
        const auto &addr_a = lock_address1[ia], &addr_b = lock_address2[ib];
        if (sa.object != sb.object || !addr_a || !addr_b) continue;
        // A shared-memory lock is one per CTA, and so is each location of a per-CTA one.
        q = q && !(*addr_a == *addr_b && (sa.space == Space::shared || sa.cta_private ? same_cta : c.bool_val(true)));
      }
    if (!a.async && !b.async)
      for (std::size_t k = 0; k < flag_sites.size(); ++k) q = q && !flag_orders(k, a, T1, b, T2) && !flag_orders(k, b, T2, a, T1);
    if (!a.async && !b.async)
      for (std::size_t k = 0; k < ticket_sites.size(); ++k) q = q && !ticket_orders(k, a, T1, b, T2) && !ticket_orders(k, b, T2, a, T1);
    if (a.strong && b.strong) {
      // ISA 8.6 morally strong: both strong, each scope includes the other thread, complete overlap.
      z3::expr ms = includes(a.scope) && includes(b.scope) && a.addr == b.addr && c.bool_val(a.size == b.size);
      q = q && !ms;
    }
    if (plain_switch) {
      // First without the plain overlap (its products are multiplier circuits): the factored one often refutes the
      // pair alone, and a query without a constraint has every model the one with it has.
      auto [abstract, unused, why0] = check(q);
      if (abstract == z3::unsat) return PairResult::done;
      // The query with the products is harder still: with a short budget the full one is asked first.
      if (abstract == z3::unknown && !final_pass) return PairResult::unknown;
      q = q && *plain_switch;
    }
    auto [r, model, why] = check(q);
    if (r == z3::unknown) {
      if (final_pass) res.unknown_reasons.push_back("solver: " + why + " (accesses at " + wa.text() + " and " + wb.text() + ")");
      return PairResult::unknown;
    }
    if (r != z3::sat) return PairResult::done;
    // The copy in flight only across a barrier loop's edge (across_barrier_loop): unless the pair also races within.
    bool across_loop = false;
    if (!concurrent.is_false() && !model->eval(z3::implies(same_cta, within_loops), true).is_true()) {
      const z3::expr q_within = q && z3::implies(same_cta, within_loops);
      auto [r4, within, why4] = check(q_within);
      if (r4 == z3::sat) { q = q_within; model = within; }
      else across_loop = true;
    }
    // A wmma matrix element is accessed by some lane of the warp, which one is unspecified (ISA 9.7.14.4.1): a pair
    // of two warps is a race of some lanes of theirs, a pair within one warp may be one thread's two accesses.
    bool lane_unspecified = false;
    if ((a.collective || b.collective) && model->eval(same_warp, true).is_true()) {
      auto [r5, across_warps, why5] = check(q && !same_warp);
      if (r5 == z3::sat) { q = q && !same_warp; model = across_warps; }
      else lane_unspecified = true;
    }
    // Read consistency is asked only of a pair the query without it admits, and whose model breaks it (it makes
    // most queries slower): when it rules the pair out, no race; when the solver cannot tell even with the full
    // budget, a possible race (leaving the facts out over-approximates: the race may need a thread to read two
    // values from one location where it cannot).
    std::vector<unsigned> pair_constants;  // those the accesses' addresses and conditions are built from
    for (const z3::expr& e : {a.addr, a.pc, b.addr, b.pc}) for (unsigned id : constants_of(e)) pair_constants.push_back(id);
    const z3::expr facts = load_facts(pair_constants).simplify();
    bool loads_unsettled = false;
    if (!facts.is_true() && !model->eval(facts, true).is_true()) {  // a model that keeps them needs no second query
      auto [r2, with_facts, why2] = check(q && facts);
      if (r2 == z3::unsat) return PairResult::done;
      if (r2 == z3::sat) { q = q && facts; model = with_facts; }
      else if (!final_pass) return PairResult::unknown;  // asked again with the full budget
      else loads_unsettled = true;
    }
    // Every lane's bit of the ballots (encode.hpp lane_facts), asked only of a pair whose model breaks them, with the
    // pass's budget. When the solver cannot tell even with the full budget, the race may need ballot values no
    // execution gives: a possible race.
    bool ballots_unsettled = false;
    if (!lane_bits.is_true() && !model->eval(lane_bits, true).is_true()) {
      auto [r7, with_bits, why7] = check(q && lane_bits);
      if (r7 == z3::unsat) return PairResult::done;
      if (r7 == z3::sat) { q = q && lane_bits; model = with_bits; }
      else if (!final_pass) return PairResult::unknown;  // asked again with the full budget
      else ballots_unsettled = true;
    }
    // Two threads' atomics on one location may each return any value (memory content), but not both the content
    // before either: in its coherence order one comes after the other (ISA 8.10 Atomicity). A race that needs the
    // values they returned is certain when it holds with one of them reading what an atomic of the other thread
    // wrote (adjacent in that order); one that needs other threads' atomics between them, which the engine does not
    // count, is a possible one.
    bool needs_atomics_between = false;
    {
      // A thread's atomics: its own, or those of the thread whose values it was forwarded (a broadcast's writer, a
      // shuffle's source lane: functions of the forwarding instance, so every term of the pair counts as used),
      // which is not the other checked thread only when the two are in different CTAs. An atomic reads from the
      // other side's atomics of the kind the other side's used one is (own or forwarded: the two lists may name one
      // operation twice).
      std::unordered_set<unsigned> used;
      std::vector<z3::expr> todo{a.addr, a.pc, b.addr, b.pc};
      while (!todo.empty()) {
        const z3::expr x = todo.back();
        todo.pop_back();
        if (!x.is_app() || !used.insert(x.id()).second) continue;
        for (unsigned k = 0; k < x.num_args(); ++k) todo.push_back(x.arg(k));
      }
      auto reads_from = [&](const AtomicUpdate& u, const std::vector<AtomicUpdate>& writers) {
        z3::expr any = c.bool_val(false);
        for (const AtomicUpdate& v : writers)
          if (v.ret.get_sort().bv_size() == u.ret.get_sort().bv_size()) any = any || (v.pc && v.addr == u.addr && u.ret == v.written);
        return any;
      };
      z3::expr adjacent = c.bool_val(true);
      for (bool forwarded1 : {false, true})
        for (bool forwarded2 : {false, true}) {
          const auto& of1 = forwarded1 ? T1.writer_updates : T1.updates;
          const auto& of2 = forwarded2 ? T2.writer_updates : T2.updates;
          const z3::expr distinct = forwarded1 || forwarded2 ? !same_cta : c.bool_val(true);
          for (const AtomicUpdate& u1 : of1)
            for (const AtomicUpdate& u2 : of2)
              if (used.count(u1.ret.id()) && used.count(u2.ret.id()))
                adjacent = adjacent && z3::implies(distinct && u1.pc && u2.pc && u1.addr == u2.addr, reads_from(u2, of1) || reads_from(u1, of2));
        }
      if (!adjacent.is_true() && !model->eval(adjacent, true).is_true()) {
        const QueryBudget pass = current;
        set_budget(quick);
        auto [r6, with_adjacent, why6] = check(q && adjacent);
        set_budget(pass);
        if (r6 == z3::sat) { q = q && adjacent; model = with_adjacent; }
        else needs_atomics_between = true;
      }
    }
    // Values the encoding does not model that the pair's addresses or conditions depend on: the race may need values
    // no execution produces.
    const std::set<std::string> unmodelled = unmodelled_values(a, b);
    // An ordering that only a later iteration can bring: the pair races in the first.
    bool possible = may_be_ordered(a, b, false), in_first_iteration = false;
    if (possible && unmodelled.empty() && !may_be_ordered(a, b, true) && !over_budget()) {
      const z3::expr first = first_iterations(a, b);
      auto [r3, in_first, why3] = check(q && first);
      if (r3 == z3::sat) {
        q = q && first;
        model = in_first;
        possible = false;
        in_first_iteration = true;
      } else if (r3 == z3::unknown && !final_pass) {
        return PairResult::unknown;  // asked again with the full budget
      }
    }
    reported.insert(key);
    // A witness inside the objects' bounds when there is one; a race only outside them is at most possible (below).
    if (const z3::expr inside = within_objects(a, b); !model->eval(inside, true).is_true() && !over_budget())
      if (auto [r7, in_bounds, why7] = check(q && inside); r7 == z3::sat) {
        q = q && inside;
        model = in_bounds;
      }
    // Prefer a small witness (a short replay), with nonzero scalar arguments and offsets a replay can allocate if
    // it can; the first model when there is none or no time is left.
    for (auto [nonzero, offsets] : {std::pair{true, true}, {false, true}, {false, false}}) {
      if (over_budget()) break;
      if (auto [r2, small, why2] = check(q && small_witness(*model, nonzero) && (offsets ? replayable_offsets(a, b) : c.bool_val(true)));
          r2 == z3::sat) {
        model = small;
        break;
      }
    }
    RaceReport rr;
    rr.first = describe(a, *model);
    rr.second = describe(b, *model);
    rr.t1 = ids_of(*model, T1);
    rr.t2 = ids_of(*model, T2);
    rr.witness = witness_of(*model);
    if (!unmodelled.empty()) {
      rr.possible = true;
      std::string what;
      for (const auto& u : unmodelled) what += (what.empty() ? "" : ", ") + u;
      rr.note = "the accesses' addresses or conditions depend on values the symbolic engine does not model (" + what + ")";
    } else if (possible) {
      rr.possible = true;
      rr.note = "fences, release/acquire operations, partial barriers, mbarriers or strong reads observing a strong write on "
                "paths between them may order them (ISA 8.8-8.9; the symbolic engine orders only spin locks' critical sections, "
                "flags with one writer, flags.hpp, and last-block tickets, tickets.hpp)";
    }
    else if (!res.unsupported.empty()) { rr.possible = true; rr.note = "the kernel has unsupported instructions that may order these accesses"; }
    else if (in_first_iteration)
      rr.note = "in the first iteration of the loops around them, before any fence, release/acquire operation or strong read "
                "that could order them in a later one (ISA 8.9.5)";
    // A definite verdict needs evidence (issue 37): an access the witness places outside its object (its index built
    // from values the engine cannot bound, such as ranks read from memory) is at most a possible race.
    for (const auto& [x, xr] : {std::pair{&a, &rr.first}, std::pair{&b, &rr.second}})
      if (const std::string outside = outside_object(*x, *xr); !outside.empty()) {
        rr.possible = true;
        rr.note = "the witness places an access outside its object (" + outside + "): no execution within the objects' "
                  "bounds was found to race" + (rr.note.empty() ? "" : "; " + rr.note);
        break;
      }
    if (loads_unsettled) {
      rr.possible = true;
      rr.note = "the race needs the thread to read two values from one location between its own accesses, which the "
                "solver could not rule out in its budget" + (rr.note.empty() ? "" : "; " + rr.note);
    }
    if (ballots_unsettled) {
      rr.possible = true;
      rr.note = "the race needs ballot bits of other lanes (ISA 9.7.13.9) that the solver could not settle in its budget" +
                (rr.note.empty() ? "" : "; " + rr.note);
    }
    if (needs_atomics_between) {
      rr.possible = true;
      rr.note = "the two threads' atomics on one location return the values the race needs only with other threads' "
                "atomics between them (ISA 8.10 Atomicity), which the symbolic engine does not count" +
                (rr.note.empty() ? "" : "; " + rr.note);
    }
    if (across_loop) {
      rr.possible = true;
      rr.note = "the cp.async may be in flight there only on paths that skip or leave a barrier loop the other access is in "
                "(the copy's span is followed without branch conditions)" + (rr.note.empty() ? "" : "; " + rr.note);
    }
    if (lane_unspecified) {
      rr.possible = true;
      rr.note = "both in one warp, and which lane accesses which element of a wmma matrix is unspecified (ISA 9.7.14.4.1): "
                "the two may be one thread's" + (rr.note.empty() ? "" : "; " + rr.note);
    } else if (a.collective || b.collective) {
      rr.note += (rr.note.empty() ? "" : "; ") + std::string("a wmma.load/store: the warp's lanes together access every element of the "
                                                             "matrix, and the thread shown stands for its warp (ISA 9.7.14.4.1)");
    }
    if (rr.note.empty() && (a.async || b.async)) rr.note = async_note;
    res.races.push_back(rr);
    return res.races.size() >= o.max_races ? PairResult::stop : PairResult::done;
  };
  // Two passes: every pair first with a short solver budget, so that the easy answers (most races, most
  // proofs) come before the per-kernel time goes on hard pairs; then the pairs left unknown with the full budget.
  std::vector<std::pair<std::size_t, std::size_t>> hard;
  set_budget(quick);
  bool stop = false;
  for (std::size_t i = 0; i < n && !stop; ++i)
    for (std::size_t j = i; j < n && !stop; ++j) {
      PairResult r = check_pair(i, j, !two_passes);
      if (r == PairResult::unknown && two_passes) hard.emplace_back(i, j);
      stop = r == PairResult::stop;
    }
  set_budget(o.query);
  for (std::size_t h = 0; h < hard.size() && !stop; ++h) stop = check_pair(hard[h].first, hard[h].second, true) == PairResult::stop;
  // An --assume that states an object's content at launch: `argN[index] == 0`, or `name == 0` for a module variable.
  auto assume_example = [&](int object, const std::string& index) {
    const std::string& name = prep.objects[static_cast<std::size_t>(object)].name;
    for (std::size_t arg = 0; arg < f.params.size(); ++arg)
      if (f.params[arg].name == name) return "arg" + std::to_string(arg + 1) + "[" + index + "] == 0";
    const ptx::ir::Variable* v = m.find_global(name);
    return index == "0" || (v && v->count == 1) ? name + " == 0" : name + "[" + index + "] == 0";
  };
  for (std::size_t k = 0; k < flag_sites.size(); ++k) {
    const std::string site = "the flag written at " + where_of(m, f.body[flag_sites[k].write]).text() + " and read at " +
                             where_of(m, f.body[flag_sites[k].read]).text();
    if (flag_used[k])
      res.notes.push_back("message passing through " + site + ": accesses before its one writer's release pattern are ordered "
                          "before those after the acquire pattern of a reader that waited for the value written (ISA 8.8, "
                          "8.9.4 item 4; neither the initial content nor another write can give the reader that value)");
    else if (flag_needs_initial[k]) {
      res.notes.push_back("message passing through " + site + " orders nothing: at launch the flag may already hold the value "
                          "its reader waits for; state its initial content with --assume (for example '" +
                          assume_example(flag_sites[k].object, "*") + "')");
    }
  }

  for (std::size_t k = 0; k < ticket_sites.size(); ++k) {
    if (ticket_used[k])
      res.notes.push_back("the last-block ticket at " + where_of(m, f.body[ticket_sites[k].atom]).text() +
                          ": accesses before a CTA's increment and its release pattern are ordered before those after the "
                          "acquire pattern of the CTA whose increment read the last count, the grid's CTAs less one more than "
                          "the counter's initial content (ISA 8.9.2 observation order through the atomics, 8.9.4 item 4)");
    else if (ticket_orders_increments[k])
      res.notes.push_back("the last-block ticket at " + where_of(m, f.body[ticket_sites[k].atom]).text() +
                          ": the other CTAs' increments are ordered before what the CTA whose increment read the last count "
                          "runs after it (ISA 8.9.2 observation order, then 8.9.5 base causality order)");
    else if (ticket_needs_initial[k])
      ticket_initial_unknown.push_back(ticket_sites[k]);
  }
  for (const TicketSite& site : ticket_initial_unknown)
    res.notes.push_back("the last-block ticket at " + where_of(m, f.body[site.atom]).text() + " orders nothing: which CTA reads the "
                        "last count depends on the counter's content at launch; state it with --assume (for example '" +
                        assume_example(site.object, "0") + "')");
  // (Why a candidate orders nothing matters only where a race is possible.)
  if (std::any_of(res.races.begin(), res.races.end(), [](const RaceReport& r) { return r.possible; })) {
    for (const std::string& why : ticket_rejected) res.notes.push_back(why);
    for (std::size_t k = 0; k < ticket_sites.size(); ++k)
      if (ticket_missing_acquire[k])
        res.notes.push_back("the last-block ticket at " + where_of(m, f.body[ticket_sites[k].atom]).text() + " does not order the last "
                            "CTA's accesses after the other CTAs' writes: no acquire fence follows the atomic (before its verdict "
                            "is stored for the CTA, or before the access), and a barrier is no fence (ISA 8.8, 8.9.4); a "
                            "__threadfence() right after the atomic makes it an acquire pattern");
  }

  // ---- a thread's own accesses while its cp.async is in flight. ISA 9.7.9.25.3.3: the copy's writes become visible
  // to the thread only when its group completes, and the copy is ordered with none of the thread's later
  // instructions, its other copies included (9.7.9.25.3.2): one thread's access may race with its own copy. Asked of
  // a solver without the two threads being distinct. An access in a later iteration than the copy's is T2's
  // encoding as that iteration of T1: T1's ids, its iteration `later` on, values loaded or havocked of its own.
  std::optional<z3::solver> one_thread;
  for (std::size_t i = 0; i < T1.accesses.size() && !stop && !spans.empty(); ++i) {
    const Access& a = T1.accesses[i];
    if (!a.async) continue;
    for (std::size_t j = 0; j < T1.accesses.size() && !stop; ++j) {
      if (never_conflict(a, T1.accesses[j])) continue;  // (j == i too: the same copy in a later iteration)
      for (const AsyncPosition& p : spans.at(a.instr)) {
        if (p.instr != T1.accesses[j].instr) continue;
        // (Loops the span has left say only when it left them: the access after one is T2's, as before.)
        const bool same_iteration = std::all_of(p.later.begin(), p.later.end(), [&](const auto& l) { return l.second == 0 && in_body(static_cast<std::size_t>(l.first), p.instr); });
        if (same_iteration && p.instr == a.instr) continue;  // the copy's own read and write
        const Access& b = same_iteration ? T1.accesses[j] : T2.accesses[j];
        Where wa = where_of(m, f.body[a.instr]), wb = where_of(m, f.body[b.instr]);
        const RaceKey key = race_key(wa, wb);
        if (reported.count(key)) break;
        if (res.races.size() >= o.max_races) { stop = true; break; }
        if (res.queries >= o.max_queries) { budget = true; stop = true; break; }
        if (over_budget()) { timed_out = true; stop = true; break; }
        if (!one_thread) {
          // T2 here is T1 in a later iteration: T2's facts that tie its iteration counters to its ids (a forwarded
          // value's lane view, encode.cpp lane_view: `s72.k1(ctaid, tid) == k1`, true of one thread at one instance)
          // would force T2's iterations to be T1's. They are left out (fewer facts admit more executions).
          std::unordered_set<unsigned> t2_iterations, t2_facts;
          for (const auto& [L, k] : T2.k) t2_iterations.insert(k.id());
          for (const z3::expr& fact : T2.facts) t2_facts.insert(fact.id());
          auto pins_t2_iteration = [&](const z3::expr& e) {
            if (!t2_facts.count(e.id())) return false;
            for (unsigned id : constants_of(e))
              if (t2_iterations.count(id)) return true;
            return false;
          };
          one_thread.emplace(c);
          o.query.apply_to(*one_thread);
          for (const z3::expr& e : s.assertions())
            if (!z3::eq(e, distinct_threads) && !pins_t2_iteration(e)) one_thread->add(e);
        }
        const ThreadEncoding& tb = same_iteration ? T1 : T2;
        z3::expr q = both_overlap(a, b);
        if (!same_iteration) {
          q = q && all_eq(T2.tid, T1.tid) && all_eq(T2.ctaid, T1.ctaid);
          // One thread: what it computed once, outside the loops, is the same in both encodings.
          if (T1.once_symbols.size() == T2.once_symbols.size())
            for (std::size_t n = 0; n < T1.once_symbols.size(); ++n)
              if (z3::eq(T1.once_symbols[n].get_sort(), T2.once_symbols[n].get_sort())) q = q && T1.once_symbols[n] == T2.once_symbols[n];
          for (const auto& [L, later] : p.later)
            if (later != AsyncPosition::any_iteration && in_body(static_cast<std::size_t>(L), p.instr))
              q = q && T2.k.at(L) == T1.k.at(L) + c.bv_val(static_cast<std::uint64_t>(later), 64);
        }
        for (const auto& [L, iteration] : p.entered)
          if (iteration != AsyncPosition::any_iteration && in_body(static_cast<std::size_t>(L), p.instr))
            q = q && tb.k.at(L) == c.bv_val(static_cast<std::uint64_t>(iteration), 64);
        if (!same_iteration && p.instr == a.instr) {
          // The copy against a later run of its own instruction (an iteration `any_iteration` away leaves the k free):
          // another run, in another iteration of some loop around it.
          z3::expr another = c.bool_val(false);
          for (std::size_t L = 0; L < prep.cfg.loops.size(); ++L)
            if (in_body(L, a.instr)) another = another || T2.k.at(static_cast<int>(L)) != T1.k.at(static_cast<int>(L));
          q = q && another;
        }
        auto [r, model, why] = check_on(*one_thread, q);
        if (r == z3::unknown) res.unknown_reasons.push_back("solver: " + why + " (accesses at " + wa.text() + " and " + wb.text() + ")");
        if (r != z3::sat) continue;
        reported.insert(key);
        RaceReport rr;
        rr.first = describe(a, *model);
        rr.second = describe(b, *model);
        rr.t1 = rr.t2 = ids_of(*model, T1);
        rr.witness = witness_of(*model);
        rr.note = "one thread: its own access while its cp.async is in flight" + std::string(same_iteration ? "" : " (in a later iteration of the loop)") +
                  "; the copy's writes are visible to the thread only after the cp.async.wait_group or wait_all that completes "
                  "its group (ISA 9.7.9.25.3.3)";
        if (!unmodelled_values(a, b).empty()) rr.possible = true;
        if (rr.possible) rr.note += "; the accesses' addresses or conditions depend on values the symbolic engine does not model";
        res.races.push_back(rr);
        break;
      }
    }
  }
  if (timed_out) res.unknown_reasons.push_back(budget_reason() + " before every access pair was checked");
  if (budget) res.unknown_reasons.push_back("query budget of " + std::to_string(o.max_queries) + " solver calls reached");

  if (!prep.cfg.loops.empty())
    res.notes.push_back(std::to_string(prep.cfg.loops.size()) + " loop(s) abstracted for every iteration count (induction variables as init + k*step, toggles and shifts by a "
                        "constant in closed form, other loop-modified registers havocked after iteration 0): no bound");
  res.notes.push_back("distinct pointer parameters (pointers in struct parameters too) and variables are assumed not to alias; addresses are naturally aligned (ISA 6.4.1)");
  for (const auto& n : inl.notes) res.notes.push_back(n);
  if (claims_used)
    res.notes.push_back("claims: a location every write to which is an atomicCAS from one value E to another value is "
                        "claimed once, so two threads' CASes on it do not both return E (ISA 8.10 Atomicity)");
  if (counters_assumed)
    res.notes.push_back("atomic counters (locations written only by atom/red.add of a non-negative amount, or, in shared memory, "
                        "also by writes in barrier intervals none of the adds is in) are assumed not to wrap around, so two "
                        "threads' adds to one counter take disjoint ranges");

  if (o.replay) {
    ReplayOptions ro;
    ro.cooperative = reads_envreg(f);  // the grid workspace: as the grid-sync notes assume
    ro.assumptions = o.assumptions;
    replay_races(m, kernel, res.races, ro);
    if (auto why = guard.exhausted()) res.notes.push_back("the replay of the witnesses stopped: " + *why);
  }
  bool definite = false;
  for (const auto& r : res.races) if (!r.possible) definite = true;
  if (definite || !res.divergences.empty()) res.verdict = KernelResult::Verdict::race;
  else if (!res.races.empty() || !res.unknown_reasons.empty() || !res.unsupported.empty()) {
    res.verdict = KernelResult::Verdict::unknown;
    if (!res.races.empty()) res.unknown_reasons.push_back("possible race: " + res.races.front().note);
    if (!res.unsupported.empty()) res.unknown_reasons.push_back("unsupported instructions: " + res.unsupported.front());
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}
}  // namespace

KernelResult check_kernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o) {
  ResourceGuard guard(o.limits());
  const auto t0 = std::chrono::steady_clock::now();
  auto unknown = [&](const std::string& why) {
    KernelResult r;
    r.kernel = kernel.name;
    r.verdict = KernelResult::Verdict::unknown;
    r.unknown_reasons.push_back(why);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  try {
    KernelResult r = check_kernel_guarded(m, kernel, o, guard);
    r.cpu_seconds = guard.cpu_seconds();
    return r;
  } catch (const BudgetExhausted& e) {
    return unknown(e.what());
  } catch (const z3::exception& e) {  // Z3's own memory cap, or canceled by the guard
    return unknown(guard.exhausted().value_or(z3_failure(e.msg(), o)));
  } catch (const std::bad_alloc&) {
    return unknown("out of memory (budget " + std::to_string(o.memory_mb) + " MB)");
  }
}

}  // namespace ptxcheck::race
