// The clusterlaunchcontrol forms (launch_control_form.hpp), from the syntax blocks of ISA 9.7.13.17-18.
#include "semantics/ir/launch_control_form.hpp"

#include "semantics/ir/types.hpp"

#include <vector>

namespace ptx::ir {
namespace {

// The instruction's type words in order, as names ("pred", "b32", "b128").
std::vector<std::string> type_names(const Instruction& in) {
  std::vector<std::string> names;
  for (const auto& t : in.q.types) names.push_back(scalar_type_name(t.scalar));
  return names;
}

std::string try_cancel_error(const Instruction& in) {
  if (!in.q.has_word("async")) return "try_cancel is written .try_cancel.async";
  if (!in.q.has_word("mbarrier::complete_tx::bytes")) return "try_cancel names its completion mechanism, .mbarrier::complete_tx::bytes";
  if (in.q.space && !in.q.has_word("shared::cta") && !in.q.has_word("shared")) return "try_cancel's state space is .shared::cta";
  if (type_names(in) != std::vector<std::string>{"b128"}) return "try_cancel names the type .b128";
  return "";
}

std::string query_cancel_error(const Instruction& in) {
  const auto types = type_names(in);
  if (in.q.has_word("is_canceled"))
    return types == std::vector<std::string>{"pred", "b128"} ? "" : "query_cancel.is_canceled is written .is_canceled.pred.b128";
  const bool whole = in.q.has_word("get_first_ctaid");
  const bool one = in.q.has_word("get_first_ctaid::x") || in.q.has_word("get_first_ctaid::y") || in.q.has_word("get_first_ctaid::z");
  if (whole == one) return "query_cancel names one of .is_canceled, .get_first_ctaid and .get_first_ctaid::x/y/z";
  if (types != std::vector<std::string>{"b32", "b128"}) return "query_cancel.get_first_ctaid names the types .b32.b128";
  if (whole != (in.q.vector_width == 4)) return whole ? "query_cancel.get_first_ctaid is written .v4.b32.b128" : "get_first_ctaid::x/y/z takes no vector";
  return "";
}

}  // namespace

std::string launch_control_form_error(const Instruction& in) {
  if (in.op != Opcode::clusterlaunchcontrol_) return "";
  const bool try_cancel = in.q.has_word("try_cancel"), query = in.q.has_word("query_cancel");
  std::string why;
  if (try_cancel == query) why = "clusterlaunchcontrol names one of .try_cancel and .query_cancel";
  else why = try_cancel ? try_cancel_error(in) : query_cancel_error(in);
  if (why.empty()) return "";
  return "not a form of clusterlaunchcontrol: " + why + (query ? " (ISA 9.7.13.18)" : " (ISA 9.7.13.17)");
}

}  // namespace ptx::ir
