// The cp.async forms (async_copy_form.hpp), from the syntax blocks of ISA 9.7.9.25.3-4 and 9.7.13.15.15.
#include "semantics/ir/async_copy_form.hpp"

#include "semantics/ir/types.hpp"
#include "semantics/ir/word_sets.hpp"

#include <string_view>
#include <vector>

namespace ptx::ir {
namespace {

// The state-space words as written, in order (`shared::cluster`, `global`).
std::vector<std::string> spaces_of(const Instruction& in) {
  std::vector<std::string> spaces;
  for (const auto& w : in.q.words)
    if (state_space_word(w)) spaces.push_back(w);
  return spaces;
}

bool is_cta_window(const std::string& w) { return w == "shared" || w == "shared::cta"; }

// 9.7.9.25.4.1's four blocks: global -> shared::cta and global -> shared::cluster (.mbarrier::complete_tx::bytes,
// .multicast::cluster only for the latter), shared::cta -> shared::cluster (the same mechanism), shared::cta -> global
// (.bulk_group).
std::string bulk_copy_error(const Instruction& in, const std::vector<std::string>& spaces) {
  const bool mbarrier = in.q.has_word("mbarrier::complete_tx::bytes"), group = in.q.has_word("bulk_group");
  if (mbarrier == group) return "cp.async.bulk names one completion mechanism, .mbarrier::complete_tx::bytes or .bulk_group";
  if (spaces.size() != 2) return "cp.async.bulk names a destination and a source state space";
  const std::string &dst = spaces[0], &src = spaces[1];
  const bool from_global = src == "global" && (dst == "shared::cta" || dst == "shared::cluster");
  const bool cta_to_cluster = dst == "shared::cluster" && src == "shared::cta";
  const bool to_global = dst == "global" && src == "shared::cta";
  if (!from_global && !cta_to_cluster && !to_global)
    return "." + dst + "." + src + " is no destination and source of cp.async.bulk";
  if (to_global != group) return to_global ? "a copy to .global completes through .bulk_group" : "a copy to shared memory completes through .mbarrier::complete_tx::bytes";
  if (in.q.has_word("multicast::cluster") && !(from_global && dst == "shared::cluster"))
    return ".multicast::cluster is a qualifier of the copy from .global to .shared::cluster only";
  return "";
}

std::string decode(const Instruction& in) {
  if (!in.q.has_word("async")) return "every cp form writes .async";
  const bool bulk = in.q.has_word("bulk"), reduce = in.q.has_word("reduce");
  const bool controls = in.q.has_word("commit_group") || in.q.has_word("wait_group") || in.q.has_word("wait_all");
  const bool arrive = in.q.has_word("mbarrier") && in.q.has(Flag::arrive);
  const auto spaces = spaces_of(in);
  if (arrive) {  // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]; (9.7.13.15.15)
    if (in.q.types.size() != 1 || in.q.types[0].scalar != ScalarType::b64) return "cp.async.mbarrier.arrive names one type, .b64";
    if (spaces.size() > 1 || (spaces.size() == 1 && !is_cta_window(spaces[0]))) return "cp.async.mbarrier.arrive takes .shared{::cta} only";
    return "";
  }
  if (!in.q.types.empty() && !reduce) return "this cp form takes no type (only cp.reduce.async.bulk and cp.async.mbarrier.arrive do)";
  if (controls) return spaces.empty() ? "" : "the group controls take no state space";
  if (bulk || reduce) {
    if (!bulk || reduce || in.q.has_word("tensor") || in.q.has_word("prefetch")) return "";  // beyond this check
    return bulk_copy_error(in, spaces);
  }
  // cp.async.ca / .cg.shared{::cta}.global (9.7.9.25.3.1)
  if (in.q.has_word("ca") == in.q.has_word("cg")) return "cp.async names one of .ca and .cg";
  if (spaces.size() != 2 || !is_cta_window(spaces[0]) || spaces[1] != "global") return "cp.async copies .shared{::cta}.global";
  return "";
}

}  // namespace

std::string async_copy_form_error(const Instruction& in) {
  if (in.op != Opcode::cp_) return "";
  const std::string why = decode(in);
  return why.empty() ? "" : "not a form of cp: " + why + " (ISA 9.7.9.25)";
}

}  // namespace ptx::ir
