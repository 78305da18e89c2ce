// The vocabulary of the IR: fundamental types (ISA 5.2), state spaces (ISA 5.1), and the enumerations that
// instruction qualifiers decode into (rounding, comparison, atomic operation, memory semantics, scope...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptx::ir {

// ISA 5.2.1 fundamental types, plus the packed and alternate floating formats of 5.2.5.
enum class ScalarType : std::uint8_t {
  pred, b8, b16, b32, b64, b128, u8, u16, u32, u64, s8, s16, s32, s64,
  f16, f16x2, bf16, bf16x2, tf32, f32, f64, e4m3, e5m2, e4m3x2, e5m2x2, e2m1x2, e2m3x2, e3m2x2, ue8m0x2,
  e4m3x4, e5m2x4, e2m3x4, e3m2x4, e2m1x4,  // the four-element packed formats of 5.2.4.1 table 9 (cvt.rs, 9.7.9.21)
  s16x2, u16x2, s8x4, u8x4, texref, samplerref, surfref,
  u4, s4, u2, s2,  // sub-byte integers: cvt.pack's .convertType (9.7.9.22) and mma's operands
  f32x2  // two .f32 in a .b64: add, sub, mul, fma (9.7.3.3-9.7.3.6, sm_100)
};
std::optional<ScalarType> scalar_type_from_name(std::string_view name);
const char* scalar_type_name(ScalarType t);
unsigned scalar_bits(ScalarType t);  // pred counts as 1 bit (stored in a byte)
bool is_signed_int(ScalarType t);
bool is_unsigned_int(ScalarType t);  // .u types
bool is_bit_type(ScalarType t);      // .b types
bool is_integer(ScalarType t);       // .b/.u/.s
bool is_float(ScalarType t);

struct Type {
  ScalarType scalar = ScalarType::b32;
  std::uint8_t vector = 1;  // 1, 2, 4 or 8 elements
  unsigned bits() const { return scalar_bits(scalar) * vector; }
  unsigned size_bytes() const { return scalar == ScalarType::pred ? 1 : (scalar_bits(scalar) * vector + 7) / 8; }
  bool operator==(const Type&) const = default;
};
std::string type_name(const Type& t);

// ISA 5.1 state spaces; `generic` is an address that is none of them (ISA 5.1.1, 6.4.1).
enum class StateSpace : std::uint8_t { reg, sreg, const_, global, local, param, shared, shared_cluster, tex, generic };
std::optional<StateSpace> state_space_from_name(std::string_view name);
const char* state_space_name(StateSpace s);

enum class Rounding : std::uint8_t { rn, rz, rm, rp, rna, rs, rni, rzi, rmi, rpi };
enum class CompareOp : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : std::uint8_t { and_, or_, xor_ };
enum class AtomOp : std::uint8_t { and_, or_, xor_, cas, exch, add, inc, dec, min, max };
// The qualifier word of each comparison and atomic operation (`lt`, `exch`), and the one a word names.
const char* compare_op_name(CompareOp c);
std::optional<CompareOp> compare_op_from_name(std::string_view name);
const char* atom_op_name(AtomOp o);
std::optional<AtomOp> atom_op_from_name(std::string_view name);
// ISA 8.4: memory operation strength / fence semantics.
enum class MemorySemantics : std::uint8_t { weak, relaxed, acquire, release, acq_rel, sc, volatile_, mmio };
// The qualifier word of each (`volatile` for volatile_), and the semantics a word names.
const char* memory_semantics_name(MemorySemantics s);
std::optional<MemorySemantics> memory_semantics_from_name(std::string_view name);
// ISA 8.5: scopes (thread < cta < cluster < gpu < sys).
enum class Scope : std::uint8_t { cta, cluster, gpu, sys };

// Every other qualifier word the IR understands. A word in none of these groups is rejected by the checker.
enum class Flag : std::uint8_t {
#define PTX_FLAG(id, word) id,
#include "semantics/ir/flags.def"
#undef PTX_FLAG
};
std::optional<Flag> flag_from_name(std::string_view name);
const char* flag_name(Flag f);

// ISA 10: special registers.
enum class SpecialRegister : std::uint8_t {
  tid, ntid, laneid, warpid, nwarpid, ctaid, nctaid, smid, nsmid, gridid, lanemask_eq, lanemask_le, lanemask_lt,
  lanemask_ge, lanemask_gt, clock, clock64, clock_hi, pm, envreg, globaltimer, globaltimer_lo, globaltimer_hi,
  total_smem_size, aggr_smem_size, dynamic_smem_size, reserved_smem_offset_begin, reserved_smem_offset_end,
  reserved_smem_offset_cap, reserved_smem_offset_0, reserved_smem_offset_1, current_graph_exec, clusterid,
  nclusterid, cluster_ctaid, cluster_nctaid, cluster_ctarank, cluster_nctarank, is_explicit_cluster
};
// "%tid" -> tid; "%pm3" -> pm (index 3). Components (.x) are split off before the lookup.
std::optional<SpecialRegister> special_register_from_name(std::string_view name, unsigned* index = nullptr);
const char* special_register_name(SpecialRegister s);

// A reference to a variable: a module global or a variable of the current function.
struct VarRef {
  enum class Where : std::uint8_t { None, Global, Param, Return, Local };
  Where where = Where::None;
  std::uint32_t index = 0;
  bool operator==(const VarRef&) const = default;
};

}  // namespace ptx::ir
