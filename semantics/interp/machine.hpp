// The interpreter's state (internal to semantics/interp): threads with their own program counters and call
// stacks (ISA 3.2 independent thread scheduling), warps of 32, CTAs with shared memory and 16 barriers, and
// the Machine that schedules converged lane groups, runs rendezvous (bar, *.sync) and reports problems.
#pragma once

#include "semantics/domain/concrete.hpp"
#include "semantics/interp/fast_path.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/interp/memory.hpp"
#include "semantics/interp/observer.hpp"
#include "semantics/interp/texture.hpp"
#include "semantics/ops/form.hpp"
#include "semantics/ops/memory_access.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <map>
#include <memory>
#include <memory_resource>
#include <optional>
#include <random>
#include <utility>

namespace ptx::interp {

using domain::CV;
using ir::Instruction;
using ir::Operand;
using ir::StateSpace;

struct Frame {
  std::uint32_t fn = 0, pc = 0;
  std::uint32_t reg_base = 0;
  std::uint64_t stack_base = 0;
  const Instruction* call = nullptr;  // the caller's call instruction (return values go to its operands)
  std::uint64_t entry_sp = kAllocaTop;  // the thread's alloca stack pointer when the frame was entered (stack.cpp)
};

enum class Status : std::uint8_t { running, at_barrier, at_warp_sync, at_cluster_wait, exited };

struct Thread {
  explicit Thread(std::pmr::memory_resource* arena) : frames(arena), regs(arena), stack(arena), alloca_mem(arena) {}
  // The top frame and its registers, cached (set by Machine::sync_top whenever frames or regs change).
  Frame* top = nullptr;
  CV* rbase = nullptr;
  std::pmr::vector<Frame> frames;
  std::pmr::vector<CV> regs;
  std::pmr::vector<std::uint8_t> stack;  // local and param spaces of every frame
  // ISA 9.7.17: the stack alloca allocates from, growing down from kAllocaTop in the local space; alloca_mem holds
  // the local addresses [sp, kAllocaTop) (stack.cpp).
  std::uint64_t sp = kAllocaTop;
  std::pmr::vector<std::uint8_t> alloca_mem;
  Status status = Status::running;
  CV carry{0, 1};  // CC.CF (ISA 9.7.2)
  std::array<std::uint32_t, 3> tid{};
  std::uint32_t lane = 0, warp = 0, linear = 0;
  // A pending rendezvous: the instruction, its membermask and captured operand values.
  const Instruction* sync_ins = nullptr;
  std::uint32_t sync_mask = 0;
  CV sync_a, sync_b, sync_c;
  std::uint32_t barrier_id = 0;
  bool barrier_red = false;  // waiting at a bar.red, whose result it receives on release
  std::uint64_t peak_stack = 0;
  // barrier.cluster: 1 + the phase of this thread's last arrive, 0 when it has not arrived since its last wait.
  std::uint64_t cluster_arrival = 0;
  // bulk_copy.cpp: bulk async-groups this thread committed (ISA 9.7.9.25.6.1), and its last mbarrier wait that
  // found the phase incomplete (where, with which registers, at which Machine::epoch_): a thread that fails the
  // same wait again in the same state, with no memory changed in between, is spinning for ever.
  std::uint64_t bulk_commits = 0;
  const Instruction* spin_ins = nullptr;
  std::uint64_t spin_epoch = ~std::uint64_t(0);
  bool spin_stuck = false;
  std::vector<CV> spin_regs;
  // wgmma.cpp: this thread's wgmma.mma_async results not yet written (ISA 9.7.15.7): the uncommitted operations,
  // then the committed wgmma-groups, oldest first; each operation the register slots it writes and their values.
  struct WgmmaOp {
    std::size_t depth = 0;  // frames.size() at issue
    std::vector<std::pair<std::uint32_t, CV>> writes;
  };
  std::vector<WgmmaOp> wgmma_open;
  std::vector<std::vector<WgmmaOp>> wgmma_groups;
};

struct Warp {
  std::vector<std::uint32_t> lanes;  // thread indices in the CTA, lane i = lanes[i]
  std::uint32_t syncing = 0;         // lanes waiting at a warp rendezvous
  std::uint32_t yielded = 0;         // lanes that took a backward branch while the warp was diverged
  bool diverged = false;             // the group being run is not every running lane of the warp
  // The setmaxnreg operations the warp has executed, in order: the count, | kSetmaxnregInc for .inc (9.7.19.5: the
  // warps of a warpgroup must execute the same ones; check_setmaxnreg).
  std::vector<std::uint32_t> setmaxnreg_ops;
};
inline constexpr std::uint32_t kSetmaxnregInc = 1u << 16;

// A converged group (step_warp): the lanes of one warp at the same (depth, function, pc), with their threads
// and register files looked up once. It lasts until an instruction ends it, and every instruction that pushes or
// pops a frame (call, ret, exit, falling off the end) ends it, so `regs` stay valid. Straight-line instructions
// advance `pc` only; the lanes' frame pcs catch up (Machine::sync_pc) before an instruction that reads or sets
// them and when the group ends, which saves a store per lane per instruction.
struct Group {
  std::uint32_t mask = 0, size = 0;  // the lanes, and how many
  std::uint32_t fn = 0, pc = 0;
  bool pc_ahead = false;  // the lanes' frame pcs are behind `pc`
  // Entry k (k < size) is the lane with the k-th lowest index in `mask`: its thread and top-frame registers.
  std::array<Thread*, 32> thread;
  std::array<CV*, 32> regs;
  // Calls f(k, lane) for the lanes of the group that are in `set`, in lane order (k indexes thread and regs).
  template <class F> void each(std::uint32_t set, F&& f) const {
    std::uint32_t k = 0;
    for (std::uint32_t m = mask; m; m &= m - 1, ++k)
      if (set & m & (0u - m)) f(k, static_cast<unsigned>(std::countr_zero(m)));
  }
};

struct Barrier {
  std::uint32_t arrived = 0, expected = 0;
  std::uint32_t popc = 0;
  bool all = true, any = false;
  std::vector<std::uint32_t> waiting;  // thread indices
};

// The fast path: the commonest instructions with plain register/immediate operands whose widths match the
// instruction type, pre-resolved to register slots and run over all lanes of a group in one tight loop
// (fast.cpp; FastKind in fast_path.hpp). It must compute exactly what semantics/ops computes;
// tests/unit/interp/test_fast_path.cpp runs every form it takes both ways.
struct FastArg {
  std::uint32_t slot = 0;
  std::uint64_t imm = 0;
  bool is_imm = false;
};
struct Fast {
  FastKind kind = FastKind::none;
  unsigned width = 32;
  std::uint64_t mask = 0xffffffff;
  std::uint32_t dst = 0;
  FastArg a, b, c;
  ir::CompareOp cmp = ir::CompareOp::eq;
  bool is_signed = false;
  const Operand* address = nullptr;  // ld/st: the [address] operand; mov_read: the source
  std::int32_t address_slot = -1;    // ld/st: the address's base register slot, when it has one
  StateSpace space = StateSpace::generic;
};

// Per-instruction facts decoded once (on first execution) and reused by every lane and every later visit.
// An instruction decoded once per function: its value form (semantics/ops/form.hpp) and what the interpreter
// adds (state space, guard slot, barrier kind, the fast path's plan).
struct Decoded : ops::Form {
  bool ready = false;
  StateSpace space = StateSpace::generic;
  std::int32_t guard_slot = -1;  // the guard predicate's register slot
  bool red = false, arrive = false;  // bar.red, bar.arrive (ISA 9.7.13.1)
  Fast fast;
};

struct FnInfo {
  const ir::Function* fn = nullptr;
  std::vector<std::uint32_t> slot;    // register index -> first slot
  std::vector<std::uint8_t> vec;      // register index -> elements (1, 2, 4 or 8)
  std::vector<CV> init;               // slot -> its value on entry: zero, of the width of one element
  std::uint32_t nslots = 0;
  std::vector<std::uint64_t> param_off, ret_off, local_off;  // byte offsets in the frame (or in shared memory)
  std::vector<std::int32_t> param_reg, ret_reg;  // legacy `.reg` parameters: their register, else -1
  std::uint64_t frame_bytes = 0;
  std::vector<Decoded> decoded;
};
// The register part of fn's FnInfo: slot, vec, init, nslots (Machine::setup, fast_path_plan).
void layout_registers(const ir::Function& fn, FnInfo& fi);
// What decoding `ins` of a function laid out as `fi` gives (Decoded less `ready`), with the fast path's plan when
// `fast` (Machine::decode_first, fast_path_plan).
void decode_instruction(const FnInfo& fi, const Instruction& ins, bool fast, Decoded& d);
// fast.cpp: the fast form of `ins` (kind none: the general path runs it), the one decision.
Fast plan_fast(const FnInfo& fi, const Instruction& ins, const Decoded& d);

// An mbarrier object (ISA 9.7.13.15.2), kept beside the 8 bytes of shared memory it occupies (its contents are
// opaque, so the interpreter need not encode it there). Absent from Cta::mbarriers: not initialized.
struct Mbarrier {
  std::uint64_t phase = 0;     // the current, incomplete phase (9.7.13.15.4)
  std::uint32_t pending = 0;   // arrivals the current phase still waits for
  std::uint32_t expected = 0;  // arrivals each phase starts with
  std::int64_t tx = 0;         // tx-count (9.7.13.15.5)
};

struct Cluster;
struct BulkCopy;  // a bulk asynchronous copy in flight (bulk_copy.cpp)

struct Cta {
  // Its threads' frames, registers and stacks come from `arena`, which starts in `buffer`: one allocation for the
  // CTA instead of three per thread (a vector that grows leaves its old copy there until the CTA is done). A
  // finished CTA's storage is reused for the next CTA (Machine::run), so a grid allocates only for the resident ones.
  explicit Cta(std::size_t bytes) : buffer(new std::byte[bytes]), arena(buffer.get(), bytes) {}
  std::unique_ptr<std::byte[]> buffer;
  std::pmr::monotonic_buffer_resource arena;
  std::array<std::uint32_t, 3> ctaid{};
  std::vector<Thread> threads;
  std::vector<Warp> warps;
  // The warps [first, end) of the warpgroup that warp `warp` belongs to: four contiguous warps (ISA 9.7.15.1), fewer
  // at the end of a CTA whose warp count is no multiple of four.
  std::pair<std::size_t, std::size_t> warpgroup_of(std::size_t warp) const {
    const std::size_t first = warp / 4 * 4;
    return {first, std::min(first + 4, warps.size())};
  }
  std::vector<std::uint8_t> shared;
  std::array<Barrier, 16> barriers{};
  std::map<std::uint64_t, Mbarrier> mbarriers;  // by shared-memory offset
  Cluster* cluster = nullptr;  // its cluster (ISA 2.2.2), every CTA of which is resident with it
  std::uint32_t rank = 0;             // %cluster_ctarank
  std::uint32_t exited = 0;
  std::uint32_t arrivals = 0;  // threads counted at any barrier and not yet released
  // Tensor Memory (ISA 9.7.16.1; tcgen05.cpp): 128 lanes x 512 columns of 32-bit cells, cell (lane, column) at
  // lane * 512 + column; empty until the CTA's first tcgen05.alloc. The allocations by first column, their
  // columns; whether a thread of the CTA has executed tcgen05.relinquish_alloc_permit.
  std::vector<std::uint32_t> tmem;
  std::map<std::uint32_t, std::uint32_t> tmem_allocations;
  bool tmem_relinquished = false;
  // clusterlaunchcontrol (cluster_launch_control.cpp): a thread of the CTA has seen a try_cancel response report
  // failure (query_cancel.is_canceled false), after which another try_cancel is undefined (ISA 9.7.13.17).
  bool cancel_failure_seen = false;
  // tcgen05.mma.ws's collector buffers b0-b3 for matrix B (9.7.16.10.9.3): B's values when filled, empty when not valid.
  std::array<std::vector<double>, 4> tmem_collector;
  // Whether columns [first, first + n) lie in one allocation.
  bool tmem_allocated(std::uint32_t first, std::uint32_t n) const {
    for (const auto& [c, size] : tmem_allocations)
      if (c <= first && first + n <= c + size) return true;
    return false;
  }
};

// A thread-block cluster (ISA 2.2.2; cluster.cpp): its CTAs, co-resident and run interleaved, by
// %cluster_ctarank, and the state of its barrier.cluster (9.7.13.3).
struct Cluster {
  std::array<std::uint32_t, 3> id{};  // %clusterid
  std::vector<Cta*> ctas;
  std::uint64_t phase = 0;    // barrier.cluster's completed phases
  std::uint32_t arrived = 0;  // threads that arrived in the current phase
  bool done() const {
    for (const Cta* c : ctas)
      if (c->exited != c->threads.size()) return false;
    return true;
  }
};

// Where a shared-memory address points (cluster.cpp): a CTA of the executing CTA's cluster and an offset in its
// shared memory; cta null when the address names none.
struct SharedTarget {
  Cta* cta = nullptr;
  std::uint64_t offset = 0;
};

// Whether bulk_copy.cpp executes this cp{.reduce}.async.bulk{.tensor}{.prefetch} / commit / wait form.
bool bulk_copy_supported(const Instruction& ins);
// async_store.cpp: whether `ins` is the mbarrier-completed form of st.async / red.async (9.7.9.12, 9.7.13.7: the
// one with an [mbar] operand) or st.bulk (9.7.9.13), and whether that form is one the ISA defines.
bool async_store_form(const Instruction& ins);
bool async_store_supported(const Instruction& ins);
// Whether texture.cpp / surface.cpp execute this tex, tld4, txq, istypep / suld, sust, sured, suq form; when not,
// `why` says why (for `ptxcheck coverage --why`).
bool texture_supported(const Instruction& ins, std::string* why = nullptr);
bool surface_supported(const Instruction& ins, std::string* why = nullptr);
bool tensormap_supported(const Instruction& ins);  // tensormap.cpp
// Whether cluster_launch_control.cpp executes this clusterlaunchcontrol form (ISA 9.7.13.17-18).
bool cluster_launch_control_supported(const Instruction& ins);
// Whether mma_sync.cpp executes this mma form (the dense forms of ISA 9.7.14.5.14).
bool mma_sync_supported(const Instruction& ins);
// Whether mma_sparse.cpp executes this mma.sp / mma.sp::ordered_metadata form (ISA 9.7.14.6.3).
bool mma_sparse_supported(const Instruction& ins);
bool is_mma_sparse(const Instruction& ins);  // .sp or .sp::ordered_metadata
// Whether wmma.cpp executes this wmma.load / wmma.store / wmma.mma form (ISA 9.7.14.4).
bool wmma_supported(const Instruction& ins);
// Whether warp_matrix.cpp executes this ldmatrix / stmatrix / movmatrix form (ISA 9.7.14.5.15-17).
bool warp_matrix_supported(const Instruction& ins);
// Whether wgmma.cpp executes this wgmma form.
bool wgmma_supported(const Instruction& ins);
// Why wgmma.cpp does not run a wgmma form the text leaves undefined (empty: no particular reason).
std::string wgmma_unsupported_reason(const Instruction& ins);
// Whether tcgen05.cpp executes this tcgen05 form; whether the form is a warp collective (.sync.aligned with data).
bool tcgen05_supported(const Instruction& ins);
bool tcgen05_collective(const Instruction& ins);
// Why a tcgen05 or mma form the interpreter refuses cannot be run exactly from the text (empty: no particular reason).
std::string matrix_unsupported_reason(const Instruction& ins);

class Machine {
 public:
  Machine(const ir::Module& m, const Launch& l, const Options& o)
      : mod_(m), launch_(l), opt_(o), global_(o.device ? o.device->memory : own_global_),
        textures_(o.textures ? *o.textures : own_textures_) {
    if (o.seed) rng_.emplace(o.seed);
  }
  RunResult run();

  // ---- used by exec.cpp
  const ir::Module& mod_;
  const Launch& launch_;
  const Options& opt_;
  std::optional<std::mt19937_64> rng_;  // seeded scheduling only
  GlobalMemory own_global_;  // the launch's own memory when Options::device is null
  GlobalMemory& global_;     // global and const memory: Options::device's, else own_global_
  TextureRegistry own_textures_;  // empty: a launch without Options::textures has no texture or surface
  TextureRegistry& textures_;
  std::vector<FnInfo> fns_;
  std::vector<std::uint64_t> global_addr_;    // module global index -> address (global/const) or shared offset
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> local_shared_;  // (fn, local) -> shared offset
  std::uint64_t static_shared_ = 0, dynamic_shared_base_ = 0;
  std::vector<std::uint64_t> buffer_base_;  // launch buffer index -> address
  std::uint64_t grid_workspace_ = 0;         // a cooperative launch's grid workspace (Launch::cooperative), else 0
  std::uint32_t kernel_ = 0;                // function index of the launched kernel
  std::vector<std::uint8_t> kernel_frame_;  // the kernel frame's bytes at entry: the launch's parameter values
  Cta* cta_ = nullptr;
  ClusterShape cluster_;  // the launch's cluster shape (ISA 2.2.2)
  RunResult result_;
  bool stop_ = false;
  std::uint64_t clock_ = 0;

  Frame& frame(Thread& t) { return t.frames.back(); }
  static void sync_top(Thread& t) {
    t.top = t.frames.empty() ? nullptr : &t.frames.back();
    t.rbase = t.top ? t.regs.data() + t.top->reg_base : nullptr;
  }
  const FnInfo& info(const Thread& t) { return fns_[t.frames.back().fn]; }
  const Decoded& decode(std::uint32_t fn, std::uint32_t pc) {
    const Decoded& d = fns_[fn].decoded[pc];
    return d.ready ? d : decode_first(fn, pc);
  }

  // Operands. `width` is the instruction type's width; `is_signed` extends narrower registers by sign.
  struct ValueFrame;  // one thread's registers as semantics/ops/execute.hpp's frame (exec.cpp)
  CV read(Thread& t, const Operand& o, unsigned width, bool is_signed = false, bool is_f = false);
  void write(Thread& t, const Operand& o, CV v, bool is_signed = false);
  CV& reg(Thread& t, std::int32_t r, int component = -1);
  CV special(Thread& t, const Operand& o, unsigned width);
  // The address an instruction's [address] operand names, in `space` (generic if none was given).
  std::uint64_t address(Thread& t, const Operand& o);
  // The address a memory instruction of state space `space` accesses through operand `o` (address(), with a
  // variable in a generic access taken as its generic address).
  std::uint64_t access_address(Thread& t, const Operand& o, StateSpace space);
  std::pair<StateSpace, std::uint64_t> variable_address(Thread& t, const ir::VarRef& v);
  const ir::Variable& variable(Thread& t, const ir::VarRef& v);
  // ISA 6.4.1: "The address must be naturally aligned to a multiple of the access size" (an ld.v4.b32 accesses 16
  // bytes); otherwise "the instruction may fault", as hardware does. False (and a reported problem) when it is not.
  bool aligned(Thread& t, std::uint64_t addr, std::uint64_t size, bool write);
  // Memory access with bounds check; null (and a reported problem) when out of bounds.
  std::uint8_t* locate(Thread& t, StateSpace space, std::uint64_t addr, std::uint64_t size, bool write);
  CV load(Thread& t, StateSpace space, std::uint64_t addr, unsigned bits);
  void store(Thread& t, StateSpace space, std::uint64_t addr, const CV& v, unsigned bytes);
  static std::uint64_t to_generic(StateSpace s, std::uint64_t a);
  // ISA 6.4.1: the state space and address a (possibly generic) address names.
  static std::pair<StateSpace, std::uint64_t> resolve(StateSpace space, std::uint64_t addr);

  // Options::observer's view of a thread, and one memory access reported to it (observer.hpp).
  ThreadRef thread_ref(const Thread& t) const;
  std::uint64_t cta_linear(const Cta& c) const;  // ThreadRef::cta of c's threads
  void observe(Thread& t, const Instruction& ins, MemoryAccess::Kind kind, StateSpace space, std::uint64_t addr,
               std::uint32_t bytes, bool wrote = true, bool async = false);
  // A membar / fence reported to the observer (ISA 9.7.13.4, ir::fence_form): a thread fence, or fence.proxy.async's
  // ordering of the generic and the async proxy in its state space.
  void observe_fence(Thread& t, const Instruction& ins);
  // A texture fetch's read of linear memory (MemoryAccess::texture), as observe() reports a load.
  void observe_texture(Thread& t, const Instruction& ins, std::uint64_t addr, std::uint32_t bytes);
  // An access of asynchronous-proxy operation `op` (Observer::async_op_access) made by instruction `ins` of function
  // `fn`; a shared address is the offset in the shared memory of CTA `owner`.
  // The parts every reported access has: the instruction, its function and index there, the kind, the size.
  MemoryAccess access_record(std::uint32_t fn, const Instruction& ins, MemoryAccess::Kind kind, std::uint32_t bytes) const;
  void observe_async(std::uint64_t op, std::uint32_t fn, const Instruction& ins, MemoryAccess::Kind kind, StateSpace space,
                     std::uint64_t addr, std::uint32_t bytes, const Cta* owner);
  std::uint64_t next_async_op_ = 0;  // numbers the asynchronous-proxy operations an observer hears of

  // Problems stop the run; the first one is reported.
  void fail(Problem::Kind k, std::string message, std::vector<Thread*> threads = {});
  ThreadPos position(Thread& t);

  // Per-lane execution of the instructions that need no other thread (exec.cpp). Returns false if the
  // instruction is not supported.
  bool exec_lane(Thread& t, const Instruction& ins, const Decoded& d);
  // exec_lane's cases with more than a line to them (exec.cpp).
  void exec_vector_mov(Thread& t, const Instruction& ins, const Decoded& d);
  void exec_cvta(Thread& t, const Instruction& ins, const Decoded& d);
  void exec_isspacep(Thread& t, const Instruction& ins);
  void exec_load_store(Thread& t, const Instruction& ins, const Decoded& d, const ops::MemoryAccessForm& f);
  void exec_atomic(Thread& t, const Instruction& ins, const Decoded& d, const ops::MemoryAccessForm& f);
  void exec_async_copy(Thread& t, const Instruction& ins);
  // Textures (texture.cpp: tex, tld4, txq, istypep; ISA 9.7.10) and surfaces (surface.cpp: suld, sust, sured, suq;
  // 9.7.11) through a texture / surface object handle or a bound .texref / .surfref variable.
  void exec_texture(Thread& t, const Instruction& ins);
  void exec_tensormap(Thread& t, const Instruction& ins);  // tensormap.replace, tensormap.cp_fenceproxy (tensormap.cpp)
  // clusterlaunchcontrol.try_cancel / query_cancel (cluster_launch_control.cpp): try_cancel takes the next cluster
  // of cluster_queue_ that has not started, if any, and answers through start_async_store.
  void exec_cluster_launch_control(Thread& t, const Instruction& ins);
  // The grid's clusters in launch order (cluster_order) and the first that has not started (run_grid).
  std::vector<std::vector<std::array<std::uint32_t, 3>>> cluster_queue_;
  std::size_t cluster_next_ = 0;
  void exec_surface(Thread& t, const Instruction& ins);
  // mbarrier.* and cp.async.mbarrier.arrive (mbarrier.cpp).
  void exec_mbarrier(Thread& t, const Instruction& ins);
  // wgmma.fence / commit_group / wait_group (wgmma.cpp).
  void exec_wgmma_lane(Thread& t, const Instruction& ins);
  // Clusters (cluster.cpp): the cluster special registers (ISA 10.11-10.17; nullopt for any other register),
  // the CTA and offset a shared address names (`given`: the instruction's state space, generic when the address
  // came through the generic window), mapa (9.7.9.23), getctarank (9.7.9.24) and isspacep of shared spaces.
  std::optional<std::uint64_t> cluster_special(ir::SpecialRegister r, unsigned component) const;
  SharedTarget shared_target(StateSpace given, std::uint64_t addr) const;
  std::uint64_t own_shared_base() const;  // the executing CTA's .shared::cta address of offset 0
  std::uint8_t* shared_pointer(Thread& t, StateSpace given, std::uint64_t addr, std::uint64_t size);
  void exec_mapa(Thread& t, const Instruction& ins, const Decoded& d);
  void exec_stack(Thread& t, const Instruction& ins, const Decoded& d);  // alloca, stacksave, stackrestore (stack.cpp)
  void release_alloca(Thread& t, std::uint64_t sp);  // sets sp to a value at or above it, freeing what lies below
  void exec_getctarank(Thread& t, const Instruction& ins, const Decoded& d);
  // Bulk asynchronous copies (bulk_copy.cpp, ISA 9.7.9.25.4-6): cp{.reduce}.async.bulk{.tensor}, their
  // prefetches (hints), commit_group and wait_group. A copy completes at issue, or with --seed at a random later
  // scheduling point (bulk_tick) and at the latest when the program could observe it (bulk_flush_*).
  void exec_bulk(Thread& t, const Instruction& ins);
  bool write_tensor_maps(std::size_t first_buffer_region);  // Launch::tensor_maps into their buffers (setup)
  void bulk_tick();                                   // a scheduling point
  void bulk_flush_mbarrier(const Cta& home, std::uint64_t object);  // before a wait on this object
  void bulk_flush_cluster(const Cluster& c);          // before the cluster's shared memory goes
  void bulk_flush_all();
  void complete_bulk(BulkCopy& c);
  // st.async / red.async of `data` into shared memory `dst`, completed like a bulk copy with complete-tx on `mbar`.
  void start_async_store(Thread& t, const Instruction& ins, const SharedTarget& dst, const SharedTarget& mbar, std::vector<std::uint8_t> data);
  // async_store.cpp: the mbarrier forms of st.async / red.async (issue), and st.bulk.
  void exec_async_store(Thread& t, const Instruction& ins, const Decoded& d);
  void exec_st_bulk(Thread& t, const Instruction& ins, const Decoded& d);
  void observe_bulk(const BulkCopy& c, const Cta* dst_cta, std::uint64_t dst, std::uint64_t size);
  // A Tensor Memory access of tcgen05 operation `op` (MemoryAccess::tensor_memory): `cells` cells from (lane, column).
  void observe_tmem(std::uint64_t op, std::uint32_t fn, const Instruction& ins, MemoryAccess::Kind kind, std::uint32_t lane,
                    std::uint32_t column, std::uint32_t cells, const Cta& owner);
  // A failed mbarrier wait (mbarrier.cpp): deadlock when every live thread of the grid's resident CTAs is blocked or
  // spinning on such a wait in an unchanging state.
  void note_failed_wait(Thread& t, const Instruction& ins);
  void note_passed_wait(Thread& t) { t.spin_stuck = false; t.spin_ins = nullptr; }
  bool spinning_forever(const Cta& cta) const;
  void report_spin_deadlock(Cta& cta);
  std::vector<std::shared_ptr<BulkCopy>> bulk_pending_;  // copies issued and not yet complete, oldest first
  // tcgen05.commit arrive-ons not yet signalled (tcgen05.cpp): each completes at the next scheduling point, after
  // the committing warp's turn, as the tensor core's work takes time (the thread's own wait cannot pass at once).
  struct PendingArrive {
    Cta* home;
    std::uint64_t object;
    Cta* thread_cta;  // the committing thread's CTA
    Thread* thread;
    std::string name;
    std::uint64_t commit = 0;  // the commit's number, for an observer
  };
  std::vector<PendingArrive> tcgen05_pending_;
  // The D cells of issued tcgen05.mma operations and their new values, written when the operations complete: at
  // the next scheduling point, before the commits' arrive-ons, or before another MMA starts (tcgen05.cpp).
  std::vector<std::pair<std::uint32_t*, std::uint32_t>> tcgen05_results_;
  void tcgen05_apply_results();
  void tcgen05_tick();  // a scheduling point (run_cta), and the exit of a CTA
  std::uint64_t epoch_ = 0;  // counts writes to memory and mbarrier changes (note_failed_wait)
  // complete-tx of `bytes` on an mbarrier object (ISA 9.7.13.15.12; mbarrier.cpp): false, with the problem
  // reported for `t`, when the object is not initialized or tx-count leaves its range.
  bool mbarrier_complete_tx(Thread& t, Cta& home, std::uint64_t object, std::int64_t bytes, const std::string& name);
  // An arrive-on of `count` (9.7.13.15.7) on the object at shared offset `object` of `home`, made by the system on
  // completion of an asynchronous operation (tcgen05.commit): false, with the problem reported, as above.
  SharedTarget mbarrier_object(Thread& t, const Operand& o, StateSpace given, const std::string& name, bool write);
  Mbarrier* initialized_mbarrier(Thread& t, Cta& home, std::uint64_t object, const std::string& name);
  bool mbarrier_async_arrive(Thread& t, Cta& home, std::uint64_t object, std::uint32_t count, const std::string& name);
  bool in_shared_window(StateSpace s, std::uint64_t generic) const;
  // fast.cpp: run an instruction's fast form (plan_fast's) over a group.
  void run_fast(Group& g, std::uint32_t active, const Fast& f);

 private:
  const Decoded& decode_first(std::uint32_t fn, std::uint32_t pc);
  bool setup();
  void device_printf(Thread& t, const Operand* arguments);  // vprintf to Options::printf_sink
  void set_graph_conditional(Thread& t, const Operand* arguments);  // cudaGraphSetConditional to Options::set_conditional
  // Argument k of a call's argument list (a .param variable or a register/immediate), `bytes` wide; 0 if absent.
  std::uint64_t call_argument(Thread& t, const Operand* arguments, std::size_t k, unsigned bytes);
  void setup_cta(Cta& cta, std::array<std::uint32_t, 3> ctaid);
  void push_frame(Thread& t, std::uint32_t fn, const Instruction* call, Thread* caller_values);
  void run_grid(std::size_t cta_bytes);  // every cluster of the grid, a few resident at a time
  bool run_cta(Cta& cta, bool to_end);  // whether any warp made progress
  void report_deadlock(Cta& cta);
  // The grid's clusters in launch order (Options::first_ctas' clusters first), each its CTAs' ctaids by rank.
  std::vector<std::vector<std::array<std::uint32_t, 3>>> cluster_order() const;
  std::uint32_t step_warp(Warp& w, std::uint32_t quantum);
  bool exec_group(Warp& w, Group& g);
  bool exec_other(Warp& w, Group& g, const Instruction& ins, const Decoded& d, std::uint32_t active);
  bool exec_collective(Warp& w, Group& g, const Instruction& ins, const Decoded& d, std::uint32_t active);
  bool exec_brx(Warp& w, Group& g, const Instruction& ins, std::uint32_t active);  // 9.7.12.4 (branch_indexed.cpp)
  static void sync_pc(Group& g);
  void thread_exit(Thread& t);
  void arrive_barrier(Thread& t, const Instruction& ins, const Decoded& d);
  void check_barriers();
  // barrier.cluster.arrive / .wait (a wait that finds its phase incomplete blocks, and runs again once it is).
  void cluster_barrier(Thread& t, const Instruction& ins);
  void complete_cluster_phase();  // when every non-exited thread of the cluster arrived
  static std::uint32_t cluster_live_threads(const Cluster& c);
  // Why the interpreter does not run this launch's clusters (empty when it does): cluster.cpp.
  std::string cluster_refusal(const ir::Function& kernel) const;
  void try_warp_sync(Warp& w);
  void report_outside_membermask(Thread& t, const ir::Instruction& ins);
  void complete_warp_sync(Warp& w, std::uint32_t mask, const Instruction& ins);
  void warp_ldmatrix(Warp& w, std::uint32_t group, const Instruction& ins);  // warp_matrix.cpp
  void warp_stmatrix(Warp& w, std::uint32_t group, const Instruction& ins);  // warp_matrix.cpp
  void warp_movmatrix(Warp& w, std::uint32_t group, const Instruction& ins);  // warp_matrix.cpp
  void warp_wmma(Warp& w, std::uint32_t group, const Instruction& ins);     // wmma.cpp
  void warp_mma(Warp& w, std::uint32_t group, const Instruction& ins);     // mma_sync.cpp
  void warp_mma_sparse(Warp& w, std::uint32_t group, const Instruction& ins);  // mma_sparse.cpp
  void warp_wgmma(Warp& w, std::uint32_t group, const Instruction& ins);  // wgmma.cpp
  bool wgmma_sparse_a(Warp& w, std::uint32_t group, const Instruction& ins, bool negate,
                      const std::function<std::uint32_t(unsigned, unsigned)>* stored, std::vector<double>& A);  // wgmma.cpp
  void warp_tcgen05(Warp& w, std::uint32_t group, const Instruction& ins);  // tcgen05.cpp: alloc, dealloc, ld, st
  void exec_tcgen05_lane(Thread& t, const Instruction& ins);               // tcgen05.cpp: mma, commit, fence, wait
  void tcgen05_mma(Thread& t, const Instruction& ins);
  std::vector<Cta*> tcgen05_ctas(Thread& t, const Instruction& ins);
  void tcgen05_commit(Thread& t, const Instruction& ins);
  void tcgen05_shift(Thread& t, const Instruction& ins);  // tcgen05_shift.cpp
  bool tcgen05_collector(Thread& t, const Instruction& ins, const std::vector<double>& B);  // tcgen05_ws.cpp
  void tcgen05_ld_st(Warp& w, std::uint32_t group, const Instruction& ins);
  bool try_warpgroup_sync(Warp& w);  // runs a wgmma.mma_async every live lane of w's warpgroup has reached
  void record_setmaxnreg(Warp& w, const Instruction& ins);  // setmaxnreg.cpp
  void check_setmaxnreg_at_exit();
  std::vector<ThreadRef> wgmma_issuers_;  // the threads of the warpgroup whose wgmma.mma_async runs (observer)
  void do_call(Thread& t, const Instruction& ins);
  std::vector<CV> operand_elements(Thread& t, const Operand& a, const ir::Type& type);
  void do_return(Thread& t);
  std::uint64_t steps_ = 0;
};

}  // namespace ptx::interp
