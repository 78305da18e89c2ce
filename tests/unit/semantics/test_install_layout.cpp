// The data-directory lookup (semantics/support/install_layout.hpp): the environment first, then
// <prefix>/share/ptxcheck beside <prefix>/bin, then the source tree; a folder counts only with the models in it.
#include "semantics/support/install_layout.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using ptxcheck::find_data_dir;

namespace {
struct TempTree {
  fs::path root = fs::temp_directory_path() / ("ptxcheck-layout-" + std::to_string(::getpid()));
  TempTree() { fs::remove_all(root); fs::create_directories(root); }
  ~TempTree() { fs::remove_all(root); }
  void models(const fs::path& dir) {
    fs::create_directories(dir / "memmodel" / "models");
    std::ofstream(dir / "memmodel" / "models" / "ptx.cat") << "\"PTX\"\n";
  }
};
}  // namespace

TEST_CASE("install layout: PTXCHECK_DATA_DIR wins, as given") {
  TempTree t;
  t.models(t.root / "share" / "ptxcheck");
  auto d = find_data_dir((t.root / "elsewhere").c_str(), t.root / "bin" / "ptxcheck", PTXCHECK_SOURCE_DIR);
  CHECK(d.path == t.root / "elsewhere");
  CHECK(d.found_by == "PTXCHECK_DATA_DIR");
}

TEST_CASE("install layout: <prefix>/bin/ptxcheck reads <prefix>/share/ptxcheck, before the source tree") {
  TempTree t;
  t.models(t.root / "share" / "ptxcheck");
  auto d = find_data_dir("", t.root / "bin" / "ptxcheck", PTXCHECK_SOURCE_DIR);  // empty variable: unset
  CHECK(d.path == t.root / "share" / "ptxcheck");
  CHECK(d.found_by == "installed");
}

TEST_CASE("install layout: the build tree falls back to the source tree; nothing found names the installed path") {
  TempTree t;
  auto d = find_data_dir(nullptr, t.root / "bin" / "ptxcheck", PTXCHECK_SOURCE_DIR);
  CHECK(d.path == fs::path(PTXCHECK_SOURCE_DIR).lexically_normal());
  CHECK(d.found_by == "source tree");
  auto none = find_data_dir(nullptr, t.root / "bin" / "ptxcheck", t.root / "no-source");
  CHECK(none.path == t.root / "share" / "ptxcheck");
  CHECK(none.found_by == "not found");
}

TEST_CASE("install layout: this test program (build/bin) resolves the source tree's models") {
  CHECK(fs::exists(ptxcheck::models_dir() / "ptx.cat"));
  CHECK(fs::exists(ptxcheck::proofs_models_dir() / "ptx-race.cat"));
}
