// Bulk copies in the async proxy (async_proxy.hpp).
#include "litmus/build/async_proxy.hpp"

#include "litmus/build/cell_text.hpp"
#include "memmodel/graph/base_graph.hpp"

#include <map>
#include <set>

namespace ptxcheck::litmus {

BulkCell bulk_cell(const Instr& in, std::string& why) {
  const std::string& op = in.opcode;
  if (op.rfind("cp.", 0) != 0) return BulkCell::none;
  const std::string name = "'" + op + "'";
  if (op == "cp.async.bulk.commit_group") return BulkCell::commit;
  if (op == "cp.async.bulk.wait_group" || op == "cp.async.bulk.wait_group.read") return BulkCell::wait;
  if (op == "cp.async.bulk.global.shared::cta.bulk_group") {
    if (in.operands.size() != 3) return why = name + " expects 3 operands", BulkCell::none;
    return BulkCell::copy;
  }
  // The copies into shared memory complete through an mbarrier's tx-count (9.7.9.25.4.1), which the litmus engine
  // does not model; tensor, reduction, multicast and cache-hint forms neither.
  why = "unsupported instruction " + name +
        " (of the bulk copies, the litmus engine models cp.async.bulk.global.shared::cta.bulk_group only)";
  return BulkCell::none;
}

bool check_async_proxy(const Test& t, const Program& p, std::vector<Diagnostic>& diags) {
  auto refuse = [&](const Instr& in, const std::string& why) {
    diags.push_back(make_diagnostic(t.text, t.file, in.offset, why));
    return false;
  };
  std::vector<mm::ThreadPlace> places;
  for (const auto& th : p.threads) places.push_back(mm::ThreadPlace{th.cta, th.cluster, th.gpu});
  std::map<int, std::pair<int, const Instr*>> async_access;  // physical location -> (thread, its copy)
  std::vector<std::set<int>> touched(p.threads.size());      // per thread: the locations its cells name
  for (std::size_t ti = 0; ti < p.threads.size(); ++ti) {
    const Instr* copy = nullptr;
    for (const Instr& in : p.threads[ti].code) {
      std::string why;
      const BulkCell kind = bulk_cell(in, why);
      if (!why.empty()) return refuse(in, why);
      for (const auto& o : in.operands)
        if (auto it = p.vloc_of.find(strip_brackets(o)); it != p.vloc_of.end()) {
          touched[ti].insert(p.phys_of[it->second]);
          if (kind == BulkCell::copy) async_access.emplace(p.phys_of[it->second], std::pair{static_cast<int>(ti), &in});
        }
      if (copy && kind != BulkCell::commit && kind != BulkCell::wait && kind != BulkCell::copy)
        return refuse(in, "'" + in.opcode + "' after a bulk copy in the same thread: asynchronous operations are not part of "
                          "program order (ISA 8.9.1.1), which the litmus engine models only for a thread's last copies");
      if (kind == BulkCell::copy) copy = &in;
    }
  }
  for (const auto& [loc, where] : async_access)
    for (std::size_t tj = 0; tj < p.threads.size(); ++tj)
      if (touched[tj].count(loc) && !mm::scope_includes(mm::Scope::cta, places, where.first, static_cast<int>(tj)))
        return refuse(*where.second, "'" + p.pnames[loc] + "' is accessed through the async proxy and by another CTA: chapter 8 "
                      "does not decide how fence.proxy.async orders accesses of different CTAs (8.9.5 names same-proxy "
                      "causality only \"by the same thread block\"; 9.7.13.4 gives proxy fences no scope); not answered");
  return true;
}

}  // namespace ptxcheck::litmus
