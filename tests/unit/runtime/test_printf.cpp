// CUDA device printf (semantics/interp/printf.hpp) over an argument buffer laid out as vprintf receives it:
// each argument at the next offset aligned to its size, char/short promoted to int, float to double.
// Expected texts are written out by hand from C's printf rules.
#include "semantics/interp/printf.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <map>
#include <vector>

using ptx::interp::format_device_printf;
using ptx::interp::PrintfArguments;

namespace {
struct Buffer {
  std::vector<std::uint8_t> bytes;
  std::map<std::uint64_t, std::string> strings;
  template <class T>
  Buffer& add(T v) {
    std::size_t at = (bytes.size() + sizeof v - 1) / sizeof v * sizeof v;
    bytes.resize(at + sizeof v);
    std::memcpy(bytes.data() + at, &v, sizeof v);
    return *this;
  }
  PrintfArguments args() const {
    PrintfArguments a;
    a.read = [this](std::uint64_t off, unsigned size, std::uint64_t& v) {
      if (off + size > bytes.size()) return false;
      v = 0;
      std::memcpy(&v, bytes.data() + off, size);
      return true;
    };
    a.read_string = [this](std::uint64_t address, std::string& text) {
      auto it = strings.find(address);
      if (it == strings.end()) return false;
      text = it->second;
      return true;
    };
    return a;
  }
};
}  // namespace

TEST_CASE("integers, characters and doubles at their aligned offsets") {
  Buffer b;
  b.add<std::int32_t>(42).add<double>(3.14159).add<std::int32_t>('A').add<std::int64_t>(-5).add<std::uint32_t>(255);
  CHECK(format_device_printf("%d %5.2f %c %lld %x|%X|%o\n", b.args()) == "42  3.14 A -5 ff|<bad argument>|<bad argument>\n");
}

TEST_CASE("strings, widths from the buffer, flags and %%") {
  Buffer b;
  b.strings[0x1000] = "tile";
  b.add<std::uint64_t>(0x1000).add<std::int32_t>(6).add<std::int32_t>(-7).add<std::uint32_t>(0xffffffffu);
  CHECK(format_device_printf("[%s] [%*d] %u 100%%", b.args()) == "[tile] [    -7] 4294967295 100%");
}

TEST_CASE("a float argument arrives as a double; %e and %g follow C") {
  Buffer b;
  b.add<double>(static_cast<float>(0.1f)).add<double>(1234567.0).add<double>(0.0001);
  CHECK(format_device_printf("%.3f %e %g", b.args()) == "0.100 1.234567e+06 0.0001");
}

TEST_CASE("an unreadable string or a conversion past the buffer is reported in the text, not a crash") {
  Buffer b;
  b.add<std::uint64_t>(0x2000);
  CHECK(format_device_printf("%s then %d", b.args()) == "<bad string> then <bad argument>");
  CHECK(format_device_printf("trailing %", b.args()) == "trailing %");
}
