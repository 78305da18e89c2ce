// A flag's ordering asked of the memory model (flag_model.hpp) beside the C++ rule (flags.hpp release_scope /
// acquire_scope), per place of the consumer: the answers, and the record tests read (issue 33: run the model beside
// the current rule and record every disagreement before switching).
#include "checker/race/kernel_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

namespace ptxcheck::race {
namespace {
using ptx::ir::Nearness;
constexpr std::array<Nearness, 3> kNearness = {Nearness::same_cta, Nearness::same_cluster, Nearness::same_gpu};

struct Record {
  std::atomic<bool> on{false};
  std::mutex mutex;
  std::vector<FlagComparison> all;
};
Record& record() {
  static Record r;
  return r;
}

}  // namespace

void record_flag_comparisons(bool on) { record().on = on; }
bool recording_flag_comparisons() { return record().on; }
void add_flag_comparison(FlagComparison c) {
  std::lock_guard<std::mutex> lock(record().mutex);
  record().all.push_back(std::move(c));
}
std::vector<FlagComparison> take_flag_comparisons() {
  std::lock_guard<std::mutex> lock(record().mutex);
  return std::exchange(record().all, {});
}
const char* nearness_name(Nearness n) {
  return n == Nearness::same_cta ? "same CTA" : n == Nearness::same_cluster ? "same cluster" : "other cluster";
}

const std::optional<std::vector<PathShape>>& KernelCheck::flag_path_shapes(std::uint32_t from, std::uint32_t to) {
  auto it = flag_paths.find({from, to});
  if (it == flag_paths.end()) it = flag_paths.emplace(std::make_pair(from, to), path_shapes(f, prep.cfg, from, to)).first;
  return it->second;
}

// Per place of the consumer (kNearness), whether the model orders b before a through W read by R (OrderQuestion):
// true when no test (one per pair of minimal path shapes) races, false when one does, nullopt when one could not be
// answered and none races. The structure (b precedes W, a follows R) is the caller's.
std::array<std::optional<bool>, 3> KernelCheck::model_orders(const OrderQuestion& q, std::string& question, std::string& why) {
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
  const std::string before_write = q.b_is_write ? "" : fmt::format("{} [data]; {}; ", q.b_writes ? "st.weak" : "ld.weak", shapes_text(*release));
  question = fmt::format("{}{} | {}; {}; {} [{}]", before_write, *write, *read, shapes_text(acquires), q.a_writes ? "st.weak" : "ld.weak",
                         q.b_is_write ? "flag" : "data");
  for (std::size_t n = 0; n < kNearness.size(); ++n) {
    std::optional<bool> ordered = true;
    for (const PathShape& r : *release)
      for (const PathShape& a : acquires) {
        if (ordered == false) break;
        std::string unanswered;
        const auto races = message_races(MessageQuestion{q.b_writes, q.a_writes, *write, *read, r, a, kNearness[n], q.b_is_write}, unanswered);
        if (!races) ordered = std::nullopt, why = unanswered;
        else if (*races) ordered = false;
      }
    out[n] = ordered;
  }
  return out;
}

std::array<std::optional<bool>, 3> KernelCheck::model_flag_orders(std::size_t k, const Access& ca, const Access& pb, std::string& question,
                                                                  std::string& why) {
  const FlagSite& site = flag_sites[k];
  return model_orders(OrderQuestion{site.write, site.read, pb.instr, ca.instr, pb.write, ca.write, false, {}}, question, why);
}

const std::array<std::optional<bool>, 3>& KernelCheck::model_flag_orders(std::size_t k, const Access& ca, const Access& pb) {
  const auto key = std::make_tuple(k, ca.instr, pb.instr);
  auto it = flag_model_answers.find(key);
  if (it == flag_model_answers.end()) {
    std::string question, why;
    it = flag_model_answers.emplace(key, model_flag_orders(k, ca, pb, question, why)).first;
    const auto& answers = it->second;
    if (std::any_of(answers.begin(), answers.end(), [](const auto& a) { return !a.has_value(); }))
      flag_unanswered.try_emplace(k, why);
  }
  return it->second;
}

// Records, once per (site, consumer access, producer access), both answers per place.
void KernelCheck::compare_flag_orders(std::size_t k, const Access& ca, const Access& pb, const std::array<bool, 3>& cxx) {
  if (!recording_flag_comparisons() || !flag_compared.insert({k, ca.instr, pb.instr}).second) return;
  const FlagSite& site = flag_sites[k];
  if (!precedes_write(prep.cfg, site, pb.instr) || !follows_read(prep.cfg, site, ca.instr)) return;
  // (No path from b to W, or from R to a: the two never run in one thread, and the model is asked nothing.)
  const auto &release = flag_path_shapes(pb.instr, site.write), &acquire = flag_path_shapes(site.read, ca.instr);
  if ((release && release->empty()) || (acquire && acquire->empty())) return;
  std::string question, why;
  const auto model = model_flag_orders(k, ca, pb, question, why);
  const std::string site_text = where_of(m, f.body[site.write]).text() + " -> " + where_of(m, f.body[site.read]).text();
  for (std::size_t n = 0; n < kNearness.size(); ++n)
    add_flag_comparison(FlagComparison{kernel.name, site_text, where_of(m, f.body[pb.instr]).text(), where_of(m, f.body[ca.instr]).text(),
                                       kNearness[n], cxx[n], model[n], question, model[n] ? "" : why});
}

// Every pair of accesses of the same buffer (one of them a write) that a flag site's structure allows, b before W
// and a after R, not only those the pair search comes to ask about.
void KernelCheck::compare_every_flag_pair() {
  for (std::size_t k = 0; k < flag_sites.size(); ++k)
    for (const Access& b : T1.accesses)
      for (const Access& a : T1.accesses)
        if ((a.write || b.write) && a.object == b.object && a.object >= 0 && !a.async && !b.async)
          compare_flag_orders(k, a, b, cxx_flag_orders(k, a, b));
}

}  // namespace ptxcheck::race
