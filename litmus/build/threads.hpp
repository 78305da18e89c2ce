// Thread code -> traces: each thread of a litmus test is run with the instruction semantics of semantics/ops
// over the symbolic domain, once per choice of values returned by its reads (from a candidate value set),
// giving per-thread traces of memory events with dependencies. Loops are unrolled to a bound. A read whose
// value no later instruction uses is not branched on: it stays free in one compact trace (Trace::free).
#pragma once

#include "litmus/parse/ast.hpp"
#include "memmodel/graph/base_graph.hpp"
#include "semantics/support/diagnostic.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ptxcheck::litmus {

// The graph's own vocabulary (memmodel/graph/base_graph.hpp), shared with the dynamic race engine's recorder.
using EvKind = mm::EvKind;
using Sem = mm::Sem;
using Scope = mm::Scope;
using Proxy = mm::Proxy;

struct TEvent {
  EvKind kind = EvKind::read;
  Sem sem = Sem::weak;
  Scope scope = Scope::none;
  Proxy proxy = Proxy::generic;
  bool rmw = false;         // part of an RMW pair (read immediately followed by its write)
  bool alias_fence = false; // fence.proxy.alias
  bool proxy_fence = false; // any fence.proxy.*
  int vloc = -1, loc = -1;  // virtual and physical location ids
  std::int64_t value = 0;   // value read or written
  int bar_id = 0;
  int bar_instance = 0;     // the dialect's second operand: barriers sync only with the same (id, instance)
  int bar_count = -1;       // third operand; -1: every thread of the CTA that uses this (id, instance)
  bool bar_arrive = false;  // bar.arrive: signals its arrival without waiting (ISA 9.7.13.1)
  bool bar_cluster = false; // barrier.cluster.arrive / .wait (cluster_barrier_cells.hpp; bar_id unused)
  // An asynchronous operation's events (bulk_group copies, litmus/build/async_proxy.hpp): op >= 0 puts the event in
  // operation `op` of its trace, a thread of its own at the issuer's place with a program order of its own (8.9.1.1:
  // "not part of the program order for that thread"); async_edge marks a barrier event that is an end of a split-
  // barrier edge (mm::async_edge_from / async_edge_to), synchronizing with the events of this trace listed in
  // sync_from (syncbar) and with no CTA barrier.
  int op = -1;
  bool async_edge = false;
  std::vector<int> sync_from;
  std::set<int> addr, data, ctrl;  // indices of earlier reads of the same trace
  std::string text;         // the instruction, for labels
};

// A read of a compact trace that returns any value of its set independently of the trace's other reads: no
// later instruction reads its register, so only the event's value and the final registers that still hold it
// differ between the traces it stands for. The event's own `value` is then the set's first value.
struct FreeRead {
  int event = -1;                      // index into Trace::events
  std::vector<std::int64_t> values;    // ascending, at least two
  std::vector<std::string> regs;       // final registers holding the value read
};

struct Trace {
  std::vector<TEvent> events;
  // Non-empty: a compact trace, standing for one trace per combination of these reads' values (expand_free_reads).
  std::vector<FreeRead> free;
  std::map<std::string, std::int64_t> regs;  // final register values
  bool cut = false;                           // the unroll bound was reached: trace incomplete, dropped
  // How the thread ends: done (it terminates), or, for the liveness check only (thread_traces' stuck = true),
  // a prefix after which it may never progress: `spin` (a spin-loop iteration of reads and RMW pairs only,
  // whose events are spin_events, left the loop-head state unchanged: it repeats forever if its reads keep
  // their values) or `barrier` (the last event is a bar.sync / barrier.sync that may never complete).
  enum class End { done, spin, barrier } end = End::done;
  std::vector<int> spin_events;              // indices into events: the events of the repeating iteration
  int stuck_pc = -1;                          // spin: the loop head's instruction index; barrier: the barrier's
  // Non-empty: the last event is the read of an operation whose result the spec leaves undefined (or does not
  // state) for the value read, named with the section; the thread stops there and regs[kUndefinedRegister] is 1.
  // A read value no consistent execution gives is harmless; run_test answers unknown if one does.
  std::string undefined;
};
// The final register an undefined trace sets (no litmus register has this name).
inline constexpr const char* kUndefinedRegister = "undefined!";

// The static view of a test: locations (virtual names, physical ids), threads' programs.
struct Program {
  std::vector<std::string> vnames;           // virtual location names
  std::vector<int> phys_of;                  // vloc -> physical loc
  std::vector<int> va_of;                    // vloc -> generic virtual address (non-generic aliases map to their target's)
  std::vector<std::string> pnames;           // physical location names
  std::vector<std::int64_t> init;            // physical loc -> initial value
  std::map<std::string, int> vloc_of;
  struct Thread {
    int id = 0;
    int cta = 0, cluster = -1, gpu = 0;
    std::vector<Instr> code;
    std::map<std::string, int> labels;       // label -> index into code
  };
  std::vector<Thread> threads;
  // Per barrier (the CTA's lowest thread index, id, instance): the threads that arrive there in some trace. A
  // barrier without a count waits for these (this dialect's reading of ISA 9.7.13.1's "all threads in the
  // CTA"); filled once the traces are known (note_barrier_users, litmus/enumerate/graph_builder.hpp).
  std::map<std::tuple<int, int, int>, std::set<int>> barrier_users;
  // Per mbarrier object (physical location): the expected arrival count of its mbarrier.init (mbarrier_cells.hpp).
  std::map<int, std::int64_t> mbarrier_expected;
  // Whether the completion of a bulk copy's reads, which cp.async.bulk.wait_group.read waits for, is followed by a
  // generic-async proxy fence: a question chapter 8 leaves open (memmodel/models/NOTES.md, "Async proxy"); run_test
  // answers under both readings and says unknown where they differ.
  bool fence_after_read_completion = false;
};

// Builds the static view; unsupported constructs are reported (by name, with location) in diags.
bool build_program(const Test& t, Program& p, std::vector<Diagnostic>& diags);

// All traces of thread `ti` when each read of physical loc L returns a value from values[L].
// Returns false (with a diagnostic) on an unsupported instruction. stuck = true also yields the stuck prefixes
// (Trace::End::spin / barrier) that the liveness check needs. compact = true (ignored with stuck, and in threads
// with loops) leaves reads free whose value no later instruction uses (FreeRead).
bool thread_traces(const Test& t, const Program& p, int ti, const std::vector<std::set<std::int64_t>>& values,
                   int unroll, std::vector<Trace>& out, std::vector<Diagnostic>& diags, bool stuck = false,
                   bool compact = false);

// The traces a compact trace stands for, appended to `out` (the trace itself when it has no free reads).
void expand_free_reads(const Trace& tr, std::vector<Trace>& out);
// The number of traces expand_free_reads gives (saturating at max).
std::size_t expanded_count(const Trace& tr, std::size_t max);
// The free read whose value is event `event`'s, or whose value final register `reg` holds; -1 when none.
int free_read_of_event(const Trace& tr, int event);
int free_read_of_register(const Trace& tr, const std::string& reg);

// Whether liveness is a question for this test: some thread has a backward branch (a loop) or a bar.sync /
// barrier.sync that waits (ISA 9.7.13.1; bar.arrive does not wait), or a barrier.cluster.wait (9.7.13.3).
bool has_blocking_code(const Program& p);

}  // namespace ptxcheck::litmus
