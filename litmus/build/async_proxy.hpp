// The litmus engine's reading of the asynchronous proxy (ISA 8.6, 8.9.1.1, 9.7.9.25.2; memmodel/models/NOTES.md,
// "Async proxy"): `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size` copies the value at src to dst
// as a weak read and a weak write through the async proxy; `cp.async.bulk.commit_group` and
// `cp.async.bulk.commit_group` and `cp.async.bulk.wait_group{.read} N` complete it (9.7.9.25.6): it is an operation
// of its own, ordered after the thread's prior instructions and before what follows a wait_group that completes it
// (8.9.1.1; threads.cpp `run_bulk_group_copy`, mm::async_edge_from in memmodel/graph/bulk_copy_events.hpp).
// `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]` copies the same way
// and then performs complete-tx of `size` on mbar (9.7.9.25.4.1; NOTES.md, "mbarrier"), in program order: since
// asynchronous operations "are not part of the program order" of their thread (8.9.1.1), such a copy is taken only
// as its thread's last memory instruction.
#pragma once

#include "litmus/build/threads.hpp"

namespace ptxcheck::litmus {

enum class BulkCell { none, copy, copy_mbarrier, commit, wait };
// What an instruction cell is in the bulk-copy family; `why` says why a form of it is refused (BulkCell::none).
BulkCell bulk_cell(const Instr& in, std::string& why);
inline bool is_bulk_copy(BulkCell c) { return c == BulkCell::copy || c == BulkCell::copy_mbarrier; }
// A copy_mbarrier cell's operands: [dst], [src], size, [mbar].
constexpr std::size_t kBulkMbarrierOperand = 3;

// Static checks of the tests with bulk copies: a copy completing on an mbarrier is followed in its thread by bulk
// copies and commit_group / wait_group cells only, and no thread of another CTA touches a location an async-proxy access touches (chapter 8 does not decide
// how fence.proxy.async orders the accesses of different CTAs). A copy completing on an mbarrier also needs every
// thread on that object in its CTA, and nothing before it in its thread that its complete-tx, placed in program
// order, would order though 8.9.1.1 says it does not (mbarrier_copy_issue_ok). False with a located diagnostic.
bool check_async_proxy(const Test& t, const Program& p, std::vector<Diagnostic>& diags);

}  // namespace ptxcheck::litmus
