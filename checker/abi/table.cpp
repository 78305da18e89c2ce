// The chapter-4 rows, transcribed from ptx-interoperability-13.0.txt lines 279-310 (sequentially
// consistent, release, acquire, acquire-release and relaxed tables), and the strength order of its note.
#include "checker/abi/table.hpp"

namespace ptxcheck::abi {
namespace {
using S = MemorySemantics;
using C = PtxClass;
constexpr Step fence(S s) { return {C::fence, s}; }
constexpr Step ld(S s) { return {C::ld, s}; }
constexpr Step st(S s) { return {C::st, s}; }
constexpr Step atom(S s) { return {C::atom, s}; }
}  // namespace

std::optional<Row> table_row(OpKind kind, Order order) {
  if (order == Order::consume) order = Order::acquire;
  switch (kind) {
    case OpKind::Fence:
      switch (order) {
        case Order::seq_cst: return Row{"atomic_thread_fence(memory_order_seq_cst)", {{fence(S::sc)}}};
        case Order::release: return Row{"atomic_thread_fence(memory_order_release)", {{fence(S::release)}}};
        case Order::acquire: return Row{"atomic_thread_fence(memory_order_acquire)", {{fence(S::acquire)}}};
        case Order::acq_rel: return Row{"atomic_thread_fence(memory_order_acq_rel)", {{fence(S::acq_rel)}}};
        // Not in chapter 4: C++ [atomics.fences] — a relaxed fence has no effect, so it needs no instruction.
        case Order::relaxed: return Row{"atomic_thread_fence(memory_order_relaxed)", {{}}};
        default: return std::nullopt;
      }
    case OpKind::Load:
      switch (order) {
        case Order::seq_cst:
          return Row{"atomic_load(memory_order_seq_cst)",
                     {{fence(S::sc), ld(S::acquire)}, {fence(S::sc), ld(S::relaxed), fence(S::acquire)}}};
        case Order::acquire:
          return Row{"atomic_load(memory_order_acquire)", {{ld(S::acquire)}, {ld(S::relaxed), fence(S::acquire)}}};
        case Order::relaxed: return Row{"atomic_load(memory_order_relaxed)", {{ld(S::relaxed)}}};
        default: return std::nullopt;
      }
    case OpKind::Store:
      switch (order) {
        case Order::seq_cst: return Row{"atomic_store(memory_order_seq_cst)", {{fence(S::sc), st(S::relaxed)}}};
        case Order::release:
          return Row{"atomic_store(memory_order_release)", {{st(S::release)}, {fence(S::release), st(S::relaxed)}}};
        case Order::relaxed: return Row{"atomic_store(memory_order_relaxed)", {{st(S::relaxed)}}};
        default: return std::nullopt;
      }
    case OpKind::Rmw:
      switch (order) {
        case Order::seq_cst:
          return Row{"atomic_<rmw op>(memory_order_seq_cst)",
                     {{fence(S::sc), atom(S::acquire)}, {fence(S::sc), atom(S::relaxed), fence(S::acquire)}}};
        case Order::release:
          return Row{"atomic_<rmw op>(memory_order_release)", {{atom(S::release)}, {fence(S::release), atom(S::relaxed)}}};
        case Order::acquire:
          return Row{"atomic_<rmw op>(memory_order_acquire)", {{atom(S::acquire)}, {atom(S::relaxed), fence(S::acquire)}}};
        case Order::acq_rel:
          return Row{"atomic_<rmw op>(memory_order_acq_rel)",
                     {{atom(S::acq_rel)},
                      {fence(S::release), atom(S::acquire)},
                      {fence(S::release), atom(S::relaxed), fence(S::acquire)}}};
        case Order::relaxed: return Row{"atomic_<rmw op>(memory_order_relaxed)", {{atom(S::relaxed)}}};
        default: return std::nullopt;
      }
  }
  return std::nullopt;
}

Scope ptx_scope(ThreadScope s) {
  switch (s) {
    case ThreadScope::thread:
    case ThreadScope::block: return Scope::cta;
    case ThreadScope::cluster: return Scope::cluster;
    case ThreadScope::device: return Scope::gpu;
    case ThreadScope::system: return Scope::sys;
  }
  return Scope::sys;
}

bool at_least(MemorySemantics have, MemorySemantics want) {
  if (have == want) return true;
  auto rank = [](S s) {
    switch (s) {
      case S::relaxed: case S::volatile_: case S::mmio: return 0;
      case S::acquire: case S::release: return 1;
      case S::acq_rel: return 2;
      case S::sc: return 3;
      default: return -1;  // weak: not a strong operation (ISA 8.4)
    }
  };
  int h = rank(have), w = rank(want);
  if (h < 0 || w < 0) return false;
  if (h == 1 && w == 1) return false;  // acquire and release are incomparable
  return h >= w;
}

std::string render(const Alternative& alt, Scope scope, const char* rmw_suffix) {
  static const char* scopes[] = {"cta", "cluster", "gpu", "sys"};
  static const char* classes[] = {"fence", "ld", "st", "atom"};
  if (alt.empty()) return "(no instruction)";
  std::string out;
  for (const auto& s : alt) {
    if (!out.empty()) out += "; ";
    out += std::string(classes[static_cast<int>(s.cls)]) + "." + ptx::ir::memory_semantics_name(s.sem) + "." + scopes[static_cast<int>(scope)];
    if (s.cls == PtxClass::atom && rmw_suffix && *rmw_suffix) out += std::string(".") + rmw_suffix;
  }
  return out;
}

}  // namespace ptxcheck::abi
