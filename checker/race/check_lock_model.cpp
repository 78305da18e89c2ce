// A spin lock's ordering asked of the memory model, issue 33. A lock is a flag's litmus shape (flag_model.hpp): the producer is the
// previous holder (b in its critical section, its path to a release write W of `unlocked` to the lock), the consumer
// the next holder (its lock RMW R reading W's value, its path on from R along the branch taken when the lock was
// taken, then a). Whether b is ordered before a in that test, directly and through each holder that may come in
// between, is the model's (proofs/models/ptx-race.cat); which places the takers may be in stays locks.hpp's structure.
#include "checker/race/kernel_check.hpp"

#include <algorithm>

namespace ptxcheck::race {
namespace {
using ptx::ir::Nearness;
}  // namespace

// The places another taker of site k's lock may be in: the CTA only for a shared-memory lock (one per CTA) and a
// per-CTA global one (cta_private), every place for a global lock (locks.hpp: every scope must include them all).
std::array<bool, 3> KernelCheck::lock_places(std::size_t k) const {
  const LockSite& site = locks.sites[k];
  if (site.space == Space::shared || site.cta_private) return {true, false, false};
  return {true, true, true};
}

// Per place of the next holder, whether the model orders pb (in a critical section of site kb, the previous holder)
// before ca (in one of site ka, the next holder): true when no test races (one per release write W of kb reachable
// from pb and pair of minimal path shapes), false when one does, nullopt when one could not be answered and none
// races. Places no taker may be in (lock_places) are left nullopt and asked nothing.
std::array<std::optional<bool>, 3> KernelCheck::model_lock_orders(std::size_t ka, const Access& ca, std::size_t kb, const Access& pb,
                                                                  std::string& why) {
  std::array<std::optional<bool>, 3> out;
  const LockSite &next = locks.sites[ka], &previous = locks.sites[kb];
  const auto read = flag_cell(f.body[next.rmw], false);
  // R's path: on along the taken edge, and no path through one of its own releases (a is held on every path).
  const auto acquire = path_shapes(f, prep.cfg, next.rmw, ca.instr, 8, PathBounds{std::make_pair(next.branch, next.acquired_next), next.releases});
  std::vector<ReleaseSide> releases;
  bool unwritable = !read, too_many = !acquire;
  for (std::uint32_t w : previous.releases) {
    std::vector<std::uint32_t> others;
    for (std::uint32_t x : previous.releases)
      if (x != w) others.push_back(x);
    const auto shapes = path_shapes(f, prep.cfg, pb.instr, w, 8, PathBounds{std::nullopt, others});
    const auto write = flag_cell(f.body[w], true);
    if (!shapes) too_many = true;
    else if (!shapes->empty() && !write) unwritable = true;
    else if (!shapes->empty()) releases.push_back({*write, *shapes});
  }
  if (unwritable || too_many) {
    why = unwritable ? "the lock's RMW or a release write is not one litmus cell" : "too many path shapes";
    return out;
  }
  if (releases.empty() || acquire->empty()) {
    why = "no path from b to a release or from the lock's RMW to a";
    return {false, false, false};
  }
  std::vector<MessageQuestion::Middle> middles;
  if (!lock_middles(next, middles)) {
    why = "a holder's path from its lock RMW to a release has too many shapes, or a release is not one litmus cell";
    return out;
  }
  const auto places = lock_places(ka);
  // Directly after b's holder, then through each other holder's path (the chain, locks.hpp).
  for (std::size_t n = 0; n < kPlaces.size(); ++n)
    if (places[n]) out[n] = ordered_in_place(MessageQuestion{pb.write, ca.write, {}, *read, {}, {}, kPlaces[n]}, releases, *acquire, middles, why);
  return out;
}

// Every holder that may come between two others of the lock `next` belongs to: per site of the lock's object, per
// release write, per minimal shape of the path from its RMW along the taken edge to that write (each distinct test
// column once), in the farthest place a taker may be in: threads farther apart share fewer scopes (8.5), so they are
// in fewer morally strong and synchronizes relations, and a race in a nearer place is one there too. False when a
// path has too many shapes or a release is not one litmus cell. Kept per lock object.
bool KernelCheck::lock_middles(const LockSite& next, std::vector<MessageQuestion::Middle>& out) {
  if (auto it = lock_middle_cache.find(next.object); it != lock_middle_cache.end()) {
    if (it->second) out = *it->second;
    return it->second.has_value();
  }
  std::optional<std::vector<MessageQuestion::Middle>> found = std::vector<MessageQuestion::Middle>{};
  std::set<std::pair<PathShape, std::string>> seen;
  for (std::size_t k = 0; k < locks.sites.size() && found; ++k) {
    const LockSite& site = locks.sites[k];
    if (site.object != next.object) continue;
    const auto places = lock_places(k);
    const Nearness farthest = places[2] ? kPlaces[2] : places[1] ? kPlaces[1] : kPlaces[0];
    for (std::uint32_t w : site.releases) {
      std::vector<std::uint32_t> others;
      for (std::uint32_t x : site.releases)
        if (x != w) others.push_back(x);
      const auto shapes = path_shapes(f, prep.cfg, site.rmw, w, 8, PathBounds{std::make_pair(site.branch, site.acquired_next), others});
      const auto write = flag_cell(f.body[w], true);
      if (!shapes || (!shapes->empty() && !write)) {
        found = std::nullopt;
        break;
      }
      for (const PathShape& s : *shapes)
        if (seen.insert({s, *write}).second) found->push_back({s, *write, farthest});
    }
  }
  lock_middle_cache.emplace(next.object, found);
  if (found) out = *found;
  return found.has_value();
}

bool KernelCheck::lock_orders(std::size_t ka, const Access& ca, std::size_t kb, const Access& pb) {
  const auto key = std::make_tuple(ka, ca.instr, ca.write, kb, pb.instr, pb.write);
  if (auto it = lock_answers.find(key); it != lock_answers.end()) return it->second;
  std::string why;
  const auto model = model_lock_orders(ka, ca, kb, pb, why);
  const auto places = lock_places(ka);
  bool ordered = true;
  for (std::size_t n = 0; n < places.size(); ++n) {
    if (!places[n]) continue;
    if (!model[n]) lock_unanswered.try_emplace(ka, why);
    ordered = ordered && model[n] == true;
  }
  return lock_answers.emplace(key, ordered).first->second;
}

// What the notes count: an access the lock's structure holds whose own critical section, as a write, the model
// orders with another holder's (a read-read pair orders trivially, so the write stands for either).
bool KernelCheck::lock_protects(std::size_t k, const Access& x) {
  Access w = x;
  w.write = true;
  return lock_orders(k, w, k, w);
}

}  // namespace ptxcheck::race
