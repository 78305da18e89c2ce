// Message passing through a flag for the symbolic race check: which accesses a flag orders between two threads.
//
// A flag site is a strong scalar store W (in no loop) and a strong scalar load R of the same size in the same
// buffer, a pointer argument (`data = 42; __threadfence(); *flag = 1;` in a producer, `while (*flag == 0) {}
// __threadfence(); use(data);` in a consumer). An access b of the producer is released by W when b precedes W in
// program order and a release pattern (ISA 8.8: a release fence on every path from b to W, or W a release
// operation) lies between; an access a of the consumer is acquired by R when every path from R to a passes an
// acquire pattern (an acquire fence, or R an acquire operation) and a is in no loop around R.
//
// Why b then precedes a in causality order: when the consumer runs a, its R read a value that the flag's initial
// content (`--assume 'arg2[0] == 0'`, assume.hpp) and every other write that may reach the location cannot have
// given (check_flags.cpp asks the solver, with a's path condition), so R read W's value, written by the one thread that
// runs W at that location (W has one writer per location, also asked). If that thread is the producer, W and R
// morally strong (8.6) and the patterns' first and last operations too, the release pattern synchronizes with the
// acquire pattern (8.9.4 item 4) and b -> release -> acquire -> a in base causality order (8.9.5).
// proofs/model.cpp checks the litmus form of this (model.flag_orders_message*).
//
// Which pairs the flag orders, and in which places of the two threads, is the memory model's answer on a litmus test
// built for the pair (flag_model.hpp, issue 33); this file keeps the sites and the structure (precedes_write,
// follows_read). release_scope / acquire_scope are the former C++ rule, kept only as the reference that
// tests/unit/race/test_flag_model.cpp and `PTXCHECK_FLAG_MODEL=1 corpus_race` compare the model with.
#pragma once

#include "checker/race/encode.hpp"

#include <optional>
#include <vector>

namespace ptxcheck::race {

struct FlagSite {
  std::uint32_t write = 0, read = 0;  // W and R
  int object = -1;                    // the flag's buffer (Prepared::objects), a pointer parameter
};

// The candidate sites of a kernel, from one thread's encoding (its accesses tell strength, size and buffer).
std::vector<FlagSite> find_flag_sites(const ptx::ir::Function& f, const Prepared& p, const ThreadEncoding& t);

// The structure a flag's ordering needs, which the model cannot see: b precedes the site's W whenever both run;
// a comes after the site's R and is in no loop around it (the R that a waited for is the last one before it).
bool precedes_write(const Cfg& g, const FlagSite& site, std::uint32_t b);
bool follows_read(const Cfg& g, const FlagSite& site, std::uint32_t a);

// The scope of the release pattern that orders access b before the site's W (the wider of a fence's on every path
// from b to W and W's own when it is a release), when b always precedes W; nullopt when none does.
std::optional<ptx::ir::Scope> release_scope(const ptx::ir::Function& f, const Cfg& g, const FlagSite& site, std::uint32_t b);
// The scope of the acquire pattern that orders the site's R before access a (as release_scope), when a is after R
// and in no loop around R; nullopt when none does.
std::optional<ptx::ir::Scope> acquire_scope(const ptx::ir::Function& f, const Cfg& g, const FlagSite& site, std::uint32_t a);

}  // namespace ptxcheck::race
