// libFuzzer target: any byte string given to the PTX parser and IR checker yields a module or a located
// error, never a crash, hang or sanitizer report. Build and run with scripts/fuzz.
#include "semantics/ir/build.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto result = ptx::ir::load_ptx(std::move(text), "fuzz.ptx");
  if (!result) {
    for (const auto& e : result.errors) (void)e.render();
  }
  return 0;
}
