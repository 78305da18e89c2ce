// Barrier phases over every order of arrival (barrier_phases.hpp): a depth-first walk over the states of the
// barriers (each thread's next arrival, who waits, each barrier's open phase, the phases completed so far), each
// state visited once.
#include "litmus/enumerate/barrier_phases.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ptxcheck::litmus {
namespace {
constexpr std::size_t kMaxStates = 1'000'000;

struct State {
  std::vector<std::size_t> next;                        // per thread: its next arrival
  std::vector<char> waiting;                            // per thread: waits at a phase not yet complete
  std::map<BarrierKey, std::vector<int>> open;          // per barrier: the threads arrived in its open phase
  std::map<BarrierKey, std::vector<int>> open_events;   // ... and their events
  BarrierPhasing done;                                  // completed phases, sorted
};

class Explorer {
 public:
  Explorer(const std::vector<std::vector<BarrierArrival>>& per_thread, const std::map<BarrierKey, std::set<int>>& users)
      : arrivals_(per_thread), users_(users) {
    for (std::size_t t = 0; t < per_thread.size(); ++t)
      for (auto& a : per_thread[t]) {
        users_[a.key].insert(static_cast<int>(t));
        if (a.count >= 0) count_[a.key] = a.count;
      }
  }

  std::set<BarrierPhasing> run() {
    State s;
    s.next.assign(arrivals_.size(), 0);
    s.waiting.assign(arrivals_.size(), 0);
    walk(s);
    return std::move(found_);
  }

 private:
  const std::vector<std::vector<BarrierArrival>>& arrivals_;
  std::map<BarrierKey, std::set<int>> users_;
  std::map<BarrierKey, int> count_;
  std::set<std::vector<long long>> seen_;
  std::set<BarrierPhasing> found_;

  bool exited(const State& s, int t) const { return s.next[t] == arrivals_[t].size() && !s.waiting[t]; }

  // ISA 9.7.13.1: a barrier with a count completes when that many arrivals have been made; without one (this
  // dialect: the threads that use it), when each of them has arrived or exited ("non-exited threads").
  bool completes(const State& s, const BarrierKey& k) const {
    auto& arrived = s.open.at(k);
    auto c = count_.find(k);
    if (c != count_.end()) return c->second > 0 && static_cast<int>(arrived.size()) >= c->second;
    for (int t : users_.at(k))
      if (std::find(arrived.begin(), arrived.end(), t) == arrived.end() && !exited(s, t)) return false;
    return true;
  }

  // Completes every phase that can complete; a completion restarts its waiters, which may let a barrier
  // without a count complete in turn (a released thread with nothing left to arrive at exits).
  static void settle(State& s, const Explorer& x) {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = s.open.begin(); it != s.open.end(); ++it) {
        if (!x.completes(s, it->first)) continue;
        for (int t : it->second) s.waiting[t] = 0;
        auto events = s.open_events.at(it->first);
        std::sort(events.begin(), events.end());
        s.done.insert(std::upper_bound(s.done.begin(), s.done.end(), events), events);
        s.open_events.erase(it->first);
        s.open.erase(it);
        changed = true;
        break;
      }
    }
  }

  std::vector<long long> key_of(const State& s) const {
    std::vector<long long> k(s.next.begin(), s.next.end());
    k.insert(k.end(), s.waiting.begin(), s.waiting.end());
    for (auto& [b, ev] : s.open_events) {
      k.push_back(-1);
      k.insert(k.end(), ev.begin(), ev.end());
    }
    for (auto& ph : s.done) {
      k.push_back(-2);
      k.insert(k.end(), ph.begin(), ph.end());
    }
    return k;
  }

  void walk(const State& s) {
    if (seen_.size() >= kMaxStates)
      throw BarrierPhaseLimit(fmt::format("barrier phases: more than {} states of the orders of arrival", kMaxStates));
    if (!seen_.insert(key_of(s)).second) return;
    bool moved = false;
    for (std::size_t t = 0; t < arrivals_.size(); ++t) {
      if (s.waiting[t] || s.next[t] == arrivals_[t].size()) continue;
      moved = true;
      State n = s;
      const BarrierArrival& a = arrivals_[t][n.next[t]++];
      n.open[a.key].push_back(static_cast<int>(t));
      n.open_events[a.key].push_back(a.event);
      n.waiting[t] = a.waits;
      settle(n, *this);
      walk(n);
    }
    // Nobody can move: an execution if exactly the threads meant to wait forever wait (open phases of bar.arrive
    // alone synchronise nothing).
    if (moved) return;
    for (std::size_t t = 0; t < arrivals_.size(); ++t) {
      bool forever = !arrivals_[t].empty() && arrivals_[t].back().never_completes;
      if (static_cast<bool>(s.waiting[t]) != forever || (forever && s.next[t] != arrivals_[t].size())) return;
    }
    found_.insert(s.done);
  }
};
}  // namespace

std::set<BarrierPhasing> barrier_phasings(const std::vector<std::vector<BarrierArrival>>& per_thread,
                                          const std::map<BarrierKey, std::set<int>>& users) {
  return Explorer(per_thread, users).run();
}

}  // namespace ptxcheck::litmus
