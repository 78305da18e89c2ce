// bench/parse: PTX parse throughput (MB/s, one thread) over every corpus PTX file (zluda-ptx plus the nvcc
// output cached by corpus_parse), for parse alone and parse + IR check, against an in-run baseline: a
// hand-written scanner that only skips comments/white space and counts tokens (the floor any parser pays).
#include "semantics/ir/build.hpp"
#include "semantics/ptx/parse.hpp"

#include "semantics/support/allocator.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

static std::size_t count_tokens(const std::string& s) {
  std::size_t tokens = 0;
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') { while (i < s.size() && s[i] != '\n') ++i; }
    else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') ++i;
    else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$' || c == '.') {
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '%' || s[i] == '$' || s[i] == '.')) ++i;
      ++tokens;
    } else { ++i; ++tokens; }
  }
  return tokens;
}

int main(int argc, char** argv) {
  ptxcheck::tune_allocator();
  std::vector<fs::path> dirs;
  for (int i = 1; i < argc; ++i) dirs.push_back(argv[i]);
  std::vector<std::string> texts;
  std::size_t bytes = 0;
  for (const auto& d : dirs)
    for (const auto& e : fs::recursive_directory_iterator(d))
      if (e.path().extension() == ".ptx") {
        std::ifstream in(e.path());
        std::stringstream ss;
        ss << in.rdbuf();
        texts.push_back(ss.str());
        bytes += texts.back().size();
      }
  if (texts.empty()) {
    std::cerr << "usage: bench_parse DIR... (no .ptx found)\n";
    return 2;
  }
  auto time = [&](auto&& body) {
    double best = 1e9;
    for (int round = 0; round < 3; ++round) {
      auto t0 = std::chrono::steady_clock::now();
      body();
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
  };
  std::size_t sink = 0, failures = 0;
  double scan = time([&] { for (const auto& t : texts) sink += count_tokens(t); });
  double parse = time([&] { for (const auto& t : texts) failures += !ptx::parse_ptx(t, "bench.ptx"); });
  double check = time([&] {
    for (const auto& t : texts) failures += !ptx::ir::load_ptx(t, "bench.ptx");
  });
  const double mb = bytes / 1e6;
  std::printf("files: %zu, %.2f MB of PTX (best of 3 rounds, one thread)\n", texts.size(), mb);
  std::printf("baseline token scan: %8.1f MB/s\n", mb / scan);
  std::printf("parse (X3 -> AST):   %8.1f MB/s  (%.1fx the scan time)\n", mb / parse, parse / scan);
  std::printf("parse + IR check:    %8.1f MB/s  (%.1fx the scan time)\n", mb / check, check / scan);
  std::printf("failures: %zu (must be 0)  [checksum %zu]\n", failures / 3, sink % 7);
  return failures ? 1 : 0;
}
