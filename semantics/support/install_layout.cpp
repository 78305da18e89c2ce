// The run-time lookup of ptxcheck's data directory (install_layout.hpp; docs/install.md).
#include "semantics/support/install_layout.hpp"

#include <cstdlib>
#include <system_error>

namespace ptxcheck {
namespace fs = std::filesystem;

namespace {
// A directory holds ptxcheck's data when the PTX model is where the mirror puts it.
bool holds_data(const fs::path& dir) {
  std::error_code ec;
  return !dir.empty() && fs::is_regular_file(dir / "memmodel" / "models" / "ptx.cat", ec);
}

fs::path running_executable() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self;
}

// The source tree this binary was built from: a fallback for the build tree only (an installed binary finds
// share/ptxcheck first, and works when this folder does not exist).
fs::path build_source_tree() {
#ifdef PTXCHECK_BUILD_SOURCE_TREE
  return PTXCHECK_BUILD_SOURCE_TREE;
#else
  return {};
#endif
}
}  // namespace

DataDir find_data_dir(const char* env, const fs::path& exe, const fs::path& source_tree) {
  if (env && *env) return {fs::path(env), "PTXCHECK_DATA_DIR"};
  // <prefix>/bin/ptxcheck -> <prefix>/share/ptxcheck
  const fs::path installed = exe.empty() ? fs::path() : exe.parent_path().parent_path() / "share" / "ptxcheck";
  if (holds_data(installed)) return {installed.lexically_normal(), "installed"};
  if (holds_data(source_tree)) return {source_tree.lexically_normal(), "source tree"};
  return {installed.empty() ? fs::path("share/ptxcheck") : installed.lexically_normal(), "not found"};
}

const DataDir& data_dir() {
  static const DataDir dir = find_data_dir(std::getenv("PTXCHECK_DATA_DIR"), running_executable(), build_source_tree());
  return dir;
}

fs::path models_dir() { return data_dir().path / "memmodel" / "models"; }
fs::path proofs_models_dir() { return data_dir().path / "proofs" / "models"; }

}  // namespace ptxcheck
