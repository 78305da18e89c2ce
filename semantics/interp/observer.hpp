// Hooks through which a checker watches a run (checker/race's dynamic engine): every memory access, fence and
// barrier, in execution order. The interpreter calls them only when Options::observer is set, and then runs
// without its fast path (whose loads and stores would bypass them).
#pragma once

#include "semantics/ir/ir.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ptx::interp {

// Tensor Memory's shape (ISA 9.7.16.1): lanes x columns of 32-bit cells per CTA.
inline constexpr std::uint32_t kTmemLanes = 128, kTmemColumns = 512;

// The object id under which observers hear of the cluster barrier (Observer::mbarrier_arrive).
inline constexpr std::uint64_t kClusterBarrierObject = ~std::uint64_t{0};

// A thread of the launch: `id` numbers every thread of the grid (CTA-linear id * threads per CTA + linear tid).
struct ThreadRef {
  std::uint64_t id = 0;
  std::uint64_t cta = 0;  // CTA-linear id: x fastest, then y, then z
  std::array<std::uint32_t, 3> ctaid{}, tid{};
};

// The numbering of ThreadRef for a launch of `grid` x `block`: id = cta * threads per CTA + the thread's linear
// id in its CTA, both x fastest (ISA 2.2). From the ids, and back from the number.
inline ThreadRef thread_ref_of(const std::array<std::uint32_t, 3>& ctaid, const std::array<std::uint32_t, 3>& tid,
                               const std::array<std::uint32_t, 3>& grid, const std::array<std::uint32_t, 3>& block) {
  ThreadRef r;
  r.ctaid = ctaid;
  r.tid = tid;
  r.cta = ctaid[0] + std::uint64_t(grid[0]) * (ctaid[1] + std::uint64_t(grid[1]) * ctaid[2]);
  r.id = r.cta * (std::uint64_t(block[0]) * block[1] * block[2]) + tid[0] + std::uint64_t(block[0]) * (tid[1] + std::uint64_t(block[1]) * tid[2]);
  return r;
}
inline ThreadRef thread_ref_of(std::uint64_t id, const std::array<std::uint32_t, 3>& grid, const std::array<std::uint32_t, 3>& block) {
  const std::uint64_t per_cta = std::uint64_t(block[0]) * block[1] * block[2];
  const std::uint64_t lin = id % per_cta, cta = id / per_cta;
  return thread_ref_of({static_cast<std::uint32_t>(cta % grid[0]), static_cast<std::uint32_t>(cta / grid[0] % grid[1]),
                        static_cast<std::uint32_t>(cta / (std::uint64_t(grid[0]) * grid[1]))},
                       {static_cast<std::uint32_t>(lin % block[0]), static_cast<std::uint32_t>(lin / block[0] % block[1]),
                        static_cast<std::uint32_t>(lin / (std::uint64_t(block[0]) * block[1]))},
                       grid, block);
}

// One memory operation (ISA 8.4): a read (ld, ldu, ldmatrix), a write (st), or an atomic (atom: read and, unless a
// failed cas, write; red: write only, no acquire).
struct MemoryAccess {
  enum class Kind : std::uint8_t { read, write, atomic, reduction };
  const ir::Instruction* ins = nullptr;
  std::uint32_t fn = 0, pc = 0;  // the instruction's function (module index) and index in its body
  Kind kind = Kind::read;
  bool wrote = true;             // atomic: whether it wrote (false for a cas whose compare failed)
  ir::StateSpace space = ir::StateSpace::global;  // resolved: never generic (ISA 6.4.1 windows)
  std::uint64_t addr = 0;        // in that space; shared: the offset in the CTA's shared memory
  std::uint32_t bytes = 0;
  // A cp.async's read or write (ISA 9.7.9.25.3): the interpreter copies at issue, but the copy is in flight until
  // the cp.async.wait_group / wait_all that completes its group (Observer::async_group).
  bool async = false;
  // Shared memory (and Tensor Memory): the CTA-linear id of the CTA whose memory it is (another CTA of the cluster
  // for distributed shared memory, ISA 5.1.4), and addr is the offset in it.
  std::uint64_t owner_cta = 0;
  // An access to the CTA's Tensor Memory by tcgen05: addr = (lane * kTmemColumns + column) * 4, 4 bytes a cell.
  bool tensor_memory = false;
  // A texture fetch's read of linear device memory (tex on a linear or pitched resource): made through the texture
  // proxy (ISA 8.6), not the generic one.
  bool texture = false;
};

class Observer {
 public:
  virtual ~Observer() = default;
  // Before the run: every named allocation (a launch buffer, a global/const/shared variable; shared offsets are
  // the same in every CTA), so that reports can name the object an address is in.
  virtual void allocation(const std::string& name, ir::StateSpace space, std::uint64_t base, std::uint64_t bytes) = 0;
  virtual void access(const ThreadRef& t, const MemoryAccess& a) = 0;
  // fence.* and membar (not fence.proxy).
  virtual void fence(const ThreadRef& t, const ir::Instruction& ins) = 0;
  // bar{.cta}.sync / .red / .arrive (instruction `ins`) on barrier `id` of the thread's CTA (ISA 9.7.13.1), with
  // the thread count it gives, 0 when every thread of the CTA participates.
  virtual void barrier_arrive(const ThreadRef& t, std::uint32_t id, const ir::Instruction& ins, std::uint32_t count) = 0;
  // Barrier `id` of CTA `cta` completed a phase; `waiting` are the threads it releases (those that did not only
  // arrive).
  virtual void barrier_complete(std::uint64_t cta, std::uint32_t id, const std::vector<ThreadRef>& waiting) = 0;
  // bar.warp.sync completed for these threads (ISA 9.7.13.2: it orders their memory operations).
  virtual void warp_sync(const std::vector<ThreadRef>& threads) = 0;
  // cp.async.commit_group, cp.async.wait_group N or cp.async.wait_all (ir::async_copy_role) by thread t.
  virtual void async_group(const ThreadRef& t, const ir::Instruction& ins) = 0;
  // mbarrier operations (ISA 9.7.13.15) on the object at shared-memory offset `object` of CTA `home` (CTA-linear
  // id; another CTA of the cluster for a remote arrive): an arrive-on (mbarrier.arrive / arrive_drop, or
  // cp.async.mbarrier.arrive, whose arrive-on stands for the thread's earlier cp.async copies) counted in phase
  // `phase`; a test_wait / try_wait that returned True for the completed phase `phase`; an init (instruction `ins`),
  // which starts the object afresh at phase 0. And a test_wait / try_wait that returned False (the current phase
  // is not complete): it synchronizes nothing (9.7.13.15.16), but it read the object (the execution recorder,
  // checker/race/execution_graph.hpp).
  // The cluster barrier (barrier.cluster.arrive / .wait, ISA 9.7.13.3) is reported as the object
  // kClusterBarrierObject, which no shared-memory offset equals, of the cluster's rank-0 CTA: its arrive releases
  // and its wait acquires unless .relaxed, as an mbarrier's.
  virtual void mbarrier_arrive(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) = 0;
  virtual void mbarrier_wait(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) = 0;
  virtual void mbarrier_init(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object) = 0;
  virtual void mbarrier_wait_incomplete(const ThreadRef& /*t*/, const ir::Instruction& /*ins*/, std::uint64_t /*home*/, std::uint64_t /*object*/) {}
  // mbarrier.expect_tx / mbarrier.complete_tx (ISA 9.7.13.15.11-12) on the object: a relaxed read-modify-write of
  // it (a strong write, so a release fence before it makes a release pattern, 8.8 item 3), before its effect.
  virtual void mbarrier_tx(const ThreadRef& /*t*/, const ir::Instruction& /*ins*/, std::uint64_t /*home*/, std::uint64_t /*object*/) {}
  // Operations of the asynchronous proxy (ISA 8.6): cp{.reduce}.async.bulk{.tensor} (9.7.9.25.4-5) and the shared
  // memory reads of wgmma.mma_async (9.7.15.5.2). Each has a number unique in the run. An issue names the threads
  // whose instruction it is (one thread; a warp of the warpgroup for wgmma) and the group it joins until a
  // commit; its memory accesses follow, when it performs them (a bulk copy at its completion); then any
  // complete-tx it performs on an mbarrier in `phase` of the object at shared offset `object` of CTA `cta`.
  // st.async / red.async (9.7.9.12, 9.7.13.7) come the same way (a write or reduction, then complete-tx), though
  // their accesses are in the generic proxy (8.6): an observer tells them by the instruction (st / red).
  // mbarrier-completed copies join no group; tcgen05: tcgen05.mma (tracked by tcgen05.commit); tcgen05_ld/_st:
  // tcgen05.ld/st, completed by the thread's tcgen05.wait::ld/st (a commit and a wait for every group).
  enum class AsyncGroup : std::uint8_t { none, bulk, wgmma, tcgen05, tcgen05_ld, tcgen05_st };
  virtual void async_op_issue(std::uint64_t /*op*/, const std::vector<ThreadRef>& /*issuers*/, AsyncGroup /*group*/, const ir::Instruction& /*ins*/) {}
  virtual void async_op_access(std::uint64_t /*op*/, const MemoryAccess& /*a*/) {}
  virtual void async_op_complete_tx(std::uint64_t /*op*/, std::uint64_t /*cta*/, std::uint64_t /*object*/, std::uint64_t /*phase*/) {}
  // The thread's commit_group of that kind (cp.async.bulk.commit_group 9.7.9.25.6.1, wgmma.commit_group
  // 9.7.15.7.2), and its wait_group N: every group but the N newest is complete; `reads_only` (.read): only their
  // reads of the source are.
  virtual void async_group_commit(const ThreadRef& /*t*/, AsyncGroup /*group*/) {}
  virtual void async_group_wait(const ThreadRef& /*t*/, AsyncGroup /*group*/, std::uint64_t /*pending*/, bool /*reads_only*/) {}
  // fence.proxy.async (9.7.13.4): orders the thread's generic-proxy view with the async proxy, in `space` (global,
  // shared, or generic for both).
  virtual void proxy_fence(const ThreadRef& /*t*/, const ir::Instruction& /*ins*/, ir::StateSpace /*space*/) {}
  // tcgen05 (ISA 9.7.16.6): a tcgen05.commit by t, numbered `commit` like the operations: it tracks every
  // tcgen05.mma t issued before it, and its arrive-on later comes as async_op_complete_tx(commit, ...). And a
  // tcgen05.fence::before_thread_sync / after_thread_sync by t (9.7.16.6.3).
  virtual void tcgen05_commit(const ThreadRef& /*t*/, std::uint64_t /*commit*/) {}
  virtual void tcgen05_before_thread_sync(const ThreadRef& /*t*/) {}
  virtual void tcgen05_after_thread_sync(const ThreadRef& /*t*/) {}
  // Every thread of CTA `cta` (CTA-linear id) exited and its cluster's copies landed: no later event is by its
  // threads (an observer may drop what it kept per thread).
  virtual void cta_retired(std::uint64_t /*cta*/) {}
  // Asked every few thousand warp instructions: a reason to stop the run now (the observer's own budget), or
  // empty to go on. The run then ends with a step_limit problem carrying that reason.
  virtual std::string stop_reason() { return {}; }
};

// An observer of memory accesses alone (memcheck, tests): every other callback does nothing.
class AccessObserver : public Observer {
 public:
  void allocation(const std::string&, ir::StateSpace, std::uint64_t, std::uint64_t) override {}
  void fence(const ThreadRef&, const ir::Instruction&) override {}
  void barrier_arrive(const ThreadRef&, std::uint32_t, const ir::Instruction&, std::uint32_t) override {}
  void barrier_complete(std::uint64_t, std::uint32_t, const std::vector<ThreadRef>&) override {}
  void warp_sync(const std::vector<ThreadRef>&) override {}
  void async_group(const ThreadRef&, const ir::Instruction&) override {}
  void mbarrier_arrive(const ThreadRef&, const ir::Instruction&, std::uint64_t, std::uint64_t, std::uint64_t) override {}
  void mbarrier_wait(const ThreadRef&, const ir::Instruction&, std::uint64_t, std::uint64_t, std::uint64_t) override {}
  void mbarrier_init(const ThreadRef&, const ir::Instruction&, std::uint64_t, std::uint64_t) override {}
};

// Two observers hearing the same run (ptxcheck exec --racecheck --memcheck): each callback goes to both, first
// then second; the run stops for the first reason either gives.
class TeeObserver final : public Observer {
 public:
  TeeObserver(Observer& first, Observer& second) : a_(first), b_(second) {}
  void allocation(const std::string& name, ir::StateSpace space, std::uint64_t base, std::uint64_t bytes) override {
    a_.allocation(name, space, base, bytes);
    b_.allocation(name, space, base, bytes);
  }
  void access(const ThreadRef& t, const MemoryAccess& a) override { a_.access(t, a), b_.access(t, a); }
  void fence(const ThreadRef& t, const ir::Instruction& ins) override { a_.fence(t, ins), b_.fence(t, ins); }
  void barrier_arrive(const ThreadRef& t, std::uint32_t id, const ir::Instruction& ins, std::uint32_t count) override {
    a_.barrier_arrive(t, id, ins, count), b_.barrier_arrive(t, id, ins, count);
  }
  void barrier_complete(std::uint64_t cta, std::uint32_t id, const std::vector<ThreadRef>& waiting) override {
    a_.barrier_complete(cta, id, waiting), b_.barrier_complete(cta, id, waiting);
  }
  void warp_sync(const std::vector<ThreadRef>& threads) override { a_.warp_sync(threads), b_.warp_sync(threads); }
  void async_group(const ThreadRef& t, const ir::Instruction& ins) override { a_.async_group(t, ins), b_.async_group(t, ins); }
  void mbarrier_arrive(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) override {
    a_.mbarrier_arrive(t, ins, home, object, phase), b_.mbarrier_arrive(t, ins, home, object, phase);
  }
  void mbarrier_wait(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object, std::uint64_t phase) override {
    a_.mbarrier_wait(t, ins, home, object, phase), b_.mbarrier_wait(t, ins, home, object, phase);
  }
  void mbarrier_init(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override {
    a_.mbarrier_init(t, ins, home, object), b_.mbarrier_init(t, ins, home, object);
  }
  void mbarrier_wait_incomplete(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override {
    a_.mbarrier_wait_incomplete(t, ins, home, object), b_.mbarrier_wait_incomplete(t, ins, home, object);
  }
  void mbarrier_tx(const ThreadRef& t, const ir::Instruction& ins, std::uint64_t home, std::uint64_t object) override {
    a_.mbarrier_tx(t, ins, home, object), b_.mbarrier_tx(t, ins, home, object);
  }
  void async_op_issue(std::uint64_t op, const std::vector<ThreadRef>& issuers, AsyncGroup group, const ir::Instruction& ins) override {
    a_.async_op_issue(op, issuers, group, ins), b_.async_op_issue(op, issuers, group, ins);
  }
  void async_op_access(std::uint64_t op, const MemoryAccess& a) override { a_.async_op_access(op, a), b_.async_op_access(op, a); }
  void async_op_complete_tx(std::uint64_t op, std::uint64_t cta, std::uint64_t object, std::uint64_t phase) override {
    a_.async_op_complete_tx(op, cta, object, phase), b_.async_op_complete_tx(op, cta, object, phase);
  }
  void async_group_commit(const ThreadRef& t, AsyncGroup group) override { a_.async_group_commit(t, group), b_.async_group_commit(t, group); }
  void async_group_wait(const ThreadRef& t, AsyncGroup group, std::uint64_t pending, bool reads_only) override {
    a_.async_group_wait(t, group, pending, reads_only), b_.async_group_wait(t, group, pending, reads_only);
  }
  void proxy_fence(const ThreadRef& t, const ir::Instruction& ins, ir::StateSpace space) override {
    a_.proxy_fence(t, ins, space), b_.proxy_fence(t, ins, space);
  }
  void tcgen05_commit(const ThreadRef& t, std::uint64_t commit) override { a_.tcgen05_commit(t, commit), b_.tcgen05_commit(t, commit); }
  void tcgen05_before_thread_sync(const ThreadRef& t) override { a_.tcgen05_before_thread_sync(t), b_.tcgen05_before_thread_sync(t); }
  void tcgen05_after_thread_sync(const ThreadRef& t) override { a_.tcgen05_after_thread_sync(t), b_.tcgen05_after_thread_sync(t); }
  void cta_retired(std::uint64_t cta) override { a_.cta_retired(cta), b_.cta_retired(cta); }
  std::string stop_reason() override {
    std::string r = a_.stop_reason();
    return r.empty() ? b_.stop_reason() : r;
  }

 private:
  Observer& a_;
  Observer& b_;
};

}  // namespace ptx::interp
