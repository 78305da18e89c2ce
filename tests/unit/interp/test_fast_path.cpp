// The interpreter's fast path (semantics/interp/fast.cpp) against the general path (exec_lane through
// semantics/ops, the one definition): every form of fast_path_forms.hpp, batched into kernels, run with
// Options::fast_path on and off over random and edge operands, must store bit-identical results after the same
// instruction counts; and the fast path must take exactly the forms claimed for it (fast_path_plan, the decision
// the launch makes), so that the comparison cannot pass with the fast path off.
#include "cli/coverage.hpp"
#include "semantics/interp/fast_path.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"
#include "tests/unit/interp/fast_path_forms.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace ptx::interp;
using fast_forms::Draw;
using fast_forms::Form;

namespace {
constexpr std::uint32_t kThreads = 256, kCtas = 2;  // CTA 0: edge values in every pairing; CTA 1: random
constexpr std::size_t kBatch = 300;                 // forms per kernel

// A kernel of some forms: its PTX, and per form the line of its instruction and where its bytes are.
struct Kernel {
  std::string ptx;
  std::vector<const Form*> forms;
  std::vector<std::uint32_t> line, in_at, out_at;
  std::uint32_t in_stride = 0, out_stride = 0;  // bytes per thread
};

const char* kPrologue = R"(.version 9.0
.target sm_100a
.address_size 64
.global .align 16 .b8 gvar[32];
.const .align 16 .b8 cbuf[16] = {0x81, 0x12, 0xa3, 0x34, 0xc5, 0x56, 0xe7, 0x78, 0x09, 0x9a, 0x2b, 0xbc, 0x4d, 0xde, 0x6f, 0xf0};
.func (.param .align 8 .b8 r[16]) echo(.param .align 8 .b8 a[16]) {
  .reg .b64 %x<2>;
  ld.param.b64 %x0, [a]; ld.param.b64 %x1, [a+8];
  st.param.b64 [r], %x0; st.param.b64 [r+8], %x1;
  ret;
}
.visible .entry k(.param .u64 out, .param .u64 in, .param .u64 pv) {
  .reg .b32 %kt, %kg; .reg .b64 %ib, %ob, %sb, %lb, %kx;
  .local .align 16 .b8 lbuf[16];
)";

// Line `l` of form `i` as PTX: `$` its register prefix, IN{k[:off]} / OUT{k} its input / output bytes.
std::string place(const std::string& l, std::size_t i, std::uint32_t in_at, std::uint32_t out_at) {
  std::string s;
  for (std::size_t p = 0; p < l.size(); ++p) {
    if (l[p] == '$') {
      s += "%q" + std::to_string(i) + "_";
    } else if (l.compare(p, 3, "IN{") == 0 || l.compare(p, 4, "OUT{") == 0) {
      const bool in = l[p] == 'I';
      const std::size_t close = l.find('}', p);
      const std::string inside = l.substr(p + (in ? 3 : 4), close - p - (in ? 3 : 4));
      const std::size_t colon = inside.find(':');
      const std::uint32_t k = static_cast<std::uint32_t>(std::stoul(inside.substr(0, colon)));
      const std::uint32_t off = colon == std::string::npos ? 0 : static_cast<std::uint32_t>(std::stoul(inside.substr(colon + 1)));
      s += in ? "%ib+" + std::to_string(in_at + 16 * k + off) : "%ob+" + std::to_string(out_at + 8 * k);
      p = close;
    } else {
      s += l[p];
    }
  }
  return s;
}

Kernel build_kernel(const std::vector<const Form*>& forms) {
  Kernel k;
  k.forms = forms;
  for (const Form* f : forms) {
    k.in_at.push_back(k.in_stride);
    k.out_at.push_back(k.out_stride);
    k.in_stride += 16 * static_cast<std::uint32_t>(f->inputs.size());
    k.out_stride += 8 * f->outputs;
  }
  k.in_stride = std::max<std::uint32_t>(k.in_stride, 16);
  k.out_stride = std::max<std::uint32_t>(k.out_stride, 8);
  std::vector<std::string> lines;
  auto add = [&](const std::string& text) {
    std::size_t p = 0;
    for (std::size_t n; (n = text.find('\n', p)) != std::string::npos; p = n + 1) lines.push_back(text.substr(p, n - p));
    if (p < text.size()) lines.push_back(text.substr(p));
  };
  add(kPrologue);
  add("  .shared .align 16 .b8 sbuf[" + std::to_string(32 + 16 * kThreads) + "];");
  for (std::size_t i = 0; i < forms.size(); ++i)
    for (const auto& d : forms[i]->decls) lines.push_back("  " + place(d, i, 0, 0));
  add(R"(  mov.u32 %kt, %tid.x;
  mov.u32 %kg, %ctaid.x;
  mad.lo.u32 %kg, %kg, )" + std::to_string(kThreads) + R"(, %kt;
  ld.param.u64 %ib, [in];
  ld.param.u64 %ob, [out];
  mul.wide.u32 %kx, %kg, )" + std::to_string(k.in_stride) + R"(;
  add.u64 %ib, %ib, %kx;
  mul.wide.u32 %kx, %kg, )" + std::to_string(k.out_stride) + R"(;
  add.u64 %ob, %ob, %kx;
  mov.u64 %sb, sbuf;
  mul.wide.u32 %kx, %kt, 16;
  add.u64 %sb, %sb, %kx;
  add.u64 %sb, %sb, 32;
  mov.u64 %lb, lbuf;)");
  for (std::size_t i = 0; i < forms.size(); ++i) {
    for (const auto& l : forms[i]->lines) {
      const bool is_form = l.rfind("=> ", 0) == 0;
      if (is_form) k.line.push_back(static_cast<std::uint32_t>(lines.size() + 1));
      lines.push_back("  " + place(is_form ? l.substr(3) : l, i, k.in_at[i], k.out_at[i]));
    }
  }
  add("  ret;\n}");
  for (const auto& l : lines) k.ptx += l + "\n";
  return k;
}

// ---- operand values

std::uint64_t mask(unsigned w) { return w >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << w) - 1; }

// 16 values per kind of input: the edges first, random values after them.
std::uint64_t edge(const fast_forms::Input& in, unsigned index, std::mt19937_64& rng) {
  const unsigned w = in.width;
  const std::uint64_t r = rng();
  switch (in.draw) {
    case Draw::pred: return r & 1;
    case Draw::shift: {
      const std::uint64_t e[] = {0, 1, w - 1u, w, w + 1u, 2 * w, 31, 32, 33, 63, 64, 65, 0xffffffffu, 0x80000000u, 0x7fffffffu};
      return index < std::size(e) ? e[index] : r & 127;
    }
    case Draw::f32: {
      // +-0, +-1, +-inf, NaNs (quiet, negative with a payload, signalling), least and greatest subnormal, least
      // normal, +-greatest finite.
      const std::uint32_t e[] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
                                 0x7f800001u, 0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu};
      return index < std::size(e) ? e[index] : r & 0xffffffffu;
    }
    case Draw::bits: break;
  }
  const std::uint64_t m = mask(w), min = std::uint64_t(1) << (w - 1);
  const std::uint64_t e[] = {0, 1, m, min, m >> 1, 2, min + 1, m - 1, 0x5555555555555555ull & m, 0xaaaaaaaaaaaaaaaaull & m};
  const std::uint64_t v = index < std::size(e) ? e[index] : r & m;
  return v | (rng() & ~m);  // bits above the type: what a wider register holds beyond it
}

// Thread g's bytes of the input buffer: slot j of a form takes edge number index(j, t) in CTA 0, so that the
// first two inputs of a form meet in all 16 x 16 pairings; CTA 1 takes random values.
std::vector<std::uint8_t> inputs(const Kernel& k, std::uint64_t seed) {
  std::vector<std::uint8_t> bytes(std::size_t(k.in_stride) * kThreads * kCtas);
  std::mt19937_64 rng(seed);
  for (std::uint32_t g = 0; g < kThreads * kCtas; ++g) {
    const std::uint32_t t = g % kThreads;
    for (std::size_t i = 0; i < k.forms.size(); ++i) {
      for (std::size_t j = 0; j < k.forms[i]->inputs.size(); ++j) {
        const unsigned index = g >= kThreads ? 16u : j % 3 == 0 ? t & 15 : j % 3 == 1 ? (t >> 4) & 15 : (t * 7 + (t >> 4) * 3 + 5) & 15;
        const std::uint64_t words[2] = {edge(k.forms[i]->inputs[j], index, rng), rng()};
        std::memcpy(bytes.data() + std::size_t(k.in_stride) * g + k.in_at[i] + 16 * j, words, 16);
      }
    }
  }
  return bytes;
}

RunResult run_kernel(const ptx::ir::Module& m, const Kernel& k, const std::vector<std::uint8_t>& in, bool fast) {
  Launch l;
  l.kernel = "k";
  l.grid = {kCtas, 1, 1};
  l.block = {kThreads, 1, 1};
  l.buffers.push_back({"out", std::vector<std::uint8_t>(std::size_t(k.out_stride) * kThreads * kCtas)});
  l.buffers.push_back({"in", in});
  l.params.push_back({"out", {}, 0, {}});
  l.params.push_back({"in", {}, 0, {}});
  l.params.push_back({"", ptx::ir::ScalarType::u64, 0x8877665544332211ull, {}});
  Options o;
  o.fast_path = fast;
  return run(m, l, o);
}
}  // namespace

namespace {
struct Tally {
  std::size_t fast = 0, declined = 0, compared = 0, not_runnable = 0, rejected = 0, disagreeing = 0;
  std::map<FastKind, std::size_t> by_kind;
  std::set<std::pair<std::string, FastKind>> compared_fast;  // the opcodes (ir::opcode_text) compared, by fast kind
};

const ptx::ir::Function& function(const ptx::ir::Module& m, const std::string& name) {
  for (const auto& f : m.functions)
    if (f.name == name) return f;
  FAIL("no function " << name);
  return m.functions.front();
}

// The fast path's decision for each form of k, found by the line of its instruction (the decision a launch
// with Options::fast_path makes when it first decodes the instruction: Machine::decode_first).
struct Planned {
  FastKind kind;
  std::string opcode;  // ir::opcode_text
};
std::vector<Planned> planned(const ptx::ir::Module& m, const Kernel& k) {
  const auto& kernel = function(m, "k");
  const auto plan = fast_path_plan(kernel);
  REQUIRE(plan.size() == kernel.body.size());
  std::map<std::uint32_t, Planned> by_line;
  for (std::size_t i = 0; i < kernel.body.size(); ++i) by_line[kernel.body[i].loc.ptx_line] = {plan[i], ptx::ir::opcode_text(kernel.body[i])};
  std::vector<Planned> kinds;
  for (std::uint32_t line : k.line) {
    REQUIRE(by_line.count(line));
    kinds.push_back(by_line[line]);
  }
  return kinds;
}

std::string word(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v = 0;
  std::memcpy(&v, b.data() + at, 8);
  char s[24];
  std::snprintf(s, sizeof s, "0x%016llx", static_cast<unsigned long long>(v));
  return s;
}

// Whether form i's bytes of a buffer (`size` bytes from `at` in each thread's `stride`) agree in both runs; the
// first difference is reported.
bool same_bytes(const Form& f, const std::vector<std::uint8_t>& fast, const std::vector<std::uint8_t>& general,
                std::uint32_t stride, std::uint32_t at, std::uint32_t size, const char* buffer) {
  for (std::uint32_t g = 0; g < kThreads * kCtas; ++g) {
    const std::size_t p = std::size_t(stride) * g + at;
    for (std::uint32_t b = 0; b < size; b += 8) {
      if (std::memcmp(fast.data() + p + b, general.data() + p + b, 8) == 0) continue;
      FAIL_CHECK(f.name << ": thread " << g << ", " << std::string(buffer) << " word " << b / 8 << ": fast path " << word(fast, p + b)
                        << ", semantics/ops " << word(general, p + b));
      return false;
    }
  }
  return true;
}

void run_both(const ptx::ir::Module& m, const Kernel& k, std::uint64_t seed, Tally& tally) {
  const auto in = inputs(k, seed);
  const RunResult fast = run_kernel(m, k, in, true), general = run_kernel(m, k, in, false);
  REQUIRE_MESSAGE(fast.ok(), fast.problem.message);
  REQUIRE_MESSAGE(general.ok(), general.problem.message);
  CHECK(fast.stats.warp_instructions == general.stats.warp_instructions);
  CHECK(fast.stats.lane_instructions == general.stats.lane_instructions);
  for (std::size_t i = 0; i < k.forms.size(); ++i) {
    const Form& f = *k.forms[i];
    bool same = same_bytes(f, fast.buffers[0].second, general.buffers[0].second, k.out_stride, k.out_at[i], 8 * f.outputs, "out");
    same = same_bytes(f, fast.buffers[1].second, general.buffers[1].second, k.in_stride, k.in_at[i], 16 * static_cast<std::uint32_t>(f.inputs.size()), "in") && same;
    tally.disagreeing += !same;
    ++tally.compared;
  }
}

// Loads, asks the plan of and (when `runnable`) runs the forms as one kernel; a kernel the parser refuses is
// split into the forms it refuses (counted, each a failure) and the rest.
void check_forms(const std::vector<const Form*>& forms, bool runnable, std::uint64_t seed, Tally& tally) {
  const Kernel k = build_kernel(forms);
  auto loaded = ptx::ir::load_ptx(k.ptx, "fast_path.ptx");
  if (!loaded) {
    std::vector<const Form*> accepted;
    for (const Form* f : forms) {
      auto alone = ptx::ir::load_ptx(build_kernel({f}).ptx, "fast_path.ptx");
      if (alone) accepted.push_back(f);
      else {
        ++tally.rejected;
        FAIL_CHECK("the parser refuses " << f->name << ": " << alone.errors.front().render());
      }
    }
    if (accepted.size() < forms.size()) check_forms(accepted, runnable, seed, tally);
    else FAIL_CHECK(loaded.errors.front().render());
    return;
  }
  const auto plan = planned(*loaded.module, k);
  for (std::size_t i = 0; i < forms.size(); ++i) {
    const FastKind kind = plan[i].kind;
    CHECK_MESSAGE(kind == forms[i]->expected, forms[i]->name << ": planned " << std::string(fast_kind_name(kind)) << ", claimed "
                                                             << std::string(fast_kind_name(forms[i]->expected)));
    if (kind == FastKind::none) ++tally.declined;
    else ++tally.fast, ++tally.by_kind[kind];
    if (kind != FastKind::none && runnable) tally.compared_fast.insert({plan[i].opcode, kind});
  }
  if (runnable) run_both(*loaded.module, k, seed, tally);
  else tally.not_runnable += forms.size();
}
}  // namespace

namespace {
// The table's side: every row of semantics/ir/isa_forms.def (in `ptxcheck coverage`'s kernel) that the fast path
// takes is, by opcode and fast kind, a form compared above, so a form the table lists cannot go to the fast path
// untested.
void check_isa_forms(const Tally& tally) {
  std::size_t rows = 0, fast = 0, unparsed = 0;
  for (const auto& row : ptxcheck::cli::isa_forms()) {
    ++rows;
    const auto k = ptxcheck::cli::form_kernel(row);
    auto loaded = ptx::ir::load_ptx(k.text, "coverage.ptx");
    if (!loaded) {
      ++unparsed;
      continue;
    }
    const auto& kernel = function(*loaded.module, "coverage_kernel");
    const auto plan = fast_path_plan(kernel);
    for (std::size_t i = 0; i < kernel.body.size(); ++i) {
      if (kernel.body[i].loc.ptx_line != k.form_line || plan[i] == FastKind::none) continue;
      ++fast;
      const std::string opcode = ptx::ir::opcode_text(kernel.body[i]);
      CHECK_MESSAGE(tally.compared_fast.count({opcode, plan[i]}), row.section << " " << k.form_text << ": the fast path takes it as "
                                                                             << std::string(fast_kind_name(plan[i])) << ", no form compared is "
                                                                             << opcode);
    }
  }
  std::printf("fast path: isa_forms.def: %zu rows, %zu taken by the fast path (each among the forms compared), %zu not parsed\n", rows,
              fast, unparsed);
  CHECK(fast > 0);
}
}  // namespace

TEST_CASE("the fast path computes what semantics/ops computes, on every form it takes") {
  const auto forms = fast_forms::fast_path_forms();
  Tally tally;
  std::vector<const Form*> batch, unmodelled;
  std::uint64_t seed = 1;
  for (const Form& f : forms) {
    (f.runnable ? batch : unmodelled).push_back(&f);
    if (batch.size() == kBatch) {
      check_forms(batch, true, seed++, tally);
      batch.clear();
    }
  }
  if (!batch.empty()) check_forms(batch, true, seed++, tally);
  if (!unmodelled.empty()) check_forms(unmodelled, false, seed, tally);
  // Every kind of fast form is among those taken: a planner that took nothing would fail here.
  for (int kind = 1; kind <= static_cast<int>(FastKind::mov_read); ++kind)
    CHECK_MESSAGE(tally.by_kind[static_cast<FastKind>(kind)] > 0, "no form runs as " << fast_kind_name(static_cast<FastKind>(kind)));
  std::printf("fast path: %zu forms: %zu planned fast, %zu declined; %zu compared both ways (%u threads each), %zu disagree;"
              " %zu only planned (semantics/ops does not model them); %zu refused by the parser\n",
              forms.size(), tally.fast, tally.declined, tally.compared, kThreads * kCtas, tally.disagreeing, tally.not_runnable,
              tally.rejected);
  std::printf("fast path: forms per kind:");
  for (const auto& [kind, n] : tally.by_kind) std::printf(" %s %zu", fast_kind_name(kind), n);
  std::printf("\n");
  CHECK(tally.rejected == 0);
  check_isa_forms(tally);
}
