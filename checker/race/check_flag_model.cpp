// A flag's ordering asked of the memory model (flag_model.hpp), per place of the consumer: the questions, built from
// the kernel's own instructions, and their answers, kept per pair.
#include "checker/race/kernel_check.hpp"

#include <algorithm>
#include <utility>

namespace ptxcheck::race {

const std::optional<std::vector<PathShape>>& KernelCheck::flag_path_shapes(std::uint32_t from, std::uint32_t to) {
  auto it = flag_paths.find({from, to});
  if (it == flag_paths.end()) it = flag_paths.emplace(std::make_pair(from, to), path_shapes(f, prep.cfg, from, to)).first;
  return it->second;
}

// Per place of the consumer (kPlaces), whether the model orders b before a through W read by R (OrderQuestion):
// true when no test (one per pair of minimal path shapes) races, false when one does, nullopt when one could not be
// answered and none races. The structure (b precedes W, a follows R) is the caller's.
std::array<std::optional<bool>, 3> KernelCheck::model_orders(const OrderQuestion& q, std::string& why) {
  std::array<std::optional<bool>, 3> out;
  static const std::optional<std::vector<PathShape>> kNoPath = std::vector<PathShape>{PathShape{}};  // b is W
  const auto& release = q.b_is_write ? kNoPath : flag_path_shapes(q.b, q.write);
  const auto& acquire = flag_path_shapes(q.read, q.a);
  // No path from b to W or from R to a: the two never run in one thread, and nothing is ordered.
  if ((release && release->empty()) || (acquire && acquire->empty())) {
    why = "no path from b to W or from R to a";
    return {false, false, false};
  }
  const auto write = flag_cell(f.body[q.write], true), read = flag_cell(f.body[q.read], false);
  if (!write || !read || !release || !acquire) {
    why = !write || !read ? "the flag's write or read is not one litmus cell" : "too many path shapes";
    return out;
  }
  std::vector<PathShape> acquires = *acquire;
  for (PathShape& a : acquires)
    if (!q.acquire_prefix.empty() && (a.empty() || a.front() != q.acquire_prefix)) a.insert(a.begin(), q.acquire_prefix);
  const std::vector<ReleaseSide> sides{{*write, *release}};
  for (std::size_t n = 0; n < kPlaces.size(); ++n)
    out[n] = ordered_in_place(MessageQuestion{q.b_writes, q.a_writes, *write, *read, {}, {}, kPlaces[n], q.b_is_write}, sides, acquires, {}, why);
  return out;
}

const std::array<std::optional<bool>, 3>& KernelCheck::model_flag_orders(std::size_t k, const Access& ca, const Access& pb) {
  const auto key = std::make_tuple(k, ca.instr, pb.instr);
  auto it = flag_model_answers.find(key);
  if (it == flag_model_answers.end()) {
    const FlagSite& site = flag_sites[k];
    std::string why;
    it = flag_model_answers.emplace(key, model_orders(OrderQuestion{site.write, site.read, pb.instr, ca.instr, pb.write, ca.write, false, {}}, why)).first;
    const auto& answers = it->second;
    if (std::any_of(answers.begin(), answers.end(), [](const auto& a) { return !a.has_value(); }))
      flag_unanswered.try_emplace(k, why);
  }
  return it->second;
}

}  // namespace ptxcheck::race
