// barrier.cluster cells as barrier events and their phases (cluster_barrier_cells.hpp).
#include "litmus/build/cluster_barrier_cells.hpp"

#include "litmus/build/cell_text.hpp"

namespace ptxcheck::litmus {

std::optional<ClusterBarrierCell> decode_cluster_barrier_cell(const Instr& in, std::string& why) {
  auto words = split_dots(in.opcode);
  words.erase(words.begin());
  ptx::ir::Instruction ins;
  ins.op = ptx::ir::Opcode::barrier_;
  for (const auto& w : ptx::ir::decode_qualifiers(ins.op, words, ins.q))
    return why = "unsupported qualifier '." + w + "' in '" + in.opcode + "'", std::nullopt;
  const bool arrive = ins.q.has(ptx::ir::Flag::arrive), wait = ins.q.has(ptx::ir::Flag::wait);
  const auto order = ptx::ir::cluster_barrier_order(ins);
  if (!order || arrive == wait) return why = "'" + in.opcode + "' is neither barrier.cluster.arrive nor barrier.cluster.wait (ISA 9.7.13.3)", std::nullopt;
  // 9.7.13.3: barrier.cluster.arrive{.sem}, .sem = {.release, .relaxed}; barrier.cluster.wait{.acquire}.
  using MS = ptx::ir::MemorySemantics;
  if (arrive ? order->sem != MS::release && order->sem != MS::relaxed : order->sem != MS::acquire)
    return why = "unsupported qualifiers in '" + in.opcode + "' (ISA 9.7.13.3)", std::nullopt;
  if (!in.operands.empty()) return why = "'" + in.opcode + "' takes no operands", std::nullopt;
  return ClusterBarrierCell{arrive, *order};
}

TEvent cluster_barrier_event(const Instr& in, const ClusterBarrierCell& c) {
  TEvent e;
  e.kind = EvKind::barrier;
  e.sem = mm::sem_of(c.order.sem);
  e.scope = mm::scope_of(c.order.scope);
  e.bar_arrive = c.arrive;
  e.bar_cluster = true;
  e.text = in.opcode;
  return e;
}

namespace {
// A thread's cluster barrier events in program order: its arrives and its waits (graph event numbers).
struct ClusterUse {
  std::vector<int> arrives, waits;
  bool exited = true;           // the trace runs to the thread's end
  bool stuck_at_wait = false;   // the trace ends waiting at its last wait (liveness)
};
}  // namespace

std::optional<mm::Rel> cluster_barrier_syncbar(const Program& p, const std::vector<const Trace*>& traces,
                                               const std::vector<int>& first, int n) {
  std::vector<mm::ThreadPlace> places;
  for (const auto& th : p.threads) places.push_back(mm::ThreadPlace{th.cta, th.cluster, th.gpu});
  std::vector<ClusterUse> use(traces.size());
  for (std::size_t ti = 0; ti < traces.size(); ++ti) {
    const auto& events = traces[ti]->events;
    for (std::size_t i = 0; i < events.size(); ++i)
      if (events[i].kind == EvKind::barrier && events[i].bar_cluster)
        (events[i].bar_arrive ? use[ti].arrives : use[ti].waits).push_back(first[ti] + static_cast<int>(i));
    use[ti].exited = traces[ti]->end == Trace::End::done;
    use[ti].stuck_at_wait = traces[ti]->end == Trace::End::barrier && !events.empty() && events.back().bar_cluster;
  }
  mm::Rel r(n);
  const int threads = static_cast<int>(traces.size());
  for (int ti = 0; ti < threads; ++ti)
    for (std::size_t k = 0; k < use[ti].waits.size(); ++k) {
      const bool stuck = use[ti].stuck_at_wait && k + 1 == use[ti].waits.size();
      bool held = false;  // a thread of the cluster that is stuck before its arrive of phase k
      for (int tj = 0; tj < threads; ++tj) {
        if (!mm::scope_includes(Scope::cluster, places, ti, tj)) continue;
        if (use[tj].arrives.size() > k) {
          if (!stuck) r.add(use[tj].arrives[k], use[ti].waits[k]);
        } else if (!use[tj].exited) {
          held = true;
        }
      }
      if (held != stuck) return std::nullopt;  // a completed wait some thread holds back, or a stuck one none does
    }
  return r;
}

}  // namespace ptxcheck::litmus
