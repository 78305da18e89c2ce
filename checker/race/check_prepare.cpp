// Stage 1 of a kernel's pair check (kernel_check.hpp), prepare: the kernel as the engine checks it, the notes on
// what it rewrote, and the static analyses both threads share.
#include "checker/race/kernel_check.hpp"
#include "semantics/interp/launch.hpp"

#include <algorithm>

namespace ptxcheck::race {
using ptx::ir::Opcode;

RewrittenKernel::RewrittenKernel(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, KernelResult& res)
    : inl(inline_calls(m, kernel, InlineOptions{o.assume_pure_externs})) {
  const Promoted promoted = promote_private(inl.function);
  // Barrier forms that are CTA barriers (barrier_forms.hpp), named in the notes.
  const auto where_in_inlined = [&](std::uint32_t i) { return where_of(m, inl.function.body[i]).text(); };
  const auto note_places = [&](const std::string& what, const std::vector<std::string>& places) {
    std::string at;
    for (const auto& w : places) at += (at.empty() ? "" : ", ") + w;
    if (!places.empty()) res.notes.push_back(what + ": " + at);
  };
  note_places("barriers with the CTA's thread count taken as CTA barriers (every thread of the CTA takes part, ISA 9.7.13.1)",
              rewrite_full_count_barriers(inl.function, o.block, o.x_only, where_in_inlined));
  note_places("cluster barriers (barrier.cluster.arrive then .wait) taken as CTA barriers; for threads of different CTAs of a cluster "
              "they are possible orderings (ISA 9.7.13.2)",
              rewrite_cluster_barriers(inl.function, where_in_inlined));
  if (!ptx::interp::cluster_shape(std::nullopt, &inl.function).is_explicit) {  // (check_encode.cpp, constrain_pair)
    std::vector<std::string> places;
    for (std::uint32_t i = 0; i < inl.function.body.size(); ++i)
      if (inl.function.body[i].q.scope == ptx::ir::Scope::cluster && places.size() < 3) places.push_back(where_in_inlined(i));
    note_places(".cluster scope taken with clusters of one CTA, the default launch's (the kernel has no .reqnctapercluster; "
                "larger clusters have at most these races, ISA 8.5)", places);
  }
  mbarriers = rewrite_mbarrier_barriers(m, inl.function, o.block, o.x_only, where_in_inlined);
  for (const auto& at : mbarriers.barriers)
    res.notes.push_back("mbarrier taken as a CTA barrier: every thread arrives once per phase and waits for it "
                        "(init count = threads of the CTA; ISA 9.7.13.15.16 item 1; assumed: a thread of each CTA runs the init), arrive at " + at);
  if (mbarriers.pipeline)
    res.notes.push_back("block-scope pipeline followed: the mbarrier arrays in " + mbarriers.pipeline->where +
                        "; an access before a thread's k-th arrive on \"full\" is ordered before accesses after the k-th wait on it, on "
                        "\"empty\" before those after the (k+S)-th (ISA 9.7.13.15.16; docs/race/pipeline.md; assumed: a thread of each "
                        "CTA runs the inits, fewer than 2^31 stages and 2^32 iterations of a loop)");
  for (const auto& [arrive, accesses] : mbarriers.split)
    res.notes.push_back("split arrive/wait: the " + std::to_string(accesses.size()) + " access(es) between the arrive at " +
                        where_in_inlined(arrive) + " and its wait are ordered with no access of that phase or the next (ISA 9.7.13.15.16 item 5)");
  for (const auto& why : mbarriers.rejected)
    res.notes.push_back("mbarrier not taken as a CTA barrier: " + why + "; its arrives and waits are taken as possible orderings");
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
    res.notes.push_back("the dynamic engine runs the unsupported instructions: `ptxcheck race FILE --launch LAUNCH.json` "
                        "checks one launch of the kernel (docs/race/dynamic-engine.md)");
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
      res.notes.push_back("shared-memory broadcast: the store at " + where_of(m, f.body[store]).text() +
                          " is the only write to its word and a barrier separates it from the loads at " + places(loads) +
                          ", which read one value per CTA (and iteration of the loops around the store): what the CTA's "
                          "writing thread stored, or the content before (ISA 8.9.4 item 2, 8.10 Causality; a second writer "
                          "or barrier divergence is reported on its own)");
    if (!agreed.empty())
      res.notes.push_back("shared memory read in barrier intervals where no thread writes it: the loads at " + places(agreed) +
                          " read one value per CTA and barrier interval (ISA 8.9.4 item 2, 8.10 Causality)");
  }
}

}  // namespace ptxcheck::race
