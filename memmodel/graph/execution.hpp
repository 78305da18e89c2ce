// One concrete execution graph as the cat evaluators see it: a number of events plus named base sets
// (R, W, F, RLX, GEN, ...) and named base relations (po, rf, co, loc, sr, ...), filled by litmus/build.
#pragma once

#include "memmodel/graph/relation.hpp"

#include <map>
#include <string>
#include <vector>

namespace ptxcheck::mm {

struct Execution {
  int n = 0;
  std::vector<std::string> labels;  // one per event, for explanations and pictures
  std::map<std::string, Set> sets;
  std::map<std::string, Rel> rels;
};

}  // namespace ptxcheck::mm
