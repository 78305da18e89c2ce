// The flag and lock models' comparisons with the C++ rules (checker/race/flag_model.hpp, check_lock_model.cpp),
// tallied and printed, against the documented disagreements of checker/race/flag_model_disagreements.tsv; read by
// tests/unit/race/test_flag_model.cpp and the race corpus driver (PTXCHECK_FLAG_MODEL=1).
#pragma once

#include "checker/race/flag_model.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace flag_comparisons {
using ptxcheck::race::FlagComparison;

// `question<TAB>place<TAB>cxx<TAB>model<TAB>section` per line ('#' comments); the key leaves the section out.
inline std::set<std::string> documented() {
  std::ifstream in(std::filesystem::path(PTXCHECK_SOURCE_DIR) / "checker/race/flag_model_disagreements.tsv");
  std::set<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.insert(line.substr(0, line.rfind('\t')));
  return out;
}
inline std::string key(const FlagComparison& c) {
  return fmt::format("{}\t{}\t{}\t{}", c.question, ptxcheck::race::nearness_name(c.nearness), c.cxx ? "ordered" : "unordered",
                     c.model && *c.model ? "ordered" : "unordered");
}

struct Tally {
  std::size_t comparisons = 0, agree = 0, unanswered = 0, disagree = 0, undocumented = 0;
  std::set<std::string> sites, distinct;  // flag sites (W -> R) or lock site pairs, located; distinct disagreement keys
};

// The idiom a comparison is of: its site's first word for a ticket or a lock (check_ticket_model.cpp,
// check_lock_model.cpp), else a flag.
inline std::string idiom(const FlagComparison& c) {
  for (const char* x : {"ticket", "lock"})
    if (c.site.rfind(std::string(x) + " ", 0) == 0) return x;
  return "flag";
}

// Prints every unanswered comparison and every disagreement, then one summary line per idiom (flag, ticket, lock);
// the totals over all.
inline Tally tally(const std::vector<FlagComparison>& all, std::ostream& os) {
  const auto known = documented();
  Tally t;
  std::map<std::string, Tally> by_idiom;
  for (const auto& c : all) {
    for (Tally* x : {&t, &by_idiom[idiom(c)]}) {
      ++x->comparisons;
      x->sites.insert(c.kernel + " " + c.site);
      if (!c.model) ++x->unanswered;
      else if (*c.model == c.cxx) ++x->agree;
      else {
        ++x->disagree;
        x->undocumented += !known.count(key(c));
        x->distinct.insert(key(c));
      }
    }
    if (!c.model)
      os << fmt::format("{} model unanswered: {} {} b={} a={} ({}): {}\n", idiom(c), c.kernel, c.site, c.producer, c.consumer,
                        ptxcheck::race::nearness_name(c.nearness), c.why);
    else if (*c.model != c.cxx)
      os << fmt::format("{} model disagreement{}: {} {} b={} a={}\n  {}\n", idiom(c), known.count(key(c)) ? " (documented)" : "", c.kernel,
                        c.site, c.producer, c.consumer, key(c));
  }
  for (const auto& [idiom, x] : by_idiom)
    os << fmt::format("{} model beside the C++ rule: {} {} sites with a compared pair, {} comparisons (pair x place): {} agree, "
                      "{} disagree ({} distinct, {} undocumented), {} unanswered\n",
                      idiom, x.sites.size(), idiom, x.comparisons, x.agree, x.disagree, x.distinct.size(), x.undocumented, x.unanswered);
  return t;
}
}  // namespace flag_comparisons
