// Model lookup and the parallel file runner (a shared work index, one result slot per file).
#include "litmus/driver.hpp"

#include "litmus/parse/parse.hpp"
#include "memmodel/cat/parse.hpp"

#include <atomic>
#include <thread>

namespace ptxcheck::litmus {

std::optional<cat::Model> load_named_model(const std::string& name, std::vector<std::string>& errors) {
  std::string path = name == "ptx" ? std::string(PTXCHECK_MODELS_DIR) + "/ptx.cat" : name;
  std::vector<Diagnostic> diags;
  auto m = cat::load_model(path, cat::base_names(), diags);
  for (auto& d : diags) errors.push_back(d.render());
  return m;
}

std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt, int jobs) {
  std::vector<Result> out(files.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (;;) {
      std::size_t i = next++;
      if (i >= files.size()) return;
      std::vector<Diagnostic> diags;
      auto t = load_litmus(files[i], diags);
      if (!t) {
        Result r;
        r.file = files[i];
        r.name = files[i];
        r.result = "error";
        for (auto& d : diags) r.reason += d.render();
        out[i] = std::move(r);
        continue;
      }
      try {
        out[i] = run_test(*t, model, opt);
      } catch (const std::exception& e) {
        Result r;
        r.file = files[i];
        r.name = t->name;
        r.result = "error";
        r.reason = e.what();
        out[i] = std::move(r);
      }
    }
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < std::max(1, jobs); ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  return out;
}

}  // namespace ptxcheck::litmus
