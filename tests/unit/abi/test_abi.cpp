// Tests of `ptxcheck abi`: the chapter-4 table against the seed's text, the X3 source scanner, the
// strength order, and end-to-end verdicts on examples/abi (nvcc output and hand-written wrong PTX).
#include "checker/abi/active_lines.hpp"
#include "checker/abi/run.hpp"
#include "checker/abi/table.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

using namespace ptxcheck::abi;
using S = MemorySemantics;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
const std::string examples = std::string(PTXCHECK_SOURCE_DIR) + "/examples/abi/";

// Chapter 4 of the seed with its HTML debris removed: `fence.sc.<scope>; ld.acquire.<scope>; ...`.
std::string chapter4() {
  std::string text = slurp(std::string(PTXCHECK_SEEDS_DIR) + "/ptx-interoperability-13.0.txt");
  auto begin = text.find("# Chapter 4."), end = text.find("## Chapter 5.");
  REQUIRE(begin != std::string::npos);
  text = text.substr(begin, end - begin);
  text = std::regex_replace(text, std::regex("</scope>|</rmw>|<pre>|</pre>"), "");
  text = std::regex_replace(text, std::regex("<rmw op=\"\">"), "<rmw op>");
  return text;
}
// A table alternative written as the chapter writes it: `fence.sc.<scope>; atom.acquire.<scope>.<rmw op>;`.
std::string spec_form(const Alternative& alt) {
  std::string out;
  static const char* sems[] = {"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio"};
  static const char* classes[] = {"fence", "ld", "st", "atom"};
  for (const auto& s : alt) {
    out += (out.empty() ? "" : " ") + std::string(classes[int(s.cls)]) + "." + sems[int(s.sem)] + ".<scope>";
    if (s.cls == PtxClass::atom) out += ".<rmw op>";
    out += ";";
  }
  return out;
}
}  // namespace

TEST_CASE("abi: every load, store and rmw alternative appears verbatim in chapter 4") {
  const std::string text = chapter4();
  int checked = 0;
  for (auto kind : {OpKind::Load, OpKind::Store, OpKind::Rmw})
    for (auto order : {Order::relaxed, Order::acquire, Order::release, Order::acq_rel, Order::seq_cst}) {
      auto row = table_row(kind, order);
      if (!row) continue;
      for (const auto& alt : row->alternatives) {
        INFO(row->api << ": " << spec_form(alt));
        CHECK(text.find(spec_form(alt)) != std::string::npos);
        ++checked;
      }
    }
  CHECK(checked == 19);  // 2+2+1 loads, 1+2+1 stores, 2+2+2+3+1 rmw (counted by hand from the chapter)
}

TEST_CASE("abi: rows the chapter lacks, and the fence rows (garbled in the seed) against hand-typed text") {
  CHECK_FALSE(table_row(OpKind::Load, Order::release));
  CHECK_FALSE(table_row(OpKind::Store, Order::acquire));
  CHECK_FALSE(table_row(OpKind::Load, Order::acq_rel));
  CHECK(render(table_row(OpKind::Fence, Order::seq_cst)->alternatives[0], Scope::gpu, "") == "fence.sc.gpu");
  CHECK(render(table_row(OpKind::Fence, Order::release)->alternatives[0], Scope::cta, "") == "fence.release.cta");
  CHECK(render(table_row(OpKind::Fence, Order::acquire)->alternatives[0], Scope::sys, "") == "fence.acquire.sys");
  CHECK(render(table_row(OpKind::Fence, Order::acq_rel)->alternatives[0], Scope::cluster, "") == "fence.acq_rel.cluster");
  // consume is promoted to acquire
  CHECK(render(table_row(OpKind::Load, Order::consume)->alternatives[0], Scope::gpu, "") == "ld.acquire.gpu");
}

TEST_CASE("abi: strength order of the chapter's note (acquire and release are incomparable)") {
  CHECK(at_least(S::acquire, S::relaxed));
  CHECK(at_least(S::sc, S::acquire));
  CHECK(at_least(S::acq_rel, S::release));
  CHECK(at_least(S::volatile_, S::relaxed));
  CHECK_FALSE(at_least(S::release, S::acquire));
  CHECK_FALSE(at_least(S::acquire, S::release));
  CHECK_FALSE(at_least(S::relaxed, S::acquire));
  CHECK_FALSE(at_least(S::acq_rel, S::sc));
  CHECK_FALSE(at_least(S::weak, S::relaxed));
}

TEST_CASE("abi: the scanner finds operations with order, scope and position, and skips comments and strings") {
  const std::string src =
      "#include <cuda/atomic>\n"                                                         // 1
      "__device__ cuda::atomic<int, cuda::thread_scope_block> b;\n"                      // 2
      "__global__ void k(cuda::std::atomic<int>* s, volatile int* v, int* q) {\n"        // 3
      "  // b.load(cuda::std::memory_order_relaxed); atomicAdd(q, 1);\n"                 // 4
      "  const char* t = \"__threadfence();\";\n"                                         // 5
      "  int x = b.load(cuda::std::memory_order_acquire) + s->fetch_sub(1);\n"           // 6
      "  b.compare_exchange_weak(x, 2, cuda::std::memory_order_release, cuda::std::memory_order_relaxed);\n"  // 7
      "  cuda::atomic_thread_fence(cuda::std::memory_order_acq_rel, cuda::thread_scope_device);\n"           // 8
      "  ++b; b = 3; x = v[2]; *v += 1; myatomicAdd(q); atomicInc_block((unsigned*)q, 4u);\n"  // 9
      "  __threadfence_system(); bool y = b == 3;\n"                                     // 10
      "  volatile float f; f = 1.0f; __shared__ volatile int sflag; sflag = 1;\n"       // 11
      "  volatile int& r = q[0]; r = 2; volatile int* w = q + 1;\n"                      // 12
      "#ifdef NEVER\n  atomicOr(q, 1);\n#endif\n"                                     // 13-15
      "  atomicExch((int*)&v[0], atomicAdd(q, b.load(cuda::std::memory_order_relaxed)));\n"  // 16
      "  x = cuda::atomic_ref<int, cuda::thread_scope_device>(q[0]).fetch_max(1, cuda::std::memory_order_acq_rel);\n"  // 17
      "  cuda::std::atomic_store_explicit(s, 1, cuda::std::memory_order_release); x = atomic_load(&b);\n"  // 18
      "}\n";
  auto scan = scan_cuda_source(src, "k.cu");
  std::vector<std::string> got;
  for (const auto& op : scan.ops) got.push_back(std::to_string(op.line) + ":" + std::to_string(op.column) + " " + describe(op));
  std::vector<std::string> want = {
      "6:11 atomic_load(acquire, block)",
      "6:53 atomic_fetch_sub(seq_cst, system)",
      "7:3 atomic_compare_exchange(release, block)",
      "8:3 atomic_thread_fence(acq_rel, device)",
      "9:3 atomic_fetch_add(seq_cst, block)",
      "9:8 atomic_store(seq_cst, block)",
      "9:19 volatile_load(relaxed, system)",
      "9:25 volatile_load(relaxed, system)",
      "9:25 volatile_store(relaxed, system)",
      "9:50 atomic_fetch_inc(relaxed, block)",
      "10:3 atomic_thread_fence(seq_cst, system)",
      "11:62 volatile_store(relaxed, system)",  // the local `f` is private: not a memory operation
      "12:27 volatile_store(relaxed, system)",  // binding `r` loads nothing; `w = q + 1` stores nothing
      "14:3 atomic_fetch_or(relaxed, device)",  // the scanner alone does not preprocess
      "16:3 atomic_exchange(relaxed, device)",  // `&v[0]` takes an address: no volatile load
      "16:27 atomic_fetch_add(relaxed, device)", "16:40 atomic_load(relaxed, block)",  // nested calls
      "17:7 atomic_fetch_max(acq_rel, device)",  // member call on a temporary atomic_ref
      "18:3 atomic_store(release, system)", "18:80 atomic_load(seq_cst, block)",  // C-style free functions
  };
  CHECK(got == want);
}

TEST_CASE("abi: lines the device preprocessing drops are blanked (nvcc -E line markers)") {
  const std::string text = "a\n#ifdef X\nb\n#else\nc\n#endif\nd\n";
  const std::string pre = "# 1 \"k.cu\"\na\n# 5 \"k.cu\"\nc\n\n# 1 \"other.h\" 1\nb\n# 7 \"k.cu\" 2\nd\n";
  CHECK(keep_active_lines(text, pre, "k.cu") == "a\n\n\n\nc\n\nd\n");
  CHECK(keep_active_lines(text, "# 1 \"x.cu\"\nq\n", "k.cu") == text);  // no marker names the file
}

TEST_CASE("abi: nvcc's output for examples/abi/atomics_table.cu follows chapter 4 on every row") {
  AbiRequest req;
  req.input = examples + "atomics_table.cu";
  auto run = run_abi(req);
  REQUIRE_MESSAGE(!run.error, (run.error ? run.error->render() : ""));
  REQUIRE(run.reports.size() == 1);
  const auto& r = run.reports[0];
  CHECK(r.unmatched.empty());
  // Lines and operations as written in the example (read by hand).
  std::vector<std::pair<int, std::string>> want = {
      {20, "atomic_thread_fence(seq_cst, device)"}, {21, "atomic_load(seq_cst, device)"},
      {22, "atomic_store(seq_cst, device)"}, {23, "atomic_fetch_add(seq_cst, device)"},
      {24, "atomic_exchange(seq_cst, block)"}, {26, "atomic_thread_fence(release, block)"},
      {27, "atomic_store(release, block)"}, {28, "atomic_fetch_or(release, system)"},
      {30, "atomic_thread_fence(acquire, system)"}, {31, "atomic_load(acquire, system)"},
      {32, "atomic_fetch_and(acquire, device)"}, {34, "atomic_thread_fence(acq_rel, device)"},
      {35, "atomic_fetch_xor(acq_rel, block)"}, {36, "atomic_compare_exchange(acq_rel, device)"},
      {38, "atomic_load(relaxed, block)"}, {39, "atomic_store(relaxed, system)"},
      {40, "atomic_fetch_min(relaxed, device)"}, {41, "atomic_fetch_max(relaxed, system)"},
      {42, "atomic_fetch_sub(relaxed, device)"}, {44, "atomic_load(seq_cst, system)"},
      {45, "atomic_store(seq_cst, system)"}, {46, "atomic_fetch_add(seq_cst, system)"},
      {47, "atomic_fetch_add(seq_cst, system)"}, {49, "atomic_fetch_add(relaxed, device)"},
      {50, "atomic_compare_exchange(relaxed, block)"}, {51, "atomic_exchange(relaxed, system)"},
      {52, "atomic_fetch_max(relaxed, device)"}, {54, "atomic_thread_fence(seq_cst, device)"},
      {55, "atomic_thread_fence(seq_cst, block)"}, {56, "atomic_thread_fence(seq_cst, system)"},
      {58, "volatile_load(relaxed, system)"}, {59, "volatile_store(relaxed, system)"}};
  REQUIRE(r.results.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& x = r.results[i];
    INFO("line " << x.op.line << " " << describe(x.op) << " -> " << verdict_name(x.verdict) << " " << x.why);
    CHECK(int(x.op.line) == want[i].first);
    CHECK(describe(x.op) == want[i].second);
    CHECK((x.verdict == Verdict::ok || x.verdict == Verdict::stronger));
    CHECK(!x.ptx.empty());
  }
  // The seq_cst load (line 21) became a fence.sc then a load at gpu scope, as the table's first row says.
  REQUIRE(r.results[1].ptx.size() == 2);
  CHECK(r.results[1].ptx[0].text == "fence.sc.gpu");
  CHECK(r.results[1].ptx[1].text.rfind("ld.acquire.gpu", 0) == 0);
  CHECK(run.exit_code() == 0);
}

TEST_CASE("abi: hand-written PTX with wrong mappings is flagged line by line") {
  AbiRequest req;
  req.input = examples + "wrong_mapping.ptx";
  req.source = examples + "wrong_mapping.cu";
  auto run = run_abi(req);
  REQUIRE_MESSAGE(!run.error, (run.error ? run.error->render() : ""));
  const auto& r = run.reports.at(0);
  // From the header comment of wrong_mapping.ptx, decided by reading the table.
  std::vector<std::pair<int, Verdict>> want = {{6, Verdict::wrong},    {7, Verdict::wrong},  {8, Verdict::wrong},
                                               {9, Verdict::missing},  {10, Verdict::stronger}, {11, Verdict::ok},
                                               {12, Verdict::wrong},   {13, Verdict::wrong}, {14, Verdict::wrong}};
  REQUIRE(r.results.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("line " << r.results[i].op.line << ": got " << verdict_name(r.results[i].verdict));
    CHECK(int(r.results[i].op.line) == want[i].first);
    CHECK(r.results[i].verdict == want[i].second);
  }
  CHECK(run.exit_code() == 1);
  // The same source compiled by nvcc is fine.
  AbiRequest good;
  good.input = examples + "wrong_mapping.cu";
  CHECK(run_abi(good).exit_code() == 0);
}

TEST_CASE("abi: unoptimised code (calls not inlined, order chosen at run time) is unknown, never a guess") {
  AbiRequest req;
  req.input = examples + "atomics_table.cu";
  req.opt_levels = {"0"};
  auto run = run_abi(req);
  REQUIRE(!run.error);
  int unknown = 0;
  for (const auto& x : run.reports.at(0).results) {
    CHECK(x.verdict != Verdict::wrong);
    CHECK(x.verdict != Verdict::missing);
    unknown += x.verdict == Verdict::unknown;
  }
  CHECK(unknown > 0);
  CHECK(run.exit_code() == 3);
}

TEST_CASE("abi: bad input is an error value (exit 2)") {
  AbiRequest no_source;
  no_source.input = examples + "wrong_mapping.ptx";
  CHECK(run_abi(no_source).exit_code() == 2);
  AbiRequest missing;
  missing.input = examples + "no_such_file.cu";
  CHECK(run_abi(missing).exit_code() == 2);
}
