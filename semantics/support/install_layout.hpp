// Where ptxcheck's data (the cat models) is at run time, so that an installed ptxcheck needs no source tree:
// $PTXCHECK_DATA_DIR, else <prefix>/share/ptxcheck beside the running <prefix>/bin/, else the source tree.
#pragma once

#include <filesystem>
#include <string>

namespace ptxcheck {

// The data directory mirrors the source tree's data folders: memmodel/models/*.cat and proofs/models/*.cat
// (proofs/models/ptx-race.cat includes ../../memmodel/models/ptx.cat, which the mirror keeps valid).
struct DataDir {
  std::filesystem::path path;
  std::string found_by;  // "PTXCHECK_DATA_DIR", "installed", "source tree" or "not found"
};

// Resolved once per process (docs/install.md gives the order).
const DataDir& data_dir();

// The lookup itself, for tests: `env` is $PTXCHECK_DATA_DIR (null when unset), `exe` the running executable,
// `source_tree` the build's source tree (empty when there is none).
DataDir find_data_dir(const char* env, const std::filesystem::path& exe, const std::filesystem::path& source_tree);

std::filesystem::path models_dir();         // data_dir()/memmodel/models: ptx.cat, sc.cat, scoped-c11.cat
std::filesystem::path proofs_models_dir();  // data_dir()/proofs/models: ptx-race.cat

}  // namespace ptxcheck
