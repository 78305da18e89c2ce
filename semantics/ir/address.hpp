// How an address operand `[reg+immOff]` / `[var+immOff]` / `[immAddr]` is summed (PTX ISA 9.0 6.4.1): one rule for
// the interpreter, its fast path and the race encoder.
#pragma once

#include <cstdint>

namespace ptx::ir {

// ISA 6.4.1: "The address size may be either 32-bit or 64-bit ... Addresses are zero-extended to the specified width
// as needed". A register of 32 bits or fewer holds a 32-bit address, so `[reg+immOff]` is summed modulo 2^32 and then
// zero-extended (nvcc's `sub.s32 %r7, temp_storage, 16*tid; st.shared [%r7+1008]` relies on the wrap); a 64-bit
// register's sum is modulo 2^64.
inline unsigned address_bits(unsigned base_register_bits) { return base_register_bits <= 32 ? 32 : 64; }

// The byte address of `[base+offset]` with a base of `base_bits` (immOff is a signed 32-bit constant).
inline std::uint64_t address_sum(std::uint64_t base, unsigned base_bits, std::int64_t offset) {
  const std::uint64_t sum = base + static_cast<std::uint64_t>(offset);
  return address_bits(base_bits) == 32 ? (sum & 0xffff'ffffULL) : sum;
}

}  // namespace ptx::ir
