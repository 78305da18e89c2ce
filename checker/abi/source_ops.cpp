// Names of the source-level vocabulary (orders, scopes, operations) and the one-line description the
// report prints for a source operation, in the words of ptx-interoperability-13.0 chapter 4.
#include "checker/abi/source_ops.hpp"

namespace ptxcheck::abi {

const char* order_name(Order o) {
  static const char* names[] = {"relaxed", "consume", "acquire", "release", "acq_rel", "seq_cst"};
  return names[static_cast<int>(o)];
}
const char* scope_name(ThreadScope s) {
  static const char* names[] = {"thread", "block", "cluster", "device", "system"};
  return names[static_cast<int>(s)];
}
const char* kind_name(OpKind k) {
  static const char* names[] = {"load", "store", "rmw", "fence"};
  return names[static_cast<int>(k)];
}
const char* rmw_name(RmwOp r) {
  static const char* names[] = {"", "Add", "Sub", "And", "Or", "Xor", "Min", "Max", "Exch", "CAS", "Inc", "Dec"};
  return names[static_cast<int>(r)];
}

std::string describe(const SourceOp& op) {
  static const char* rmw_words[] = {"", "fetch_add", "fetch_sub", "fetch_and", "fetch_or", "fetch_xor",
                                    "fetch_min", "fetch_max", "exchange", "compare_exchange", "fetch_inc", "fetch_dec"};
  std::string name;
  switch (op.kind) {
    case OpKind::Load: name = op.volatile_access ? "volatile_load" : "atomic_load"; break;
    case OpKind::Store: name = op.volatile_access ? "volatile_store" : "atomic_store"; break;
    case OpKind::Rmw: name = std::string("atomic_") + rmw_words[static_cast<int>(op.rmw)]; break;
    case OpKind::Fence: name = "atomic_thread_fence"; break;
  }
  return name + "(" + order_name(op.order) + ", " + scope_name(op.scope) + ")";
}

}  // namespace ptxcheck::abi
