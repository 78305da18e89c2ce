// The questions the race checker asks the memory model of flags, tickets and spin locks
// (checker/race/flag_model.hpp), issue 33: litmus tests built as the checker builds them, against what ISA 8.8 and
// 8.9 say of hand-picked forms. The kernels' verdicts that rest on them are tests/unit/race/kernels/'s expectations.
#include "checker/race/flag_model.hpp"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <set>

using namespace ptxcheck;
using ptx::ir::Nearness;

namespace {
race::MessageQuestion question(const char* write, const char* read, race::PathShape release, race::PathShape acquire, Nearness n) {
  return race::MessageQuestion{true, false, write, read, std::move(release), std::move(acquire), n};
}
bool races(const race::MessageQuestion& q) {
  std::string why;
  const auto r = race::message_races(q, why);
  REQUIRE_MESSAGE(r.has_value(), why << "\n" << race::message_litmus(q));
  return *r;
}

}  // namespace

TEST_CASE("flag model: message passing questions answered as ISA 8.8 and 8.9.4 say") {
  const char* st_relaxed_gpu = "st.relaxed.gpu.global.u32 [flag], 1";
  const char* ld_relaxed_gpu = "ld.relaxed.gpu.global.u32 r0, [flag]";
  // Release and acquire fences at .gpu around relaxed flag accesses: a release pattern synchronizes with an acquire
  // pattern (8.8 form 3, 8.9.4 item 4), the data ordered in causality order whatever the CTAs.
  for (Nearness n : {Nearness::same_cta, Nearness::same_cluster, Nearness::same_gpu})
    CHECK(!races(question(st_relaxed_gpu, ld_relaxed_gpu, {"fence.sc.gpu"}, {"fence.sc.gpu"}, n)));
  // No acquire fence: nothing orders the consumer's data read after its flag read.
  CHECK(races(question(st_relaxed_gpu, ld_relaxed_gpu, {"fence.sc.gpu"}, {}, Nearness::same_gpu)));
  // st.release / ld.acquire alone (8.8 form 1).
  CHECK(!races(question("st.release.gpu.global.u32 [flag], 1", "ld.acquire.gpu.global.u32 r0, [flag]", {}, {}, Nearness::same_gpu)));
  // .cta scope: morally strong (8.6) and synchronizing within the CTA only.
  CHECK(!races(question("st.release.cta.global.u32 [flag], 1", "ld.acquire.cta.global.u32 r0, [flag]", {}, {}, Nearness::same_cta)));
  CHECK(races(question("st.release.cta.global.u32 [flag], 1", "ld.acquire.cta.global.u32 r0, [flag]", {}, {}, Nearness::same_cluster)));
  // .cluster scope: within the cluster only (8.5 Table 21).
  CHECK(!races(question("st.release.cluster.global.u32 [flag], 1", "ld.acquire.cluster.global.u32 r0, [flag]", {}, {}, Nearness::same_cluster)));
  CHECK(races(question("st.release.cluster.global.u32 [flag], 1", "ld.acquire.cluster.global.u32 r0, [flag]", {}, {}, Nearness::same_gpu)));
  // A fence of the wrong direction: fence.acquire does not begin a release pattern (9.7.13.4).
  CHECK(races(question(st_relaxed_gpu, ld_relaxed_gpu, {"fence.acquire.gpu"}, {"fence.sc.gpu"}, Nearness::same_gpu)));
}

TEST_CASE("flag model: last-block ticket questions, the atomic both W and R, answered as ISA 8.9 says") {
  const char* inc_gpu_w = "atom.relaxed.gpu.global.inc.u32 {d}, [flag], 1";
  const char* inc_gpu_r = "atom.relaxed.gpu.global.inc.u32 r0, [flag], 1";
  // The increment itself, then a weak access of the counter after the last CTA's increment: ordered with no fence,
  // 8.9.5 causality order item 2 (observation order, then program order), when the atomics are morally strong ...
  race::MessageQuestion increment{true, true, inc_gpu_w, inc_gpu_r, {}, {}, Nearness::same_gpu, true};
  CHECK(!races(increment));
  // ... and not when they are not (.cta atomics of two CTAs: no observation order, 8.6, 8.9.2).
  increment.write = "atom.relaxed.cta.global.inc.u32 {d}, [flag], 1";
  increment.read = "atom.relaxed.cta.global.inc.u32 r0, [flag], 1";
  CHECK(races(increment));
  // Data before a CTA's increment, read after the last's: needs the release and acquire fences (8.8, 8.9.4) ...
  CHECK(races(question(inc_gpu_w, inc_gpu_r, {}, {}, Nearness::same_gpu)));
  CHECK(races(question(inc_gpu_w, inc_gpu_r, {"fence.sc.gpu"}, {}, Nearness::same_gpu)));
  CHECK(!races(question(inc_gpu_w, inc_gpu_r, {"fence.sc.gpu"}, {"fence.sc.gpu"}, Nearness::same_gpu)));
  // ... and two fence.sc order it even around .cta atomics of two CTAs: the Fence-SC order in which the reader's
  // fence came first would put its read before the write it read in causality order (8.9.3, 8.10.6 item 1).
  CHECK(!races(question("atom.relaxed.cta.global.inc.u32 {d}, [flag], 1", "atom.relaxed.cta.global.inc.u32 r0, [flag], 1", {"fence.sc.gpu"},
                        {"fence.sc.gpu"}, Nearness::same_gpu)));
  // A compare-and-swap as W writes 1 over the initial 0 (flag_cell makes its compare operand 0; the unit kernels'
  // atomic_cas_claim*.cu are unanswered otherwise, which the next test case fails on).
  CHECK(!races(question("atom.release.gpu.global.cas.b32 {d}, [flag], 0, 1", "atom.acquire.gpu.global.cas.b32 r0, [flag], 1, 1", {}, {},
                        Nearness::same_gpu)));
}

// A spin lock is a flag's litmus shape (checker/race/check_lock_model.cpp): W the previous holder's release write
// of `unlocked`, R the next holder's lock RMW reading it.
TEST_CASE("lock model: lock questions answered as ISA 8.8 and 8.9.4 say") {
  const char* exch_release = "atom.global.exch.b32 {d}, [flag], 1";
  const char* cas_take = "atom.global.cas.b32 r0, [flag], 1, 1";
  // __threadfence() around atomicCAS / atomicExch (lock_critical_section.cu): a release pattern (fence then strong
  // write, 8.8 form 3) synchronizes with the next holder's acquire pattern (strong RMW read then fence), 8.9.4 item 4.
  for (Nearness n : {Nearness::same_cta, Nearness::same_cluster, Nearness::same_gpu})
    CHECK(!races(question(exch_release, cas_take, {"fence.sc.gpu"}, {"fence.sc.gpu"}, n)));
  // No fence before the releasing exchange (lock_no_release_fence.cu): a relaxed RMW is no release pattern.
  CHECK(races(question(exch_release, cas_take, {}, {"fence.sc.gpu"}, Nearness::same_gpu)));
  // No fence after taking the lock: nothing orders the next holder's data access after its RMW.
  CHECK(races(question(exch_release, cas_take, {"fence.sc.gpu"}, {}, Nearness::same_gpu)));
  // atom.acquire.cas and st.release (lock_acquire_release_ops.cu): each its own pattern (8.8 form 1).
  CHECK(!races(question("st.release.gpu.global.u32 [flag], 1", "atom.acquire.gpu.global.cas.b32 r0, [flag], 1, 1", {}, {}, Nearness::same_gpu)));
  // .cta scope throughout (atomicCAS_block, __threadfence_block): ordered within the CTA only (8.5, 8.6).
  const char* cta_release = "atom.cta.global.exch.b32 {d}, [flag], 1";
  const char* cta_take = "atom.cta.global.cas.b32 r0, [flag], 1, 1";
  CHECK(!races(question(cta_release, cta_take, {"fence.cta"}, {"fence.cta"}, Nearness::same_cta)));
  CHECK(races(question(cta_release, cta_take, {"fence.cta"}, {"fence.cta"}, Nearness::same_cluster)));
  // .gpu RMWs with only CTA fences: a release fence's scope must include the other thread too (8.9.4 item 4).
  CHECK(races(question(exch_release, cas_take, {"fence.cta"}, {"fence.cta"}, Nearness::same_gpu)));
}

TEST_CASE("lock model: a holder between two others keeps the chain only as ISA 8.9.2 and 8.9.3 say") {
  // Holders 1 and 3 fence with fence.acq_rel and release with st.relaxed; holder 2 takes and releases with no fence.
  // Holder 3 reads holder 2's plain store: no atomic carries holder 1's release to it (8.9.2 observation order), and
  // nothing synchronizes (8.9.4 item 4): the data races (tests/unit/race/kernels/lock_middle_holder_no_fence.cu).
  const char* relaxed_release = "st.relaxed.gpu.global.b32 [flag], 1";
  const char* cas_take = "atom.global.cas.b32 r0, [flag], 1, 1";
  auto chain = [&](const char* fence, const char* middle_release) {
    auto q = question(relaxed_release, cas_take, {fence}, {fence}, Nearness::same_gpu);
    CHECK(!races(q));  // directly after holder 1: ordered
    q.middle = race::MessageQuestion::Middle{{}, middle_release, Nearness::same_gpu};
    return races(q);
  };
  CHECK(chain("fence.acq_rel.gpu", relaxed_release));
  // An RMW release: holder 2's exchange is an atomic, through which holder 1's write is observed (8.9.2).
  CHECK(!chain("fence.acq_rel.gpu", "atom.global.exch.b32 {d}, [flag], 1"));
  // fence.sc: holder 1's and holder 3's fences are ordered in Fence-SC order (8.9.3) the way the reads went.
  CHECK(!chain("fence.sc.gpu", relaxed_release));
}
