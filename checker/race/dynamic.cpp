// The dynamic engine (see dynamic.hpp): an interpreter Observer that keeps a vector clock per thread and, per byte
// of global and shared memory, the last write and the reads since, FastTrack style.
#include "checker/race/dynamic.hpp"

#include "semantics/support/cpu_clock.hpp"
#include "checker/race/describe.hpp"
#include "checker/race/model_rules.hpp"
#include "checker/race/notes.hpp"
#include "checker/race/shadow.hpp"
#include "checker/race/strength.hpp"
#include "semantics/interp/cluster_id.hpp"
#include "semantics/interp/observer.hpp"
#include "semantics/ir/mbarrier_order.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ptxcheck::race {
namespace {

using ptx::interp::MemoryAccess;
using ptx::interp::ThreadRef;
using ptx::ir::MemorySemantics;
using ptx::ir::Scope;
using ptx::ir::StateSpace;

// A vector clock over the grid's threads, one block of counters per CTA (a thread absent from the clock counts as 0:
// nothing of it is known). Blocks, and the list of them, are shared between clocks and copied only when written
// while shared: once fence.sc, barriers and release chains have joined the threads' clocks, most clocks hold the
// same blocks, so a copy is a pointer and a join compares pointers before counters. (With a counter per thread of
// the grid in every clock, a 60 x 256 launch with __threadfence() in every thread needed gigabytes.)
class VectorClock {
 public:
  VectorClock() = default;
  explicit VectorClock(std::uint64_t cta_size) : cta_size_(cta_size) {}

  std::uint32_t get(std::uint64_t t) const {
    if (!blocks_) return 0;
    auto it = find(*blocks_, t / cta_size_);
    return it != blocks_->end() && it->cta == t / cta_size_ ? (*it->counters)[t % cta_size_] : 0;
  }

  void set(std::uint64_t t, std::uint32_t c) {
    auto& blocks = writable(blocks_);
    const std::uint64_t cta = t / cta_size_;
    auto it = find(blocks, cta);
    if (it == blocks.end() || it->cta != cta) it = blocks.insert(it, {cta, std::make_shared<Counters>(cta_size_, 0)});
    writable(it->counters)[t % cta_size_] = c;
  }

  void join(const VectorClock& o) {
    if (!o.blocks_ || o.blocks_ == blocks_) return;
    if (!blocks_) { *this = o; return; }
    std::vector<Entry>& mine = writable(blocks_);
    std::vector<Entry> merged;
    merged.reserve(mine.size() + o.blocks_->size());
    std::size_t i = 0;
    for (const Entry& b : *o.blocks_) {
      for (; i < mine.size() && mine[i].cta < b.cta; ++i) merged.push_back(std::move(mine[i]));
      if (i == mine.size() || mine[i].cta != b.cta) { merged.push_back(b); continue; }
      Entry a = std::move(mine[i++]);
      join_block(a.counters, b.counters);
      merged.push_back(std::move(a));
    }
    for (; i < mine.size(); ++i) merged.push_back(std::move(mine[i]));
    // A join that came out equal to the other clock shares its list (after fence.sc most clocks are the grid's).
    if (std::equal(merged.begin(), merged.end(), o.blocks_->begin(), o.blocks_->end(),
                   [](const Entry& x, const Entry& y) { return x.counters == y.counters; }))
      blocks_ = o.blocks_;
    else
      mine = std::move(merged);
  }

 private:
  using Counters = std::vector<std::uint32_t>;
  struct Entry {
    std::uint64_t cta = 0;
    std::shared_ptr<Counters> counters;
  };

  static std::vector<Entry>::const_iterator find(const std::vector<Entry>& blocks, std::uint64_t cta) {
    return std::lower_bound(blocks.begin(), blocks.end(), cta, [](const Entry& e, std::uint64_t c) { return e.cta < c; });
  }
  static std::vector<Entry>::iterator find(std::vector<Entry>& blocks, std::uint64_t cta) {
    return std::lower_bound(blocks.begin(), blocks.end(), cta, [](const Entry& e, std::uint64_t c) { return e.cta < c; });
  }
  // Shared data is never written: a holder that is not the only one writes its own copy.
  template <class T> static T& writable(std::shared_ptr<T>& p) {
    if (!p) p = std::make_shared<T>();
    else if (p.use_count() > 1) p = std::make_shared<T>(*p);
    return *p;
  }
  // a := the element-wise maximum of a and b. A block of this clock alone is written in place; otherwise a block
  // that already is the maximum is kept or shared rather than copied.
  static void join_block(std::shared_ptr<Counters>& a, const std::shared_ptr<Counters>& b) {
    if (a == b) return;
    Counters& x = *a;
    const Counters& y = *b;
    if (a.use_count() == 1) {
      bool y_covers = true;
      for (std::size_t k = 0; k < x.size(); ++k) {
        y_covers = y_covers && y[k] >= x[k];
        x[k] = std::max(x[k], y[k]);
      }
      if (y_covers) a = b;  // equal now: share it
      return;
    }
    bool x_covers = true, y_covers = true;
    for (std::size_t k = 0; k < x.size(); ++k) {
      x_covers = x_covers && x[k] >= y[k];
      y_covers = y_covers && y[k] >= x[k];
    }
    if (x_covers) return;
    if (y_covers) { a = b; return; }
    auto joined = std::make_shared<Counters>(x);
    for (std::size_t k = 0; k < joined->size(); ++k) (*joined)[k] = std::max((*joined)[k], y[k]);
    a = std::move(joined);
  }

  std::uint64_t cta_size_ = 0;
  std::shared_ptr<std::vector<Entry>> blocks_;  // by CTA, ascending; null: every counter 0
};

// What tcgen05.fence::before_thread_sync orders before a thread's later execution ordering operations (9.7.16.6.3):
// the operations it had completed, for any later tcgen05 operation, and the MMAs it had issued, for later MMAs.
struct TcgenOrder {
  VectorClock done, mma;
  void join(const TcgenOrder& o) {
    done.join(o.done);
    mma.join(o.mma);
  }
};

// What a release pattern (ISA 8.8) makes visible: the releasing thread's clock at the pattern's first instruction,
// with that instruction's scope, which decides (8.9.4 item 4) whether it is morally strong with an acquire
// pattern's last instruction.
struct Release {
  std::uint64_t cta = 0, cluster = 0;  // the releasing thread's CTA and cluster (linear ids)
  Scope scope = Scope::sys;
  VectorClock clock;
};

// The releases a read of a write may acquire. Whether a release synchronizes with an acquire depends only on how
// near the two threads are (one CTA: any scopes; one cluster: both scopes at least .cluster; else both wider,
// 8.9.4 item 4, scope_includes). So a set keeps one clock per releasing CTA, for acquires in that CTA, one per
// releasing cluster of the releases of cluster scope or wider, for such acquires in that cluster, and one of the
// releases wider than a cluster, for such acquires anywhere: it stays small however long an atomic chain passes
// it on.
struct ReleaseSet {
  std::map<std::uint64_t, VectorClock> by_cta, by_cluster;
  VectorClock wide;

  void add(const Release& r) {
    by_cta[r.cta].join(r.clock);
    if (reach(r.scope) >= 1) by_cluster[r.cluster].join(r.clock);
    if (reach(r.scope) >= 2) wide.join(r.clock);
  }
  void add(const ReleaseSet& o) {
    for (const auto& [cta, clock] : o.by_cta) by_cta[cta].join(clock);
    for (const auto& [cluster, clock] : o.by_cluster) by_cluster[cluster].join(clock);
    wide.join(o.wide);
  }
};

// What one thread's strong reads of a location observed and it has not acquired yet (8.8 forms 2 and 3): the
// releases of its own CTA, which any later acquire takes, those of its cluster, which an acquire of cluster scope
// or wider takes, and the wide ones, which only an acquire wider than a cluster takes.
struct Pending {
  VectorClock own, cluster, wide;

  void add(const ReleaseSet& s, std::uint64_t own_cta, std::uint64_t own_cluster) {
    if (auto it = s.by_cta.find(own_cta); it != s.by_cta.end()) own.join(it->second);
    if (auto it = s.by_cluster.find(own_cluster); it != s.by_cluster.end()) cluster.join(it->second);
    wide.join(s.wide);
  }
};


}  // namespace

// A strong write's place in observation order (8.9.2): the releases a read of it (directly or through a chain of
// atomics) may acquire.
struct WriteSync {
  std::uint64_t event = 0;  // which write (Cell::write_event)
  std::uint64_t cta = 0;
  Scope scope = Scope::sys;
  std::uint32_t bytes = 0;
  ReleaseSet releases;
  // What the writer's tcgen05.fence::before_thread_sync ordered before it (and, for an atomic, before the write it
  // overwrote): a morally strong read that observes the write receives it (9.7.16.6.3, access()).
  TcgenOrder tc;
};

namespace {

using shadow::Cell;
using shadow::Epoch;

struct Site {
  const ptx::ir::Instruction* ins = nullptr;
  std::uint32_t pc = 0;
  Strength atomic_strength, plain_strength;  // read as an atomic or as a plain access
};

struct Key {
  std::uint64_t region = 0;  // 0 global, 1 + CTA-linear id for that CTA's shared memory
  std::uint64_t addr = 0;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const { return std::hash<std::uint64_t>()(k.addr * 0x9E3779B97F4A7C15ull ^ k.region); }
};

struct Allocation {
  std::string name;
  std::uint64_t base = 0, bytes = 0;
};

class Detector final : public ptx::interp::Observer {
 public:
  Detector(const ptx::ir::Module& m, const ptx::interp::Launch& l, const DynamicOptions& o, DynamicResult& out)
      : m_(m), o_(o), out_(out), cta_size_(std::uint64_t(l.block[0]) * l.block[1] * l.block[2]),
        threads_in_grid_(cta_size_ * l.grid[0] * l.grid[1] * l.grid[2]), block_(l.block), grid_(l.grid) {
    const auto named = m.kernels_named(l.kernel);
    kernel_ = named.size() == 1 ? named[0] : nullptr;
    cluster_ = ptx::interp::cluster_shape(l.cluster, kernel_).dims;
  }

  const shadow::ShadowMemory& shadow_memory() const { return shadow_; }

  std::string stop_reason() override {
    if (o_.max_seconds <= 0 || thread_cpu_seconds() - start_ <= o_.max_seconds) return {};
    return "time budget of " + std::to_string(o_.max_seconds) + " CPU seconds reached";
  }

  void allocation(const std::string& name, StateSpace space, std::uint64_t base, std::uint64_t bytes) override {
    (space == StateSpace::shared ? shared_objects_ : global_objects_).push_back({name, base, bytes});
  }

  void access(const ThreadRef& t, const MemoryAccess& a) override {
    // Local and param memory are private to a thread; const memory is never written by a kernel.
    if (a.space != StateSpace::global && a.space != StateSpace::shared) return;
    ++out_.accesses;
    if (a.async) return async_copy(t, a);
    if (a.texture) return texture_read(t, a);
    ThreadState& ts = state(t);
    const std::uint32_t site = site_of(a);
    const bool atomic = a.kind == MemoryAccess::Kind::atomic || a.kind == MemoryAccess::Kind::reduction;
    const bool reads = a.kind == MemoryAccess::Kind::read || a.kind == MemoryAccess::Kind::atomic;
    const bool writes = a.kind == MemoryAccess::Kind::write || a.kind == MemoryAccess::Kind::reduction ||
                        (a.kind == MemoryAccess::Kind::atomic && a.wrote);
    const Strength st = strength_of(*a.ins, atomic);
    const Key first{a.space == StateSpace::shared ? 1 + a.owner_cta : 0, a.addr};
    Epoch now{t.id, ts.clock.get(t.id), site, a.bytes, atomic, writes};
    // The write this read observes (8.9.2): every byte last written by one strong write of the same extent.
    // (Held here: check_history replaces the cells' history.)
    std::shared_ptr<const WriteSync> observed;
    if (reads && st.strong) observed = observed_write(first, a.bytes, t, st);
    check_history(first, now, [&](const Epoch& e) { return ordered_before(e, ts); }, t.id, observed != nullptr);

    // Release side (8.8): the clock before this instruction's own acquire, published with the write.
    ReleaseSet published;
    TcgenOrder published_tc;
    if (writes && st.strong) {
      // 9.7.16.6.3: a morally strong write carries what the thread's tcgen05.fence::before_thread_sync ordered, and
      // an atomic also what the write it read carried (its observation chain, 8.9.2 item 2, as for releases below).
      published_tc = ts.tc_before;
      if (atomic && observed) published_tc.join(observed->tc);
      const bool releases = release_operation(*a.ins);
      if (releases) published.add(release_of(t, st.scope, ts.clock));  // form 1
      for (const auto& r : ts.fence_release)  // form 3: a release fence earlier in program order
        if (r) published.add(*r);
      if (auto it = ts.release_ops.find(first); it != ts.release_ops.end())  // form 2: an earlier release on it
        published.add(it->second);
      if (releases) ts.release_ops[first] = release_of(t, st.scope, ts.clock);  // the latest covers the earlier
      // An atomic that reads the write it overwrites continues that write's observation chain (8.9.2 item 2).
      if (atomic && observed) published.add(observed->releases);
    }
    if (observed) ts.tc_received.join(observed->tc);  // 9.7.16.6.3: a morally strong read, acquire or not
    // Acquire side (8.8): an acquire operation takes what it observed now; otherwise a later acquire fence
    // (form 3) or acquire operation on the same location (form 2) may.
    if (reads && st.strong && a.kind != MemoryAccess::Kind::reduction) {  // 8.8: red forms no acquire pattern
      if (acquire_operation(*a.ins)) {
        if (auto it = ts.pending.find(first); it != ts.pending.end()) acquire(ts, it->second, st.scope);  // form 2
        if (observed) acquire(ts, t, st.scope, observed->releases);
      } else if (observed) {
        ts.pending[first].add(observed->releases, t.cta, cluster_of(t));
      }
    }
    if (Cell* c0 = shadow_.find(first.region, first.addr); writes && c0) {
      if (st.strong) {
        auto sync = std::make_shared<WriteSync>();
        sync->event = next_event_;
        sync->cta = t.cta;
        sync->scope = st.scope;
        sync->bytes = a.bytes;
        sync->releases = std::move(published);
        sync->tc = std::move(published_tc);
        c0->set_sync(std::move(sync));
      }
    }
    if (writes) ++next_event_;
    if (writes && st.strong && release_operation(*a.ins)) tick(ts, t);
  }

  // cp.async.commit_group / wait_group N / wait_all (ISA 9.7.9.25.3.2-3): a wait completes every group but the N
  // newest, and the thread then knows their copies (async_copy).
  void async_group(const ThreadRef& t, const ptx::ir::Instruction& ins) override {
    ThreadState& ts = state(t);
    for (std::uint32_t k = ptx::ir::async_commits(ins); k > 0; --k) ts.async_group_end.push_back(ts.async_epoch++);
    if (ptx::ir::async_copy_role(ins) != ptx::ir::AsyncCopyRole::wait) return;
    const std::size_t newest_pending = ptx::ir::async_wait_pending(ins), committed = ts.async_group_end.size();
    if (committed <= newest_pending) return;
    const std::uint64_t copier = async_thread(t);
    ts.clock.set(copier, std::max(ts.clock.get(copier), ts.async_group_end[committed - newest_pending - 1]));
  }

  // mbarrier objects (ISA 9.7.13.15). An arrive-on is an atomic read-modify-write of the object and a wait a read
  // of it (8.8 item 1 names both operations on it; memmodel/models/NOTES.md, "mbarrier"), so a wait observes,
  // through the chain of arrive-ons since the init (8.9.2 item 2), every arrive-on before it: an .acquire wait, True
  // or False, synchronizes with each that released and is morally strong with it (8.9.4 item 4: each scope includes
  // the other thread; ReleaseSet), in the phase it tests (9.7.13.15.16 item 1) and in the next one (arrivals_). A
  // phase carries what no release arrive-on does: the cp.async copies a cp.async.mbarrier.arrive stood for (item
  // 2), the complete-tx of asynchronous operations, tcgen05 orders; a wait that returns True takes its phase's.
  // barrier.cluster (kClusterBarrierObject) goes phase by phase, its arrives released in the phase (8.9.4 item 3).
  void mbarrier_init(const ThreadRef&, const ptx::ir::Instruction&, std::uint64_t home, std::uint64_t object) override {
    mbarriers_.erase({home, object});
    arrivals_.erase({home, object});
  }

  void mbarrier_arrive(const ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) override {
    ThreadState& ts = state(t);
    auto& phases = mbarriers_[{home, object}];
    while (!phases.empty() && phases.begin()->first + 1 < phase) phases.erase(phases.begin());  // no longer waitable
    MbarrierPhase& ph = mbarrier_phase(home, object, phase);
    VectorClock& released = ph.released;
    if (ptx::ir::mbarrier_op(ins) == ptx::ir::MbarrierOp::copy_arrive) {
      // ISA 8.9.1.1: this arrive-on is ordered after the thread's cp.async copies so far, and after nothing else
      // the thread did; the copies it issues later belong to a new epoch.
      VectorClock copies(cta_size_);
      copies.set(async_thread(t), ts.async_epoch++);
      released.join(copies);
      return;
    }
    ph.tc.join(ts.tc_before);  // an execution ordering operation, relaxed or not (9.7.16.6.3)
    const bool cluster_barrier = object == ptx::interp::kClusterBarrierObject;
    if (!barrier_arrive_releases(ins)) {  // the model's answer (model_rules.hpp): not a .relaxed one (9.7.13.3, 9.7.13.15.13)
      // A .relaxed arrive-on is still a strong write of the object: after a release fence it completes a release
      // pattern (8.8 form 3), as in 9.7.13.4's own example "fence.release...; mbarrier.arrive.relaxed.cluster".
      // Not barrier.cluster.arrive, which chapter 8 makes no write.
      if (!cluster_barrier)
        for (const auto& r : ts.fence_release)
          if (r) arrivals_[{home, object}].add(*r);
      return;
    }
    if (cluster_barrier) released.join(ts.clock);
    else arrivals_[{home, object}].add(release_of(t, ptx::ir::mbarrier_order(ins).value_or(ptx::ir::MemoryOrder{}).scope, ts.clock));
    tick(ts, t);
  }

  void mbarrier_wait(const ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) override {
    ThreadState& ts = state(t);
    const bool relaxed = !barrier_wait_acquires(ins);  // the model's answer: not a .relaxed one (9.7.13.3, 9.7.13.15.16)
    const bool cluster_barrier = object == ptx::interp::kClusterBarrierObject;
    if (!cluster_barrier) observe_arrivals(ts, t, ins, home, object);
    auto it = mbarriers_.find({home, object});
    if (it == mbarriers_.end()) return;
    auto p = it->second.find(phase);
    if (p == it->second.end()) return;
    // A relaxed wait still orders tcgen05 operations after a later tcgen05.fence::after_thread_sync (9.7.16.6.3),
    // and either kind brings what the arriving threads' tcgen05.fence::before_thread_sync ordered.
    ts.tc_received.join(p->second.tc);
    if (relaxed) {
      ts.tc_relaxed.join(p->second.released);
      if (!cluster_barrier) ts.pending[Key{1 + home, object}].own.join(p->second.released);  // for an acquire fence
    } else {
      ts.clock.join(p->second.released);
    }
  }

  // mbarrier.expect_tx / complete_tx (9.7.13.15.11-12): "a relaxed operation", but a strong write of the object, so
  // after a release fence a release pattern (8.8 item 3), as a .relaxed arrive-on's (the model's answer:
  // dynamic_model/mbarrier_complete_tx_fence_release.ptx, where the engine had released nothing).
  void mbarrier_tx(const ThreadRef& t, const ptx::ir::Instruction&, std::uint64_t home, std::uint64_t object) override {
    for (const auto& r : state(t).fence_release)
      if (r) arrivals_[{home, object}].add(*r);
  }

  // A wait that returned False read the object all the same (an .acquire one synchronizes with what it observed).
  void mbarrier_wait_incomplete(const ThreadRef& t, const ptx::ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override {
    observe_arrivals(state(t), t, ins, home, object);
  }

  // ---- The asynchronous proxy (ISA 8.6). An operation's accesses are made by a thread of their own in the clocks
  // (op_thread: one for its reads, one for its writes), ordered after what preceded its issue in base causality
  // order. Against earlier generic-proxy accesses that is not enough: 8.9.5 orders accesses of different proxies
  // only through a proxy fence on the base causality path (fence.proxy.async, 9.7.13.4), in async_before. Its
  // completion is followed by an implicit generic-async proxy fence (9.7.9.25.2, 9.7.15.4), so later generic
  // accesses need only know the operation: through its mbarrier phase (complete-tx) or their thread's wait_group.
  void async_op_issue(std::uint64_t op, const std::vector<ThreadRef>& issuers, AsyncGroup group, const ptx::ir::Instruction& ins) override {
    AsyncOp& o = ops_[op];
    o.generic = ins.op == ptx::ir::Opcode::st_ || ins.op == ptx::ir::Opcode::red_;
    o.clock = VectorClock(cta_size_);
    o.clock.set(op_thread(op, false), 1);  // its writes follow its reads (cp.reduce, an MMA's D)
    o.tc_clock = o.clock;
    const bool tcgen05 = group == AsyncGroup::tcgen05 || group == AsyncGroup::tcgen05_ld || group == AsyncGroup::tcgen05_st;
    for (const ThreadRef& t : issuers) {
      ThreadState& ts = state(t);
      o.clock.join(ts.clock);
      for (int sp = 0; sp < 2; ++sp) o.fenced[sp].join(ts.proxy_fenced[sp]);
      if (group != AsyncGroup::none) ts.ops_open[static_cast<int>(group)].push_back(op);
      if (tcgen05) tcgen05_issue(ts, o, op, group == AsyncGroup::tcgen05);
    }
    o.issuer = issuers.at(0);
    refs_.try_emplace(op_thread(op, false), o.issuer);
    refs_.try_emplace(op_thread(op, true), o.issuer);
  }

  void async_op_access(std::uint64_t op, const MemoryAccess& a) override {
    if (a.space != StateSpace::global && a.space != StateSpace::shared) return;
    ++out_.accesses;
    const AsyncOp& o = ops_.at(op);
    const bool writes = a.kind != MemoryAccess::Kind::read;
    const std::uint64_t self = op_thread(op, writes);
    const int sp = a.space == StateSpace::shared;
    if (o.generic) {  // st.async / red.async: ordered after what preceded the issue, as a later access of the thread
      const Epoch now{self, 1, site_of(a), a.bytes, a.kind == MemoryAccess::Kind::reduction, writes};
      return check_history(Key{sp ? 1 + a.owner_cta : 0, a.addr}, now, [&](const Epoch& e) { return o.clock.get(e.thread) >= e.clock; }, self, false);
    }
    Epoch now{self, 1, site_of(a), a.bytes, false, writes};
    now.async_proxy = true;
    if (a.tensor_memory)  // only tcgen05 operations access it: ordered as 9.7.16.6 says (tcgen05_issue)
      return check_history(Key{kTensorMemory + a.owner_cta, a.addr}, now, [&](const Epoch& e) { return o.tc_clock.get(e.thread) >= e.clock; }, self, false);
    check_history(Key{sp ? 1 + a.owner_cta : 0, a.addr}, now, [&](const Epoch& e) { return async_before(e, o, sp); }, self, false);
  }

  // complete-tx (9.7.9.25.4.1): a wait that sees the phase complete knows the operation's accesses.
  // A tcgen05.commit's arrive-on (9.7.16.12.1) makes known every MMA the commit tracks.
  void async_op_complete_tx(std::uint64_t op, std::uint64_t cta, std::uint64_t object, std::uint64_t phase) override {
    auto c = commits_.find(op);
    mbarrier_phase(cta, object, phase).released.join(c != commits_.end() ? c->second : completed(op));
  }

  // 9.7.16.6.4.2: "No explicit tcgen05.fence::before_thread_sync is needed as this is implicitly performed by
  // tcgen05.commit": a commit is also that fence.
  void tcgen05_commit(const ThreadRef& t, std::uint64_t commit) override {
    commits_[commit] = state(t).tc_mma_done;
    tcgen05_before_thread_sync(t);
  }

  // 9.7.16.6.3: tcgen05 operations after the fence are ordered after the thread's prior execution ordering
  // operations, relaxed mbarrier waits included (the spec's own patterns wait with try_wait.relaxed).
  void tcgen05_after_thread_sync(const ThreadRef& t) override {
    ThreadState& ts = state(t);
    ts.tc_fenced = ts.clock;
    ts.tc_fenced.join(ts.tc_relaxed);
    ts.tc_fenced.join(ts.tc_received.done);
    ts.tc_mma.join(ts.tc_received.mma);
  }
  // 9.7.16.6.3: "An asynchronous tcgen05 operation prior to a tcgen05.fence::before_thread_sync is ordered before
  // all subsequent tcgen05 and the execution ordering operations": the thread's later mbarrier arrive-ons (relaxed
  // ones too) and CTA barriers carry, for tcgen05 operations after another thread's after_thread_sync, what the
  // thread had completed (its clock: tcgen05.ld/st after their wait, 9.7.16.6.4.4) and the MMAs it had issued, which
  // a later MMA follows in the pipeline (9.7.16.6.4.3). So do its later morally strong st / atom / red: the spec names
  // "morally strong ld/st/atom instructions" among the execution ordering ones, relaxed or not, as it names relaxed
  // mbarrier arrives; a strong read that observes such a write (observed_write: 8.7's moral strength, 8.9.2's
  // observation, through atomic chains) receives it, as a wait receives an arrive's (access(): WriteSync::tc).
  void tcgen05_before_thread_sync(const ThreadRef& t) override {
    ThreadState& ts = state(t);
    ts.tc_before.done = ts.clock;
    ts.tc_before.done.join(ts.tc_own);
    // and what its latest after_thread_sync ordered its tcgen05 operations after, relaxed waits included: the
    // composed pattern of 9.7.16.6.4.4 (commit, try_wait.relaxed, after_thread_sync "// completion is guaranteed",
    // before_thread_sync, arrive.relaxed) hands the MMA's completion on.
    ts.tc_before.done.join(ts.tc_fenced);
    ts.tc_before.mma = ts.tc_mma;
  }

  void async_group_commit(const ThreadRef& t, AsyncGroup group) override {
    ThreadState& ts = state(t);
    const int g = static_cast<int>(group);
    ts.op_groups[g].push_back(std::move(ts.ops_open[g]));
    ts.ops_open[g].clear();
  }

  // wait_group N: the thread knows the operations of every group but the N newest (with .read, only their reads,
  // and the groups stay for a later full wait).
  void async_group_wait(const ThreadRef& t, AsyncGroup group, std::uint64_t pending, bool reads_only) override {
    ThreadState& ts = state(t);
    auto& groups = ts.op_groups[static_cast<int>(group)];
    const std::size_t done = groups.size() > pending ? groups.size() - pending : 0;
    const bool tcgen05 = group == AsyncGroup::tcgen05_ld || group == AsyncGroup::tcgen05_st;
    // (Only the operation's own accesses: a wgmma or tcgen05.ld of several threads does not order what the other
    // threads did before it with this thread; .sync.aligned is execution, not memory, synchronization.)
    for (std::size_t k = 0; k < done; ++k)
      for (std::uint64_t op : groups[k])
        for (VectorClock* c : {&ts.clock, tcgen05 ? &ts.tc_own : nullptr}) {
          if (!c) continue;
          c->set(op_thread(op, false), 1);
          if (!reads_only) c->set(op_thread(op, true), 1);
        }
    if (!reads_only) groups.erase(groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(done));
  }

  // fence.proxy.async in `space` (global, shared, or both): what precedes it in base causality order now has a proxy
  // fence on its path to what it precedes. Its own counter (between two ticks, so that no access or release of the
  // thread shares it) marks which of the thread's accesses it follows.
  void proxy_fence(const ThreadRef& t, const ptx::ir::Instruction&, StateSpace space) override {
    ThreadState& ts = state(t);
    tick(ts, t);
    for (int sp = 0; sp < 2; ++sp) {
      if (space != StateSpace::generic && (space == StateSpace::global) != (sp == 0)) continue;
      ts.proxy_fenced[sp] = ts.clock;
      ts.proxy_fences[sp].push_back(ts.clock.get(t.id));
    }
    tick(ts, t);
  }

  void fence(const ThreadRef& t, const ptx::ir::Instruction& ins) override {
    ThreadState& ts = state(t);
    const auto fk = memory_fence(ins);
    if (!fk) return;  // a proxy fence orders proxies, not threads
    const MemorySemantics sem = fk->sem;
    const Scope scope = fk->scope;
    if (acquire_fence(sem))  // acquire pattern form 3: the releases strong reads observed earlier
      for (auto& [key, pending] : ts.pending) acquire(ts, pending, scope);
    if (sem == MemorySemantics::sc) {
      // 8.9.4 item 1: a fence.sc synchronizes with every later morally strong fence.sc. The run's order of fences
      // is a valid Fence-SC order (8.9.3). Fences of one CTA are always morally strong; fences of different CTAs
      // of a cluster when both scopes reach the cluster; others only when both are wider (strength.hpp).
      VectorClock& cta_order = sc_cta_.try_emplace(t.cta, cta_size_).first->second;
      VectorClock* cluster_order = reach(scope) >= 1 ? &sc_cluster_.try_emplace(cluster_of(t), cta_size_).first->second : nullptr;
      const bool wide = reach(scope) >= 2;
      ts.clock.join(cta_order);
      if (cluster_order) ts.clock.join(*cluster_order);
      if (wide) ts.clock.join(sc_wide_);
      cta_order.join(ts.clock);
      if (cluster_order) cluster_order->join(ts.clock);
      if (wide) sc_wide_.join(ts.clock);
    }
    if (release_fence(sem)) ts.fence_release[reach(scope)] = release_of(t, scope, ts.clock);
    tick(ts, t);
  }

  void barrier_arrive(const ThreadRef& t, std::uint32_t id, const ptx::ir::Instruction& ins, std::uint32_t count) override {
    ThreadState& ts = state(t);
    auto [it, fresh] = barriers_.try_emplace({t.cta, id});
    Phase& ph = it->second;
    if (fresh) { ph.clock = VectorClock(cta_size_); ph.first = t; ph.first_ins = &ins; }
    // 8.9.4 item 2, as the model says (model_rules.hpp): what the arrival releases, and whether the thread, if it
    // waits, acquires what the phase released.
    if (barrier_arrive_releases(ins)) ph.clock.join(ts.clock);
    ph.tc.join(ts.tc_before);  // an execution ordering operation (9.7.16.6.3)
    if (!ins.q.has(ptx::ir::Flag::arrive) && !barrier_wait_acquires(ins)) ph.not_acquiring.push_back(t.id);  // (an arrive does not wait)
    ph.arrived.push_back(t.id);
    // ISA 9.7.13.1: with .aligned (every bar, and barrier.*.aligned) all threads of the CTA execute the same
    // barrier instruction; a CTA-wide one (no thread count, or the CTA's) reached at two instructions is divergence.
    // Except producer/consumer phases: "different warps may execute different forms of the barrier instruction
    // using the same barrier name and thread count" (a bar.arrive and a bar.sync).
    ph.whole_cta = ph.whole_cta && (count == 0 || count == cta_size_) && aligned(ins) && aligned(*ph.first_ins) &&
                   !ins.q.has(ptx::ir::Flag::arrive) && !ph.first_ins->q.has(ptx::ir::Flag::arrive);
    if (&ins != ph.first_ins && !ph.other) { ph.other = t; ph.other_ins = &ins; }
    tick(ts, t);
  }

  // 8.9.4 item 2: bar.sync / bar.red / bar.arrive synchronize with the bar.sync / bar.red of the same barrier (the
  // model's answers in barrier_arrive).
  void barrier_complete(std::uint64_t cta, std::uint32_t id, const std::vector<ThreadRef>& waiting) override {
    auto it = barriers_.find({cta, id});
    if (it == barriers_.end()) return;
    const Phase& ph = it->second;
    for (const auto& t : waiting) {
      if (std::find(ph.not_acquiring.begin(), ph.not_acquiring.end(), t.id) != ph.not_acquiring.end()) continue;
      state(t).clock.join(ph.clock);
      state(t).tc_received.join(ph.tc);
    }
    if (ph.whole_cta) check_divergence(ph);
    barriers_.erase(it);
  }

  // ISA 9.7.13.2: bar.warp.sync guarantees memory ordering among the threads participating.
  void warp_sync(const std::vector<ThreadRef>& threads) override {
    if (threads.empty()) return;
    VectorClock all(cta_size_);
    for (const auto& t : threads) all.join(state(t).clock);
    for (const auto& t : threads) {
      ThreadState& ts = state(t);
      ts.clock.join(all);
      tick(ts, t);
    }
  }

 private:
  static constexpr std::size_t kAsyncGroups = static_cast<std::size_t>(ptx::interp::Observer::AsyncGroup::tcgen05_st) + 1;
  struct ThreadState {
    VectorClock clock;
    // cp.async copies are numbered by epoch: a commit or a cp.async.mbarrier.arrive closes one. The epoch that
    // ends each committed group, in commit order.
    std::uint32_t async_epoch = 1;
    std::vector<std::uint32_t> async_group_end;
    std::array<std::optional<Release>, 3> fence_release;  // the latest release fence of each reach()
    std::unordered_map<Key, Release, KeyHash> release_ops;  // the latest release operation per location (8.8 form 2)
    std::unordered_map<Key, Pending, KeyHash> pending;  // observed by strong reads, not yet acquired
    // The async proxy, per state space ([0] global, [1] shared): the clock at the latest fence.proxy.async, and the
    // thread's own counter at each (ascending).
    std::array<VectorClock, 2> proxy_fenced;
    std::array<std::vector<std::uint32_t>, 2> proxy_fences;
    // Its asynchronous-proxy operations by AsyncGroup: not yet committed, and the committed groups, oldest first.
    std::array<std::vector<std::uint64_t>, kAsyncGroups> ops_open;
    std::array<std::vector<std::vector<std::uint64_t>>, kAsyncGroups> op_groups;
    // tcgen05 (9.7.16.6): the clock at the latest tcgen05.fence::after_thread_sync; what relaxed mbarrier waits
    // observed; the thread's tcgen05.ld/st completed by its own waits; the MMAs it issued, as their successors in
    // its pipeline know them (tc_mma) and as their completion makes them known (tc_mma_done, completed()).
    VectorClock tc_fenced, tc_relaxed, tc_own, tc_mma, tc_mma_done;
    // What its latest tcgen05.fence::before_thread_sync ordered, and what it received from other threads' through
    // execution ordering operations, for its tcgen05 operations after its next after_thread_sync.
    TcgenOrder tc_before, tc_received;
  };

  struct AsyncOp {
    VectorClock clock;                 // its issuers' clocks at issue
    std::array<VectorClock, 2> fenced;  // their clocks at their latest fence.proxy.async, by state space
    VectorClock tc_clock;               // tcgen05: what its Tensor Memory accesses are ordered after (tcgen05_issue)
    VectorClock tc_relaxed;             // what its issuers had received without after_thread_sync (a note)
    ThreadRef issuer;
    // st.async / red.async (9.7.9.12, 9.7.13.7): asynchronous, but its access is a generic-proxy one. ISA 8.6: "Memory
    // operations as defined in Operation types use generic method of memory access, i.e. a generic proxy", and
    // Table 20 makes "all variants of st" write operations and red atomic ones; unlike cp.async.bulk (9.7.9.25.2),
    // wgmma (9.7.15.4) and tcgen05 (9.7.16.6.5), neither section puts them in the async proxy.
    bool generic = false;
  };
  static constexpr std::uint64_t kTensorMemory = std::uint64_t{1} << 62;  // Key::region of CTA c's Tensor Memory: + c

  // A tcgen05 operation of thread ts (9.7.16.6): ordered after what the standard synchronization mechanisms order
  // before it ("also apply to the tcgen05 family", 9.7.16.6.3: the thread's clock), what preceded the thread's
  // latest tcgen05.fence::after_thread_sync, relaxed mbarrier waits included (9.7.16.6.3), the tcgen05.ld/st its
  // own waits completed (9.7.16.6.4.2), and, an MMA, the thread's earlier MMAs (the pipeline mma -> mma of
  // 9.7.16.6.2; taken for every pair, whatever the accumulator); a later tcgen05.commit of the thread tracks an MMA
  // (9.7.16.6.2.2).
  void tcgen05_issue(ThreadState& ts, AsyncOp& o, std::uint64_t op, bool mma) {
    o.tc_clock.join(ts.clock);
    o.tc_clock.join(ts.tc_fenced);
    o.tc_clock.join(ts.tc_own);
    o.tc_relaxed.join(ts.tc_relaxed);
    o.tc_relaxed.join(ts.tc_received.done);
    if (!mma) return;
    o.tc_relaxed.join(ts.tc_received.mma);  // (an MMA another thread's before_thread_sync sent: the note too)
    o.tc_clock.join(ts.tc_mma);
    ts.tc_mma.join(o.tc_clock);
    ts.tc_mma.set(op_thread(op, false), 1);
    ts.tc_mma.set(op_thread(op, true), 1);
    ts.tc_mma_done.join(completed(op));
  }

  // What knowing that operation `op` completed makes known: its accesses and, base causality order being
  // transitive, what preceded its issue.
  VectorClock completed(std::uint64_t op) const {
    VectorClock c = ops_.at(op).clock;
    c.set(op_thread(op, false), 1);
    c.set(op_thread(op, true), 1);
    return c;
  }
  using AsyncGroup = ptx::interp::Observer::AsyncGroup;

  std::uint64_t op_thread(std::uint64_t op, bool write) const { return 2 * threads_in_grid_ + 2 * op + write; }
  bool is_op_thread(std::uint64_t thread) const { return thread >= 2 * threads_in_grid_; }
  // The operation an async access was made by, if any.
  const AsyncOp* op_of(const Epoch& e) const {
    if (!e.async_proxy || !is_op_thread(e.thread)) return nullptr;
    auto it = ops_.find((e.thread - 2 * threads_in_grid_) / 2);
    return it == ops_.end() ? nullptr : &it->second;
  }
  // Whether generic access `earlier` precedes async-proxy access `now` in base causality order: then only the proxy
  // fence is missing for them to be ordered (a report says so).
  bool proxy_fence_missing(const Epoch& earlier, const Epoch& now) const {
    const AsyncOp* o = op_of(now);
    return !earlier.async_proxy && o && o->clock.get(earlier.thread) >= earlier.clock;
  }
  // The same for two Tensor Memory accesses: a relaxed wait of the later operation's issuers had observed the
  // earlier one (or a thread's before_thread_sync sent it, through a wait, a barrier or a flag), but no
  // tcgen05.fence::after_thread_sync followed it.
  bool tcgen05_fence_missing(const Epoch& earlier, const Epoch& now) const {
    const AsyncOp* o = op_of(now);
    return o && o->tc_relaxed.get(earlier.thread) >= earlier.clock;
  }

  // Whether access e precedes an access of operation o, in state space sp, in causality order: an async-proxy
  // access through base causality order (8.9.5 item 2 of proxy-preserved order: same proxy, one CTA); a generic one
  // only with a proxy fence on the path (item 3, for the async proxy as 9.7.9.25.2 says): a fence the issuers had
  // passed, or one of e's own thread after e that the issuers know of.
  bool async_before(const Epoch& e, const AsyncOp& o, int sp) {
    if (e.async_proxy) {
      const bool ordered = o.clock.get(e.thread) >= e.clock;
      if (ordered && ref_of(e.thread).cta != o.issuer.cta && out_.unsettled.empty())
        out_.unsettled = "async-proxy accesses by operations of two CTAs of a cluster (" + ptx::ir::opcode_text(*sites_[e.site].ins) +
                         " then another) follow each other in base causality order, but ISA 8.9.5 item 2 orders accesses of one "
                         "proxy only when \"performed ... by the same thread block\"; taken as ordered";
      return ordered;
    }
    if (o.fenced[sp].get(e.thread) >= e.clock) return true;
    if (is_async_thread(e.thread)) return false;
    const std::vector<std::uint32_t>* kept = nullptr;
    if (auto it = threads_.find(e.thread); it != threads_.end()) kept = &it->second.proxy_fences[sp];
    else if (auto r = retired_proxy_fences_.find(e.thread); r != retired_proxy_fences_.end()) kept = &r->second[sp];
    if (!kept) return false;
    const auto& fences = *kept;
    auto f = std::lower_bound(fences.begin(), fences.end(), e.clock);
    return f != fences.end() && o.clock.get(e.thread) >= *f;
  }

  ThreadState& state(const ThreadRef& t) {
    auto [it, fresh] = threads_.try_emplace(t.id);
    if (fresh) {
      it->second.clock = VectorClock(cta_size_);
      it->second.clock.set(t.id, 1);
      for (VectorClock* c : {&it->second.tc_fenced, &it->second.tc_relaxed, &it->second.tc_own, &it->second.tc_mma, &it->second.tc_mma_done})
        *c = VectorClock(cta_size_);
    }
    return it->second;
  }
  void tick(ThreadState& ts, const ThreadRef& t) { ts.clock.set(t.id, ts.clock.get(t.id) + 1); }

  // A retired CTA's threads run no more: their states go (what other clocks learned of them stays in those clocks),
  // but for the proxy fences they made, which later async operations may still be ordered by (async_before). So
  // the memory kept per thread is the resident CTAs', whatever the grid's size.
  void cta_retired(std::uint64_t cta) override {
    for (std::uint64_t id = cta * cta_size_; id < (cta + 1) * cta_size_; ++id) {
      auto it = threads_.find(id);
      if (it == threads_.end()) continue;
      auto& fences = it->second.proxy_fences;
      if (!fences[0].empty() || !fences[1].empty()) retired_proxy_fences_.emplace(id, std::move(fences));
      threads_.erase(it);
    }
    // Its shared memory and Tensor Memory are gone with it (no thread reaches them any more, ISA 5.1.4, 9.7.16.7):
    // their bytes' histories too, so the bytes tracked are the resident CTAs' and global memory's.
    for (std::uint64_t region : {1 + cta, kTensorMemory + cta}) {
      shadow_.erase_region(region);
    }
  }

  // A thread's cp.async copies are made by a thread of their own in the clocks, numbered after the grid's: its
  // counter in a clock is the latest epoch (ThreadState::async_epoch) of the thread's copies known complete.
  std::uint64_t async_thread(const ThreadRef& t) const { return threads_in_grid_ + t.id; }
  bool is_async_thread(std::uint64_t thread) const { return thread >= threads_in_grid_; }
  static constexpr std::uint64_t kTextureThreads = std::uint64_t{1} << 62;  // texture_thread: above every other

  // A cp.async's read or write (MemoryAccess::async): ordered after what precedes the instruction in its thread
  // (the thread's clock), and known to others only through the thread's wait for its group (async_group) or an
  // mbarrier (mbarrier_arrive): its clock is its epoch. Its thread's own accesses before that wait, and its other copies in flight,
  // may race with it (ISA 9.7.9.25.3.3).
  void async_copy(const ThreadRef& t, const MemoryAccess& a) {
    const ThreadState& ts = state(t);
    const std::uint64_t copier = async_thread(t);
    refs_.try_emplace(copier, t);
    ThreadState copy;
    copy.clock = ts.clock;
    const Key first{a.space == StateSpace::shared ? 1 + a.owner_cta : 0, a.addr};
    check_history(first, Epoch{copier, ts.async_epoch, site_of(a), a.bytes, false, a.kind == MemoryAccess::Kind::write},
                  [&](const Epoch& e) { return ordered_before(e, copy); }, copier, false);
  }

  // A texture fetch's read of linear memory goes through the texture proxy (ISA 8.6). 8.9.5 orders accesses of
  // different proxies only through a proxy fence on the causality path, and no fence.proxy kind (9.7.13.4) names
  // the texture proxy: within a launch it is ordered with no generic write of the same bytes, before or after,
  // even the fetching thread's own (the CUDA Programming Guide: a texture fetch of an address written in the
  // same kernel call returns undefined data). Its thread in the clocks is one no other thread knows of.
  std::uint64_t texture_thread(const ThreadRef& t) const { return kTextureThreads + t.id; }
  void texture_read(const ThreadRef& t, const MemoryAccess& a) {
    const std::uint64_t reader = texture_thread(t);
    refs_.try_emplace(reader, t);
    Epoch now{reader, 1, site_of(a), a.bytes, false, false};
    now.texture_proxy = true;
    check_history(Key{0, a.addr}, now, [](const Epoch& e) { return e.texture_proxy; }, reader, false);
  }

  // Checks access `now` (of thread `self`; before(e): whether access e precedes it in causality order) against each
  // byte's history and records it there; `observed`: a strong read that observes the bytes' last write
  // (observed_write).
  template <class Before> void check_history(const Key& first, Epoch now, const Before& before, std::uint64_t self, bool observed) {
    now.start = first.addr;
    // Per byte (shadow.hpp: the bytes sharing a history are checked once, with the same answers).
    const auto check = [&](const Cell& c) {
      if (c.write.clock && conflicts(c.write, now, before, self) && !observed_before(c, before)) report(c.write, now, first);
      // (An observed write and its reader are morally strong, observed_write: no conflict to hide above.)
      if (now.write)
        for (const auto& r : c.reads.all())
          if (conflicts(r, now, before, self)) report(r, now, first);
    };
    const auto record = [&](Cell& c) {
      if (now.write) {
        // The reads before are ordered before this write or were just reported racing with it; either way
        // a later access that races with one of them races with this write too (FastTrack's rule). (A write
        // gets an empty history: shadow.hpp.)
        c.write = now;
        c.write_event = next_event_;
        return;
      }
      if (observed) c.add_observer(now);
      c.reads.add(now);
    };
    if (!shadow_.update(first.region, first.addr, now.bytes, now.write, check, record)) out_.truncated = true;
  }

  std::uint32_t site_of(const MemoryAccess& a) {
    auto [it, fresh] = site_index_.try_emplace(a.ins, static_cast<std::uint32_t>(sites_.size()));
    if (fresh) sites_.push_back({a.ins, a.pc, strength_of(*a.ins, true), strength_of(*a.ins, false)});
    return it->second;
  }
  const Strength& strength(const Epoch& e) const { return e.atomic ? sites_[e.site].atomic_strength : sites_[e.site].plain_strength; }
  // (An asynchronous operation's accesses count as its issuer's: a red.async's scope is the issuing thread's.)
  std::uint64_t cta_of(std::uint64_t thread) const {
    if (auto it = is_async_thread(thread) ? refs_.find(thread) : refs_.end(); it != refs_.end()) return it->second.cta;
    return thread / cta_size_;
  }
  // A thread of the grid by number (observer.hpp's numbering); an async copier or operation thread (async_thread,
  // op_thread) as its issuer.
  ThreadRef ref_of(std::uint64_t thread) const {
    return thread < threads_in_grid_ ? ptx::interp::thread_ref_of(thread, grid_, block_) : refs_.at(thread);
  }
  std::uint64_t cluster_of_ctaid(const std::array<std::uint32_t, 3>& ctaid) const {
    return ptx::interp::cluster_linear_id(ctaid, grid_, cluster_);
  }
  std::uint64_t cluster_of(const ThreadRef& t) const { return cluster_of_ctaid(t.ctaid); }
  std::uint64_t cluster_of_cta(std::uint64_t cta) const { return cluster_of_ctaid(ptx::interp::thread_ref_of(cta * cta_size_, grid_, block_).ctaid); }
  Nearness nearness(std::uint64_t cta_a, std::uint64_t cta_b) const {
    if (cta_a == cta_b) return Nearness::same_cta;
    return cluster_of_cta(cta_a) == cluster_of_cta(cta_b) ? Nearness::same_cluster : Nearness::same_gpu;  // one GPU
  }
  Release release_of(const ThreadRef& t, Scope scope, const VectorClock& clock) const { return Release{t.cta, cluster_of(t), scope, clock}; }

  bool ordered_before(const Epoch& e, const ThreadState& ts) const { return ts.clock.get(e.thread) >= e.clock; }

  // 8.9.5 item 2: the last write of a byte precedes the current operation in causality order when a strong read
  // that observed it precedes the operation in base causality order.
  template <class Before> bool observed_before(const Cell& c, const Before& before) const {
    const auto& all = c.observers();
    return std::any_of(all.begin(), all.end(), [&](const Epoch& r) { return before(r); });
  }

  // ISA 8.7: both strong, each scope includes the other thread, complete overlap (same first byte and size).
  bool morally_strong(const Epoch& x, const Epoch& y) const {
    if (x.async_proxy || y.async_proxy) return false;  // 8.7 item 2 (same proxy); async operations are not strong
    if (x.texture_proxy != y.texture_proxy) return false;  // 8.7 item 2 (same proxy)
    const Strength &sx = strength(x), &sy = strength(y);
    const Nearness n = nearness(cta_of(x.thread), cta_of(y.thread));
    return sx.strong && sy.strong && scope_includes(sx.scope, n) && scope_includes(sy.scope, n) &&
           x.start == y.start && x.bytes == y.bytes;
  }

  // ISA 8.7.1: overlapping (the same byte), at least one a write, other threads (or two copies of one thread's
  // cp.async, ordered only by the wait for the earlier one's group), not causality-ordered, not morally strong.
  template <class Before> bool conflicts(const Epoch& earlier, const Epoch& now, const Before& before, std::uint64_t self) const {
    if (earlier.thread == self && !is_async_thread(self)) return false;
    if (!earlier.write && !now.write) return false;
    return !before(earlier) && !morally_strong(earlier, now);
  }

  std::shared_ptr<const WriteSync> observed_write(const Key& first, std::uint32_t bytes, const ThreadRef& t, const Strength& st) {
    // (The bytes of a write share its sync: the write's first byte must be the read's.)
    const Cell* c0 = shadow_.find(first.region, first.addr);
    if (!c0 || !c0->sync() || c0->write.start != first.addr) return nullptr;
    std::shared_ptr<const WriteSync> w = c0->sync();
    if (w->event != c0->write_event || w->bytes != bytes) return nullptr;
    for (std::uint32_t k = 1; k < bytes; ++k) {
      const Cell* c = shadow_.find(first.region, first.addr + k);
      if (!c || c->write_event != w->event) return nullptr;
    }
    const Nearness n = nearness(w->cta, t.cta);  // (a thread's own write: any scope includes its own CTA)
    if (!(scope_includes(w->scope, n) && scope_includes(st.scope, n))) return nullptr;
    return w;
  }

  // 8.9.4 item 4: a release pattern synchronizes with an acquire pattern when the release's first instruction and
  // the acquire's last one are morally strong (ReleaseSet).
  void acquire(ThreadState& ts, const ThreadRef& t, Scope acquire_scope, const ReleaseSet& s) {
    if (auto it = s.by_cta.find(t.cta); it != s.by_cta.end()) ts.clock.join(it->second);
    if (reach(acquire_scope) >= 1)
      if (auto it = s.by_cluster.find(cluster_of(t)); it != s.by_cluster.end()) ts.clock.join(it->second);
    if (reach(acquire_scope) >= 2) ts.clock.join(s.wide);
  }
  // The same for releases observed earlier: what the acquire takes is no longer pending.
  void acquire(ThreadState& ts, Pending& p, Scope acquire_scope) {
    ts.clock.join(p.own);
    p.own = {};
    if (reach(acquire_scope) < 1) return;
    ts.clock.join(p.cluster);
    p.cluster = {};
    if (reach(acquire_scope) < 2) return;
    ts.clock.join(p.wide);
    p.wide = {};
  }

  void report(const Epoch& a, const Epoch& b, const Key& key) {
    // A race repeats for every thread pair and byte: only a new pair of instructions is looked at further.
    const auto [lo, hi] = std::minmax(a.site, b.site);
    if (!seen_sites_.insert(std::uint64_t(lo) << 32 | hi).second || out_.races.size() >= o_.max_races) return;
    const Site &sa = sites_[a.site], &sb = sites_[b.site];
    if (!reported_.insert(race_key(where_of(m_, *sa.ins), where_of(m_, *sb.ins))).second) return;
    RaceReport r;
    r.first = describe(a, key);
    r.second = describe(b, key);
    r.t1 = ids(a.thread);
    r.t2 = ids(b.thread);
    r.confirmed = true;
    r.note = "seen in this execution";
    if (key.region >= kTensorMemory && tcgen05_fence_missing(a, b))
      r.note += "; an execution ordering operation (a relaxed mbarrier wait, a barrier, a morally strong read of a flag) "
                "ordered the earlier tcgen05 operation before the later one's thread, but no tcgen05.fence::after_thread_sync "
                "lies between it and the later one (ISA 9.7.16.6.3, 9.7.16.6.4.2)";
    else if (a.texture_proxy || b.texture_proxy)
      r.note += "; a texture fetch and a generic write of the same bytes in one launch: different proxies, which no proxy "
                "fence orders (ISA 8.6, 8.9.5, 9.7.13.4); CUDA: a texture fetch of memory written in the same kernel call "
                "returns undefined data";
    else if (proxy_fence_missing(a, b))
      r.note += "; ordered in base causality order but through no fence.proxy.async: a generic access and a later "
                "async-proxy access of the same bytes need one on the path (ISA 8.9.5, 9.7.9.25.2, 9.7.15.5.2)";
    // Which lane of a warp accesses which element of a wmma.load/store matrix is unspecified (ISA 9.7.14.4.1): this
    // execution has the interpreter's layout (docs/tensor-cores.md), and two lanes of one warp racing here may be
    // one lane under another layout. Possible, not definite.
    auto wmma = [](const Site& s) { return s.ins->op == ptx::ir::Opcode::wmma_; };
    const bool one_warp = a.thread / cta_size_ == b.thread / cta_size_ && (a.thread % cta_size_) / 32 == (b.thread % cta_size_) / 32;
    if ((wmma(sa) || wmma(sb)) && one_warp) {
      r.confirmed = false;
      r.possible = true;
      r.note = "seen in this execution, under the interpreter's wmma fragment layout: which lane accesses which element is "
               "unspecified (ISA 9.7.14.4.1), and the two may be one thread's under another";
    }
    out_.races.push_back(std::move(r));
  }

  AccessReport describe(const Epoch& e, const Key& key) const {
    const Site& s = sites_[e.site];
    AccessReport r;
    r.instr = s.pc;
    r.kind = e.atomic ? "atomic" : e.write ? "write" : "read";
    r.strength = e.async_proxy     ? "weak, async proxy"
                 : e.texture_proxy ? "weak, texture proxy"
                                   : strength_text(*s.ins, e.atomic) + (is_async_thread(e.thread) ? ", asynchronous" : "");
    r.space = key.region >= kTensorMemory ? "tensor memory" : key.region ? "shared" : "global";
    const std::uint64_t owner = key.region >= kTensorMemory ? key.region - kTensorMemory : key.region - 1;
    if (key.region && owner != ref_of(e.thread).cta) {  // another CTA's of the cluster (ISA 5.1.4)
      const auto c = ptx::interp::thread_ref_of(owner * cta_size_, grid_, block_).ctaid;
      r.space += " of ctaid (" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
    }
    r.size = e.bytes;
    r.opcode = ptx::ir::opcode_text(*s.ins);
    r.where = where_of(m_, *s.ins);
    const std::uint64_t start = e.start;
    if (key.region >= kTensorMemory) {  // (lane * 512 + column) * 4: MemoryAccess::tensor_memory
      r.object = "lane " + std::to_string(start / 4 / ptx::interp::kTmemColumns) + " column " + std::to_string(start / 4 % ptx::interp::kTmemColumns);
      r.offset = 0;
      return r;
    }
    r.object = "?";
    r.offset = static_cast<std::int64_t>(start);
    for (const auto& obj : key.region ? shared_objects_ : global_objects_)
      if (start >= obj.base && start - obj.base < std::max<std::uint64_t>(obj.bytes, 1)) {
        r.object = obj.name;
        r.offset = static_cast<std::int64_t>(start - obj.base);
      }
    const ptx::ir::Function* named_by = kernel_;  // the kernel that names the object: the launched one's variables
    for (const ptx::ir::Function* k : m_.kernels())  // a buffer named after a kernel parameter (a replay's)
      if (std::string a = argument_text(*k, r.object); !a.empty()) {
        r.argument = a;
        named_by = k;
      }
    if (named_by) r.cuda_name = cuda_object_name(m_, *named_by, r.object, r.offset, *s.ins);
    return r;
  }

  ThreadIds ids(std::uint64_t thread) const { return ids_of(ref_of(thread)); }

  // One phase of a CTA barrier: the clocks of its arrivals so far (for 8.9.4), and which threads arrived where.
  struct Phase {
    VectorClock clock;
    TcgenOrder tc;  // the arriving threads' tcgen05.fence::before_thread_sync (tcgen05_before_thread_sync)
    std::vector<std::uint64_t> arrived;
    std::vector<std::uint64_t> not_acquiring;  // waiting threads whose operation does not acquire (none with ptx.cat)
    ThreadRef first;
    const ptx::ir::Instruction* first_ins = nullptr;
    std::optional<ThreadRef> other;  // a thread that arrived at another instruction
    const ptx::ir::Instruction* other_ins = nullptr;
    bool whole_cta = true;  // every arrival aligned and without a thread count (or with the CTA's)
  };
  static bool aligned(const ptx::ir::Instruction& ins) {
    return ins.op == ptx::ir::Opcode::bar_ || ins.q.has(ptx::ir::Flag::aligned);
  }
  // An aligned CTA-wide barrier completed: every thread of the CTA must have executed this same instruction. The
  // interpreter completes it without the threads that exited (9.7.13.1 "non-exited threads"), so a thread that
  // exited instead, or arrived at another barrier instruction, is barrier divergence. One report per instruction.
  void check_divergence(const Phase& ph) {
    std::optional<ThreadRef> missing = ph.other;
    if (!missing && ph.arrived.size() < cta_size_) {
      std::vector<bool> seen(cta_size_, false);
      for (auto id : ph.arrived) seen[id - ph.first.cta * cta_size_] = true;
      for (std::uint64_t k = 0; k < cta_size_; ++k)
        if (!seen[k]) {
          missing = ref_of(ph.first.cta * cta_size_ + k);
          break;
        }
    }
    if (!missing || !divergent_sites_.insert(ph.first_ins).second) return;
    DivergenceReport d;
    d.where = where_of(m_, *ph.first_ins);
    d.t1 = ids_of(ph.first);
    d.t2 = ids_of(*missing);
    d.t1_reaches = true;
    d.note = ph.other ? "in this execution it arrived at the barrier at " + where_of(m_, *ph.other_ins).text() + " instead"
                      : "in this execution it exited without reaching it";
    out_.divergences.push_back(d);
  }
  static ThreadIds ids_of(const ThreadRef& r) {
    ThreadIds i;
    for (int d = 0; d < 3; ++d) { i.ctaid[d] = r.ctaid[d]; i.tid[d] = r.tid[d]; }
    return i;
  }

  const ptx::ir::Module& m_;
  const ptx::ir::Function* kernel_ = nullptr;  // the launched kernel (names its variables in reports)
  const DynamicOptions& o_;
  DynamicResult& out_;
  const std::uint64_t cta_size_;
  const std::uint64_t threads_in_grid_;
  std::unordered_map<std::uint64_t, ThreadState> threads_;  // the threads of CTAs not yet retired
  std::unordered_map<std::uint64_t, std::array<std::vector<std::uint32_t>, 2>> retired_proxy_fences_;
  std::unordered_map<std::uint64_t, AsyncOp> ops_;  // asynchronous-proxy operations by number
  std::unordered_map<std::uint64_t, VectorClock> commits_;  // tcgen05.commit by number: the MMAs it tracks
  std::unordered_map<std::uint64_t, ThreadRef> refs_;  // async copier and operation threads: their issuer
  shadow::ShadowMemory shadow_{o_.max_shadow_bytes};  // the bytes' histories
  std::map<std::pair<std::uint64_t, std::uint32_t>, Phase> barriers_;  // (CTA, barrier) -> its current phase
  struct MbarrierPhase {
    VectorClock released;  // what the release arrive-ons (and complete-tx) in it make visible
    TcgenOrder tc;         // the arriving threads' tcgen05.fence::before_thread_sync
  };
  // (CTA, mbarrier object's shared offset) -> phase -> what it makes visible
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::map<std::uint64_t, MbarrierPhase>> mbarriers_;
  // (CTA, mbarrier object's shared offset) -> what its release arrive-ons since its init released (mbarrier_arrive)
  std::map<std::pair<std::uint64_t, std::uint64_t>, ReleaseSet> arrivals_;
  // A wait's read of the object observes every arrive-on before it (8.9.2): an .acquire wait takes what they
  // released, with its scope (acquire), a .relaxed one leaves it for the thread's next acquire fence (8.8 form 3).
  void observe_arrivals(ThreadState& ts, const ThreadRef& t, const ptx::ir::Instruction& wait, std::uint64_t home, std::uint64_t object) {
    auto it = arrivals_.find({home, object});
    if (it == arrivals_.end()) return;
    if (!barrier_wait_acquires(wait)) {
      ts.pending[Key{1 + home, object}].add(it->second, t.cta, cluster_of(t));
      return;
    }
    acquire(ts, t, ptx::ir::mbarrier_order(wait).value_or(ptx::ir::MemoryOrder{}).scope, it->second);
  }
  MbarrierPhase& mbarrier_phase(std::uint64_t home, std::uint64_t object, std::uint64_t phase) {
    return mbarriers_[{home, object}].try_emplace(phase, MbarrierPhase{VectorClock(cta_size_), {}}).first->second;
  }
  std::set<const ptx::ir::Instruction*> divergent_sites_;
  std::array<std::uint32_t, 3> block_, grid_;
  std::array<std::uint32_t, 3> cluster_{1, 1, 1};         // the launch's cluster shape (ISA 2.2.2)
  std::unordered_map<std::uint64_t, VectorClock> sc_cta_;  // Fence-SC order within a CTA
  std::unordered_map<std::uint64_t, VectorClock> sc_cluster_;  // ... among fences of cluster scope or wider, by cluster
  VectorClock sc_wide_;                                     // Fence-SC order among fences wider than a cluster
  std::vector<Site> sites_;
  std::unordered_map<const ptx::ir::Instruction*, std::uint32_t> site_index_;
  std::vector<Allocation> global_objects_, shared_objects_;
  std::unordered_set<std::uint64_t> seen_sites_;  // pairs of sites (lower << 32 | higher)
  std::set<RaceKey> reported_;
  std::uint64_t next_event_ = 1;
  const double start_ = thread_cpu_seconds();
};

}  // namespace

DynamicResult check_execution(const ptx::ir::Module& m, const ptx::interp::Launch& launch, const DynamicOptions& o) {
  DynamicResult out;
  const std::uint64_t threads = std::uint64_t(launch.block[0]) * launch.block[1] * launch.block[2] * launch.grid[0] *
                                launch.grid[1] * launch.grid[2];
  if (threads > o.max_threads) {
    out.error = "the launch has " + std::to_string(threads) + " threads; the dynamic engine runs at most " +
                std::to_string(o.max_threads);
    return out;
  }
  Detector d(m, launch, o, out);
  ptx::interp::Options io;
  io.seed = o.seed;
  io.max_steps = o.max_steps;
  io.gpu_launch_limits = o.gpu_launch_limits;  // off: the shape the user checks, real or not (run.cpp notes one no GPU launches)
  io.device = o.device;
  io.textures = o.textures;
  io.printf_sink = o.printf_sink;
  io.set_conditional = o.set_conditional;
  io.first_ctas = o.first_ctas;
  std::optional<ptx::interp::TeeObserver> tee;
  if (o.also) tee.emplace(d, *o.also);
  io.observer = tee ? static_cast<ptx::interp::Observer*>(&*tee) : &d;
  out.run = ptx::interp::run(m, launch, io);
  out.tracked_bytes = d.shadow_memory().peak_tracked_bytes();
  out.shadow_bytes = d.shadow_memory().peak_bytes_used();
  return out;
}

KernelResult dynamic_verdict(const DynamicResult& d, const std::string& kernel, std::uint64_t seed) {
  KernelResult k;
  k.kernel = kernel;
  k.races = d.races;
  k.divergences = d.divergences;
  k.seconds = d.run.stats.seconds;
  const std::string schedule = seed ? "schedule seed " + std::to_string(seed) : "deterministic schedule";
  k.notes.push_back("dynamic engine: one execution of the launch (" + std::to_string(d.run.stats.threads) + " threads, " +
                    schedule + ", " + std::to_string(d.accesses) + " memory operations checked)");
  if (!d.error.empty()) {
    k.verdict = KernelResult::Verdict::unknown;
    k.unknown_reasons.push_back(d.error);
  } else if (!d.divergences.empty() || std::any_of(d.races.begin(), d.races.end(), [](const RaceReport& r) { return !r.possible; })) {
    k.verdict = KernelResult::Verdict::race;
  } else if (!d.races.empty()) {
    k.verdict = KernelResult::Verdict::unknown;
    k.unknown_reasons.push_back("every race seen depends on the interpreter's choice of wmma fragment layout (ISA 9.7.14.4.1)");
  } else if (!d.run.ok()) {
    k.verdict = KernelResult::Verdict::unknown;
    k.unknown_reasons.push_back(std::string("the run stopped early (") + ptx::interp::problem_kind_name(d.run.problem.kind) +
                                "): " + d.run.problem.message);
  } else if (d.truncated) {
    k.verdict = KernelResult::Verdict::unknown;
    k.unknown_reasons.push_back("access history limit reached: later accesses to new bytes were not checked");
  } else if (!d.unsettled.empty()) {
    k.verdict = KernelResult::Verdict::unknown;
    k.unknown_reasons.push_back(d.unsettled);
  } else {
    k.verdict = KernelResult::Verdict::race_free;
    k.notes.push_back("no race in this execution; other inputs or schedules may still race (the symbolic engine, without --launch, covers every input)");
  }
  if (!d.races.empty() && !d.run.ok())
    k.notes.push_back(std::string("the run stopped early (") + ptx::interp::problem_kind_name(d.run.problem.kind) + "): " + d.run.problem.message);
  account_for_unanswered_model(k);
  return k;
}

}  // namespace ptxcheck::race
