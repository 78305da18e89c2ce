// One kernel's race check (check.cpp check_kernel) as named stages over shared state, internal to the library.
// The driver (check.cpp) runs them in this order, one file each:
//   check_prepare.cpp     the kernel as checked: inlining, barrier rewrites, their notes, interval analyses
//   check_encode.cpp      the two threads' encodings and what the solver knows of the pair
//   check_query.cpp       solver queries under the per-query and per-kernel budgets
//   check_barriers.cpp    named barriers' phases, barrier divergence, mbarrier inits, grid synchronisation
//   check_facts.cpp       facts a pair needs: counters, claims, read consistency
//   check_ordering.cpp    orderings the engine does not model (may_order)
//   check_locks.cpp       spin locks
//   check_overlap.cpp     which accesses may conflict: allocations, overlap, moral strength
//   check_positions.cpp   where an access may be: barrier intervals, barrier loops, cp.async spans
//   check_flags.cpp       message passing through flags
//   check_tickets.cpp     last-block tickets
//   check_ticket_model.cpp a ticket's ordering asked of the memory model
//   check_search.cpp      the pair search and the queries of one pair
//   check_own_copies.cpp  a thread's own accesses while its cp.async is in flight
//   check_pipeline.cpp    the order a block-scope pipeline's phases give two accesses
//   check_report.cpp      a race's witness and report, and the kernel's result
#pragma once

#include "checker/race/check.hpp"
#include "semantics/support/resource_guard.hpp"

#include "checker/race/async_copy.hpp"
#include "checker/race/barrier_intervals.hpp"
#include "checker/race/difference.hpp"
#include "checker/race/overlap.hpp"
#include "semantics/support/cpu_clock.hpp"
#include "checker/race/describe.hpp"
#include "checker/race/encode.hpp"
#include "checker/race/flags.hpp"
#include "checker/race/flag_model.hpp"
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

#include <z3++.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ptxcheck::race {

// The engine checks the kernel with its callees spliced in (inline.hpp) and its thread-private variables as
// registers (private.hpp); instruction indices below are those of this rewritten body. Barrier forms that are CTA
// barriers (barrier_forms.hpp, mbarrier.hpp) are rewritten as such, and named in the notes.
struct RewrittenKernel {
  RewrittenKernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, KernelResult& res);
  Inlined inl;
  MbarrierRewrite mbarriers;
  std::map<std::uint32_t, std::string> unmodelled_calls;  // call instruction -> why not modelled
};

// Stage 1, prepare: the rewritten kernel and the static analyses of it both threads share (not moved: the analyses
// refer to the function and its CFG).
struct PreparedKernel {
  PreparedKernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, KernelResult& res);
  PreparedKernel(const PreparedKernel&) = delete;
  PreparedKernel& operator=(const PreparedKernel&) = delete;

  RewrittenKernel rewritten;
  const ptx::ir::Function& f;  // rewritten.inl.function
  Prepared prep;
  std::map<std::uint32_t, std::vector<AsyncPosition>> spans;  // cp.async -> where its copy may be (async_copy.hpp)
  // Barrier intervals: of a CTA; of a warp (a full-mask bar.warp.sync ends one too); of the grid (grid_sync.hpp).
  Analysis an;
};

// Places each access between a split arrive and its wait in the intervals ending at the arrive too (mbarrier.hpp).
void widen_split_arrives(Analysis& intervals, const MbarrierRewrite& mbarriers);
// bar.warp.sync with the full mask, unguarded (check_encode.cpp).
bool full_warp_barrier(const ptx::ir::Instruction& in);
// bar.warp.sync with any membermask, unguarded (check_encode.cpp).
bool warp_barrier(const ptx::ir::Instruction& in);
z3::expr all_eq(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b);
ThreadIds ids_of(const z3::model& m, const ThreadEncoding& t);

// The pair check of one prepared kernel: two symbolic threads, the solver, and what the stages learn on the way.
// The stages run in the order the driver calls them (check.cpp check_kernel_guarded).
struct KernelCheck {
  // Stage 2, encode the thread pair: both threads' encodings, the warp and grid intervals, locks, named barriers.
  KernelCheck(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, ResourceGuard& guard,
              const PreparedKernel& prepared, KernelResult& res);
  KernelCheck(const KernelCheck&) = delete;
  KernelCheck& operator=(const KernelCheck&) = delete;

  // ---- stages (check_kernel_guarded calls them in this order)
  void constrain_pair();             // check_encode.cpp: the launch, the assumptions, the two threads distinct
  void settle_named_barriers();      // check_barriers.cpp
  void add_writer_counter_facts();   // check_facts.cpp
  void mark_orderings();             // check_ordering.cpp
  void check_barrier_divergence();   // check_barriers.cpp
  void check_mbarrier_inits();       // check_barriers.cpp
  void check_grid_sync_divergence(); // check_barriers.cpp
  void settle_grid_syncs();          // check_grid_sync.cpp: which grid syncs the model says order (the constructor)
  void settle_locks();               // check_locks.cpp
  void index_objects();              // check_overlap.cpp
  void place_accesses();             // check_positions.cpp
  void collect_lane_facts();         // check_encode.cpp
  void find_flags();                 // check_flags.cpp
  void find_tickets();               // check_tickets.cpp
  void search_pairs();               // check_search.cpp
  void note_flags();                 // check_flags.cpp
  void note_locks();                 // check_locks.cpp
  void note_tickets();               // check_tickets.cpp
  void check_own_copies();           // check_own_copies.cpp
  void finish();                     // check_report.cpp: the closing notes, the replay, the verdict

  // ---- inputs
  const ptx::ir::Module& m;
  const ptx::ir::Function& kernel;
  const Options& o;
  ResourceGuard& guard;
  KernelResult& res;
  const Inlined& inl;
  const MbarrierRewrite& mbarriers;
  const ptx::ir::Function& f;
  const Prepared& prep;
  const std::map<std::uint32_t, std::vector<AsyncPosition>>& spans;
  const Analysis& an;

  // ---- encoding (check_encode.cpp)
  z3::context c;
  const ResourceGuard::Watch watch;  // after the context, so that it ends first
  Launch launch;
  ThreadEncoding T1, T2;
  Analysis an_warp, an_subwarp;
  std::vector<GridSync> grid_syncs;                  // recognised (their divergence is checked)
  std::set<std::uint32_t> grid_workspace;            // their accesses of W: the driver's memory, never in a race pair
  std::set<std::uint32_t> grid_ends, grid_counter;   // of those the model says order (W's accesses no other ordering)
  std::optional<Analysis> an_grid;
  CriticalSections locks;
  // Each site's lock address in either thread, looked up once (the pair loop reads them for every pair).
  std::vector<std::optional<z3::expr>> lock_address1, lock_address2;
  // ---- locks asked of the model (check_lock_model.cpp): sites ka (next holder, a) and kb (previous holder, b)
  std::array<bool, 3> lock_places(std::size_t k) const;
  bool lock_middles(const LockSite& next, std::vector<MessageQuestion::Middle>& out);
  std::map<int, std::optional<std::vector<MessageQuestion::Middle>>> lock_middle_cache;  // lock object -> lock_middles
  std::array<std::optional<bool>, 3> model_lock_orders(std::size_t ka, const Access& ca, std::size_t kb, const Access& pb, std::string& why);
  // The decision: the model orders pb before ca in every place a taker may be in (kept per question; an unanswered
  // one orders nothing and is noted once per site in lock_unanswered).
  bool lock_orders(std::size_t ka, const Access& ca, std::size_t kb, const Access& pb);
  bool lock_protects(std::size_t k, const Access& x);  // x, taken as a write, ordered with itself in two holders
  std::map<std::tuple<std::size_t, std::uint32_t, bool, std::size_t, std::uint32_t, bool>, bool> lock_answers;
  std::map<std::size_t, std::string> lock_unanswered;  // site -> why
  NamedBarrierPhases phases;
  z3::solver s{c};
  QueryBudget current;  // the solver's budget per query
  std::vector<z3::expr> argument_reads;  // both threads'
  z3::expr distinct_threads{c}, same_cta{c}, same_cluster{c}, same_warp{c};
  z3::expr mutual_warp_sync{c};  // two threads of one warp each in the other's mask at every partial bar.warp.sync
  z3::expr lane_bit1{c}, lane_bit2{c};  // each thread's bit in a warp's lane mask
  z3::expr lane_bits{c};  // both threads' ballot lane facts (encode.hpp lane_facts), for the pairs that need them
  z3::expr u32(std::uint64_t v);
  // The warp of a thread: warps are made of consecutive linear thread ids of a CTA (ISA 2.2: x fastest, then y, then z).
  z3::expr warp_of(const ThreadEncoding& t);
  // ISA 8.6 morally strong, the scope part: each operation's scope includes the other thread.
  z3::expr includes(ptx::ir::Scope sc);

  // ---- queries (check_query.cpp)
  using Answer = std::tuple<z3::check_result, std::optional<z3::model>, std::string>;
  bool over_budget();
  std::string budget_reason();
  void set_budget(const QueryBudget& b);
  Answer check_on(z3::solver& solver, const z3::expr& q);
  Answer check(const z3::expr& q);

  // ---- barrier counts on the threads' paths (check_barrier_counts.cpp)
  enum class BarrierKind { none, cta, full_warp, partial_warp };
  BarrierKind barrier_kind(std::uint32_t i) const;
  bool countable(BarrierKind kind);
  const std::vector<bool>& reached_from(std::uint32_t i);
  std::optional<z3::expr> barriers_passed(const ThreadEncoding& t, const Access& x, BarrierKind kind);
  z3::expr ordered_by_barrier_counts(const Access& a, const Access& b);
  std::map<std::uint32_t, std::vector<bool>> reach_memo;  // instruction -> what its successors reach
  std::map<BarrierKind, bool> countable_memo;
  std::map<std::pair<const Access*, BarrierKind>, std::optional<z3::expr>> passed_memo;

  // ---- barriers (check_barriers.cpp)
  z3::expr traps(const ThreadEncoding& t);
  z3::expr one_misses(const Barrier& b1, const Barrier& b2);
  std::string condition_text(int cause);
  z3::expr same_iterations(int blk);

  // ---- counters, claims, read consistency (check_facts.cpp)
  enum class CounterReach { none, within_cta, everywhere };
  bool non_negative_amount(const Access& a);
  CounterReach only_incremented(const CounterRead& cr);
  CounterReach counter_ok(const CounterRead& cr);
  std::optional<z3::expr> claimed_once(int object);
  z3::expr disjoint_ranges(const CounterRead& x, const CounterRead& y, CounterReach reach);
  z3::expr counter_facts(const Access& a, const Access& b);
  z3::expr pipeline_orders(const Access& x, const Access& y);  // check_pipeline.cpp
  z3::expr claim_facts(const Access& a, const Access& b);
  std::map<std::uint32_t, bool> amount_ok;    // add instruction -> non_negative_amount, asked once
  std::map<int, CounterReach> counter_reach;  // counter allocation -> only_incremented
  bool counters_assumed = false;
  std::map<int, std::optional<z3::expr>> claim_value;  // allocation -> E (claimed_once)
  bool claims_used = false;
  // Read consistency within a thread (consistent_loads), computed when a pair first needs it (most kernels have
  // no racy-looking pair).
  std::optional<std::set<std::pair<std::uint32_t, std::uint32_t>>> consistent;
  // Per thread: each load's value symbol, and the constants its address and condition are built from.
  struct Loads {
    std::unordered_map<unsigned, const Access*> by_value;  // value symbol id -> load
    std::map<const Access*, std::unordered_set<unsigned>> deps;
  };
  Loads index_loads(const ThreadEncoding& t);
  z3::expr load_facts(const std::vector<unsigned>& roots);
  Loads loads1, loads2;

  // ---- orderings the engine does not model (check_ordering.cpp)
  std::vector<bool> syncs, sync_after, sync_before;
  // The strong reads that may observe a write of allocation `object` (-1: unknown, any read may), and what they reach.
  std::map<std::uint32_t, int> read_object;  // strong read -> the allocation it accesses (-1 unknown)
  struct StrongReads {
    std::vector<bool> at, before;
  };
  std::map<int, StrongReads> strong_reads_by_object;
  const StrongReads& strong_reads_of(const Access& x);
  bool ordered_one_way(const Access& x, const Access& y, bool first_iteration);
  bool may_be_ordered(const Access& x, const Access& y, bool first_iteration);
  z3::expr first_iterations(const Access& a, const Access& b);

  // ---- allocations and overlap (check_overlap.cpp)
  std::set<std::string> pointer_params;
  std::vector<std::optional<std::uint64_t>> object_bytes;  // per object: its size, when a declared variable's
  std::map<std::string, int> object_of_symbol;             // base symbol -> object
  struct ObjectTerm {
    enum { none, known, unknown } kind;  // none: no allocation in it (an integer offset)
    std::optional<z3::expr> id;
  };
  std::unordered_map<unsigned, ObjectTerm> object_terms;  // by term id: address terms share subterms
  ObjectTerm object_term(const z3::expr& e);
  ObjectTerm object_term_of(const z3::expr& e);
  std::optional<z3::expr> object_id(const Access& a);
  z3::expr aligned(const Access& a);
  static bool ignorable(Space sp);
  z3::expr both_overlap(const Access& a, const Access& b, std::optional<z3::expr>* plain_switch = nullptr);
  bool never_conflict(const Access& a, const Access& b);
  bool always_morally_strong(const Access& a, const Access& b);

  // ---- positions (check_positions.cpp)
  // Where an access may happen (AsyncPosition): its instruction, or anywhere in its cp.async's span, with the CTA
  // barrier intervals it may be in there: past a barrier on the span's path, those that barrier starts; before
  // any, those of the cp.async itself as well (the thread is still in the interval it issued the copy in).
  struct Position {
    AsyncPosition at;
    std::vector<bool> cta_intervals;  // Analysis::starts index -> may be in it
  };
  std::vector<bool> cta_intervals_of(std::uint32_t issue, const AsyncPosition& p);
  bool in_body(std::size_t L, std::uint32_t instr);
  std::optional<std::uint8_t> side_of(const AsyncPosition& p, std::size_t L);
  static bool same_cta_interval(const Position& x, const Position& y);
  static bool any_same_interval(const Analysis& intervals, const std::vector<Position>& xs, const std::vector<Position>& ys);
  z3::expr iterations_together(const Position& px, bool x_async, const Position& py, bool y_async);
  std::vector<bool> left_after_barrier;
  std::vector<std::vector<bool>> before_loop, reached_from_loop, reaching_loop;
  std::map<std::uint32_t, std::vector<Position>> span_kinds;
  std::vector<std::vector<Position>> positions_of;  // per access of the encoding (T1's and T2's alike)

  // ---- flags (check_flags.cpp)
  std::vector<FlagSite> flag_sites;
  z3::expr offset_in(int object, const z3::expr& addr);
  enum class FlagRead { settled, initial_content, other_write };
  std::map<std::pair<std::size_t, std::uint32_t>, FlagRead> flag_reads;  // (site, consumer instruction), asked of T1
  FlagRead flag_read(std::size_t k, std::uint32_t consumer);
  std::vector<bool> flag_used, flag_needs_initial;
  std::map<std::size_t, std::string> flag_unanswered;  // site -> why the model left a pair of it unanswered (notes)
  z3::expr flag_orders(std::size_t k, const Access& ca, const ThreadEncoding& C, const Access& pb, const ThreadEncoding& P);
  std::string assume_example(int object, const std::string& index);
  // ---- flags asked of the model (check_flag_model.cpp, flag_model.hpp)
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::optional<std::vector<PathShape>>> flag_paths;  // (from, to) -> path_shapes
  const std::optional<std::vector<PathShape>>& flag_path_shapes(std::uint32_t from, std::uint32_t to);
  // A question for the model (flag_model.hpp): does W read by R order b before a, per place of the reader.
  struct OrderQuestion {
    std::uint32_t write = 0, read = 0, b = 0, a = 0;  // instructions: W, R, b, a
    bool b_writes = true, a_writes = false;
    bool b_is_write = false;      // b is W (a ticket's increment)
    std::string acquire_prefix;   // a cell put right after R on every path (a suggestion the notes make)
  };
  std::array<std::optional<bool>, 3> model_orders(const OrderQuestion& q, std::string& why);
  // Kept per (site, consumer access, producer access) for the pair search.
  const std::array<std::optional<bool>, 3>& model_flag_orders(std::size_t k, const Access& ca, const Access& pb);
  std::map<std::tuple<std::size_t, std::uint32_t, std::uint32_t>, std::array<std::optional<bool>, 3>> flag_model_answers;

  // ---- tickets (check_tickets.cpp)
  z3::expr grid_ctas{c};
  z3::expr counter_initial(const AtomicUpdate& u);
  z3::expr increments_before(const AtomicUpdate& u);
  z3::expr read_last(const AtomicUpdate& u);
  std::vector<const AtomicUpdate*> ticket_updates(const ThreadEncoding& t, std::uint32_t atom);
  std::vector<TicketSite> ticket_sites, ticket_initial_unknown;  // accepted; counting only from a known initial content
  // Per accepted site, computed once: both threads' runs of T (ticket_updates) and the instructions after T.
  struct TicketRuns {
    std::vector<const AtomicUpdate*> runs1, runs2;
    std::vector<bool> after;
  };
  std::vector<TicketRuns> ticket_runs;
  std::vector<std::string> ticket_rejected;  // why a candidate orders nothing (notes)
  bool ticket_useful(const TicketSite& site, const Access& counter);
  // Whether, when consumer access `consumer` runs, T1's run u of site k (its own or a forwarded one) read the last
  // count; asked of T1 for both threads, keyed by the forwarding instruction.
  std::map<std::tuple<std::size_t, std::uint32_t, std::optional<std::uint32_t>>, bool> ticket_reads;
  std::vector<bool> ticket_used, ticket_needs_initial, ticket_missing_acquire, ticket_orders_increments;
  bool ticket_read(std::size_t k, std::uint32_t consumer, const AtomicUpdate& u);
  // ---- tickets asked of the model (check_ticket_model.cpp): per place, whether T orders pb before `after` (the
  // consumer access, or the store that broadcasts the last CTA's verdict), with a cell put after T when asked.
  const std::array<std::optional<bool>, 3>& model_ticket_orders(std::uint32_t atom, const Access& pb, std::uint32_t after, bool a_writes,
                                                              const std::string& acquire_prefix = "");
  std::map<std::tuple<std::uint32_t, std::uint32_t, bool, std::uint32_t, bool, std::string>, std::array<std::optional<bool>, 3>> ticket_model_answers;
  std::map<std::uint32_t, std::string> ticket_unanswered;  // T -> why the model left a question of it unanswered (notes)
  bool ticket_model_orders_somewhere(std::uint32_t atom, const Access& pb, std::uint32_t after, bool a_writes, bool with_fence);
  z3::expr ticket_orders(std::size_t k, const Access& ca, const ThreadEncoding& C, const Access& pb, const ThreadEncoding& P);

  // ---- the pair search (check_search.cpp)
  enum class PairResult { done, unknown, stop };
  // One pair of accesses under check: the query built for it, and what asking it found. (The terms are declared in
  // the order the pair check made them, so that they are freed in the reverse order: Z3 reuses a freed term's id
  // for the next term it makes, and the ids steer its search, hence the witnesses it finds.)
  struct PairQuery {
    PairQuery(const Access& a, const Access& b, const std::vector<Position>& pa, const std::vector<Position>& pb,
              Where wa, Where wb, RaceKey key, z3::context& c);
    const Access &a, &b;
    const std::vector<Position> &pa, &pb;
    const bool a_sh, b_sh;  // in shared memory
    Where wa, wb;
    const RaceKey key;
    std::optional<z3::expr> plain_switch;  // both_overlap's
    z3::expr q;
    z3::expr concurrent, within_loops;     // iterations_together over the positions, and those within barrier loops
    std::optional<z3::model> model;
    z3::expr facts;                        // read consistency's (load_facts)
    bool across_loop = false, lane_unspecified = false, loads_unsettled = false, ballots_unsettled = false,
         needs_atomics_between = false, possible = false, in_first_iteration = false;
    std::set<std::string> unmodelled;  // unmodelled_values
  };
  PairResult check_pair(std::size_t i, std::size_t j, bool final_pass);
  bool build_pair_query(PairQuery& p);
  std::optional<PairResult> ask_pair(PairQuery& p, bool final_pass);
  std::optional<PairResult> settle_loads_and_ballots(PairQuery& p, bool final_pass);
  void settle_atomics_between(PairQuery& p);
  std::optional<PairResult> settle_first_iteration(PairQuery& p, bool final_pass);
  std::set<RaceKey> reported;
  bool budget = false, timed_out = false, stop = false;
  QueryBudget quick;  // the first pass's budget per query
  bool two_passes = false;

  // ---- a thread's own copies (check_own_copies.cpp)
  std::optional<z3::solver> one_thread;
  // Per instruction: a cp.async.mbarrier.arrive is reachable from it; it is reachable from an mbarrier wait that one
  // is reachable from (empty until the own-copy check computes them).
  std::vector<bool> reaches_copy_arrive, after_copy_arrive_wait;
  bool mbarrier_may_complete(std::uint32_t copy, std::uint32_t access);

  // ---- witnesses and reports (check_report.cpp)
  AccessReport describe(const Access& a, const z3::model& mdl);
  std::vector<std::tuple<std::string, std::uint32_t, z3::expr>> arg_symbols(const z3::model& mdl);
  z3::expr small_witness(const z3::model& mdl, bool nonzero);
  z3::expr replayable_offsets(const Access& a, const Access& b);
  z3::expr within_objects(const Access& a, const Access& b);
  std::set<std::string> unmodelled_values(const Access& a, const Access& b);
  std::string outside_object(const Access& a, const AccessReport& r);
  Witness witness_of(const z3::model& mdl);
  void choose_witness(PairQuery& p);
  RaceReport explain_race(const PairQuery& p);
};

}  // namespace ptxcheck::race
