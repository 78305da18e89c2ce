// One thread's symbolic execution of a kernel for the race checker: registers are Z3 terms over the thread's
// ids, the launch shape and the kernel arguments; loads and unmodelled results are fresh symbols, and a loop
// header havocs what the loop modifies (induction variables as init + k*step). Collects accesses and barriers.
#pragma once

#include "checker/race/broadcast.hpp"
#include "checker/race/cfg.hpp"
#include "checker/race/uniform.hpp"

#include <z3++.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace ptxcheck::race {

// What a value loaded from shared memory is called in ThreadEncoding::abstracted: shared memory is no input of a
// launch, its content was written by the kernel (or is undefined), which the encoding does not follow.
inline const std::string shared_load_note = "values loaded from shared memory (written by the kernel, not followed by the encoding)";

// Which memory an address points into, as far as the instruction and the data flow tell.
enum class Space : std::uint8_t { unknown, global, shared, local, param, const_ };
const char* space_name(Space s);

// A kernel argument's bytes at `offset` are the Z3 constant "arg.NAME+OFFSET", one for every thread; a witness
// reads the launch's arguments back from the model through these names.
std::string argument_symbol(const std::string& param, std::int64_t offset);
// The allocation a 64-bit field of a struct argument points into: "PARAM@OFFSET".
std::string field_object_name(const std::string& param, std::int64_t offset);
// The parameter and byte offset an argument symbol names; nullopt for any other constant.
std::optional<std::pair<std::string, std::uint32_t>> parse_argument_symbol(const std::string& symbol);

// An allocation an address is derived from: a pointer parameter or a declared variable.
struct Object {
  std::string name;
  Space space = Space::unknown;
  std::string base_symbol;  // the Z3 constant holding its start address
};

struct Access {
  std::uint32_t instr = 0;
  bool read = false, write = false, atomic = false;
  bool strong = false;                         // relaxed/acquire/release/volatile or atomic (ISA 8.4)
  ptx::ir::Scope scope = ptx::ir::Scope::gpu;  // meaningful when strong
  Space space = Space::unknown;
  int object = -1;                             // index into Encoding::objects, -1 = unknown
  z3::expr addr;                               // 64-bit byte address
  unsigned size = 0;                           // bytes
  z3::expr pc;                                 // executed by this thread
  std::optional<z3::expr> value;               // a scalar load: the symbol it returns (before any guard)
  std::optional<z3::expr> stored;              // a scalar st: the value it writes
  bool async = false;                          // a cp.async's: in flight from `instr` to its completion (async_copy.hpp)
  // A wmma.load/store's: the warp's lanes together access every element of the matrix, which lane which the spec
  // leaves open (ISA 9.7.14.4.1), so each thread's access is an arbitrary element (`addr`).
  bool collective = false;
  // With a block-scope pipeline (pipeline.hpp): the thread's arrives on its "full" and "empty" arrays before this
  // access (32-bit counts), else empty.
  std::vector<z3::expr> pipeline_arrives;
};

// The value an integer `atom.add` returned (ISA 9.7.13.5): with every write to its location such an add of a
// non-negative amount, the location only grows, so by Atomicity (8.10) two such operations of distinct threads
// that are morally strong take disjoint ranges [ret, ret + inc), as long as the counter does not wrap around (an
// assumption the report states).
struct CounterRead {
  std::uint32_t instr = 0;
  int object = -1;
  z3::expr addr, ret, inc, pc;
  ptx::ir::Scope scope = ptx::ir::Scope::gpu;
};

// An integer scalar `atom` or `red` (ISA 9.7.13.5-6): the value it read (an atom's result; a fresh symbol for a red)
// and the value it wrote in its place. A thread's atomic read what the other thread's atomic wrote when they are
// adjacent in the location's coherence order (8.10 Atomicity): check_search.cpp asks a race's witness for that before
// calling the race certain.
struct AtomicUpdate {
  std::uint32_t instr = 0;
  z3::expr addr, ret, written, pc;
  int object = -1;                         // as Access::object
  std::optional<z3::expr> compare, swap;   // atom.cas's operands b and c
  ptx::ir::Scope scope = ptx::ir::Scope::gpu;
  std::optional<std::uint32_t> via;        // one of writer_updates: the broadcast store or shuffle that forwarded it
  std::vector<z3::expr> forwarder_tid;     // ... and the tid of the thread that ran it (in this thread's CTA)
};

// An integer `atom`/`red` add of a scalar (the only writes a counter may have, when the amount is non-negative).
bool integer_add(const ptx::ir::Instruction& in);
// An integer add of a positive immediate below half the type's range.
bool positive_add(const ptx::ir::Instruction& in);

// Opcodes whose only effect is on registers (or nothing at all): modelled as values or fresh symbols.
bool register_only(ptx::ir::Opcode op);
// The warp-collective matrix loads and stores the encoding models as memory accesses: ldmatrix/stmatrix .m8n8 .b16,
// wmma.load/wmma.store of the shapes of ISA 9.7.14.4 (wmma_geometry).
bool matrix_memory_op(const ptx::ir::Instruction& in);
// Instructions on registers only beyond register_only's opcodes: wmma.mma (its results are not modelled).
bool matrix_register_op(const ptx::ir::Instruction& in);
// Whether the encoding models this instruction (a call aside: the inliner decides those); any other makes a
// kernel's verdict `unknown`, naming it. Also `ptxcheck coverage`'s race column.
bool encodable(const ptx::ir::Instruction& in);

// The matrix a wmma.load/wmma.store accesses (ISA 9.7.14.4.1-4): `lines` rows (.row) or columns (.col) of
// `line_length` elements of `element_bits`, the lines `stride` elements apart (operand `stride_operand`, else
// line_length); nullopt for another instruction or a shape or type it does not know.
struct WmmaGeometry {
  bool load = false;
  unsigned lines = 0, line_length = 0, element_bits = 0;
  std::size_t address_operand = 0;
  int stride_operand = -1;
};
std::optional<WmmaGeometry> wmma_geometry(const ptx::ir::Instruction& in);

struct Barrier {
  std::uint32_t instr = 0;
  z3::expr pc;
};

struct Unsupported {
  std::uint32_t instr = 0;
  std::string what;
};

// Symbols every thread of the launch shares.
struct Launch {
  std::vector<z3::expr> ntid, nctaid;  // 32-bit x y z
};
// A fixed dimension is a numeral (so that index arithmetic folds to constants before bit-blasting), an open
// one a symbol.
using Shape = std::optional<std::array<std::uint32_t, 3>>;
Launch make_launch(z3::context& c, const Shape& block, const Shape& grid);
// The shapes a launch may have: dimensions at least 1, a symbolic one within what a GPU launches and what f's
// .reqntid / .maxntid allow; `x_only`: a symbolic shape's y and z are 1.
z3::expr launch_shape_constraints(const Launch& launch, const Shape& block, const Shape& grid, bool x_only, const ptx::ir::Function& f);
// A thread's linear id in its CTA, by which warps are formed (ISA 2.2: x fastest, then y, then z): warp lin / 32,
// lane lin % 32.
z3::expr linear_tid(const std::vector<z3::expr>& tid, const Launch& l);

struct ThreadEncoding {
  std::vector<z3::expr> tid, ctaid;  // 32-bit x y z
  std::vector<Access> accesses;
  std::vector<Barrier> barriers;
  std::vector<Barrier> mbarrier_inits;  // each mbarrier.init and when the thread runs it
  std::map<std::uint32_t, z3::expr> warp_masks;  // each bar.warp.sync -> its membermask as the thread passes it
  std::vector<CounterRead> counters;
  std::vector<AtomicUpdate> updates;  // every integer scalar atom and red
  std::map<std::uint32_t, z3::expr> add_amounts;  // every integer atom/red add (integer_add) -> the amount it adds
  // The counter reads a value forwarded from another thread is computed from, as that thread made them: a
  // shared-memory broadcast's writing thread (Encoder::broadcast_value) or a shuffle's source lane
  // (Encoder::shuffle). `via` is the broadcast store or the shuffle; `instance` names the forwarding thread's run of
  // it within its CTA: the iteration of the loops around it, and for a shuffle the source thread's tid. Two
  // reads of one add via one forwarding instruction are distinct operations unless the CTAs and instances are equal.
  struct WriterCounter {
    CounterRead read;
    std::uint32_t via;
    std::vector<z3::expr> instance;
  };
  std::vector<WriterCounter> writer_counters;
  // The forwarding threads' atomic updates a forwarded value is computed from (as writer_counters).
  std::vector<AtomicUpdate> writer_updates;
  // Every popc this thread executes: its operand and its result (check_encode.cpp's popcount_order relates them).
  struct Popcount {
    z3::expr bits, count;
  };
  std::vector<Popcount> popcounts;
  std::vector<z3::expr> facts;  // what holds of the symbols above in every execution (the writers' tids are in range)
  // Every lane's bit of each ballot (vote.sync.ballot), from that lane's predicate: true in every execution too, but
  // they slow most queries down, so check_query.cpp asks them only of a pair whose model breaks them.
  std::vector<z3::expr> lane_facts;
  std::vector<z3::expr> traps;  // when the thread executes each `trap`, which aborts the launch (ISA 9.7.19.4)
  std::map<int, z3::expr> k;  // loop (index into Cfg::loops) -> this thread's iteration symbol (64-bit)
  // Loop with one back edge -> when iteration k is this thread's last (the back edge not taken there: its condition
  // at the values of iteration k; what the body computes that the encoding does not follow is left open).
  std::map<int, z3::expr> last_iteration;
  // Loop -> when this thread enters it (reaches its header from outside): the path condition there.
  std::map<int, z3::expr> entered;
  std::vector<z3::expr> argument_reads;  // the argument symbols (argument_symbol) its ld.param instructions read
  unsigned fresh_symbols = 0;  // how many symbols of its own the encoding made
  // The symbols of its own it made in code outside every loop, in the order made: values the thread computes once
  // (loads, shuffles, results the encoding does not model). Two encodings of one kernel make them in the same order.
  std::vector<z3::expr> once_symbols;
  // Fresh symbols that stand for values the encoding does not model rather than for inputs (memory contents,
  // arguments, the launch): results of unmodelled register-only instructions (float arithmetic, activemask,
  // bar.red) and operands it cannot read, by symbol id with the instruction that made it. A race whose
  // accesses depend on one may not happen in any execution.
  std::map<unsigned, std::string> abstracted;  // symbol id -> opcode
};

// Static facts shared by both threads' encodings.
struct Prepared {
  Cfg cfg;
  Uniformity uni;
  Uniformity warp_uni;  // within a warp (warp-level instructions pair up their lanes' runs where it is not divergent)
  std::vector<Object> objects;
  std::vector<int> prov;  // register -> object (>= 0), -1 unknown pointer, -2 not a pointer
  std::vector<Unsupported> unsupported;
  std::map<std::uint32_t, Broadcast> broadcasts;  // shared-memory loads that read one value per CTA (broadcast.hpp)
};
// The ids of the uninterpreted constants (not numerals) a term is built from.
std::unordered_set<unsigned> constants_of(const z3::expr& e);

// Thread t's access by instruction `instr` (nullptr when it has none).
const Access* access_of(const ThreadEncoding& t, std::uint32_t instr);
// Thread t's own atomic update by instruction `instr` (ThreadEncoding::updates; nullptr when it has none).
const AtomicUpdate* update_of(const ThreadEncoding& t, std::uint32_t instr);

// `calls`: the call instructions left in f that are not modelled, with the reason (inline.hpp's Inlined::unsupported);
// every other call left in f is one the inliner kept as pure (no memory written, fresh results).
Prepared prepare(const ptx::ir::Module& m, const ptx::ir::Function& f, const std::map<std::uint32_t, std::string>& calls);

ThreadEncoding encode_thread(z3::context& c, const ptx::ir::Module& m, const ptx::ir::Function& f, const Prepared& p,
                             const Launch& launch, int thread);

}  // namespace ptxcheck::race
