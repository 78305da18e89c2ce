// NumPy .npy files (npy.hpp). The format: "\x93NUMPY", major and minor version bytes, the header length (2 bytes
// little-endian in 1.0, 4 in 2.0/3.0), then a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (8,), } padded with spaces and a newline so the data starts at a multiple of 64 bytes.
#include "semantics/interp/npy.hpp"

#include <fstream>
#include <iterator>
#include <regex>

namespace ptx::interp {
namespace {
struct Descr {
  const char* numpy;
  ir::ScalarType type;
};
constexpr Descr kDescrs[] = {
    {"i1", ir::ScalarType::s8},  {"i2", ir::ScalarType::s16}, {"i4", ir::ScalarType::s32}, {"i8", ir::ScalarType::s64},
    {"u1", ir::ScalarType::u8},  {"u2", ir::ScalarType::u16}, {"u4", ir::ScalarType::u32}, {"u8", ir::ScalarType::u64},
    {"f2", ir::ScalarType::f16}, {"f4", ir::ScalarType::f32}, {"f8", ir::ScalarType::f64},
};

// The value of `key` in the header dict ('descr': '<f4' -> <f4; 'shape': (2, 3) -> 2, 3), or empty.
std::string header_field(const std::string& header, const std::string& key) {
  std::smatch m;
  if (std::regex_search(header, m, std::regex("'" + key + "'\\s*:\\s*('([^']*)'|\\(([^)]*)\\)|(True|False))"))) {
    for (std::size_t i = 2; i <= 4; ++i)
      if (m[i].matched) return m[i].str();
  }
  return {};
}
}  // namespace

bool read_npy(const std::string& path, NpyArray& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) { error = path + ": cannot read the file"; return false; }
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (file.size() < 10 || file.compare(0, 6, "\x93NUMPY") != 0) { error = path + ": not a .npy file (no \\x93NUMPY magic)"; return false; }
  const unsigned major = static_cast<unsigned char>(file[6]);
  const std::size_t len_bytes = major == 1 ? 2 : 4, start = 8 + len_bytes;
  std::size_t header_len = 0;
  for (std::size_t k = 0; k < len_bytes; ++k) header_len |= std::size_t(static_cast<unsigned char>(file[8 + k])) << (8 * k);
  if (major < 1 || major > 3 || file.size() < start + header_len) { error = path + ": bad .npy header"; return false; }
  const std::string header = file.substr(start, header_len);
  const std::string descr = header_field(header, "descr"), order = header_field(header, "fortran_order");
  if (order == "True") { error = path + ": Fortran-order arrays are not read (save with np.ascontiguousarray)"; return false; }
  const Descr* d = nullptr;
  for (const auto& c : kDescrs)
    if (descr.size() == 3 && (descr[0] == '<' || (descr[0] == '|' && descr[2] == '1')) && descr.compare(1, 2, c.numpy) == 0) d = &c;
  if (!d) { error = path + ": element type '" + descr + "' (little-endian i1-i8, u1-u8, f2, f4, f8 are read)"; return false; }
  out.type = d->type;
  out.shape.clear();
  std::uint64_t count = 1;
  const std::string shape = header_field(header, "shape");
  static const std::regex number("[0-9]+");
  for (std::sregex_iterator it(shape.begin(), shape.end(), number), end; it != end; ++it) {
    out.shape.push_back(std::stoull(it->str()));
    count *= out.shape.back();
  }
  const std::uint64_t need = count * (ir::scalar_bits(d->type) / 8);
  if (file.size() - start - header_len < need) { error = path + ": the data is shorter than its shape says"; return false; }
  out.bytes.assign(file.begin() + static_cast<std::ptrdiff_t>(start + header_len),
                   file.begin() + static_cast<std::ptrdiff_t>(start + header_len + need));
  return true;
}

bool write_npy(const std::string& path, ir::ScalarType type, const std::vector<std::uint8_t>& bytes, std::string& error) {
  const Descr* d = nullptr;
  for (const auto& c : kDescrs)
    if (c.type == type) d = &c;
  if (!d && ir::is_integer(type)) {  // .bN: numpy's unsigned integer of that width
    for (const auto& c : kDescrs)
      if (!ir::is_signed_int(c.type) && ir::is_integer(c.type) && ir::scalar_bits(c.type) == ir::scalar_bits(type)) d = &c;
  }
  if (!d) { error = path + ": numpy has no ." + ir::scalar_type_name(type) + " type"; return false; }
  const std::size_t size = ir::scalar_bits(d->type) / 8, count = bytes.size() / size;
  std::string header = "{'descr': '" + std::string(size == 1 ? "|" : "<") + d->numpy + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(count) + ",), }";
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) { error = path + ": cannot write the file"; return false; }
  out.write("\x93NUMPY\x01\x00", 8);
  const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(count * size));
  if (!out) { error = path + ": cannot write the file"; return false; }
  return true;
}

}  // namespace ptx::interp
