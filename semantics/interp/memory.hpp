// The interpreter's memory: one byte-addressed generic address space (ISA 5.1, 6.4.1 generic addressing) in
// which global and const allocations sit at their own addresses and the per-CTA shared and per-thread local
// and param spaces appear through fixed windows. Every access is bounds-checked against one allocation.
#pragma once

#include "semantics/ir/ir.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptx::interp {

// Windows of the generic address space (all below 2^32 so that `.address_size 32` modules work too).
inline constexpr std::uint64_t kGlobalBase = 0x10000000;    // first global/const allocation
inline constexpr std::uint64_t kSharedWindow = 0xC0000000;  // generic = window + shared-space address
inline constexpr std::uint64_t kLocalWindow = 0xD0000000;   // generic = window + local-space address
inline constexpr std::uint64_t kParamWindow = 0xE0000000;   // generic = window + param-space address
inline constexpr std::uint64_t kWindowSize = 0x10000000;
// The local-space address the alloca stack (ISA 9.7.17) grows down from, above every frame's local and param bytes
// (which grow up from 0), inside the local window and within 32 bits (alloca.u32), and how far it may grow.
inline constexpr std::uint64_t kAllocaTop = 0x08000000;
inline constexpr std::uint64_t kAllocaLimit = 0x01000000;  // 16 MiB a thread
// The .shared::cluster window (docs/clusters.md, ISA 5.1.4): in a cluster of more than one CTA, rank r's shared
// memory is at r * kDsmemStride + offset, and those are also its .shared::cta addresses (its window inside the
// cluster window). The rank is in bits 24-27, as on the hardware: the CTAs of a CTA pair (9.7.16.5.1) differ in
// bit 24, which CUTLASS clears to name the even CTA's object. A CTA's shared memory must fit in kDsmemStride bytes.
inline constexpr std::uint64_t kDsmemStride = 0x1000000;  // 16 MiB; 16 ranks fill kWindowSize
constexpr std::uint64_t dsmem_address(std::uint32_t rank, std::uint64_t offset) { return rank * kDsmemStride + offset; }
inline constexpr std::uint64_t kFunctionBase = 0xF0000000;  // "address" of function i (mov r, f; calls through r)

// Global (and const) memory: named allocations with a guard gap between them, so that an access past one
// allocation's end never lands in the next one.
class GlobalMemory {
 public:
  struct Region {
    std::string name;
    std::uint64_t base = 0;
    std::uint64_t size = 0;           // bytes asked for
    std::vector<std::uint8_t> bytes;  // size + the memory's slack, or the backing asked for if more; zero-filled
    std::uint64_t reach = 0;          // bytes an access may touch: size + the memory's slack
    bool read_only = false;  // stores fault (allocate's read_only)
    bool covers(std::uint64_t addr, std::uint64_t n) const { return addr >= base && addr - base <= size && n <= size - (addr - base); }
  };
  // Bytes after every later allocation that accesses may reach without an error (see Options::gpu_slack_bytes).
  void set_slack(std::uint64_t bytes) { slack_ = bytes; }
  // Returns the base address of a new allocation of `size` bytes (zero-filled), aligned to `align`; 0 when it
  // would reach the generic windows (kSharedWindow), i.e. the memory is full. `backing`: bytes the allocation holds
  // and no other allocation shares, beyond those an access may reach (managed memory's whole pages). `phase`
  // (below `align`): the base is phase modulo align (registered host memory keeps its host address's page offset).
  // `read_only`: a store to it is an out-of-bounds fault (host memory registered read-only for the device).
  std::uint64_t allocate(std::string name, std::uint64_t size, std::uint64_t align = 256, bool read_only = false, std::uint64_t backing = 0,
                         std::uint64_t phase = 0);
  // Frees the allocation starting at `base` (cudaFree); false when no allocation starts there.
  bool release(std::uint64_t base);
  // The region holding [addr, addr+size) within its reach (size plus slack), or null when the access is out of bounds.
  Region* find(std::uint64_t addr, std::uint64_t size);
  const std::vector<Region>& regions() const { return regions_; }
  Region& region(std::size_t i) { return regions_[i]; }
  std::uint64_t bytes_allocated() const;

 private:
  std::vector<Region> regions_;
  std::uint64_t next_ = kGlobalBase;
  std::size_t last_ = 0;  // the region of the previous access (accesses cluster)
  std::uint64_t slack_ = 0;
};

// A variable's alignment: its `.align`, else its element's size (ISA 5.4.5).
inline std::uint64_t variable_alignment(const ir::Variable& v) {
  const std::uint64_t a = v.align ? v.align : v.type.size_bytes();
  return a ? a : 1;
}

// Managed memory (cudaMallocManaged, `.attribute(.managed)` variables, ISA 5.4.8) has the same address on the host,
// where ptxcheck exec maps it: whole pages of its own backing, so that no other allocation shares a mapped page;
// device accesses may reach only its size (plus the slack), as for any other allocation.
inline constexpr std::uint64_t kManagedPage = 4096;
inline std::uint64_t managed_bytes(const ir::Variable& v) {
  return (std::max<std::uint64_t>(v.size_bytes(), 1) + kManagedPage - 1) / kManagedPage * kManagedPage;
}

// The generic address of address `a` of state space `s` (the windows above).
constexpr std::uint64_t generic_address(ir::StateSpace s, std::uint64_t a) {
  switch (s) {
    case ir::StateSpace::shared: case ir::StateSpace::shared_cluster: return kSharedWindow + a;
    case ir::StateSpace::local: return kLocalWindow + a;
    case ir::StateSpace::param: return kParamWindow + a;
    default: return a;
  }
}

// Places the module's global and const variables in `memory` with their initializers and the addresses their
// initializers name (ISA 5.4.4); `address[g]` becomes the address of module global g (others are left as they
// are: shared variables are offsets the machine assigns). False when the memory is full.
bool place_module_globals(GlobalMemory& memory, const ir::Module& module, std::vector<std::uint64_t>& address);

// Device memory that outlives one launch (ptxcheck exec: cudaMalloc'd memory and `__device__` variables): the
// launches of a program share it through Options::device. A module's global and const variables are placed and
// initialised once (ISA 5.4.4), at its first launch or symbol lookup, and keep their values between launches.
struct DeviceMemory {
  GlobalMemory memory;
  std::map<const void*, std::vector<std::uint64_t>> module_globals;  // ir::Module* -> address per module global
};

}  // namespace ptx::interp
