// Name tables for the IR vocabulary (types.hpp): one table per enumeration, used in both directions.
#include "semantics/ir/types.hpp"

#include <array>
#include <utility>
#include <initializer_list>

namespace ptx::ir {
namespace {
struct ScalarInfo {
  const char* name;
  unsigned bits;
  char kind;  // p b u s f (float) o (opaque)
};
constexpr std::array<ScalarInfo, 46> kScalars{{
    {"pred", 1, 'p'},   {"b8", 8, 'b'},     {"b16", 16, 'b'},     {"b32", 32, 'b'},    {"b64", 64, 'b'},
    {"b128", 128, 'b'}, {"u8", 8, 'u'},     {"u16", 16, 'u'},     {"u32", 32, 'u'},    {"u64", 64, 'u'},
    {"s8", 8, 's'},     {"s16", 16, 's'},   {"s32", 32, 's'},     {"s64", 64, 's'},    {"f16", 16, 'f'},
    {"f16x2", 32, 'f'}, {"bf16", 16, 'f'},  {"bf16x2", 32, 'f'},  {"tf32", 32, 'f'},   {"f32", 32, 'f'},
    {"f64", 64, 'f'},   {"e4m3", 8, 'f'},   {"e5m2", 8, 'f'},     {"e4m3x2", 16, 'f'}, {"e5m2x2", 16, 'f'},
    {"e2m1x2", 8, 'f'}, {"e2m3x2", 16, 'f'}, {"e3m2x2", 16, 'f'}, {"ue8m0x2", 16, 'f'},
    {"e4m3x4", 32, 'f'}, {"e5m2x4", 32, 'f'}, {"e2m3x4", 32, 'f'}, {"e3m2x4", 32, 'f'}, {"e2m1x4", 16, 'f'},
    {"s16x2", 32, 's'},
    {"u16x2", 32, 'u'}, {"s8x4", 32, 's'},  {"u8x4", 32, 'u'},    {"texref", 64, 'o'}, {"samplerref", 64, 'o'},
    {"surfref", 64, 'o'}, {"u4", 4, 'u'},     {"s4", 4, 's'},       {"u2", 2, 'u'},      {"s2", 2, 's'},
    {"f32x2", 64, 'f'},
}};
const ScalarInfo& info(ScalarType t) { return kScalars[static_cast<std::size_t>(t)]; }

constexpr std::array kSpaces{"reg", "sreg", "const", "global", "local", "param", "shared",
                                              "shared::cluster", "tex", "generic"};
constexpr std::array kFlagNames{
#define PTX_FLAG(id, word) word,
#include "semantics/ir/flags.def"
#undef PTX_FLAG
};
constexpr std::array kSpecials{
    "tid", "ntid", "laneid", "warpid", "nwarpid", "ctaid", "nctaid", "smid", "nsmid", "gridid", "lanemask_eq",
    "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt", "clock", "clock64", "clock_hi", "pm", "envreg",
    "globaltimer", "globaltimer_lo", "globaltimer_hi", "total_smem_size", "aggr_smem_size", "dynamic_smem_size",
    "reserved_smem_offset_begin", "reserved_smem_offset_end", "reserved_smem_offset_cap", "reserved_smem_offset_0",
    "reserved_smem_offset_1", "current_graph_exec", "clusterid", "nclusterid", "cluster_ctaid", "cluster_nctaid",
    "cluster_ctarank", "cluster_nctarank", "is_explicit_cluster"};
}  // namespace

std::optional<ScalarType> scalar_type_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kScalars.size(); ++i)
    if (name == kScalars[i].name) return static_cast<ScalarType>(i);
  return std::nullopt;
}
const char* scalar_type_name(ScalarType t) { return info(t).name; }
unsigned scalar_bits(ScalarType t) { return info(t).bits; }
bool is_signed_int(ScalarType t) { return info(t).kind == 's'; }
bool is_unsigned_int(ScalarType t) { return info(t).kind == 'u'; }
bool is_bit_type(ScalarType t) { return info(t).kind == 'b'; }
bool is_integer(ScalarType t) { char k = info(t).kind; return k == 'b' || k == 'u' || k == 's'; }
bool is_float(ScalarType t) { return info(t).kind == 'f'; }

std::string type_name(const Type& t) {
  std::string s = t.vector > 1 ? ".v" + std::to_string(t.vector) + " " : "";
  return s + "." + scalar_type_name(t.scalar);
}

std::optional<StateSpace> state_space_from_name(std::string_view name) {
  if (name == "shared::cta") return StateSpace::shared;
  if (name == "param::entry") return StateSpace::param;  // the kernel's parameters (ld, cvta, isspacep: 9.7.9.8, 9.7.9.19-20)
  for (std::size_t i = 0; i < kSpaces.size(); ++i)
    if (name == kSpaces[i] && i != static_cast<std::size_t>(StateSpace::generic)) return static_cast<StateSpace>(i);
  return std::nullopt;
}
const char* state_space_name(StateSpace s) { return kSpaces[static_cast<std::size_t>(s)]; }

namespace {
constexpr std::array<const char*, 8> kSemantics = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio"};
}
const char* memory_semantics_name(MemorySemantics s) { return kSemantics[static_cast<std::size_t>(s)]; }
std::optional<MemorySemantics> memory_semantics_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kSemantics.size(); ++i)
    if (name == kSemantics[i]) return static_cast<MemorySemantics>(i);
  return std::nullopt;
}

namespace {
constexpr std::array<const char*, 18> kCompareOps = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
                                                     "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
constexpr std::array<const char*, 10> kAtomOps = {"and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min", "max"};
}  // namespace
const char* compare_op_name(CompareOp c) { return kCompareOps[static_cast<std::size_t>(c)]; }
std::optional<CompareOp> compare_op_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kCompareOps.size(); ++i)
    if (name == kCompareOps[i]) return static_cast<CompareOp>(i);
  return std::nullopt;
}
const char* atom_op_name(AtomOp o) { return kAtomOps[static_cast<std::size_t>(o)]; }
std::optional<AtomOp> atom_op_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kAtomOps.size(); ++i)
    if (name == kAtomOps[i]) return static_cast<AtomOp>(i);
  return std::nullopt;
}

std::optional<Flag> flag_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kFlagNames.size(); ++i)
    if (name == kFlagNames[i]) return static_cast<Flag>(i);
  return std::nullopt;
}
const char* flag_name(Flag f) { return kFlagNames[static_cast<std::size_t>(f)]; }

std::optional<SpecialRegister> special_register_from_name(std::string_view name, unsigned* index) {
  if (name.empty() || name[0] != '%') return std::nullopt;
  name.remove_prefix(1);
  for (std::size_t i = 0; i < kSpecials.size(); ++i)
    if (name == kSpecials[i]) return static_cast<SpecialRegister>(i);
  // %pm0..%pm7, %envreg0..%envreg31
  struct Indexed { const char* prefix; SpecialRegister reg; unsigned limit; };
  for (auto [prefix, reg, limit] : {Indexed{"pm", SpecialRegister::pm, 8u}, Indexed{"envreg", SpecialRegister::envreg, 32u}}) {
    std::string_view p(prefix);
    if (name.substr(0, p.size()) == p && name.size() > p.size()) {
      unsigned n = 0;
      for (char c : name.substr(p.size())) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + unsigned(c - '0');
      }
      if (n >= limit) return std::nullopt;
      if (index) *index = n;
      return reg;
    }
  }
  return std::nullopt;
}
const char* special_register_name(SpecialRegister s) { return kSpecials[static_cast<std::size_t>(s)]; }

}  // namespace ptx::ir
