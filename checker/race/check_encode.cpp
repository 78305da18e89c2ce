// Stage 2 of a kernel's pair check (kernel_check.hpp), encode the thread pair: both threads' encodings and what the
// solver knows of the two (the launch, the user's assumptions, distinct threads, their warps).
#include "checker/race/kernel_check.hpp"
#include "checker/race/notes.hpp"

namespace ptxcheck::race {
using ptx::ir::Opcode;

namespace {

// Facts about the population counts both threads take (ISA 9.7.1.14): the count of a subset of bits is at most the
// count of the whole, and below it when the subset is proper. Valid for every value, so they narrow nothing; they
// spare the solver the counting argument that the adder circuit of ops::popc hides from it: a warp-aggregated
// append's slot `base + popc(ballot & lanemask_lt)` is unique (a lane's own bit lies in the ballot and in no lower
// lane's mask) and below `base + popc(ballot)`.
std::vector<z3::expr> popcount_order(const ThreadEncoding& t1, const ThreadEncoding& t2) {
  std::vector<ThreadEncoding::Popcount> all = t1.popcounts;
  all.insert(all.end(), t2.popcounts.begin(), t2.popcounts.end());
  std::vector<z3::expr> lemmas;
  for (const auto& small : all)
    for (const auto& large : all) {
      if (&small == &large || small.bits.get_sort().bv_size() != large.bits.get_sort().bv_size()) continue;
      const z3::expr zero = small.bits.ctx().bv_val(0, small.bits.get_sort().bv_size());
      const z3::expr subset = (small.bits & ~large.bits) == zero;
      lemmas.push_back(z3::implies(subset, z3::ule(small.count, large.count)));
      lemmas.push_back(z3::implies(subset && small.bits != large.bits, z3::ult(small.count, large.count)));
    }
  return lemmas;
}

}  // namespace

// bar.warp.sync with the full mask, unguarded: every thread of the warp waits, and the barrier orders their
// memory accesses (ISA 9.7.13.2 "bar.warp.sync ... also guarantee memory ordering among threads participating").
bool full_warp_barrier(const ptx::ir::Instruction& in) {
  if (in.op != Opcode::bar_ || !in.q.has(ptx::ir::Flag::warp) || in.guard >= 0 || in.operands.empty()) return false;
  const auto& m = in.operands[0];
  return m.kind == ptx::ir::Operand::Kind::Immediate && (static_cast<std::uint64_t>(m.imm) & 0xffffffffu) == 0xffffffffu;
}

// bar.warp.sync with any membermask, unguarded: the lanes of its mask wait for each other, and it orders the memory
// accesses of those participating (ISA 9.7.13.2) — CUB's logical warps (`0xffff << (lane & 16)`), cooperative
// groups' tiled_partition. Which lanes take part is asked of the solver with each thread's mask (warp_masks).
bool warp_barrier(const ptx::ir::Instruction& in) {
  return in.op == Opcode::bar_ && in.q.has(ptx::ir::Flag::warp) && in.guard < 0 && !in.operands.empty() &&
         (in.operands[0].kind == ptx::ir::Operand::Kind::Immediate || in.operands[0].kind == ptx::ir::Operand::Kind::Register);
}

z3::expr all_eq(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b) {
  z3::expr r = a[0] == b[0];
  for (std::size_t i = 1; i < a.size(); ++i) r = r && a[i] == b[i];
  return r;
}

KernelCheck::KernelCheck(const ptx::ir::Module& m, const ptx::ir::Function& kernel, const Options& o, ResourceGuard& guard,
                         const PreparedKernel& prepared, KernelResult& res)
    : m(m), kernel(kernel), o(o), guard(guard), res(res), inl(prepared.rewritten.inl), mbarriers(prepared.rewritten.mbarriers),
      f(prepared.f), prep(prepared.prep), spans(prepared.spans), an(prepared.an),
      watch(&guard, c),
      launch(make_launch(c, o.block, o.grid)),
      T1(encode_thread(c, m, f, prep, launch, 1)),
      T2(encode_thread(c, m, f, prep, launch, 2)),
      an_warp(f, prep.cfg, [this](std::uint32_t i) { return separating_cta_barrier(f.body[i]) || full_warp_barrier(f.body[i]); }),
      an_subwarp(f, prep.cfg, [this](std::uint32_t i) { return separating_cta_barrier(f.body[i]) || warp_barrier(f.body[i]); }) {
  widen_split_arrives(an_warp, mbarriers);
  widen_split_arrives(an_subwarp, mbarriers);
  // The forwarded values (shuffles) name a thread's symbols by their names without the thread's prefix, so both
  // encodings must make the same symbols in the same order: they run the same code on the same function.
  if (T1.fresh_symbols != T2.fresh_symbols)
    res.unknown_reasons.push_back("internal: the two threads' encodings differ in shape (" + std::to_string(T1.fresh_symbols) +
                                  " and " + std::to_string(T2.fresh_symbols) + " symbols)");
  settle_grid_syncs();
  locks =
      find_critical_sections(f, prep, T1, [&](std::uint32_t i, std::uint32_t j) { return !an.same_interval(i, j); });
  for (const auto& site : locks.sites) {
    lock_address1.push_back(lock_address(T1, site));
    lock_address2.push_back(lock_address(T2, site));
  }
  // Named barriers with producer/consumer roles that every thread passes once (named_barriers.hpp); that the lanes
  // of a warp take one operation is checked below.
  phases = find_single_phase_barriers(f, prep.cfg, o.block, o.x_only);
}

void KernelCheck::constrain_pair() {
  set_budget(o.query);
  s.add(launch_shape_constraints(launch, o.block, o.grid, o.x_only, f));
  // The user's preconditions (--assume): only the launches that satisfy them are checked.
  argument_reads = T1.argument_reads;
  argument_reads.insert(argument_reads.end(), T2.argument_reads.begin(), T2.argument_reads.end());
  for (const auto& a : o.assumptions) {
    std::string error;
    if (a.for_each_index) {  // instantiated where initial memory is asked about (flag_read)
      res.notes.push_back(note::assumed_for_every_index(a.text));
      continue;
    }
    if (auto term = assumption_term(c, a, f, &m, launch.ntid, launch.nctaid, argument_reads, error)) {
      s.add(*term);
      res.notes.push_back(note::assumed(a.text));
    } else {
      res.unknown_reasons.push_back(error);  // (run_file rejects such an assumption before the check)
    }
  }
  if (!o.assumptions.empty() && solver::check(s, current).unsat())  // (a contradiction would make every verdict race-free)
    res.unknown_reasons.push_back("the assumptions (--assume) admit no launch of this shape: nothing was checked");
  for (int d = 0; d < 3; ++d)
    for (const auto* t : {&T1, &T2}) s.add(z3::ult(t->tid[d], launch.ntid[d]) && z3::ult(t->ctaid[d], launch.nctaid[d]));
  distinct_threads = !(all_eq(T1.tid, T2.tid) && all_eq(T1.ctaid, T2.ctaid));
  s.add(distinct_threads);
  for (const auto* t : {&T1, &T2})
    for (const auto& fact : t->facts) s.add(fact);
  for (const z3::expr& lemma : popcount_order(T1, T2)) s.add(lemma);
  // Shared-space addresses are 32-bit, and a CTA's shared memory (at most 228 KB on current GPUs) is far below
  // 16 MiB: a shared variable's addresses do not wrap around in 32 bits, so an address computed in 32-bit registers
  // (`[%r2+-512]`) equals the 64-bit sum the encoding forms (without this, a base near 2^32 made them differ).
  for (const auto& obj : prep.objects)
    if (obj.space == Space::shared)
      s.add(z3::ult(c.bv_const(obj.base_symbol.c_str(), 64), c.bv_val((std::uint64_t{1} << 32) - (std::uint64_t{1} << 24), 64)));
  same_cta = all_eq(T1.ctaid, T2.ctaid);
  if (o.block_level) s.add(same_cta);
  // ISA 2.2.1, 8.5: with the kernel's .reqnctapercluster, clusters of that shape tile the grid (%clusterid is
  // %ctaid divided by the shape, per dimension). Without it the launch's clusters are not known here: they are
  // taken as one CTA each, the default launch's, which has the most races (a larger cluster only makes more pairs
  // morally strong or synchronized by .cluster operations).
  same_cluster = same_cta;
  if (const auto shape = ptx::interp::cluster_shape(std::nullopt, &f); shape.is_explicit) {
    same_cluster = c.bool_val(true);
    for (int d = 0; d < 3; ++d) same_cluster = same_cluster && z3::udiv(T1.ctaid[d], u32(shape.dims[d])) == z3::udiv(T2.ctaid[d], u32(shape.dims[d]));
  }
  // Warps are made of consecutive linear thread ids of a CTA (ISA 2.2: x fastest, then y, then z).
  same_warp = same_cta && warp_of(T1) == warp_of(T2);
  // Two threads of one warp each in the other's membermask at every partial bar.warp.sync of the kernel: whichever
  // of them lies between two accesses, both took part in it (a lane of the mask that does not arrive leaves the
  // others waiting, ISA 9.7.13.2), so it orders them.
  mutual_warp_sync = c.bool_val(true);
  lane_bit1 = z3::shl(u32(1), z3::urem(linear_tid(T1.tid, launch), u32(32)));
  lane_bit2 = z3::shl(u32(1), z3::urem(linear_tid(T2.tid, launch), u32(32)));
  for (const auto& [i, m1] : T1.warp_masks) {
    if (!warp_barrier(f.body[i]) || full_warp_barrier(f.body[i]) || !T2.warp_masks.count(i)) continue;
    mutual_warp_sync = mutual_warp_sync && (m1 & lane_bit2) != u32(0) && (T2.warp_masks.at(i) & lane_bit1) != u32(0);
  }
}

z3::expr KernelCheck::u32(std::uint64_t v) { return c.bv_val(v, 32); }

z3::expr KernelCheck::warp_of(const ThreadEncoding& t) { return z3::udiv(linear_tid(t.tid, launch), u32(32)); }

// Whether scope `sc` of one thread includes the other (semantics/ir/scope.hpp), by the clusters of constrain_pair;
// both threads run on the launch's one GPU.
z3::expr KernelCheck::includes(ptx::ir::Scope sc) {
  return scope_includes(sc, ptx::ir::Placement<z3::expr>{same_cta, same_cluster, c.bool_val(true), c.bool_val(true)});
}

void KernelCheck::collect_lane_facts() {
  z3::expr bits = c.bool_val(true);
  for (const ThreadEncoding* t : {&T1, &T2})
    for (const z3::expr& bit : t->lane_facts) bits = bits && bit;
  lane_bits = bits;
}

}  // namespace ptxcheck::race
