// Renderings of a litmus Result: herd7-style text, one JSON object, and a Graphviz picture of a witness.
#pragma once

#include "litmus/enumerate/enumerate.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace ptxcheck::litmus {

std::string render_text(const Result& r);
nlohmann::json render_json(const Result& r);
std::string render_dot(const Result& r, const FinalState& s);

}  // namespace ptxcheck::litmus
