// Stage 1 of a kernel's pair check (kernel_check.hpp), prepare: the kernel as the engine checks it, the notes on
// what it rewrote, and the static analyses both threads share.
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"
#include "semantics/interp/launch.hpp"

#include <algorithm>

namespace ptxcheck::race {
using ptx::ir::Opcode;

RewrittenKernel::RewrittenKernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, KernelResult& res)
    : inl(inline_calls(m, kernel, InlineOptions{o.assume_pure_externs})) {
  const Promoted promoted = promote_private(inl.function);
  // Barrier forms that are CTA barriers (barrier_forms.hpp), named in the notes.
  const auto where_in_inlined = [&](std::uint32_t i) { return where_of(m, inl.function.body[i]).text(); };
  const auto note_places = [&](std::string (*note)(const std::string&), const std::vector<std::string>& places) {
    std::string at;
    for (const auto& w : places) at += (at.empty() ? "" : ", ") + w;
    if (!places.empty()) res.notes.push_back(note(at));
  };
  note_places(note::full_count_barriers, rewrite_full_count_barriers(inl.function, o.block, o.x_only, where_in_inlined));
  note_places(note::cluster_barriers, rewrite_cluster_barriers(inl.function, where_in_inlined));
  if (!ptx::interp::cluster_shape(std::nullopt, &inl.function).is_explicit) {  // (check_encode.cpp, constrain_pair)
    std::vector<std::string> places;
    for (std::uint32_t i = 0; i < inl.function.body.size(); ++i)
      if (inl.function.body[i].q.scope == ptx::ir::Scope::cluster && places.size() < 3) places.push_back(where_in_inlined(i));
    note_places(note::cluster_scope_of_one_cta, places);
  }
  mbarriers = rewrite_mbarrier_barriers(m, inl.function, o.block, o.x_only, where_in_inlined);
  for (const auto& at : mbarriers.barriers)
    res.notes.push_back(note::mbarrier_as_cta_barrier(at));
  if (mbarriers.pipeline) res.notes.push_back(note::pipeline_followed(mbarriers.pipeline->where));
  for (const auto& [arrive, accesses] : mbarriers.split)
    res.notes.push_back(note::split_arrive_wait(accesses.size(), where_in_inlined(arrive)));
  for (const auto& why : mbarriers.rejected) res.notes.push_back(note::mbarrier_not_cta_barrier(why));
  for (const auto& [i, why] : inl.unsupported) unmodelled_calls.emplace(promoted.index.at(i), why);
}

void widen_split_arrives(Analysis& intervals, const MbarrierRewrite& mbarriers) {
  for (const auto& [arrive, accesses] : mbarriers.split)
    for (auto i : accesses) intervals.place_between(i, arrive);
}

PreparedKernel::PreparedKernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, KernelResult& res)
    : rewritten(m, kernel, o, res),
      f(rewritten.inl.function),
      prep(prepare(m, f, rewritten.unmodelled_calls)),
      spans(async_spans(f, prep.cfg)),
      an(f, prep.cfg, [this](std::uint32_t i) { return separating_cta_barrier(f.body[i]); }) {
  widen_split_arrives(an, rewritten.mbarriers);
  for (const auto& u : prep.unsupported)
    res.unsupported.push_back(u.what + " at " + where_of(m, f.body[u.instr]).text());
  // Instructions this engine does not model but the interpreter runs (bulk copies, wgmma, tcgen05, ...): the
  // dynamic engine checks a launch of them, and the user should hear of it.
  const bool all_run = std::all_of(prep.unsupported.begin(), prep.unsupported.end(),
                                   [&](const auto& u) { return ptx::interp::instruction_supported(f.body[u.instr]); });
  if (!prep.unsupported.empty() && all_run)
    res.notes.push_back(note::dynamic_engine_runs_unsupported());
  if (prep.cfg.irreducible) res.unknown_reasons.push_back(*prep.cfg.irreducible);
  // Values broadcast through shared memory are one per CTA, which the uniformity analysis then knows too.
  prep.broadcasts = find_broadcasts(m, f, prep.cfg, [&](std::uint32_t i, std::uint32_t j) { return an.same_interval(i, j); }, an.aligned);
  if (!prep.broadcasts.empty()) {
    std::set<std::uint32_t> uniform_loads;
    std::map<std::uint32_t, std::vector<std::uint32_t>> readers;  // store -> the loads after it
    std::vector<std::uint32_t> agreed;                             // the loads of one value per CTA and phase
    for (const auto& [load, b] : prep.broadcasts) {
      uniform_loads.insert(load);
      if (b.reads == Broadcast::Reads::stored_value) readers[b.store].push_back(load);
      else if (b.reads == Broadcast::Reads::one_per_phase) agreed.push_back(load);
    }
    prep.uni = analyse_uniformity(f, prep.cfg, uniform_loads);
    prep.warp_uni = analyse_warp_uniformity(f, prep.cfg, uniform_loads);
    auto places = [&](const std::vector<std::uint32_t>& instrs) {
      std::string at;
      for (auto i : instrs) at += (at.empty() ? "" : ", ") + where_of(m, f.body[i]).text();
      return at;
    };
    for (const auto& [store, loads] : readers)
      res.notes.push_back(note::shared_broadcast(where_of(m, f.body[store]).text(), places(loads)));
    if (!agreed.empty()) res.notes.push_back(note::shared_read_only_in_interval(places(agreed)));
  }
}

}  // namespace ptxcheck::race
