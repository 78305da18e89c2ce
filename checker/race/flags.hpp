// Message passing through a flag for the symbolic race check: which accesses a flag orders between two threads.
//
// A flag site is a strong scalar store W (in no loop) and a strong scalar load R of the same size in the same
// buffer, a pointer argument (`data = 42; __threadfence(); *flag = 1;` in a producer, `while (*flag == 0) {}
// __threadfence(); use(data);` in a consumer). An access b of the producer may be released by W when b precedes W
// in program order, an access a of the consumer acquired by R when a follows R and is in no loop around R.
//
// When the consumer runs a, its R read a value that the flag's initial content (`--assume 'arg2[0] == 0'`,
// assume.hpp) and every other write that may reach the location cannot have given (check_flags.cpp asks the solver,
// with a's path condition), so R read W's value, written by the one thread that runs W at that location (W has one
// writer per location, also asked). Whether b then precedes a in causality order (the patterns of 8.8 between b and
// W and between R and a, their scopes, the places of the two threads: 8.6, 8.9.4 item 4, 8.9.5) is the memory
// model's answer on a litmus test built for the pair (flag_model.hpp, issue 33); this file keeps the sites and the
// structure (precedes_write, follows_read). proofs/model.cpp checks the argument's litmus form
// (model.flag_orders_message*).
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

}  // namespace ptxcheck::race
