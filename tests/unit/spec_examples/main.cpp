// spec_examples (issue 37): every `Examples` block of ISA section 9.7 (read from the seeds at test time) is
// loaded by ptxcheck with the declarations it omits added; prints a per-section table, fails below the floor.
// Usage: spec_examples SPEC_TEXT FLOOR_FILE [-v] [SECTION...]   (-v: print each failing example's module)
#include "extract.hpp"
#include "harness.hpp"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `key value` lines; `#` starts a comment.
std::map<std::string, long> read_floor(const std::string& path) {
  std::map<std::string, long> out;
  std::istringstream in(slurp(path));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream l(line);
    std::string key;
    long value = 0;
    if (l >> key >> value) out[key] = value;
  }
  return out;
}

// The failure category of a first error, for the summary (docs/spec-examples.md explains each).
std::string category(const spec::ExampleResult& r) {
  const std::string& e = r.first_error;
  auto has = [&](const char* s) { return e.find(s) != std::string::npos; };
  if (!r.parsed) return "parse error";
  if (has("unknown instruction")) return "unknown instruction";
  if (has("unknown qualifier")) return "unknown qualifier";
  if (has(" takes ")) return "operand or type count";
  if (has("undeclared") || has("undefined label")) return "name not declarable";
  if (has("redefinition") || has("duplicate")) return "redefinition in example";
  return "other checker error";
}

// The group of an instruction section: its title before the colon ("Integer Arithmetic Instructions").
std::string group_of(const spec::ExampleBlock& b) {
  auto colon = b.title.find(':');
  return b.section.substr(0, b.section.find('.', 4)) + " " + (colon == std::string::npos ? b.title : b.title.substr(0, colon));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: spec_examples SPEC_TEXT FLOOR_FILE [-v] [SECTION...]\n";
    return 2;
  }
  const std::string spec_text = slurp(argv[1]);
  auto floor = read_floor(argv[2]);
  bool verbose = false;
  std::set<std::string> only;
  for (int i = 3; i < argc; ++i) {
    if (std::string(argv[i]) == "-v") verbose = true;
    else only.insert(argv[i]);
  }
  const auto blocks = spec::extract_examples(spec_text, "9.7");
  std::size_t lines = 0;
  for (const auto& b : blocks) lines += static_cast<std::size_t>(std::count(b.code.begin(), b.code.end(), '\n'));

  long ok = 0;
  std::map<std::string, std::pair<int, int>> groups;  // group -> (ok, total)
  std::map<std::string, int> categories;
  std::vector<std::string> failures;
  std::vector<std::string> contradictions;  // refused lines that break their own section's rule (harness.cpp)
  std::cout << std::left << std::setw(14) << "section" << std::setw(72) << "title" << "ok/total\n";
  for (const auto& b : blocks) {
    if (!only.empty() && !only.count(b.section)) continue;
    const auto r = spec::check_example(b.code);
    ok += r.ok;
    auto& g = groups[group_of(b)];
    g.first += r.ok;
    ++g.second;
    std::cout << std::setw(14) << b.section << std::setw(72) << b.title.substr(0, 70) << (r.ok ? "1/1" : "0/1") << "\n";
    for (const auto& c : r.contradicted) contradictions.push_back(b.section + ": " + c);
    if (r.ok) continue;
    const std::string cat = category(r);
    ++categories[cat];
    failures.push_back(b.section + " (spec line " + std::to_string(b.line) + ", " + r.shape + ") [" + cat + "] " + r.first_error);
    if (verbose) std::cout << "---- " << b.section << " after " << r.rounds << " rounds:\n" << r.module_text << "----\n";
  }
  std::cout << "\nby group:\n";
  for (const auto& [name, g] : groups) std::cout << "  " << std::setw(70) << name << g.first << "/" << g.second << "\n";
  std::cout << "\nfailing examples (first error, lines counted within the example):\n";
  for (const auto& f : failures) std::cout << "  " << f << "\n";
  std::cout << "\nexample lines refused as breaking their own section's rule (passing; harness.cpp lists them):\n";
  for (const auto& c : contradictions) std::cout << "  " << c << "\n";
  std::cout << "\nfailure categories:\n";
  for (const auto& [c, n] : categories) std::cout << "  " << std::setw(28) << c << n << "\n";
  std::cout << "\n" << ok << " passed, " << (static_cast<long>(failures.size())) << " failed, of " << blocks.size()
            << " Examples blocks (" << lines << " lines) in 9.7\n";

  int rc = 0;
  if (only.empty() && static_cast<long>(blocks.size()) < floor["blocks"]) {
    std::cout << "FAIL: extracted " << blocks.size() << " blocks, expected at least " << floor["blocks"] << "\n";
    rc = 1;
  }
  if (only.empty() && ok < floor["passing"]) {
    std::cout << "FAIL: " << ok << " examples pass, below the floor of " << floor["passing"] << "\n";
    rc = 1;
  } else if (only.empty() && ok > floor["passing"]) {
    std::cout << "note: " << ok << " pass, above the floor of " << floor["passing"] << "; raise it in " << argv[2] << "\n";
  }
  return rc;
}
