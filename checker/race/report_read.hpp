// Reading a race result back from the JSON that report.hpp's to_json writes, so that results written by separate
// runs (the shards of `ptxcheck race -p --shard I/N`) are rendered by the same to_text / to_sarif as one run's.
#pragma once

#include "checker/race/report.hpp"

namespace ptxcheck::race {

// The inverse of to_json: to_json(from_json(j)) == j for what to_json wrote (a witness's argument widths, which
// it does not write, stay 0). Throws nlohmann::json::exception on a missing "file" / "exit_code" or a value of
// the wrong type.
FileResult from_json(const nlohmann::json& j);

}  // namespace ptxcheck::race
