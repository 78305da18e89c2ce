// `ptxcheck run FILE --launch LAUNCH.json` (or --grid/--block/--param/--buffer): runs a kernel on the CPU
// interpreter and prints {"buffers": ..., "stats": ...} as JSON. Exit 0 ran, 1 out-of-bounds/deadlock/trap,
// 2 bad input, 3 unsupported instruction or step limit (each reported by name and PTX line).
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"
#include "semantics/interp/launch_json.hpp"
#include "semantics/interp/npy.hpp"
#include "semantics/interp/typed_buffer.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/support/names.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

namespace ptxcheck::cli {
namespace {
struct RunArgs {
  std::string file, launch_file, kernel, output_npy;
  std::vector<std::uint32_t> grid, block, cluster;
  std::vector<std::string> params, buffers;
  std::uint32_t shared = 0;
  bool shared_given = false, cooperative = false, hex = false;
  std::uint64_t seed = 0, max_steps = 2'000'000'000;
  std::uint32_t resident = 8;
  std::uint64_t gpu_slack = 0;
  CudaOptions cuda;
};

bool dims(const std::vector<std::uint32_t>& v, std::array<std::uint32_t, 3>& out) {
  if (v.empty()) return true;
  if (v.size() > 3) return false;
  out = {1, 1, 1};
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0) return false;
    out[i] = v[i];
  }
  return true;
}

// --buffer NAME=HEXBYTES, NAME=zero:N, NAME=TYPE:V1,V2,... (typed values) or NAME=TYPE[N] (N zeros of TYPE).
bool buffer_option(const std::string& b, ptx::interp::Launch& launch) {
  const auto eq = b.find('=');
  if (eq == std::string::npos) {
    std::cerr << "error: --buffer is NAME=HEXBYTES, NAME=zero:N, NAME=TYPE:V1,V2,... or NAME=TYPE[N]\n";
    return false;
  }
  const std::string name = b.substr(0, eq), value = b.substr(eq + 1);
  std::vector<std::uint8_t> bytes;
  const auto colon = value.find(':'), bracket = value.find('[');
  const std::string type = value.substr(0, std::min(colon, bracket));
  if (value.rfind("zero:", 0) == 0) {
    bytes.assign(std::stoull(value.substr(5)), 0);
  } else if (ptx::interp::buffer_element_type(type)) {
    nlohmann::json typed = {{"type", type}};
    if (bracket < colon && value.back() == ']') {
      typed["count"] = std::stoull(value.substr(bracket + 1, value.size() - bracket - 2));
    } else {
      nlohmann::json values = nlohmann::json::array();
      std::stringstream list(colon == std::string::npos ? "" : value.substr(colon + 1));
      for (std::string item; std::getline(list, item, ',');) values.push_back(nlohmann::json::parse(item, nullptr, false).is_discarded() ? nlohmann::json(item) : nlohmann::json::parse(item));
      typed["values"] = values;
    }
    std::string error;
    if (!ptx::interp::typed_buffer_bytes(typed, bytes, error)) { std::cerr << "error: --buffer " << name << ": " << error << "\n"; return false; }
  } else if (!ptx::interp::hex_to_bytes(value, bytes)) {
    std::cerr << "error: --buffer " << name << ": bad hex\n";
    return false;
  }
  // A buffer of the launch file's name is replaced, type and all.
  launch.buffer_types.erase(name);
  if (auto t = ptx::interp::buffer_element_type(type); t && value.rfind("zero:", 0) != 0) launch.buffer_types[name] = *t;
  if (const auto i = launch.buffer_index(name); i >= 0) launch.buffers[static_cast<std::size_t>(i)].second = std::move(bytes);
  else launch.buffers.push_back({name, std::move(bytes)});
  return true;
}

// --output-npy DIR: every buffer as DIR/NAME.npy, typed buffers in their type, the others as bytes (u8).
bool write_npy_buffers(const std::string& dir, const ptx::interp::RunResult& r, const ptx::interp::Launch& launch) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const auto& [name, bytes] : r.buffers) {
    const auto t = launch.buffer_types.find(name);
    std::string error;
    if (!ptx::interp::write_npy(dir + "/" + name + ".npy", t == launch.buffer_types.end() ? ptx::ir::ScalarType::u8 : t->second, bytes, error)) {
      std::cerr << "error: --output-npy: " << error << "\n";
      return false;
    }
  }
  return true;
}

int run_run(const RunArgs& args) {
  ptx::interp::Launch launch;
  std::string error;
  if (!args.launch_file.empty() && !ptx::interp::read_launch_file(args.launch_file, launch, error)) {
    std::cerr << error << "\n";
    return 2;
  }
  if (!args.kernel.empty()) launch.kernel = args.kernel;
  if (!dims(args.grid, launch.grid) || !dims(args.block, launch.block)) {
    std::cerr << "error: --grid/--block take 1 to 3 positive numbers\n";
    return 2;
  }
  if (!args.cluster.empty()) {
    std::array<std::uint32_t, 3> c{1, 1, 1};
    if (!dims(args.cluster, c)) { std::cerr << "error: --cluster takes 1 to 3 positive numbers\n"; return 2; }
    launch.cluster = c;
  }
  if (args.shared_given) launch.dynamic_shared_bytes = args.shared;
  if (args.cooperative) launch.cooperative = true;
  for (const auto& b : args.buffers)
    if (!buffer_option(b, launch)) return 2;
  if (!args.params.empty()) {
    launch.params.clear();
    for (const auto& p : args.params) {
      ptx::interp::ParamValue v;
      if (!ptx::interp::param_from_text(p, v, error)) { std::cerr << "error: --param " << p << ": " << error << "\n"; return 2; }
      launch.params.push_back(v);
    }
  }
  auto loaded = load_ptx_or_cuda(args.file, args.cuda);
  if (!loaded.text) { std::cerr << loaded.error->render() << "\n"; return 2; }
  // Only the launched kernel's body (and what it calls) is kept; the others are checked and dropped.
  auto built = ptx::ir::load_ptx(std::move(*loaded.text), args.file, ptx::ir::keep_kernels_named(launch.kernel));
  for (const auto& e : built.errors) std::cerr << e.render() << "\n";
  if (!built) return 2;
  const auto& m = *built.module;
  if (launch.kernel.empty()) {
    auto ks = m.kernels();
    if (ks.size() != 1) { std::cerr << "error: the module has " << ks.size() << " kernels; name one with --kernel\n"; return 2; }
    launch.kernel = ks[0]->name;
  }
  ptx::interp::Options opt;
  opt.seed = args.seed;
  opt.max_steps = args.max_steps;
  opt.resident_ctas = args.resident;
  opt.gpu_slack_bytes = args.gpu_slack;
  auto r = ptx::interp::run(m, launch, opt);
  nlohmann::json out = ptx::interp::result_to_json(r, m, launch, args.hex);
  if (const auto named = m.kernels_named(launch.kernel); named.size() == 1) {  // the kernel run: PTX and CUDA names
    out["kernel"] = named[0]->name;
    out["cuda_name"] = ptxcheck::names::kernel_cxx_name(named[0]->name);
  }
  std::cout << out.dump(2) << "\n";
  if (!args.output_npy.empty() && !write_npy_buffers(args.output_npy, r, launch)) return 2;
  if (r.stats.overrun_accesses)
    std::cerr << "warning: " << r.stats.overrun_accesses << " accesses past an allocation's end (first: " << r.first_overrun.message << ")\n";
  using K = ptx::interp::Problem::Kind;
  switch (r.problem.kind) {
    case K::none: return 0;
    case K::bad_launch: std::cerr << "error: " << r.problem.message << "\n"; return 2;
    case K::unsupported: case K::step_limit:
      for (const auto& u : r.unsupported) std::cerr << args.file << ":" << u.ptx_line << ": unsupported: " << u.instruction << "\n";
      if (r.unsupported.empty()) std::cerr << "unknown: " << r.problem.message << "\n";
      return 3;
    default:
      std::cerr << "error: " << r.problem.message << "\n";
      return 1;
  }
}
}  // namespace

void register_run(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run a kernel bit-exactly on the CPU interpreter; prints buffers and stats as JSON");
  cmd->add_option("file", args->file, "PTX (or CUDA) file")->required();
  cmd->add_option("--launch", args->launch_file, "launch description (JSON: kernel, grid, block, buffers, params)");
  cmd->add_option("--kernel", args->kernel, "kernel to launch, by C++ or PTX name (default: the launch's, or the only one)");
  cmd->add_option("--grid", args->grid, "grid dimensions, e.g. --grid 4 1 1")->expected(1, 3);
  cmd->add_option("--block", args->block, "block dimensions, e.g. --block 64")->expected(1, 3);
  cmd->add_option("--cluster", args->cluster, "CTAs per thread-block cluster (an explicit cluster launch), e.g. --cluster 2 1 1")->expected(1, 3);
  cmd->add_option("--param", args->params, "kernel parameter in order: TYPE:VALUE (u32:7, f32:1.5) or buffer:NAME")->allow_extra_args(false);
  cmd->add_option("--buffer", args->buffers,
                  "a buffer: NAME=TYPE:V1,V2,... (f32:1.5,2; u32:7; types u8-u64, s8-s64, b8-b64, f16, bf16, f32, f64), "
                  "NAME=TYPE[N] (N zeros), NAME=HEXBYTES (little-endian) or NAME=zero:N")->allow_extra_args(false);
  cmd->add_flag("--hex", args->hex, "print typed buffers' bytes too (bytes_le_hex)");
  cmd->add_option("--output-npy", args->output_npy, "write every buffer after the run to DIR/NAME.npy (typed buffers in their type, others as u8)");
  cmd->add_option("--shared", args->shared, "dynamic shared memory bytes")->each([args](const std::string&) { args->shared_given = true; });
  cmd->add_flag("--cooperative", args->cooperative,
               "a cooperative launch (cudaLaunchCooperativeKernel): every CTA resident, and the grid workspace "
               "that cooperative_groups::this_grid().sync() uses");
  cmd->add_option("--seed", args->seed, "scheduling seed (0: deterministic lowest-pc-first)")->capture_default_str();
  cmd->add_option("--max-steps", args->max_steps, "warp-instruction budget (exit 3 when reached)")->capture_default_str();
  cmd->add_option("--resident-ctas", args->resident, "CTAs in flight at once (whole clusters, one at least), run interleaved")->capture_default_str();
  cmd->add_option("--gpu-slack", args->gpu_slack,
                  "bytes past a global allocation's end that accesses may reach, as inside a GPU's mapped page "
                  "(a warning instead of an error; 2097152 = a 2 MiB page)")->capture_default_str();
  add_cuda_options(cmd, args->cuda);
  cmd->callback([args]() { exit_code = run_run(*args); });
}

}  // namespace ptxcheck::cli
