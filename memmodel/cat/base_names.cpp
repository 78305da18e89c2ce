// The base sets and relations that every execution graph provides to a cat model (the vocabulary shared by
// litmus/build, both evaluators and the models; see models/NOTES.md for their meaning).
#include "memmodel/cat/parse.hpp"

namespace ptxcheck::cat {

static const std::set<std::string> kSets = {
    "R", "W", "M", "F", "IW", "RMW", "RED", "RLX", "REL", "ACQ", "ACQ_REL", "SC", "WEAK", "VOL", "GEN", "SUR", "TEX",
    "CON", "ASYNC", "ALIAS", "PROXYF", "BAR", "CTA", "CLUSTER", "GPU", "SYS"};
static const std::set<std::string> kRels = {"po", "rf", "co", "rmw", "loc", "vloc", "po-loc", "sr", "incl", "scta",
                                            "syncbar", "sync_fence", "addr", "data", "ctrl", "id", "int", "ext"};

const std::set<std::string>& base_names() {
  static const std::set<std::string> all = [] {
    std::set<std::string> s = kSets;
    s.insert(kRels.begin(), kRels.end());
    return s;
  }();
  return all;
}

bool is_base_set(const std::string& name) { return kSets.count(name) != 0; }

}  // namespace ptxcheck::cat
