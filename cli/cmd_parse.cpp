// `ptxcheck parse FILE...`: parse and check PTX (or CUDA via nvcc); --print writes canonical PTX,
// --json a summary (kernels, params, registers, instruction counts). Exit 0 ok, 2 bad input.
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"
#include "semantics/ir/build.hpp"
#include "semantics/ptx/printer.hpp"
#include "semantics/support/names.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <optional>

namespace ptxcheck::cli {
namespace {
struct ParseArgs {
  std::vector<std::string> files;
  bool print = false;
  bool json = false;
  CudaOptions cuda;
};

// What the summary needs of a body, taken while load_ptx builds it (the body itself is not kept).
struct BodyStats {
  std::size_t registers = 0, instructions = 0;
};

nlohmann::json summary(const ptx::ir::Module& m, const std::vector<BodyStats>& bodies, const std::map<std::string, int>& counts) {
  using nlohmann::json;
  json out;
  out["file"] = m.file;
  out["version"] = std::to_string(m.version_major) + "." + std::to_string(m.version_minor);
  out["targets"] = m.targets;
  out["address_size"] = m.address_size;
  std::size_t total = 0;
  json functions = json::array();
  for (std::size_t i = 0; i < m.functions.size(); ++i) {
    const auto& f = m.functions[i];
    const BodyStats b = i < bodies.size() ? bodies[i] : BodyStats{};
    json params = json::array();
    for (const auto& p : f.params)
      params.push_back({{"name", p.name}, {"type", ptx::ir::type_name(p.type)}, {"bytes", p.size_bytes()}});
    functions.push_back({{"name", f.name},
                         {"cuda_name", ptxcheck::names::kernel_cxx_name(f.name)},
                         {"kind", f.is_entry ? "entry" : "func"},
                         {"defined", f.has_body},
                         {"params", params},
                         {"registers", b.registers},
                         {"instructions", b.instructions}});
    total += b.instructions;
  }
  out["functions"] = functions;
  out["kernels"] = json::array();
  for (const auto* k : m.kernels()) out["kernels"].push_back(k->name);
  out["globals"] = json::array();
  for (const auto& g : m.globals)
    out["globals"].push_back({{"name", g.name}, {"cuda_name", ptxcheck::names::variable_cxx_name(g.name)}, {"space", ptx::ir::state_space_name(g.space)}, {"bytes", g.size_bytes()}});
  out["instruction_count"] = total;
  out["instructions_by_opcode"] = counts;
  return out;
}

bool report(const ptx::ir::BuildResult& built) {
  for (const auto& e : built.errors) std::cerr << e.render() << "\n";
  for (const auto& w : built.warnings) std::cerr << w.render() << "\n";
  return static_cast<bool>(built);
}

struct Stats {
  std::vector<BodyStats> bodies;
  std::map<std::string, int> counts;
  void add(std::size_t index, const ptx::ir::Function& f) {
    if (bodies.size() <= index) bodies.resize(index + 1);
    bodies[index] = {f.registers.size(), f.body.size()};
    for (const auto& i : f.body) ++counts[ptx::ir::opcode_name(i.op)];
  }
};

// --print needs the whole AST: parsed and checked as one module.
std::optional<ptx::ir::Module> print_file(std::string text, const std::string& file, Stats& stats) {
  auto parsed = ptx::parse_ptx(std::move(text), file);
  if (!parsed) {
    std::cerr << parsed.error->render() << "\n";
    return std::nullopt;
  }
  auto built = ptx::ir::build(*parsed.module);
  if (!report(built)) return std::nullopt;
  std::cout << ptx::print(parsed.module->module);
  for (std::size_t i = 0; i < built.module->functions.size(); ++i) stats.add(i, built.module->functions[i]);
  return std::move(built.module);
}

int run_parse(const ParseArgs& args) {
  int rc = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& file : args.files) {
    auto loaded = load_ptx_or_cuda(file, args.cuda);
    if (!loaded.text) {
      std::cerr << loaded.error->render() << "\n";
      rc = 2;
      continue;
    }
    Stats stats;
    std::optional<ptx::ir::Module> module;
    if (args.print) {
      module = print_file(std::move(*loaded.text), file, stats);
    } else {
      // Bodies are checked one at a time and not kept: the footprint stays near the text's size (docs/footprint.md).
      ptx::ir::LoadOptions only_check;
      only_check.keep = [](const ptx::ir::Module&, const ptx::ir::Function&) { return false; };
      only_check.on_body = [&](std::size_t index, const ptx::ir::Function& f) { stats.add(index, f); };
      auto built = ptx::ir::load_ptx(std::move(*loaded.text), file, only_check);
      if (report(built)) module = std::move(built.module);
    }
    if (!module) {
      rc = 2;
      continue;
    }
    if (args.json) all.push_back(summary(*module, stats.bodies, stats.counts));
  }
  if (args.json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
  return rc;
}
}  // namespace

void register_parse(CLI::App& app) {
  auto args = std::make_shared<ParseArgs>();
  auto* cmd = app.add_subcommand("parse", "Parse and check PTX (or CUDA through nvcc); exit 0 when all files are valid");
  cmd->add_option("files", args->files, "PTX or CUDA files")->required();
  cmd->add_flag("--print", args->print, "print canonical PTX");
  cmd->add_flag("--json", args->json, "print a JSON summary of each module");
  add_cuda_options(cmd, args->cuda);
  cmd->callback([args]() { exit_code = run_parse(*args); });
}

}  // namespace ptxcheck::cli
