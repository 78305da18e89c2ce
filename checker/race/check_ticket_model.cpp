// A last-block ticket's ordering asked of the memory model (flag_model.hpp), issue 33: the ticket's atomic T is
// both the flag's write W (in a CTA before the last) and its read R (in the last CTA), so the question is the
// message-passing one, `P0: b; path; T | P1: T; path; a`, or, for the increments themselves (b is T),
// `P0: T | P1: T; path; a` with a on the counter. tickets.hpp keeps the structure the model cannot see (one run per
// CTA, the count of increments, the chain of atomics that makes the last CTA's T read after every other's).
#include "checker/race/kernel_check.hpp"

#include <algorithm>

namespace ptxcheck::race {
namespace {
// What __threadfence() compiles to (CUDA C++ Programming Guide; nvcc emits fence.sc.gpu): the acquire fence the
// notes suggest, asked of the model before it is suggested.
constexpr const char* kThreadFence = "fence.sc.gpu";
}  // namespace

const std::array<std::optional<bool>, 3>& KernelCheck::model_ticket_orders(std::uint32_t atom, const Access& pb, std::uint32_t after, bool a_writes,
                                                                         const std::string& acquire_prefix) {
  const auto key = std::make_tuple(atom, pb.instr, pb.write, after, a_writes, acquire_prefix);
  auto it = ticket_model_answers.find(key);
  if (it != ticket_model_answers.end()) return it->second;
  std::string why;
  const OrderQuestion q{atom, atom, pb.instr, after, pb.write, a_writes, pb.instr == atom, acquire_prefix};
  const auto answers = model_orders(q, why);
  if (acquire_prefix.empty() && std::any_of(answers.begin(), answers.end(), [](const auto& a) { return !a.has_value(); }))
    ticket_unanswered.try_emplace(atom, why);
  return ticket_model_answers.emplace(key, answers).first->second;
}

bool KernelCheck::ticket_model_orders_somewhere(std::uint32_t atom, const Access& pb, std::uint32_t after, bool a_writes, bool with_fence) {
  const auto& answers = model_ticket_orders(atom, pb, after, a_writes, with_fence ? kThreadFence : "");
  return std::any_of(answers.begin(), answers.end(), [](const auto& a) { return a == true; });
}

// A site can order something only when the model orders some access before T before some access after it (a write
// and a read of data), or when another write reaches the counter (the reset its increments precede): the others
// (most atomic counters) are not asked about.
bool KernelCheck::ticket_useful(const TicketSite& site, const Access& counter) {
  for (const Access& x : T1.accesses)
    if (x.instr != site.atom && x.write && !never_conflict(x, counter)) return true;
  for (const Access& b : T1.accesses) {
    if (b.instr == site.atom || b.async) continue;
    Access write = b;
    write.write = true;
    for (const Access& a : T1.accesses)
      if (a.instr != site.atom && !a.async && ticket_model_orders_somewhere(site.atom, write, a.instr, false, false)) return true;
  }
  return false;
}

}  // namespace ptxcheck::race
