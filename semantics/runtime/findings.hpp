// What `ptxcheck exec` found in a program, for `--report FILE.json` / `--report FILE.sarif` (environment
// PTXCHECK_EXEC_REPORT): kernel faults, unsupported instructions, runtime calls not implemented, and the races
// and memory findings of --racecheck / --memcheck, each with its rule, kernel and CUDA position. The text on
// stderr says the same as it happens; the file is written when the program exits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ptx::runtime {

struct Finding {
  std::string rule;     // ptxcheck.exec.fault, .unsupported, .unimplemented; ptxcheck.race.data-race,
                        // .barrier-divergence; ptxcheck.memcheck.uninitialized, .freed
  std::string level;    // error, warning, note (SARIF's levels)
  std::string message;
  std::string kernel;   // C++ name (PTX name when it has none); empty for a runtime call
  std::string file;     // CUDA source, empty when unknown
  std::uint32_t line = 0;
};

void add_finding(Finding f);
// Writes every finding so far to `path`: SARIF 2.1.0 when it ends in .sarif, else JSON
// {"findings": [...], "summary": [...]} with the checks' summaries. False when it cannot be written.
bool write_findings(const std::string& path, const std::vector<std::string>& summaries);

}  // namespace ptx::runtime
