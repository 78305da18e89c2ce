// Renderings of a litmus Result: herd7-style text, one JSON object, and a Graphviz picture of a witness.
#pragma once

#include "litmus/enumerate/enumerate.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace ptxcheck::litmus {

std::string render_text(const Result& r);
nlohmann::json render_json(const Result& r);
// Graphviz picture of a final state's witness: one column (cluster) per thread, initial writes on top,
// po / rf / co / fr / sync edges labelled.
std::string render_dot(const Result& r, const FinalState& s);
// The inverse of render_json (witnesses are not serialised); throws nlohmann::json::exception.
Result result_from_json(const nlohmann::json& j);

}  // namespace ptxcheck::litmus
