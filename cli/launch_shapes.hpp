// The launch shape a project check gives each file's kernels (`race -p`): from `--shapes FILE` (JSON), else from
// a `// ptxcheck: --blockDim=X[,Y,Z] --gridDim=...` comment in the source, else race's own --blockDim/--gridDim,
// else symbolic. The values are race's spellings (race::parse_dim).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace ptxcheck::cli {

using Dim = std::array<std::uint32_t, 3>;
struct LaunchShape {
  std::optional<Dim> block, grid;
};

// `--shapes FILE`: {"path/to/a.cu": {"blockDim": "256", "gridDim": [4, 1]}, ...}; a relative path is read against
// the shapes file's folder. Keys are absolute, lexically normal paths. Sets `error` (located) on a bad file.
std::map<std::string, LaunchShape> read_shapes_file(const std::string& path, std::string& error);

// The `// ptxcheck: ...` comment of a source file, if any; a malformed value sets `error`
// (FILE:LINE:COL: error: ...).
LaunchShape source_shape(const std::string& file, std::string& error);

}  // namespace ptxcheck::cli
