// The checked PTX IR: a module's functions, variables, typed registers and decoded instructions with
// resolved operands, label targets and the `.loc` source map. Built from the AST by ir::build (build.hpp).
#pragma once

#include "semantics/ir/types.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptx::ir {

enum class Opcode : std::uint16_t {
#define PTX_OPCODE(name, min_ops, max_ops, group, effect) name##_,
#include "semantics/ir/opcodes.def"
#undef PTX_OPCODE
};
const char* opcode_name(Opcode op);
std::optional<Opcode> opcode_from_name(std::string_view name);
// The ISA 9.7 group opcodes.def files an opcode under (engines decide what they model by group first).
enum class OpcodeGroup : std::uint8_t {
  integer_, float_, compare_, logic_, data_, warp_, memory_, convert_, matrix_, async_, texture_, control_, sync_, misc_, video_
};
OpcodeGroup opcode_group(Opcode op);

// A CUDA source position (from `.loc file line col`), with the chain of call sites it was inlined into.
struct SourcePos {
  std::uint32_t file = 0, line = 0, column = 0;
};
struct SourceLoc {
  SourcePos pos;                     // file 0 = no `.loc` seen yet
  std::vector<SourcePos> inlined_at;  // innermost call site first
  std::uint32_t ptx_line = 0;         // the instruction's line in the PTX text
};

// A register of a function: scalar or vector (`.reg .v4 .f32 v`).
struct Register {
  std::string name;
  Type type;
};

// Byte image of an initialized variable plus the addresses it holds (`generic(x)`, `x+8`).
struct Relocation {
  std::uint64_t offset = 0;  // byte offset inside the variable
  std::string symbol;
  std::int64_t addend = 0;
  bool generic = false;
  unsigned size = 8;  // bytes written
};

struct Variable {
  std::string name;
  StateSpace space = StateSpace::global;
  Type type;                     // element type
  std::uint64_t count = 1;       // elements (array product); 0 for an unsized `[]` (extern shared)
  std::uint32_t align = 0;       // 0 = natural
  bool is_extern = false, is_visible = false, is_weak = false;
  bool has_initializer = false;
  bool is_managed = false;  // .attribute(.managed): one address for host and device (ISA 5.4.8)
  bool is_unified = false;  // .attribute(.unified(uuid1, uuid2)): read-only, same address everywhere (ISA 5.4.8)
  std::vector<std::uint8_t> init;  // count * element size bytes when has_initializer
  std::vector<Relocation> relocations;
  std::uint32_t ptx_line = 0;
  std::uint64_t size_bytes() const { return count * type.size_bytes(); }
};

// A video operand's selector (ISA 9.7.18): unit 'b' (byte) or 'h' (half-word) and its digits in written order
// (`.b3210` -> 3, 2, 1, 0); unit 0 when the operand has none. What the digits mean depends on the instruction and
// the operand's position (semantics/ir/video_select.hpp); the builder has checked them.
struct VideoSelect {
  char unit = 0;
  std::uint8_t count = 0;
  std::array<std::uint8_t, 4> digit{};
  bool empty() const { return unit == 0; }
};

// An operand after name resolution.
struct Operand {
  enum class Kind : std::uint8_t {
    Register,     // reg: index into Function::registers; component: -1 or 0..3 for v.x/y/z/w
    Special,      // a special register (%tid.x ...): special + component
    Immediate,    // integer: imm (two's complement, 64 bits)
    FloatImm,     // imm holds the bits; is_f32 says which format
    Address,      // [base + offset]: base_kind says what the base is
    Vector,       // {a, b, ...}: elements
    Label,        // target: instruction index in the function
    Function,     // target: index into Module::functions
    Variable,     // a variable used as a value (its address): var
    Sink,         // `_`
    PredPair,     // p|q: reg and reg2
    List,         // (a, b): call argument lists
  };
  enum class BaseKind : std::uint8_t { None, Register, Variable, Immediate };

  Kind kind = Kind::Immediate;
  bool negated = false;  // !p
  bool minus = false;    // -a of vmad (ISA 9.7.18.1.3)
  bool is_f32 = false;
  VideoSelect select;    // %r2.b0, %r1.h10 (ISA 9.7.18)
  std::int8_t component = -1;
  BaseKind base_kind = BaseKind::None;
  std::int32_t reg = -1, reg2 = -1;
  std::int32_t target = -1;
  SpecialRegister special = SpecialRegister::tid;
  std::uint64_t imm = 0;
  std::int64_t offset = 0;
  VarRef var;  // Variable / Address with a variable base
  std::vector<Operand> elements;
};

// Decoded qualifiers: the words the IR understood, kept in source order too.
struct Qualifiers {
  std::vector<Type> types;  // type words in order (`cvt.f32.s32` -> f32, s32)
  std::optional<StateSpace> space;   // the first state-space word
  std::optional<StateSpace> space2;  // a second one (`cvta.to.global` has one; `cp.async.ca.shared.global` two)
  std::optional<Rounding> rounding;
  std::optional<CompareOp> compare;
  std::optional<BoolOp> bool_op;
  std::optional<AtomOp> atom_op;
  std::optional<MemorySemantics> semantics;
  std::optional<Scope> scope;
  std::uint8_t vector_width = 1;  // .v2 / .v4 / .v8
  std::vector<Flag> flags;        // every other known word
  std::vector<std::string> words;  // every qualifier as written, for printing and diagnostics

  bool has(Flag f) const;
  // Whether `w` is one of the qualifiers as written (for forms no Flag names: `commit_group`, `m16n8k32`).
  bool has_word(std::string_view w) const { return std::find(words.begin(), words.end(), w) != words.end(); }
};
// Decodes an instruction's qualifier words (`ld.relaxed.gpu.u32` -> relaxed, gpu, u32) into q; returns the words
// the ISA does not define for `op`, which callers report as errors.
std::vector<std::string> decode_qualifiers(Opcode op, const std::vector<std::string>& words, Qualifiers& q);

struct Instruction {
  Opcode op = Opcode::ret_;
  Qualifiers q;
  std::vector<Operand> operands;
  std::int32_t guard = -1;  // predicate register index, -1 = none
  bool guard_negated = false;
  SourceLoc loc;
};

// The non-bulk async copy and its group controls (ISA 9.7.9.25.3): `cp.async.{ca,cg}.shared{::cta}.global [dst],
// [src], cp-size ...`, `cp.async.commit_group`, `cp.async.wait_group N`, `cp.async.wait_all`. Bulk, tensor and
// mbarrier-completed forms are `none`.
struct Function;
enum class AsyncCopyRole : std::uint8_t { none, copy, commit, wait };
AsyncCopyRole async_copy_role(const Instruction& in);
// A wait's N (`cp.async.wait_group N`; 0 for `wait_all`, which commits first and then waits for every group).
std::uint32_t async_wait_pending(const Instruction& in);
// The groups an instruction commits: 1 for `commit_group` and for `wait_all` (a commit, then wait_group 0), else 0.
std::uint32_t async_commits(const Instruction& in);
// A copy's optional fourth operand (before a cache-policy): its src-size, or the ignore-src predicate. -1: none.
struct AsyncCopySource {
  int operand = -1;
  bool ignore_src = false;
};
AsyncCopySource async_copy_source(const Function& f, const Instruction& in);
// The mbarrier operation an instruction performs (ISA 9.7.13.15): `arrive` is mbarrier.arrive and arrive_drop (with
// or without .expect_tx), `copy_arrive` is `cp.async.mbarrier.arrive{.noinc}` (9.7.13.15.15: an arrive-on made
// once the thread's earlier cp.async copies complete).
enum class MbarrierOp : std::uint8_t { none, init, inval, arrive, expect_tx, complete_tx, wait, pending_count, copy_arrive };
MbarrierOp mbarrier_op(const Instruction& in);
// The operand that names the mbarrier object (1 for arrive and wait, which return a value first; else 0), or -1
// (none, pending_count: it reads a state register only).
int mbarrier_object_operand(MbarrierOp op);

// barrier.cluster.arrive / barrier.cluster.wait (ISA 9.7.13.3): the barrier of the thread's cluster, not a named
// CTA barrier.
bool is_cluster_barrier(const Instruction& in);
// The operands of a CTA barrier (ISA 9.7.13.1: bar{.cta}.sync a{, b}; bar{.cta}.arrive a, b;
// bar{.cta}.red.op d, a{, b}, {!}c): the positions of a, the barrier's name, and of b, its thread count (-1 when
// absent: every thread of the CTA). nullopt for bar.warp.sync and barrier.cluster, which name no CTA barrier. The
// builder has checked each form's operand count.
struct CtaBarrierOperands {
  std::size_t name = 0;
  int count = -1;
};
std::optional<CtaBarrierOperands> cta_barrier_operands(const Instruction& in);
// ISA 9.7.9.22 cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}: the converted width and signedness, for the forms
// the ISA lists (.u16/.s16 with two sources; .u2/.s2/.u4/.s4/.u8/.s8 with c of type .b32); nullopt for others.
struct CvtPackForm {
  unsigned size = 0;
  bool dst_signed = false;
};
std::optional<CvtPackForm> cvt_pack_form(const Instruction& in);

// The instruction's opcode with its qualifiers as written: "ld.global.u32", "cp.async.ca.shared.global".
std::string opcode_text(const Instruction& in);

struct Function {
  std::string name;
  bool is_entry = false;
  bool is_extern = false, is_visible = false, is_weak = false;
  bool has_body = false;
  bool body_elided = false;  // load_ptx built and checked the body, then left it out (LoadOptions::keep)
  std::vector<Variable> params;   // .param (or legacy .reg) parameters, in order
  std::vector<Variable> returns;  // return parameters
  std::vector<Variable> locals;   // .local/.shared/.param declared in the body
  std::vector<Register> registers;
  std::vector<Instruction> body;
  std::map<std::string, std::uint32_t> labels;  // label -> index of the next instruction
  std::map<std::string, std::vector<std::uint64_t>> performance;  // .maxntid 256,1,1 -> {256,1,1}
  std::map<std::string, std::string> prototypes;  // .callprototype label -> signature text
  std::map<std::string, std::vector<std::string>> branch_targets;  // .branchtargets label -> labels
  std::uint32_t ptx_line = 0;
};

struct Module {
  std::string file;
  std::uint32_t version_major = 0, version_minor = 0;
  std::vector<std::string> targets;
  std::uint32_t address_size = 32;  // ISA 11.1.3: 32 when `.address_size` is omitted
  std::vector<Variable> globals;  // module-scope variables of every state space
  std::vector<Function> functions;
  std::map<std::uint32_t, std::string> source_files;  // `.file` index -> path

  const Function* find_function(std::string_view name) const;
  const Variable* find_global(std::string_view name) const;
  // The kernels (`.entry`) of the module.
  std::vector<const Function*> kernels() const;
  // The kernels a user's `--kernel NAME` means: the one whose PTX name is NAME, else those whose C++ name
  // (kernel_cxx_name) is NAME with or without its parameter list (`b`, `ns::b`, `b(int*)` for `_ZN2ns1bEPi`,
  // `k<int>` or `k` for `_Z1kIiEvPi`); overloads and template instances give several.
  std::vector<const Function*> kernels_named(std::string_view name) const;
  // The error for a NAME that means no kernel (or several): it lists the module's kernels, C++ and PTX names.
  std::string no_single_kernel_named(std::string_view name) const;
};

// The C++ name a kernel's mangled PTX symbol stands for, as a user writes it: `_Z1bPi` -> `b(int*)`,
// `_Z1kIiEvPi` -> `k<int>(int*)` (a template instance's mangled `void` return type left out); the symbol itself
// if it is not mangled.
std::string kernel_cxx_name(std::string_view symbol);
// The C++ parameter types of a kernel's mangled PTX symbol, in order (`_Z1kPKiPi` -> `int const*`, `int*`); empty
// when the symbol is not mangled or has no parameters.
std::vector<std::string> kernel_cxx_parameter_types(std::string_view symbol);
// How reports and errors name a kernel: `b(int*) (PTX _Z1bPi)`, or the PTX name alone when it is not mangled.
std::string kernel_title(std::string_view symbol);

}  // namespace ptx::ir
