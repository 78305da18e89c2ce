// The atomic operations and fences of a CUDA source file, as the programmer wrote them: kind, memory
// order, thread scope and position. Found by a Spirit X3 scanner (scan.cpp is the one X3 unit here).
#pragma once

#include "semantics/support/diagnostic.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::abi {

// The C++ operations of ptx-interoperability-13.0 chapter 4 (`atomic_<rmw op>` is Rmw).
enum class OpKind : std::uint8_t { Load, Store, Rmw, Fence };
// std::memory_order; consume is kept so the report can say it was promoted to acquire.
enum class Order : std::uint8_t { relaxed, consume, acquire, release, acq_rel, seq_cst };
// cuda::thread_scope (thread < block < cluster < device < system).
enum class ThreadScope : std::uint8_t { thread, block, cluster, device, system };
// The read-modify-write operation, as the PTX `atom` operation it must become (fetch_sub is an add).
enum class RmwOp : std::uint8_t { none, add, sub, and_, or_, xor_, min, max, exch, cas, inc, dec };

struct SourceOp {
  std::uint32_t line = 0, column = 0;  // 1-based, in the scanned file
  OpKind kind = OpKind::Load;
  RmwOp rmw = RmwOp::none;
  Order order = Order::seq_cst;
  ThreadScope scope = ThreadScope::system;
  std::string api;     // how it was written: "a.load", "atomicAdd_block", "__threadfence", "volatile load"
  bool volatile_access = false;  // a volatile access (ISA 8.4.2), not a C++ atomic
};

struct ScanResult {
  std::vector<SourceOp> ops;  // in source order
  std::vector<Diagnostic> notes;  // constructs recognised but not understood (e.g. an unknown scope)
};

// Scans CUDA C++ text (comments and string literals skipped) for the operations above.
ScanResult scan_cuda_source(const std::string& text, const std::string& file);

const char* order_name(Order o);
const char* scope_name(ThreadScope s);
const char* kind_name(OpKind k);
const char* rmw_name(RmwOp r);
// `atomic_load(seq_cst, device)`, `atomic_fetch_add(relaxed, block)`, `atomic_thread_fence(acquire, system)`.
std::string describe(const SourceOp& op);

}  // namespace ptxcheck::abi
