// The flag model's comparisons with the C++ rule (checker/race/flag_model.hpp), tallied and printed, against the
// documented disagreements of checker/race/flag_model_disagreements.tsv; read by tests/unit/race/test_flag_model.cpp
// and the race corpus driver (PTXCHECK_FLAG_MODEL=1).
#pragma once

#include "checker/race/flag_model.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
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
  std::set<std::string> sites, distinct;  // flag sites (W -> R, located); distinct disagreement keys
};

// Prints every unanswered comparison and every disagreement, then one summary line.
inline Tally tally(const std::vector<FlagComparison>& all, std::ostream& os) {
  const auto known = documented();
  Tally t;
  t.comparisons = all.size();
  for (const auto& c : all) {
    t.sites.insert(c.kernel + " " + c.site);
    if (!c.model) {
      ++t.unanswered;
      os << fmt::format("flag model unanswered: {} {} b={} a={} ({}): {}\n", c.kernel, c.site, c.producer, c.consumer,
                        ptxcheck::race::nearness_name(c.nearness), c.why);
    } else if (*c.model == c.cxx) {
      ++t.agree;
    } else {
      const bool doc = known.count(key(c)) > 0;
      ++t.disagree;
      t.undocumented += !doc;
      t.distinct.insert(key(c));
      os << fmt::format("flag model disagreement{}: {} {} b={} a={}\n  {}\n", doc ? " (documented)" : "", c.kernel, c.site, c.producer,
                        c.consumer, key(c));
    }
  }
  os << fmt::format("flag model beside the C++ rule: {} flag sites with a compared pair, {} comparisons (pair x place): {} agree, "
                    "{} disagree ({} distinct, {} undocumented), {} unanswered\n",
                    t.sites.size(), t.comparisons, t.agree, t.disagree, t.distinct.size(), t.undocumented, t.unanswered);
  return t;
}
}  // namespace flag_comparisons
