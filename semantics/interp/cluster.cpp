// Thread-block clusters in the interpreter (ISA 9.0 2.2.2): the grid's clusters and their order, the cluster
// special registers (10.11-10.17), distributed shared memory through the .shared::cluster window (5.1.4; the
// layout is docs/clusters.md and memory.hpp's kDsmemStride), mapa (9.7.9.23), getctarank (9.7.9.24), and
// barrier.cluster (9.7.13.3). The CTAs of a cluster are resident together and run interleaved (Machine::run).
#include "semantics/interp/machine.hpp"

#include <algorithm>
#include <cstdio>

namespace ptx::interp {

using domain::Concrete;
using OK = Operand::Kind;

namespace {
std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

// ---------------------------------------------------------------------------------------------- launch
std::string Machine::cluster_refusal(const ir::Function& kernel) const {
  if (kernel.performance.count("blocksareclusters"))
    return "kernel '" + ir::kernel_title(kernel.name) + "' declares .blocksareclusters, which the interpreter does not model";
  if (cluster_.ctas() == 1) return {};
  if (dynamic_shared_base_ + launch_.dynamic_shared_bytes > kDsmemStride)
    return "a CTA of a cluster with more than " + std::to_string(kDsmemStride) + " bytes of shared memory does not fit the "
           "interpreter's .shared::cluster window (docs/clusters.md)";
  return {};
}

// Clusters in grid order (x fastest, ISA 2.2.2); a cluster's CTAs by %cluster_ctarank = x + y*nx + z*nx*ny of
// their %cluster_ctaid (10.16). Options::first_ctas moves their clusters to the front, in that order.
std::vector<std::vector<std::array<std::uint32_t, 3>>> Machine::cluster_order() const {
  const auto& g = launch_.grid;
  const auto& c = cluster_.dims;
  std::vector<std::vector<std::array<std::uint32_t, 3>>> out;
  for (std::uint32_t cz = 0; cz < g[2] / c[2]; ++cz)
    for (std::uint32_t cy = 0; cy < g[1] / c[1]; ++cy)
      for (std::uint32_t cx = 0; cx < g[0] / c[0]; ++cx) {
        auto& ids = out.emplace_back();
        for (std::uint32_t z = 0; z < c[2]; ++z)
          for (std::uint32_t y = 0; y < c[1]; ++y)
            for (std::uint32_t x = 0; x < c[0]; ++x) ids.push_back({cx * c[0] + x, cy * c[1] + y, cz * c[2] + z});
      }
  for (std::size_t k = opt_.first_ctas.size(); k-- > 0;) {  // the last first, so that the first ends up in front
    auto has = [&](const auto& ids) { return std::find(ids.begin(), ids.end(), opt_.first_ctas[k]) != ids.end(); };
    if (auto it = std::find_if(out.begin(), out.end(), has); it != out.end()) std::rotate(out.begin(), it, it + 1);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- special registers
std::optional<std::uint64_t> Machine::cluster_special(ir::SpecialRegister r, unsigned c) const {
  using SR = ir::SpecialRegister;
  const auto& dims = cluster_.dims;
  if (r == SR::is_explicit_cluster) return cluster_.is_explicit;  // 10.11
  if (r == SR::cluster_ctarank) return cta_->rank;                 // 10.16
  if (r == SR::cluster_nctarank) return cluster_.ctas();           // 10.17
  if (r != SR::clusterid && r != SR::nclusterid && r != SR::cluster_ctaid && r != SR::cluster_nctaid) return std::nullopt;
  if (c >= 3) return 0;  // the fourth element of the .v4 registers is unused and reads zero
  switch (r) {
    case SR::clusterid: return cta_->cluster->id[c];                  // 10.12
    case SR::nclusterid: return launch_.grid[c] / dims[c];            // 10.13
    case SR::cluster_ctaid: return cta_->ctaid[c] % dims[c];          // 10.14
    default: return dims[c];                                          // 10.15 %cluster_nctaid
  }
}

// ---------------------------------------------------------------------------------------------- shared memory
// ISA 5.1.4: a .shared::cta address lies in the executing CTA's window, which is contained in the .shared::cluster
// window: r * kDsmemStride + offset is rank r's offset, for the CTA itself too. In a cluster of one CTA every
// address is an offset of the CTA's own (as before clusters were modelled).
SharedTarget Machine::shared_target(StateSpace given, std::uint64_t a) const {
  if (cluster_.ctas() == 1) return {cta_, a};
  const std::uint64_t rank = a / kDsmemStride;
  if (rank >= cta_->cluster->ctas.size()) return {};
  Cta* c = cta_->cluster->ctas[rank];
  if (given == StateSpace::shared && c != cta_) return {};  // outside the .shared::cta window
  return {c, a % kDsmemStride};
}

std::uint64_t Machine::own_shared_base() const { return cluster_.ctas() == 1 ? 0 : dsmem_address(cta_->rank, 0); }

std::uint8_t* Machine::shared_pointer(Thread& t, StateSpace given, std::uint64_t a, std::uint64_t size) {
  const SharedTarget s = shared_target(given, a);
  if (!s.cta || s.offset > s.cta->shared.size() || size > s.cta->shared.size() - s.offset) return nullptr;
  // 2.2.2: the peer CTA must not have exited before the shared memory operation completes.
  if (s.cta != cta_ && s.cta->exited == s.cta->threads.size()) {
    fail(Problem::Kind::illegal, "access to the shared memory of cluster CTA rank " + std::to_string(s.cta->rank) +
                                     ", which has exited (ISA 2.2.2)", {&t});
    return nullptr;
  }
  return s.cta->shared.data() + s.offset;
}

bool Machine::in_shared_window(StateSpace s, std::uint64_t g) const {
  if (g < kSharedWindow || g >= kSharedWindow + kWindowSize) return false;
  const SharedTarget t = shared_target(s, g - kSharedWindow);
  return t.cta && t.offset <= t.cta->shared.size();
}

// mapa{.shared::cluster}.type d, a, b (9.7.9.23): the address in CTA b that corresponds to a. Generic (no
// .space): a and d are generic addresses of shared memory. A rank at or above %cluster_nctarank, or an `a` that is
// no shared memory address of the cluster, is undefined: reported as `illegal`. Mapped to the executing CTA itself,
// the result is its .shared::cta address, which is also its .shared::cluster one.
void Machine::exec_mapa(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const std::string name = ir::opcode_text(ins);
  const bool generic = !ins.q.space;
  std::uint64_t a = o[1].kind == OK::Address ? address(t, o[1]) : read(t, o[1], d.w0).u64();
  const std::uint64_t rank = read(t, o[2], 32).u64();
  if (generic && !in_shared_window(StateSpace::shared_cluster, a))
    return fail(Problem::Kind::illegal, name + ": " + hex(a) + " is not a generic address of shared memory of the cluster", {&t});
  if (generic) a -= kSharedWindow;
  const SharedTarget s = shared_target(StateSpace::shared_cluster, a);
  if (!s.cta || s.offset > s.cta->shared.size())
    return fail(Problem::Kind::illegal, name + ": " + hex(a) + " is not a .shared::cluster address of the cluster's shared memory", {&t});
  if (rank >= cluster_.ctas())
    return fail(Problem::Kind::illegal, name + ": CTA rank " + std::to_string(rank) + " is not below %cluster_nctarank " +
                                            std::to_string(cluster_.ctas()), {&t});
  const auto r = static_cast<std::uint32_t>(rank);
  std::uint64_t mapped = cluster_.ctas() == 1 ? s.offset : dsmem_address(r, s.offset);
  if (generic) mapped = to_generic(StateSpace::shared_cluster, mapped);
  write(t, o[0], Concrete::lit(d.w0, mapped));
}

// getctarank{.shared::cluster}.type d, a (9.7.9.24): the rank of the CTA whose shared memory holds a.
void Machine::exec_getctarank(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& o = ins.operands;
  const bool generic = !ins.q.space;
  std::uint64_t a = o[1].kind == OK::Address ? address(t, o[1]) : read(t, o[1], d.w0).u64();
  if (generic && in_shared_window(StateSpace::shared_cluster, a)) a -= kSharedWindow;
  else if (generic) a = ~std::uint64_t(0);
  const SharedTarget s = shared_target(StateSpace::shared_cluster, a);
  if (!s.cta || s.offset > s.cta->shared.size())
    return fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + hex(a) + " is not an address of the cluster's shared memory", {&t});
  write(t, o[0], Concrete::lit(32, s.cta->rank));
}

// ---------------------------------------------------------------------------------------------- barrier.cluster
std::uint32_t Machine::cluster_live_threads(const Cluster& c) {
  std::uint32_t n = 0;
  for (const Cta* cta : c.ctas) n += static_cast<std::uint32_t>(cta->threads.size()) - cta->exited;
  return n;
}

// ISA 9.7.13.3 barrier.cluster.arrive{.sem}{.aligned} / barrier.cluster.wait{.acquire}{.aligned}: the barrier
// completes when every non-exited thread of the cluster has arrived; a wait that finds its phase incomplete blocks
// and runs again once it is. The observer sees it as an mbarrier-like object (kClusterBarrierObject): arrive-ons
// in a phase, and waits that find it complete, on the cluster's rank-0 CTA.
void Machine::cluster_barrier(Thread& t, const Instruction& ins) {
  const std::string name = ir::opcode_text(ins);
  Cluster& c = *cta_->cluster;
  if (ins.q.has(ir::Flag::arrive)) {
    if (t.cluster_arrival) return fail(Problem::Kind::illegal, name + ": the thread arrives again before its barrier.cluster.wait for the previous arrive", {&t});
    t.cluster_arrival = c.phase + 1;
    if (opt_.observer) opt_.observer->mbarrier_arrive(thread_ref(t), ins, cta_linear(*c.ctas[0]), kClusterBarrierObject, c.phase);
    ++c.arrived;
    t.frames.back().pc++;
    complete_cluster_phase();
    return;
  }
  if (!t.cluster_arrival) return fail(Problem::Kind::illegal, name + ": the thread waits without having arrived", {&t});
  const std::uint64_t phase = t.cluster_arrival - 1;
  if (phase == c.phase) {  // not complete: wait here (complete_cluster_phase wakes it)
    t.status = Status::at_cluster_wait;
    return;
  }
  t.cluster_arrival = 0;
  if (opt_.observer) opt_.observer->mbarrier_wait(thread_ref(t), ins, cta_linear(*c.ctas[0]), kClusterBarrierObject, phase);
  t.frames.back().pc++;
}

void Machine::complete_cluster_phase() {
  Cluster& c = *cta_->cluster;
  if (c.arrived == 0 || c.arrived < cluster_live_threads(c)) return;
  c.arrived = 0;
  ++c.phase;
  for (Cta* cta : c.ctas)
    for (auto& u : cta->threads)
      if (u.status == Status::at_cluster_wait) u.status = Status::running;  // its wait runs again and passes
}

}  // namespace ptx::interp
