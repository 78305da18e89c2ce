// Corpus driver for `ptxcheck run`: every zluda-ptx test of kind "run" becomes a launch exactly as the corpus
// README describes (grid 1, block from the record, 1024 dynamic shared bytes, input/output buffers as params);
// the output bytes must equal the values measured on an NVIDIA GPU. Prints "N passed, N failed, N unsupported".
// Usage: corpus_zluda CORPUS_DIR FLOOR_FILE [-v] [--seeds N] [NAME...]
// --seeds N also runs each test under N randomised schedules (seeds 1..N); every schedule must give the
// measured bytes too (the tests are race-free, so the result must not depend on the interleaving).
#include "semantics/interp/launch_json.hpp"
#include "semantics/ir/build.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The .approx instructions (and div.full, and div.f32 without rounding, which PTX ISA 1.0-1.3 read as div.approx):
// the GPU's bits are within the ISA's stated error bound of the exact result, not equal to libm's.
bool uses_approx(const ptx::ir::Module& m) {
  for (const auto& f : m.functions)
    for (const auto& ins : f.body) {
      if (ins.q.has(ptx::ir::Flag::approx) || ins.q.has(ptx::ir::Flag::full)) return true;
      if (ins.op == ptx::ir::Opcode::div_ && !ins.q.rounding && !ins.q.types.empty() && ins.q.types[0].scalar == ptx::ir::ScalarType::f32) return true;
    }
  return false;
}

unsigned type_size(const std::string& t) {
  if (t == "u8" || t == "i8") return 1;
  if (t == "u16" || t == "i16" || t == "f16") return 2;
  if (t == "u64" || t == "i64" || t == "f64") return 8;
  return 4;
}

// The widest ISA error bound among the approximate instructions of chapter 9.7.3 for f32: sin/cos 2^-20.5
// absolute in [-pi, pi]; lg2 2^-22 absolute or 2 ulp; ex2 2 ulp; tanh 2^-11 relative; rcp/sqrt/rsqrt and
// div.approx/div.full 1-2 ulp. We accept |got - want| <= 2^-20 + 2^-11 |want| (f32/f64 elements only).
bool within_approx(const std::string& type, const std::vector<std::uint8_t>& got, const std::vector<std::uint8_t>& want) {
  if (type != "f32" && type != "f64") return false;
  if (got.size() != want.size()) return false;
  unsigned sz = type_size(type);
  for (std::size_t i = 0; i + sz <= got.size(); i += sz) {
    double g, w;
    if (sz == 4) {
      float a, b;
      std::memcpy(&a, &got[i], 4);
      std::memcpy(&b, &want[i], 4);
      g = a;
      w = b;
    } else {
      std::memcpy(&g, &got[i], 8);
      std::memcpy(&w, &want[i], 8);
    }
    if (g == w || (std::isnan(g) && std::isnan(w))) continue;
    if (!(std::fabs(g - w) <= std::ldexp(1.0, -20) + std::ldexp(std::fabs(w), -11))) return false;
  }
  return true;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: corpus_zluda CORPUS_DIR FLOOR_FILE [-v] [NAME...]\n";
    return 2;
  }
  fs::path corpus = fs::path(argv[1]) / "zluda-ptx";
  if (!fs::exists(corpus)) corpus = argv[1];
  bool verbose = false;
  int seeds = 0;
  std::set<std::string> only;
  for (int i = 3; i < argc; ++i) {
    if (std::string(argv[i]) == "-v") verbose = true;
    else if (std::string(argv[i]) == "--seeds" && i + 1 < argc) seeds = std::stoi(argv[++i]);
    else only.insert(argv[i]);
  }
  std::vector<fs::path> records;
  for (const auto& e : fs::directory_iterator(corpus))
    if (e.path().extension() == ".json" && e.path().filename() != "index.json") records.push_back(e.path());
  std::sort(records.begin(), records.end());
  int passed = 0, approx_passed = 0, failed = 0, unsupported = 0, disabled = 0, disabled_passed = 0;
  std::map<std::string, int> unsupported_names;
  std::vector<std::string> overrunning;  // tests whose kernel accesses past a buffer's end
  for (const auto& path : records) {
    json rec;
    try { rec = json::parse(slurp(path)); } catch (...) { std::cerr << path << ": bad JSON\n"; ++failed; continue; }
    if (rec.value("kind", "") != "run") continue;
    const std::string name = rec.value("name", path.stem().string());
    if (!only.empty() && !only.count(name)) continue;
    const bool is_disabled = rec.value("status", "") == "disabled_upstream";
    fs::path ptx_file = path;
    ptx_file.replace_extension(".ptx");
    auto built = ptx::ir::load_ptx(slurp(ptx_file), ptx_file.string());
    auto report = [&](const std::string& verdict, const std::string& detail) {
      if (verbose || verdict == "FAIL") std::cout << verdict << " " << name << (is_disabled ? " (disabled upstream)" : "") << (detail.empty() ? "" : ": " + detail) << "\n";
    };
    if (!built) {
      (is_disabled ? disabled : failed)++;
      report("FAIL", "does not load: " + (built.errors.empty() ? std::string("?") : built.errors[0].message));
      continue;
    }
    // The launch, as README.txt says upstream's run_cuda does it.
    ptx::interp::Launch launch;
    launch.kernel = rec.value("kernel", name);
    const auto& l = rec["launch"];
    for (int i = 0; i < 3; ++i) {
      launch.grid[i] = l["grid"][i].get<std::uint32_t>();
      launch.block[i] = l["block"][i].get<std::uint32_t>();
    }
    launch.dynamic_shared_bytes = l.value("dynamic_shared_bytes", 1024u);
    std::vector<std::uint8_t> in_bytes, out_bytes, want;
    if (rec.contains("input") && rec["input"].is_object()) ptx::interp::hex_to_bytes(rec["input"]["bytes_le_hex"].get<std::string>(), in_bytes);
    std::string out_type;
    if (rec.contains("output") && rec["output"].is_object()) {
      const auto& o = rec["output"];
      out_type = o.value("type", "");
      ptx::interp::hex_to_bytes(o["bytes_le_hex"].get<std::string>(), want);
      out_bytes.assign(o["count"].get<std::size_t>() * type_size(out_type), 0);
    }
    launch.buffers = {{"input", in_bytes}, {"output", out_bytes}};
    // cuLaunchKernel reads as many parameters as the kernel declares; upstream's warp tests pass two pointers
    // to one-parameter kernels, so extra ones are dropped here as the driver API does.
    const ptx::ir::Function* kfn = built.module->find_function(launch.kernel);
    std::size_t declared = kfn ? kfn->params.size() : 0;
    for (const auto& p : rec["params"]) {
      if (launch.params.size() == declared) break;
      ptx::interp::ParamValue v;
      v.buffer = p.get<std::string>();
      launch.params.push_back(v);
    }
    // Upstream allocates with cuMemAlloc, which places small buffers inside 2 MiB mapped pages: an access
    // just past a buffer's end does not fault on the GPU that measured these outputs, so it does not here.
    ptx::interp::Options gpu;
    gpu.gpu_slack_bytes = 2u << 20;
    auto r = ptx::interp::run(*built.module, launch, gpu);
    if (r.stats.overrun_accesses && !is_disabled) overrunning.push_back(name);
    if (r.problem.kind == ptx::interp::Problem::Kind::unsupported) {
      if (is_disabled) ++disabled;
      else ++unsupported;
      std::string what = r.unsupported.empty() ? r.problem.message : r.unsupported[0].instruction;
      for (const auto& u : r.unsupported) unsupported_names[u.instruction]++;
      if (r.unsupported.empty()) unsupported_names[r.problem.message]++;
      if (verbose) std::cout << "UNSUPPORTED " << name << ": " << what << "\n";
      continue;
    }
    const std::vector<std::uint8_t>* got = nullptr;
    for (const auto& b : r.buffers) if (b.first == "output") got = &b.second;
    std::string detail;
    bool ok = false, approx = false;
    if (!r.ok()) {
      detail = std::string(ptx::interp::problem_kind_name(r.problem.kind)) + ": " + r.problem.message;
    } else if (got && *got == want) {
      ok = true;
    } else if (got && uses_approx(*built.module) && within_approx(out_type, *got, want)) {
      ok = approx = true;
    } else {
      detail = "output " + ptx::interp::bytes_to_hex(got ? *got : std::vector<std::uint8_t>{}) + ", expected " + ptx::interp::bytes_to_hex(want);
    }
    for (int seed = 1; ok && seed <= seeds; ++seed) {
      ptx::interp::Options o = gpu;
      o.seed = static_cast<std::uint64_t>(seed);
      auto rs = ptx::interp::run(*built.module, launch, o);
      const std::vector<std::uint8_t>* gs = nullptr;
      for (const auto& b : rs.buffers) if (b.first == "output") gs = &b.second;
      if (!rs.ok() || !gs || *gs != *got) {
        ok = false;
        detail = "schedule seed " + std::to_string(seed) + " gives " + (rs.ok() && gs ? ptx::interp::bytes_to_hex(*gs) : rs.problem.message);
      }
    }
    if (is_disabled) {
      ++disabled;
      disabled_passed += ok;
      report(ok ? "PASS" : "FAIL(disabled)", detail);
      continue;
    }
    if (ok) {
      ++passed;
      approx_passed += approx;
      report(approx ? "PASS(approx)" : "PASS", "");
    } else {
      ++failed;
      report("FAIL", detail);
    }
  }
  for (const auto& [n, c] : unsupported_names) std::cout << "unsupported: " << n << " (" << c << " occurrences)\n";
  std::cout << overrunning.size() << " kernels access past a buffer's end (inside the GPU's mapped page, as upstream's"
            << " run does; ptxcheck run reports it as an error unless --gpu-slack is given):";
  for (const auto& n : overrunning) std::cout << " " << n;
  std::cout << "\n";
  std::cout << "zluda-ptx run: " << passed << " passed, " << failed << " failed, " << unsupported << " unsupported";
  std::cout << " (" << approx_passed << " of the passes are .approx results within the ISA error bound, the rest bit-exact;"
            << " disabled upstream, not counted: " << disabled_passed << " of " << disabled << " pass)\n";
  int floor = 0;
  std::ifstream ff(argv[2]);
  for (std::string line; std::getline(ff, line);)
    if (line.rfind("zluda-ptx-run ", 0) == 0) floor = std::stoi(line.substr(14));
  if (only.empty() && passed < floor) {
    std::cout << "below the floor: " << passed << " < " << floor << " (" << argv[2] << ")\n";
    return 1;
  }
  return 0;
}
