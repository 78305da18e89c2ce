// The race and barrier-divergence check of one kernel (PTX ISA 9.0 8.7.1): two distinct symbolic threads, every
// pair of overlapping conflicting accesses that is not morally strong and not ordered by a CTA barrier.
#pragma once

#include "checker/race/assume.hpp"
#include "checker/race/budget.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/support/resource_guard.hpp"

#include <array>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::race {

struct Options {
  std::optional<std::array<std::uint32_t, 3>> block, grid;  // fixed launch shape, else symbolic
  QueryBudget query;                                      // per solver call (budget.hpp); short queries get a part
  unsigned max_queries = 20000;                           // solver calls per kernel
  unsigned max_races = 32;
  bool x_only = false;  // symbolic shapes are one-dimensional (y = z = 1), as Faial assumes without --all-dims
  bool block_level = false;  // only pairs of threads of one CTA (Faial's default, without --grid-level)
  // A function declared without a body returns fresh values, writes no memory and has no barrier (GPUVerify's
  // treatment of bodiless functions); otherwise a call of one is unsupported (unknown).
  bool assume_pure_externs = false;
  // Per kernel, in CPU seconds of the checking thread (Z3 included; not wall time, so that a loaded machine gives the
  // same verdicts); past it the answer is unknown. Every stage holds it: encoding, loop summaries, search, replay.
  double max_seconds = 60;
  double max_wall_seconds = 300;  // per kernel, a backstop for a starved process; 0: none
  std::vector<Assumption> assumptions;  // preconditions on the arguments and the launch shape (assume.hpp)
  bool replay = true;  // run race witnesses on the interpreter, marking those it exhibits confirmed (replay.hpp)
  // The resident memory of the whole process (Z3 included) while a kernel is checked, and Z3's own cap; past it:
  // unknown. The default fits a laptop.
  unsigned memory_mb = 4096;
  ResourceLimits limits() const { return {max_seconds, max_wall_seconds, memory_mb}; }
};

// The unknown reason for a Z3 exception (its memory cap reached, or canceled).
std::string z3_failure(const std::string& z3_message, const Options& o);

struct Where {
  std::string file;      // CUDA source from `.loc`, empty when none
  std::string ptx_file;  // the PTX the instruction is in: the user's .ptx file, or "FILE.cu (nvcc output)"
  std::uint32_t line = 0, column = 0, ptx_line = 0;
  std::string text() const;
  // What identifies a race's access for "one report per race": the CUDA position, else the PTX line (one source
  // line may become several PTX instructions).
  std::string key() const;
};
// A race's identity for "one report per race": both accesses' Where::key, in order, whichever came first.
using RaceKey = std::pair<std::string, std::string>;
RaceKey race_key(const Where& a, const Where& b);

// "(x,y,z)": a thread index or a launch shape as reports print it.
template <typename Int>
std::string dims_text(const std::array<Int, 3>& d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

struct ThreadIds {
  std::array<std::uint64_t, 3> tid{}, ctaid{};
  std::string text() const { return "ctaid " + dims_text(ctaid) + " tid " + dims_text(tid); }
};

struct AccessReport {
  std::uint32_t instr = 0;
  std::string kind;      // read, write, atomic
  std::string strength;  // weak, or relaxed/volatile/atomic with the scope
  std::string space;     // global, shared, generic
  std::string object;    // parameter or variable, "?" unknown
  std::string argument;  // for a kernel parameter, the C++ argument it is ("argument 2, int*"); else empty
  // The object and offset as the CUDA source names them (describe.hpp cuda_object_name): "block_sum::s[16]",
  // "argument 2 (out)[7]"; empty when the object is unknown.
  std::string cuda_name;
  std::int64_t offset = 0;
  unsigned size = 0;
  std::string opcode;
  Where where;
};

// What the interpreter needs to replay a symbolic race (replay.hpp): the launch shape and the kernel arguments of
// the solver's model. Parameters the kernel uses as pointers are replayed as buffers.
struct Witness {
  std::array<std::uint32_t, 3> block{1, 1, 1}, grid{1, 1, 1};
  struct Arg {
    std::uint64_t value = 0;
    unsigned bits = 0;
  };
  std::map<std::string, std::map<std::uint32_t, Arg>> args;  // parameter -> byte offset -> value there
  std::set<std::string> pointers;                            // parameters used as pointers
  // What the two threads' loads from pointer parameters' buffers return in the solver's model (memory is an input
  // of the symbolic engine): a replay may start with these words in place.
  struct Word {
    std::string param;
    std::uint64_t offset = 0, value = 0;
    unsigned bytes = 0;
  };
  std::vector<Word> loaded;
  // For the report: the launch shape and the integer arguments ("block (64,1,1), grid (1,1,1), arg3 = 16"), others as
  // their bytes ("arg5+4 = 0x7").
  std::string text;
};

struct RaceReport {
  AccessReport first, second;
  ThreadIds t1, t2;
  bool possible = false;  // not replayed and an unmodelled ordering may exist
  std::string note;
  bool confirmed = false;  // seen in an execution on the interpreter (the dynamic engine, or a replayed witness)
  std::optional<Witness> witness;  // the symbolic engine's
};

struct DivergenceReport {
  std::uint32_t instr = 0;
  Where where;
  std::string condition;  // the thread-dependent branch or guard it diverges under, with its location
  ThreadIds t1, t2;
  bool t1_reaches = false;
  std::string note;  // how it was seen (the dynamic engine: where the other thread went instead)
};

struct KernelResult {
  std::string kernel;
  enum class Verdict { race_free, race, unknown } verdict = Verdict::race_free;
  std::vector<RaceReport> races;
  std::vector<DivergenceReport> divergences;
  std::vector<std::string> unknown_reasons;
  std::vector<std::string> unsupported;  // "opcode at file:line"
  std::vector<std::string> notes;        // what was abstracted (loops, aliasing assumptions)
  unsigned queries = 0;
  double seconds = 0;      // wall
  double cpu_seconds = 0;  // of the checking thread, Z3 included
};

KernelResult check_kernel(const ptx::ir::Module& m, const ptx::ir::Function& f, const Options& o);

// When the memory model could not be asked which operations release and acquire (model_rules_problem), its
// unanswered questions were taken as "no ordering", so a race found may be an ordering the model gives: not evidence
// for a definite verdict, in either engine (a replay's confirmation uses the same answers). The note is added, and a
// race verdict without a barrier divergence (which the model does not decide) becomes unknown with that reason.
void account_for_unanswered_model(KernelResult& k);

}  // namespace ptxcheck::race
