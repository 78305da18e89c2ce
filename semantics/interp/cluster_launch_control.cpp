// clusterlaunchcontrol.try_cancel (PTX ISA 9.0 9.7.13.17) and clusterlaunchcontrol.query_cancel (9.7.13.18).
// The grid's clusters start in launch order, a few resident at a time (Machine::run_grid); try_cancel takes the
// next cluster that has not started out of that queue, so it never runs, and answers with its first CTA's ctaid.
// When every cluster has started the request fails. The 16-byte response is the interpreter's own encoding of
// the spec's "opaque value" (docs/clusters.md); it is written like an st.async (start_async_store: at issue, or
// with --seed later) and completes with complete-tx of 16 bytes on the mbarrier. An observer hears of each
// response write as an asynchronous operation (async_op_issue / _access / _complete_tx); its instruction being no
// st or red, the race checker takes the write as an async-proxy one, as 9.7.13.17 says ("asynchronously written
// using weak async-proxy writes"; docs/race/async-proxy.md).
#include "semantics/interp/machine.hpp"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string_view>

namespace ptx::interp {

using domain::Concrete;
using ir::Opcode;
using ST = ir::ScalarType;

namespace {
// The response's word 3 (words are little-endian u32): bit 31 marks a response written by try_cancel, bit 0 says
// the cancel succeeded; words 0-2 are then the canceled cluster's first ctaid (x, y, z), else 0. A value without
// the mark (shared memory before the response lands) is no response, which query_cancel refuses.
constexpr std::uint32_t kResponseMark = 0x80000000u, kCanceled = 1;

std::vector<std::uint8_t> response_bytes(bool canceled, const std::array<std::uint32_t, 3>& ctaid) {
  const std::uint32_t words[4] = {canceled ? ctaid[0] : 0, canceled ? ctaid[1] : 0, canceled ? ctaid[2] : 0,
                                  kResponseMark | (canceled ? kCanceled : 0)};
  std::vector<std::uint8_t> out(16);
  std::memcpy(out.data(), words, 16);
  return out;
}

// Whether every qualifier of `ins` is one of `allowed` and each of `required` is there.
bool words_are(const Instruction& ins, std::initializer_list<std::string_view> allowed, std::initializer_list<std::string_view> required) {
  for (const auto& w : ins.q.words)
    if (std::find(allowed.begin(), allowed.end(), w) == allowed.end()) return false;
  return std::all_of(required.begin(), required.end(), [&](std::string_view w) { return ins.q.has_word(w); });
}
}  // namespace

// The syntax of 9.7.13.17 (try_cancel.async{.shared::cta}.mbarrier::complete_tx::bytes{.multicast::cluster::all}.b128)
// and 9.7.13.18 (query_cancel.is_canceled.pred.b128, .get_first_ctaid.v4.b32.b128, .get_first_ctaid::{x,y,z}.b32.b128).
bool cluster_launch_control_supported(const Instruction& ins) {
  if (ins.operands.size() != 2) return false;
  if (ins.q.has_word("try_cancel"))
    return words_are(ins, {"try_cancel", "async", "shared::cta", "mbarrier::complete_tx::bytes", "multicast::cluster::all", "b128"},
                     {"try_cancel", "async", "mbarrier::complete_tx::bytes", "b128"});
  if (!ins.q.has_word("query_cancel")) return false;
  if (ins.q.has_word("is_canceled")) return words_are(ins, {"query_cancel", "is_canceled", "pred", "b128"}, {"query_cancel", "is_canceled", "pred", "b128"});
  if (ins.q.has_word("get_first_ctaid")) return words_are(ins, {"query_cancel", "get_first_ctaid", "v4", "b32", "b128"}, {"get_first_ctaid", "v4", "b32", "b128"});
  for (const char* d : {"get_first_ctaid::x", "get_first_ctaid::y", "get_first_ctaid::z"})
    if (ins.q.has_word(d)) return words_are(ins, {"query_cancel", d, "b32", "b128"}, {"query_cancel", d, "b32", "b128"});
  return false;
}

void Machine::exec_cluster_launch_control(Thread& t, const Instruction& ins) {
  const auto& o = ins.operands;
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why, {&t}); };
  if (ins.q.has_word("query_cancel")) {
    const CV handle = read(t, o[1], 128);
    const auto word3 = static_cast<std::uint32_t>(handle.v >> 96);
    if (!(word3 & kResponseMark) || (word3 & ~(kResponseMark | kCanceled)))
      return illegal("the operand is not a response of clusterlaunchcontrol.try_cancel (ISA 9.7.13.18 decodes only those)");
    const bool canceled = word3 & kCanceled;
    if (ins.q.has_word("is_canceled")) {
      if (!canceled) cta_->cancel_failure_seen = true;
      return write(t, o[0], Concrete::boolean(canceled));
    }
    // 9.7.13.18: "If the request fails the behavior of clusterlaunchcontrol.query_cancel.get_first_ctaid is undefined."
    if (!canceled) return illegal("get_first_ctaid of a failed request is undefined (ISA 9.7.13.18)");
    for (unsigned d = 0; d < 3; ++d)
      if (ins.q.has_word(std::string("get_first_ctaid::") + "xyz"[d])) return write(t, o[0], Concrete::extract(handle, 32 * d + 31, 32 * d));
    return write(t, o[0], handle);  // .v4: x, y, z and (unspecified by the text) word 3
  }
  // 9.7.13.17: after the CTA "has already observed the completion of a clusterlaunchcontrol.try_cancel instruction
  // as failed", another is undefined.
  if (cta_->cancel_failure_seen) return illegal("the CTA has observed a failed request; a further request is undefined (ISA 9.7.13.17)");
  // Both operands in the executing CTA's .shared::cta window ("The result is undefined if any of address operands do
  // not fall within the address window of .shared::cta"); addr "naturally aligned" for its 16 bytes.
  const StateSpace given = ins.q.space.value_or(StateSpace::generic);
  const std::uint64_t address = access_address(t, o[0], given);
  const auto [space, offset] = resolve(given, address);
  const SharedTarget own = space == StateSpace::shared ? shared_target(StateSpace::shared, offset) : SharedTarget{};
  if (!own.cta) return illegal("addr is not in the executing CTA's .shared::cta window (undefined, ISA 9.7.13.17)");
  if (own.offset % 16) return fail(Problem::Kind::misaligned, name + ": addr is not 16-byte aligned (ISA 9.7.13.17)", {&t});
  if (!locate(t, given, address, 16, true)) return;  // (out of bounds: reported)
  const SharedTarget bar = mbarrier_object(t, o[1], given, name, true);
  if (!bar.cta || stop_) return;
  if (bar.cta != cta_) return illegal("mbar is not in the executing CTA's .shared::cta window (undefined, ISA 9.7.13.17)");
  // .multicast::cluster::all: the response goes to addr and mbar of every CTA of the cluster; "undefined if any CTA
  // in the cluster is exited".
  std::vector<Cta*> receivers{cta_};
  if (ins.q.has_word("multicast::cluster::all")) {
    receivers = cta_->cluster->ctas;
    for (const Cta* c : receivers)
      if (c->exited == c->threads.size()) return illegal("CTA rank " + std::to_string(c->rank) + " of the cluster has exited (undefined, ISA 9.7.13.17)");
  }
  // The request, atomic at issue: the next cluster in launch order that has not started is canceled.
  const bool canceled = cluster_next_ < cluster_queue_.size();
  std::array<std::uint32_t, 3> first{};
  if (canceled) {
    first = cluster_queue_[cluster_next_].front();  // rank 0: the cluster's first CTA
    cluster_queue_.erase(cluster_queue_.begin() + static_cast<std::ptrdiff_t>(cluster_next_));
  }
  for (Cta* c : receivers) {
    if (stop_) return;
    start_async_store(t, ins, {c, own.offset}, {c, bar.offset}, response_bytes(canceled, first));
  }
}

}  // namespace ptx::interp
