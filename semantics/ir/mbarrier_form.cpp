// The mbarrier forms (mbarrier_form.hpp), from the syntax blocks of ISA 9.7.13.15.9-17.
#include "semantics/ir/mbarrier_form.hpp"

#include "semantics/ir/types.hpp"
#include "semantics/ir/word_sets.hpp"


namespace ptx::ir {
namespace {

struct Allowed {
  const char* what;       // the operation, for messages
  const char* section;    // its section of 9.7.13.15
  unsigned scopes;        // the .scope words it lists: 0 none, 1 .cta, 2 .cta and .cluster
  bool cluster_space;     // .shared::cluster besides .shared{::cta}
  bool space;             // any state space at all
};

// Each operation's block: init and inval `{.shared{::cta}}.b64`; expect_tx and complete_tx `{.sem}{.scope}{.space}`
// with .sem = {.relaxed} and both shared windows; arrive and arrive_drop `{.sem}{.scope}` with .sem = {.release,
// .relaxed}, .noComplete only `{.release}{.cta}` in the CTA's window; test_wait and try_wait .sem = {.acquire,
// .relaxed} in the CTA's window; pending_count `.b64` alone.
Allowed allowed(const Instruction& in) {
  switch (mbarrier_op(in)) {
    case MbarrierOp::init: return {"mbarrier.init", "9.7.13.15.9", 0, false, true};
    case MbarrierOp::inval: return {"mbarrier.inval", "9.7.13.15.10", 0, false, true};
    case MbarrierOp::expect_tx: return {"mbarrier.expect_tx", "9.7.13.15.11", 2, true, true};
    case MbarrierOp::complete_tx: return {"mbarrier.complete_tx", "9.7.13.15.12", 2, true, true};
    case MbarrierOp::arrive: {
      const bool drop = in.q.has_word("arrive_drop");
      const char* section = drop ? "9.7.13.15.14" : "9.7.13.15.13";
      if (in.q.has_word("noComplete")) return {"mbarrier.arrive.noComplete", section, 1, false, true};
      return {drop ? "mbarrier.arrive_drop" : "mbarrier.arrive", section, 2, true, true};
    }
    case MbarrierOp::wait: return {"mbarrier.test_wait / try_wait", "9.7.13.15.16", 2, false, true};
    case MbarrierOp::pending_count: return {"mbarrier.pending_count", "9.7.13.15.17", 0, false, false};
    default: return {"", "", 0, false, false};
  }
}

}  // namespace

std::string mbarrier_form_error(const Instruction& in) {
  if (in.op != Opcode::mbarrier_) return "";
  const Allowed a = allowed(in);
  if (!*a.what) return "";  // no operation named: the IR checker's check_form says so
  const std::string where = std::string(" (ISA ") + a.section + ")";
  if (in.q.types.size() != 1 || in.q.types[0].scalar != ScalarType::b64) return std::string(a.what) + " names one type, .b64" + where;
  for (const auto& w : in.q.words) {  // (a second space is the IR checker's qualifier-class rule)
    if (!state_space_word(w)) continue;
    if (!a.space) return std::string(a.what) + " takes no state space" + where;
    if (w != "shared" && w != "shared::cta" && !(a.cluster_space && w == "shared::cluster"))
      return "'." + w + "' is no state space of " + a.what + where;
  }
  // .sem: misc_forms.hpp's memory_order_error, the one table of memory orders per instruction.
  if (!in.q.scope) return "";
  const Scope scope = *in.q.scope;
  const bool listed = (scope == Scope::cta && a.scopes >= 1) || (scope == Scope::cluster && a.scopes >= 2);
  if (listed) return "";
  for (const auto& w : in.q.words)
    if (scope_word(w)) return "'." + w + "' is no .scope of " + a.what + where;
  return "";
}

}  // namespace ptx::ir
